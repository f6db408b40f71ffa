import pytest

from teams import services
from tests.factories import UserFactory


@pytest.fixture
def owner(db):
    return UserFactory(email="owner@example.com")


@pytest.fixture
def team(owner):
    return services.create_team(name="Inference", owner=owner, description="Serving people.")


@pytest.fixture
def member(team):
    user = UserFactory(email="member@example.com")
    services.Membership.objects.create(team=team, user=user)
    return user


@pytest.fixture
def other_team(db):
    return services.create_team(name="Kernels", owner=UserFactory(email="kernels@example.com"))
