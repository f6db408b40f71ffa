"""check_links on a machine without a network: it records nothing, says so and exits non-zero,
while a single broken link among answering ones is still recorded."""

import io
import socket
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.utils import timezone

from catalog.models import Source
from tests.factories import SourceFactory
from tests.hints import Tiers

from .test_check_links import _loopback_may_be_checked, server  # noqa: F401 (fixtures)

FAST = {"connect_timeout": 1.0, "read_timeout": 0.5, "url_deadline": 3.0, "backoff": 0.05}


@pytest.fixture
def no_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names under .invalid resolve nowhere, as every name does on a machine without DNS."""
    real = socket.getaddrinfo

    def lookup(host: str, *args: Any, **kwargs: Any) -> list[Any]:
        if str(host).endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)


def _closed_port() -> int:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        return unused.getsockname()[1]


def run(**options: object) -> str:
    out = io.StringIO()
    call_command("check_links", stdout=out, stderr=io.StringIO(), **(FAST | options))
    return out.getvalue()


@pytest.mark.django_db
def test_when_no_host_resolves_nothing_is_recorded_and_the_run_fails(
    tiers: Tiers, no_dns: None
) -> None:
    checked_before = timezone.now() - timedelta(days=3)
    known_good = SourceFactory(slug="known-good", url="https://papers.invalid/a")
    Source.objects.filter(pk=known_good.pk).update(link_status="ok", link_checked_at=checked_before)
    SourceFactory(slug="other", url="https://blog.invalid/b")
    with pytest.raises(CommandError) as refused:
        run()
    message = str(refused.value)
    assert message.startswith("No link could be checked: all 2 failed without an answer")
    assert "The host blog.invalid could not be found." in message or "papers.invalid" in message
    assert "Is this machine offline? Nothing was recorded." in message
    known_good.refresh_from_db()
    assert (known_good.link_status, known_good.link_checked_at) == ("ok", checked_before)
    assert not Source.objects.filter(link_status="broken").exists()


@pytest.mark.django_db
def test_when_no_host_connects_the_run_fails_too(tiers: Tiers) -> None:
    port = _closed_port()
    SourceFactory(slug="a", url=f"http://127.0.0.1:{port}/a")
    SourceFactory(slug="b", url=f"http://127.0.0.1:{port}/b")
    with pytest.raises(CommandError, match="No link could be checked"):
        run()
    assert not Source.objects.filter(link_checked_at__isnull=False).exists()


@pytest.mark.django_db
def test_the_command_line_exits_non_zero_when_offline(
    tiers: Tiers, no_dns: None, capsys: pytest.CaptureFixture[str]
) -> None:
    SourceFactory(slug="a", url="https://papers.invalid/a")
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "check_links", "--no-progress"])
    assert exited.value.code == 1
    assert "Nothing was recorded" in capsys.readouterr().err


@pytest.mark.django_db
def test_a_single_broken_link_is_still_recorded(
    tiers: Tiers,
    no_dns: None,
    server: tuple[str, int],  # noqa: F811
) -> None:
    base, _ = server
    ok = SourceFactory(slug="ok", url=f"{base}/ok")
    missing = SourceFactory(slug="missing", url=f"{base}/missing")
    gone = SourceFactory(slug="gone", url="https://gone.invalid/")
    out = run()
    assert "Checked 3 links" in out and "1 ok, 2 broken" in out
    for source in (ok, missing, gone):
        source.refresh_from_db()
    assert ok.link_status == "ok"
    assert (missing.link_status, missing.link_status_code) == ("broken", 404)
    assert gone.link_status == "broken"
    assert gone.link_error == "Cannot connect: The host gone.invalid could not be found."


@pytest.mark.django_db
def test_no_progress_runs_quietly_and_succeeds(
    tiers: Tiers,
    server: tuple[str, int],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    SourceFactory(slug="ok", url=f"{server[0]}/ok")
    execute_from_command_line(["manage.py", "check_links", "--no-progress"])
    captured = capsys.readouterr()
    assert "Checked 1 link" in captured.out and "1 ok" in captured.out
    assert "links [" not in captured.err
