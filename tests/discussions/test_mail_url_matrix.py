"""The viewer matrix for the addresses notification mail carries: the settings page and the
one-click unsubscribe. Viewers: nobody signed in, the reader the token was made for ("owner"),
and another reader.

The settings page only ever shows and changes the signed-in reader's own choice, whatever is
posted. An unsubscribe token is the proof by itself (mail clients post it with no session):
whoever holds the owner's token turns the owner's mail off, never their own and never anyone
else's; a token that is not exactly one the site signed for this view is 404 and changes
nothing, for every viewer."""

import re

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts.models import User
from discussions import emails
from discussions.models import EmailMode, NotificationSettings
from library.digests import unsubscribe_token as digest_token
from tests.factories import UserFactory
from tests.hints import Response

pytestmark = pytest.mark.django_db

VIEWERS = ["anonymous", "owner", "other"]
_CHECKED = re.compile(r'<input type="radio" name="email_mode" value="(\w+)"[^>]*\bchecked')


@pytest.fixture
def readers(db: None) -> dict[str, User]:
    owner = UserFactory(email="owner-of-token@example.com", display_name="Tokenowner")
    other = UserFactory(email="other-reader@example.com", display_name="Otherreader")
    emails.set_mode(owner.pk, EmailMode.AT_ONCE)
    emails.set_mode(other.pk, EmailMode.DAILY)
    return {"owner": owner, "other": other}


def _client(readers: dict[str, User], viewer: str) -> Client:
    client = Client()
    if viewer != "anonymous":
        client.force_login(readers[viewer])
    return client


def _modes(readers: dict[str, User]) -> dict[str, str]:
    return {name: emails.mode_of(user) for name, user in readers.items()}


UNCHANGED = {"owner": EmailMode.AT_ONCE, "other": EmailMode.DAILY}


def _names_nobody(response: Response, readers: dict[str, User], viewer: str) -> bool:
    """No reader but the signed-in one (whom the site's header names) appears on the page."""
    page = response.content.decode()
    others = [user for name, user in readers.items() if name != viewer]
    return not any(word in page for user in others for word in (user.email, user.display_name))


# The settings page.


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_settings_page_shows_the_signed_in_readers_own_choice(
    readers: dict[str, User], viewer: str
) -> None:
    response = _client(readers, viewer).get(reverse("discussions:email-settings"))
    if viewer == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        return
    assert response.status_code == 200
    assert _CHECKED.findall(response.content.decode()) == [UNCHANGED[viewer]]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_settings_post_changes_the_signed_in_readers_choice_alone(
    readers: dict[str, User], viewer: str
) -> None:
    owner = readers["owner"]
    # Fields naming another reader are not part of the form: they are ignored.
    data = {"email_mode": EmailMode.NEVER, "user": owner.pk, "user_id": owner.pk}
    response = _client(readers, viewer).post(reverse("discussions:email-settings"), data)
    assert response.status_code == 302
    expected = dict(UNCHANGED)
    if viewer != "anonymous":
        expected[viewer] = EmailMode.NEVER
    assert _modes(readers) == expected


# One-click unsubscribe.


def _unsubscribe(token: str) -> str:
    return reverse("discussions:unsubscribe", args=[token])


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_owners_token_turns_off_the_owners_mail_whoever_holds_it(
    readers: dict[str, User], viewer: str
) -> None:
    client = _client(readers, viewer)
    url = _unsubscribe(emails.unsubscribe_token(readers["owner"].pk))
    asked = client.get(url)
    assert asked.status_code == 200 and _names_nobody(asked, readers, viewer)
    assert _modes(readers) == UNCHANGED  # GET changes nothing
    done = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and _names_nobody(done, readers, viewer)
    # The token's reader, and no one else: not the signed-in one.
    assert _modes(readers) == {"owner": EmailMode.NEVER, "other": EmailMode.DAILY}


def _forged(readers: dict[str, User]) -> list[str]:
    """Tokens the site never signed for this view: altered, spliced, of another salt, key or
    kind of value, or of a reader who no longer exists."""
    owner, other = readers["owner"], readers["other"]
    token = emails.unsubscribe_token(owner.pk)
    payload, _ = token.rsplit(":", 1)
    _, other_signature = emails.unsubscribe_token(other.pk).rsplit(":", 1)
    gone = UserFactory(email="gone@example.com")
    gone_token = emails.unsubscribe_token(gone.pk)
    gone.delete()
    salt = emails.UNSUBSCRIBE_SALT
    return [
        token[:-2] + ("xx" if not token.endswith("xx") else "yy"),
        f"{payload}:{other_signature}",
        digest_token(owner.pk),
        signing.dumps(owner.pk, salt=salt, key="not-the-sites-key"),
        signing.dumps(str(owner.pk), salt=salt),
        signing.dumps({"user": owner.pk}, salt=salt),
        gone_token,
        "nonsense",
    ]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_forged_or_altered_token_is_404_and_changes_nothing(
    readers: dict[str, User], viewer: str
) -> None:
    client = _client(readers, viewer)
    for token in _forged(readers):
        url = _unsubscribe(token)
        for response in (client.get(url), client.post(url, {"List-Unsubscribe": "One-Click"})):
            assert response.status_code == 404, token
            assert _names_nobody(response, readers, viewer), token
    assert _modes(readers) == UNCHANGED
    assert NotificationSettings.objects.filter(email_mode=EmailMode.NEVER).count() == 0
