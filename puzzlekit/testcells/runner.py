"""Running a student's function as its test runs it, in the student's own kernel.

The call gets `seconds` of computing time (`budget.within`), and the successor function
it uses may be recorded: a `Recorder` stands for it, both where the function is handed
the successor function as an argument and where it calls it by name (a global of its
module). A call that is stopped comes back with the words its test gives: out of
computing time, or stopped by the clock's backstop, each with the evidence of repeats
the record shows. What the call raises passes through: past a recorder's limit of calls,
the `ExpansionLimit` that names the repeats.

`run_with_timeout` (a test cell in the student's notebook), `example` (the example cell
after an exercise) and `see_search` (the drawing of the student's own search) all run the
student's code here, so a runaway search reads the same wherever it was stopped.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from . import budget, instrument
from .catalogue import SEEN_EASIER
from .instrument import Recorder
from .messages import notes
from .session import KernelStopped


def successor(func: Callable[..., Any], args: Sequence[Any],
              name: str) -> tuple[Callable[..., Any] | None, list[int]]:
    """The function `name` that ``func(*args)`` uses: the arguments of that name (and
    where they are among `args`), else the global `name` of `func`'s module (None and
    no places when there is neither)."""
    given = [i for i, a in enumerate(args) if callable(a) and getattr(a, "__name__", "") == name]
    if given:
        return args[given[0]], given
    found = getattr(func, "__globals__", {}).get(name)
    return (found if callable(found) else None), []


@contextlib.contextmanager
def standing_in(func: Callable[..., Any], recorder: Recorder) -> Iterator[None]:
    """While inside: the global `recorder.name` of `func`'s module, when it is a
    function, is `recorder`; after, it is what it was."""
    space = getattr(func, "__globals__", None)
    name = recorder.name
    patched = isinstance(space, dict) and callable(space.get(name)) \
        and not isinstance(space.get(name), Recorder)
    if patched:
        space[name] = recorder                                 # type: ignore[index]
    try:
        yield
    finally:
        if patched and space.get(name) is recorder:            # type: ignore[union-attr]
            space[name] = recorder.func                        # type: ignore[index]


def why_seen() -> str:
    """The notes of the cell running now, as the reason a test adds to its time limit
    ("" when there are none)."""
    found = notes()
    return SEEN_EASIER.format(why="; ".join(found)) if found else ""


def too_slow(name: str, seconds: float) -> str:
    """The words for a call that used up its `seconds` of computing time, with the notes
    of the cell (the repeats a record shows are added when the call is stopped)."""
    words, why = budget.too_slow(name, seconds), why_seen()
    return words + why if why else words      # alone, a Diagnosis (named for the report)


@contextlib.contextmanager
def with_why() -> Iterator[None]:
    """A search that keeps too many boards may run out of memory (or have its kernel
    stopped for it) before its time is up: which comes first depends on the machine, and
    the notes of the cell are the same why."""
    try:
        yield
    except (MemoryError, KernelStopped) as e:
        why = why_seen()
        if not why:
            raise
        raise type(e)(f"{e}{why}") from None


def run(func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any] | None = None,
        *, seconds: float, recorder: Recorder | None = None, given: Sequence[int] = (),
        quiet: bool = False) -> tuple[Any, str | None]:
    """``func(*args, **kwargs)`` with `seconds` of computing time: (what it returned,
    None), or (None, why it was stopped, in its test's words).

    `recorder` stands for the successor function, as the arguments at the places `given`
    and as the global of its name in `func`'s module; `quiet` keeps what the call prints
    out of the cell. What the call raises passes through (a `RecursionError`, the
    student's own bug, a recorder's `ExpansionLimit`)."""
    name = getattr(func, "__name__", "your function")
    call = list(args)
    for i in given:
        call[i] = recorder
    instrument.forget_last()
    with contextlib.ExitStack() as stack:
        stack.enter_context(with_why())
        if recorder is not None:
            stack.enter_context(standing_in(func, recorder))
        if quiet:
            stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        stopped, cpu, value = budget.within(seconds, func, *call, **(kwargs or {}))
    if stopped is None:
        return value, None
    # the repeats a record shows are evidence either way: on a busy machine a runaway
    # search may reach the clock's backstop before its computing time is used up
    words = too_slow(name, seconds) if stopped == "cpu" else \
        budget.waited(name, budget.backstop(seconds), cpu)
    seen = budget.repeats(instrument.last_record())
    return None, words + seen if seen else words


__all__ = ["run", "successor", "standing_in", "too_slow", "with_why", "why_seen"]
