"""The MAILERS setting (Django 6.1): console in development, SMTP (EMAIL_URL) in production."""

from typing import Any

import environ

# Django's console and SMTP transports, sending text with every line whole so a long link is
# never broken by quoted-printable (readinglist/mail.py).
_WHOLE_LINE_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend": "readinglist.mail.ConsoleEmailBackend",
    "django.core.mail.backends.smtp.EmailBackend": "readinglist.mail.SMTPEmailBackend",
}
_TRANSPORT_OPTIONS = {"EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_USE_SSL"}


def mailers(env: environ.Env, debug: bool) -> dict[str, dict[str, Any]]:
    email = env.email_url("EMAIL_URL", default="consolemail://" if debug else "smtp://localhost:25")
    options = {
        key.removeprefix("EMAIL_").lower(): value
        for key, value in email.items()
        if key in _TRANSPORT_OPTIONS and value
    }
    if email.get("EMAIL_HOST_USER"):
        options |= {"username": email["EMAIL_HOST_USER"], "password": email["EMAIL_HOST_PASSWORD"]}
    backend = email["EMAIL_BACKEND"]
    return {"default": {"BACKEND": _WHOLE_LINE_BACKENDS.get(backend, backend), "OPTIONS": options}}
