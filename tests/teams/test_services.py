import pytest
from pytest_django import Settings

from accounts.models import User
from teams import services
from teams.models import Membership, Team
from tests.factories import UserFactory
from tests.teams.conftest import verified_user


def roles(team: Team) -> dict[str, str]:
    return dict(team.memberships.values_list("user__email", "role"))


def test_creator_is_the_only_owner(team: Team, owner: User) -> None:
    assert roles(team) == {"owner@example.com": "owner"}
    assert team.slug == "inference"


def test_slugs_stay_unique(owner: User, team: Team) -> None:
    again = services.create_team(name="Inference", owner=owner)
    assert again.slug == "inference-2"


def test_maintainers_only_setting_stops_readers(settings: Settings, db: None) -> None:
    settings.TEAMS_CREATE = "maintainers"
    with pytest.raises(services.TeamError, match="Only maintainers"):
        services.create_team(name="Mine", owner=UserFactory())
    staff = UserFactory(is_staff=True)
    assert services.create_team(name="Mine", owner=staff).name == "Mine"


def test_last_owner_cannot_leave_or_be_removed(team: Team, owner: User) -> None:
    with pytest.raises(services.TeamError, match="last owner"):
        services.leave(team=team, user=owner)
    with pytest.raises(services.TeamError, match="last owner"):
        services.remove_member(team=team, by=owner, user=owner)
    assert roles(team) == {"owner@example.com": "owner"}


def test_promoted_member_lets_the_first_owner_leave(team: Team, owner: User, member: User) -> None:
    services.promote(team=team, by=owner, user=member)
    services.leave(team=team, user=owner)
    assert roles(team) == {"member@example.com": "owner"}


def test_members_cannot_remove_or_promote(team: Team, owner: User, member: User) -> None:
    with pytest.raises(services.TeamError, match="Only the team's owners"):
        services.remove_member(team=team, by=member, user=owner)
    with pytest.raises(services.TeamError, match="Only the team's owners"):
        services.promote(team=team, by=member, user=member)


def test_member_leaves(team: Team, member: User) -> None:
    services.leave(team=team, user=member)
    assert not Membership.objects.filter(team=team, user=member).exists()


def test_invitations_rate_limited_per_owner_and_team(
    settings: Settings, team: Team, owner: User
) -> None:
    settings.TEAMS_INVITES_PER_HOUR = 2
    services.invite(team=team, by=owner, email="a@example.com")
    services.invite(team=team, by=owner, email="b@example.com")
    with pytest.raises(services.TeamError, match="At most 2 invitations an hour"):
        services.invite(team=team, by=owner, email="c@example.com")
    co_owner = UserFactory()
    Membership.objects.create(team=team, user=co_owner, role="owner")
    with pytest.raises(services.TeamError, match="At most 2"):
        services.invite(team=team, by=co_owner, email="c@example.com")


def test_invitation_is_single_use_and_for_its_address(team: Team, owner: User) -> None:
    invitation, token = services.invite(team=team, by=owner, email="New@Example.com")
    assert invitation.token_hash != token
    stranger = UserFactory(email="stranger@example.com")
    with pytest.raises(services.TeamError, match=r"This invitation is for New@Example\.com"):
        services.accept_invitation(invitation=invitation, user=stranger)
    invited = UserFactory(email="new@example.com")
    services.accept_invitation(invitation=invitation, user=invited)
    with pytest.raises(services.TeamError, match="already been used"):
        services.accept_invitation(invitation=invitation, user=UserFactory(email="NEW@example.org"))
    assert "new@example.com" in roles(team)
    # Reaching the invited inbox verified the address.
    assert services.email_verified(invited)


def test_shareable_invitation_accepts_any_verified_address(team: Team, owner: User) -> None:
    invitation, _ = services.invite(team=team, by=owner, email="a@example.com", any_email=True)
    unverified = UserFactory(email="c@example.org")
    with pytest.raises(services.EmailNotVerified):
        services.accept_invitation(invitation=invitation, user=unverified)
    services.accept_invitation(invitation=invitation, user=verified_user("b@example.org"))
    assert "b@example.org" in roles(team) and "c@example.org" not in roles(team)
