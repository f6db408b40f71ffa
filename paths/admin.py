"""Paths in the admin: the proposed ones found at a glance, and adopted as curated lists."""

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from .adopting import adopt_as_list
from .models import Path, PathSection, PathStep


class ProposedFilter(admin.SimpleListFilter):
    title = "proposed to the catalog"
    parameter_name = "proposed"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", "Proposed"), ("adopted", "Adopted"), ("no", "Not proposed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Path]) -> QuerySet[Path]:
        if self.value() == "yes":
            return queryset.filter(proposed_at__isnull=False, adopted_as__isnull=True)
        if self.value() == "adopted":
            return queryset.filter(adopted_as__isnull=False)
        if self.value() == "no":
            return queryset.filter(proposed_at__isnull=True)
        return queryset


class SectionInline(admin.TabularInline):
    model = PathSection
    extra = 0
    fields = ["position", "title"]
    readonly_fields = ["position", "title"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Path | None = None) -> bool:
        return False


class StepInline(admin.TabularInline):
    """Read only: a path's order is its authors', changed on the site where it is recorded."""

    model = PathStep
    extra = 0
    fields = ("position", "section", "source", "note")
    readonly_fields = ("position", "section", "source", "note")

    ordering = ["position"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Path | None = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[PathStep]:
        return super().get_queryset(request).select_related("section", "source")


@admin.register(Path)
class PathAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "visibility", "step_count", "proposed_at", "adopted_as"]
    list_filter = [ProposedFilter, "visibility"]
    search_fields = ["title"]
    readonly_fields = ["key", "proposed_at", "forked_from", "forked_from_list", "adopted_as"]
    fields = ["title", "description", "user", "team", "visibility", *readonly_fields]
    raw_id_fields = ["user", "team"]
    inlines = [SectionInline, StepInline]
    actions = ["adopt"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Path]:
        queryset = super().get_queryset(request).select_related("user", "team", "adopted_as")
        return queryset.annotate(step_total=Count("steps"))

    @admin.display(description="Owner", ordering="user")
    def owner(self, obj: Path) -> str:
        return obj.owner_name

    @admin.display(description="Steps", ordering="step_total")
    def step_count(self, obj: Path) -> int:
        return getattr(obj, "step_total", 0)

    def has_adopt_permission(self, request: HttpRequest) -> bool:
        """Changing paths, and adding to the catalog's lists: what adopting does."""
        return self.has_change_permission(request) and request.user.has_perm(
            "catalog.add_readinglist"
        )

    @admin.action(description="Adopt as a curated list", permissions=["adopt"])
    def adopt(self, request: HttpRequest, queryset: QuerySet[Path]) -> None:
        for path in queryset:
            if path.adopted_as_id:
                self.message_user(request, f"“{path.title}” was already adopted.", messages.WARNING)
                continue
            if not path.steps.exists():
                self.message_user(request, f"“{path.title}” has no steps.", messages.ERROR)
                continue
            reading_list = adopt_as_list(path)
            self.message_user(
                request,
                f"“{path.title}” is now the curated list “{reading_list.title}”.",
                messages.SUCCESS,
            )
