"""check_links against servers this test starts on 127.0.0.1: never the internet."""

import io
import ssl
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from catalog.linkcheck import CheckConfig, LinkChecker, LinkResult, user_agent
from catalog.models import Source
from tests.factories import SourceFactory
from tests.hints import Tiers

FAST = CheckConfig(
    connect_timeout=1.0,
    read_timeout=0.5,
    url_deadline=4.0,
    retries=2,
    backoff=0.05,
    max_bytes=16 * 1024,
    max_redirects=5,
    per_host=2,
    workers=6,
    blocking_hosts=("localhost",),
)


class Handler(BaseHTTPRequestHandler):
    hits: Counter[tuple[str, str]] = Counter()  # (method, path)
    agents: list[str] = []
    body_sent: Counter[str] = Counter()
    concurrent: Counter[str] = Counter()
    peak: Counter[str] = Counter()
    lock = threading.Lock()
    # The server of the running test: requests an earlier test left running (against its own,
    # older server) must not count in this test's in-flight figures.
    current_server: ThreadingHTTPServer | None = None

    def log_message(self, *args: object) -> None:
        pass

    def _reply(
        self, code: int, body: bytes = b"ok", headers: Sequence[tuple[str, str]] = ()
    ) -> None:
        self._leave()
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)

    def do_HEAD(self) -> None:
        self.handle_any()

    def do_GET(self) -> None:
        self.handle_any()

    def handle_any(self) -> None:
        path = self.path
        with self.lock:
            self.counted = self.server is Handler.current_server
            self.hits[(self.command, path)] += 1
            self.agents.append(self.headers.get("User-Agent", ""))
            # Per path, and over the whole host ("*").
            for key in (path, "*") if self.counted else ():
                self.concurrent[key] += 1
                self.peak[key] = max(self.peak[key], self.concurrent[key])
        self.left = False
        try:
            self.route(path)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self._leave()

    def _leave(self) -> None:
        """The request stops counting as in flight once its response starts: the client may
        start its next request as soon as it has read the reply, before this thread returns."""
        if self.left:
            return
        self.left = True
        with self.lock:
            # Not once a later test's server took over: it started from zero.
            if self.counted and self.server is Handler.current_server:
                self.concurrent[self.path] -= 1
                self.concurrent["*"] -= 1

    def route(self, path: str) -> None:
        if path == "/ok":
            return self._reply(200)
        if path == "/missing":
            return self._reply(404)
        if path == "/flaky":
            # 500 on the first two requests, then fine: a retry with backoff recovers.
            if self.hits[(self.command, path)] + self.hits[("GET", path)] <= 2:
                return self._reply(500)
            return self._reply(200)
        if path == "/down":
            return self._reply(503)
        if path == "/robots-refused":
            return self._reply(403)
        if path == "/no-head":
            return self._reply(405 if self.command == "HEAD" else 200)
        if path.startswith("/loop-a"):
            return self._reply(302, headers=[("Location", "/loop-b")])
        if path.startswith("/loop-b"):
            return self._reply(302, headers=[("Location", "/loop-a")])
        if path.startswith("/hop"):
            n = int(path.removeprefix("/hop"))
            return self._reply(301, headers=[("Location", f"/hop{n + 1}")])
        if path == "/moved":
            return self._reply(301, headers=[("Location", "/ok")])
        if path == "/huge":
            return self.huge()
        if path.startswith("/slow"):
            time.sleep(3)
            return self._reply(200)
        if path.startswith("/polite"):
            time.sleep(0.2)
            return self._reply(200)
        return self._reply(404)

    def huge(self) -> None:
        if self.command == "HEAD":
            # A server that refuses HEAD forces the GET, which must not read it all.
            return self._reply(405)
        self._leave()
        self.send_response(200)
        self.send_header("Content-Length", str(512 * 1024 * 1024))
        self.end_headers()
        chunk = b"x" * 65536
        for _ in range(8192):
            self.wfile.write(chunk)
            with self.lock:
                self.body_sent["/huge"] += len(chunk)


@pytest.fixture(autouse=True)
def _loopback_may_be_checked(settings: Settings) -> None:
    # The servers here live on loopback, which the outbound policy refuses everywhere else.
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1", "localhost"]


def _serve(server: ThreadingHTTPServer) -> Thread:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def server() -> Iterator[tuple[str, int]]:
    Handler.hits.clear()
    Handler.agents.clear()
    Handler.body_sent.clear()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with Handler.lock:
        Handler.current_server = httpd
        Handler.peak.clear()
        Handler.concurrent.clear()
    httpd.daemon_threads = True
    _serve(httpd)
    yield f"http://127.0.0.1:{httpd.server_address[1]}", httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[str]:
    """An HTTPS server with a self-signed certificate: no CA trusts it."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    _serve(httpd)
    yield f"https://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def check(url: str, config: CheckConfig = FAST) -> LinkResult:
    return LinkChecker(config).check(url)


class TestChecker:
    def test_ok(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/ok")
        assert (result.status, result.code, result.attempts) == ("ok", 200, 1)
        assert ("HEAD", "/ok") in Handler.hits and ("GET", "/ok") not in Handler.hits

    def test_polite_user_agent_with_contact_url(
        self, server: tuple[str, int], settings: Settings
    ) -> None:
        settings.LINKCHECK_CONTACT_URL = "https://example.org/contact"
        check(server[0] + "/ok")
        assert Handler.agents == [user_agent()]
        assert user_agent() == "readinglist-linkcheck/1.0 (+https://example.org/contact)"

    def test_404_is_broken_after_confirming_with_get(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/missing")
        assert (result.status, result.code, result.error) == ("broken", 404, "HTTP 404")
        assert Handler.hits[("GET", "/missing")] == 1
        assert result.attempts == 1  # a 404 is not retried

    def test_head_refused_falls_back_to_get(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/no-head")
        assert (result.status, result.code) == ("ok", 200)

    def test_500_then_ok_is_retried(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/flaky")
        assert (result.status, result.code) == ("ok", 200)
        assert result.attempts == 2

    def test_5xx_that_persists_is_broken_after_the_retries(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/down")
        assert (result.status, result.code, result.attempts) == ("broken", 503, 3)

    def test_403_from_an_allow_listed_host_is_blocked_not_dead(
        self, server: tuple[str, int]
    ) -> None:
        port = server[1]
        blocked = check(f"http://localhost:{port}/robots-refused")
        assert (blocked.status, blocked.code) == ("blocked", 403)
        dead = check(f"http://127.0.0.1:{port}/robots-refused")
        assert (dead.status, dead.code) == ("broken", 403)

    def test_redirect_is_followed(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/moved")
        assert result.status == "ok" and result.final_url.endswith("/ok")

    def test_redirect_loop_is_detected(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/loop-a")
        assert (result.status, result.error) == ("broken", "Redirect loop")

    def test_too_many_redirects(self, server: tuple[str, int]) -> None:
        result = check(server[0] + "/hop0")
        assert (result.status, result.error) == ("broken", "More than 5 redirects")

    def test_huge_body_is_capped_not_downloaded(self, server: tuple[str, int]) -> None:
        started = time.monotonic()
        result = check(server[0] + "/huge")
        assert (result.status, result.code) == ("ok", 200)
        assert time.monotonic() - started < 3
        # The server stops being able to send once the checker hangs up: far less than 512 MB.
        time.sleep(0.2)
        assert Handler.body_sent["/huge"] < 64 * 1024 * 1024

    def test_slow_server_times_out_within_the_deadline(self, server: tuple[str, int]) -> None:
        config = CheckConfig(**{**FAST.__dict__, "url_deadline": 2.0, "retries": 5})
        started = time.monotonic()
        result = check(server[0] + "/slow", config)
        elapsed = time.monotonic() - started
        assert result.status == "broken" and result.error.startswith("Timed out")
        assert elapsed < 3.0
        assert result.attempts >= 2  # timeouts are retried while the deadline allows

    def test_invalid_tls_is_reported_not_a_crash(self, tls_server: str) -> None:
        result = check(tls_server + "/ok")
        assert result.status == "broken"
        assert result.error == "TLS error: certificate verify failed"
        assert result.attempts == 1

    def test_connection_refused(self) -> None:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        result = check(f"http://127.0.0.1:{port}/")
        assert result.status == "broken" and result.error.startswith("Cannot connect")
        assert result.attempts == 1

    def test_at_most_per_host_requests_at_once(self, server: tuple[str, int]) -> None:
        urls = [f"{server[0]}/polite{n}" for n in range(8)]
        config = CheckConfig(**{**FAST.__dict__, "per_host": 1, "workers": 8})
        results, unchecked = LinkChecker(config).check_many(urls)
        assert unchecked == [] and {r.status for r in results.values()} == {"ok"}
        # One host: the per-host slot serialised the eight checks.
        assert Handler.peak["*"] == 1
        Handler.peak.clear()
        config = CheckConfig(**{**FAST.__dict__, "per_host": 4, "workers": 8})
        LinkChecker(config).check_many(urls)
        assert 1 < Handler.peak["*"] <= 4

    def test_global_deadline_returns_instead_of_hanging(self, server: tuple[str, int]) -> None:
        urls = [f"{server[0]}/slow?{n}" for n in range(4)]
        config = CheckConfig(
            **{**FAST.__dict__, "read_timeout": 5, "url_deadline": 10, "retries": 0}
        )
        started = time.monotonic()
        results, unchecked = LinkChecker(config).check_many(urls, deadline=0.5)
        assert time.monotonic() - started < 1.5
        assert results == {} and sorted(unchecked) == sorted(urls)


@pytest.mark.django_db
class TestCommand:
    def run(self, **options: object) -> tuple[str, str]:
        out, err = io.StringIO(), io.StringIO()
        defaults = {
            "connect_timeout": 1.0,
            "read_timeout": 0.5,
            "url_deadline": 3.0,
            "backoff": 0.05,
            "max_kb": 16,
            "deadline": 20.0,
        }
        call_command("check_links", stdout=out, stderr=err, **(defaults | options))
        return out.getvalue(), err.getvalue()

    def test_records_status_time_and_failing_since(
        self, server: tuple[str, int], tiers: Tiers, settings: Settings
    ) -> None:
        settings.LINKCHECK_BLOCKING_HOSTS = ["localhost"]
        base, port = server
        ok = SourceFactory(slug="ok", url=f"{base}/ok")
        missing = SourceFactory(slug="missing", url=f"{base}/missing")
        refused = SourceFactory(slug="refused", url=f"http://localhost:{port}/robots-refused")
        no_url = SourceFactory(slug="no-url", url="")
        out, err = self.run()
        assert "Checked 3 links" in out and "1 ok, 1 broken, 1 blocked" in out
        assert f"broken: missing ({base}/missing): HTTP 404" in out
        assert "links [" in err and "3/3" in err  # the progress bar
        for source in (ok, missing, refused, no_url):
            source.refresh_from_db()
        assert ok.link_status == "ok" and ok.link_checked_at and ok.link_failing_since is None
        assert missing.link_status == "broken" and missing.link_status_code == 404
        assert missing.link_failing_since == missing.link_checked_at
        assert refused.link_status == "blocked" and refused.link_failing_since is None
        assert no_url.link_status == "unchecked" and no_url.link_checked_at is None

    def test_failing_since_is_kept_across_runs_and_cleared_when_fixed(
        self, server: tuple[str, int], tiers: Tiers
    ) -> None:
        base, _ = server
        source = SourceFactory(slug="s", url=f"{base}/missing")
        long_ago = timezone.now() - timedelta(days=10)
        Source.objects.filter(pk=source.pk).update(
            link_status="broken", link_failing_since=long_ago
        )
        self.run()
        source.refresh_from_db()
        assert source.link_failing_since == long_ago
        assert source.link_checked_at is not None and source.link_checked_at > long_ago
        Source.objects.filter(pk=source.pk).update(url=f"{base}/ok")
        self.run(status="broken")
        source.refresh_from_db()
        assert source.link_status == "ok" and source.link_failing_since is None

    def test_a_link_check_does_not_count_as_a_change_to_the_source(
        self, server: tuple[str, int], tiers: Tiers
    ) -> None:
        source = SourceFactory(url=f"{server[0]}/ok")
        updated = source.updated
        self.run()
        source.refresh_from_db()
        assert source.updated == updated

    def test_bad_options_are_refused_clearly(self, db: None) -> None:
        from django.core.management.base import CommandError

        with pytest.raises(CommandError, match="per-host"):
            call_command("check_links", per_host=50, stdout=io.StringIO())


@pytest.mark.django_db
class TestWhatPeopleSee:
    def test_source_page_warns_quietly_after_a_week_of_failures(
        self, client: Client, tiers: Tiers
    ) -> None:
        source = SourceFactory(slug="rotting")
        Source.objects.filter(pk=source.pk).update(
            link_status="broken",
            link_error="HTTP 404",
            link_failing_since=timezone.now() - timedelta(days=8),
        )
        html = client.get("/sources/rotting/").content.decode()
        assert 'class="link-warning"' in html and "(HTTP 404)" in html

    def test_no_warning_for_a_fresh_failure_or_a_blocking_host(
        self, client: Client, tiers: Tiers
    ) -> None:
        fresh = SourceFactory(slug="fresh")
        Source.objects.filter(pk=fresh.pk).update(
            link_status="broken", link_failing_since=timezone.now() - timedelta(days=2)
        )
        blocked = SourceFactory(slug="blocked")
        Source.objects.filter(pk=blocked.pk).update(link_status="blocked")
        assert "link-warning" not in client.get("/sources/fresh/").content.decode()
        assert "link-warning" not in client.get("/sources/blocked/").content.decode()

    def test_admin_filters_broken_links_and_stale_frontier_entries(
        self, client: Client, maintainer: User, tiers: Tiers, settings: Settings
    ) -> None:
        settings.FRONTIER_STALE_AFTER_DAYS = 90
        today = timezone.localdate()
        broken = SourceFactory(title="Broken one")
        Source.objects.filter(pk=broken.pk).update(
            link_status="broken", link_failing_since=timezone.now() - timedelta(days=9)
        )
        SourceFactory(title="Working one")
        SourceFactory(
            title="Stale frontier", tier=tiers["frontier"], verified_on=today - timedelta(days=91)
        )
        SourceFactory(
            title="Fresh frontier", tier=tiers["frontier"], verified_on=today - timedelta(days=5)
        )
        SourceFactory(title="Old core", tier=tiers["core"], verified_on=today - timedelta(days=900))
        client.force_login(maintainer)

        def titles(query: str) -> set[str]:
            html = client.get("/admin/catalog/source/?" + query).content.decode()
            return {
                t
                for t in [
                    "Broken one",
                    "Working one",
                    "Stale frontier",
                    "Fresh frontier",
                    "Old core",
                ]
                if f">{t}<" in html
            }

        assert titles("link=broken") == {"Broken one"}
        assert titles("link=failing-week") == {"Broken one"}
        assert titles("verification=stale") == {"Stale frontier"}
        html = client.get("/admin/catalog/source/").content.decode()
        assert "Needs re-verification" in html and "Broken" in html

    def test_cards_show_the_age_badge_on_frontier_entries(
        self, client: Client, tiers: Tiers, settings: Settings
    ) -> None:
        settings.FRONTIER_STALE_AFTER_DAYS = 30
        SourceFactory(
            title="Aging",
            tier=tiers["frontier"],
            verified_on=timezone.localdate() - timedelta(days=45),
        )
        html = client.get("/tiers/frontier/").content.decode()
        assert '<span class="badge age stale" title="Days since last verified">45 days old' in html
