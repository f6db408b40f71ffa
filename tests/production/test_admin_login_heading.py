"""The admin's sign-in page says what it is in a heading, as every page of the site does."""

import re

import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_admin_sign_in_page_has_one_h1(client: Client) -> None:
    page = client.get("/admin/login/").content.decode()
    headings = re.findall(r"<h1[^>]*>(.*?)</h1>", page, flags=re.S)
    assert len(headings) == 1
    assert headings[0].strip() == "Log in"
