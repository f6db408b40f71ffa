"""A team source's page and a member's search cost the same whatever the team holds."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from teams.models import Membership, Team
from teamsources.models import TeamSource
from tests.factories import UserFactory
from tests.hints import present

from .conftest import add

pytestmark = pytest.mark.django_db


def _grow(client: Client, team: Team, count: int) -> None:
    for n in range(count):
        add(client, team, title=f"Zanzibar note {n}", url=f"http://wiki.corp.internal/{n}")
        Membership.objects.create(team=team, user=UserFactory())


def _queries(client: Client, url: str) -> int:
    client.get(url)  # per-process lookups (the reader's teams, tiers) are filled once
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_and_the_search_cost_the_same_at_two_sizes(
    client: Client, team: Team, member: User, render_every_time: None
) -> None:
    client.force_login(member)
    _grow(client, team, 1)
    first = present(TeamSource.objects.select_related("source").last()).source
    small = [_queries(client, f"/sources/{first.slug}/"), _queries(client, "/sources/?q=zanzibar")]
    _grow(client, team, 8)
    large = [_queries(client, f"/sources/{first.slug}/"), _queries(client, "/sources/?q=zanzibar")]
    assert small == large
