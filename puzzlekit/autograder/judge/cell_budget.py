"""A student's cell is stopped by what it computed, not by the clock.

nbgrader gives every cell `Execute.timeout` seconds on the clock: on a grading machine
shared by many graders a kernel may get a fifth of a core, and a cell that computes an
honest 10 seconds (an example search, a table) would then be interrupted, and the cells
that need what it defines would fail. While a student's cell runs, `CellBudget` reads the
kernel's CPU time (`KernelClock`) and interrupts the kernel once its processes have
computed the cell's seconds; the clock stays only as a backstop, `budget.backstop` of
them (5 times as long, at least 20 s more), for a cell that waits rather than computes,
counted on the notebook's clock (`fair_clock`: not the seconds the machine's load kept
the kernel waiting for a core).
A cell that goes on computing after its interrupts (it catches KeyboardInterrupt, or
ignores SIGINT) has its kernel stopped once it computed `grace` seconds more.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType

#: seconds between two readings of the kernel's CPU time
PERIOD = 0.1
#: seconds between two interrupts once the budget is spent (one may land in a finaliser,
#: where Python reports it and goes on, so it is sent again until the cell has ended)
AGAIN = 1.0


def grace(seconds: float) -> float:
    """The CPU seconds a cell may go on computing after its first interrupt before its
    kernel is stopped: time to unwind, never a second budget."""
    return max(2.0, 0.2 * seconds)


class CellBudget:
    """While a cell runs (a context manager): once `clock()` (the kernel's CPU seconds,
    or None when it cannot be read) has grown by `seconds`, call `interrupt()`, and again
    every `AGAIN` seconds until the cell ends; past `grace` more, call `kill()`. `fired`
    and `hung` say whether it did either; a clock that cannot be read leaves the cell to
    the clock on the wall (`active` is False)."""

    def __init__(self, clock: Callable[[], float | None], seconds: float,
                 interrupt: Callable[[], None], kill: Callable[[], None]) -> None:
        self.clock, self.seconds = clock, seconds
        self.interrupt, self.kill = interrupt, kill
        self.start: float | None = None
        self.fired = self.hung = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def active(self) -> bool:
        return self.start is not None

    def __enter__(self) -> CellBudget:
        self.start = self.clock() if self.seconds > 0 else None
        if self.start is not None:
            self._thread = threading.Thread(target=self._watch, name="cell-budget",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join(5)

    def used(self) -> float | None:
        """The CPU seconds the kernel computed since the cell started (None: unknown)."""
        now = self.clock()
        return None if now is None or self.start is None else now - self.start

    def _watch(self) -> None:
        while not self._done.wait(PERIOD):
            used = self.used()
            if used is None:
                return          # the clock went away: the wall's clock decides
            if used >= self.seconds:
                self.fired = True
                self.interrupt()
                while not self._done.wait(AGAIN):
                    used = self.used()
                    if used is not None and used >= self.seconds + grace(self.seconds):
                        self.hung = True
                        self.kill()
                        return
                    self.interrupt()
                return
