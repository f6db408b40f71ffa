"""Owners choose the reading lists the team reads along (shown as progress on the team page)."""

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from accounts.requests import AuthenticatedHttpRequest
from catalog.models import ReadingList

from .access import member_team, owner_action
from .models import FollowedList, Team


class FollowListForm(forms.Form):
    reading_list = forms.ModelChoiceField(
        label="Reading list to follow",
        queryset=ReadingList.objects.none(),
        empty_label="Choose a reading list",
    )

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["reading_list"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = ReadingList.objects.exclude(team_follows__team=team).order_by(
            "position", "title"
        )


def _progress_url(team: Team) -> str:
    return f"{team.get_absolute_url()}#progress"


@owner_action
@require_POST
def follow_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    form = FollowListForm(request.POST, team=team)
    if not form.is_valid():
        messages.error(request, "Choose one of the reading lists the team does not follow yet.")
        return redirect(_progress_url(team))
    reading_list = form.cleaned_data["reading_list"]
    # Chosen twice at once (two tabs): get_or_create keeps the one row either way.
    FollowedList.objects.get_or_create(
        team=team, reading_list=reading_list, defaults={"added_by": request.user}
    )
    messages.success(request, f"The team now follows {reading_list.title}.")
    return redirect(_progress_url(team))


@owner_action
@require_POST
def unfollow_list(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    team, _ = member_team(request, slug, owner=True)
    followed = get_object_or_404(
        FollowedList.objects.select_related("reading_list"), team=team, pk=pk
    )
    followed.delete()
    messages.success(
        request,
        f"The team no longer follows {followed.reading_list.title}; nobody's reading changed.",
    )
    return redirect(_progress_url(team))
