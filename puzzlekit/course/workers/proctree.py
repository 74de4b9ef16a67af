"""A process and everything under it: found through /proc, stopped, killed (Linux).

A grading worker runs a student's kernel, and the kernel may start processes of its own,
double-forked and in a new session, so that neither the process group nor the session
finds them. `become_subreaper` makes a worker adopt every orphan among its descendants
(``PR_SET_CHILD_SUBREAPER``), so the tree under it holds them all; `kill_tree` first stops
the whole tree with SIGSTOP (repeating until no new process appears, so none can fork
while it is being killed), then kills it with SIGKILL. `reap_orphans` collects the
adopted orphans that have ended (zombies), which nobody else waits for.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time

from ...autograder.judge.processes import alive, descendants, process_table

__all__ = ["alive", "become_subreaper", "descendants", "kill_tree", "reap_orphans"]

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Adopt the orphans among this process's descendants; False where it cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_tree(pid: int, include_root: bool = True, rounds: int = 50) -> int:
    """Stop, then kill, every process under `pid` (and `pid` itself with `include_root`);
    the number of processes killed. The caller still reaps `pid` if it is its child."""
    stopped: list[int] = []
    seen: set[int] = set()
    if include_root:
        _signal(pid, signal.SIGSTOP)
        stopped.append(pid)
    for _ in range(rounds):
        new = [p for p in descendants(pid) if p not in seen]
        if not new:
            break
        for p in new:
            seen.add(p)
            _signal(p, signal.SIGSTOP)
            stopped.append(p)
        time.sleep(0.01)
    for p in reversed(stopped):
        _signal(p, signal.SIGKILL)
    return len(stopped)


def reap_orphans() -> int:
    """Wait for the ended children of this process that no one waits for (adopted
    orphans, see `become_subreaper`); how many were reaped."""
    me, n = os.getpid(), 0
    for child, (parent, state) in process_table().items():
        if parent == me and state == "Z":
            try:
                if os.waitpid(child, os.WNOHANG)[0]:
                    n += 1
            except ChildProcessError:
                pass
    return n
