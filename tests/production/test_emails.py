"""Every kind of email the site sends, printed by the console transport (EMAIL_URL=
consolemail://) as a developer sees it: each link it prints is whole, uses the site's scheme
and opens."""

import html
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry
from library.digests import send_digests
from library.models import DigestSettings, Follow
from proposals.alerts import send_daily_alerts
from proposals.models import MaintainerAlert
from readinglist.mail import keep_lines_whole
from teams import services as teams
from teams.models import Membership, Session
from tests.conftest import PASSWORD
from tests.factories import SourceFactory, UserFactory
from tests.hints import SmallCatalog
from tests.proposals.helpers import make_proposal

LINK = re.compile(r"https?://[^\s\"'<>]+")


@pytest.fixture
def console(settings: Settings, capsys: pytest.CaptureFixture[str]) -> Callable[[], str]:
    """The console transport, with links in the site's plain-HTTP address; returns a reader of
    what it printed since the last call."""
    settings.MAILERS = {"default": {"BACKEND": "readinglist.mail.ConsoleEmailBackend"}}
    settings.SITE_SCHEME = settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http"
    # allauth builds its links from the request: readers use the site's address.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "readinglist.test"]
    capsys.readouterr()

    def printed() -> str:
        return capsys.readouterr().out

    return printed


def links_in(printed: str) -> list[str]:
    assert "Content-Transfer-Encoding: quoted-printable" not in printed
    assert "Content-Transfer-Encoding: base64" not in printed
    links = sorted({html.unescape(link).rstrip(".,)") for link in LINK.findall(printed)})
    assert links, printed
    return links


def assert_every_link_opens(printed: str, client: Client) -> list[str]:
    """Every link to the site opens; links to sources elsewhere (a proposal's URL) are content."""
    links = [link for link in links_in(printed) if "://readinglist.test" in link]
    assert links, printed
    for link in links:
        assert link.startswith("http://readinglist.test/"), link
        response = client.get(link.removeprefix("http://readinglist.test"), follow=True)
        assert response.status_code == 200, (link, response.status_code)
    return links


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_sign_up_confirmation(
    console: Callable[[], str], client: Client, db: None, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    client.post(
        "/accounts/signup/",
        {"email": "newcomer@example.com", "password1": PASSWORD, "password2": PASSWORD},
        headers={"host": "readinglist.test"},
    )
    printed = console()
    links = assert_every_link_opens(printed, Client())
    assert any("/accounts/confirm-email/" in link for link in links)


def test_password_reset(console: Callable[[], str], client: Client, reader: User) -> None:
    client.post(
        "/accounts/password/reset/", {"email": reader.email}, headers={"host": "readinglist.test"}
    )
    links = assert_every_link_opens(console(), Client())
    (reset,) = [link for link in links if "/password/reset/key/" in link]
    page = Client().get(reset.removeprefix("http://readinglist.test"), follow=True)
    assert b"password1" in page.content  # the form to choose a new password, not "bad token"


def test_team_invitation(console: Callable[[], str], db: None) -> None:
    owner = UserFactory(email="owner@example.com")
    team = teams.create_team(name="Inference", owner=owner)
    signed_in(owner).post(
        f"/teams/{team.slug}/invite/",
        {"email": "colleague@example.com"},
        headers={"host": "readinglist.test"},
    )
    links = assert_every_link_opens(console(), Client())
    assert any("/teams/invitations/" in link for link in links)


def test_digest(console: Callable[[], str], small_catalog: SmallCatalog) -> None:
    follower = UserFactory(email="follower@example.com")
    EmailAddress.objects.create(user=follower, email=follower.email, verified=True, primary=True)
    Follow.objects.create(user=follower, kind="topic", target="attention")
    DigestSettings.objects.create(user=follower, frequency="daily")
    source = SourceFactory(title="Ring Attention", topics=[small_catalog["topics"][1]])
    record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.ADMIN)
    assert send_digests().sent == [follower.email]
    links = assert_every_link_opens(console(), signed_in(follower))
    assert f"http://readinglist.test/sources/{source.slug}/" in links
    assert any("/library/digest/unsubscribe/" in link for link in links)


def test_session_reminder(console: Callable[[], str], small_catalog: SmallCatalog) -> None:
    owner = UserFactory(email="owner@example.com")
    team = teams.create_team(name="Inference", owner=owner)
    member = UserFactory(email="member@example.com")
    Membership.objects.create(team=team, user=member)
    session = Session.objects.create(
        team=team, title="Week 1", starts_at=timezone.now() + timedelta(hours=20), facilitator=owner
    )
    call_command("send_session_reminders", verbosity=0)
    links = assert_every_link_opens(console(), signed_in(member))
    assert f"http://readinglist.test/teams/{team.slug}/sessions/{session.pk}/" in links
    assert any("/reminders/off/" in link for link in links)


def test_maintainer_alert(
    console: Callable[[], str], reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    MaintainerAlert.objects.update_or_create(user=maintainer, defaults={"daily_email": True})
    make_proposal(small_catalog, reader, title="Paged attention, explained")
    assert send_daily_alerts() == 1
    links = assert_every_link_opens(console(), signed_in(maintainer))
    assert any("/admin/proposals/proposal/" in link for link in links)


def test_a_link_longer_than_a_mail_line_is_sent_whole(console: Callable[[], str], db: None) -> None:
    long_path = "/teams/invitations/" + "x" * 120 + "/"
    mail.send_mail("Link", f"Open http://readinglist.test{long_path} to join.", None, ["a@b.c"])
    printed = console()
    assert f"http://readinglist.test{long_path} to join." in printed
    assert "Content-Transfer-Encoding: 7bit" in printed


def test_non_ascii_text_goes_as_8bit_utf8_not_encoded() -> None:
    message = mail.EmailMessage("Café", "Voilà: http://readinglist.test/" + "é" * 80, to=["a@b.c"])
    mime = keep_lines_whole(message.message())
    assert mime["Content-Transfer-Encoding"] == "8bit"
    assert mime.get_content_charset() == "utf-8"
    assert mime.get_content().endswith("é" * 80 + "\n")


def test_a_line_longer_than_email_allows_keeps_pythons_encoding() -> None:
    message = mail.EmailMessage("Long", "x" * 1200, to=["a@b.c"])
    assert keep_lines_whole(message.message())["Content-Transfer-Encoding"] != "7bit"
