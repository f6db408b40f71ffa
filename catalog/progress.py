"""A one-line progress bar for management commands, written to a stream (stderr by default)."""

import sys
from typing import Self, TextIO

from django.core.management.base import OutputWrapper


def raw_stream(output: OutputWrapper) -> TextIO:
    """The stream under a command's stdout or stderr: the bar redraws one line with a carriage
    return, and the wrapper would end every write with a newline."""
    # django-stubs declares no OutputWrapper._out, only a __getattr__ returning a callable.
    return output._out  # type: ignore[return-value]


class Progress:
    def __init__(
        self,
        total: int,
        label: str = "",
        stream: TextIO | None = None,
        width: int = 30,
        enabled: bool = True,
    ) -> None:
        self.total, self.label, self.width = max(total, 1), label, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.shown = -1
        self.enabled = enabled and total > 0

    def advance(self, step: int = 1) -> None:
        self.done = min(self.done + step, self.total)
        percent = 100 * self.done // self.total
        if self.enabled and percent != self.shown:
            self.shown = percent
            filled = self.width * self.done // self.total
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()
