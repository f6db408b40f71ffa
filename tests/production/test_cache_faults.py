"""The page cache across machines and through faults: two gunicorn servers (two workers each,
production settings) sharing one Redis and one PostgreSQL database, all started by the test.

- a change made through one server shows on the next request to every worker of both;
- Redis stopped under load costs the cache only (no 500), and pages are cached again after;
- with the database's network gone, /healthz still answers within 100 ms and /readyz says 503
  within 1 s, then ready again once the database is back.
"""

import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypedDict

import pytest
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from readinglist.local_server import collect_static, gunicorn, production_env
from tests.hints import found

from .cache_servers import Forwarder, RedisServer, app_database, database_url, manage
from .test_faults import EMAIL, PASSWORD, Browser, source_slugs

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db]
TEAMMATE = "teammate@example.com"
# Each server has two workers; this many requests reach both with near certainty.
REQUESTS_PER_SERVER = 6


def create_user(env: dict[str, str], email: str) -> None:
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_user({email!r}, {PASSWORD!r})",
    )


# A browser sharing one session, for the server at the address given.
BrowserFor = Callable[[str], Browser]


class Cluster(TypedDict):
    servers: list[str]
    env: dict[str, str]
    env_for: Callable[..., dict[str, str]]
    db: str
    redis: RedisServer
    tmp: Path
    slugs: list[str]


@pytest.fixture(scope="module")
def cluster(
    tmp_path_factory: pytest.TempPathFactory, django_db_blocker: DjangoDbBlocker
) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("cache-faults")
    redis_server = RedisServer()
    redis_server.start()

    def env_for(url: str, **extra: str) -> dict[str, str]:
        return production_env(
            DATABASE_URL=url,
            REDIS_URL=redis_server.url,
            CACHE_URL="",
            STATIC_ROOT=str(tmp / "static"),
            **extra,
        )

    try:
        with django_db_blocker.unblock(), app_database(env_for) as name:
            env = env_for(database_url(name))
            create_user(env, EMAIL)
            create_user(env, TEAMMATE)
            collect_static(env)
            with (
                open(tmp / "a.log", "w") as log_a,
                open(tmp / "b.log", "w") as log_b,
                gunicorn(env=env, workers=2, log=log_a) as (a, _),
                gunicorn(env=env, workers=2, log=log_b) as (b, _),
            ):
                yield {
                    "servers": [a, b],
                    "env": env,
                    "env_for": env_for,
                    "db": name,
                    "redis": redis_server,
                    "tmp": tmp,
                    "slugs": source_slugs(database_url(name), 4),
                }
    finally:
        redis_server.stop()


def on_every_worker(cluster: Cluster, browser_for: BrowserFor, path: str) -> list[str]:
    """The page from REQUESTS_PER_SERVER requests to each server."""
    pages = []
    for server in cluster["servers"]:
        browser = browser_for(server)
        for _ in range(REQUESTS_PER_SERVER):
            response = browser.request("GET", path)
            assert response.status == 200, (server, path, response.status)
            pages.append(response.text)
    return pages


def signed_in(cluster: Cluster, email: str = EMAIL) -> tuple[Browser, BrowserFor]:
    """One session, usable on both servers (sessions live in the shared cache and database)."""
    first = Browser(cluster["servers"][0])
    first.log_in() if email == EMAIL else log_in_as(first, email)

    def browser_for(server: str) -> Browser:
        browser = Browser(server)
        browser.cookies = first.cookies
        return browser

    return first, browser_for


def log_in_as(browser: Browser, email: str) -> None:
    page = browser.request("GET", "/accounts/login/").text
    token = found(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)).group(1)
    response = browser.request(
        "POST",
        "/accounts/login/",
        {"login": email, "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert response.status == 302


def test_a_maintainers_edit_shows_on_every_worker_of_both_servers(cluster: Cluster) -> None:
    slug = cluster["slugs"][0]
    path = reverse("pages:source-detail", args=[slug])
    on_every_worker(cluster, Browser, path)  # stored everywhere
    title = f"Edited by a maintainer {uuid.uuid4().hex[:6]}"
    manage(
        cluster["env"],
        "shell",
        "-c",
        "from catalog.models import Source; "
        f"s = Source.objects.get(slug={slug!r}); s.title = {title!r}; s.save()",
    )
    assert all(title in page for page in on_every_worker(cluster, Browser, path))


def test_a_readers_bookmark_shows_on_their_pages_on_both_servers(cluster: Cluster) -> None:
    browser, browser_for = signed_in(cluster)
    slug = cluster["slugs"][1]
    library = reverse("library:index")
    on_every_worker(cluster, browser_for, library)
    response = browser.request(
        "POST", reverse("library:bookmark", args=[slug]), {"status": "reading"}
    )
    assert response.status in {200, 302}
    link = f'href="{reverse("pages:source-detail", args=[slug])}"'
    assert all(link in page for page in on_every_worker(cluster, browser_for, library))


def create_team(env: dict[str, str], name: str, owner: str, member: str) -> None:
    """A team owned by `owner` with `member` in it; its slug is the slugified name."""
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        "from teams.models import Membership; from teams.services import create_team; "
        "User = get_user_model(); "
        f"team = create_team(name={name!r}, owner=User.objects.get(email={owner!r}), "
        "by_operator=True); "
        f"Membership.objects.create(team=team, user=User.objects.get(email={member!r}))",
    )


def test_a_teammates_team_note_shows_on_both_servers(cluster: Cluster) -> None:
    team_slug = f"cache-team-{uuid.uuid4().hex[:8]}"
    create_team(cluster["env"], team_slug, owner=TEAMMATE, member=EMAIL)
    _, browser_for = signed_in(cluster)
    slug = cluster["slugs"][2]
    path = reverse("pages:source-detail", args=[slug])
    on_every_worker(cluster, browser_for, path)
    teammate = Browser(cluster["servers"][1])
    log_in_as(teammate, TEAMMATE)
    text = f"Team note {uuid.uuid4().hex[:8]}"
    response = teammate.request(
        "POST", reverse("notes:create", args=[slug]), {"body": text, "visibility": team_slug}
    )
    assert response.status == 302  # saved; a refused form answers 200
    assert all(text in page for page in on_every_worker(cluster, browser_for, path))


def load(
    servers: list[str],
    paths: list[str],
    cookies: dict[str, str],
    stop: threading.Event,
    statuses: Counter[int | str],
) -> None:
    while not stop.is_set():
        for server in servers:
            for path in paths:
                browser = Browser(server)
                browser.cookies = dict(cookies)
                try:
                    statuses[browser.request("GET", path, timeout=10).status] += 1
                except OSError:
                    statuses["no answer"] += 1


def test_a_redis_outage_under_load_gives_no_500_and_caching_resumes(cluster: Cluster) -> None:
    _, browser_for = signed_in(cluster)
    cookies = browser_for(cluster["servers"][0]).cookies
    paths = [reverse("pages:source-detail", args=[s]) for s in cluster["slugs"]] + ["/"]
    statuses: Counter[int | str] = Counter()
    stop = threading.Event()
    jars: list[dict[str, str]] = [{}, cookies, {}, cookies]
    threads = [
        threading.Thread(target=load, args=(cluster["servers"], paths, jar, stop, statuses))
        for jar in jars
    ]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.5)
        cluster["redis"].stop()
        time.sleep(2)
        # Signing in reads allauth's rate limits from the cache: an outage lifts them, no 500.
        log_in_as(Browser(cluster["servers"][1]), TEAMMATE)
        time.sleep(2)
        during = sum(statuses.values())
        cluster["redis"].start()
        time.sleep(1.5)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert during > 20 and statuses[500] == 0 and statuses["no answer"] == 0, statuses
    assert set(statuses) == {200}, statuses
    for server in cluster["servers"]:
        browser = Browser(server)
        seen = [browser.request("GET", paths[0]).getheader("X-Page-Cache") for _ in range(3)]
        assert "hit" in seen, (server, seen)


def test_probes_answer_in_time_while_the_database_is_unreachable(cluster: Cluster) -> None:
    forwarder = Forwarder(("127.0.0.1", 5432))
    forwarder.start()
    env = cluster["env_for"](database_url(cluster["db"], port=forwarder.port))
    with (
        open(cluster["tmp"] / "c.log", "w") as log,
        gunicorn(env=env, workers=2, log=log) as (server, _),
    ):
        probe = Browser(server)
        assert probe.request("GET", "/readyz").status == 200
        statuses: Counter[int | str] = Counter()
        stop = threading.Event()
        # Ordinary pages waiting on the database meanwhile, fewer than the server's threads.
        pages = [f"/sources/?q=outage{n}" for n in range(3)]
        threads = [
            threading.Thread(target=load, args=([server], pages, {}, stop, statuses))
            for _ in range(3)
        ]
        forwarder.stop()
        for thread in threads:
            thread.start()
        health, ready = [], []
        try:
            deadline = time.monotonic() + 4
            while time.monotonic() < deadline:
                response = probe.request("GET", "/healthz")
                health.append((response.status, response.elapsed))
                response = probe.request("GET", "/readyz")
                ready.append((response.status, response.elapsed, "degraded" in response.text))
                time.sleep(0.1)
        finally:
            forwarder.start()
            stop.set()
            for thread in threads:
                thread.join()
        print(f"healthz max {max(t for _, t in health) * 1000:.0f} ms over {len(health)}")
        print(f"readyz max {max(t for _, t, _ in ready) * 1000:.0f} ms, statuses {statuses}")
        assert {status for status, _ in health} == {200}
        assert max(elapsed for _, elapsed in health) < 0.1
        assert {status for status, _, _ in ready} == {503}
        assert max(elapsed for _, elapsed, _ in ready) < 1.0
        assert statuses[500] == 0 and statuses[503] > 0, statuses
        deadline = time.monotonic() + 15
        while probe.request("GET", "/readyz").status != 200:
            assert time.monotonic() < deadline, "not ready again after the database came back"
            time.sleep(0.2)
    forwarder.stop()
