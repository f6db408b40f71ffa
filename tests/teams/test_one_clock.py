"""One clock: a team note shows the same time, in the reader's own zone, on every page that
shows it, and its `<time datetime>` carries UTC."""

from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts.models import User
from notes.models import Note
from teams.models import Session, Team
from tests.factories import SourceFactory

WRITTEN = datetime(2026, 12, 1, 23, 6, tzinfo=UTC)


@pytest.fixture
def note(team: Team, member: User) -> Note:
    member.time_zone = "Europe/Paris"
    member.save()
    source = SourceFactory(slug="flashattention", title="FlashAttention")
    note = Note.objects.create(
        user=member, source=source, body="Tiling matters.", visibility="team", team=team
    )
    Note.objects.filter(pk=note.pk).update(created=WRITTEN)
    return note


@pytest.mark.parametrize(
    "page",
    ["/teams/inference/", "/notes/team/", "/library/notes/", "/sources/flashattention/", "note"],
)
def test_a_note_shows_one_time_in_the_readers_zone_everywhere(
    client: Client, member: User, note: Note, page: str
) -> None:
    client.force_login(member)
    url = f"/notes/{note.pk}/" if page == "note" else page
    text = client.get(url).text
    assert "Tiling matters." in text
    assert '<time datetime="2026-12-01T23:06:00Z">2 Dec 2026, 00:06</time>' in text
    assert "1 Dec 2026, 23:06" not in text


def test_sessions_name_the_zone_and_carry_utc(client: Client, team: Team, member: User) -> None:
    member.time_zone = "Europe/Paris"
    member.save()
    Session.objects.create(team=team, title="Week 1", starts_at="2030-01-01T10:00Z")
    client.force_login(member)
    text = client.get("/teams/inference/").text
    assert (
        '<time datetime="2030-01-01T10:00:00Z">Tuesday 1 January 2030, 11:00 (CET)</time>' in text
    )
