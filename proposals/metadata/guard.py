"""Only http(s) requests to public addresses leave this server.

A URL a reader typed could point at the server's own network (a database, a cloud metadata
endpoint). The host is resolved here, every address it resolves to is checked, and the request is
then sent to the checked address itself, so a DNS answer that changes between check and connect
(rebinding) cannot redirect it. Redirects are re-checked hop by hop by the fetcher.
"""

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

ALLOWED_SCHEMES = {"http", "https"}
DEFAULT_PORTS = {"http": 80, "https": 443}
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


class Refused(Exception):
    """A URL the fetcher will not request; the message says why, for the reader."""


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect, and what to call the host in Host and TLS SNI."""

    url: str
    scheme: str
    host: str
    port: int
    address: str
    path: str

    @property
    def connect_url(self) -> str:
        literal = f"[{self.address}]" if ":" in self.address else self.address
        return f"{self.scheme}://{literal}:{self.port}{self.path}"

    @property
    def host_header(self) -> str:
        default = DEFAULT_PORTS[self.scheme]
        return self.host if self.port == default else f"{self.host}:{self.port}"


def refusal_reason(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """Why this address is not public, or "" when it is."""
    if isinstance(address, ipaddress.IPv6Address):
        # IPv6 spellings that carry an IPv4 address reach that address: judge it instead.
        embedded = address.ipv4_mapped or address.sixtofour
        if address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        elif address.teredo:
            embedded = address.teredo[1]
        if embedded is not None:
            return refusal_reason(embedded)
    checks = [
        ("a loopback address", address.is_loopback),
        ("a link-local address", address.is_link_local),
        ("a private address", address.is_private),
        ("a multicast address", address.is_multicast),
        ("a reserved address", address.is_reserved),
        ("an unspecified address", address.is_unspecified),
        ("not a public address", not address.is_global),
    ]
    for description, applies in checks:
        if applies:
            return f"{address} is {description}"
    return ""


def resolve(host: str, port: int) -> list[str]:
    """Every address the host resolves to (IP literals in any spelling resolve to themselves)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(f"The host {host} could not be found.") from exc
    return list(dict.fromkeys(info[4][0] for info in infos))


def check_url(url: str) -> Target:
    """The URL's checked target, or Refused with the reason."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise Refused("This is not a valid address.") from exc
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"{scheme}:" if scheme else "an address without http:// or https://"
        raise Refused(f"Only http:// and https:// addresses can be fetched, not {shown}.")
    host = (parts.hostname or "").lower()
    if not host:
        raise Refused("The address has no host.")
    if parts.username or parts.password:
        raise Refused("Addresses with a user name or password are not fetched.")
    port = port or DEFAULT_PORTS[scheme]
    addresses = resolve(host, port)
    if not addresses:
        raise Refused(f"The host {host} could not be found.")
    if host not in settings.METADATA_ALLOWED_HOSTS:
        for raw in addresses:
            reason = refusal_reason(ipaddress.ip_address(raw.split("%", 1)[0]))
            if reason:
                raise Refused(f"{host} is not fetched: {reason}.")
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(url=url, scheme=scheme, host=host, port=port, address=addresses[0], path=path)
