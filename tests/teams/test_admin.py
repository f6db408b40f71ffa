import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from teams.models import Team
from tests.factories import UserFactory


@pytest.fixture
def logged_in_maintainer(client: Client, maintainer: User) -> Client:
    client.force_login(maintainer)
    return client


def test_maintainers_list_and_edit_readers_without_passwords(
    logged_in_maintainer: Client, reader: User
) -> None:
    client = logged_in_maintainer
    assert "reader@example.com" in client.get("/admin/accounts/user/").content.decode()
    page = client.get(f"/admin/accounts/user/{reader.pk}/change/").content.decode()
    assert "display_name" in page
    assert "md5$" not in page and "pbkdf2" not in page and "password/" not in page
    assert "is_superuser" not in page and "user_permissions" not in page
    assert client.get(f"/admin/accounts/user/{reader.pk}/password/").status_code == 403
    client.post(
        f"/admin/accounts/user/{reader.pk}/change/",
        {"email": reader.email, "display_name": "Renamed", "time_zone": "UTC", "is_active": "on"},
    )
    reader.refresh_from_db()
    assert reader.display_name == "Renamed"


def test_maintainers_cannot_edit_staff(logged_in_maintainer: Client) -> None:
    admin_user = UserFactory(email="root@example.com", is_staff=True, is_superuser=True)
    client = logged_in_maintainer
    response = client.post(
        f"/admin/accounts/user/{admin_user.pk}/change/",
        {"email": "mine@example.com", "display_name": "x", "time_zone": "UTC"},
    )
    admin_user.refresh_from_db()
    assert admin_user.email == "root@example.com"
    assert response.status_code in (302, 403)


def test_maintainers_manage_teams(logged_in_maintainer: Client, team: Team, owner: User) -> None:
    page = logged_in_maintainer.get(f"/admin/teams/team/{team.pk}/change/").content.decode()
    assert "Inference" in page
    assert f'<option value="{owner.pk}" selected>' in page  # the membership inline


def test_maintainers_change_only_name_zone_and_activity(
    logged_in_maintainer: Client, reader: User
) -> None:
    """Every field of the reader's page, posted with a new value: only the harmless ones stick."""
    reader.set_password("the reader's own")
    reader.save()
    password_hash = reader.password
    client = logged_in_maintainer
    page = client.get(f"/admin/accounts/user/{reader.pk}/change/").text
    assert 'name="email"' not in page
    assert "reader@example.com" in page  # shown, read-only

    response = client.post(
        f"/admin/accounts/user/{reader.pk}/change/",
        {
            "email": "maintainer-controlled@example.com",
            "display_name": "Renamed",
            "time_zone": "Europe/Paris",
            "is_active": "",
            "is_staff": "on",
            "is_superuser": "on",
            "password": "md5$forged",
            "last_login": "2020-01-01 00:00:00",
            "date_joined": "2020-01-01 00:00:00",
        },
    )

    assert response.status_code == 302
    reader.refresh_from_db()
    assert reader.email == "reader@example.com"
    assert (reader.display_name, reader.time_zone, reader.is_active) == (
        "Renamed",
        "Europe/Paris",
        False,
    )
    assert not reader.is_staff and not reader.is_superuser
    assert reader.password == password_hash
    assert reader.date_joined.year != 2020 and reader.last_login is None


def test_maintainers_cannot_take_over_by_email_and_password_reset(
    logged_in_maintainer: Client, reader: User
) -> None:
    logged_in_maintainer.post(
        f"/admin/accounts/user/{reader.pk}/change/",
        {
            "email": "attacker@example.com",
            "display_name": "",
            "time_zone": "UTC",
            "is_active": "on",
        },
    )
    logged_in_maintainer.post("/accounts/password/reset/", {"email": "attacker@example.com"})
    # The address belongs to no account, so no mail carries a reset link.
    assert not any("/password/reset/key/" in message.body for message in mail.outbox)
    reader.refresh_from_db()
    assert reader.email == "reader@example.com"
