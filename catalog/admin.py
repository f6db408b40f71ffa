from django.contrib import admin
from django.db.models import Count

from .models import ListEntry, ListSection, ReadingList, Source, Tier, Topic


class HasNoURLFilter(admin.SimpleListFilter):
    title = "URL"
    parameter_name = "has_url"

    def lookups(self, request, model_admin):
        return [("no", "Has no URL"), ("yes", "Has a URL")]

    def queryset(self, request, queryset):
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
    ]
    search_fields = ["title", "url", "authors", "aliases", "venue", "slug"]
    autocomplete_fields = ["topics", "related", "replaced_by"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["created", "updated"]
    list_select_related = ["tier"]
    inlines = [EntryInline]
    fieldsets = [
        (None, {"fields": ["title", "slug", "url", "kind", "basis", "status"]}),
        ("Citation", {"fields": ["authors", "venue", "year"]}),
        ("Placement", {"fields": ["tier", "topics", "verified_on", "awaiting_evidence"]}),
        ("Description", {"fields": ["summary", "aliases", "related", "replaced_by"]}),
        ("History", {"fields": ["created", "updated"]}),
    ]


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ["name", "parent", "position", "source_count"]
    list_editable = ["position"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    ordering = ["position"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("parent").annotate(n=Count("sources"))

    @admin.display(ordering="n", description="sources")
    def source_count(self, obj):
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
