"""Invitations under concurrency: one shareable invitation admits one account however many
sign-ups race for it, and the hourly invitation limit is exact when owners send at once."""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from teams import services
from teams.models import Invitation
from tests.conftest import PASSWORD
from tests.factories import UserFactory

PARALLEL = 8

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def in_threads[T](work: Callable[[int], T], count: int) -> list[T | BaseException]:
    start = threading.Barrier(count)

    def run(index: int) -> T:
        try:
            start.wait()
            return work(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_one_shareable_invitation_admits_one_account(settings: Settings, fresh_cache: None) -> None:
    settings.ACCOUNT_SIGNUP_MODE = "invitation"
    owner = UserFactory(email="owner@example.com")
    team = services.create_team(name="Inference", owner=owner)
    _, token = services.invite(team=team, by=owner, email="any@example.com", any_email=True)
    clients = [Client() for _ in range(PARALLEL)]
    for client in clients:
        client.get(f"/teams/invitations/{token}/")

    def sign_up(index: int) -> int:
        data = {"email": f"racer{index}@example.org", "password1": PASSWORD, "password2": PASSWORD}
        return clients[index].post("/accounts/signup/", data).status_code

    statuses = in_threads(sign_up, PARALLEL)

    assert User.objects.filter(email__startswith="racer").count() == 1
    # The others see sign-up closed (the invitation is used), that it was used a moment ago,
    # or the sign-up rate limit for one address: never a server error.
    assert statuses.count(302) == 1
    assert set(statuses) <= {302, 200, 409, 429}


def test_hourly_invitation_limit_is_exact_under_concurrency(settings: Settings) -> None:
    settings.TEAMS_INVITES_PER_HOUR = 5
    owner = UserFactory(email="owner@example.com")
    team = services.create_team(name="Inference", owner=owner)

    def invite(index: int) -> str:
        try:
            services.invite(team=team, by=owner, email=f"guest{index}@example.com")
        except services.TeamError:
            return "refused"
        return "sent"

    outcomes = in_threads(invite, PARALLEL)

    assert outcomes.count("sent") == 5
    assert Invitation.objects.count() == 5
