"""The notes' speed trick, switchable off by name for bench_tricks (docs/speed.md)."""

from contextlib import AbstractContextManager

from django.utils.safestring import SafeString

from readinglist.markdown import as_markup, render_markdown
from readinglist.speed_tricks import swapped

from .models import Note


def markdown_per_view() -> AbstractContextManager[None]:
    """A note's Markdown rendered every time it is shown, rather than once when it is saved."""

    def rendered(note: Note) -> SafeString:
        return as_markup(render_markdown(note.body))

    return swapped(Note, "body_markup", property(rendered))
