"""Start the production server (gunicorn with gunicorn.conf.py) on loopback, for the load test
and the fault tests: the same process model and settings as the Docker image, on plain HTTP."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

BASE_DIR = Path(__file__).resolve().parent.parent
# Where `redis_url()` looks when REDIS_URL is not set: a Redis on this machine, its database 1.
LOCAL_REDIS_URL = "redis://127.0.0.1:6379/1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_env(**overrides: object) -> dict[str, str]:
    """The environment of a production process on loopback: DEBUG off, no HTTPS redirect."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW"))}
    env.pop("DEBUG", None)
    env.update(
        SECRET_KEY=env.get("SECRET_KEY") or "local-server-only-secret-key-0123456789abcdef",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        PYTHONUNBUFFERED="1",
    )
    env.update({k: str(v) for k, v in overrides.items()})
    return env


def redis_url(url: str | None = None, timeout: float = 0.5) -> str | None:
    """`url` (default: REDIS_URL, else a Redis on this machine) if a Redis answers there and
    the client library is installed; None otherwise."""
    url = url or os.environ.get("REDIS_URL") or LOCAL_REDIS_URL
    try:
        import redis
    except ImportError:
        return None
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        with contextlib.closing(client):
            client.ping()
    except (redis.RedisError, OSError, ValueError):
        return None
    return url


def collect_static(env: dict[str, str]) -> None:
    """Production settings serve hashed files from a manifest, as the Docker build makes."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=BASE_DIR,
        env=env,
        check=True,
    )


def wait_until_up(
    url: str, timeout: float = 30.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {url}/healthz within {timeout:.0f}s")


@contextlib.contextmanager
def gunicorn(
    *, env: dict[str, str], workers: int = 2, log: IO[Any] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run gunicorn on a free loopback port; yields (base_url, process). Stops it on exit."""
    port = free_port()
    env = {**env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(BASE_DIR / "gunicorn.conf.py"),
            "readinglist.wsgi:application",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process=process)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
