import datetime
from collections.abc import Iterable
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.catalog_document import CatalogDocument, CatalogItem
from catalog.changelog import (
    changes_between,
    changes_since_last_visit,
    last_seen_changes,
    mark_changes_seen,
    record_change,
    snapshot,
)
from catalog.models import ChangeLogEntry, Source
from catalog.services import load_catalog
from tests.factories import SourceFactory, TopicFactory
from tests.hints import Grow, Response, SmallCatalog, Tiers

Kind, Via = ChangeLogEntry.Kind, ChangeLogEntry.Via


def kinds(entries: Iterable[ChangeLogEntry]) -> list[str]:
    return [entry.kind for entry in entries]


@pytest.mark.django_db
class TestRecording:
    def test_record_change_keeps_the_title_after_the_source_is_deleted(
        self, tiers: Tiers, maintainer: User
    ) -> None:
        source = SourceFactory(title="Gone soon")
        entry = record_change(source=source, kind=Kind.ADDED, actor=maintainer, via=Via.ADMIN)
        source.delete()
        entry.refresh_from_db()
        assert entry.source is None
        assert entry.source_title == "Gone soon"
        assert entry.actor == maintainer

    def test_an_invalid_kind_is_refused_by_the_database(self, tiers: Tiers) -> None:
        from django.db import IntegrityError, transaction

        source = SourceFactory()
        with pytest.raises(IntegrityError), transaction.atomic():
            ChangeLogEntry.objects.create(
                source=source, source_title="x", kind="vanished", via="admin"
            )

    def test_kinds_from_before_and_after(self, tiers: Tiers) -> None:
        replacement = SourceFactory(title="The new one")
        source = SourceFactory(tier=tiers["frontier"], verified_on=datetime.date(2024, 1, 1))
        before = snapshot(source)
        source.tier = tiers["core"]
        source.url = "https://example.org/moved"
        source.verified_on = datetime.date(2025, 1, 1)
        source.replaced_by = replacement
        source.summary = "Rewritten."
        source.save()
        found = dict(changes_between(before, snapshot(source)))
        assert found[Kind.PROMOTED] == "Moved from Frontier to Core."
        assert found[Kind.LINK_FIXED] == "Link changed to https://example.org/moved."
        assert found[Kind.REVERIFIED] == "Re-verified on 2025-01-01."
        assert found[Kind.REPLACED] == "Superseded by The new one."
        assert found[Kind.UPDATED] == "Changed summary."

    def test_changed_keywords_are_an_update(self) -> None:
        source = SourceFactory(keywords="model sharding")
        before = snapshot(source)
        source.keywords = "model sharding; splitting layers across GPUs"
        source.save()
        assert dict(changes_between(before, snapshot(source))) == {
            Kind.UPDATED: "Changed keywords."
        }

    def test_demotion_and_retirement(self, tiers: Tiers) -> None:
        source = SourceFactory(tier=tiers["core"])
        before = snapshot(source)
        source.tier = tiers["further-reading"]
        source.status = Source.Status.RETIRED
        source.save()
        assert kinds_of(changes_between(before, snapshot(source))) == [Kind.RETIRED, Kind.DEMOTED]

    def test_nothing_changed_records_nothing(self, tiers: Tiers) -> None:
        source = SourceFactory()
        assert changes_between(snapshot(source), snapshot(source)) == []


def kinds_of(pairs: list[tuple[str, str]]) -> list[str]:
    return [kind for kind, _ in pairs]


def _doc(sources: list[CatalogItem], tiers_doc: list[CatalogItem] | None = None) -> CatalogDocument:
    return {
        "tiers": tiers_doc
        or [
            {"slug": "core", "name": "Core", "position": 2, "description": "", "rule": ""},
            {"slug": "frontier", "name": "Frontier", "position": 3, "description": "", "rule": ""},
        ],
        "topics": [
            {"slug": "kernels", "name": "Kernels", "parent": "", "position": 1, "description": ""}
        ],
        "lists": [],
        "sources": sources,
    }


def _source(slug: str, **overrides: object) -> CatalogItem:
    values: CatalogItem = {
        "slug": slug,
        "title": slug.title(),
        "url": f"https://example.org/{slug}",
        "kind": "paper",
        "basis": "mechanism-paper",
        "authors": "Ada Lovelace",
        "venue": "",
        "year": 2024,
        "summary": "",
        "aliases": "",
        "status": "published",
        "awaiting_evidence": False,
        "verified_on": datetime.date(2025, 1, 1),
        "tier": "frontier",
        "topics": ["kernels"],
        "related": [],
        "replaced_by": "",
    }
    return values | overrides


@pytest.mark.django_db
class TestLoader:
    def test_loader_records_added_promoted_replaced_reverified_and_removed(self) -> None:
        load_catalog(_doc([_source("alpha"), _source("beta"), _source("gamma")]), progress=False)
        assert ChangeLogEntry.objects.filter(kind=Kind.ADDED, via=Via.LOADER).count() == 3
        ChangeLogEntry.objects.all().delete()

        load_catalog(
            _doc(
                [
                    _source("alpha", tier="core"),
                    _source("beta", replaced_by="alpha", verified_on=datetime.date(2025, 6, 1)),
                    _source("delta"),
                ]
            ),
            progress=False,
        )
        log = {(e.source_title, e.kind) for e in ChangeLogEntry.objects.all()}
        assert log == {
            ("Alpha", Kind.PROMOTED),
            ("Beta", Kind.REVERIFIED),
            ("Beta", Kind.REPLACED),
            ("Delta", Kind.ADDED),
            ("Gamma", Kind.RETIRED),
        }
        removed = ChangeLogEntry.objects.get(kind=Kind.RETIRED)
        assert removed.source is None and removed.detail == "Removed from the catalog file."

    def test_an_unchanged_reload_records_nothing(self) -> None:
        doc = _doc([_source("alpha")])
        load_catalog(doc, progress=False)
        count = ChangeLogEntry.objects.count()
        report = load_catalog(doc, progress=False)
        assert not report.changed
        assert ChangeLogEntry.objects.count() == count

    def test_fields_an_upgrade_adds_are_filled_in_without_a_log_entry(self) -> None:
        slugs = ["alpha", "beta", "gamma"]
        load_catalog(_doc([_source(slug, summary=slug) for slug in slugs]), progress=False)
        ChangeLogEntry.objects.all().delete()

        # As after a migration that adds fields: the file has values the database never held.
        introduced = {"keywords": "model sharding", "venue": "OSDI", "full_title": "A Paper"}
        upgraded = [_source(slug, summary=slug, **introduced) for slug in slugs]
        report = load_catalog(_doc(upgraded), progress=False)

        assert report.updated["sources"] == 3
        assert Source.objects.filter(keywords="model sharding", venue="OSDI").count() == 3
        assert list(ChangeLogEntry.objects.all()) == []

        upgraded[1]["summary"] = "Rewritten."
        load_catalog(_doc(upgraded), progress=False)
        (entry,) = ChangeLogEntry.objects.all()
        assert (entry.source_title, entry.kind, entry.detail) == (
            "Beta",
            Kind.UPDATED,
            "Changed summary.",
        )

    def test_a_field_some_sources_had_is_logged_when_it_changes(self) -> None:
        load_catalog(_doc([_source("alpha", venue="OSDI"), _source("beta")]), progress=False)
        ChangeLogEntry.objects.all().delete()

        load_catalog(_doc([_source("alpha", venue="OSDI"), _source("beta", venue="SOSP")]))

        (entry,) = ChangeLogEntry.objects.all()
        assert (entry.source_title, entry.detail) == ("Beta", "Changed venue.")

    def test_the_change_log_does_not_keep_a_removed_source_alive(self) -> None:
        load_catalog(_doc([_source("alpha"), _source("beta")]), progress=False)
        report = load_catalog(_doc([_source("alpha")]), progress=False)
        assert report.deleted["sources"] == 1
        assert not Source.objects.filter(slug="beta").exists()


def _admin_form(source: Source, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "title": source.title,
        "slug": source.slug,
        "url": source.url,
        "kind": source.kind,
        "basis": source.basis,
        "status": source.status,
        "authors": source.authors,
        "venue": source.venue,
        "year": source.year or "",
        "tier": source.tier_id,
        "topics": [t.pk for t in source.topics.all()] if source.pk else [],
        "verified_on": source.verified_on.isoformat() if source.verified_on else "",
        "summary": source.summary,
        "aliases": source.aliases,
        "replaced_by": source.replaced_by_id or "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    return data | changes


@pytest.mark.django_db
class TestAdmin:
    def test_admin_edit_records_promotion_by_the_maintainer(
        self, client: Client, maintainer: User, tiers: Tiers
    ) -> None:
        source = SourceFactory(
            tier=tiers["frontier"], verified_on=timezone.localdate(), topics=[TopicFactory()]
        )
        client.force_login(maintainer)
        response = client.post(
            f"/admin/catalog/source/{source.pk}/change/",
            _admin_form(source, tier=tiers["core"].pk),
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        entry = ChangeLogEntry.objects.get()
        assert (entry.kind, entry.via, entry.actor) == (Kind.PROMOTED, Via.ADMIN, maintainer)
        assert entry.detail == "Moved from Frontier to Core."

    def test_admin_topic_change_is_an_update(
        self, client: Client, maintainer: User, tiers: Tiers
    ) -> None:
        source = SourceFactory(tier=tiers["core"], topics=[TopicFactory(slug="a")])
        other = TopicFactory(slug="b")
        client.force_login(maintainer)
        client.post(
            f"/admin/catalog/source/{source.pk}/change/", _admin_form(source, topics=[other.pk])
        )
        entry = ChangeLogEntry.objects.get()
        assert (entry.kind, entry.detail) == (Kind.UPDATED, "Changed topics.")

    def test_admin_add_records_added(self, client: Client, maintainer: User, tiers: Tiers) -> None:
        client.force_login(maintainer)
        source = SourceFactory.build(
            title="Brand new", slug="brand-new", url="https://example.org/new", tier=tiers["core"]
        )
        data = _admin_form(source) | {"topics": []}
        response = client.post("/admin/catalog/source/add/", data)
        assert response.status_code == 302, response.content.decode()[:3000]
        entry = ChangeLogEntry.objects.get()
        assert (entry.kind, entry.source_title, entry.actor) == (
            Kind.ADDED,
            "Brand new",
            maintainer,
        )


def changes_panel(response: Response) -> str:
    html = response.content.decode()
    assert "What changed since your last visit" in html
    return html.split('id="changes-heading"', 1)[1].split("</section>", 1)[0]


@pytest.mark.django_db
class TestSinceLastVisit:
    def test_home_shows_changes_since_the_previous_visit_then_forgets_them(
        self,
        client: Client,
        reader: User,
        tiers: Tiers,
        django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    ) -> None:
        # Commit hooks run, as outside a test transaction: they replace the page cache's versions.
        with django_capture_on_commit_callbacks(execute=True):
            reader.date_joined = timezone.now() - timedelta(days=30)
            reader.save()
            source = SourceFactory(title="Newly promoted")
            record_change(source=source, kind=Kind.PROMOTED, detail="Moved up.", via=Via.ADMIN)
        client.force_login(reader)
        with django_capture_on_commit_callbacks(execute=True):
            first = changes_panel(client.get("/"))
        assert "Newly promoted" in first and "Moved up." in first
        second = changes_panel(client.get("/"))
        assert "Newly promoted" not in second
        assert "Nothing has changed in the catalog since your last visit." in second
        with django_capture_on_commit_callbacks(execute=True):
            record_change(source=source, kind=Kind.REVERIFIED, detail="Checked.", via=Via.LOADER)
        third = changes_panel(client.get("/"))
        assert "Checked." in third and "Moved up." not in third

    def test_changes_before_joining_are_not_news(self, reader: User, tiers: Tiers) -> None:
        source = SourceFactory()
        entry = record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        ChangeLogEntry.objects.filter(pk=entry.pk).update(
            created=reader.date_joined - timedelta(days=1)
        )
        assert changes_since_last_visit(reader) == []

    def test_a_visit_only_remembers_its_own_time(self, reader: User, tiers: Tiers) -> None:
        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        moment = timezone.now()
        assert mark_changes_seen(reader, moment)
        assert seen_in_database(reader) == moment

    def test_nothing_new_since_the_last_visit_writes_nothing(
        self, reader: User, tiers: Tiers
    ) -> None:
        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        seen = timezone.now()
        assert mark_changes_seen(reader, seen)
        assert not mark_changes_seen(reader, seen + timedelta(minutes=5))
        assert seen_in_database(reader) == seen
        # Moving the moment back over logged changes is a change, and is written.
        assert mark_changes_seen(reader, reader.date_joined)
        assert seen_in_database(reader) == reader.date_joined

    def test_a_stale_reader_is_judged_by_the_stored_moment(
        self, reader: User, tiers: Tiers
    ) -> None:
        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        seen = timezone.now()
        # Another request remembered the visit; this one still holds the reader without it.
        stale = type(reader).objects.get(pk=reader.pk)
        assert last_seen_changes(stale) is None
        assert mark_changes_seen(reader, seen)
        assert not mark_changes_seen(stale, seen + timedelta(minutes=5))
        assert seen_in_database(reader) == seen

    def test_the_moment_is_read_once_per_reader(
        self, reader: User, tiers: Tiers, django_assert_num_queries: DjangoAssertNumQueries
    ) -> None:
        mark_changes_seen(reader, timezone.now())
        fresh = type(reader).objects.get(pk=reader.pk)
        with django_assert_num_queries(1):
            assert last_seen_changes(fresh) == last_seen_changes(fresh) is None

    def test_revisiting_home_does_not_write_when_nothing_changed(
        self,
        client: Client,
        reader: User,
        tiers: Tiers,
        django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    ) -> None:
        def visit() -> tuple[datetime.datetime | None, list[str]]:
            # Commit hooks run, as outside a test transaction (they replace cache versions).
            with (
                django_capture_on_commit_callbacks(execute=True),
                CaptureQueriesContext(connection) as queries,
            ):
                client.get("/")
            updates = [
                q["sql"]
                for q in queries.captured_queries
                # The caches' own tables (the test settings' database caches) aside.
                if q["sql"].startswith("UPDATE")
                and "readinglist_cache" not in q["sql"]
                and "readinglist_pages" not in q["sql"]
            ]
            return seen_in_database(reader), updates

        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        client.force_login(reader)
        first, _ = visit()
        assert first is not None
        second, updates = visit()
        assert second == first
        # At most the guarded statement, which matched no row, and nothing else was written.
        assert len(updates) <= 1
        # A new change is news again, and the visit that shows it is remembered.
        with django_capture_on_commit_callbacks(execute=True):
            record_change(source=SourceFactory(), kind=Kind.REVERIFIED, via=Via.LOADER)
        third, _ = visit()
        assert third is not None and third > first

    def test_anonymous_home_has_no_change_panel(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        assert "since your last visit" not in client.get("/").content.decode()

    def test_home_query_count_for_a_reader_is_constant(
        self,
        client: Client,
        reader: User,
        many_sources: Grow,
        django_assert_max_num_queries: DjangoAssertNumQueries,
        settings: Settings,
    ) -> None:
        settings.CATALOG_PAGE_CACHE = False  # the cost of a render, not of a cache hit
        client.force_login(reader)
        for source in many_sources(5):
            record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        client.get("/")
        mark_changes_seen(reader, reader.date_joined)
        with django_assert_max_num_queries(20) as small:
            client.get("/")
        mark_changes_seen(reader, reader.date_joined)
        for source in many_sources(30):
            record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        with django_assert_max_num_queries(len(small.captured_queries)):
            client.get("/")


@pytest.mark.django_db
class TestChangesPage:
    def test_full_log_paginated_and_filtered_by_kind(
        self, client: Client, tiers: Tiers, settings: Settings
    ) -> None:
        settings.CATALOG_PAGE_SIZE = 5
        source = SourceFactory(title="Logged")
        for _ in range(7):
            record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        record_change(source=source, kind=Kind.RETIRED, detail="Gone.", via=Via.ADMIN)
        page = client.get("/changes/").content.decode()
        assert "8 changes" in page and "Page 1 of 2" in page
        filtered = client.get("/changes/", {"kind": "retired"}).content.decode()
        assert "1 change of this kind" in filtered and "Gone." in filtered

    def test_unknown_kind_or_page_shows_everything_not_an_error(
        self, client: Client, tiers: Tiers
    ) -> None:
        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        response = client.get("/changes/", {"kind": "<script>", "page": "999"})
        assert response.status_code == 200
        assert "<script>" not in response.content.decode()
        assert "1 change" in response.content.decode()

    def test_htmx_request_gets_only_the_log(self, client: Client, tiers: Tiers) -> None:
        record_change(source=SourceFactory(), kind=Kind.ADDED, via=Via.LOADER)
        response = client.get("/changes/", headers={"HX-Request": "true"})
        html = response.content.decode()
        assert 'id="change-log"' in html and "<html" not in html

    def test_deleted_source_still_reads_well(self, client: Client, tiers: Tiers) -> None:
        source = SourceFactory(title="Removed paper")
        record_change(source=source, kind=Kind.RETIRED, via=Via.LOADER)
        source.delete()
        assert "Removed paper" in client.get("/changes/").content.decode()

    def test_changes_page_query_count_is_constant(
        self, client: Client, tiers: Tiers, django_assert_max_num_queries: DjangoAssertNumQueries
    ) -> None:
        for source in SourceFactory.create_batch(3):
            record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        with django_assert_max_num_queries(3):
            client.get("/changes/")
        for source in SourceFactory.create_batch(20):
            record_change(source=source, kind=Kind.ADDED, via=Via.LOADER)
        with django_assert_max_num_queries(3):
            client.get("/changes/")


@pytest.mark.django_db
def test_superseded_source_shows_a_banner_linking_to_its_replacement(
    client: Client, tiers: Tiers
) -> None:
    new = SourceFactory(title="FlashAttention-2", slug="fa2")
    old = SourceFactory(title="FlashAttention", slug="fa1", replaced_by=new)
    html = client.get(old.get_absolute_url()).content.decode()
    assert '<p class="notice superseded">Superseded by <a href="/sources/fa2/">' in html
    assert "FlashAttention-2</a>" in html
    assert "Superseded by" not in client.get(new.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_moderation_accept_and_promotion_are_logged(maintainer: User, tiers: Tiers) -> None:
    from catalog.promotion import missing_evidence, promote_to_core

    source = SourceFactory(
        tier=tiers["frontier"],
        verified_on=timezone.localdate(),
        evidence_spec_url="https://example.org/spec",
        evidence_implementation_url="https://example.org/impl",
        evidence_measurement_url="https://example.org/measure",
    )
    assert not missing_evidence(source)
    promote_to_core(source=source, by=maintainer)
    entry = ChangeLogEntry.objects.get()
    assert (entry.kind, entry.actor, entry.detail) == (
        Kind.PROMOTED,
        maintainer,
        "Moved from Frontier to Core: the evidence is complete.",
    )


@pytest.mark.django_db
def test_accepting_a_proposal_logs_the_new_source_and_the_one_it_replaces(
    small_catalog: SmallCatalog, reader: User, maintainer: User
) -> None:
    from proposals.services import accept_proposal
    from tests.proposals.helpers import make_proposal

    old = small_catalog["flash"]
    proposal = make_proposal(small_catalog, reader, replaces=old, title="FlashAttention-3")
    source = accept_proposal(proposal=proposal, by=maintainer)
    log = {(e.source_title, e.kind, e.via, e.actor) for e in ChangeLogEntry.objects.all()}
    assert log == {
        ("FlashAttention-3", Kind.ADDED, Via.MODERATION, maintainer),
        ("FlashAttention", Kind.REPLACED, Via.MODERATION, maintainer),
    }
    assert ChangeLogEntry.objects.get(kind=Kind.REPLACED).detail == (
        f"Superseded by {source.title}."
    )


def seen_in_database(reader: User) -> datetime.datetime | None:
    """The reader's stored moment, read afresh (a refreshed reader forgets its cached row)."""
    return last_seen_changes(type(reader).objects.get(pk=reader.pk))
