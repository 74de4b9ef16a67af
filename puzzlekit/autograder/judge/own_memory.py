"""The grader's own memory: a limit on its process while it grades a notebook.

What the student's kernel sends is bounded per value (`puzzlekit.autograder.wire`) and per
notebook (`WalledExecute.max_notebook_bytes`, ``max_notebook_items``), but a test's own
work on it runs in the grader's process: ``[0] * n`` for a number the student's code
returned, a copy of a big path in every loop. `limited` puts a ceiling on that process
while one notebook is graded: ``RLIMIT_DATA``, the memory a process may write (its heap,
its private writable mappings), lowered for the time of the notebook and put back after,
never raised. Past it an allocation fails with ``MemoryError``: the judge fails the test
cell that ran out with words that name the grader's limit, and grading goes on.

Why ``RLIMIT_DATA`` and not ``RLIMIT_AS``: the address space counts what threads only
reserve (a glibc malloc arena reserves 64 MB per thread; Jupyter's and zmq's threads
hold several), so a limit on it fails a grader that uses little; ``RLIMIT_DATA`` counts
pages a process may write (Linux 4.7 and later). A kernel started while the limit is on
inherits it; the wall's launcher puts its soft limit back to the hard one, so the
kernel's memory stays the wall's business (``WalledExecute.memory_limit``).

What it does not cover: the grader's memory shared with other threads of the same
process while it grades (the formgrader's Jupyter server grades in its own process, so
its other work counts against the limit for that time), memory that is mapped from files
or shared, and systems without ``resource`` (Windows), where it does nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

try:
    import resource
except ImportError:     # not POSIX: no limit
    resource = None  # type: ignore[assignment]

#: the limit now in force, in words, for the grader's message ("its limit" when none)
_words: list[str] = []


def _size(limit: int) -> str:
    return f"{limit / 2 ** 30:.3g} GB" if limit >= 2 ** 30 else f"{limit / 2 ** 20:.3g} MB"


def limit_words() -> str:
    """The grader's own memory limit in force, in words ("3 GB"), or "its limit"."""
    return _words[-1] if _words else "its limit"


@contextlib.contextmanager
def limited(limit: int) -> Iterator[int | None]:
    """While the block runs, this process may write at most `limit` bytes of memory
    (its soft ``RLIMIT_DATA``, never raised: a lower limit already in force stays); the
    limit in force (None: none could be set, or `limit` is 0). Put back at the end."""
    if resource is None or limit <= 0 or not hasattr(resource, "RLIMIT_DATA"):
        yield None
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        _words.append(_size(soft))
        try:
            yield soft
        finally:
            _words.pop()
        return
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    except (OSError, ValueError):
        yield None
        return
    _words.append(_size(wanted))
    try:
        yield wanted
    finally:
        _words.pop()
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
