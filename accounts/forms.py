from typing import Any

from django import forms

from .models import User


def time_zone_choices() -> list[tuple[str, str]]:
    import zoneinfo

    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class ProfileForm(forms.ModelForm[User]):
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        help_text="Reading-group sessions are shown in this time zone.",
        required=False,
    )

    class Meta:
        model = User
        fields = ["display_name", "time_zone"]
        labels = {"display_name": "Display name"}

    def clean_time_zone(self) -> str:
        # A form that leaves the zone out keeps the one the reader had.
        return self.cleaned_data["time_zone"] or self.instance.time_zone or "UTC"


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="To confirm it is you.",
    )
    confirm = forms.BooleanField(
        label="I understand that my bookmarks, notes and account are deleted for good.",
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password
