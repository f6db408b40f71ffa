"""Forms for proposing sources and deciding proposals. The rules are stated in our own words."""

from django import forms
from django.core.validators import URLValidator
from django.urls import reverse

from .models import Proposal, Source, Tier, Topic
from .models.proposals import CLAIM_FIELDS, PRIMARY_BASES, URL_MAX_LENGTH
from .proposal_services import find_duplicates
from .urlcanon import InvalidURL, canonical_url

_http_url = URLValidator(schemes=["http", "https"])


def clean_proposed_url(raw):
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


class ProposalForm(forms.ModelForm):
    url = forms.CharField(
        label="URL",
        widget=forms.URLInput(attrs={"maxlength": URL_MAX_LENGTH, "autocomplete": "url"}),
        help_text="The address of the source itself: the paper, the specification, the "
        "repository or the report, not a post about it. arXiv abstract, PDF and HTML pages "
        "count as one source.",
    )
    topics = forms.ModelMultipleChoiceField(
        queryset=Topic.objects.order_by("position", "name"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Pick at least one topic."},
        help_text="The topics a reader would look under.",
    )
    tier = forms.ModelChoiceField(
        queryset=Tier.objects.exclude(slug=Tier.START_HERE).order_by("position"),
        empty_label=None,
        help_text="Core holds primary sources in reading order. Frontier holds fast-moving work "
        "that lacks a specification or paper, a shipped implementation or a reproducible "
        "measurement. Further reading holds the rest.",
    )
    basis = forms.ChoiceField(
        label="Why it is a primary source",
        choices=PRIMARY_BASES,
        widget=forms.RadioSelect,
        error_messages={"required": "Say which kind of primary source this is."},
        help_text="A core source must be one of these four. Commentary, summaries and vendor "
        "marketing are not primary sources.",
    )
    after_source = forms.ModelChoiceField(
        label="Where it belongs in the reading order",
        queryset=_source_choices(),
        empty_label="Choose the source a reader should finish first",
        error_messages={"required": "Say which source a reader should read before this one."},
        help_text="It comes right after this source.",
    )
    replaces = forms.ModelChoiceField(
        label="Which existing source it replaces",
        queryset=_source_choices(),
        required=False,
        empty_label="None: it adds something new",
        help_text="Only when it supersedes a source in the catalog.",
    )

    class Meta:
        model = Proposal
        fields = [
            "url",
            "title",
            "kind",
            "topics",
            "tier",
            "mechanism",
            "basis",
            "basis_explanation",
            "after_source",
            "replaces",
            *CLAIM_FIELDS,
            "conflict_of_interest",
        ]
        labels = {
            "mechanism": "What mechanism or idea it teaches",
            "basis_explanation": "How it meets that bar",
            "hardware_software": "Hardware and software versions",
            "workload": "Workload shapes or request distribution",
            "precision_algorithm": "Precision and algorithm",
            "baseline": "Baseline compared against",
            "correctness_method": "How correctness was checked",
            "conflict_of_interest": "Conflict of interest",
        }
        help_texts = {
            "title": "As the source itself titles it.",
            "mechanism": "One or two sentences: what a reader understands after reading it.",
            "basis_explanation": "For example: the paper that introduced the technique; the "
            "official documentation that defines the behaviour; the repository that implements "
            "it; or a report by the people who built it, with code, measurements and enough "
            "detail to reproduce.",
            "conflict_of_interest": "Say if you wrote it, work for its publisher or are paid to "
            "promote it. Leave empty if none.",
        }
        error_messages = {
            "title": {"required": "Give the title of the source."},
            "mechanism": {"required": "Say what mechanism or idea it teaches."},
            "basis_explanation": {"required": "Explain how it meets the primary-source bar."},
        }
        widgets = {
            "mechanism": forms.Textarea(attrs={"rows": 3}),
            "basis_explanation": forms.Textarea(attrs={"rows": 3}),
            **{name: forms.Textarea(attrs={"rows": 2}) for name in CLAIM_FIELDS},
            "conflict_of_interest": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].widget.attrs["maxlength"] = 300
        # The live duplicate check; without JavaScript the "Check" button does the same.
        live_check = {
            "hx-get": reverse("catalog:propose-check"),
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
        self.fields["kind"].choices = [
            (value, label) for value, label in Source.Kind.choices if value != Source.Kind.WATCH
        ]
        self.duplicates = None

    @property
    def claim_fields(self):
        return [self[name] for name in CLAIM_FIELDS]

    @property
    def answer_fields(self):
        skip = {"url", "title", *CLAIM_FIELDS}
        return [bound for bound in self if bound.name not in skip]

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
        filled = [name for name in CLAIM_FIELDS if (cleaned.get(name) or "").strip()]
        if filled and len(filled) < len(CLAIM_FIELDS):
            raise forms.ValidationError(
                "A performance claim needs all five parts (hardware and software, workload, "
                "precision and algorithm, baseline, correctness method), or none: a number "
                "missing any of them is left out.",
                code="partial_claim",
            )
        return cleaned

    def answers(self):
        """What the services take: every answer except the topics, which are passed apart."""
        data = dict(self.cleaned_data)
        topics = data.pop("topics")
        return topics, {name: data[name] for name in self.Meta.fields if name != "topics"}


class CheckForm(forms.Form):
    """The live duplicate check: both fields optional, errors shown in the partial."""

    url = forms.CharField(required=False, strip=True)
    title = forms.CharField(required=False, max_length=300, strip=True)
    proposal = forms.IntegerField(required=False, min_value=1)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": "Give the proposer a reason."},
        help_text="The proposer reads this, and accepted and rejected reasons are published in "
        "the decision log.",
    )


class AcceptForm(forms.Form):
    """What a maintainer may correct before the source is created."""

    title = forms.CharField(max_length=300)
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
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
    )

    def clean_url(self):
        return clean_proposed_url(self.cleaned_data.get("url"))

    @classmethod
    def initial_for(cls, proposal):
        return {
            "title": proposal.title,
            "url": proposal.url,
            "kind": proposal.kind,
            "basis": proposal.basis,
            "tier": proposal.tier_id,
            "topics": [topic.pk for topic in proposal.topics.all()],
            "summary": proposal.mechanism,
            "after_source": proposal.after_source_id,
        }

    def overrides(self):
        data = dict(self.cleaned_data)
        data.pop("reason")
        return data
