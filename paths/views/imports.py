"""/paths/import/: a Markdown list of links (pasted or a .md/.txt file) matched to the catalog,
previewed, then saved as a new path or added to one the reader may edit.

The text travels in the form itself (an uploaded file comes back as the text it holds), so a
preview, an error or a save never loses what was typed."""

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts.requests import AuthenticatedHttpRequest
from readinglist.views import login_required_htmx

from ..filling import PlannedSection, fill_path, left_out_message
from ..importing import ImportedLink, ImportResult, as_text, match_markdown
from ..models import ChangeAction, Path
from ..ownership import OwnerForm
from ..services import create_path, record

MAX_UPLOAD = 1024 * 1024
TEXT_MAX = 1_500_000


class ImportForm(OwnerForm):
    text = forms.CharField(
        label="Markdown with links",
        required=False,
        max_length=TEXT_MAX,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text="An awesome-list README, a wiki page: headings become the path's sections.",
    )
    file = forms.FileField(
        label="Or a file (.md or .txt, at most 1 MB)",
        required=False,
        widget=forms.ClearableFileInput(
            attrs={"accept": ".md,.markdown,.txt,text/markdown,text/plain"}
        ),
    )
    into = forms.ChoiceField(label="Save to", required=False)
    title = forms.CharField(label="Title of the new path", max_length=200, required=False)

    field_order = ["text", "file", "into", "title", "owner", "visibility"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = kwargs["user"]
        self.editable = {p.key: p for p in Path.objects.editable_by(user).order_by("title")}
        into = self.fields["into"]
        assert isinstance(into, forms.ChoiceField)
        into.choices = [("", "A new path")] + [
            (key, f"Add to “{p.title}”") for key, p in self.editable.items()
        ]

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload and (upload.size or 0) > MAX_UPLOAD:
            size = (upload.size or 0) / 1024 / 1024
            raise forms.ValidationError(
                f"The file is {size:.1f} MB; at most 1 MB can be imported. Split it, or paste "
                "the part you want."
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload:
            text, problem = as_text(upload.read())
            if problem:
                self.add_error("file", problem)
            else:
                data["text"] = text
        elif not data.get("text", "").strip() and not self.errors:
            self.add_error("text", "Paste a Markdown list of links, or choose a file.")
        return data

    @property
    def target(self) -> Path | None:
        return self.editable.get(self.cleaned_data.get("into") or "")


def propose_url(link: ImportedLink) -> str:
    params = {"url": link.url} | ({"title": link.text} if link.text != link.url else {})
    return f"{reverse('proposals:propose')}?{urlencode(params)}"


def plan_of(result: ImportResult) -> list[PlannedSection]:
    """Runs of matched links under one heading are one section, in the text's order."""
    plan: list[PlannedSection] = []
    for link in result.matched:
        title = link.section or ""
        if not plan or plan[-1].title != title:
            plan.append(PlannedSection(title))
        assert link.source is not None
        plan[-1].steps.append((link.source.pk, ""))
    return plan


@login_required_htmx
@require_http_methods(["GET", "POST"])
def import_links(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        form = ImportForm(user=request.user, initial={"into": request.GET.get("into", "")})
        return render(request, "paths/import.html", {"form": form})
    form = ImportForm(request.POST, request.FILES, user=request.user)
    if not form.is_valid():
        context = {"form": form, "text": _text(form)}
        return render(request, "paths/import.html", context, status=400)
    result = match_markdown(form.cleaned_data["text"])
    if request.POST.get("action") == "save":
        if not result.matched:
            form.add_error(None, "No link matched a catalog source: nothing to save.")
        elif form.target is None and not form.cleaned_data.get("title", "").strip():
            form.add_error("title", "Give the new path a title, or choose a path to add to.")
        else:
            return _save(request, form, result)
    context = {"form": form, "text": _text(form), "result": result, "previewed": True}
    context["unmatched"] = [(link, propose_url(link)) for link in result.unmatched]
    return render(request, "paths/import.html", context, status=400 if form.errors else 200)


def _text(form: ImportForm) -> str:
    """The text as it now stands: an uploaded file's text, else what was typed."""
    cleaned = getattr(form, "cleaned_data", {}).get("text")
    return cleaned if cleaned else form.data.get("text", "")


def _save(
    request: AuthenticatedHttpRequest, form: ImportForm, result: ImportResult
) -> HttpResponse:
    with transaction.atomic():
        path = form.target
        if path is None:
            path = create_path(
                request.user,
                form.cleaned_data["title"].strip(),
                team=form.team,
                visibility=form.path_visibility,
                section_titles=(),
            )
        filled = fill_path(path, request.user, plan_of(result))
        record(
            path,
            request.user,
            ChangeAction.IMPORTED,
            f"Imported {filled.added} step{'s' if filled.added != 1 else ''} from a Markdown list",
        )
    messages.success(request, f"Imported {filled.added} step{'s' if filled.added != 1 else ''}.")
    for note in [left_out_message(filled), *result.errors]:
        if note:
            messages.warning(request, note)
    if result.unmatched:
        messages.info(
            request,
            f"{len(result.unmatched)} link{'s' if len(result.unmatched) != 1 else ''} matched no "
            "catalog source and were not imported.",
        )
    return redirect(path.get_absolute_url())
