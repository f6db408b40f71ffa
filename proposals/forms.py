"""Forms for proposing sources and deciding proposals. The rules are stated in our own words."""

from django import forms
from django.core.validators import URLValidator
from django.urls import reverse

from catalog.models import Source, Tier, Topic
from catalog.urlcanon import InvalidURL, canonical_url

from .duplicates import find_duplicates
from .fields import (
    ANSWERS,
    BY_NAME,
    CLAIM_FIELDS,
    COPIED_TO_SOURCE,
    GROUP_NOTES,
    PROPOSABLE_TIERS,
    groups,
)
from .models import PRIMARY_BASES, REASON_MAX_LENGTH, URL_MAX_LENGTH, Proposal

_http_url = URLValidator(schemes=["http", "https"])


def clean_proposed_url(raw: str | None) -> str:
    url = (raw or "").strip()
    if len(url) > URL_MAX_LENGTH:
        raise forms.ValidationError(
            f"A URL can be at most {URL_MAX_LENGTH:,} characters; this one has {len(url):,}."
        )
    try:
        url = canonical_url(url)
        _http_url(url)
    except (InvalidURL, forms.ValidationError) as exc:
        raise forms.ValidationError(
            "Enter the full address of the source, starting with http:// or https://."
        ) from exc
    return url


def _source_choices():
    return Source.objects.published().only("pk", "title").order_by("title")


def _too_long(limit: int):
    return f"This answer has %(show_value)s characters; at most {limit:,} fit. Please shorten it."


class ProposalForm(forms.ModelForm):
    """The questions come from the answers' declaration; only choices and widgets are set here."""

    url = forms.CharField(widget=forms.URLInput(attrs={"autocomplete": "url"}))
    topics = forms.ModelMultipleChoiceField(
        queryset=Topic.objects.order_by("position", "name"), widget=forms.CheckboxSelectMultiple
    )
    tier = forms.ModelChoiceField(
        queryset=Tier.objects.filter(slug__in=PROPOSABLE_TIERS).order_by("position"),
        empty_label=None,
    )
    basis = forms.ChoiceField(choices=PRIMARY_BASES, widget=forms.RadioSelect)
    after_source = forms.ModelChoiceField(
        queryset=_source_choices(),
        empty_label="Choose the source a reader should finish first",
    )
    replaces = forms.ModelChoiceField(
        queryset=_source_choices(), empty_label="None: it adds something new"
    )

    class Meta:
        model = Proposal
        fields = [answer.name for answer in ANSWERS]
        widgets = {
            answer.name: forms.Textarea(attrs={"rows": answer.rows})
            for answer in ANSWERS
            if answer.rows
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for answer in ANSWERS:
            self._ask(self.fields[answer.name], answer)
        self._add_live_check()
        self.fields["kind"].choices = [
            (value, label) for value, label in Source.Kind.choices if value != Source.Kind.WATCH
        ]
        self.duplicates = None

    @staticmethod
    def _ask(field, answer):
        field.label = answer.label
        field.help_text = answer.help_text
        field.required = answer.always_required
        if answer.required_message:
            field.error_messages["required"] = answer.required_message
        if answer.max_length:
            field.widget.attrs["maxlength"] = answer.max_length
            field.error_messages["max_length"] = _too_long(answer.max_length)

    def _add_live_check(self):
        # The live duplicate check; without JavaScript the "Check" button does the same.
        live_check = {
            "hx-get": reverse("proposals:propose-check"),
            "hx-target": "#duplicate-check",
            "hx-swap": "outerHTML",
            "hx-include": "#id_url, #id_title, #id_proposal",
            "hx-indicator": "#check-indicator",
            "hx-sync": "closest form:replace",
        }
        self.fields["url"].widget.attrs |= live_check | {"hx-trigger": "input changed delay:400ms"}
        self.fields["title"].widget.attrs |= live_check | {
            "hx-trigger": "input changed delay:600ms"
        }

    def sections(self) -> list[dict]:
        """The questions after the URL, title and duplicate check, grouped as declared."""
        shown_above = {"url", "title"}
        return [
            {
                "title": group,
                "note": GROUP_NOTES.get(group, ""),
                "fields": [self[name] for name in names if name not in shown_above],
                "optional": not any(BY_NAME[name].required_for for name in names),
            }
            for group, names in groups()
        ]

    def clean_url(self):
        url = clean_proposed_url(self.cleaned_data.get("url"))
        self.duplicates = find_duplicates(
            url=url, exclude_proposal=self.instance if self.instance.pk else None
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

    def clean(self):
        cleaned = super().clean()
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

    def _require_for_tier(self, cleaned):
        """Answers only some tiers require are checked once the tier is known."""
        tier = cleaned.get("tier")
        if tier is None:
            return
        for answer in ANSWERS:
            needed = tier.slug in answer.required_for and not answer.always_required
            if needed and answer.name not in self.errors and not cleaned.get(answer.name):
                message = answer.required_message or f"A {tier.name} source needs this."
                self.add_error(answer.name, message)

    def answers(self):
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

    def clean_url(self):
        return clean_proposed_url(self.cleaned_data.get("url"))

    @classmethod
    def initial_for(cls, proposal: Proposal) -> dict:
        initial = {"after_source": proposal.after_source_id}
        for source_field, answer in COPIED_TO_SOURCE.items():
            if source_field == "topics":
                initial[source_field] = [topic.pk for topic in proposal.topics.all()]
            else:
                initial[source_field] = proposal.serializable_value(answer)
        return initial

    def overrides(self):
        data = dict(self.cleaned_data)
        data.pop("reason")
        return data
