"""WSGI entry point: `gunicorn wsgi:app`."""

from pbem.web.app import create_app

app = create_app()
