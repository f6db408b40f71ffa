"""The LOGGING setting: one JSON object per line on stdout in production (see
readinglist/observability.py), readable text in development. LOG_FORMAT=json|text and LOG_LEVEL
override."""

from typing import Any

import environ


def logging_config(env: environ.Env, debug: bool) -> dict[str, Any]:
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": "readinglist.observability.JSONFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "formatter": env.str("LOG_FORMAT", default="text" if debug else "json"),
            }
        },
        "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
        "loggers": {
            # Django's defaults give `django` a console handler of its own (DEBUG only) that
            # also propagates here: every line twice. Configuring it drops that handler (and
            # mail_admins; errors are in the log), so lines reach the root handler once.
            "django": {"handlers": [], "level": "INFO", "propagate": True},
            "django.request": {"level": "ERROR"},
            # runserver prints its own request lines in development.
            "readinglist.request": {"level": "WARNING" if debug else "INFO"},
        },
    }
