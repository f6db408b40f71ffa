"""The team page puts the work first: an owner lands on the invite panel, invitations confirm
where they were sent from, and addresses come with copy buttons."""

import re

from django.core import mail
from django.test import Client

from accounts.models import User
from teams.models import Team

TEAM = "/teams/inference/"


def test_a_new_team_opens_at_its_invite_panel(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.post("/teams/", {"name": "Kernels"})
    assert response["Location"] == "/teams/kernels/#invite"
    page = client.get("/teams/kernels/").text
    assert page.index('id="invite"') < page.index('id="members-heading"')
    assert "Kernels is created. Invite your colleagues here." in page


def test_an_invitation_confirms_in_place_with_htmx(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    response = client.post(
        TEAM + "invite/", {"email": "grace@example.com"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="invite"')
    assert "An invitation is on its way to grace@example.com." in response.text
    assert "grace@example.com" in response.text.split("Waiting for an answer", 1)[1]
    assert len(mail.outbox) == 1


def test_a_refused_invitation_keeps_what_was_typed_in_place(
    client: Client, team: Team, owner: User, member: User
) -> None:
    client.force_login(owner)
    response = client.post(
        TEAM + "invite/", {"email": "member@example.com"}, headers={"HX-Request": "true"}
    )
    assert response.text.lstrip().startswith('<section id="invite"')
    assert "member@example.com is already a member of Inference." in response.text
    assert 'value="member@example.com"' in response.text
    assert mail.outbox == []


def test_without_javascript_the_invitation_returns_to_the_panel(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    response = client.post(TEAM + "invite/", {"email": "grace@example.com"})
    assert response["Location"] == TEAM + "#invite"


def test_join_link_and_calendar_address_have_copy_buttons(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    client.post(TEAM + "links/")
    page = client.get(TEAM).text
    assert 'data-copy="calendar-address"' in page
    assert page.count("data-copy=") == 2
    assert "js/copy.js" in page


def test_the_calendar_is_offered_as_a_one_click_webcal_link(
    client: Client, team: Team, member: User
) -> None:
    client.force_login(member)
    page = client.get(TEAM).text
    address = re.search(r'id="calendar-address"[^>]*value="https?://([^"]+)"', page)
    assert address and address[1].endswith(f"/teams/inference/calendar/{team.calendar_token}.ics")
    assert f'<a class="button secondary" href="webcal://{address[1]}">' in page
