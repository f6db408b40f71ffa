"""A reader's choice of mail before their teams' sessions: kept by teams, edited on the profile
page through the section it registers with accounts, and turned off from the mail itself."""

from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.models import User

from .models import ReminderSettings


class ReminderSettingsForm(forms.ModelForm[ReminderSettings]):
    class Meta:
        model = ReminderSettings
        fields = ["session_reminders"]
        labels = {"session_reminders": "Email me before my teams' reading-group sessions"}

    def render(
        self,
        template_name: str | None = None,
        context: dict[str, Any] | None = None,
        renderer: BaseRenderer | type[BaseRenderer] | None = None,
    ) -> SafeString:
        # The profile page shows it between its own fields, in the site's markup: the site's
        # templates, where Django's form renderer would look in its own folders only.
        return render_to_string("teams/includes/reminder_settings_form.html", {"form": self})


def reminder_settings_section(user: User, data: QueryDict | None) -> ReminderSettingsForm:
    """The profile's reminder section for `user`: their row, or the default a save creates."""
    settings_row = ReminderSettings.objects.filter(user=user).first()
    return ReminderSettingsForm(data, instance=settings_row or ReminderSettings(user=user))


def turn_reminders_off(reader: User) -> None:
    ReminderSettings.objects.update_or_create(user=reader, defaults={"session_reminders": False})
