"""The outbound HTTP policy (readinglist/http.py) against servers started here on 127.0.0.1."""

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from accounts.models import User
from readinglist import http as outbound

TRICKLE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Padding: " + b"x" * 200


@contextmanager
def trickling_server(pause: float = 1.0, *, body_first: bool = False) -> Iterator[str]:
    """A server that answers one byte every `pause` seconds, forever: each read sees progress,
    so only a deadline on the whole exchange stops it. `body_first` sends the headers at once
    and trickles the body instead."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                if body_first:
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
                for byte in (b"<" * 100000) if body_first else TRICKLE:
                    if stop.wait(pause):
                        return
                    conn.sendall(bytes([byte]))
            except OSError:
                return

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        # shutdown() wakes the accepting thread; close() alone would leave it listening.
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()


class Handler(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        type(self).requests.append(dict(self.headers))
        if self.path == "/feed":
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.end_headers()
                return
            body = b"<feed>first</feed>"
            self.send_response(200)
            self.send_header("ETag", '"v1"')
            self.send_header("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT")
        elif self.path == "/big":
            body = b"x" * 100_000
            self.send_response(200)
        else:
            body = b"nothing here"
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server(settings: Settings) -> Iterator[str]:
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
    Handler.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def loopback_allowed(settings: Settings) -> None:
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]


@pytest.mark.parametrize("body_first", [False, True], ids=["headers", "body"])
def test_a_trickling_server_is_cut_at_the_total_deadline(
    loopback_allowed: None, body_first: bool
) -> None:
    with trickling_server(0.2, body_first=body_first) as url:
        started = time.monotonic()
        with pytest.raises(outbound.TimedOut, match=r"127\.0\.0\.1 took too long to answer"):
            outbound.fetch(url, deadline=1.5)
        elapsed = time.monotonic() - started
    # Each byte arrives well within any per-read timeout; only the whole-exchange deadline ends it.
    assert 1.4 < elapsed < 2.5


def test_a_slow_host_is_told_from_one_that_cannot_be_reached(loopback_allowed: None) -> None:
    with trickling_server(0.2) as url, pytest.raises(outbound.Slow) as slow:
        outbound.fetch(url, deadline=0.5)
    assert not outbound.reached_no_host(slow.value)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        closed = unused.getsockname()[1]
    with pytest.raises(outbound.Unreachable) as unreachable:
        outbound.fetch(f"http://127.0.0.1:{closed}/", deadline=0.5)
    assert outbound.reached_no_host(unreachable.value)


def test_a_trickling_server_holds_the_fill_form_only_a_few_seconds(
    client: Client, django_user_model: type[User], loopback_allowed: None, settings: Settings
) -> None:
    settings.OUTBOUND_DEADLINE_SECONDS = 2.0
    client.force_login(django_user_model.objects.create_user(email="r@example.org"))
    with trickling_server(1.0) as url:
        started = time.monotonic()
        response = client.post(reverse("proposals:propose-fill"), {"url": f"{url}/paper"})
        elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert "127.0.0.1 took too long to answer." in response.content.decode()
    assert elapsed < 4


def test_when_every_slot_is_taken_a_fetch_is_refused_at_once(
    server: str, settings: Settings
) -> None:
    settings.OUTBOUND_MAX_CONCURRENT = 1
    with trickling_server(0.2) as url:
        outcomes = []

        def hold_the_only_slot() -> None:
            try:
                outbound.fetch(url, deadline=1.5)
            except outbound.OutboundError as exc:
                outcomes.append(type(exc))

        holder = threading.Thread(target=hold_the_only_slot)
        holder.start()
        time.sleep(0.3)
        started = time.monotonic()
        with pytest.raises(outbound.Busy, match="Too many outside requests"):
            outbound.fetch(url, deadline=5)
        assert time.monotonic() - started < 0.2
        holder.join()
    assert outcomes == [outbound.Slow]
    # The slot is free again once the first fetch ended.
    assert outbound.fetch(f"{server}/feed").status == 200


def test_the_body_is_capped_and_the_agent_is_polite(server: str, settings: Settings) -> None:
    answer = outbound.fetch(f"{server}/big", max_bytes=1000)
    assert (answer.status, len(answer.body)) == (200, 1000)
    agent = Handler.requests[-1]["User-Agent"]
    assert settings.SITE_DOMAIN in agent and settings.LINKCHECK_CONTACT_URL in agent


def test_any_status_is_returned_to_the_caller(server: str) -> None:
    answer = outbound.fetch(f"{server}/elsewhere")
    assert (answer.status, answer.text) == (404, "nothing here")


def test_conditional_get_sends_the_validators(server: str) -> None:
    first = outbound.fetch(f"{server}/feed")
    assert (first.status, first.etag) == (200, '"v1"')
    again = outbound.fetch(f"{server}/feed", etag=first.etag, last_modified=first.last_modified)
    assert (again.status, again.body) == (304, b"")
    sent = Handler.requests[-1]
    assert sent["If-None-Match"] == '"v1"'
    assert sent["If-Modified-Since"] == "Tue, 01 Dec 2026 10:00:00 GMT"


def test_the_cache_serves_fresh_answers_and_revalidates_stale_ones(
    server: str, monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    first = outbound.fetch(f"{server}/feed", cache_seconds=60)
    second = outbound.fetch(f"{server}/feed", cache_seconds=60)
    assert second == first and len(Handler.requests) == 1
    later = time.time() + 61
    monkeypatch.setattr(outbound.time, "time", lambda: later)
    revalidated = outbound.fetch(f"{server}/feed", cache_seconds=60)
    assert len(Handler.requests) == 2 and Handler.requests[-1]["If-None-Match"] == '"v1"'
    assert (revalidated.status, revalidated.body, revalidated.not_modified) == (
        200,
        b"<feed>first</feed>",
        True,
    )


def test_every_hop_passes_the_address_check(server: str, settings: Settings) -> None:
    settings.METADATA_ALLOWED_HOSTS = []
    with pytest.raises(outbound.Refused, match=r"127\.0\.0\.1 is a loopback address"):
        outbound.fetch(f"{server}/feed")
    assert Handler.requests == []


def test_an_ipv6_literal_is_bracketed_in_the_host_header(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    settings.METADATA_ALLOWED_HOSTS = []

    def resolves_to_itself(
        host: str, port: int, *args: object, **kwargs: object
    ) -> list[tuple[socket.AddressFamily, socket.SocketKind, int, str, tuple[str, int, int, int]]]:
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (host, port, 0, 0))]

    monkeypatch.setattr(socket, "getaddrinfo", resolves_to_itself)
    target = outbound.check_url("https://[2606:4700::1111]:8443/paper?id=1")
    assert target.host_header == "[2606:4700::1111]:8443"
    assert target.connect_url == "https://[2606:4700::1111]:8443/paper?id=1"
