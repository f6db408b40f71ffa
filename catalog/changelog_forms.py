from django import forms

from .models import ChangeLogEntry


class ChangeFilterForm(forms.Form):
    """Filters of /changes/. An unknown kind shows everything and says so, never an error page."""

    kind = forms.ChoiceField(
        required=False,
        label="Kind of change",
        choices=[("", "All changes"), *ChangeLogEntry.Kind.choices],
    )

    def kind_or_all(self) -> str:
        return self.cleaned_data.get("kind", "") if self.is_valid() else ""
