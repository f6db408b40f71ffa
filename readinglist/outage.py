"""Telling "this machine has no network" from "that host failed", for batch jobs.

A job that reaches out to many hosts (link checks, feed collectors, DNS proofs of team domains)
must not record a failure against every host when the failures are this machine's own: no DNS,
no route. So a failure that reached no host waits here until some host answers; once one has,
the network works, and what waited is recorded as the hosts' own failures. If none ever answers,
the run was offline: nothing that waited is recorded, and the job says so and exits non-zero,
so cron and monitoring notice a run that did nothing.
"""

from collections.abc import Callable


class OutageWatch[T]:
    """Results of one run, recorded as they arrive except failures that reached no host, which
    wait until some host has answered."""

    def __init__(self, record: Callable[[T], None] | None = None) -> None:
        self._record = record or (lambda result: None)
        self.answered = False
        self.held: list[T] = []

    def arrived(self, result: T, *, reached: bool) -> None:
        """Record `result` now, or hold it while no host has answered yet. `reached` says
        whether this attempt got an answer (of any kind) from the host it asked."""
        if not reached and not self.answered:
            self.held.append(result)
            return
        self.answered = True
        for earlier in self.held:
            self._record(earlier)
        self.held.clear()
        self._record(result)

    @property
    def offline(self) -> bool:
        """Every attempt so far failed without an answer from any host."""
        return bool(self.held)

    def message(self, attempts: str, example: str) -> str:
        """What an offline run tells the operator: how many `attempts` failed, one reason."""
        return (
            f"No {attempts} was answered ({len(self.held)} tried, for example “{example}”). "
            "Is this machine offline? Nothing was recorded."
        )
