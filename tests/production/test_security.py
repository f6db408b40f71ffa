"""Hardening under production settings (DEBUG off)."""

import json
import os
import subprocess
import sys
from subprocess import CompletedProcess
from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from readinglist.local_server import BASE_DIR
from tests.hints import SmallCatalog

PRODUCTION = {
    "SECRET_KEY": "a-long-random-production-secret-for-this-test-only-0123456789abcdef",
    "ALLOWED_HOSTS": "example.com",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/readinglist",
    # A deployment sends from its own domain (operations.W007 warns about the default's).
    "DEFAULT_FROM_EMAIL": "readinglist <noreply@example.org>",
}


def run_python(code: list[str], **env: str | None) -> CompletedProcess[str]:
    """Run Python in a production process's environment: none of the test run's relaxations.
    A variable given as None is left out of the environment altogether."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "REDIS_URL", "CACHE_URL", "SECURE_SSL_REDIRECT", "SITE_DOMAIN"}
        and not k.startswith(("DJANGO_", "PYTEST"))
    }
    return subprocess.run(
        [sys.executable, *code],
        cwd=BASE_DIR,
        env={
            name: value
            for name, value in {
                **base,
                "DJANGO_SETTINGS_MODULE": "readinglist.settings",
                **env,
            }.items()
            if value is not None
        },
        capture_output=True,
        text=True,
        check=False,
    )


def settings_value(expression: str, **env: str | None) -> Any:
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({expression}, default=str))"
    )
    result = run_python(["-c", code], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_prints_no_warnings() -> None:
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = run_python(["manage.py", "check"], **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_are_strict() -> None:
    values = settings_value(
        "{k: getattr(settings, k) for k in ['SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', "
        "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', "
        "'X_FRAME_OPTIONS', 'SECURE_CONTENT_TYPE_NOSNIFF', 'SECURE_REFERRER_POLICY', "
        "'SECURE_REDIRECT_EXEMPT', 'SESSION_ENGINE']}",
        **PRODUCTION,
    )
    assert values == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SESSION_COOKIE_HTTPONLY": True,
        "X_FRAME_OPTIONS": "DENY",
        "SECURE_CONTENT_TYPE_NOSNIFF": True,
        "SECURE_REFERRER_POLICY": "same-origin",
        "SECURE_REDIRECT_EXEMPT": ["^healthz$", "^readyz$"],
        "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db",
    }


def test_proxy_ssl_header_comes_from_the_environment() -> None:
    assert (
        settings_value("getattr(settings, 'SECURE_PROXY_SSL_HEADER', None)", **PRODUCTION) is None
    )
    assert settings_value(
        "settings.SECURE_PROXY_SSL_HEADER", **PRODUCTION, SECURE_PROXY_SSL_HEADER="true"
    ) == ["HTTP_X_FORWARDED_PROTO", "https"]


@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({"REDIS_URL": "redis://cache:6379/0"}, "readinglist.cache.FailOpenRedisCache"),
        ({}, "django.core.cache.backends.db.DatabaseCache"),
        ({"DEBUG": "true"}, "django.core.cache.backends.locmem.LocMemCache"),
    ],
    ids=["redis", "production-default-shared", "development"],
)
def test_the_cache_is_shared_between_processes_in_production(
    env: dict[str, str], backend: str
) -> None:
    caches = settings_value("settings.CACHES['default']", **PRODUCTION, **env)
    assert caches["BACKEND"] == backend
    if "REDIS_URL" in env:
        assert caches["LOCATION"] == "redis://cache:6379/0"


def test_the_pool_replaces_dead_connections() -> None:
    pool = settings_value(
        "[settings.DATABASES['default']['CONN_MAX_AGE'], "
        "settings.DATABASES['default']['OPTIONS']['pool']['check'].__qualname__]",
        **PRODUCTION,
    )
    assert pool == [0, "ConnectionPool.check_connection"]


def test_security_headers_on_every_page(
    client: Client, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
    csp = response["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in csp
    assert "style-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    # Plain HTTP is sent to HTTPS, except the probes.
    assert client.get("/").status_code == 301


def test_session_and_csrf_cookies_are_secure_and_http_only(
    client: Client, reader: User, settings: Settings
) -> None:
    from tests.conftest import PASSWORD

    page = client.get("/accounts/login/", secure=True)
    csrf = page.cookies["csrftoken"]
    assert csrf["secure"]
    response = client.post(
        "/accounts/login/",
        {"login": reader.email, "password": PASSWORD},
        secure=True,
    )
    assert response.status_code == 302
    session = response.cookies["sessionid"]
    assert session["secure"] and session["httponly"]


def test_secure_cookies_false_lets_production_settings_run_over_plain_http() -> None:
    values = settings_value(
        "[settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
        "settings.SECURE_SSL_REDIRECT, settings.DEBUG]",
        **PRODUCTION,
        SECURE_COOKIES="false",
    )
    # The redirect to HTTPS has its own switch (SECURE_SSL_REDIRECT); DEBUG stays off.
    assert values == [False, False, True, False]


def test_check_deploy_warns_while_secure_cookies_is_off() -> None:
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **PRODUCTION,
        SECURE_COOKIES="false",
    )
    assert result.returncode != 0
    report = result.stdout + result.stderr
    assert "(security.W012) SESSION_COOKIE_SECURE" in report
    assert "(security.W016)" in report
