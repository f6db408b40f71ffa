"""Save from anywhere (the bookmarklet's landing page) and the maintainers' daily email."""

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from library.models import Bookmark
from proposals.alerts import send_daily_alerts
from proposals.models import MaintainerAlert
from tests.hints import SmallCatalog

from .helpers import make_proposal

pytestmark = pytest.mark.django_db


def test_the_bookmarklet_only_navigates_to_this_site(client: Client, settings: Settings) -> None:
    settings.SITE_DOMAIN = "reading.example.org"
    page = client.get("/save/bookmarklet/").content.decode()
    assert 'href="javascript:(function(){' in page
    assert "a=&#x27;url=&#x27;+e(u)+&#x27;&amp;title=&#x27;+e(d.title)" in page
    assert "location.href=&#x27;http://reading.example.org/save/?&#x27;+a})()" in page
    assert "drag" in page.lower()


def test_a_catalogued_page_gets_its_bookmark_control(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.save()
    page = signed_in.get(
        "/save/", {"url": "https://arxiv.org/pdf/2205.14135v2", "title": "[2205.14135] Flash"}
    ).content.decode()
    assert 'href="/sources/flashattention/"' in page
    assert 'action="/library/bookmarks/flashattention/"' in page
    signed_in.post("/library/bookmarks/flashattention/", {"status": "to_read"})
    assert Bookmark.objects.get(user=reader).source == flash


def test_an_unknown_page_opens_the_proposal_form_prefilled(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.get(
        "/save/", {"url": "https://example.org/post/", "title": "A  good <post>"}
    )
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.path == "/propose/"
    assert parse_qs(target.query) == {
        "url": ["https://example.org/post"],
        "title": ["A good <post>"],
    }
    page = signed_in.get(response["Location"]).content.decode()
    assert 'value="https://example.org/post"' in page
    assert "A good &lt;post&gt;" in page


def test_save_refuses_what_is_not_a_web_address(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.get("/save/", {"url": "javascript:alert(1)"})
    assert response.status_code == 400
    assert "http://" in response.content.decode()


def test_save_needs_a_reader(client: Client, small_catalog: SmallCatalog) -> None:
    response = client.get("/save/", {"url": "https://example.org/x"})
    assert response["Location"].startswith("/accounts/login/")


def _opt_in(user: User) -> None:
    MaintainerAlert.objects.update_or_create(user=user, defaults={"daily_email": True})


def test_maintainers_who_opt_in_get_one_email_a_day(
    reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _opt_in(maintainer)
    make_proposal(small_catalog, reader, title="Paged attention, explained")
    call_command("notify_maintainers", verbosity=0)
    call_command("notify_maintainers", verbosity=0)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [maintainer.email]
    assert message.subject == "1 new proposal to decide"
    assert "Paged attention, explained" in message.body
    assert "/admin/proposals/proposal/" in message.body


def test_the_next_email_lists_only_newer_proposals(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    _opt_in(maintainer)
    make_proposal(small_catalog, reader, title="First")
    send_daily_alerts()
    later = timezone.now() + timedelta(days=1)
    make_proposal(small_catalog, reader, title="Second", url="https://example.org/second")
    send_daily_alerts(now=later + timedelta(minutes=1))
    assert len(mail.outbox) == 2
    assert "Second" in mail.outbox[1].body
    assert "First" not in mail.outbox[1].body


def test_no_email_without_opting_in_or_without_proposals(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    send_daily_alerts()
    _opt_in(reader)  # not a maintainer: never emailed
    make_proposal(small_catalog, reader)
    assert send_daily_alerts() == 0
    assert mail.outbox == []


def test_a_maintainer_opts_in_on_a_page_readers_cannot_see(
    client: Client, reader: User, maintainer: User
) -> None:
    client.force_login(reader)
    assert client.get("/proposals/alerts/").status_code == 404
    client.force_login(maintainer)
    client.post("/proposals/alerts/", {"daily_email": "on"})
    assert MaintainerAlert.objects.get(user=maintainer).daily_email
