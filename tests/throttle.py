"""A busy machine, simulated cheaply: a process tree that gets only a share of a core.

`throttled(root, share)` stops every process under `root` (SIGSTOP) and lets it run
(SIGCONT) in turns, so that it runs at most `share` of the time, as a kernel does on a
grading machine where many processes want the same cores; unlike real CPU burners it
takes no core from the rest of the suite. `burners(n)` are the real thing, for the tests
that must show a right answer keeps its points beside processes that compute, and
`crowded(n)` puts this process's children on one core with `n` of them: they wait for
the core as on a busy machine, and the scheduler counts it (a stopped process does not
wait for a core: `throttled` cannot show that).
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
    runs; ended after it. Each is a session of its own, as the kernels of other graders
    are: where Linux groups a session's processes for the scheduler (autogroup), burners
    in the test's own session would weigh as one."""
    code = "import os, sys\n" \
           "cpus = sys.argv[1:]\n" \
           "cpus and os.sched_setaffinity(0, {int(c) for c in cpus})\n" \
           "while True: pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", code, *map(str, sorted(cpus or ()))],
                              start_new_session=True)
             for _ in range(n)]
    try:
        time.sleep(0.2)
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def _pin(pid: int, cpus: set[int]) -> None:
    """Every thread of process `pid` runs on `cpus` only."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in threads:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(tid), cpus)


@contextlib.contextmanager
def crowded(n: int, cpu: int | None = None) -> Iterator[int]:
    """While the block runs, the processes this one starts (and theirs) share one core
    with `n` burners: each gets about 1/(n+1) of it, and waits for it the rest of the
    time. The core's number is given to the block; this process itself is not pinned."""
    cpu = min(os.sched_getaffinity(0)) if cpu is None else cpu
    done = threading.Event()
    with burners(n, {cpu}) as procs:
        skip = {p.pid for p in procs}

        def pin() -> None:
            while not done.is_set():
                for pid in tree(os.getpid()):
                    if pid not in skip:
                        _pin(pid, {cpu})
                done.wait(0.05)

        worker = threading.Thread(target=pin, daemon=True, name="crowd")
        worker.start()
        try:
            yield cpu
        finally:
            done.set()
            worker.join()
