"""Adding or editing a team's own source: a title, and a URL or a file (or both), with the
catalog's fields. Editing uses the same form, given the row it changes.

The URL is checked for form only; it may name an intranet host, and nothing here fetches it.
"""

from typing import Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from catalog.identity import work_keys_or_empty
from catalog.models import Source
from catalog.urlcanon import canonical_url_or_error

from .extraction import Extracted, UnreadableFile, extract
from .models import TeamSource


class TeamSourceForm(forms.Form):
    title = forms.CharField(max_length=300)
    url = forms.CharField(
        label="URL",
        max_length=2000,
        required=False,
        help_text="May be an intranet address: the site never opens it.",
    )
    file = forms.FileField(
        required=False,
        label="Or a file",
        help_text="A PDF or Markdown file. It is seen only by the team.",
        widget=forms.ClearableFileInput(attrs={"accept": ".pdf,.md,.markdown,application/pdf"}),
    )
    kind = forms.ChoiceField(choices=Source.Kind.choices, initial=Source.Kind.DOCUMENTATION)
    authors = forms.CharField(max_length=300, required=False)
    year = forms.IntegerField(required=False, min_value=1900, max_value=2100)
    summary = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def __init__(
        self,
        *args: Any,
        team: Any,
        too_large: bool = False,
        editing: TeamSource | None = None,
        **kwargs: Any,
    ) -> None:
        if editing is not None:
            kwargs.setdefault("initial", initial_of(editing))
        super().__init__(*args, **kwargs)
        self.team = team
        # The row being edited: its own URL is no duplicate, and its file may stay.
        self.editing = editing
        if editing is not None and editing.file:
            self.fields["file"].label = "Replace the file"
            self.fields["file"].help_text = (
                "Leave empty to keep the current file. A PDF or Markdown file, seen only by "
                "the team."
            )
        # The upload handler dropped a file past the limit before the form saw it.
        self.too_large = too_large
        self.extracted: Extracted | None = None
        # The catalog's own source, when the reader adds one it already has.
        self.in_catalog: Source | None = None
        self.in_team: TeamSource | None = None

    def clean_url(self) -> str:
        raw = self.cleaned_data["url"].strip()
        if not raw:
            return ""
        url, error = canonical_url_or_error(raw)
        if error:
            raise forms.ValidationError(error)
        return url

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if self.too_large or (upload and upload.size > settings.TEAM_SOURCE_MAX_BYTES):
            limit = filesizeformat(settings.TEAM_SOURCE_MAX_BYTES)
            raise forms.ValidationError(f"This file is larger than {limit}: upload a smaller one.")
        if not upload:
            return upload
        try:
            self.extracted = extract(upload, upload.name or "")
        except UnreadableFile as exc:
            raise forms.ValidationError(str(exc)) from None
        upload.seek(0)
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        url = data.get("url", "")
        has_file = data.get("file") or (self.editing is not None and self.editing.file)
        if not url and not has_file and not self.errors:
            raise forms.ValidationError("Give the source's URL, or upload its file.")
        # An edit that keeps its URL is no new duplicate, even if the catalog has since
        # gained the same source.
        if url and (self.editing is None or url != self.editing.source.url):
            self._check_duplicates(url)
        if "file" not in self.errors and self.files.get("file") and self.errors:
            # Browsers never keep a chosen file when a form comes back: say so.
            self.add_error("file", "Choose the file again: browsers do not keep it.")
        return data

    def _check_duplicates(self, url: str) -> None:
        keys = work_keys_or_empty(url)
        found = Source.objects.identified_by(keys)
        if found:
            self.in_catalog = found[0][0]
            self.add_error("url", "The catalog already has this source: read it there.")
            return
        mine = TeamSource.objects.filter(team=self.team, source__url__iexact=url)
        if self.editing is not None:
            mine = mine.exclude(pk=self.editing.pk)
        self.in_team = mine.select_related("source").first()
        if self.in_team is not None:
            self.add_error("url", "Your team has already added this source.")


class FromPageForm(TeamSourceForm):
    """A page the catalog lacks, added for one of the reader's teams from the save page. The
    passage the reader brought rides along unseen, so it is still there once the page is the
    team's: the save page then offers the thread (and a note) on it."""

    team = forms.ChoiceField(label="Team")
    quote = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)
    prefix = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)
    suffix = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)
    field_order = ["team", "title", "url", "kind"]

    def __init__(self, *args: Any, teams: list[Any], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "from-page-%s")
        super().__init__(*args, team=None, **kwargs)
        # The page's address and title came from the page: nothing to upload.
        for name in ("file", "authors", "year", "summary"):
            del self.fields[name]
        self.teams = teams
        team = self.fields["team"]
        assert isinstance(team, forms.ChoiceField)
        team.choices = [(t.slug, t.name) for t in teams]
        if len(teams) == 1:
            self.initial.setdefault("team", teams[0].slug)

    def clean(self) -> dict[str, Any]:
        # The choices hold only the reader's own teams, so a foreign slug never gets here.
        chosen = self.cleaned_data.get("team")
        self.team = next((team for team in self.teams if team.slug == chosen), None)
        return super().clean()


FIELDS = ("title", "url", "kind", "authors", "year", "summary")


def initial_of(row: TeamSource) -> dict[str, Any]:
    """The form's fields as the source has them now (the file is shown apart, never prefilled:
    its stored name is nobody's business)."""
    return {name: getattr(row.source, name) for name in FIELDS}
