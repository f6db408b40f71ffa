from typing import Any

from django import forms
from django.db.models import QuerySet

from catalog.models import ReadingList, Tier, Topic

from .models import Bookmark, DigestSettings
from .services import REMOVE

ACTION_CHOICES = [*Bookmark.Status.choices, (REMOVE, "Remove")]
ACTION_ERROR = "“%(value)s” is not a reading status. Choose To read, Reading, Read or Remove."


def catalog_filter(queryset: QuerySet, *, label: str, empty_label: str) -> forms.ModelChoiceField:
    """An optional filter on a catalog row, chosen by slug so the URL stays readable."""
    return forms.ModelChoiceField(
        label=label,
        queryset=queryset,
        to_field_name="slug",
        required=False,
        empty_label=empty_label,
    )


class BookmarkActionForm(forms.Form):
    status = forms.ChoiceField(
        choices=ACTION_CHOICES, error_messages={"invalid_choice": ACTION_ERROR}
    )
    next = forms.CharField(required=False, max_length=2000)
    # The control showed the source as not in the library: the write tries an insert first.
    unsaved = forms.BooleanField(required=False)


class BulkActionForm(forms.Form):
    action = forms.ChoiceField(
        label="Change selected to",
        choices=ACTION_CHOICES,
        error_messages={"invalid_choice": ACTION_ERROR},
    )
    bookmarks = forms.TypedMultipleChoiceField(
        coerce=int,
        error_messages={"required": "Select at least one source to change."},
    )
    next = forms.CharField(required=False, max_length=2000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Any integer is accepted here; ownership is checked by the view, which answers 404.
        ids = self.data.getlist("bookmarks") if hasattr(self.data, "getlist") else []
        bookmarks = self.fields["bookmarks"]
        assert isinstance(bookmarks, forms.TypedMultipleChoiceField)  # declared above
        bookmarks.choices = [(value, value) for value in ids]

    def clean_bookmarks(self) -> list[int]:
        return sorted(set(self.cleaned_data["bookmarks"]))

    def get_action_display(self) -> str:
        return str(dict(ACTION_CHOICES)[self.cleaned_data["action"]])


SORT_CHOICES = [("saved", "Date saved"), ("list", "List order"), ("title", "Title")]


class LibraryFilterForm(forms.Form):
    q = forms.CharField(label="Search", required=False, max_length=200)
    status = forms.ChoiceField(
        label="Status", choices=[("", "Any status"), *Bookmark.Status.choices], required=False
    )
    topic = catalog_filter(
        Topic.objects.order_by("position", "name"), label="Topic", empty_label="Any topic"
    )
    tier = catalog_filter(Tier.objects.all(), label="Tier", empty_label="Any tier")
    list = catalog_filter(ReadingList.objects.all(), label="Reading list", empty_label="Any list")
    sort = forms.ChoiceField(label="Sort by", choices=SORT_CHOICES, required=False)

    def filters(self) -> dict[str, Any]:
        """The valid filters; a bad value is reported on its field and the rest still apply."""
        self.is_valid()
        data = {name: self.cleaned_data.get(name) for name in self.fields}
        data["sort"] = data.get("sort") or "saved"
        return data

    @property
    def active(self) -> bool:
        return any(self.cleaned_data.get(name) for name in ("q", "status", "topic", "tier", "list"))


class DigestFrequencyForm(forms.Form):
    frequency = forms.ChoiceField(
        choices=DigestSettings.Frequency.choices,
        widget=forms.RadioSelect,
        label="Email digest of what you follow",
        error_messages={"invalid_choice": "Choose daily, weekly or off."},
    )

    def get_frequency_display(self) -> str:
        return DigestSettings.Frequency(self.cleaned_data["frequency"]).label
