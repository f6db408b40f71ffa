"""The SSRF corpus: only http(s) to public addresses is fetched, each refusal with a reason."""

import socket

import pytest
from pytest_django import Settings

from proposals.metadata import fill_from
from readinglist.http import Refused, check_url
from tests.proposals.metadata_server import MetadataServer


@pytest.fixture(autouse=True)
def _no_exceptions(settings: Settings) -> None:
    settings.METADATA_ALLOWED_HOSTS = []


def _resolving_to(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    def fake_getaddrinfo(
        host: str, port: int, *args: object, **kwargs: object
    ) -> list[tuple[socket.AddressFamily, socket.SocketKind, int, str, tuple[str, int]]]:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("file:///etc/passwd", "not file:"),
        ("gopher://127.0.0.1:70/_stats", "not gopher:"),
        ("ftp://example.org/x", "not ftp:"),
        ("http://127.0.0.1/", "127.0.0.1 is a loopback address"),
        ("http://127.0.0.1:5432/", "127.0.0.1 is a loopback address"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
        ("http://[::1]/", "::1 is a loopback address"),
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1 is a loopback address"),
        ("http://[fe80::1]/", "fe80::1 is a link-local address"),
        ("http://[64:ff9b::7f00:1]/", "127.0.0.1 is a loopback address"),
        ("http://[2002:a00:1::]/", "10.0.0.1 is a private address"),
        ("http://0x7f000001/", "127.0.0.1 is a loopback address"),
        ("http://2130706433/", "127.0.0.1 is a loopback address"),
        ("http://0.0.0.0/", "0.0.0.0 is"),
        ("http://10.1.2.3/", "10.1.2.3 is a private address"),
        ("http://192.168.0.1/", "192.168.0.1 is a private address"),
        ("http://224.0.0.1/", "224.0.0.1 is a multicast address"),
        ("http://user:pw@example.org/", "user name or password"),
    ],
)
def test_unsafe_addresses_are_refused_with_a_reason(url: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason.replace(".", r"\.").replace("[", r"\[")):
        check_url(url)


@pytest.mark.parametrize(
    "address", ["10.0.0.7", "127.0.0.2", "169.254.169.254", "fd00::1", "::ffff:192.168.1.1"]
)
def test_a_name_resolving_to_a_private_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    _resolving_to(monkeypatch, address)
    with pytest.raises(Refused, match=r"internal\.example\.org is not fetched"):
        check_url("https://internal.example.org/paper")


def test_a_public_address_is_allowed_and_pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    _resolving_to(monkeypatch, "93.184.215.14")
    target = check_url("https://papers.example.org/x?y=1")
    # The request goes to the address checked here, so DNS cannot change it afterwards.
    assert target.connect_url == "https://93.184.215.14:443/x?y=1"
    assert target.host_header == "papers.example.org"


def test_an_unknown_host_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_host(*args: object, **kwargs: object) -> None:
        raise socket.gaierror("Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with pytest.raises(Refused, match="could not be found"):
        check_url("https://no-such-host.example/")


def test_the_reader_is_told_why_a_private_address_was_not_fetched(db: None) -> None:
    result = fill_from("http://169.254.169.254/latest/meta-data/")
    assert result.problem == (
        "Couldn't fetch: 169.254.169.254 is not fetched: 169.254.169.254 is a link-local "
        "address. Fill it in yourself."
    )


def test_a_redirect_to_a_private_address_is_refused(
    metadata_server: MetadataServer, settings: Settings
) -> None:
    metadata_server_host_only = ["127.0.0.1"]
    settings.METADATA_ALLOWED_HOSTS = metadata_server_host_only
    for target in ["http://169.254.169.254/latest/meta-data/", "http://localhost/admin/"]:
        hop = target.replace(":", "%3A").replace("/", "%2F")
        result = fill_from(f"{metadata_server.base}/redirect/{hop}")
        assert "is not fetched" in result.problem
        assert "a link-local address" in result.problem or "a loopback address" in result.problem


def test_a_redirect_chain_ending_at_a_private_address_is_refused(
    metadata_server: MetadataServer, settings: Settings
) -> None:
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
    private = "http%3A%2F%2F10.0.0.5%2Fsecret"
    middle = f"%2Fredirect%2F{private.replace('%', '%25')}"
    result = fill_from(f"{metadata_server.base}/redirect/{middle}")
    assert "10.0.0.5 is a private address" in result.problem
