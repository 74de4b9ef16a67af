"""The student's kernel's computing time, read from outside (Linux's /proc and cgroups).

A test gives the student's code seconds of CPU time (`puzzlekit.testcells.budget`), so the
grader measures what the kernel's processes computed, not how long it waited for them: on
a grading machine shared by many graders a kernel may get a fifth of a core, and a right
answer must keep its points all the same. `KernelClock` adds up

* the kernel's cgroup's ``cpu.stat`` (``usage_usec``, cgroup version 2: every process the
  kernel ever started, ended ones too), where the wall made one;
* else the user and system time of every process in the kernel's cgroup (version 1) or
  under the kernel's first process, and of their ended children (``/proc/PID/stat``).

What it reads is the kernel's, so it is never trusted further than a number: it only
ever grows (a process that ends and is not waited for would take its time away), and a
clock that cannot be read (another system, /proc hidden) says None, and the caller keeps
to the clock on the wall.

`waited` reads, from the same processes, how long they were ready to compute but waited
for a core (the scheduler's run delay): the time a busy machine took from the kernel,
which the notebook's clock does not count (`puzzlekit.autograder.judge.fair_clock`).
"""

from __future__ import annotations

import contextlib
import os

from .processes import cpu_seconds, descendants, run_delay


class KernelClock:
    """Seconds of CPU time the processes of one kernel used so far (see the module)."""

    def __init__(self, pid: int | None, groups: dict[str, str] | None = None) -> None:
        self.pid = pid
        self.groups = dict(groups or {})
        self._last = 0.0
        self._waited = 0.0
        self._delays: dict[int, float] = {}

    def _from_cgroup_v2(self) -> float | None:
        unified = self.groups.get("unified")
        if not unified:
            return None
        try:
            with open(os.path.join(unified, "cpu.stat")) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == "usage_usec":
                        return int(value) / 1e6
        except (OSError, ValueError):
            pass
        return None

    def _pids(self) -> list[int]:
        pids: set[int] = set()
        for key, path in self.groups.items():
            if key == "unified":
                continue
            with contextlib.suppress(OSError, ValueError):
                with open(os.path.join(path, "cgroup.procs")) as f:
                    pids.update(int(line) for line in f if line.strip())
        if pids:
            return sorted(pids)
        return [self.pid, *descendants(self.pid)] if self.pid is not None else []

    def seconds(self) -> float | None:
        """The CPU seconds so far, never less than the last answer; None if unknown."""
        total = self._from_cgroup_v2()
        if total is None:
            times = [t for t in map(cpu_seconds, self._pids()) if t is not None]
            if not times:
                return None
            total = sum(times)
        self._last = max(self._last, total)
        return self._last

    def waited(self) -> float | None:
        """Seconds the kernel's processes waited for a core so far (each process's growth
        since it was last read, so one that ends takes nothing away); None if unknown."""
        now = {pid: d for pid in self._pids() if (d := run_delay(pid)) is not None}
        if not now:
            return None
        for pid, delay in now.items():
            self._waited += max(0.0, delay - self._delays.get(pid, 0.0))
        self._delays = now
        return self._waited
