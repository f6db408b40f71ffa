"""Saving the profile says what was saved, and only that."""

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def save(client: Client, **answers: object) -> str:
    response = client.post("/accounts/profile/", answers, follow=True)
    return response.content.decode()


def test_saving_only_the_time_zone_names_the_time_zone(client: Client, reader: User) -> None:
    reader.display_name = "Ada"
    reader.save()
    client.force_login(reader)
    page = save(client, display_name="Ada", time_zone="Europe/Paris")
    assert "Your time zone is saved." in page
    assert "display name" not in page.split('class="messages"')[1].split("</div>")[0]


def test_saving_only_the_name_names_the_name(client: Client, reader: User) -> None:
    client.force_login(reader)
    page = save(client, display_name="Reader One", time_zone=reader.time_zone or "UTC")
    assert "Your display name is saved." in page


def test_saving_both_names_both(client: Client, reader: User) -> None:
    client.force_login(reader)
    page = save(client, display_name="Reader Two", time_zone="Asia/Tokyo")
    assert "Your display name and time zone are saved." in page


def test_saving_nothing_new_says_so(client: Client, reader: User) -> None:
    reader.display_name = "Same"
    reader.save()
    client.force_login(reader)
    page = save(client, display_name="Same", time_zone=reader.time_zone or "UTC")
    assert "Nothing changed: your profile is as it was." in page
