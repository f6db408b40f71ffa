"""A candidate's own admin page offers the triage (Make a proposal, Dismiss, Snooze), to those
who may change candidates only."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from candidates.models import Candidate
from tests.factories import UserFactory
from tests.hints import Tiers, found

from .test_admin import candidate, checked_radios


@pytest.fixture
def staff(client: Client, maintainer: User) -> Client:
    client.force_login(maintainer)
    return client


def change_page(client: Client, one: Candidate) -> str:
    response = client.get(reverse("admin:candidates_candidate_change", args=[one.pk]))
    assert response.status_code == 200
    return response.content.decode()


def buttons(page: str) -> dict[str, str]:
    """Each submit button's label and the address it posts to."""
    buttons: dict[str, str] = {}
    for tag in re.findall(r"<(?:button|input)\b[^>]*formaction=[^>]*>(?:[^<]*</button>)?", page):
        label = found(re.search(r'value="([^"]*)"', tag) or re.search(r">([^<]*)</button>", tag))
        buttons[label[1].strip()] = found(re.search(r'formaction="([^"]*)"', tag))[1]
    return buttons


def test_the_change_page_offers_the_triage(staff: Client, tiers: Tiers) -> None:
    one = candidate("KVSwap")

    offered = buttons(change_page(staff, one))

    assert set(offered) == {"Make a proposal", "Dismiss…", "Snooze for 30 days"}
    proposal_form = staff.post(offered["Make a proposal"])
    assert checked_radios(staff.get(proposal_form["Location"]).content.decode(), "tier") == [
        "frontier"
    ]

    staff.post(offered["Snooze for 30 days"])
    one.refresh_from_db()
    assert one.status == Candidate.Status.SNOOZED


def test_dismissing_from_the_change_page_asks_for_the_reason(staff: Client) -> None:
    one = candidate("Off topic")
    dismiss = buttons(change_page(staff, one))["Dismiss…"]

    asked = staff.post(dismiss)
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    done = staff.post(dismiss, {"apply": "1", "reason": "Edge IoT"})

    assert done.status_code == 302
    one.refresh_from_db()
    assert (one.status, one.status_reason) == (Candidate.Status.DISMISSED, "Edge IoT")


def test_view_only_staff_get_no_triage_on_the_change_page(client: Client, db: None) -> None:
    viewer = UserFactory(email="viewer@example.com", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_candidate"))
    client.force_login(viewer)
    one = candidate("KVSwap")

    assert buttons(change_page(client, one)) == {}
    for name in ("propose", "dismiss", "snooze"):
        url = reverse(f"admin:candidates_candidate_{name}", args=[one.pk])
        assert client.post(url, {"apply": "1", "reason": "x"}).status_code == 403
    one.refresh_from_db()
    assert one.status == Candidate.Status.NEW
