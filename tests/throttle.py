"""A busy machine, simulated cheaply: a process tree that gets only a share of a core.

`throttled(root, share)` stops every process under `root` (SIGSTOP) and lets it run
(SIGCONT) in turns, so that it runs at most `share` of the time, as a kernel does on a
grading machine where many processes want the same cores; unlike real CPU burners it
takes no core from the rest of the suite. `burners(n)` are the real thing, for the tests
that must show a right answer keeps its points beside processes that compute.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

from puzzlekit.autograder.judge.processes import descendants


def tree(root: int) -> list[int]:
    """`root`'s descendants (not `root`), from /proc."""
    return descendants(root)


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


@contextlib.contextmanager
def throttled(root: int | None = None, share: float = 0.2, period: float = 0.05,
              phase: float = 0.0) -> Iterator[None]:
    """While the block runs, the processes under `root` (default: this one's children and
    theirs; a `root` given is throttled too) run only `share` of each `period` seconds,
    starting `phase` (a fraction) into the period: throttles with phases 0, 1/3 and 2/3
    let three trees run in turns, a core kept busy as a whole and none of them more
    than a third of the time."""
    me = root is None
    root = os.getpid() if root is None else root
    done = threading.Event()

    def members() -> list[int]:
        return tree(root) if me else [root, *tree(root)]

    def cycle() -> None:
        done.wait(period * phase)
        while not done.is_set():
            pids = members()
            _signal(pids, signal.SIGSTOP)
            done.wait(period * (1 - share))
            _signal(pids, signal.SIGCONT)
            done.wait(period * share)
        _signal(members(), signal.SIGCONT)

    worker = threading.Thread(target=cycle, daemon=True, name="throttle")
    worker.start()
    try:
        yield
    finally:
        done.set()
        worker.join()


@contextlib.contextmanager
def burners(n: int, cpus: set[int] | None = None) -> Iterator[list[subprocess.Popen]]:
    """`n` processes that compute all the time (on `cpus`, if given) while the block
    runs; ended after it."""
    code = "import os, sys\n" \
           "cpus = sys.argv[1:]\n" \
           "cpus and os.sched_setaffinity(0, {int(c) for c in cpus})\n" \
           "while True: pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", code, *map(str, sorted(cpus or ()))])
             for _ in range(n)]
    try:
        time.sleep(0.2)
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
