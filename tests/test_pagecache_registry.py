"""Every model is known to the page cache: registered with a scope, or exempt with a reason.

A model nobody registered makes every change to it drop every signed-in reader's cached pages,
so forgetting costs hits silently; this test makes forgetting loud instead.
"""

import pytest
from django.apps import apps
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from proposals.services import submit_proposal
from readinglist.pagecache import rule_for
from readinglist.pagecache.registry import UNSHOWN_APPS
from tests.hints import SmallCatalog, Tiers

# Django's own bookkeeping, which the registry already treats as shown on no page, and auth's
# groups and permissions, whose changes reach readers through their m2m tables on the user.
BUILT_IN = UNSHOWN_APPS | {"auth"}


def every_model() -> list[type[Model]]:
    return sorted(
        (
            model
            for model in apps.get_models(include_auto_created=True)
            if model._meta.app_label not in BUILT_IN
        ),
        key=lambda model: model._meta.label,
    )


@pytest.mark.parametrize("model", every_model(), ids=lambda model: model._meta.label)
def test_every_model_is_registered_or_exempt_with_a_reason(model: type[Model]) -> None:
    rule = rule_for(model)

    assert rule is not None, f"register {model._meta.label} with the page cache, or exempt it"
    if rule.scope == "none":
        assert rule.reason.strip()


def test_a_proposal_leaves_another_readers_cached_pages_cached(
    client: Client,
    reader: User,
    other_reader: User,
    small_catalog: SmallCatalog,
    tiers: Tiers,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client.force_login(other_reader)
    assert client.get(reverse("library:index"))["X-Page-Cache"] == "miss"
    assert client.get(reverse("library:index"))["X-Page-Cache"] == "hit"

    with django_capture_on_commit_callbacks(execute=True):
        submit_proposal(
            proposer=reader,
            url="https://example.org/a-new-kernel",
            title="A new kernel",
            kind="article",
            tier=tiers["further-reading"],
            worth_reading="It explains tiling clearly.",
            topics=small_catalog["topics"],
        )

    assert client.get(reverse("library:index"))["X-Page-Cache"] == "hit"


def test_an_unregistered_model_would_drop_every_readers_pages() -> None:
    from readinglist.pagecache.registry import _row_keys
    from readinglist.pagecache.versions import READERS_EPOCH_KEY

    class Unknown:
        pass

    # A class that is not a model is exactly what the fallback is for.
    assert READERS_EPOCH_KEY in _row_keys(Unknown, Unknown(), {}).keys  # type: ignore[arg-type]
