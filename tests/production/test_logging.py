"""Each log line is printed once, in development and in production."""

import pytest

from tests.production.test_security import PRODUCTION, run_python

LOG_SOME_LINES = (
    "import django, logging; django.setup(); "
    "logging.getLogger('django.security.csrf').warning('csrf line'); "
    "logging.getLogger('django.request').error('request line'); "
    "logging.getLogger('readinglist.request').warning('app line')"
)


@pytest.mark.parametrize("debug", ["true", "false"])
def test_every_line_is_printed_once(debug: str) -> None:
    result = run_python(["-c", LOG_SOME_LINES], **PRODUCTION, DEBUG=debug)
    assert result.returncode == 0, result.stderr
    printed = result.stdout + result.stderr
    for line in ("csrf line", "request line", "app line"):
        assert printed.count(line) == 1, printed
