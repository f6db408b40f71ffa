"""Passwords are stored with Argon2, and older PBKDF2 hashes are upgraded on the next login."""

import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.test import Client
from pytest_django import Settings

from readinglist import settings as project_settings
from tests.conftest import PASSWORD
from tests.hints import Response

pytestmark = pytest.mark.django_db


@pytest.fixture
def project_hashers(settings: Settings) -> None:
    """The project's real hashers, which the test suite swaps for a fast one everywhere else."""
    settings.PASSWORD_HASHERS = project_settings.PASSWORD_HASHERS


def log_in(client: Client, email: str) -> Response:
    return client.post("/accounts/login/", {"login": email, "password": PASSWORD})


def test_a_new_password_is_stored_with_argon2(project_hashers: None) -> None:
    user = get_user_model().objects.create_user(email="new@example.com", password=PASSWORD)
    assert user.password.startswith("argon2$argon2id$")


def test_a_pbkdf2_password_is_upgraded_to_argon2_on_login(
    client: Client, project_hashers: None
) -> None:
    stored = make_password(PASSWORD, hasher="pbkdf2_sha256")
    user = get_user_model().objects.create(email="old@example.com", password=stored)

    response = log_in(client, "old@example.com")

    assert response.status_code == 302
    assert client.get("/library/").status_code == 200
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    assert user.check_password(PASSWORD)


def test_a_wrong_password_leaves_the_old_hash_alone(client: Client, project_hashers: None) -> None:
    stored = make_password(PASSWORD, hasher="pbkdf2_sha256")
    user = get_user_model().objects.create(email="old@example.com", password=stored)

    client.post("/accounts/login/", {"login": "old@example.com", "password": "not it"})

    user.refresh_from_db()
    assert user.password == stored


def test_checking_a_password_costs_little_cpu(project_hashers: None) -> None:
    """CPU time, not wall time: the check must stay far below a login's 300 ms budget even on a
    busy machine. Django's default Argon2 cost took ~220 ms here and PBKDF2 ~370 ms."""
    user = get_user_model().objects.create_user(email="timed@example.com", password=PASSWORD)
    costs = []
    for _ in range(5):
        started = time.process_time()
        assert user.check_password(PASSWORD)
        costs.append(time.process_time() - started)
    assert sorted(costs)[2] < 0.15
