"""gunicorn's settings for pbem (read from the working directory): `gunicorn wsgi:app`."""

from __future__ import annotations

import os

# Threads keep HTTP/1.1 connections open between requests and overlap a request's waits on
# the database; one process per core does the Python work.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
threads = int(os.environ.get("PBEM_THREADS") or 4)
keepalive = 5  # seconds an idle connection is kept (a proxy in front may keep its own)
