"""The compose stack: replicas of web behind one proxy, sharing PostgreSQL and Redis."""

import shutil
import subprocess

import pytest

from readinglist.local_server import BASE_DIR

yaml = pytest.importorskip("yaml")


@pytest.fixture(scope="module")
def services():
    return yaml.safe_load((BASE_DIR / "compose.yaml").read_text())["services"]


def test_web_scales_behind_one_published_address(services):
    # A published port on web would make `--scale web=3` fail on the second replica.
    assert "ports" not in services["web"]
    assert services["proxy"]["ports"] == ["${PORT:-8000}:8000"]
    mounted = services["proxy"]["volumes"][0].split(":")[0]
    assert (BASE_DIR / mounted).is_file()


def test_every_app_process_shares_redis(services):
    # The worker too: its recomputes bump the catalog version the web replicas' caches read.
    for name in ("web", "migrate", "worker"):
        assert services[name]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_a_worker_runs_the_tasks_web_requests_enqueue(services):
    assert services["worker"]["command"] == ["worker"]
    assert services["worker"]["depends_on"]["migrate"] == {
        "condition": "service_completed_successfully"
    }


@pytest.mark.skipif(shutil.which("caddy") is None, reason="needs the caddy binary")
def test_the_caddyfile_is_valid():
    result = subprocess.run(
        ["caddy", "validate", "--adapter", "caddyfile", "--config", "deploy/Caddyfile"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
