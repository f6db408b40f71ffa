"""What an outbound fetch (readinglist.http) fails with: every message is fit to show a reader.

Imported through readinglist.http, which re-exports each name; kept apart so that the address
check (readinglist.http_guard) and the exchange raise the same errors without importing each other.
"""


class OutboundError(Exception):
    """A fetch that produced no answer; the message is for the reader."""


class Refused(OutboundError):
    """A URL that is not fetched: wrong scheme, credentials, or not a public address."""


class HostNotFound(Refused):
    """The host name does not resolve (no such host, or no network)."""


class FetchFailed(OutboundError):
    """The request was allowed but did not complete."""


class TimedOut(FetchFailed):
    """The exchange did not finish within its deadline."""


class Slow(TimedOut):
    """The host answered (it accepted the connection, or an earlier hop answered) but did not
    finish within the deadline: a slow host, not a missing network."""


class Unreachable(FetchFailed):
    """The connection was refused, reset or could not be made."""


class TLSFailed(FetchFailed):
    """The server's certificate or TLS handshake was not acceptable."""


class Busy(FetchFailed):
    """Every outbound slot of this process is in use."""


class TooManyRedirects(FetchFailed):
    """The server redirected more times than the caller allows."""


# Failures that say "the network or the host is not there", not "this page is wrong".
NETWORK_ERRORS = (HostNotFound, Unreachable, TimedOut)


def reached_no_host(error: BaseException) -> bool:
    """Whether a failed fetch got no answer from any host at all: no DNS answer, no connection.
    Batch jobs read a run of such failures as this machine's outage (readinglist.outage); a
    slow host did answer, so it is the host's own failure."""
    return isinstance(error, NETWORK_ERRORS) and not isinstance(error, Slow)
