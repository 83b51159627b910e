"""WSGI entry point: `gunicorn wsgi:app`."""

from pbem import create_app

app = create_app()
