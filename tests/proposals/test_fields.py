"""One declaration of a proposal's answers: the form, the admin and the services all follow it,
and every text answer has a limit the form states and the database enforces."""

import pytest
from django.db import DataError, IntegrityError, transaction
from django.test import Client
from django.utils.html import escape

from accounts.models import User
from proposals import fields
from proposals.admin import ProposalAdmin
from proposals.forms import ProposalForm
from proposals.models import Decision, Proposal
from proposals.services import PROPOSAL_FIELDS, request_changes
from tests.hints import SmallCatalog, Tiers

from .helpers import form_data, make_proposal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "limit"),
    [("conflict_of_interest", 2000), ("mechanism", 2000), ("workload", 2000), ("title", 300)],
)
def test_a_too_long_answer_is_refused_with_a_clear_message(
    signed_in: Client, small_catalog: SmallCatalog, name: str, limit: int
) -> None:
    claim = {claim: "stated" for claim in fields.CLAIM_FIELDS}
    data = form_data(small_catalog, **claim) | {name: "x" * (limit + 1)}
    response = signed_in.post("/propose/", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert f"This answer has {limit + 1} characters; at most {limit:,} fit." in page
    assert f'maxlength="{limit}"' in page
    assert not Proposal.objects.exists()


def test_an_answer_at_the_limit_is_kept(signed_in: Client, small_catalog: SmallCatalog) -> None:
    signed_in.post("/propose/", form_data(small_catalog, conflict_of_interest="x" * 2000))
    assert len(Proposal.objects.get().conflict_of_interest) == 2000


def test_the_database_refuses_a_megabyte_conflict_of_interest(
    reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.filter(pk=proposal.pk).update(conflict_of_interest="x" * 1_000_000)
    proposal.refresh_from_db()
    assert proposal.conflict_of_interest == ""


def test_the_database_refuses_an_overlong_title_on_every_backend(
    reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    # PostgreSQL's varchar refuses it first (DataError); SQLite needs the check constraint.
    with pytest.raises((DataError, IntegrityError)), transaction.atomic():
        Proposal.objects.filter(pk=proposal.pk).update(title="t" * 301)


def test_a_decision_reason_has_a_limit_too(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    with pytest.raises(Exception, match="at most 10,000 characters"):
        request_changes(proposal=proposal, by=maintainer, reason="r" * 10_001)
    with pytest.raises(IntegrityError), transaction.atomic():
        Decision.objects.create(
            proposal=proposal, maintainer=maintainer, action="rejected", reason="r" * 10_001
        )
    assert not Decision.objects.exists()


def test_form_service_and_admin_read_the_one_declaration() -> None:
    declared = [answer.name for answer in fields.ANSWERS]
    assert ProposalForm.Meta.fields == declared
    assert [name for name in declared if name != "topics"] == PROPOSAL_FIELDS
    shown = [name for _, options in ProposalAdmin.fieldsets for name in options["fields"]]
    assert [fields.BY_NAME.get(name) for name in shown if name in declared] == [
        fields.BY_NAME[name] for name in declared if name not in {"url", "topics"}
    ]


def test_the_page_asks_each_question_as_declared(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get("/propose/").content.decode()
    for answer in fields.ANSWERS:
        assert f'name="{answer.name}"' in page
        assert escape(answer.label) in page


def test_an_answer_required_only_for_some_tiers(
    signed_in: Client, small_catalog: SmallCatalog, tiers: Tiers
) -> None:
    """The form enforces a tier's own requirements once the tier is chosen."""
    further = form_data(
        small_catalog, after_source="", tier="further-reading", worth_reading="A clear guide."
    )
    assert ProposalForm(further).is_valid()
    core = form_data(small_catalog, after_source="", tier="core")
    form = ProposalForm(core)
    assert not form.is_valid()
    assert form.errors["after_source"] == ["Say which source a reader should read before this one."]
