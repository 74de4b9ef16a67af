"""Progress of grading a whole class: done/total, rate, ETA, the slowest submissions.

`grade_progress(mode)` picks the display: a widget bar in a notebook, one self-overwriting
line in a terminal, one line per 10% where the output is a log (CI, a file, a pipe), or
nothing. All of them are fed the same three calls: ``start(total)``, ``done(student,
seconds, ok)`` and ``close()``.
"""

from __future__ import annotations

import html
import sys
import threading
import time
from typing import IO, Any

from ...context import in_notebook
from ...errors import PuzzleError

SLOWEST = 3


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class GradeProgress:
    """What has happened so far; the displays below only draw it."""

    def __init__(self) -> None:
        self.total = 0
        self.count = 0
        self.failed = 0
        self.started = time.monotonic()
        self.times: dict[str, float] = {}
        self._lock = threading.Lock()

    def start(self, total: int) -> None:
        self.total, self.count, self.failed = total, 0, 0
        self.started = time.monotonic()
        self.times = {}
        self.draw()

    def done(self, student: str, seconds: float, ok: bool = True) -> None:
        with self._lock:
            self.count += 1
            self.failed += 0 if ok else 1
            self.times[student] = seconds
            self.draw()

    def close(self) -> None:
        self.draw(final=True)

    # -- numbers ---------------------------------------------------------------------

    def rate(self) -> float:
        """Submissions per second so far."""
        elapsed = time.monotonic() - self.started
        return self.count / elapsed if elapsed > 0 and self.count else 0.0

    def eta(self) -> float | None:
        r = self.rate()
        return (self.total - self.count) / r if r > 0 else None

    def slowest(self, n: int = SLOWEST) -> list[tuple[str, float]]:
        return sorted(self.times.items(), key=lambda kv: -kv[1])[:n]

    def line(self) -> str:
        """'12/40 graded · 1.9/min · ETA 0:15 · slowest: bob 12.1 s, eve 9.8 s'."""
        parts = [f"{self.count}/{self.total} graded"]
        if self.failed:
            parts.append(f"{self.failed} failed")
        r = self.rate()
        if r:
            parts.append(f"{r * 60:.1f}/min")
        eta = self.eta()
        if eta is not None and self.count < self.total:
            parts.append(f"ETA {_clock(eta)}")
        elif self.count >= self.total:
            parts.append(f"took {_clock(time.monotonic() - self.started)}")
        slow = self.slowest()
        if slow:
            parts.append("slowest: " + ", ".join(f"{s} {t:.1f} s" for s, t in slow))
        return " · ".join(parts)

    def draw(self, final: bool = False) -> None:
        """Show the state (the base class shows nothing)."""


class TerminalProgress(GradeProgress):
    """A bar on one line that overwrites itself (for a terminal)."""

    def __init__(self, stream: IO[str] | None = None, width: int = 24) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.width = width

    def draw(self, final: bool = False) -> None:
        filled = int(self.width * self.count / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r\x1b[2K[{bar}] {self.line()}" + ("\n" if final else ""))
        self.stream.flush()


class LogProgress(GradeProgress):
    """One line per 10% of the submissions (for CI logs and files)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self._shown = -1

    def draw(self, final: bool = False) -> None:
        tenth = (10 * self.count // self.total) if self.total else 10
        if tenth > self._shown or (final and self._shown < 10):
            self._shown = tenth
            self.stream.write(f"grading: {self.line()}\n")
            self.stream.flush()


class WidgetProgress(GradeProgress):
    """An ipywidgets bar and a line of numbers (in a notebook)."""

    def __init__(self) -> None:
        import ipywidgets as W
        from IPython.display import display
        super().__init__()
        self.bar = W.IntProgress(value=0, min=0, max=1, bar_style="info",
                                 layout=W.Layout(width="280px"))
        self.label = W.HTML("starting…")
        self.box = W.HBox([self.bar, self.label])
        display(self.box)

    def draw(self, final: bool = False) -> None:
        self.bar.max = max(1, self.total)
        self.bar.value = self.count
        if final:
            self.bar.bar_style = "danger" if self.failed else "success"
        self.label.value = f"<code>{html.escape(self.line())}</code>"


def grade_progress(mode: Any = "auto", stream: IO[str] | None = None) -> GradeProgress:
    """The display for `mode`: "auto" (widget in a notebook, bar in a terminal, a line
    per 10% otherwise), "bar", "log", "widget", or None/False/"quiet" for nothing."""
    if mode in (None, False, "quiet", "none"):
        return GradeProgress()
    if isinstance(mode, GradeProgress):
        return mode
    out = stream or sys.stderr
    if mode == "auto":
        if in_notebook():
            mode = "widget"
        else:
            mode = "bar" if getattr(out, "isatty", lambda: False)() else "log"
    if mode == "widget":
        try:
            return WidgetProgress()
        except ImportError:
            return LogProgress(out)
    if mode == "bar":
        return TerminalProgress(out)
    if mode == "log":
        return LogProgress(out)
    raise PuzzleError(f"progress must be 'auto', 'bar', 'log', 'widget' or 'quiet', "
                      f"got {mode!r}")
