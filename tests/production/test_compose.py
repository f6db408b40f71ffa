"""The compose stack: replicas of web behind one proxy, sharing PostgreSQL and Redis."""

import fnmatch
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from pytest_django import Settings

from readinglist.local_server import BASE_DIR
from tests.hints import found

yaml = pytest.importorskip("yaml")


# compose.yaml's services as YAML reads them: names to mappings of whatever the file holds.
Services = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def services() -> Services:
    return yaml.safe_load((BASE_DIR / "compose.yaml").read_text())["services"]


def test_web_scales_behind_one_published_address(services: Services) -> None:
    # A published port on web would make `--scale web=3` fail on the second replica.
    assert "ports" not in services["web"]
    assert services["proxy"]["ports"] == ["${PORT:-8000}:8000"]
    mounted = services["proxy"]["volumes"][0].split(":")[0]
    assert (BASE_DIR / mounted).is_file()


def test_every_app_process_shares_redis(services: Services) -> None:
    # The worker too: its recomputes bump the catalog version the web replicas' caches read.
    for name in ("web", "migrate", "worker"):
        assert services[name]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_a_worker_runs_the_tasks_web_requests_enqueue(services: Services) -> None:
    assert services["worker"]["command"] == ["worker"]
    assert services["worker"]["depends_on"]["migrate"] == {
        "condition": "service_completed_successfully"
    }


@pytest.mark.skipif(shutil.which("caddy") is None, reason="needs the caddy binary")
def test_the_caddyfile_is_valid() -> None:
    result = subprocess.run(
        ["caddy", "validate", "--adapter", "caddyfile", "--config", "deploy/Caddyfile"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _caddy_compression() -> tuple[list[str], list[str], list[str]]:
    """The encode directive's formats, the content types it matches and the paths it skips."""
    text = (BASE_DIR / "deploy" / "Caddyfile").read_text()
    skipped = found(re.search(r"^\s*@compressible not path (.+)$", text, re.M)).group(1).split()
    formats = found(re.search(r"^\s*encode @compressible (.+?) \{$", text, re.M)).group(1).split()
    types = re.findall(r"header Content-Type (\S+)", text)
    return formats, types, skipped


def test_the_proxy_compresses_html_and_json(db: None) -> None:
    formats, types, skipped = _caddy_compression()
    assert formats == ["zstd", "gzip"]
    assert {"text/html*", "application/json*"} <= set(types)
    for url in ["/", "/library/", "/notes/team/", "/sources/flashattention/", "/search/?q=kv"]:
        assert not any(fnmatch.fnmatch(url, glob) for glob in skipped), url


def test_no_page_with_a_secret_next_to_reflected_input_is_compressed(db: None) -> None:
    """BREACH: a page that shows a token and also echoes what a visitor typed or linked."""
    _, _, skipped = _caddy_compression()
    secret_pages = [
        reverse("teams:detail", args=["inference"]),  # calendar address, join links
        reverse("teams:invite", args=["inference"]),  # 400 echoes the typed email
        reverse("teams:join", args=["token"]),
        reverse("teams:invitation", args=["token"]),
        reverse("library:follows"),  # saved-search feed addresses next to saved searches
        reverse("library:follow-search"),
        reverse("library:digest-unsubscribe", args=["token"]),
        reverse("account_reset_password_from_key", kwargs={"uidb36": "1", "key": "k"}),
    ]
    for url in secret_pages:
        assert any(fnmatch.fnmatch(url, glob) for glob in skipped), url


def compose_environment(service: dict, **given: str) -> dict[str, str]:
    """The environment compose gives a service when only `given` is set (as in the quick start,
    where .env holds SECRET_KEY): `${VAR:-default}` takes its default."""

    def resolve(value: object) -> str:
        def one(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(3) or ""
            return given.get(name) or ("" if match.group(2) == ":?" else default)

        return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, str(value))

    return {name: resolve(value) for name, value in service["environment"].items()}


def test_the_quick_start_emails_links_that_open(services: Services, tmp_path: Path) -> None:
    """Sign-up confirmations, password resets and invitations point where the proxy answers:
    plain HTTP on the published port, not https."""
    from tests.production.test_security import run_python

    environment: dict[str, str | None] = dict(
        compose_environment(services["web"], SECRET_KEY="compose-quick-start")
    )
    environment |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": None}
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from readinglist.site_address import site_url; "
        "print(settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL, site_url('/accounts/confirm-email/k/'))"
    )
    result = run_python(["-c", code], **environment)
    assert result.returncode == 0, result.stderr
    protocol, link = result.stdout.split()
    assert (protocol, link) == ("http", "http://localhost:8000/accounts/confirm-email/k/")
    caddy = (BASE_DIR / "deploy" / "Caddyfile").read_text()
    assert re.search(r"^:8000 \{", caddy, re.M), "the proxy serves plain HTTP on :8000"
    assert services["proxy"]["ports"] == ["${PORT:-8000}:8000"]


def test_backups_without_output_land_in_a_volume(services: Services) -> None:
    """`manage backup` writes into BACKUP_DIR; in the stack that is a named volume, so the file
    outlives the container, and the image makes the folder the app user's own."""
    volumes = yaml.safe_load((BASE_DIR / "compose.yaml").read_text())["volumes"]
    for name in ("web", "worker", "cron", "migrate"):
        folder = services[name]["environment"]["BACKUP_DIR"]
        assert f"backups:{folder}" in services[name]["volumes"], name
    assert "backups" in volumes
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    assert re.search(r"^\s+BACKUP_DIR=/backups ", dockerfile, re.M)
    assert "install --directory --owner app --group app --mode 0700 /backups" in dockerfile


def healthcheck_command(service: dict) -> list[str]:
    test = service["healthcheck"]["test"]
    assert test[0] == "CMD", "an exec-form check: no shell in between"
    return test[1:]


def test_each_app_service_has_a_check_that_fits_it(services: Services) -> None:
    # web keeps the image's HTTP check on the port it serves; the others serve no port.
    assert "healthcheck" not in services["web"]
    assert "HEALTHCHECK --interval=30s" in (BASE_DIR / "Dockerfile").read_text()
    assert services["migrate"]["healthcheck"] == {"disable": True}
    assert healthcheck_command(services["worker"])[1:] == [
        "manage.py",
        "healthcheck",
        "--job",
        "worker",
    ]
    assert healthcheck_command(services["cron"])[1:] == ["-m", "operations.liveness", "cron"]
    for name in ("worker", "cron"):
        assert "8000" not in " ".join(healthcheck_command(services[name])), name


def run_healthcheck(service: dict, **env: str | None) -> subprocess.CompletedProcess[str]:
    from tests.production.test_security import run_python

    environment = compose_environment(service, SECRET_KEY="compose-health-check") | env
    return run_python(healthcheck_command(service)[1:], **environment)


def test_the_cron_check_runs_and_follows_the_schedulers_heartbeat(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from operations import liveness

    result = run_healthcheck(services["cron"], HEARTBEAT_DIR=str(tmp_path))
    assert result.returncode == 1
    assert "cron: no heartbeat at" in result.stderr
    monkeypatch.setenv("HEARTBEAT_DIR", str(tmp_path))
    liveness.beat("cron")
    result = run_healthcheck(services["cron"], HEARTBEAT_DIR=str(tmp_path))
    assert (result.returncode, result.stdout) == (0, "cron: alive\n")


@pytest.mark.django_db(transaction=True)
def test_the_worker_check_runs_against_the_database(services: Services, settings: Settings) -> None:
    from datetime import timedelta

    from tests.operations.test_healthcheck import waiting_task
    from tests.production.cache_servers import database_url

    if connection.vendor != "postgresql":
        pytest.skip("the check runs in another process, which cannot see an in-memory database")
    url = database_url(settings.DATABASES["default"]["NAME"])
    result = run_healthcheck(services["worker"], DATABASE_URL=url, REDIS_URL=None)
    assert (result.returncode, result.stdout) == (0, "worker: healthy\n"), result.stderr
    waiting_task(timedelta(minutes=30))
    result = run_healthcheck(services["worker"], DATABASE_URL=url, REDIS_URL=None)
    assert result.returncode == 1
    assert "worker: a task has waited" in result.stderr
