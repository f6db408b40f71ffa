import json
import logging
import uuid
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from readinglist.observability import JSONFormatter
from tests.hints import SmallCatalog


@pytest.fixture
def request_log(caplog: pytest.LogCaptureFixture) -> Callable[[], list[logging.LogRecord]]:
    caplog.set_level(logging.INFO, logger="readinglist.request")
    return lambda: [r for r in caplog.records if r.name == "readinglist.request"]


def test_each_request_gets_an_id_echoed_in_the_response(
    client: Client, db: None, request_log: Callable[[], list[logging.LogRecord]]
) -> None:
    response = client.get("/healthz")
    request_id = response["X-Request-ID"]
    assert uuid.UUID(hex=request_id)
    [record] = request_log()
    assert vars(record)["request_id"] == request_id
    assert (vars(record)["method"], vars(record)["path"], vars(record)["status"]) == (
        "GET",
        "/healthz",
        200,
    )
    assert vars(record)["duration_ms"] >= 0
    assert vars(record)["user_id"] is None


def test_a_sane_upstream_request_id_is_kept(
    client: Client, db: None, request_log: Callable[[], list[logging.LogRecord]]
) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234.abc")
    assert response["X-Request-ID"] == "lb-1234.abc"
    assert vars(request_log()[0])["request_id"] == "lb-1234.abc"


@pytest.mark.parametrize("offered", ['x" injected="1', "a" * 200, "line\nbreak", ""])
def test_a_forged_or_odd_request_id_is_replaced(client: Client, db: None, offered: str) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID=offered)
    assert response["X-Request-ID"] != offered
    assert uuid.UUID(hex=response["X-Request-ID"])


def test_the_signed_in_users_id_is_logged(
    client: Client,
    reader: User,
    request_log: Callable[[], list[logging.LogRecord]],
    small_catalog: SmallCatalog,
) -> None:
    client.force_login(reader)
    client.get("/")
    assert vars(request_log()[-1])["user_id"] == reader.pk
    # Served from the reader's page cache, which never loads the user row: still their id.
    assert client.get("/")["X-Page-Cache"] == "hit"
    assert vars(request_log()[-1])["user_id"] == reader.pk


def test_the_formatter_writes_one_json_object_per_record() -> None:
    formatter = JSONFormatter()
    record = logging.makeLogRecord(
        {
            "name": "readinglist.request",
            "levelname": "INFO",
            "msg": "GET %s",
            "args": ("/é",),
            "request_id": "r1",
            "status": 200,
        }
    )
    line = formatter.format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "GET /é"
    assert entry["request_id"] == "r1"
    assert entry["status"] == 200
    assert entry["level"] == "INFO"
    assert entry["time"].endswith("+00:00")


def test_exceptions_are_kept_in_the_json_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.makeLogRecord({"msg": "failed", "exc_info": sys.exc_info()})
    entry = json.loads(JSONFormatter().format(record))
    assert "ValueError: boom" in entry["exception"]
