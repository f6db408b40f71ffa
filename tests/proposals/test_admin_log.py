"""Decisions taken in the admin are in its log, so "Recent actions" shows what was decided."""

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from accounts.models import User
from proposals.models import Proposal
from tests.hints import SmallCatalog

from .helpers import make_proposal

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposal(reader: User, small_catalog: SmallCatalog) -> Proposal:
    return make_proposal(small_catalog, reader)


@pytest.fixture
def admin_client(client: Client, maintainer: User) -> Client:
    client.force_login(maintainer)
    return client


def test_accepting_a_proposal_shows_in_recent_actions(
    admin_client: Client, proposal: Proposal, maintainer: User
) -> None:
    admin_client.post(
        f"/admin/proposals/proposal/{proposal.pk}/accept/",
        {
            "title": proposal.title,
            "url": proposal.url,
            "kind": "paper",
            "basis": "mechanism-paper",
            "tier": proposal.tier_id,
            "topics": [t.pk for t in proposal.topics.all()],
            "summary": "",
            "after_source": proposal.after_source_id,
            "reason": "A clear mechanism paper.",
        },
    )

    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.ACCEPTED
    entry = LogEntry.objects.get(object_id=str(proposal.pk), user=maintainer)
    assert "Accepted" in entry.get_change_message()
    recent = admin_client.get("/admin/").content.decode()
    assert proposal.title in recent


@pytest.mark.parametrize(
    ("action", "word"), [("reject", "Rejected"), ("request-changes", "Changes requested")]
)
def test_every_decision_is_logged(
    admin_client: Client, proposal: Proposal, maintainer: User, action: str, word: str
) -> None:
    admin_client.post(
        f"/admin/proposals/proposal/{proposal.pk}/{action}/", {"reason": "Off topic."}
    )

    entry = LogEntry.objects.get(object_id=str(proposal.pk), user=maintainer)
    assert word in entry.get_change_message()
