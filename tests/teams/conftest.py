import pytest
from django.utils import timezone

from accounts.models import User
from teams import services
from teams.models import Team, TeamDomain
from tests.factories import UserFactory


@pytest.fixture
def owner(db: None) -> User:
    return UserFactory(email="owner@example.com")


@pytest.fixture
def team(owner: User) -> Team:
    return services.create_team(name="Inference", owner=owner, description="Serving people.")


@pytest.fixture
def member(team: Team) -> User:
    user = UserFactory(email="member@example.com")
    services.Membership.objects.create(team=team, user=user)
    return user


@pytest.fixture
def other_team(db: None) -> Team:
    return services.create_team(name="Kernels", owner=UserFactory(email="kernels@example.com"))


def proved_domain(team: Team, domain: str) -> TeamDomain:
    """A domain the team's owners proved (as `verify_team_domains` records a DNS proof)."""
    return TeamDomain.objects.create(
        team=team, domain=domain, verified_at=timezone.now(), verified_by=TeamDomain.Proof.DNS
    )


def verified_user(email: str | None = None) -> User:
    """A reader whose address is verified, as teams require before any membership."""
    from allauth.account.models import EmailAddress

    user = UserFactory(**({"email": email} if email else {}))
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user
