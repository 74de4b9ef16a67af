"""The notebook's clock, which does not count the time a busy machine kept its kernel waiting.

A notebook, each of its cells and each call of a test that has no computing time of its
own have seconds on the clock (`WalledExecute`'s `notebook_timeout` and
`notebook_wall_factor`, a cell's backstop, `Execute.timeout`): a backstop for code that
waits (sleeps, blocks on a socket or on input) rather than computes, whose own limit is
its computing time. On a grading machine shared by many graders a kernel may get a tenth
of a core, and a right notebook that computes for an honest minute would need ten on the
clock: it would lose the marks of its last cells to the machine's load.

So the clock is `FairClock`: the seconds since it started, less those the kernel's
processes spent ready to compute but waiting for a core (the scheduler's run delay,
`KernelClock.waited`), which a busy machine takes and a sleeping or blocked process never
has. Code that waits is charged in full, the judge's own work and a kernel's restart too;
code that computes on a busy machine is charged what it would have taken on a free core.
Over a stretch between two readings at most the stretch is taken away (two threads that
both wait for a core do not make the clock go back). Where the run delay cannot be read,
it is the clock on the wall.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable

#: a reading: which kernel was read (a restart starts another) and its seconds waited
Reading = tuple[Hashable, float]
#: seconds between two readings of /proc at least (the judge asks for the time left at
#: every request; what the kernel waits between two readings is counted at the next)
READ_EVERY = 0.05


class FairClock:
    """Seconds since `restart`, less the time a busy machine kept the kernel waiting
    for a core. `waited()` reads the kernel's run delay (None: no kernel, or unknown);
    each `read` (and each `seconds`) takes the growth since the last reading away."""

    def __init__(self, waited: Callable[[], Reading | None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.waited, self.clock = waited, clock
        self._lock = threading.Lock()
        self.restart()

    def restart(self) -> None:
        """Start again from zero (a notebook's clock starts once its kernel is ready)."""
        with self._lock:
            self.started = self.clock()
            self.given = 0.0        # seconds taken away: the kernel waited for a core
            self._last: tuple[Hashable, float, float] | None = None
        self.read()

    def read(self) -> None:
        """Take away what the kernel waited for a core since the last reading (read at
        most every `READ_EVERY` seconds)."""
        with self._lock:
            if self._last is not None and self.clock() - self._last[1] < READ_EVERY:
                return
        reading = self.waited()
        now = self.clock()
        with self._lock:
            if reading is None:
                self._last = None
                return
            kernel, waited = reading
            if self._last is not None and self._last[0] == kernel:
                _, then, waited_then = self._last
                self.given += min(max(waited - waited_then, 0.0), max(now - then, 0.0))
            self._last = (kernel, now, waited)

    def taken(self) -> float:
        """The seconds taken away so far: what the kernel waited for a core."""
        self.read()
        with self._lock:
            return self.given

    def seconds(self) -> float:
        """The seconds charged so far."""
        self.read()
        with self._lock:
            return max(self.clock() - self.started - self.given, 0.0)
