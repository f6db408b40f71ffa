"""Admin actions ask for the permission they need: staff who may only look at the inbox see no
Dismiss, Snooze or Make a proposal, and a forged POST of one changes nothing."""

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from candidates.models import Candidate
from tests.factories import UserFactory

from .test_admin import CHANGELIST, candidate


@pytest.fixture
def viewer(client: Client, db: None) -> Client:
    user = UserFactory(email="viewer@example.com", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_candidate"))
    client.force_login(user)
    return client


def test_every_admin_action_names_the_permission_it_needs() -> None:
    admin.autodiscover()
    assert len(admin.site._registry) > 10
    unguarded = [
        f"{model._meta.label}.{name}"
        for model, model_admin in admin.site._registry.items()
        for name in model_admin.actions or []
        if not getattr(getattr(model_admin, str(name), None), "allowed_permissions", None)
    ]
    assert unguarded == []


def test_view_only_staff_see_no_triage_actions(viewer: Client) -> None:
    candidate("KVSwap")

    page = viewer.get(reverse(CHANGELIST))

    assert page.status_code == 200 and "KVSwap" in page.content.decode()
    body = page.content.decode()
    for action in ("make_proposal", "dismiss_selected", "snooze_selected"):
        assert f'value="{action}"' not in body


@pytest.mark.parametrize(
    "forged",
    [
        {"action": "snooze_selected"},
        {"action": "dismiss_selected", "apply": "1", "reason": "Not ours"},
        {"action": "make_proposal"},
    ],
)
def test_a_forged_action_from_view_only_staff_changes_nothing(
    viewer: Client, forged: dict[str, str]
) -> None:
    one = candidate("KVSwap")

    response = viewer.post(reverse(CHANGELIST), {**forged, ACTION_CHECKBOX_NAME: [one.pk]})

    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert "propose" not in response["Location"]
    one.refresh_from_db()
    assert (one.status, one.status_reason) == (Candidate.Status.NEW, "")
