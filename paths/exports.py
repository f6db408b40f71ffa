"""A path as a file: a Markdown list a person could paste into a README, and (through the
catalog's own citation code) BibTeX and CSL-JSON, all in path order."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest

from catalog.models import Source
from library.exports import markdown_text

from .models import Path, PathStep


def path_sources(path: Path) -> list[Source]:
    """The path's sources in its order (one query)."""
    steps = path.steps.select_related("source__tier").order_by("position", "pk")
    return [step.source for step in steps]


def _byline(source: Source) -> str:
    parts = [" ".join(source.authors.split()), str(source.year) if source.year else ""]
    return ", ".join(markdown_text(part) for part in parts if part)


def _step_lines(number: int, step: PathStep, request: HttpRequest) -> list[str]:
    source = step.source
    link = source.url or request.build_absolute_uri(source.get_absolute_url())
    byline = _byline(source)
    first = f"{number}. [{markdown_text(source.title)}](<{link}>)"
    lines = [f"{first} — {byline}" if byline else first]
    # The note is the author's Markdown already: indented, it stays inside its list item.
    for line in step.note.strip().splitlines():
        lines.append(f"   {line}".rstrip())
    return lines


def path_markdown(path: Path, request: HttpRequest) -> str:
    """## a heading per named section, a numbered list of links with authors and year, each
    step's note indented beneath it. Numbers run along the whole path."""
    steps = PathStep.objects.select_related("source").order_by("position", "pk")
    sections = path.sections.order_by("position", "pk").prefetch_related(
        Prefetch("steps", queryset=steps)
    )
    page = request.build_absolute_uri(path.get_absolute_url())
    lines = [f"# {markdown_text(path.title)}", "", f"A reading path from <{page}>.", ""]
    number = 0
    for section in sections:
        section_steps = list(section.steps.all())
        if not section_steps and not section.title:
            continue
        if section.title:
            lines += [f"## {markdown_text(section.title)}", ""]
        for step in section_steps:
            number += 1
            lines += _step_lines(number, step, request)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
