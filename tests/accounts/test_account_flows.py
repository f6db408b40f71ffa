"""allauth end to end: sign-up, verification, login, logout, password change and reset, email."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from tests.conftest import PASSWORD
from tests.hints import Response

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a different long passphrase"


def link_in_last_mail() -> str:
    body = str(mail.outbox[-1].body)
    match = re.search(r"https?://[^/\s]+(/accounts/[^\s]+)", body)
    assert match is not None
    return match.group(1)


def sign_up(client: Client, email: str = "newcomer@example.com") -> Response:
    return client.post(
        "/accounts/signup/",
        {"email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_pages_wear_the_site_layout(client: Client) -> None:
    for url in ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]:
        html = client.get(url).content.decode()
        assert 'class="site-header"' in html, url
        assert 'class="account-entrance"' in html, url
        assert 'class="form-actions"' in html, url


def test_sign_up_with_mandatory_verification(client: Client, settings: Settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    # Not logged in before the address is confirmed.
    assert "_auth_user_id" not in client.session
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["newcomer@example.com"]

    login = client.post("/accounts/login/", {"login": "newcomer@example.com", "password": PASSWORD})
    assert login["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session

    confirm = link_in_last_mail()
    assert "Confirm" in client.get(confirm).content.decode()
    response = client.post(confirm)
    assert response.status_code == 302
    assert EmailAddress.objects.get(email="newcomer@example.com").verified
    assert client.session["_auth_user_id"]


def test_sign_up_with_optional_verification_logs_in_and_sends_a_mail(
    client: Client, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    assert sign_up(client)["Location"] == "/"
    assert client.session["_auth_user_id"]
    assert len(mail.outbox) == 1


def test_sign_up_without_verification_sends_nothing(client: Client, settings: Settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    assert sign_up(client)["Location"] == "/"
    assert client.session["_auth_user_id"]
    assert mail.outbox == []


def test_sign_up_refuses_a_taken_address_and_keeps_what_was_typed(
    client: Client, reader: User, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    EmailAddress.objects.create(user=reader, email=reader.email, primary=True, verified=True)
    response = client.post(
        "/accounts/signup/",
        {"email": "READER@example.com", "password1": PASSWORD, "password2": "mismatch"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="READER@example.com"' in html
    assert "errorlist" in html
    assert get_user_model().objects.count() == 1


def test_login_logout(client: Client, reader: User) -> None:
    response = client.post("/accounts/login/", {"login": reader.email, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(reader.pk)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_wrong_password_is_explained(client: Client, reader: User) -> None:
    response = client.post("/accounts/login/", {"login": reader.email, "password": "nope"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()


def test_login_next_is_followed_only_on_this_site(client: Client, reader: User) -> None:
    response = client.post(
        "/accounts/login/?next=/library/",
        {"login": reader.email, "password": PASSWORD, "next": "/library/"},
    )
    assert response["Location"] == "/library/"
    client.post("/accounts/logout/")
    response = client.post(
        "/accounts/login/",
        {"login": reader.email, "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert "evil" not in response["Location"]


def test_password_reset_end_to_end(client: Client, reader: User) -> None:
    EmailAddress.objects.create(user=reader, email=reader.email, primary=True, verified=True)
    response = client.post("/accounts/password/reset/", {"email": reader.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    reset = link_in_last_mail()
    form = client.get(reset, follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else reset
    response = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    reader.refresh_from_db()
    assert reader.check_password(NEW_PASSWORD)


def test_password_change(client: Client, reader: User) -> None:
    client.force_login(reader)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    reader.refresh_from_db()
    assert reader.check_password(NEW_PASSWORD)


def test_email_change_needs_the_new_address_confirmed(
    client: Client, reader: User, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    EmailAddress.objects.create(user=reader, email=reader.email, primary=True, verified=True)
    client.force_login(reader)
    page = client.get("/accounts/email/")
    assert page.status_code == 200
    response = client.post("/accounts/email/", {"action_add": "", "email": "moved@example.com"})
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["moved@example.com"]
    client.post(link_in_last_mail())
    reader.refresh_from_db()
    assert reader.email == "moved@example.com"


def test_rate_limits_are_on(settings: Settings) -> None:
    from allauth.account import app_settings

    assert app_settings.RATE_LIMITS["login_failed"]
    assert "DummyCache" not in settings.CACHES["default"]["BACKEND"]


def test_profile_sets_the_name_teammates_see(client: Client, reader: User) -> None:
    client.force_login(reader)
    page = client.get("/accounts/profile/").content.decode()
    assert 'href="/accounts/delete/"' in page
    response = client.post("/accounts/profile/", {"display_name": "Reader One"}, follow=True)
    assert "Your display name is saved." in response.content.decode()
    reader.refresh_from_db()
    assert reader.public_name == "Reader One"


def test_profile_rejects_an_overlong_name_and_keeps_it(client: Client, reader: User) -> None:
    client.force_login(reader)
    response = client.post("/accounts/profile/", {"display_name": "x" * 81})
    assert response.status_code == 200
    assert "x" * 81 in response.content.decode()
    assert "at most 80 characters" in response.content.decode()


def test_account_pages_need_login(client: Client) -> None:
    for url in ["/accounts/profile/", "/accounts/delete/"]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    ("sent", "kept"),
    [("Europe/Berlin", "Europe/Berlin"), ("", "UTC"), ("Mars/Olympus", "UTC"), ("<b>", "UTC")],
)
def test_sign_up_keeps_the_browser_s_time_zone(
    client: Client, settings: Settings, sent: str, kept: str
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="time_zone"' in page and "js/time_zone" in page
    client.post(
        "/accounts/signup/",
        {
            "email": "zoned@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "time_zone": sent,
        },
    )
    assert get_user_model().objects.get(email="zoned@example.com").time_zone == kept
