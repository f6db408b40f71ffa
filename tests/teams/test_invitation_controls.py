"""An owner withdraws a waiting invitation or sends it again; inviting an address that has one
waiting sends that one again instead of making a second."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone

from accounts.models import User
from teams import services
from teams.models import Invitation, Team
from tests.factories import UserFactory
from tests.hints import found

TEAM = "/teams/inference/"


def link_in(message: EmailMessage) -> str:
    return found(re.search(r"/teams/invitations/[^/\s]+/", str(message.body)))[0]


def age(invitation: Invitation, minutes: int = 10) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(
        created=timezone.now() - timedelta(minutes=minutes)
    )


@pytest.fixture
def invited(client: Client, team: Team, owner: User) -> Invitation:
    client.force_login(owner)
    client.post(f"{TEAM}invite/", {"email": "guest@example.com"})
    return Invitation.objects.get(team=team)


def test_each_waiting_invitation_has_resend_and_withdraw_forms(
    client: Client, team: Team, invited: Invitation
) -> None:
    page = client.get(TEAM).text
    assert f'action="{TEAM}invitations/{invited.pk}/withdraw/"' in page
    assert f'action="{TEAM}invitations/{invited.pk}/resend/"' in page


def test_inviting_the_same_address_again_resends_rather_than_duplicates(
    client: Client, team: Team, invited: Invitation
) -> None:
    first_link = link_in(mail.outbox[0])
    age(invited)
    response = client.post(f"{TEAM}invite/", {"email": "GUEST@example.com"})
    assert response.status_code == 302
    assert Invitation.objects.filter(team=team).count() == 1
    assert len(mail.outbox) == 2
    second_link = link_in(mail.outbox[1])
    assert second_link != first_link
    page = client.get(TEAM).text
    assert page.count("guest@example.com</li>") + page.count("guest@example.com <span") == 1
    assert Client().get(first_link).status_code == 404
    assert Client().get(second_link).status_code == 200


def test_a_second_click_at_once_sends_no_second_mail(
    client: Client, team: Team, invited: Invitation
) -> None:
    response = client.post(f"{TEAM}invite/", {"email": "guest@example.com"})
    assert response.status_code == 400
    assert "a moment ago" in response.text
    assert len(mail.outbox) == 1 and Invitation.objects.filter(team=team).count() == 1


def test_send_again_mails_a_new_link_and_renews_the_expiry(
    client: Client, team: Team, invited: Invitation
) -> None:
    age(invited)
    Invitation.objects.filter(pk=invited.pk).update(expires=timezone.now() - timedelta(days=1))
    response = client.post(f"{TEAM}invitations/{invited.pk}/resend/", follow=True)
    assert "The invitation is sent again to guest@example.com" in response.text
    assert len(mail.outbox) == 2 and mail.outbox[1].to == ["guest@example.com"]
    invited.refresh_from_db()
    assert not invited.is_expired
    assert Client().get(link_in(mail.outbox[1])).status_code == 200


def test_withdrawing_kills_the_link_and_lists_it_no_more(
    client: Client, team: Team, invited: Invitation
) -> None:
    link = link_in(mail.outbox[0])
    response = client.post(f"{TEAM}invitations/{invited.pk}/withdraw/", follow=True)
    assert "The invitation to guest@example.com is withdrawn" in response.text
    assert not Invitation.objects.filter(team=team).exists()
    assert "Waiting for an answer" not in response.text
    assert Client().get(link).status_code == 404


def test_members_strangers_and_other_teams_owners_get_404(
    client: Client, team: Team, member: User, invited: Invitation
) -> None:
    other_owner = UserFactory()
    services.create_team(name="Kernels", owner=other_owner)
    for reader in (member, other_owner):
        client.force_login(reader)
        for action in ("resend", "withdraw"):
            assert client.post(f"{TEAM}invitations/{invited.pk}/{action}/").status_code == 404
    # Through their own team's address, another team's invitation is not found either.
    assert client.post(f"/teams/kernels/invitations/{invited.pk}/withdraw/").status_code == 302
    assert Client().post(f"{TEAM}invitations/{invited.pk}/withdraw/").status_code == 404
    assert Invitation.objects.filter(pk=invited.pk).exists() and len(mail.outbox) == 1


def test_an_accepted_invitation_cannot_be_withdrawn(
    client: Client, team: Team, invited: Invitation
) -> None:
    Invitation.objects.filter(pk=invited.pk).update(accepted_at=timezone.now())
    response = client.post(f"{TEAM}invitations/{invited.pk}/withdraw/", follow=True)
    assert "no longer waiting" in response.text
    assert Invitation.objects.filter(pk=invited.pk).exists()
