"""/save/ on a team's own pages: a page one of the reader's teams keeps is treated as catalogued
(a note, or a thread in that team), a page another team keeps is an unknown page in every way
a reader could observe, and a page nobody keeps can become the reader's team's own in one post,
the passage carried on to the thread."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from catalog.models import Source
from discussions.models import Thread
from teams.models import Team
from teamsources.models import TeamSource
from tests.factories import SourceFactory, join_team
from tests.hints import Response

from .conftest import add

pytestmark = pytest.mark.django_db

SECRET = "Zanzibar design notes"
KEPT_URL = "https://wiki.corp.example/zanzibar"
UNKNOWN_URL = "https://wiki.corp.example/elsewhere"
PASSAGE = "The outage began at noon and lasted an hour"
# What differs between any two responses: the CSRF token and the CSP nonce.
_PER_RESPONSE = re.compile(
    r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"|"x-csrftoken": "[^"]*"'
)


@pytest.fixture
def kept(client: Client, team: Team, member: User) -> TeamSource:
    client.force_login(member)
    add(client, team, title=SECRET, url=KEPT_URL)
    client.logout()
    return TeamSource.objects.select_related("source").get()


def _save(client: Client, url: str, **params: str) -> Response:
    return client.get("/save/", {"url": url, "title": "A page", **params})


def _page(response: Response) -> str:
    return _PER_RESPONSE.sub("", response.content.decode())


def test_a_page_the_readers_team_keeps_offers_a_note_and_a_thread_in_that_team(
    client: Client, kept: TeamSource, member: User, team: Team
) -> None:
    # The reader is in a second team too: the thread is offered in the source's team only.
    join_team(member, slug="elsewhere")
    client.force_login(member)
    # Another spelling of the stored address, as the catalog's identity matching allows.
    response = _save(client, "http://www.wiki.corp.example/zanzibar/?utm_source=x", quote=PASSAGE)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Note for me" in page and "Start a team thread" in page
    assert SECRET in page and f"a source of {team.name}'s own" in page
    assert f'value="{team.slug}"' in page and 'value="elsewhere"' not in page
    assert PASSAGE in page


def test_without_a_passage_the_page_names_the_teams_source(
    client: Client, kept: TeamSource, member: User, team: Team
) -> None:
    client.force_login(member)
    response = _save(client, KEPT_URL)
    assert response.status_code == 200
    assert SECRET in response.content.decode()
    assert f"a source of {team.name}'s own" in response.content.decode()


@pytest.mark.parametrize("with_passage", [True, False])
def test_another_teams_page_is_an_unknown_page(
    client: Client, kept: TeamSource, outsider: User, other_team: Team, with_passage: bool
) -> None:
    """Same status, same words (the address aside), same queries as a page nobody keeps."""
    client.force_login(outsider)
    params = {"quote": PASSAGE} if with_passage else {}
    _save(client, UNKNOWN_URL, **params)  # what the first request of a session alone reads
    with CaptureQueriesContext(connection) as unknown_queries:
        unknown = _save(client, UNKNOWN_URL, **params)
    with CaptureQueriesContext(connection) as secret_queries:
        secret = _save(client, KEPT_URL, **params)
    assert secret.status_code == unknown.status_code == (200 if with_passage else 302)
    assert SECRET not in _page(secret)
    assert _page(secret).replace("zanzibar", "elsewhere").splitlines() == (
        _page(unknown).splitlines()
    )
    # The same statements, the address aside: nothing of the other team's row is read.
    asked = [query["sql"].replace("zanzibar", "elsewhere") for query in secret_queries]
    assert asked == [query["sql"] for query in unknown_queries]


def test_the_catalogs_public_source_wins(
    client: Client, kept: TeamSource, member: User, team: Team
) -> None:
    public = SourceFactory(title="Zanzibar, the paper", url=KEPT_URL)
    client.force_login(member)
    page = _save(client, KEPT_URL, quote=PASSAGE).content.decode()
    assert public.title in page
    assert f"a source of {team.name}'s own" not in page


# A page nobody keeps.


def test_a_reader_in_a_team_is_offered_to_add_the_page_for_it(
    client: Client, member: User, team: Team
) -> None:
    client.force_login(member)
    page = _save(client, UNKNOWN_URL, quote=PASSAGE).content.decode()
    assert f"Add to {team.name} as a team source and start a thread with this quote" in page
    assert 'action="/save/team-source/"' in page
    # The passage is still kept by hand and the proposal still offered.
    assert "Propose this page" in page and 'id="kept-passage"' in page


def test_a_reader_without_a_team_keeps_the_passage_and_the_proposal(
    client: Client, outsider: User
) -> None:
    client.force_login(outsider)
    page = _save(client, UNKNOWN_URL, quote=PASSAGE).content.decode()
    assert "as a team source" not in page
    assert "Propose this page" in page and PASSAGE in page


def _add_from_page(client: Client, team: Team, **fields: str) -> Response:
    data = {
        "team": team.slug,
        "title": "Elsewhere runbook",
        "url": UNKNOWN_URL,
        "kind": Source.Kind.DOCUMENTATION,
        "quote": PASSAGE,
        "prefix": "Last Tuesday",
        "suffix": "in the east",
        **fields,
    }
    return client.post("/save/team-source/", data)


def test_one_post_adds_the_team_source_and_the_thread_form_follows_with_the_quote(
    client: Client, member: User, team: Team
) -> None:
    client.force_login(member)
    response = _add_from_page(client, team)
    assert response.status_code == 302
    row = TeamSource.objects.select_related("source").get()
    assert (row.team, row.source.url, row.source.status) == (team, UNKNOWN_URL, "private")
    assert response["Location"].startswith("/save/?")
    page = client.get(response["Location"]).content.decode()
    assert "Start a team thread" in page and "Elsewhere runbook" in page
    assert PASSAGE in page and 'value="Last Tuesday"' in page
    # The thread form posts to the new source's discussion address, in that team.
    started = client.post(
        f"/sources/{row.source.slug}/discussion/",
        {"team": team.slug, "title": "Why an hour?", "quote_exact": PASSAGE},
    )
    assert started.status_code == 302
    thread = Thread.objects.get()
    assert (thread.team, thread.source, thread.quote_exact) == (team, row.source, PASSAGE)


def test_a_refused_post_keeps_everything_typed(client: Client, member: User, team: Team) -> None:
    client.force_login(member)
    response = _add_from_page(client, team, title="", url="Elsewhere, our wiki")
    page = response.content.decode()
    assert response.status_code == 400
    assert not TeamSource.objects.exists()
    assert 'value="Elsewhere, our wiki"' in page
    assert f'value="{PASSAGE}"' in page and 'value="in the east"' in page


def test_another_teams_slug_is_refused_and_adds_nothing(
    client: Client, member: User, team: Team, other_team: Team
) -> None:
    client.force_login(member)
    response = _add_from_page(client, other_team)
    assert response.status_code == 400
    assert not TeamSource.objects.exists()


def test_a_reader_without_a_team_or_a_visitor_cannot_post(
    client: Client, outsider: User, team: Team
) -> None:
    assert _add_from_page(client, team).status_code == 302  # to sign in
    client.force_login(outsider)
    assert _add_from_page(client, team).status_code == 404
    assert client.get("/save/team-source/").status_code == 405
    assert not TeamSource.objects.exists()


def test_the_same_page_twice_is_refused_with_a_link_to_the_teams_source(
    client: Client, kept: TeamSource, member: User, team: Team
) -> None:
    client.force_login(member)
    response = _add_from_page(client, team, url=KEPT_URL)
    assert response.status_code == 400
    assert "Your team added it already" in response.content.decode()
    assert TeamSource.objects.count() == 1
