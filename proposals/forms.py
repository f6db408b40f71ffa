"""Forms for proposing sources and deciding proposals. The rules are stated in our own words."""

from typing import Any

from django import forms
from django.core.validators import URLValidator
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.text import slugify

from catalog.identity import work_keys_or_empty
from catalog.models import Source, Tier, Topic
from catalog.models.sources import MAX_YEAR, MIN_YEAR
from catalog.urlcanon import InvalidURL, canonical_url, prepared

from .choosers import SourceByTitleField, proposable_tiers
from .duplicates import DuplicateReport, find_duplicates
from .fields import (
    ANSWERS,
    BY_NAME,
    CLAIM_FIELDS,
    COPIED_TO_SOURCE,
    GROUP_NOTES,
    GROUP_TIERS,
    PRIMARY_TIERS,
    PROPOSABLE_TIERS,
    Answer,
    asked_for_tier,
    groups,
    missing_for_tier,
)
from .models import PRIMARY_BASES, REASON_MAX_LENGTH, URL_MAX_LENGTH, MaintainerAlert, Proposal

# Each answer's label carries its requirement marker. The template sits in the app's templates
# folder because Django's default form renderer reads app folders, not the project's.
FIELD_TEMPLATE = "proposals/forms/field.html"

_http_url = URLValidator(schemes=["http", "https"])


def _too_long_url(url: str) -> forms.ValidationError:
    return forms.ValidationError(
        f"A URL can be at most {URL_MAX_LENGTH:,} characters; this one has {len(url):,}."
    )


def clean_proposed_url(raw: str | None) -> str:
    url = (raw or "").strip()
    if len(url) > URL_MAX_LENGTH:
        raise _too_long_url(url)
    try:
        url = prepared(url)  # invisible characters are refused with their name
    except InvalidURL as exc:
        raise forms.ValidationError(str(exc)) from exc
    url = work_keys_or_empty(url).url or url  # a bare arXiv id or DOI becomes its URL
    if len(url) > URL_MAX_LENGTH:
        raise _too_long_url(url)
    try:
        url = canonical_url(url)
        _http_url(url)
    except (InvalidURL, forms.ValidationError) as exc:
        raise forms.ValidationError(
            "Enter the full address of the source, starting with http:// or https://."
        ) from exc
    return url


def _source_choices() -> QuerySet[Source]:
    return Source.objects.published().only("pk", "title").order_by("title")


def requirement(answer: Answer) -> str:
    """What the label says about an answer: required, required for some tiers, or nothing.
    An answer asked only of the tiers that require it is simply required where it shows."""
    if not answer.required_for:
        return ""
    shown_for = GROUP_TIERS.get(answer.group, PROPOSABLE_TIERS)
    required_where_shown = answer.required_for & shown_for
    if required_where_shown == shown_for:
        return "required"
    # Not the tiers' names: a label that repeats "Core" would answer to the Core choice's name.
    if required_where_shown == PRIMARY_TIERS:
        return "required for primary sources"
    return "required for some tiers"


def _too_long(limit: int) -> str:
    return f"This answer has %(show_value)s characters; at most {limit:,} fit. Please shorten it."


SOURCE_TITLES_LIST = "catalog-titles"


class ProposalForm(forms.ModelForm):
    """The questions come from the answers' declaration; only choices and widgets are set here."""

    url = forms.CharField(widget=forms.URLInput(attrs={"autocomplete": "url"}))
    topics = forms.ModelMultipleChoiceField(
        queryset=Topic.objects.order_by("position", "name"), widget=forms.CheckboxSelectMultiple
    )
    tier = proposable_tiers(PROPOSABLE_TIERS)
    basis = forms.ChoiceField(choices=PRIMARY_BASES, widget=forms.RadioSelect)
    after_source = SourceByTitleField(datalist=SOURCE_TITLES_LIST)
    replaces = SourceByTitleField(datalist=SOURCE_TITLES_LIST)

    class Meta:
        model = Proposal
        fields = [answer.name for answer in ANSWERS]
        widgets = {
            answer.name: forms.Textarea(attrs={"rows": answer.rows})
            for answer in ANSWERS
            if answer.rows
        } | {"year": forms.NumberInput(attrs={"inputmode": "numeric"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for answer in ANSWERS:
            self._ask(self.fields[answer.name], answer)
        self._add_live_check()
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [
            (value, label) for value, label in Source.Kind.choices if value != Source.Kind.WATCH
        ]
        # The tier radios are keyed by slug; a saved proposal's initial value is its tier's pk.
        if self.instance.tier_id and self.initial.get("tier") == self.instance.tier_id:
            self.initial["tier"] = self.instance.tier.slug
        self.duplicates: DuplicateReport | None = None

    @staticmethod
    def _ask(field: forms.Field, answer: Answer) -> None:
        field.label = answer.label
        field.help_text = answer.help_text
        # The field template reads the marker from the field; Django's Field has no such slot.
        field.requirement = requirement(answer)  # type: ignore[attr-defined]
        # Django sets Field.template_name in __init__; the stubs declare only the argument.
        field.template_name = FIELD_TEMPLATE  # type: ignore[attr-defined]
        field.required = answer.always_required
        if answer.required_message:
            field.error_messages["required"] = answer.required_message
        if answer.max_length:
            field.widget.attrs["maxlength"] = answer.max_length
            field.error_messages["max_length"] = _too_long(answer.max_length)
        # The page marks answers some tiers require; the browser checks only the always-required.
        if answer.required_for and not answer.always_required:
            field.widget.attrs["data-required-for"] = " ".join(sorted(answer.required_for))

    def _add_live_check(self) -> None:
        # The live duplicate check; without JavaScript the "Check" button does the same. Both
        # post, so what is typed stays out of URLs and access logs.
        live_check = {
            "data-hx-post": reverse("proposals:propose-check"),
            "data-hx-target": "#duplicate-check",
            "data-hx-swap": "outerHTML",
            "data-hx-include": "#id_url, #id_title, #id_proposal",
            "data-hx-indicator": "#check-indicator",
            "data-hx-sync": "closest form:replace",
        }
        self.fields["url"].widget.attrs |= live_check | {
            "data-hx-trigger": "input changed delay:400ms"
        }
        self.fields["title"].widget.attrs |= live_check | {
            "data-hx-trigger": "input changed delay:600ms"
        }

    def sections(self) -> list[dict[str, Any]]:
        """The questions after the tier, URL, title and duplicate check, grouped as declared."""
        shown_apart = {"tier", "url", "title"}
        return [
            {
                "title": group,
                "slug": slugify(group),
                "note": GROUP_NOTES.get(group, ""),
                "tiers": " ".join(sorted(GROUP_TIERS.get(group, ()))),
                "fields": [self[name] for name in names if name not in shown_apart],
                "optional": not any(BY_NAME[name].required_for for name in names),
                "open": any(
                    BY_NAME[name].required_for or self._has_value_or_error(name) for name in names
                ),
            }
            for group, names in groups()
            if any(name not in shown_apart for name in names)
        ]

    def _has_value_or_error(self, name: str) -> bool:
        if self.is_bound:
            return bool(self.errors.get(name)) or bool(self.data.get(name))
        return bool(self.initial.get(name))

    def clean_url(self) -> str:
        url = clean_proposed_url(self.cleaned_data.get("url"))
        self.duplicates = find_duplicates(
            url=url,
            title=str(self.data.get("title") or ""),
            exclude_proposal=self.instance if self.instance.pk else None,
        )
        if self.duplicates.source:
            raise forms.ValidationError(
                f"This source is already in the catalog as “{self.duplicates.source.title}”."
            )
        if self.duplicates.proposal:
            raise forms.ValidationError(
                "This source has already been proposed and is waiting for a decision."
            )
        return url

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self._require_for_tier(cleaned)
        filled = [name for name in CLAIM_FIELDS if (cleaned.get(name) or "").strip()]
        if filled and len(filled) < len(CLAIM_FIELDS):
            raise forms.ValidationError(
                "A performance claim needs all five parts (hardware and software, workload, "
                "precision and algorithm, baseline, correctness method), or none: a number "
                "missing any of them is left out.",
                code="partial_claim",
            )
        return cleaned

    def _require_for_tier(self, cleaned: dict[str, Any]) -> None:
        """Answers only some tiers require are checked once the tier is known; answers the
        chosen tier does not ask for are dropped, so a hidden answer is never stored."""
        tier = cleaned.get("tier")
        if tier is None:
            return
        for answer in ANSWERS:
            if not asked_for_tier(answer, tier.slug):
                field = self.fields[answer.name]
                cleaned[answer.name] = (
                    None if isinstance(field, SourceByTitleField) else field.to_python("")
                )
                self.errors.pop(answer.name, None)
                continue
        for name, message in missing_for_tier(tier.slug, cleaned).items():
            if name not in self.errors and not BY_NAME[name].always_required:
                self.add_error(name, message)

    def answers(self) -> tuple[QuerySet[Topic], dict[str, Any]]:
        """What the services take: every answer except the topics, which are passed apart."""
        data = dict(self.cleaned_data)
        topics = data.pop("topics")
        return topics, {name: data[name] for name in self.Meta.fields if name != "topics"}


class CheckForm(forms.Form):
    """The live duplicate check: both fields optional, errors shown in the partial."""

    url = forms.CharField(required=False, strip=True)
    title = forms.CharField(required=False, max_length=BY_NAME["title"].max_length, strip=True)
    proposal = forms.IntegerField(required=False, min_value=1)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": "Give the proposer a reason."},
        help_text="The proposer reads this, and accepted and rejected reasons are published in "
        "the decision log.",
    )


class AcceptForm(forms.Form):
    """What a maintainer may correct before the source is created."""

    title = forms.CharField(max_length=BY_NAME["title"].max_length)
    url = forms.CharField(label="URL", max_length=URL_MAX_LENGTH)
    kind = forms.ChoiceField(choices=Source.Kind.choices)
    authors = forms.CharField(max_length=BY_NAME["authors"].max_length, required=False)
    year = forms.IntegerField(min_value=MIN_YEAR, max_value=MAX_YEAR, required=False)
    venue = forms.CharField(max_length=BY_NAME["venue"].max_length, required=False)
    basis = forms.ChoiceField(choices=Source.Basis.choices)
    tier = forms.ModelChoiceField(queryset=Tier.objects.order_by("position"), empty_label=None)
    topics = forms.ModelMultipleChoiceField(
        queryset=Topic.objects.order_by("position", "name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    summary = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    after_source = forms.ModelChoiceField(
        label="Insert after",
        queryset=_source_choices(),
        required=False,
        help_text="The new source takes the next position in the section that holds this one.",
    )
    reason = forms.CharField(
        label="Note to the proposer (optional)",
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
    )

    def clean_url(self) -> str:
        return clean_proposed_url(self.cleaned_data.get("url"))

    @classmethod
    def initial_for(cls, proposal: Proposal) -> dict[str, Any]:
        initial: dict[str, Any] = {"after_source": proposal.after_source_id}
        for source_field in COPIED_TO_SOURCE:
            if source_field == "topics":
                initial[source_field] = [topic.pk for topic in proposal.topics.all()]
            elif source_field == "tier":
                initial[source_field] = proposal.tier_id
            else:
                initial[source_field] = proposal.value_for_source(source_field)
        # What the proposer left empty, the fetched metadata may know.
        fetched = proposal.fetched_metadata or {}
        for name in ("authors", "year", "venue"):
            initial[name] = initial.get(name) or fetched.get(name)
        return initial

    def overrides(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("reason")
        return data


class AlertForm(forms.ModelForm):
    class Meta:
        model = MaintainerAlert
        fields = ["daily_email"]
