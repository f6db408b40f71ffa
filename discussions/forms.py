from collections.abc import Iterable
from typing import Any

from django import forms

from teams.models import Team

from . import mentions
from .models import NotificationSettings, Reply, Thread


def _normalise_newlines(text: str) -> str:
    # Browsers send textarea line breaks as CRLF; count and store one character per break.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _limited(text: str | None, limit: int, what: str) -> str:
    text = _normalise_newlines(text or "")
    if len(text) > limit:
        raise forms.ValidationError(
            f"{what} is {len(text):,} characters long; the limit is {limit:,}. "
            f"Shorten it by {len(text) - limit:,} and send it again (your text is kept here).",
            code="too_long",
        )
    return text


def _check_mentions(text: str) -> None:
    try:
        mentions.check_count(text)
    except mentions.TooManyMentions as error:
        raise forms.ValidationError(str(error), code="too_many_mentions") from error


class _TextForm(forms.Form):
    """No maxlength in the browser: it would silently cut a long paste. The server says how
    long the text is and keeps all of it in the form."""

    def __init__(self, *args: Any, prefix_id: str, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        # A page can hold several forms (start a thread, reply, edits): ids stay unique.
        self.auto_id = f"{prefix_id}-%s"


class ThreadForm(_TextForm):
    team = forms.ChoiceField(label="Team")
    title = forms.CharField(label="Title or question", strip=True)
    body = forms.CharField(
        label="Message (optional)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Markdown. Mention a teammate with @name. Up to 20,000 characters.",
    )
    quote_exact = forms.CharField(
        label="Quoted passage (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The exact words, so the link can open the source at them.",
    )
    quote_prefix = forms.CharField(
        label="Words just before it (optional)", required=False, strip=False
    )
    quote_suffix = forms.CharField(
        label="Words just after it (optional)", required=False, strip=False
    )
    is_question = forms.BooleanField(label="This is a question", required=False)

    def __init__(
        self, *args: Any, teams: Iterable[Team], editing: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = list(teams)
        team = self.fields["team"]
        assert isinstance(team, forms.ChoiceField)
        team.choices = [(t.slug, t.name) for t in self.teams]
        if len(self.teams) == 1:
            self.initial.setdefault("team", self.teams[0].slug)
        if editing:
            # A thread stays in the team it was started in.
            del self.fields["team"]

    def clean_title(self) -> str:
        title = " ".join((self.cleaned_data.get("title") or "").split())
        return _limited(title, Thread.TITLE_MAX, "The title")

    def clean_body(self) -> str:
        return _limited(self.cleaned_data.get("body"), Thread.BODY_MAX, "Your message")

    def clean_quote_exact(self) -> str:
        return _limited(self.cleaned_data.get("quote_exact"), Thread.QUOTE_MAX, "The quote").strip()

    def clean_quote_prefix(self) -> str:
        return _limited(
            self.cleaned_data.get("quote_prefix"), Thread.CONTEXT_MAX, "The words before"
        )

    def clean_quote_suffix(self) -> str:
        return _limited(
            self.cleaned_data.get("quote_suffix"), Thread.CONTEXT_MAX, "The words after"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "team" in self.fields and data.get("team"):
            # The choices hold only the author's own teams, so a foreign slug never gets here.
            data["team"] = next(t for t in self.teams if t.slug == data["team"])
        try:
            _check_mentions(f"{data.get('title', '')}\n{data.get('body', '')}")
        except forms.ValidationError as error:
            self.add_error("body", error)
        return data


class ReplyForm(_TextForm):
    body = forms.CharField(
        label="Reply",
        strip=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Markdown. Mention a teammate with @name. Up to 20,000 characters.",
    )

    def clean_body(self) -> str:
        body = _limited(self.cleaned_data.get("body"), Reply.BODY_MAX, "Your reply")
        if not body.strip():
            raise forms.ValidationError("Write something in the reply.", code="required")
        _check_mentions(body)
        return body


class EmailModeForm(forms.Form):
    """The reader's own choice only: the view saves it for the signed-in reader, so nothing
    posted can name another reader."""

    email_mode = forms.ChoiceField(
        label="Email me about replies and mentions",
        choices=NotificationSettings.EmailMode.choices,
        widget=forms.RadioSelect,
    )
