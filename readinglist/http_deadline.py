"""One deadline for a whole HTTP exchange, enforced under httpcore.

httpcore's timeouts apply to each socket operation: a server that sends one byte every few
seconds satisfies every one of them and holds the caller for as long as it likes. This network
backend gives every connect, TLS handshake, read and write only the time left before the
exchange's deadline, and fails with httpcore's own timeout errors once it has passed.
"""

import ssl
import time
from typing import Any

import httpcore


class Deadline:
    def __init__(self, seconds: float):
        self.at = time.monotonic() + seconds

    def left(self, timeout_error: type[Exception] = httpcore.ReadTimeout) -> float:
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise timeout_error("The deadline passed.")
        return remaining

    def clamp(self, timeout: float | None, timeout_error: type[Exception]) -> float:
        left = self.left(timeout_error)
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline):
        self._stream, self._deadline = stream, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._deadline.clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._deadline.clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        # Python bounds the whole handshake (and each TLS read) by the socket timeout, not each
        # of its socket reads, so the time left bounds it too.
        limit = self._deadline.clamp(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(
            self._stream.start_tls(ssl_context, server_hostname, limit), self._deadline
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self, deadline: Deadline):
        self._inner, self._deadline = httpcore.SyncBackend(), deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        limit = self._deadline.clamp(timeout, httpcore.ConnectTimeout)
        stream = self._inner.connect_tcp(host, port, limit, local_address, socket_options)
        return _DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, self._deadline.left()))
