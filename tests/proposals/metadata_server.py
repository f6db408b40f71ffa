"""A loopback HTTP server that answers like arXiv, Crossref, GitHub and a few web pages, from
recorded response bodies in fixtures/. Tests never reach the network."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

FIXTURES = Path(__file__).parent / "fixtures"

Route = tuple[int, str, bytes, dict[str, str]]


class _Handler(BaseHTTPRequestHandler):
    server_version = "fixture/1"
    requests: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        type(self).requests.append(
            {"path": parts.path, "user_agent": self.headers.get("User-Agent", "")}
        )
        route = self._route(parts.path, parse_qs(parts.query))
        status, content_type, body, headers = route
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _file(self, name: str, content_type: str) -> Route:
        path = FIXTURES / name
        if path.exists():
            return 200, content_type, path.read_bytes(), {}
        return 404, "application/json", (FIXTURES / "github_not_found.json").read_bytes(), {}

    def _route(self, path: str, query: dict[str, list[str]]) -> Route:
        if path == "/arxiv/query":
            paper = query.get("id_list", [""])[0]
            found = FIXTURES / f"arxiv_{paper}.xml"
            name = found.name if found.exists() else "arxiv_not_found.xml"
            return self._file(name, "application/atom+xml; charset=utf-8")
        if path.startswith("/crossref/works/"):
            doi = unquote(path.removeprefix("/crossref/works/"))
            return self._file(f"crossref_{doi.replace('/', '_')}.json", "application/json")
        if path.startswith("/github/repos/"):
            repo = path.removeprefix("/github/repos/").replace("/", "_")
            return self._file(f"github_{repo}.json", "application/json")
        if path.startswith("/pages/"):
            return self._file(path.removeprefix("/pages/"), "text/html; charset=utf-8")
        if path == "/slow":
            time.sleep(3)
            return 200, "text/html", b"<title>late</title>", {}
        if path.startswith("/redirect/"):
            return 302, "text/plain", b"", {"Location": unquote(path.removeprefix("/redirect/"))}
        if path.startswith("/loop/"):
            hop = int(path.removeprefix("/loop/"))
            return 302, "text/plain", b"", {"Location": f"/loop/{hop + 1}"}
        return 404, "text/plain", b"not here", {}


class MetadataServer:
    def __init__(self) -> None:
        _Handler.requests = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def requests(self) -> list[dict]:
        return _Handler.requests

    def __enter__(self) -> "MetadataServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
