from collections.abc import Iterable
from typing import Any

from django import forms

from accounts.models import User
from catalog.models import ReadingList, Topic
from library.forms import catalog_filter
from teams.models import Team

from .models import Note


def _normalise_newlines(text: str) -> str:
    # Browsers send textarea line breaks as CRLF; count and store one character per break.
    return text.replace("\r\n", "\n").replace("\r", "\n")


PRIVATE = "private"


def _text_field(form: forms.BaseForm, name: str) -> forms.CharField:
    """A text column's form field: Django makes one a CharField (a Textarea for TextField)."""
    field = form.fields[name]
    assert isinstance(field, forms.CharField)
    return field


class NoteForm(forms.ModelForm[Note]):
    """A note's fields; `visibility` takes "private" or the slug of one of the author's teams."""

    visibility = forms.ChoiceField(label="Who can read it", widget=forms.RadioSelect)

    class Meta:
        model = Note
        fields = ["body", "quote", "locator", "visibility"]
        labels = {
            "body": "Note",
            "quote": "Quote (optional)",
            "locator": "Where (optional)",
        }
        help_texts = {
            "body": "Markdown: **bold**, _italic_, `code`, lists, links, > quotes. "
            "Up to 20,000 characters.",
            "quote": "A passage worth keeping, up to 2,000 characters.",
            "locator": "Page, section or figure, e.g. “p. 12” or “Figure 3”.",
        }
        widgets = {
            "body": forms.Textarea(attrs={"rows": 6}),
            "quote": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(
        self,
        *args: Any,
        user: User,
        teams: Iterable[Team] | None = None,
        prefix_id: str = "note",
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        # `teams` lets a page that already fetched the author's teams pass them in.
        self.teams = list(teams if teams is not None else Team.objects.filter(members=user))
        visibility = self.fields["visibility"]
        assert isinstance(visibility, forms.ChoiceField)  # declared above
        visibility.choices = [(PRIVATE, "Private (only you)")] + [
            (team.slug, f"{team.name} (its members, with your name)") for team in self.teams
        ]
        team_id = self.instance.team_id
        self.initial["visibility"] = next(
            (team.slug for team in self.teams if team.pk == team_id), PRIVATE
        )
        # A page can hold several note forms (add + edits); ids must stay unique.
        self.auto_id = f"{prefix_id}-%s"
        # No maxlength in the browser: it would silently cut a long paste. The server says
        # how long the text is and keeps all of it in the form.
        for name in ("body", "quote", "locator"):
            field = _text_field(self, name)
            field.widget.attrs.pop("maxlength", None)
            field.max_length = None
            field.validators = [v for v in field.validators if not hasattr(v, "limit_value")]
        _text_field(self, "body").strip = False

    def _limited(self, name: str, limit: int, what: str) -> str:
        text = _normalise_newlines(self.cleaned_data.get(name) or "")
        if len(text) > limit:
            raise forms.ValidationError(
                f"{what} is {len(text):,} characters long; the limit is {limit:,}. "
                f"Shorten it by {len(text) - limit:,} and save again (your text is kept here).",
                code="too_long",
            )
        return text

    def clean_body(self) -> str:
        body = self._limited("body", Note.BODY_MAX, "Your note")
        if not body.strip():
            raise forms.ValidationError("Write something in the note.", code="required")
        return body

    def clean_quote(self) -> str:
        return self._limited("quote", Note.QUOTE_MAX, "The quote").strip()

    def clean_locator(self) -> str:
        return self._limited("locator", Note.LOCATOR_MAX, "The locator").strip()

    def clean_visibility(self) -> str:
        # The choices hold only the author's own teams, so a foreign slug never gets this far.
        chosen = self.cleaned_data["visibility"]
        self.chosen_team = next((team for team in self.teams if team.slug == chosen), None)
        return Note.Visibility.TEAM if self.chosen_team else Note.Visibility.PRIVATE

    def clean(self) -> dict[str, Any]:
        # A model form's clean() returns its cleaned_data (and notes it for validate_unique).
        super().clean()
        self.cleaned_data["team"] = getattr(self, "chosen_team", None)
        return self.cleaned_data

    def validate_constraints(self) -> None:
        """Skipped: the fields above already check each of the model's check constraints, with
        messages a reader can act on, and the service checks them again before saving. Django
        checks each one with a query, so checking here too cost six more per save."""


class NoteFilterForm(forms.Form):
    q = forms.CharField(label="Search your notes", required=False, max_length=200)
    topic = catalog_filter(
        Topic.objects.order_by("parent__position", "position"),
        label="Topic",
        empty_label="All topics",
    )
    list = catalog_filter(ReadingList.objects.all(), label="Reading list", empty_label="All lists")
    visibility = forms.ChoiceField(
        label="Visibility",
        choices=[("", "Private and team"), ("private", "Private"), ("team", "Shared with a team")],
        required=False,
    )

    def filters(self) -> dict[str, Any]:
        """The valid filters; an invalid one is reported on the form and ignored."""
        self.is_valid()
        return {
            name: value
            for name, value in getattr(self, "cleaned_data", {}).items()
            if value not in (None, "")
        }
