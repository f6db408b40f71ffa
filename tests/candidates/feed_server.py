"""A loopback server answering like arXiv's API, GitHub's releases feeds and a blog, from the
recorded bodies in fixtures/, plus the failures a collector must survive."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

FIXTURES = Path(__file__).parent / "fixtures"
ETAG = '"recorded-1"'


def many_entries(count: int) -> bytes:
    """An RSS feed of `count` distinct posts about serving models, newest first."""
    items = "".join(
        f"<item><title>Serving note {n}: batching KV cache pages on GPUs</title>"
        f"<link>https://many.example.org/posts/{n}</link>"
        f"<description>How post {n} batches LLM decoding over paged KV cache.</description></item>"
        for n in range(count, 0, -1)
    )
    channel = f"<channel><title>Many</title>{items}</channel>"
    return f'<?xml version="1.0"?><rss version="2.0">{channel}</rss>'.encode()


class _Handler(BaseHTTPRequestHandler):
    server_version = "fixture/1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        self.server.requests.append(  # type: ignore[attr-defined]
            {"path": self.path, "if_none_match": self.headers.get("If-None-Match", "")}
        )
        if path == "/slow":
            time.sleep(5)
        if path == "/private-redirect":
            return self._answer(302, b"", {"Location": "http://10.255.255.1/feed.xml"})
        if path == "/many.rss":
            return self._answer(200, many_entries(30), {"ETag": ETAG})
        if path == "/huge":
            return self._answer(200, b"<rss>" + b"<item>x</item>" * 400_000 + b"</rss>")
        routes = {
            "/arxiv/query": "arxiv_page.xml",
            "/example-org/engine/releases.atom": "releases.atom",
            "/blog/feed.rss": "blog.rss",
            "/malformed.xml": "malformed.xml",
            "/bad-dates.atom": "bad_dates.atom",
        }
        name = routes.get(path)
        if name is None:
            return self._answer(404, b"not found")
        if self.headers.get("If-None-Match") == ETAG:
            return self._answer(304, b"", {"ETag": ETAG})
        return self._answer(200, (FIXTURES / name).read_bytes(), {"ETag": ETAG})

    def _answer(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/atom+xml")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class FeedServer:
    def __enter__(self) -> "FeedServer":
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.requests = []  # type: ignore[attr-defined]
        self.base = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    @property
    def requests(self) -> list[dict]:
        return self.httpd.requests  # type: ignore[attr-defined]

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
