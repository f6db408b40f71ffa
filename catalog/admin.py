from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict
from weakref import WeakKeyDictionary

from django.contrib import admin, messages
from django.contrib.admin.utils import NestedObjects
from django.core.exceptions import ValidationError
from django.db import router
from django.db.models import Count, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from .admin_filters import LinkHealthFilter, ReverificationFilter
from .changelog import SourceSnapshot, record_source_edit, snapshot
from .models import ChangeLogEntry, ListEntry, ListSection, ReadingList, Source, Tier, Topic
from .promotion import promote_to_core

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

RETIRE_INSTEAD = (
    "Sources that readers have saved or lists cite are retired, not deleted: "
    "set the source's status to Retired instead."
)


class HasNoURLFilter(admin.SimpleListFilter):
    title = "URL"
    parameter_name = "has_url"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, str]]:
        return [("no", "Has no URL"), ("yes", "Has a URL")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Source]) -> QuerySet[Source]:
        if self.value() == "no":
            return queryset.filter(url="")
        if self.value() == "yes":
            return queryset.exclude(url="")
        return queryset


class EntryInline(admin.TabularInline):
    model = ListEntry
    extra = 0
    autocomplete_fields = ["source"]
    fields = ["section", "position", "label", "source"]
    ordering = ["section__reading_list", "section__position", "position"]


LINK_HEALTH_FIELDS = (
    "link_status",
    "link_status_code",
    "link_error",
    "link_checked_at",
    "link_failing_since",
)
# The snapshot SourceAdmin.save_model takes before a source is saved, read back by save_related
# once the topics are saved too; keyed by the request, so it lives as long as the request does.
_BEFORE_EDIT: WeakKeyDictionary[HttpRequest, SourceSnapshot | None] = WeakKeyDictionary()


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ["title", "tier", "kind", "basis", "year", "status", "verified_on"]
    list_filter = [
        "tier",
        "kind",
        "basis",
        "status",
        "topics",
        ("entries__section__reading_list", admin.RelatedOnlyFieldListFilter),
        "year",
        HasNoURLFilter,
        "awaiting_evidence",
        LinkHealthFilter,
        ReverificationFilter,
    ]
    search_fields = [
        "title",
        "full_title",
        "url",
        "authors",
        "aliases",
        "venue",
        "slug",
        "arxiv_id",
        "doi",
        "isbn",
        "repository",
    ]
    autocomplete_fields = ["topics", "related", "replaced_by"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["created", "updated", *LINK_HEALTH_FIELDS]
    list_select_related = ["tier"]
    inlines = [EntryInline]
    actions = ["promote_to_core"]

    def get_deleted_objects(
        self, objs: Sequence[Source] | QuerySet[Source], request: HttpRequest
    ) -> tuple[list[str], dict[str, int], set[str], list[str]]:
        """Name what protects a source by kind and count, never by whose it is.

        Bookmarks and list entries protect a source (on_delete=PROTECT); the admin's usual list
        would print each reader's bookmark, so it is replaced by counts and the way out.
        """
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        if protected:
            collector = NestedObjects(using=router.db_for_write(Source))
            collector.collect(objs)
            kinds = Counter(obj._meta for obj in collector.protected)
            protected = [
                f"{n} {meta.verbose_name if n == 1 else meta.verbose_name_plural}"
                for meta, n in sorted(kinds.items(), key=lambda item: item[0].label)
            ] + [RETIRE_INSTEAD]
            # Protection is the real reason: say it, not "you lack permission to delete bookmarks".
            perms_needed = set()
        return deleted, model_count, perms_needed, protected

    fieldsets = [
        (None, {"fields": ["title", "slug", "url", "kind", "basis", "status"]}),
        ("Citation", {"fields": ["full_title", "authors", "venue", "year"]}),
        (
            "Identifiers",
            {
                "fields": [
                    "arxiv_id",
                    "doi",
                    "isbn",
                    "repository",
                    "verified_from_url",
                    "verified_from_date",
                ]
            },
        ),
        ("Placement", {"fields": ["tier", "topics", "verified_on", "awaiting_evidence"]}),
        (
            "Frontier evidence",
            {
                "fields": [
                    "evidence_spec_url",
                    "evidence_implementation_url",
                    "evidence_measurement_url",
                ],
                "description": "A frontier source moves into the core only when all three exist.",
            },
        ),
        (
            "Description",
            {"fields": ["summary", "aliases", "keywords", "related", "replaced_by"]},
        ),
        ("History", {"fields": ["created", "updated"]}),
        ("Link health", {"fields": LINK_HEALTH_FIELDS, "classes": ["collapse"]}),
    ]

    # The change log: snapshot before the form saves, record once the topics are saved too.
    def save_model(
        self, request: HttpRequest, obj: Source, form: ModelForm[Source], change: bool
    ) -> None:
        before = Source.objects.filter(pk=obj.pk).prefetch_related("topics").first()
        _BEFORE_EDIT[request] = snapshot(before) if change else None
        super().save_model(request, obj, form, change)

    def save_related(
        self, request: HttpRequest, form: ModelForm[Source], formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        record_source_edit(
            before=_BEFORE_EDIT.pop(request, None),
            source=form.instance,
            actor=request.user,
            via=ChangeLogEntry.Via.ADMIN,
        )

    @admin.action(
        description="Promote selected frontier sources to the core", permissions=["change"]
    )
    def promote_to_core(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        for source in queryset:
            try:
                promote_to_core(source=source, by=request.user)
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
            else:
                self.message_user(
                    request, f"“{source.title}” is now in the core.", messages.SUCCESS
                )


class _SourceCount(TypedDict):
    n: int


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ["name", "parent", "position", "source_count"]
    list_editable = ["position"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    ordering = ["position"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Topic]:
        return super().get_queryset(request).select_related("parent").annotate(n=Count("sources"))

    @admin.display(ordering="n", description="sources")
    def source_count(self, obj: "WithAnnotations[Topic, _SourceCount]") -> int:
        return obj.n


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "position"]
    list_editable = ["position"]
    prepopulated_fields = {"slug": ["name"]}


class SectionInline(admin.TabularInline):
    model = ListSection
    extra = 0
    fields = ["position", "slug", "title", "description"]
    show_change_link = True


@admin.register(ReadingList)
class ReadingListAdmin(admin.ModelAdmin):
    list_display = ["title", "publisher", "licence", "verified_on"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [SectionInline]


class SectionEntryInline(admin.TabularInline):
    """The order of a section (the Start-here path included) is edited here."""

    model = ListEntry
    extra = 0
    autocomplete_fields = ["source"]
    fields = ["position", "source", "label"]
    ordering = ["position"]


@admin.register(ListSection)
class ListSectionAdmin(admin.ModelAdmin):
    list_display = ["title", "reading_list", "position"]
    list_filter = ["reading_list"]
    search_fields = ["title", "slug"]
    inlines = [SectionEntryInline]
