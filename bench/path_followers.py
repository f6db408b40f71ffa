"""The path page's render time with one follower and with 5,000: following must not make a
path's page slower for everyone (the floor: within 1.5x of its time with one follower)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse

if TYPE_CHECKING:
    from accounts.models import User
    from paths.models import Path

FOLLOWERS = 5_000
FLOOR = 1.5
STEPS = 120


def _public_path() -> tuple[User, Path]:
    from accounts.models import User
    from catalog.models import Source
    from paths.models import Path, PathSection, PathStep

    # The benchmark's database outlives a run: the last run's author, path and followers go.
    User.objects.filter(email__startswith="bench-path-author@").delete()
    User.objects.filter(email__startswith="bench-follower-").delete()
    author = User.objects.create_user(email="bench-path-author@example.com", password=None)
    path = Path.objects.create(title="Bench: every kernel", user=author, visibility="public")
    section = PathSection.objects.create(path=path, title="", position=0)
    sources = Source.objects.published().order_by("pk")[:STEPS]
    PathStep.objects.bulk_create(
        PathStep(path=path, section=section, source=source, position=n, note="Why: the basics.")
        for n, source in enumerate(sources)
    )
    return author, path


def _add_followers(path: Path, count: int, start: int = 0) -> None:
    from accounts.models import User
    from paths.models import PathFollow

    users = User.objects.bulk_create(
        User(email=f"bench-follower-{n}@example.com") for n in range(start, start + count)
    )
    PathFollow.objects.bulk_create(PathFollow(path=path, user=user) for user in users)


def _p50(client: Client, url: str, runs: int) -> float:
    warm = client.get(url)
    assert warm.status_code == 200, f"{url} answered {warm.status_code}"
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        assert client.get(url).status_code == 200
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def path_page_followers(write: Callable[[str], None], runs: int) -> None:
    """Print the path page's p50 with 1 follower and with FOLLOWERS, and their ratio."""
    author, path = _public_path()
    try:
        url = reverse("paths:detail", args=[path.key])
    except NoReverseMatch:
        write("Path page: not built on this branch; followers' cost not measured.")
        return
    _add_followers(path, 1)
    reader = Client()
    reader.force_login(author)
    middleware = [m for m in settings.MIDDLEWARE if "cach" not in m.lower()]
    storages = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    }
    hosts = [*settings.ALLOWED_HOSTS, "testserver"]
    with override_settings(MIDDLEWARE=middleware, STORAGES=storages, ALLOWED_HOSTS=hosts):
        one = _p50(reader, url, runs)
        _add_followers(path, FOLLOWERS - 1, start=1)
        many = _p50(reader, url, runs)
    ratio = many / one if one else 0.0
    mark = "" if ratio <= FLOOR else " !"
    write(
        f"Path page ({STEPS} steps, signed in, uncached): p50 {one:.1f} ms with 1 follower, "
        f"{many:.1f} ms with {FOLLOWERS:,}: ratio {ratio:.2f} ({FLOOR:.2f}){mark}"
    )
