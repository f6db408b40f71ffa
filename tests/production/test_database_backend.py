"""The PostgreSQL backend waits on an unreachable database once per request, not once per query."""

import time

import pytest
from django.db import OperationalError, connection

from readinglist.postgresql.base import DatabaseWrapper

pytestmark = pytest.mark.postgres


def unreachable_database() -> DatabaseWrapper:
    settings = {
        **connection.settings_dict,
        "NAME": "readinglist_no_such_database",
        "OPTIONS": {**connection.settings_dict["OPTIONS"]},
    }
    settings["OPTIONS"]["pool"] = {"min_size": 0, "max_size": 1, "timeout": 0.5}
    return DatabaseWrapper(settings, alias="unreachable_probe")


def attempt(database: DatabaseWrapper) -> float:
    started = time.monotonic()
    with pytest.raises(OperationalError):
        database.ensure_connection()
    return time.monotonic() - started


def test_the_engine_is_ours() -> None:
    assert connection.settings_dict["ENGINE"] == "readinglist.postgresql"
    assert connection.vendor == "postgresql"


@pytest.mark.django_db
def test_a_second_attempt_in_the_same_request_does_not_wait_again() -> None:
    database = unreachable_database()
    try:
        assert attempt(database) >= 0.4
        assert attempt(database) < 0.2
        # The next request (Django calls this as each one starts) tries afresh.
        database.close_if_unusable_or_obsolete()
        assert attempt(database) >= 0.4
    finally:
        database.close_pool()
