"""The progress of a long command on standard error: coups done, the share of the whole, the time left.

``check`` counts bytes of its transcripts (its coups are not known before they
are read), ``simulate`` its coups.  A bar is shown only when asked for, which
by default is when standard error is a terminal; rich is imported only then.

With ``-j``, the worker processes add what they have checked to two counters
the parent shares with them (:func:`shared_counts`); the parent looks at them
a few times a second, so a single large file cut into chunks shows its coups
as they are checked, not when every chunk is done.
"""

from __future__ import annotations

import sys
import threading

#: seconds between two looks at the workers' counters
POLL = 0.2


class Progress:
    """A bar of ``total`` units (bytes, coups), with the coups done and the time left.

    What this process does itself is told with :meth:`advance` / :meth:`set`;
    what worker processes do is read from the counters given to :meth:`follow`.
    When the work is done, :meth:`complete` shows the exact totals.
    """

    def __init__(self, total: int, enabled: bool, description: str = "", console=None):
        self.total = max(total, 1)
        self.coups = 0  # done in this process (or counted from finished work)
        self.done = 0  # units done, likewise
        self.shared = None  # the workers' (coups, units), when they count for the bar
        self.final: tuple[int, int] | None = None
        self.bar = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        self.bar = Bar(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                       TextColumn("{task.fields[coups]:,} coups"), TimeElapsedColumn(), TextColumn("ETA"),
                       TimeRemainingColumn(), console=console or Console(file=sys.stderr), transient=True)
        self.task = self.bar.add_task(description, total=self.total, coups=0)

    def __enter__(self):
        if self.bar:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._poller is not None:
            self._poller.join()
        if self.bar:
            self.bar.__exit__(*exc)

    # -- what is done

    def set(self, coups: int, done: int) -> None:
        with self._lock:
            self.coups, self.done = coups, done
        self.refresh()

    def advance(self, coups: int, done: int) -> None:
        with self._lock:
            self.coups += coups
            self.done += done
        self.refresh()

    def follow(self, shared) -> None:
        """Show the counts of worker processes (a ``multiprocessing`` array: coups, units) from now on."""
        self.shared = shared
        if self.bar and self._poller is None:
            self._poller = threading.Thread(target=self._poll, name="progress", daemon=True)
            self._poller.start()

    def complete(self, coups: int) -> None:
        """Everything is done: ``coups`` in all, every unit."""
        self.final = (coups, self.total)
        self.refresh()

    def describe(self, text: str) -> None:
        if self.bar:
            self.bar.update(self.task, description=text)

    # -- what is shown

    def state(self) -> tuple[int, int]:
        """(coups, units) as shown now."""
        if self.final is not None:
            return self.final
        with self._lock:
            coups, done = self.coups, self.done
        if self.shared is not None:
            coups, done = coups + self.shared[0], done + self.shared[1]
        return coups, min(done, self.total)

    def refresh(self) -> None:
        if self.bar:
            coups, done = self.state()
            self.bar.update(self.task, completed=done, coups=coups)

    def _poll(self) -> None:
        while not self._stop.wait(POLL):
            self.refresh()


def shared_counts(context):
    """Two counters (coups, units) that worker processes of ``context`` add to and the parent reads."""
    return context.Array("q", 2)


class Tally:
    """A worker's side of :func:`shared_counts`: adds what one unit of work has done as it goes."""

    def __init__(self, shared):
        self.shared = shared
        self.coups = self.done = 0

    def __call__(self, coups: int, done: int) -> None:
        """The unit has done ``coups`` and ``done`` units so far; told to the parent every 256 coups."""
        if coups & 255 == 0:
            self.add(coups, done)

    def add(self, coups: int, done: int) -> None:
        with self.shared.get_lock():
            self.shared[0] += coups - self.coups
            self.shared[1] += done - self.done
        self.coups, self.done = coups, done
