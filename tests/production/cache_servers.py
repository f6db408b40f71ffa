"""Real parts the cache and probe tests start on loopback: a Redis, a TCP forwarder standing in
for the database's network, and a migrated database of their own."""

import contextlib
import selectors
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import cast

import psycopg
import redis
from django.conf import settings

from readinglist.local_server import BASE_DIR, free_port

REDIS_SERVER = "/usr/bin/redis-server"


class RedisServer:
    """A redis-server this test owns, on a fixed free port so it can be stopped and restarted."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class Forwarder:
    """A TCP forwarder to the database. stop() refuses new connections and cuts the open ones,
    as a database host that went away would; start() listens on the same port again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    upstream.close()
                    return
                self._sockets |= {client, upstream}
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(a, selectors.EVENT_READ, b)
        selector.register(b, selectors.EVENT_READ, a)
        try:
            while True:
                for key, _ in selector.select():
                    data = cast(socket.socket, key.fileobj).recv(65536)
                    if not data:
                        return
                    key.data.sendall(data)
        except (OSError, ValueError):
            return
        finally:
            selector.close()
            for sock in (a, b):
                with contextlib.suppress(OSError):
                    sock.close()


def admin_connection() -> psycopg.Connection:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def database_url(name: str, port: int | None = None) -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:"
        f"{port or db['PORT'] or 5432}/{name}"
    )


def manage(env: dict, *command: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=BASE_DIR,
        env=env,
        check=True,
        capture_output=True,
    )


@contextlib.contextmanager
def app_database(env_for: Callable[[str], dict[str, str]]) -> Iterator[str]:
    """A database of its own, migrated and loaded with the catalog; yields its name.
    `env_for(url)` is the environment the management commands run with."""
    name = f"rl_cache_{uuid.uuid4().hex[:8]}"
    with admin_connection() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        env = env_for(database_url(name))
        for command in (["migrate", "--noinput"], ["createcachetable"], ["load_catalog"]):
            manage(env, *command)
        yield name
    finally:
        with admin_connection() as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
