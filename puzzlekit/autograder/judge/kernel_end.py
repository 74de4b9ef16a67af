"""How a student's kernel ended, in words that name only what the grader saw.

When the kernel stops in the middle of a cell or of a test's call, the student reads why,
and a guess ("did your code call os._exit(), or use too much memory?") sends them hunting
for a bug they may not have. What the grader can see from outside:

* the kernel's memory cgroup counted a kill for memory (``oom_kill`` in ``memory.events``,
  cgroup version 2, or ``memory.oom_control``, version 1): it used more memory than a
  graded notebook may;
* the exit status of the kernel's launcher (the wall's launcher reports a kernel killed by
  signal N as 128 + N, as a shell does; a process killed directly reports -N): a signal,
  named, or an exit status;
* nothing (no status yet, another system): then the words say only that it stopped.
"""

from __future__ import annotations

import contextlib
import os
import signal

from ...testcells.catalogue import ENDED_CRASHED, ENDED_EXIT, ENDED_MEMORY, ENDED_SIGNAL

#: where each kind of memory cgroup counts the processes killed for memory
_OOM_FILES = (("unified", "memory.events"), ("memory", "memory.events"),
              ("memory", "memory.oom_control"))


def oom_kills(groups: dict[str, str]) -> int:
    """How many processes of the kernel's memory cgroup the system killed for memory
    (0 when none, or when the cgroup cannot tell)."""
    for controller, name in _OOM_FILES:
        folder = groups.get(controller)
        if not folder:
            continue
        with contextlib.suppress(OSError, ValueError):
            with open(os.path.join(folder, name)) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
    return 0


def signal_of(status: int | None) -> int | None:
    """The signal that ended a process with this exit status (-N, or 128 + N from a
    launcher), or None."""
    if status is None:
        return None
    if status < 0:
        return -status
    if 128 < status < 128 + 65:
        return status - 128
    return None


def ended_words(status: int | None, groups: dict[str, str] | None = None,
                memory: str = "the limit") -> str:
    """What was seen of how the kernel ended ('' when nothing was)."""
    if oom_kills(groups or {}) > 0:
        return ENDED_MEMORY.format(memory=memory)
    number = signal_of(status)
    if number is not None:
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if number == signal.SIGSEGV:
            return ENDED_CRASHED.format(number=number, signal=name)
        return ENDED_SIGNAL.format(number=number, signal=name)
    if status is not None:
        return ENDED_EXIT.format(status=status)
    return ""


def clause(words: str) -> str:
    """': words', to follow "the kernel stopped while running ...", or nothing."""
    return f": {words}" if words else ""
