"""Sign-up and login errors sit under the field they are about, and the field names them."""

import re

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def field_block(html: str, name: str) -> str:
    """The markup of one field's wrapper: its label, input, errors and help."""
    start = r'<div class="form-field[^"]*">'
    end = r'(?=<div class="form-field|<div class="form-actions)'
    match = re.search(rf'{start}(?:(?!<div class="form-field).)*?name="{name}".*?{end}', html, re.S)
    assert match, f"no field named {name}"
    return match.group(0)


def test_a_password_error_sits_under_the_password_field(client: Client) -> None:
    html = client.post(
        "/accounts/signup/",
        {"email": "new@example.com", "password1": "short", "password2": "short"},
    ).content.decode()
    password = field_block(html, "password1")
    assert "too short" in password
    assert "too short" not in field_block(html, "email")
    # The error follows its input, and the input points at it.
    assert password.index('name="password1"') < password.index('class="errorlist"')
    assert re.search(r'aria-describedby="[^"]*id_password1_error', password)
    assert 'id="id_password1_error"' in password
    assert 'aria-invalid="true"' in password


def test_an_email_error_sits_under_the_email_field(client: Client, reader: User) -> None:
    html = client.post(
        "/accounts/signup/",
        {"email": reader.email, "password1": PASSWORD, "password2": PASSWORD},
    ).content.decode()
    assert "already" in field_block(html, "email")
    assert "already" not in field_block(html, "password1")


def test_password_help_is_a_block_not_a_list_inside_a_span(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    assert not re.search(r"<(span|p)\b[^>]*>\s*<ul", html)
    password = field_block(html, "password1")
    assert re.search(r'<div class="helptext" id="id_password1_helptext">\s*<ul', password)


def test_a_failed_login_is_reported_once_at_the_top(client: Client, reader: User) -> None:
    html = client.post(
        "/accounts/login/", {"login": reader.email, "password": "wrong password"}
    ).content.decode()
    top = html.index('class="form-errors"')
    assert top < html.index('name="login"')
    assert html.count("not correct") == 1
