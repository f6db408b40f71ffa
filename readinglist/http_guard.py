"""The outbound policy's address check (the SSRF guard): only http(s) to public addresses.

The host is resolved here, every address it resolves to is checked, and the caller connects to
the checked address itself (`Target.connect_url`), so a DNS answer that changes between check
and connect (rebinding) cannot redirect it. readinglist.http checks every hop of a fetch here;
its names are re-exported there.
"""

import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as ResolveTimeout
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from .http_errors import HostNotFound, Refused, TimedOut

ALLOWED_SCHEMES = {"http", "https"}
DEFAULT_PORTS = {"http": 80, "https": 443}
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


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
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"


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


# getaddrinfo() takes no timeout: it runs on these threads so the caller waits only its deadline.
_resolver = ThreadPoolExecutor(max_workers=4, thread_name_prefix="outbound-dns")


def resolve(host: str, port: int, *, timeout: float = 5.0) -> list[str]:
    """Every address the host resolves to (IP literals in any spelling resolve to themselves)."""
    lookup = _resolver.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        infos = lookup.result(timeout=max(timeout, 0.0))
    except ResolveTimeout as exc:
        raise TimedOut(f"{host} took too long to answer.") from exc
    except (OSError, UnicodeError) as exc:
        raise HostNotFound(f"The host {host} could not be found.") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def check_url(url: str, *, timeout: float = 5.0) -> Target:
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
    addresses = resolve(host, port, timeout=timeout)
    if not addresses:
        raise HostNotFound(f"The host {host} could not be found.")
    # Tests and a local mirror name the hosts that may resolve to private addresses.
    if host not in settings.METADATA_ALLOWED_HOSTS:
        for raw in addresses:
            reason = refusal_reason(ipaddress.ip_address(raw.split("%", 1)[0]))
            if reason:
                raise Refused(f"{host} is not fetched: {reason}.")
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(url=url, scheme=scheme, host=host, port=port, address=addresses[0], path=path)
