"""A one-line progress bar for management commands, written to a stream (stderr by default)."""

import sys


class Progress:
    def __init__(self, total, label="", stream=None, width=30, enabled=True):
        self.total, self.label, self.width = max(total, 1), label, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.shown = -1
        self.enabled = enabled and total > 0

    def advance(self, step=1):
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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.enabled and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()
