"""Triage in the admin: the inbox, dismiss with a reason, snooze, and make a proposal."""

import re
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from candidates.alerts import send_candidate_alerts
from candidates.models import Candidate
from catalog.models import Topic
from proposals.models import MaintainerAlert
from tests.hints import Response, Tiers, found

CHANGELIST = "admin:candidates_candidate_changelist"


def candidate(title: str, relevance: float = 0.5, **fields: Any) -> Candidate:
    return Candidate.objects.create(
        key=f"title:{title.lower()}",
        keys=[f"title:{title.lower()}"],
        origin=fields.pop("origin", Candidate.Origin.ARXIV),
        feed="arXiv",
        title=title,
        url=f"https://arxiv.org/abs/2511.{abs(hash(title)) % 99999:05d}",
        relevance=relevance,
        relevant=relevance >= 0.2,
        suggested_topics=[["kv-cache", 0.8]],
        topic_slugs=",kv-cache,",
        nearest=[["pagedattention", "PagedAttention", 0.4]],
        suggested_tier="frontier",
        published=timezone.now(),
        **fields,
    )


@pytest.fixture
def staff(client: Client, maintainer: User) -> Client:
    client.force_login(maintainer)
    return client


def titles(response: Response) -> list[str]:
    return [c.title for c in response.context["cl"].result_list]


def test_the_inbox_opens_on_new_relevant_candidates_most_relevant_first(staff: Client) -> None:
    candidate("Good", 0.4)
    candidate("Best", 0.9)
    candidate("Below the cut", 0.05)
    candidate("Dismissed", 0.95, status=Candidate.Status.DISMISSED)
    candidate(
        "Snoozed",
        0.95,
        status=Candidate.Status.SNOOZED,
        snoozed_until=timezone.now() + timedelta(days=3),
    )
    candidate(
        "Awake",
        0.3,
        status=Candidate.Status.SNOOZED,
        snoozed_until=timezone.now() - timedelta(days=1),
    )

    response = staff.get(reverse(CHANGELIST))

    assert titles(response) == ["Best", "Good", "Awake"]
    assert "close to PagedAttention" in response.content.decode()
    every = staff.get(reverse(CHANGELIST), {"triage": "all", "relevance": "all"})
    assert len(titles(every)) == 6


def test_dismissing_asks_for_a_reason_and_remembers_it(staff: Client) -> None:
    one = candidate("Off topic")
    url = reverse(CHANGELIST)

    asked = staff.post(url, {"action": "dismiss_selected", ACTION_CHECKBOX_NAME: [one.pk]})
    assert asked.status_code == 200 and "reason" in asked.content.decode()
    empty = staff.post(
        url,
        {"action": "dismiss_selected", ACTION_CHECKBOX_NAME: [one.pk], "apply": "1", "reason": ""},
    )
    assert empty.status_code == 200
    one.refresh_from_db()
    assert one.status == Candidate.Status.NEW

    staff.post(
        url,
        {
            "action": "dismiss_selected",
            ACTION_CHECKBOX_NAME: [one.pk],
            "apply": "1",
            "reason": "Edge IoT, not LLM serving",
        },
    )

    one.refresh_from_db()
    assert one.status == Candidate.Status.DISMISSED
    assert one.status_reason == "Edge IoT, not LLM serving"


def test_snoozing_hides_a_candidate_for_thirty_days(staff: Client) -> None:
    one = candidate("Later")

    staff.post(reverse(CHANGELIST), {"action": "snooze_selected", ACTION_CHECKBOX_NAME: [one.pk]})

    one.refresh_from_db()
    assert one.status == Candidate.Status.SNOOZED
    assert one.snoozed_until is not None
    assert timedelta(days=29) < one.snoozed_until - timezone.now() <= timedelta(days=30)
    assert titles(staff.get(reverse(CHANGELIST))) == []


def test_make_a_proposal_opens_the_proposal_form_filled_in(staff: Client, tiers: Tiers) -> None:
    kv_cache = Topic.objects.create(slug="kv-cache", name="KV cache", position=1)
    one = candidate("KVSwap", authors="Ada Example")

    response = staff.post(
        reverse(CHANGELIST), {"action": "make_proposal", ACTION_CHECKBOX_NAME: [one.pk]}
    )

    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.path == reverse("proposals:propose")
    query = parse_qs(target.query)
    assert query["url"] == [one.url] and query["title"] == ["KVSwap"]
    assert query["tier"] == ["frontier"]
    assert query["topics"] == [str(kv_cache.pk)]
    form = staff.get(response["Location"]).content.decode()
    assert 'value="KVSwap"' in form
    assert f'value="{kv_cache.pk}"' in form and "checked" in form


def checked_radios(page: str, name: str) -> list[str]:
    inputs = re.findall(r"<input\b[^>]*>", page)
    return [
        found(re.search(r'value="([^"]*)"', tag))[1]
        for tag in inputs
        if f'name="{name}"' in tag and 'type="radio"' in tag and re.search(r"\bchecked\b", tag)
    ]


def test_make_a_proposal_keeps_the_suggested_tier_and_shows_what_it_asks(
    staff: Client, tiers: Tiers
) -> None:
    one = candidate("KVSwap")

    response = staff.post(
        reverse(CHANGELIST), {"action": "make_proposal", ACTION_CHECKBOX_NAME: [one.pk]}
    )
    form = staff.get(response["Location"]).content.decode()

    assert checked_radios(form, "tier") == ["frontier"]
    # The questions the Frontier tier asks are in the page, for the checked radio to show.
    assert re.search(r'data-tiers="[^"]*\bfrontier\b', form)


def test_readers_cannot_see_the_inbox(client: Client, reader: User) -> None:
    candidate("Secret")
    client.force_login(reader)

    assert client.get(reverse(CHANGELIST)).status_code == 302


def test_opted_in_maintainers_get_one_email_a_day(maintainer: User) -> None:
    MaintainerAlert.objects.create(user=maintainer, daily_email=True)
    candidate("KVSwap", 0.6)
    candidate("Irrelevant", 0.01)

    assert send_candidate_alerts() == 1
    assert send_candidate_alerts() == 0

    (email,) = mail.outbox
    assert email.subject == "One new candidate for the catalog"
    assert "KVSwap" in email.body and "Irrelevant" not in email.body
    assert "/admin/candidates/candidate/" in email.body
