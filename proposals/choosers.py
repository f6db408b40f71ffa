"""Choosing a catalogued source by typing its title, and tiers as explained radio cards."""

from collections.abc import Iterable
from typing import Any

from django import forms
from django.db.models import Q

from catalog.models import Source, Tier

from .fields import TIER_EXPLANATIONS


def published_titles() -> list[str]:
    """Every published title, for the page's suggestion list."""
    return list(Source.objects.published().order_by("title").values_list("title", flat=True))


def resolve_title(typed: str) -> Source:
    """The one published source with this title (or, failing that, this alias or slug).

    Raises ValidationError naming the problem when no source or several match.
    """
    wanted = " ".join(typed.split())
    published = Source.objects.published().only("pk", "title", "slug", "aliases")
    by_title = list(published.filter(Q(title__iexact=wanted) | Q(slug=wanted))[:5])
    if not by_title:
        candidates = published.filter(aliases__icontains=wanted)[:20]
        lowered = wanted.lower()
        by_title = [s for s in candidates if lowered in (a.lower() for a in s.alias_list)]
    if len(by_title) == 1:
        return by_title[0]
    if not by_title:
        raise forms.ValidationError(
            f"No source in the catalog is titled “{wanted}”. Pick a title from the suggestions.",
            code="unknown_source",
        )
    names = "; ".join(f"{s.title} ({s.slug})" for s in by_title)
    raise forms.ValidationError(
        f"Several sources match “{wanted}”: {names}. Type the one you mean by its slug.",
        code="ambiguous_source",
    )


class SourceByTitleField(forms.CharField):
    """A text box for a source's title; cleans to the Source it names, or None when empty."""

    def __init__(self, *, datalist: str, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 300)
        super().__init__(**kwargs)
        self.widget.attrs |= {"list": datalist, "autocomplete": "off"}

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Source):
            return value.title
        if isinstance(value, int):
            return Source.objects.filter(pk=value).values_list("title", flat=True).first() or ""
        return value

    def clean(self, value: Any) -> Source | None:
        typed = super().clean(value)
        return resolve_title(typed) if typed else None


class TierRadioSelect(forms.RadioSelect):
    """Each tier's radio carries its explanation, so a reader chooses knowing what it means."""

    option_template_name = "proposals/widgets/tier_option.html"

    def create_option(
        self,
        name: str,
        value: Any,
        label: int | str,
        selected: bool,
        index: int,
        subindex: int | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["explanation"] = TIER_EXPLANATIONS.get(str(value), "")
        return option


def proposable_tiers(slugs: Iterable[str]) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Tier.objects.filter(slug__in=slugs).order_by("position"),
        to_field_name="slug",
        empty_label=None,
        widget=TierRadioSelect,
    )
