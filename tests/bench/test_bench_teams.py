"""bench_teams: team sizes like the issue's (24 to 333 members at full scale), and it never
touches a database that is not a PostgreSQL benchmark database."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.team_data import team_sizes

# Real processes and whole databases: minutes, so `make test-fast` leaves them out.
pytestmark = pytest.mark.slow


def test_full_scale_teams_run_from_24_to_333_members() -> None:
    sizes = team_sizes(5000, 100)
    assert (sizes[0], sizes[-1], len(sizes)) == (24, 333, 100)
    assert sizes == sorted(sizes)


def test_a_reduced_run_keeps_teams_proportional() -> None:
    sizes = team_sizes(1000, 20)
    assert (sizes[0], sizes[-1]) == (5, 67)


@pytest.mark.parametrize(
    "url",
    ["postgres://postgres@127.0.0.1:5432/readinglist", "sqlite:///tmp/readinglist_bench.sqlite3"],
)
def test_refuses_a_database_that_is_not_a_postgres_bench_database(url: str) -> None:
    with pytest.raises(CommandError, match="refusing"):
        call_command("bench_teams", f"--database-url={url}")


@pytest.mark.parametrize(
    "url",
    ["postgres://postgres@127.0.0.1:5432/readinglist", "sqlite:///tmp/readinglist_bench.sqlite3"],
)
def test_the_team_size_benchmark_refuses_it_too(url: str) -> None:
    with pytest.raises(CommandError, match="refusing"):
        call_command("bench_team_size", f"--database-url={url}")
