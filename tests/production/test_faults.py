"""The app survives its database going away: fail fast with a 503 page, recover by itself, lose
no acknowledged write. Real gunicorn (production settings, 2 workers) on a dedicated database.
"""

import http.client
import os
import re
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections.abc import Iterator, Mapping
from http.client import HTTPResponse
from http.cookies import SimpleCookie
from typing import TypedDict

import psycopg
import pytest
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from psycopg.rows import TupleRow
from pytest_django import DjangoDbBlocker

from readinglist.local_server import BASE_DIR, collect_static, gunicorn, production_env
from tests.hints import found, present

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

PASSWORD = "fault-test-password-1"
EMAIL = "fault@example.com"


def admin_connection() -> psycopg.Connection[TupleRow]:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


@pytest.fixture(scope="module")
def fault_server(
    tmp_path_factory: pytest.TempPathFactory, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, str]]:
    """A migrated database of its own, holding the catalog and one reader, served by gunicorn."""
    with django_db_blocker.unblock():
        name = f"rl_faults_{uuid.uuid4().hex[:8]}"
        db = settings.DATABASES["default"]
        url = (
            f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}"
            f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
        )
        with admin_connection() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        tmp = tmp_path_factory.mktemp("faults")
        env = production_env(
            DATABASE_URL=url,
            DATABASE_POOL_TIMEOUT="3",
            STATIC_ROOT=str(tmp / "static"),
            CACHE_URL="",
        )
        try:
            for command in (
                ["migrate", "--noinput"],
                ["createcachetable"],
                ["load_catalog"],
                [
                    "shell",
                    "-c",
                    "from django.contrib.auth import get_user_model; "
                    f"get_user_model().objects.create_user({EMAIL!r}, {PASSWORD!r})",
                ],
            ):
                subprocess.run(
                    [sys.executable, "manage.py", *command],
                    cwd=BASE_DIR,
                    env=env,
                    check=True,
                    capture_output=True,
                )
            collect_static(env)
            with (
                open(tmp / "gunicorn.log", "w") as log,
                gunicorn(env=env, workers=2, log=log) as (base, _process),
            ):
                yield {"url": base, "db": name, "dsn": url}
        finally:
            with admin_connection() as admin:
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    [name],
                )
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


class Answer(HTTPResponse):
    """A response read whole: its text, and the seconds it took."""

    text: str
    elapsed: float


class Writes(TypedDict):
    sessions: list[str]  # session keys
    bookmarks: list[str]  # source slugs


class Browser:
    """Just enough of a browser: keeps cookies (Secure ones too, on loopback), no redirects."""

    def __init__(self, base: str) -> None:
        parsed = urllib.parse.urlsplit(base)
        assert parsed.hostname is not None
        self.host, self.port = parsed.hostname, parsed.port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: int = 15,
    ) -> Answer:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        connection.response_class = Answer
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started = time.monotonic()
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        assert isinstance(response, Answer)
        content = response.read().decode()
        response.elapsed = time.monotonic() - started
        response.text = content
        for header in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        connection.close()
        return response

    def log_in(self) -> str:
        page = self.request("GET", "/accounts/login/").text
        token = found(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)).group(1)
        response = self.request(
            "POST",
            "/accounts/login/",
            {"login": EMAIL, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        assert response.status == 302, response.text[:500]
        return self.cookies["sessionid"]


def bookmark_path(slug: str) -> str | None:
    try:
        return reverse("library:bookmark", args=[slug])
    except NoReverseMatch:
        return None


def source_slugs(dsn: str, count: int) -> list[str]:
    with psycopg.connect(dsn.replace("postgres://", "postgresql://")) as conn:
        rows = conn.execute(
            "SELECT slug FROM catalog_source WHERE status = 'published' ORDER BY id LIMIT %s",
            [count],
        ).fetchall()
    return [slug for (slug,) in rows]


def acknowledged_writes(browser: Browser, slugs: list[str], *, log_in: bool = True) -> Writes:
    """Writes the app said were saved: a login session, and bookmarks where the route exists."""
    writes: Writes = {"sessions": [browser.log_in()] if log_in else [], "bookmarks": []}
    for slug in slugs:
        path = bookmark_path(slug)
        if path is None:
            break
        response = browser.request("POST", path, {"status": "reading"})
        assert response.status in (200, 302), response.status
        writes["bookmarks"].append(slug)
    return writes


def assert_still_there(server: dict[str, str], writes: Writes) -> None:
    with psycopg.connect(server["dsn"].replace("postgres://", "postgresql://")) as conn:
        for key in writes["sessions"]:
            assert conn.execute(
                "SELECT 1 FROM django_session WHERE session_key = %s", [key]
            ).fetchone()
        if writes["bookmarks"]:
            saved = {
                slug
                for (slug,) in conn.execute(
                    "SELECT s.slug FROM library_bookmark b "
                    "JOIN catalog_source s ON s.id = b.source_id "
                    "JOIN accounts_user u ON u.id = b.user_id WHERE u.email = %s",
                    [EMAIL],
                )
            }
            assert set(writes["bookmarks"]) <= saved


def terminate_connections(name: str) -> int:
    with admin_connection() as admin:
        (count,) = present(
            admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            ).fetchone()
        )
    return int(count)


def wait_until_ready(browser: Browser, seconds: int = 20, streak: int = 8) -> float:
    """Until /readyz answers 200 `streak` times in a row: each worker's pool reconnects on its
    own schedule (with backoff), so one worker ready does not mean all are."""
    deadline, ready = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        ready = ready + 1 if browser.request("GET", "/readyz").status == 200 else 0
        if ready >= streak:
            return time.monotonic()
        time.sleep(0.1 if ready else 0.2)
    pytest.fail(f"/readyz did not answer 200 {streak} times in a row within {seconds}s")


def test_killed_connections_are_replaced_without_errors(fault_server: dict[str, str]) -> None:
    browser = Browser(fault_server["url"])
    slugs = source_slugs(fault_server["dsn"], 4)
    writes = acknowledged_writes(browser, slugs[:2])
    # Make both workers hold pooled connections, then kill every one of them.
    for _ in range(6):
        assert browser.request("GET", "/").status == 200
    assert terminate_connections(fault_server["db"]) >= 1

    statuses = []
    for _ in range(10):
        for path in ("/", f"/sources/{slugs[0]}/", "/library/"):
            response = browser.request("GET", path)
            assert response.elapsed < 10
            statuses.append(response.status)
    assert set(statuses) <= {200, 302, 503}
    wait_until_ready(browser, seconds=5)
    assert browser.request("GET", "/").status == 200
    # Writes after the fault are acknowledged and kept too.
    writes["bookmarks"] += acknowledged_writes(browser, slugs[2:], log_in=False)["bookmarks"]
    assert_still_there(fault_server, writes)


def test_a_database_outage_is_a_503_page_then_recovers(fault_server: dict[str, str]) -> None:
    browser = Browser(fault_server["url"])
    slugs = source_slugs(fault_server["dsn"], 2)
    writes = acknowledged_writes(browser, slugs[:1])
    with admin_connection() as admin:
        admin.execute(f'ALTER DATABASE "{fault_server["db"]}" ALLOW_CONNECTIONS false')
    try:
        terminate_connections(fault_server["db"])
        for path in ("/", f"/sources/{slugs[0]}/", "/readyz"):
            response = browser.request("GET", path)
            assert response.status == 503, (path, response.status)
            assert response.elapsed < 10, (path, response.elapsed)
            assert response.getheader("Retry-After")
        page = browser.request("GET", "/")
        assert "briefly unavailable" in page.text
        assert '<link rel="stylesheet"' in page.text
        assert browser.request("GET", "/healthz").status == 200
        # A write during the outage is reported as failed, not as saved.
        bookmark = bookmark_path(slugs[1])
        if bookmark:
            failed = browser.request("POST", bookmark, {"status": "read"})
            assert failed.status == 503
            assert "it was not saved" in failed.text
    finally:
        with admin_connection() as admin:
            admin.execute(f'ALTER DATABASE "{fault_server["db"]}" ALLOW_CONNECTIONS true')

    recovered_at = wait_until_ready(browser, seconds=30)
    assert recovered_at
    assert browser.request("GET", "/").status == 200
    assert_still_there(fault_server, writes)
    if bookmark:
        assert browser.request("POST", bookmark, {"status": "read"}).status in (
            200,
            302,
        )


def test_probes_stay_cheap_under_production_settings(fault_server: dict[str, str]) -> None:
    browser = Browser(fault_server["url"])
    response = browser.request("GET", "/healthz", headers={"Host": "10.1.2.3"})
    assert response.status == 200
    assert response.getheader("X-Request-ID")
    assert os.environ.get("DATABASE_URL", "").startswith("postgres")
