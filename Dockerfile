# syntax=docker/dockerfile:1
FROM python:3.13-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
RUN python -m venv /venv
COPY pyproject.toml README.md ./
COPY readinglist ./readinglist
COPY catalog ./catalog
COPY accounts ./accounts
RUN /venv/bin/pip install .
COPY manage.py ./
COPY templates ./templates
COPY static ./static
RUN SECRET_KEY=collectstatic-only /venv/bin/python manage.py collectstatic --noinput

FROM python:3.13-slim
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
RUN useradd --create-home --uid 10001 app
WORKDIR /app
COPY --from=build /venv /venv
COPY --from=build /app /app
USER app
EXPOSE 8000
CMD ["gunicorn", "readinglist.wsgi:application", "--bind", "0.0.0.0:8000"]
