import pytest

from tests.factories import UserFactory


@pytest.fixture
def logged_in_maintainer(client, maintainer):
    client.force_login(maintainer)
    return client


def test_maintainers_list_and_edit_readers_without_passwords(logged_in_maintainer, reader):
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


def test_maintainers_cannot_edit_staff(logged_in_maintainer):
    admin_user = UserFactory(email="root@example.com", is_staff=True, is_superuser=True)
    client = logged_in_maintainer
    response = client.post(
        f"/admin/accounts/user/{admin_user.pk}/change/",
        {"email": "mine@example.com", "display_name": "x", "time_zone": "UTC"},
    )
    admin_user.refresh_from_db()
    assert admin_user.email == "root@example.com"
    assert response.status_code in (302, 403)


def test_maintainers_manage_teams(logged_in_maintainer, team, owner):
    page = logged_in_maintainer.get(f"/admin/teams/team/{team.pk}/change/").content.decode()
    assert "Inference" in page
    assert f'<option value="{owner.pk}" selected>' in page  # the membership inline
