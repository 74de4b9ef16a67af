"""The judge's own time limit: a watchdog thread, no signal handler.

The judge's work on one test cell (its checks, diagnoses and decoding, not the time it
waits for the kernel) has `judge_timeout` seconds of CPU time, in whatever thread grades: nbgrader's
command line grades in the main thread, the formgrader on the thread that serves its web
requests, where no signal handler of ours belongs. A `Watchdog` thread raises
`JudgeTimeout` in the grading thread when the time is up (`puzzlekit.autograder.judge.judge`).
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Callable, Iterator

from ...testcells.budget import backstop


class JudgeTimeout(BaseException):
    """The judge's own work on one cell ran out of its budget (raised by `Watchdog`;
    not an Exception, so that no ``except Exception`` in a check swallows it)."""


def _async_raise(thread_id: int, exc: type[BaseException] | None) -> None:
    """Raise `exc` in the thread `thread_id` at its next bytecode (None: cancel one that
    is pending)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None)


def _cpu_clock(thread_id: int) -> Callable[[], float] | None:
    """The CPU-time clock of thread `thread_id` (Linux, macOS); None where there is none."""
    try:
        clock_id = time.pthread_getcpuclockid(thread_id)
        time.clock_gettime(clock_id)
    except (AttributeError, OSError, OverflowError):
        return None
    return lambda: time.clock_gettime(clock_id)


class Watchdog:
    """Raises `JudgeTimeout` in the thread that entered it once the CPU time it spent in
    it, minus the time `paused` (waiting for the kernel), passes `seconds`, or its time on
    the clock passes `budget.backstop(seconds)` (a judge that waits, not computes). Where
    a thread has no CPU clock, the clock on the wall counts alone. A grading machine's
    load thus costs no test its verdict.

    A thread of its own waits for the moment, so it works in any thread that grades
    (nbgrader's command line grades in the main thread, the formgrader in the Jupyter
    server's): no signal handler of the host process is touched. Python code stops at its
    next bytecode; a C loop runs to its end, which is why `puzzlekit.autograder.wire` bounds what a
    kernel may send."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._wake = threading.Condition()
        self._thread_id = threading.get_ident()
        cpu = _cpu_clock(self._thread_id)
        self._clock: Callable[[], float] = cpu or time.monotonic
        self._limits = (seconds, backstop(seconds) if cpu else seconds)
        self._used = [0.0, 0.0]         # (on the thread's clock, on the wall) so far
        self._since: tuple[float, float] | None = None
        self._pauses = 0
        self._done = False
        self.fired = False

    def _now(self) -> tuple[float, float]:
        return self._clock(), time.monotonic()

    def _count(self) -> None:
        """Add the time since `_since` to `_used` (the lock held)."""
        if self._since is not None:
            now = self._now()
            self._used = [u + n - s for u, n, s in zip(self._used, now, self._since)]
            self._since = None

    def __enter__(self) -> Watchdog:
        self._since = self._now()
        threading.Thread(target=self._watch, daemon=True,
                         name="puzzlekit-judge-watchdog").start()
        return self

    def _watch(self) -> None:
        with self._wake:
            while not self._done:
                if self._since is None:
                    self._wake.wait()
                    continue
                now = self._now()
                left = min(limit - used - (n - s) for limit, used, n, s
                           in zip(self._limits, self._used, now, self._since))
                if left <= 0:
                    self.fired = True
                    _async_raise(self._thread_id, JudgeTimeout)
                    return
                # a thread computes no faster than the clock runs
                self._wake.wait(max(left, 0.005))

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The block's time does not count (the judge waits for the kernel)."""
        with self._wake:
            self._pauses += 1
            self._count()
        try:
            yield
        finally:
            with self._wake:
                self._pauses -= 1
                if not self._pauses and not self._done:
                    self._since = self._now()
                    self._wake.notify()

    @contextlib.contextmanager
    def resumed(self) -> Iterator[None]:
        """Inside a `paused` block: the block's time counts again (the kernel waits for
        the judge: the test's own function runs for the student's code)."""
        with self._wake:
            self._pauses -= 1
            if not self._pauses and not self._done:
                self._since = self._now()
                self._wake.notify()
        try:
            yield
        finally:
            with self._wake:
                self._pauses += 1
                self._count()

    def __exit__(self, *exc: object) -> None:
        with self._wake:
            self._done = True
            fired = self.fired
            self._wake.notify()
        if fired:       # raised already, or about to be: cancel the second case
            _async_raise(self._thread_id, None)
