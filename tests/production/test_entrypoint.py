"""The Docker image's entry point and gunicorn configuration, tested without Docker."""

import json
import os
import runpy
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from readinglist import __version__
from readinglist.local_server import BASE_DIR, gunicorn, production_env

ENTRYPOINT = BASE_DIR / "docker-entrypoint.sh"


def entrypoint(*args: str, **env: str) -> CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(ENTRYPOINT), *args],
        cwd=BASE_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_web_is_the_default_and_runs_gunicorn_with_its_config() -> None:
    result = entrypoint(DRY_RUN="1")
    assert result.returncode == 0
    assert result.stdout.strip() == (
        "gunicorn --config gunicorn.conf.py readinglist.wsgi:application"
    )
    assert "migrate" not in result.stdout


def test_web_passes_extra_arguments_to_gunicorn() -> None:
    result = entrypoint("web", "--workers", "3", DRY_RUN="1")
    assert result.stdout.strip().endswith("readinglist.wsgi:application --workers 3")


def test_migrate_is_one_command() -> None:
    # The cache tables come with migrate itself (readinglist/cache_tables.py).
    result = entrypoint("migrate", DRY_RUN="1", PYTHON="python")
    assert result.stdout.splitlines() == ["python manage.py migrate --noinput"]


def test_cron_runs_the_schedule() -> None:
    assert entrypoint("cron", DRY_RUN="1").stdout.strip() == "python manage.py run_schedule"


def test_load_catalog_and_manage_pass_their_arguments() -> None:
    assert entrypoint("load-catalog", "x.toml", DRY_RUN="1").stdout.strip() == (
        "python manage.py load_catalog x.toml"
    )
    assert entrypoint("manage", "backup", "--output", "f.json.gz", DRY_RUN="1").stdout.strip() == (
        "python manage.py backup --output f.json.gz"
    )


def test_worker_runs_the_task_worker_without_reloading() -> None:
    assert entrypoint("worker", "--max-tasks", "100", DRY_RUN="1").stdout.strip() == (
        "python manage.py db_worker --no-reload --interval 1 --max-tasks 100"
    )


def test_an_unknown_command_is_refused() -> None:
    result = entrypoint("serve")
    assert result.returncode == 64
    assert "unknown command 'serve'" in result.stderr


def test_a_failing_step_stops_the_script() -> None:
    result = entrypoint("migrate", PYTHON="false")
    assert result.returncode != 0
    assert result.stdout == ""


def load_gunicorn_config(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in (
        "WEB_CONCURRENCY",
        "GUNICORN_TIMEOUT",
        "GUNICORN_GRACEFUL_TIMEOUT",
        "PORT",
        "BIND",
        "GUNICORN_ACCESS_LOG",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(BASE_DIR / "gunicorn.conf.py"))


def test_gunicorn_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_gunicorn_config(
        monkeypatch,
        WEB_CONCURRENCY="3",
        GUNICORN_TIMEOUT="45",
        GUNICORN_GRACEFUL_TIMEOUT="20",
        PORT="9000",
    )
    assert config["workers"] == 3
    assert config["timeout"] == 45
    assert config["graceful_timeout"] == 20
    assert config["bind"] == "0.0.0.0:9000"
    assert config["accesslog"] == "-"
    assert config["errorlog"] == "-"
    assert config["preload_app"] is False


def test_gunicorn_config_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_gunicorn_config(monkeypatch)
    assert config["bind"] == "0.0.0.0:8000"
    assert 1 <= config["workers"] <= 8
    assert config["timeout"] == 30
    assert config["graceful_timeout"] == 30


def test_gunicorn_access_log_lines_are_json(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_gunicorn_config(monkeypatch)
    sample = {
        "h": "1.2.3.4",
        "m": "GET",
        "U": "/",
        "q": "",
        "s": "200",
        "B": "10",
        "M": "12",
        "{x-request-id}o": "abc",
        "a": "agent",
    }
    line = json.loads(config["access_log_format"] % sample)
    assert line["status"] == 200 and line["request_id"] == "abc"


def test_dockerfile_collects_static_runs_as_non_root_and_checks_health() -> None:
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    assert "FROM python:3.13-slim AS build" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    assert "\nUSER app\n" in dockerfile
    assert "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    assert 'ENTRYPOINT ["/app/docker-entrypoint.sh"]' in dockerfile
    # What the image holds is tested by assembling it: tests/production/test_image.py.


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_real_gunicorn_serves_health_then_readiness_after_migrate(tmp_path: Path) -> None:
    """Production settings in gunicorn: /healthz needs no database; /readyz waits for migrate."""
    database = tmp_path / "db.sqlite3"
    env = production_env(DATABASE_URL=f"sqlite:///{database}", CACHE_URL="locmemcache://")
    log = (tmp_path / "gunicorn.log").open("w")
    with gunicorn(env=env, workers=2, log=log) as (url, _process):
        status, body = get(f"{url}/healthz")
        assert (status, json.loads(body)) == (200, {"status": "ok", "version": __version__})

        status, body = get(f"{url}/readyz")
        assert status == 503
        assert "not applied" in json.loads(body)["reason"]

        migrated = subprocess.run(
            ["sh", str(ENTRYPOINT), "migrate"],
            cwd=BASE_DIR,
            env={**env, "PYTHON": sys.executable},
            capture_output=True,
            text=True,
            check=False,
        )
        assert migrated.returncode == 0, migrated.stderr
        status, body = get(f"{url}/readyz")
        assert (status, json.loads(body)) == (200, {"status": "ok"})
    log.close()
    lines = [
        json.loads(line) for line in Path(log.name).read_text().splitlines() if line[:1] == "{"
    ]
    requests = [line for line in lines if line.get("logger") == "readinglist.request"]
    assert {line["path"] for line in requests} >= {"/healthz", "/readyz"}


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes_answer_any_host_over_plain_http(
    client: Client, path: str, settings: Settings, db: None
) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["example.com"]
    response = client.get(path, HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200
