import builtins
import re
from typing import Any

from django import forms
from django.http import QueryDict

from catalog.models import ReadingList, Source, Tier, Topic
from catalog.models.sources import MAX_YEAR, MIN_YEAR

from .parsing import MAX_QUERY_LENGTH, SORTS, SearchParams, clean_query_text

YEAR_RANGE = re.compile(r"^\s*(\d{4})\s*(?:(?:-|\u2013|\.\.|to)\s*(\d{4})\s*)?$")


class SearchTextField(forms.CharField):
    """Accepts anything a person might paste: control characters are dropped, not refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # NUL bytes are dropped below; refusing them would fail the whole page.
        self.validators = []

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        assert text is not None  # None only for an empty_value of None, which no field here sets
        return text.replace("\x00", "")


class SearchForm(forms.Form):
    """Parses /sources/ parameters: the only reader of the request's query string, for the page
    and its citation export alike. Odd values are clamped and reported in `notices`; only a
    malformed year makes the form invalid, because no sensible reading of it exists."""

    q = SearchTextField(
        required=False,
        label="Search the catalog",
        widget=forms.TextInput(attrs={"type": "search", "maxlength": MAX_QUERY_LENGTH}),
    )
    sort = SearchTextField(required=False)
    topic = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    tier = SearchTextField(required=False)
    kind = SearchTextField(required=False)
    list = SearchTextField(required=False)
    year = SearchTextField(required=False)
    page = SearchTextField(required=False)
    # Set by the "search instead for" link of a corrected query: the words as typed.
    exact = SearchTextField(required=False)

    # The default is the best match when searching and the lists' own order when browsing; the
    # select is outside the region live search swaps, so one label must fit both.
    sort_choices = [("", "Recommended"), *SORTS.items()]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notices: list[str] = []

    def clean_q(self) -> str:
        text, truncated = clean_query_text(self.cleaned_data["q"])
        if truncated:
            self.notices.append(f"Your search was cut to its first {MAX_QUERY_LENGTH} characters.")
        return text

    def clean_sort(self) -> str:
        sort = self.cleaned_data["sort"]
        return sort if sort in SORTS or sort == "relevance" else ""

    # `builtins.list`: in this class body `list` is the reading-list field.
    def clean_topic(self) -> builtins.list[Topic]:
        values = self.cleaned_data["topic"] or []
        slugs = [slug.replace("\x00", "") for slug in values if slug.strip("\x00")][:8]
        if not slugs:
            return []
        found = {topic.slug: topic for topic in Topic.objects.filter(slug__in=slugs)}
        for slug in slugs:
            if slug not in found:
                self.notices.append(f"There is no topic “{slug}”, so it is not applied.")
        return [found[slug] for slug in dict.fromkeys(slugs) if slug in found]

    def _one[M: (Tier, ReadingList)](self, name: str, model: type[M], noun: str) -> M | None:
        slug = self.cleaned_data[name].strip()
        if not slug:
            return None
        found = model.objects.filter(slug=slug).first()
        if found is None:
            self.notices.append(f"There is no {noun} “{slug}”, so it is not applied.")
        return found

    def clean_tier(self) -> Tier | None:
        return self._one("tier", Tier, "tier")

    def clean_list(self) -> ReadingList | None:
        return self._one("list", ReadingList, "reading list")

    def clean_kind(self) -> str:
        kind = self.cleaned_data["kind"].strip()
        if kind and kind not in Source.Kind.values:
            self.notices.append(f"There is no kind “{kind}”, so it is not applied.")
            return ""
        return kind

    def clean_exact(self) -> bool:
        return self.cleaned_data["exact"] == "1"

    def clean_page(self) -> int:
        page = self.cleaned_data["page"].strip()
        return int(page) if page.isdigit() and 0 < int(page) < 10**6 else 1

    def clean_year(self) -> tuple[int, int] | None:
        value = self.cleaned_data["year"]
        if not value.strip():
            return None
        found = YEAR_RANGE.match(value)
        if not found:
            raise forms.ValidationError(
                "“%(value)s” is not a year. Use a year such as 2023 or a range such as 2019-2023.",
                params={"value": value[:40]},
                code="malformed",
            )
        first = int(found[1])
        last = int(found[2] or found[1])
        if not (MIN_YEAR <= first <= MAX_YEAR and MIN_YEAR <= last <= MAX_YEAR):
            raise forms.ValidationError(
                "Years run from %(min)s to %(max)s.",
                params={"min": MIN_YEAR, "max": MAX_YEAR},
                code="out_of_range",
            )
        return (min(first, last), max(first, last))

    # `builtins.list`: in this class body `list` is the reading-list field.
    def link_base(self) -> dict[str, builtins.list[str]]:
        """The parameters as given, each with its values, without the page: what every facet
        link starts from (facets.Facets.link())."""
        if isinstance(self.data, QueryDict):
            given = dict(self.data.lists())
        else:
            given = {k: v if isinstance(v, builtins.list) else [v] for k, v in self.data.items()}
        return {key: [str(v) for v in values] for key, values in given.items() if key != "page"}

    def params(self) -> SearchParams:
        """What to search for. On an invalid form, the parts that were valid still apply."""
        data = getattr(self, "cleaned_data", {})
        year = data.get("year")
        return SearchParams(
            q=data.get("q", ""),
            topics=data.get("topic", []),
            tier=data.get("tier"),
            kind=data.get("kind", ""),
            reading_list=data.get("list"),
            year_from=year[0] if year else None,
            year_to=year[1] if year else None,
            sort=data.get("sort", ""),
            page=data.get("page", 1),
            exact=data.get("exact", False),
        )
