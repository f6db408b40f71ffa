# syntax=docker/dockerfile:1
# Build:  docker build -t readinglist .
# Run:    see compose.yaml and the README's "Production" section.

# --- build: install the project and its dependencies into a venv, collect static files ---
FROM python:3.13-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /app
RUN python -m venv /venv
# Dependencies first, from pyproject alone, so code edits do not reinstall them: an empty
# package stands in for the project while pip resolves its dependencies, then goes again.
COPY pyproject.toml README.md ./
RUN mkdir -p readinglist && echo '__version__ = "0"' > readinglist/__init__.py \
    && /venv/bin/pip install . \
    && /venv/bin/pip uninstall --yes readinglist \
    && rm -rf readinglist build
# The whole project by one rule, less what .dockerignore leaves out (tests, docs, local data,
# secrets): a new app is in the image without anyone editing this file.
# tests/production/test_image.py builds this tree from these COPY lines and runs
# `check --deploy` and `collectstatic` in it.
COPY . .
# whitenoise's CompressedManifestStaticFilesStorage (chosen when DEBUG is off) hashes and
# compresses every file here, at build time, so workers start without touching static files.
RUN SECRET_KEY=collectstatic-only DATABASE_URL=sqlite:////tmp/unused.sqlite3 \
    /venv/bin/python manage.py collectstatic --noinput

# --- runtime: the venv, the code and the collected static files; no compilers, no root ---
FROM python:3.13-slim
ENV PATH=/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PORT=8000 \
    BACKUP_DIR=/backups \
    MEDIA_ROOT=/media \
    GUNICORN_WORKER_TMP_DIR=/dev/shm \
    HEARTBEAT_DIR=/dev/shm
# /backups is where `manage backup` writes without --output (BACKUP_DIR). A named volume mounted
# there starts as a copy of this folder, owner and mode included, so the app user can write to
# it and nobody else can read the backups (they hold password hashes and private notes).
# /media holds teams' uploaded files (MEDIA_ROOT) on the same terms: only the app reads them.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app \
    && install --directory --owner app --group app --mode 0700 /backups /media
WORKDIR /app
COPY --from=build /venv /venv
COPY --from=build --chown=root:root /app /app
USER app
EXPOSE 8000
# The web service's check (compose gives worker and cron their own): no curl in the slim
# image, so ask Python. /healthz needs no database, so a database outage does not get every
# container restarted (readiness is /readyz, for the load balancer).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", timeout=4)"]
ENTRYPOINT ["/app/docker-entrypoint.sh"]
CMD ["web"]
