"""Time limits that count what the student's code computed, not how busy the machine was.

A test gives a student's search a few seconds (`puzzlekit.testcells.run_with_timeout`).
Those are seconds of *computing time* (CPU time): on a machine where the kernel gets a
fifth of a core, a right answer that needs 2 seconds of CPU still finishes within 6,
though it takes 10 on the clock. The clock stays only as a backstop, `backstop(seconds)`,
for code that waits instead of computing (``input()``, ``time.sleep``, a lock).

In the student's own kernel the CPU time is the kernel process's, counted by the
operating system (``ITIMER_PROF``, which ends the call with a signal in the main
thread); elsewhere a thread watches ``time.process_time``. While autograding, the grader
counts the CPU time of the kernel's processes from outside
(`puzzlekit.autograder.judge.autograde`), and these functions are not used.

What a student reads names a cause only with evidence: that the call used up its
computing time (`too_slow`) and, where a recorder saw the search expand the same board
again and again, that (`repeats`); a call stopped by the backstop says it was waiting,
and is stopped only when it was seen waiting (`Pace`, here and while grading): a call that
still computes when the backstop comes, however slowly a busy machine lets it, goes on
until its computing time is used up.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from .catalogue import (ASKED_AGAIN, BROWSER_CLOCK, COMPUTED_ONLY, OF_COMPUTING_TIME,
                        ON_THE_PAGES_CLOCK, TOO_SLOW, WAITED)
from .instrument import Record
from .mistakes import Diagnosis, mistake

T = TypeVar("T")

#: the backstop on the clock: this many times the CPU seconds, and at least this much more
BACKSTOP_FACTOR = 5.0
BACKSTOP_EXTRA = 20.0
#: seconds between two more signals once the time is up (the first may be lost)
REPEAT = 0.05


def backstop(seconds: float) -> float:
    """Seconds on the clock after which a call with `seconds` of CPU time is stopped
    anyway: it is waiting, not computing (5 times as long, and at least 20 s more)."""
    return max(seconds * BACKSTOP_FACTOR, seconds + BACKSTOP_EXTRA)


#: below this share of one core over `SHARE_WINDOW`, a call past its backstop is waiting
WAITING_SHARE = 0.02
#: seconds on the clock over which a call's share of a core is measured
SHARE_WINDOW = 2.0
#: `Pace` keeps a sample at most this often, so that its samples span the window
SAMPLE_EVERY = 0.25


class Pace:
    """Whether code past its backstop on the clock is waiting or computing on a busy
    machine, from samples of (clock, CPU seconds) taken while it runs: it is waiting
    when, over the last `SHARE_WINDOW` seconds, it computed less than `WAITING_SHARE` of
    them (a sleeping or blocked process computes nothing; a search on a machine with
    twenty busy processes per core still gets a few per cent)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.samples: deque[tuple[float, float]] = deque(maxlen=64)

    def restart(self) -> None:
        """Forget the samples: a new call starts (its own computing is what counts)."""
        self.samples.clear()

    def note(self, cpu: float) -> None:
        """Keep a sample of the CPU seconds `cpu` read now (at most every SAMPLE_EVERY s)."""
        now = self.clock()
        if not self.samples or now - self.samples[-1][0] >= SAMPLE_EVERY:
            self.samples.append((now, cpu))

    def waiting(self, cpu: float) -> bool:
        """Whether the code computed less than WAITING_SHARE of the last SHARE_WINDOW
        seconds (False until a sample that old was kept: no evidence yet)."""
        self.note(cpu)
        now = self.clock()
        old = [(t, c) for t, c in self.samples if now - t >= SHARE_WINDOW]
        if not old:
            return False
        then, cpu_then = old[-1]
        return cpu - cpu_then < WAITING_SHARE * (now - then)


def _seconds(seconds: float) -> str:
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


def too_slow(name: str, seconds: float) -> Diagnosis:
    """The words for a call that used up its computing time (no cause is guessed). In the
    browser they say what `within` counted there: the page's clock, `BROWSER_SLACK`
    times as long."""
    if sys.platform == "emscripten":
        return mistake("too-slow", TOO_SLOW.format(
            name=name, seconds=ON_THE_PAGES_CLOCK.format(seconds=_seconds(seconds * BROWSER_SLACK)))
            + BROWSER_CLOCK.format(slack=BROWSER_SLACK, computing=_seconds(seconds)))
    return mistake("too-slow", TOO_SLOW.format(
        name=name, seconds=OF_COMPUTING_TIME.format(seconds=_seconds(seconds))))


def waited(name: str, seconds: float, cpu: float | None) -> Diagnosis:
    """The words for a call stopped by the backstop: it waited rather than computed."""
    used = "" if cpu is None else COMPUTED_ONLY.format(cpu=cpu)
    return mistake("too-slow", WAITED.format(name=name, seconds=_seconds(seconds), used=used))


def repeats(record: Record | None) -> str:
    """What a record shows of a search that expands boards again (empty when it does
    not): the evidence for "a missing visited set"."""
    if record is None or record.most_times < 3 or record.distinct >= record.calls:
        return ""
    return "\n" + mistake("no-visited-set", ASKED_AGAIN.format(
        most=record.most_times, calls=record.calls, distinct=record.distinct))


class TimeUp(BaseException):
    """Raised inside the student's code when its time is up (not an Exception, so that
    no ``except Exception`` in the student's code swallows it)."""

    def __init__(self, kind: str = "cpu") -> None:
        super().__init__(kind)
        self.kind = kind        # "cpu": computing time used up; "wall": the backstop


def within(seconds: float, func: Callable[..., T], *args: Any,
           **kwargs: Any) -> tuple[str | None, float, T | None]:
    """Run ``func(*args, **kwargs)`` with `seconds` of CPU time; (None, cpu, value) when
    it finished, ("cpu" or "wall", cpu, None) when it was stopped. Its exceptions pass
    through. The frames of a stopped call are cleared, so that the boards a runaway
    search kept are freed at once (a traceback would keep them alive)."""
    started = time.process_time()
    if sys.platform == "emscripten":            # Python in the browser: no timer, no thread
        return by_profile(seconds * BROWSER_SLACK, started, func, *args, **kwargs)
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "ITIMER_PROF"):
        return _in_thread(seconds, started, func, *args, **kwargs)
    armed = [True]
    pace = Pace()

    def time_up(signum: int, frame: object) -> None:
        # raised again at every tick until the call has ended: an exception raised while
        # a finaliser (__del__, a weakref callback) runs is lost, and a bare `except:` in
        # the student's code may swallow one. Past the backstop, code that still computes
        # (a busy machine) goes on: its computing time decides
        if signum == signal.SIGALRM and not pace.waiting(time.process_time() - started):
            return
        if armed[0] and getattr(getattr(frame, "f_code", None), "co_name", "") != "__del__":
            raise TimeUp("cpu" if signum == signal.SIGPROF else "wall")

    old_prof = signal.signal(signal.SIGPROF, time_up)
    old_alarm = signal.signal(signal.SIGALRM, time_up)
    stopped: str | None = None
    try:
        try:
            signal.setitimer(signal.ITIMER_PROF, seconds, REPEAT)
            signal.setitimer(signal.ITIMER_REAL, backstop(seconds), REPEAT)
            return None, time.process_time() - started, func(*args, **kwargs)
        finally:   # a timer may go off even here, while another exception is on its way
            armed[0] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
    except TimeUp as e:
        stopped = e.kind
        traceback.clear_frames(e.__traceback__)
    finally:
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_alarm)
    return stopped, time.process_time() - started, None


#: in the browser (Pyodide) the limit is this many times as long: its clock is the page's
#: (a browser gives no CPU time, so a busy machine counts), and WebAssembly is slower
BROWSER_SLACK = 4
#: `by_profile` looks at the CPU time once in this many calls
PROFILE_EVERY = 256


def by_profile(seconds: float, started: float, func: Callable[..., T], *args: Any,
               **kwargs: Any) -> tuple[str | None, float, T | None]:
    """`within` where neither a signal nor a thread can stop the call (Pyodide, the
    browser's Python, has neither): a hook on every call, to Python or C
    (sys.monitoring where it is free, else a profile hook) looks at the CPU time every
    `PROFILE_EVERY` calls and raises `TimeUp` in the call that finds it used up. A loop
    that calls no function is not stopped."""
    calls = [0]

    def check(*_: object) -> None:
        calls[0] += 1
        if calls[0] % PROFILE_EVERY == 0 and time.process_time() - started > seconds:
            raise TimeUp("cpu")

    monitoring: Any = getattr(sys, "monitoring", None)  # Python >= 3.12: nearly free
    tool = None
    if monitoring is not None and monitoring.get_tool(monitoring.PROFILER_ID) is None:
        tool = monitoring.PROFILER_ID
        monitoring.use_tool_id(tool, "puzzlekit budget")
        monitoring.register_callback(tool, monitoring.events.CALL, check)
        monitoring.set_events(tool, monitoring.events.CALL)
    else:
        old = sys.getprofile()
        sys.setprofile(check)
    try:
        return None, time.process_time() - started, func(*args, **kwargs)
    except TimeUp as e:
        traceback.clear_frames(e.__traceback__)
        return "cpu", time.process_time() - started, None
    finally:
        if tool is not None:
            monitoring.set_events(tool, 0)
            monitoring.register_callback(tool, monitoring.events.CALL, None)
            monitoring.free_tool_id(tool)
        else:
            sys.setprofile(old)


def _in_thread(seconds: float, started: float, func: Callable[..., T], *args: Any,
               **kwargs: Any) -> tuple[str | None, float, T | None]:
    """`within` where no signal can stop the call: a thread runs it and this one watches
    the process's CPU time; when it is up, `TimeUp` is raised in that thread (at its
    next bytecode: a long C call still runs to its end, in the background)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func(*args, **kwargs)
        except BaseException as e:  # handed to the caller below
            box["error"] = e

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    clock_started = time.monotonic()
    pace = Pace()
    while worker.is_alive():
        used = time.process_time() - started
        stopped = "cpu" if used >= seconds else \
            "wall" if time.monotonic() - clock_started >= backstop(seconds) \
            and pace.waiting(used) else None
        if stopped is not None and worker.ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                       ctypes.py_object(TimeUp))
            worker.join(1.0)
            box.pop("error", None)
            return stopped, used, None
        worker.join(min(max(seconds - used, 0.01), 0.25))
    if "error" in box:
        raise box["error"]
    return None, time.process_time() - started, box["value"]
