"""Processes as Linux's /proc shows them: each one's parent, state and CPU time.

The grader reads them to find everything a student's kernel started
(`descendants`, used to stop a grading worker's whole tree in
`puzzlekit.course.workers.proctree`) and to count what it computed
(`cpu_seconds`, `puzzlekit.autograder.judge.kernel_clock`) and how long it waited for a
core on a busy machine (`run_delay`). Nothing here signals or changes a process.
Elsewhere than Linux every answer is empty.
"""

from __future__ import annotations

import os


def _ticks() -> int:
    try:
        return int(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100


_TICKS = _ticks()


def _fields(pid: int | str) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after "pid (comm) ", or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].split()


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process in /proc."""
    out: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        rest = _fields(name)
        if rest is not None and len(rest) >= 2:
            out[int(name)] = (int(rest[1]), rest[0].decode())
    return out


def alive(pid: int) -> bool:
    """True while process `pid` exists and is not a zombie."""
    rest = _fields(pid)
    return rest is not None and rest[:1] != [b"Z"]


def descendants(pid: int) -> list[int]:
    """Every living process under `pid` (not `pid` itself), parents before children."""
    children: dict[int, list[int]] = {}
    for child, (parent, state) in process_table().items():
        if state != "Z":
            children.setdefault(parent, []).append(child)
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cpu_seconds(pid: int) -> float | None:
    """Seconds of CPU (user and system) process `pid` used, with its children that it
    waited for; None if it is gone."""
    rest = _fields(pid)
    try:        # state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based
        return None if rest is None else sum(int(x) for x in rest[11:15]) / _TICKS
    except ValueError:
        return None


def run_delay(pid: int) -> float | None:
    """Seconds the threads of process `pid` spent ready to run but waiting for a core
    (the scheduler's ``run_delay``, ``/proc/PID/task/TID/schedstat``, summed over its
    living threads); None if it is gone or the kernel keeps no such statistics."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total, seen = 0, False
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                total += int(f.read().split()[1])
            seen = True
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9 if seen else None
