import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import Source
from teams import services as team_services
from teams.models import Membership, Team
from tests.factories import UserFactory
from tests.hints import SmallCatalog


@pytest.fixture(autouse=True)
def _fresh_cache(fresh_cache: None) -> None:
    """Each test starts with empty rate-limit counts, unread counts and kept pages."""


@pytest.fixture
def people(db: None) -> dict[str, User]:
    return {
        "owner": UserFactory(email="olive@example.com", display_name="Olive"),
        "member": UserFactory(email="max@example.com", display_name="Max"),
        "outsider": UserFactory(email="nina@example.com"),
        "other_team": UserFactory(email="ben@example.com"),
        "former": UserFactory(email="fred@example.com"),
    }


@pytest.fixture
def team(
    people: dict[str, User], django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> Team:
    with django_capture_on_commit_callbacks(execute=True):
        alpha = team_services.create_team(name="Alpha", owner=people["owner"])
        Membership.objects.create(team=alpha, user=people["member"])
        Membership.objects.create(team=alpha, user=people["former"])
        team_services.create_team(name="Beta", owner=people["other_team"])
    return alpha


@pytest.fixture
def flash(small_catalog: SmallCatalog) -> Source:
    return small_catalog["flash"]


def login(client: Client, user: User) -> Client:
    client.force_login(user)
    return client
