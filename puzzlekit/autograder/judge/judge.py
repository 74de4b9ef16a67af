"""Verdicts out of the student's reach: the grader runs the graded tests itself.

While nbgrader autogrades a notebook, `puzzlekit.autograder.judge.autograde.WalledExecute` runs the
student's cells (and the notebook's given cells) in the student's kernel, as always, but
it never runs a graded test cell there. A `Judge`, in the grader's own process, runs
the given cells and the test cells in a namespace of its own. Whenever a test uses a
name that no given or test cell defines (the student's `search`, `goal`, ...), the judge
asks the kernel for it (`puzzlekit.autograder.kernel.agent`):

* plain data (states, move strings, numbers, dicts of them) comes over as a copy,
  re-built from primitives (`puzzlekit.autograder.wire`);
* a function becomes a `RemoteFunction`: calling it sends the arguments to the kernel,
  runs the student's function there (with the test's forbidden references disabled and
  the test's time limit) and brings back the value, what it printed and the state of
  `random`;
* any other object stays in the kernel as a `Remote` handle: the judge may look at its
  attributes, call its methods, take its ``len``, index it, ask ``in`` (the object's
  own ``__contains__``; without one the judge iterates it and compares itself) and
  iterate it, but only two of the student's objects are ever compared with the
  student's own ``__eq__``; a student's object never equals the judge's data;
* an iterator or generator is a `RemoteIterator`, stepped in the kernel one item per
  ``next`` (a call like any other: forbidden references, `random`, printed text), so
  ``itertools.islice(endless(), 5)`` ends and a generator never runs ahead of what
  the test took (iterators over plain containers are stepped a few items at a time);
* every handle keeps the terms of the call that produced it (`Terms`): the references
  forbidden then and the budgets of the ``run_with_timeout`` blocks it ran in. Each later
  step or operation on it (``next``, ``len``, ``==``, a call of it, the handle passed to
  another call) runs under those terms too, and its computing time counts against that
  budget: a search that returns a generator, whose body runs only when the test steps
  it, cannot run puzzlekit's reference or escape its time limit that way. An operation
  on a student's object runs with the forbidden references disabled, as a call does;
* a class becomes a `RemoteClass` (calling it makes an instance in the kernel;
  ``isinstance(obj, Node)`` asks the kernel about the student's own objects), and an
  exception class a *twin*: a class the judge makes by name from the class's chain
  (module and name of each class of its MRO), whose bases are builtin exceptions and
  twins, never anything the kernel could evaluate (`Judge.twin`). An exception the
  student's code raises is an instance of the same twin, with its arguments when
  they are plain data, so ``except ValueError``, ``except NoSolution`` (fetched from
  the kernel), ``e.args`` and ``str(e)`` behave as in plain nbgrader;
* a module the student imported is the judge's own import of it when it is numpy,
  puzzlekit or a common module of the standard library (`own_module`; never a file of
  the student's), else a handle;
* numpy arrays and scalars and complex numbers cross as values (`puzzlekit.autograder.wire`).

Identity. While a call runs, the agent remembers the objects it built from the call's
arguments; one of them in what the call returns (``path[0] is start``), or left in an
argument, comes back as the judge's very object, and every list, dict, set and array
among the arguments is updated in place as the call left it (``xs.append(S)`` in the
student's code: ``xs[-1] is S`` in the test). A reference is good only for its own
call: the kernel cannot name any other object of the judge's. What cannot be honoured,
and why: an object the student's code keeps from one call and returns in a *later*
call arrives as a copy (the kernel's copy of an argument stands for the judge's object
during its own call only, so that the kernel never names a test's object after the
call that lent it); plain data the student's code made is a new
copy at each crossing (``f() is f()`` is false for a list the student's code returns
twice, and a tuple subclass arrives as a plain tuple); a handle is one per kernel
object (``obj.me() is obj`` holds) but ``type(obj) is Node`` does not (``isinstance``
does). An exception carries its class, arguments and text, not other attributes.

Globals. A name a test cell reads before binding it is the student's (fetched, in that
cell only: a name an earlier test cell binds, or failed before it could bind, is never
fetched, so a student's code that fails one test cannot supply the next one's
``expected``); once the cell binds it (``goal = ...``), the judge's value is the judge's own for good and
never fetched again, and the student's code gets a copy of it when a function of the
student's reads that name (`Judge.push_globals`, before each call and after the cell),
so a student's function that reads ``goal`` sees the test's goal, and so do later
cells, as in plain nbgrader. (A name only the notebook's cells read, not its functions,
keeps the student's value in the kernel: sending every name a test binds would copy a
test's big paths into the kernel at every call.) A fetched list, dict, set or array the test changes in place
(``COSTS["U"] = 5``) is sent too. Names with a leading underscore (a hidden test's own)
are never sent; nor is anything that is not plain data (the test's functions).

The test's own functions and objects cross the other way, so that a test written for
plain nbgrader gives the same verdict here:

* a function of the test that needs nothing of the test's but builtins, modules,
  puzzlekit's functions and immutable constants (``lambda s, g: 0``, a heuristic) is sent
  as code and runs in the kernel at full speed (`_portable`);
* any other (a closure that records calls in a list of the test's, a lambda that reads a
  global the test bound, a ``functools.partial``, a bound method, ``calls.append``) and
  any object of a test's class stay here: the kernel gets a stand-in that asks the judge
  over the kernel's stdin channel each time the student's code uses it (`_stand_in`,
  `_answer`). The test's function then runs here, in the test's namespace, on the
  judge's budget, and may itself call the student's functions (the request goes back as
  the answer, `_ask_inside`); an exception it raises is raised in the student's code.
  Each use crosses the wall (about a millisecond); the time the judge spends answering
  does not count against the student's call.

So rebinding a test helper, patching puzzlekit or builtins, IPython hooks, rigged
``__eq__`` methods or a kernel that dies: none of it reaches the code that decides a
verdict. A test cell passes when the judge's run of it raises nothing.

What comes back from the kernel never sets state of the grader's process, and never costs
the grader more than a budget:

* the test cells have a `random` of their own (`private_random`: the module's functions
  bound to a generator of the judge's, so ``random.seed(1)`` in a test, then the
  student's ``shuffle_pos``, draws what the student's code would); the state the kernel's
  `random` was left in comes back, is checked to be a sound Mersenne Twister state
  (`diagnose.random_state_problem`) and only then becomes the tests' state;
* every value is decoded with `puzzlekit.autograder.wire`'s bounds (items, lengths, ints, keys built
  to share one hash), and the executor refuses replies over `max_reply_bytes`;
* the judge's own work on a test cell (its checks, diagnoses and decoding, not the time
  it waits for the kernel) has `judge_timeout` seconds, in whatever thread grades (the
  formgrader grades in the Jupyter server's process, on the thread that serves its web
  requests, where no signal handler of ours belongs): a `Watchdog` thread raises
  `JudgeTimeout` in it when they are up (no signal handler is touched); the cell fails
  with words that do not blame the student for the grader's limit;
* `notebook_left` (from the executor's notebook clock, `fair_clock`) ends every call into
  the kernel and every check when the notebook's time is up.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import dis
import functools
import io
import json
import linecache
import logging
import marshal
import random
import sys
import textwrap
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ...errors import PuzzleError
from ...testcells import budget
from ...testcells.diagnose import random_state_problem
from ...testcells.instrument import Recorder, limit_message
from ...testcells.catalogue import (
    ANSWER_NOT_JSON,
    BAD_RANDOM,
    CANNOT_PASS,
    CANNOT_READ,
    NO_INPUT,
    COULD_NOT_RUN,
    FAILED_IN_KERNEL,
    FORBIDDEN,
    GRADER_CANNOT,
    GRADER_MEMORY,
    JUDGE_TOO_LONG,
    KERNEL_DIED,
    LENGTH_TOO_BIG,
    NOT_WRITTEN,
    NOTEBOOK_DATA,
    NOTEBOOK_TIME,
    NOT_DATA_FROM_KERNEL,
    PUBLIC_ATTRIBUTES_ONLY,
    RECORDER_BY_NAME,
    RESTARTED_FOR_TESTS,
    STOP_ITERATION,
    TEST_ANSWER_NOT_DATA,
    TEST_FUNCTION_TOO_LONG,
    TEST_VALUES,
    TOO_BIG,
    TOO_MANY_STAND_INS,
    TOO_SLOW,
    UNKNOWN_ARGUMENT,
    UNKNOWN_TEST_FUNCTION,
    UNREADABLE_FAILURE,
    UNREADABLE_QUESTION,
)
from ...testcells.messages import (
    RETURN_KINDS,
    Credit,
    earlier_words,
    explain,
    forget_raised,
    plain,
    raised_before,
    red,
    remember_raised,
    take_awarded,
    take_notes,
    take_partial,
)
from ...testcells.mistakes import as_record, forget_made, made, mistake, shown
from ...testcells.session import KernelStopped, seat, unseat
from ...puzzle import scrambles
from .. import protocol, wire
from ..protocol import ASK
from .crossing import (
    BUILTIN_ERRORS,
    ROOTS,
    TEST_OPERATIONS,
    MAX_STAND_INS,
    by_name,
    class_chain,
    codes,
    constant,
    error_reply,
    is_immutable,
    names_used,
    own_module,
    real_exception,
    shown_text,
    student_str,
    write_back,
    bound_names,
)
from .handles import (
    NO_TERMS,
    Budget,
    Remote,
    RemoteClass,
    RemoteFunction,
    RemoteIterator,
    Terms,
    terms_of,
)
from .kernel_end import clause
from .notebook_globals import NotebookGlobals
from .verdict_words import WIDTH, explain_limit
from .watchdog import JudgeTimeout, Watchdog


class KernelFault(Exception):
    """The kernel did not answer: `kind` is "timeout" or "died" (it was restarted)."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(kind, detail)
        self.kind, self.detail = kind, detail


class Channel(Protocol):
    """How the judge reaches the student's kernel (provided by the executor)."""

    def request(self, req: dict[str, Any], timeout: float,
                answer: Callable[[str], str] | None = None) -> dict[str, Any]:
        """Send `req` to the agent; its reply, or `KernelFault`. While it waits, each
        question the kernel asks on its stdin channel gets ``answer(prompt)``. A channel
        that has a ``cpu_clock()`` (seconds of CPU the kernel used, or None) also takes
        ``cpu_deadline``: the reading at which the call is out of time ("timeout"), and
        `timeout` is then the backstop on the clock ("waited")."""
        ...

    def exchange(self, text: str, timeout: float) -> str | dict[str, Any]:
        """Answer the kernel's pending question with `text`; its next question (or a
        fault reply as `request` gives one), or `KernelFault`."""
        ...


class CallTimeout(AssertionError):
    """A call into the student's code ran out of time (the kernel was interrupted);
    `waited`: stopped by the clock's backstop, having computed less than its budget."""

    waited = False


class StudentCodeError(Exception):
    """An exception raised by the student's code (in the kernel) with no builtin twin."""


@dataclass(frozen=True)
class KernelWorries:
    """What the judge's calls left the kernel in, for the executor (`Judge.take_worries`):
    `timed_out`: a call ran out of time and was interrupted (what it allocated may still
    be held); `memory_exhausted`: a call ran out of memory (start a fresh kernel)."""

    timed_out: bool = False
    memory_exhausted: bool = False


def private_random() -> types.ModuleType:
    """A `random` module of the judge's own: the module's classes and functions, with
    the functions bound to a generator of its own instead of Python's global one."""
    module = types.ModuleType("random", random.__doc__)
    shared = random._inst  # type: ignore[attr-defined]
    mine = random.Random()
    for key, value in vars(random).items():
        if key in ("__name__", "__doc__", "__spec__", "__loader__"):
            continue
        if getattr(value, "__self__", None) is shared:
            value = getattr(mine, key)
        setattr(module, key, value)
    module._inst = mine  # type: ignore[attr-defined]
    return module


class _Namespace(dict):  # type: ignore[type-arg]
    """The judge's globals: a name no trusted cell defines is fetched from the kernel."""

    judge: Judge

    def __missing__(self, key: str) -> Any:
        judge = self.judge
        if not judge.globals.may_fetch(key):
            raise KeyError(key)
        value = judge.fetch(key)
        judge.globals.fetched_value(key, value)
        return value


class Judge:
    """Runs a notebook's given and graded test cells in the grader's process."""

    def __init__(self, channel: Channel, *, call_timeout: float = 30.0,
                 memory: str = "the limit", limits: dict[str, str] | None = None,
                 time_scale: float = 1.0, judge_timeout: float | None = None,
                 notebook_left: Callable[[], float] | None = None,
                 notebook_seconds: float = 0.0,
                 allowance: wire.Allowance | None = None,
                 own_memory: str = "its limit") -> None:
        """The budgets: `call_timeout` seconds for a call outside any time limit of the
        test's; `judge_timeout` seconds of the judge's own work per cell (None: no
        limit); `notebook_left`: the seconds left of the notebook's `notebook_seconds`
        on its clock (None: no limit); `allowance`: the items the kernel
        may still send in this notebook (None: only each value's own bound,
        `wire.MAX_ITEMS`); `memory`, `limits` and `own_memory` (the grader's own memory
        limit, `own_memory`): the limits' words for the messages."""
        if not time_scale > 0:
            raise PuzzleError(f"time_scale must be a positive number, got {time_scale!r}")
        if judge_timeout is not None and not judge_timeout > 0:
            raise PuzzleError(f"judge_timeout must be a positive number of seconds, got "
                              f"{judge_timeout!r}")
        self.channel = channel
        self.call_timeout = call_timeout
        self.time_scale = time_scale
        self.judge_timeout = judge_timeout
        self.notebook_left = notebook_left
        self.notebook_seconds = notebook_seconds
        self.allowance = allowance
        self.own_memory = own_memory
        self.limits = {"memory": memory, **(limits or {})}
        #: the tests' own `random` (see `private_random`), what ``import random`` gives them
        self.random = private_random()
        self._builtins = dict(vars(builtins))
        self._builtins["__import__"] = self._import
        self.ns = _Namespace(__name__="__main__", __builtins__=self._builtins)
        self.ns.judge = self
        #: whose each global name is, and what the kernel has of it (`push_globals`)
        self.globals = NotebookGlobals(self.ns)
        self._watchdog: Watchdog | None = None
        self.sources: dict[str, list[str]] = {}
        self._forbid: list[str] = []
        self._record: list[Recorder] = []       # notebook functions recorded by name
        self._sent: dict[str, Recorder] = {}    # recorders sent with the call being made
        self._deadline: float | None = None
        #: the budgets of the `within` blocks now open, innermost last: every handle a call
        #: in them returns keeps them (`Terms`), with the references forbidden then
        self._blocks: list[Budget] = []
        #: the terms the handles decoded now get (those of the call whose reply it is)
        self._producing: Terms | None = None
        #: the kernel's CPU clock reading at which the running `within` block is out of
        #: time (None: no block, or no clock: then `_deadline` alone counts)
        self._cpu_deadline: float | None = None
        self._html: list[str] = []
        self._synced_random: Any = None   # the state the kernel's `random` has, if known
        #: what the last test cell found (`_cell_record`), for the executor to write down
        self.last_cell: dict[str, Any] = {}
        forget_made()       # the sentences of an earlier notebook are not this one's
        forget_raised()     # nor the errors of its cells
        self._worries = KernelWorries()     # what the executor takes after each cell
        #: the test's functions and objects the kernel holds stand-ins for, by number
        #: (`_stand_in`), and the number of each (by id; the object is kept alive above)
        self._objects: dict[int, Any] = {}
        self._numbers: dict[int, int] = {}
        #: how deep the judge is in answering the kernel's questions (`_answer`), and
        #: the seconds it spent on them in this cell, with the last question
        self._answering = 0
        self._answered: tuple[float, str, int] | None = None   # seconds, prompt, calls
        #: the objects given to each call into the kernel now under way, innermost last
        self._calls_given: list[list[Any]] = []
        self._remotes: dict[int, Remote] = {}   # one handle per kernel object
        self._twins: dict[tuple[tuple[str, str], ...], type[BaseException]] = {}

    # -- the cells -----------------------------------------------------------------

    def _import(self, name: str, globals: Any = None, locals: Any = None,
                fromlist: Any = (), level: int = 0) -> Any:
        """``import`` in the judge's cells: `random` is the tests' own."""
        if name == "random" and level == 0:
            return self.random
        return builtins.__import__(name, globals, locals, fromlist, level)

    @contextlib.contextmanager
    def _budget(self) -> Iterator[None]:
        """The judge's own work in the block runs under its budget (`Watchdog`), and its
        cells draw `shuffle_pos`'s numbers from the tests' `random`."""
        seconds = None if self.judge_timeout is None else self.judge_timeout * self.time_scale
        if self.notebook_left is not None:
            left = max(self.notebook_left(), 0.01)
            seconds = left if seconds is None else min(seconds, left)
        token = scrambles.GENERATOR.set(self.random)
        try:
            if seconds is None:
                yield
                return
            with Watchdog(seconds) as watchdog:
                self._watchdog = watchdog
                yield
        finally:
            self._watchdog = None
            scrambles.GENERATOR.reset(token)

    def _time_message(self) -> str:
        if self.notebook_left is not None and self.notebook_left() <= 0:
            return NOTEBOOK_TIME.format(seconds=self.notebook_seconds)
        seconds = (self.judge_timeout or 0) * self.time_scale
        if self._answered is not None and self._answered[0] >= seconds / 2:
            # most of the judge's time went into the test's function, which the student's
            # code called (the moment the watchdog strikes tells less: it may be anywhere)
            return TEST_FUNCTION_TOO_LONG.format(name=self._asked_about(self._answered[1]),
                                                 seconds=seconds, calls=self._answered[2])
        return JUDGE_TOO_LONG.format(seconds=seconds)

    def kernel_changed(self) -> None:
        """A student's cell ran: values copied from the kernel may be stale now (and its
        `random` may have moved on)."""
        self._synced_random = None
        self.globals.kernel_changed()   # a test's values are given again when used
        self._remotes.clear()

    def take_worries(self) -> KernelWorries:
        """What the calls since the last take left the kernel in (taken: cleared)."""
        worries, self._worries = self._worries, KernelWorries()
        return worries

    def _compile_cell(self, source: str, count: int
                      ) -> tuple[types.CodeType, types.CodeType | None]:
        """A test cell as IPython runs it: its statements, and its last expression
        apart, whose value the cell shows (None when the cell does not end in one)."""
        filename = f"<graded cell {count}>"
        tree = ast.parse(source, filename)
        if not tree.body or not isinstance(tree.body[-1], ast.Expr) \
                or source.rstrip().endswith(";"):
            return self._compile(source, count), None
        expression = tree.body.pop()
        assert isinstance(expression, ast.Expr)
        last = ast.Expression(expression.value)
        self._keep_source(filename, source)
        return compile(tree, filename, "exec"), compile(last, filename, "eval")

    def _compile(self, source: str, count: int) -> types.CodeType:
        filename = f"<graded cell {count}>"
        self._keep_source(filename, source)
        return compile(source, filename, "exec")

    def _keep_source(self, filename: str, source: str) -> None:
        """Keep a cell's lines for its traceback, and in `linecache` as IPython does (a
        failure's words may read the failing line: `puzzlekit.testcells.messages`)."""
        self.sources[filename] = source.splitlines()
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)

    def run_given(self, source: str, count: int) -> None:
        """Run a given (locked) cell here too, so that the tests use the judge's copy."""
        self.globals.given_cell(bound_names(source))
        token = seat(self)
        try:
            # the budget inside the redirections: a timeout never leaves them in place
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()), self._budget():
                exec(self._compile(source, count), self.ns)
        except (Exception, JudgeTimeout):
            pass        # the kernel's run of the cell shows the error to the student
        finally:
            unseat(token)
            self._html = []

    def run_test(self, source: str, count: int) -> list[dict[str, Any]]:
        """Run a graded test cell; its outputs (an error output if it failed).

        A name the cell binds is the judge's from then on (never fetched again), and
        the student's code gets its value if it has that name (`push_globals`); before
        the cell binds it, the cell reads the student's value, as in plain nbgrader."""
        bound = bound_names(source)
        self.globals.test_cell(bound, names_used(source))
        out, err = io.StringIO(), io.StringIO()
        self._html, self._forbid, self._deadline, self._record = [], [], None, []
        self._cpu_deadline = None
        self._answered = None
        take_partial(), take_awarded(), take_notes()    # nothing left from an earlier cell
        failure: BaseException | None = None
        token = seat(self)
        value: Any = None
        shown: str | None = None
        try:
            code, last = self._compile_cell(source, count)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                    self._budget():
                exec(code, self.ns)
                if last is not None:
                    value = eval(last, self.ns)
                    shown = None if value is None or isinstance(value, Credit) \
                        else shown_text(value)
        except KeyboardInterrupt:
            raise
        except JudgeTimeout:
            failure = AssertionError(self._time_message())
        except MemoryError as e:
            # the kernel's own (a twin, with the kernel's traceback), or the grader's: its
            # process ran out of the memory it allows itself (`own_memory`)
            failure = e if hasattr(e, "student_traceback") else \
                AssertionError(GRADER_MEMORY.format(limit=self.own_memory))
        except BaseException as e:     # SystemExit from a test cell fails it too
            failure = e
        finally:
            unseat(token)
            self.globals.test_cell_ran(bound)
        if failure is None or not isinstance(failure, (KernelStopped, CallTimeout)):
            try:    # the cells after this one see what it bound, as in plain nbgrader
                with self._budget():
                    self.push_globals()
            except (Exception, JudgeTimeout):
                pass
        self.globals.cell_over()
        outputs: list[dict[str, Any]] = []
        for name, stream in (("stdout", out), ("stderr", err)):
            if stream.getvalue():
                outputs.append({"output_type": "stream", "name": name,
                                "text": stream.getvalue()[:100_000]})
        outputs += [{"output_type": "display_data", "metadata": {},
                     "data": {"text/html": markup, "text/plain": "<boards>"}}
                    for markup in self._html]
        if failure is not None:
            try:
                outputs.append(self._error_output(failure))
            except Exception:       # its text cannot be written: the cell fails all the same
                outputs.append(self._error_output(AssertionError(
                    UNREADABLE_FAILURE.format(ename=type(failure).__name__))))
        else:
            # partial credit: nbgrader takes a number as the cell's value for its score
            leftover = take_partial()
            points = take_awarded()
            if points is None and leftover is not None:
                points = leftover[0]
            if points is not None:
                outputs.append({"output_type": "execute_result", "execution_count": count,
                                "metadata": {},
                                "data": {"text/plain": f"{points:g}",
                                         "text/html": f"<b>partial credit: {points:g} "
                                                      f"point{'' if points == 1 else 's'}</b>"}})
            elif shown is not None:
                # the cell's last value, as IPython shows it: a plain nbgrader test's
                # partial credit (nbgrader reads a number there as the cell's score)
                outputs.append({"output_type": "execute_result", "execution_count": count,
                                "metadata": {}, "data": {"text/plain": shown}})
        take_partial(), take_awarded(), take_notes()
        self._html = []
        self.last_cell = self._cell_record(outputs, failure)
        return outputs

    def _cell_record(self, outputs: list[dict[str, Any]],
                     failure: BaseException | None) -> dict[str, Any]:
        """What the test cell that just ran found, as data for the class report: its
        status and the named mistakes whose sentences its outputs show the student."""
        text = "\n".join(str(o.get("text", "")) + str(o.get("evalue", ""))
                         + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
        partial = any(o["output_type"] == "execute_result" and
                      "partial credit" in str(o["data"].get("text/html", "")) for o in outputs)
        if failure is None:
            status = "partly right" if partial else "passed"
        elif isinstance(failure, NotImplementedError) or (
                isinstance(failure, NameError) and "is not defined" in str(failure)
                and not raised_before(str(getattr(failure, "name", "")))):
            status = "not written"
        else:
            status = "failed"
        found = [] if status == "not written" else shown(made(), text)
        return {"status": status, "mistakes": [as_record(d) for d in found[:8]]}

    def _error_output(self, e: BaseException) -> dict[str, Any]:
        ename = type(e).__name__
        evalue = explain(e) or str(e)
        evalue += earlier_words(evalue)     # a diagnosis found before this failure
        chunks = [f"{red('-' * 75)}\n{red(ename)}"
                  "                            Traceback (most recent call last)"]
        tb = e.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            lines = self.sources.get(frame.f_code.co_filename)
            if lines is not None and not frame.f_locals.get("__tracebackhide__"):
                n = tb.tb_lineno
                label = frame.f_code.co_filename.strip("<>").split()[-1]
                where = "" if frame.f_code.co_name == "<module>" else \
                    f", in {frame.f_code.co_name}()"
                text = lines[n - 1] if 0 < n <= len(lines) else ""
                chunks.append(f"Cell \x1b[0;32mIn[{label}]\x1b[0m, line {n}{where}\n"
                              f"\x1b[0;32m----> {n}\x1b[0m {text}\n")
            tb = tb.tb_next
        student = list(getattr(e, "student_traceback", []))[1:]
        if student and plain(student[-1]).startswith(f"{ename}:"):
            student.pop()       # the kernel's own last line: said once, below, explained
        chunks += student
        # the feedback page does not scroll sideways: long lines of the message wrap there
        shown = "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="  ",
                                        break_long_words=False, break_on_hyphens=False)
                          if len(line) > WIDTH else line
                          for line in f"{ename}: {evalue}".splitlines())
        chunks.append(red(ename) + shown[len(ename):])
        return {"output_type": "error", "ename": ename, "evalue": evalue,
                "traceback": chunks}

    # -- the hooks used by puzzlekit.testcells while a test runs ----------------------

    def display_html(self, markup: str) -> None:
        """Keep a picture a failing check drew (coloured boards) for the feedback."""
        self._html.append(markup)

    @contextlib.contextmanager
    def forbidding(self, names: tuple[str, ...]) -> Iterator[None]:
        """Calls into the kernel made in the block run with `names` disabled there."""
        before = list(self._forbid)
        self._forbid = before + [n for n in names if n not in before]
        try:
            yield
        finally:
            self._forbid = before

    @contextlib.contextmanager
    def recording(self, recorder: Recorder) -> Iterator[Recorder]:
        """Calls into the kernel made in the block record the notebook's function
        `recorder.name` there; each call's record is loaded into `recorder`."""
        self._record.append(recorder)
        try:
            yield recorder
        finally:
            self._record.remove(recorder)

    def within(self, seconds: float, message: str, func: Callable[..., Any], *args: Any,
               **kwargs: Any) -> Any:
        """`func(*args, **kwargs)` with `seconds` (times `time_scale`) of the kernel's CPU
        time for the calls into the kernel in it, and `budget.backstop` of them on the
        clock; only the clock where the kernel's CPU time cannot be read."""
        outer, outer_cpu = self._deadline, self._cpu_deadline
        allowed = seconds * self.time_scale
        clock = getattr(self.channel, "cpu_clock", None)
        now = clock() if clock is not None else None
        if now is None:
            deadline = time.monotonic() + allowed
        else:
            deadline = time.monotonic() + budget.backstop(allowed)
            cpu = now + allowed
            self._cpu_deadline = cpu if outer_cpu is None else min(outer_cpu, cpu)
        self._deadline = deadline if outer is None else min(outer, deadline)
        # what the calls in the block leave of it goes with the handles they return
        block = Budget(None if now is None else allowed, deadline - time.monotonic(),
                       message, getattr(func, "__name__", "your function"),
                       budget.backstop(allowed))
        self._blocks.append(block)
        try:
            return func(*args, **kwargs)
        except CallTimeout as e:
            if e.waited:
                used = clock() if clock is not None else None
                raise AssertionError(budget.waited(
                    getattr(func, "__name__", "your function"), budget.backstop(allowed),
                    None if used is None or now is None else used - now)) from None
            raise AssertionError(message) from None
        finally:
            self._deadline, self._cpu_deadline = outer, outer_cpu
            self._blocks.remove(block)

    # -- talking to the kernel --------------------------------------------------------

    def _timeout(self) -> float:
        if self._deadline is None:
            return self.call_timeout
        return self._deadline - time.monotonic()

    def _request(self, req: dict[str, Any], name: str,
                 terms: Terms = NO_TERMS) -> dict[str, Any]:
        timeout = self._timeout()
        if self.notebook_left is not None:
            left = self.notebook_left()
            if left <= 0:
                raise AssertionError(NOTEBOOK_TIME.format(seconds=self.notebook_seconds))
            timeout = min(timeout, left)
        # the budgets the handles in use carry from their calls (`Terms`), and those of
        # the blocks open now: each is charged what this request computes
        carried = [b for b in terms.budgets if all(b is not mine for mine in self._blocks)]
        charged = self._blocks + carried
        clock = getattr(self.channel, "cpu_clock", None)
        cpu_before = clock() if clock is not None and charged else None
        cpu_deadline = self._cpu_deadline
        for spent in carried:
            if spent.spent:
                raise self._budget_spent(spent)
            if spent.wall_left is not None:
                timeout = min(timeout, spent.wall_left)
            if spent.cpu_left is not None and cpu_before is not None:
                mine = cpu_before + spent.cpu_left
                cpu_deadline = mine if cpu_deadline is None else min(cpu_deadline, mine)
        if timeout <= 0 and (cpu_deadline is None or cpu_before is None):
            raise CallTimeout(mistake("too-slow", TOO_SLOW.format(name=name, seconds="0 seconds")))
        # past the clock's backstop with computing time left: the executor's `Pace` decides
        # whether the kernel is waiting (stopped at once) or computing on a busy machine
        timeout = max(timeout, 0.0)
        started = time.monotonic()
        try:
            watchdog = self._watchdog
            with watchdog.paused() if watchdog is not None else contextlib.nullcontext():
                if self._answering:     # the test's function, run for the kernel, asks
                    reply = self._ask_inside(req, timeout)
                else:
                    extra: dict[str, Any] = {}
                    if self._objects:
                        extra["answer"] = self._answer
                    if cpu_deadline is not None:
                        extra["cpu_deadline"] = cpu_deadline
                    reply = self.channel.request(req, timeout, **extra)
        except KernelFault as fault:
            self._charge(charged, clock, cpu_before, started)
            spent_now = next((b for b in carried if b.spent), None)
            if fault.kind in ("timeout", "waited") and spent_now is not None:
                # the handle's call ran out of its time
                self._worries = replace(self._worries, timed_out=True)
                raise self._budget_spent(spent_now) from None
            if fault.kind in ("timeout", "waited"):
                # its memory may still be held: see the executor
                self._worries = replace(self._worries, timed_out=True)
                late = CallTimeout(mistake("too-slow", TOO_SLOW.format(
                    name=name, seconds=f"{round(timeout, 1):g} seconds")))
                late.waited = fault.kind == "waited"
                raise late from None
            ended = getattr(self.channel, "kernel_end", None)
            how = clause(ended() if callable(ended) else "")
            raise KernelStopped(KERNEL_DIED.format(what=name, how=how,
                                                  restarted=RESTARTED_FOR_TESTS)) from None
        self._charge(charged, clock, cpu_before, started)
        if type(reply) is dict and reply.get("spent"):
            raise AssertionError(NOTEBOOK_DATA.format(limit=str(reply.get("limit", ""))[:40]))
        if type(reply) is dict and reply.get("too_big"):
            raise AssertionError(TOO_BIG.format(why=str(reply.get("fault", ""))[:200]))
        if type(reply) is dict and reply.get("ok") is True:
            try:        # a reply of the kernel's that does not fit is refused whole
                protocol.check_reply(req["kind"], reply)
            except protocol.ProtocolError as e:
                reply = protocol.fault(str(e)[:200])
        if type(reply) is not dict or reply.get("ok") is not True:
            if type(reply) is dict and str(reply.get("fault", "")).startswith("MemoryError"):
                # the agent itself ran out of the memory the student's call left used
                raise self.student_error({"ename": "MemoryError", "evalue": ""}, name)
            raise AssertionError(COULD_NOT_RUN.format(
                name=name, fault=str(reply.get('fault', 'no answer'))[:200]))
        return reply

    @staticmethod
    def _charge(budgets: list[Budget], clock: Callable[[], float | None] | None,
                cpu_before: float | None, started: float) -> None:
        """Charge each budget what one request computed (and waited)."""
        if not budgets:
            return
        cpu_after = clock() if clock is not None and cpu_before is not None else None
        cpu = None if cpu_after is None or cpu_before is None else cpu_after - cpu_before
        for each in budgets:
            each.charge(cpu, time.monotonic() - started)

    @staticmethod
    def _budget_spent(spent: Budget) -> AssertionError:
        """A handle used after its call, when the time of that call is up: the call's
        own words (its computing time, or the backstop's when it waited)."""
        if spent.cpu_left is not None and spent.cpu_left > 0:
            return AssertionError(budget.waited(spent.name, spent.backstop, None))
        return AssertionError(spent.message)

    # -- the kernel asks: the test's functions and objects, used by the student's code --

    def _answer(self, prompt: str) -> str:
        """The answer to a question the kernel asked while the judge waited for a call:
        the student's code used a stand-in of the test's (`_stand_in`). It runs here, on
        the judge's budget (`Watchdog`), like the rest of the test."""
        watchdog = self._watchdog
        if self._answering >= protocol.MAX_NESTING:
            return json.dumps(error_reply(RecursionError(protocol.TOO_DEEP)))
        self._answering += 1
        try:
            with watchdog.resumed() if watchdog is not None else contextlib.nullcontext():
                started = time.monotonic()
                try:
                    answer = self._answer_question(prompt)
                finally:
                    spent = time.monotonic() - started
                    before, _, calls = self._answered or (0.0, "", 0)
                    self._answered = (before + spent, prompt, calls + 1)
            try:
                return json.dumps(answer, separators=(",", ":"))
            except (TypeError, ValueError):
                return json.dumps({"error": {"ename": "TypeError",
                                             "evalue": str(TEST_ANSWER_NOT_DATA)}})
        finally:
            self._answering -= 1

    def _asked_about(self, prompt: str) -> str:
        """The name of the test's function or object a question was about."""
        try:
            target = self._objects.get(json.loads(prompt[len(ASK):])["j"])
        except Exception:
            target = None
        name = getattr(target, "__name__", None) or type(target).__name__
        return f"function {name}" if callable(target) else f"{name} object"

    def _answer_question(self, prompt: str) -> dict[str, Any]:
        if type(prompt) is not str or not prompt.startswith(ASK):
            return error_reply(RuntimeError(NO_INPUT))
        try:
            question = protocol.QUESTION.check(json.loads(prompt[len(ASK):]))
        except (ValueError, RecursionError):
            question = None
        if question is None or question["j"] not in self._objects:
            return error_reply(RuntimeError(UNREADABLE_QUESTION))
        target, op = self._objects[question["j"]], question["op"]
        try:
            if op == "call":
                # a list and a dict: `protocol.QUESTION` checked them
                args, kwargs = question.get("args", []), question.get("kwargs", {})
                given = self._calls_given[-1] if self._calls_given else None
                result = target(*[self._value(a, given) for a in args],
                                **{str(k): self._value(v, given) for k, v in kwargs.items()})
            elif op == "getattr":
                name = self._value(question.get("arg"))
                if type(name) is not str or name.startswith("_"):
                    raise AttributeError(PUBLIC_ATTRIBUTES_ONLY.format(
                        kind=type(target).__name__, attribute=name))
                result = getattr(target, name)
            elif op in TEST_OPERATIONS:
                given = self._calls_given[-1] if self._calls_given else None
                result = TEST_OPERATIONS[op](target, self._value(question.get("arg"), given))
            else:
                raise TypeError(f"unknown operation {op[:20]!r}")
            return protocol.answer(value=wire.encode(result, self._outbound))
        except (JudgeTimeout, KeyboardInterrupt, CallTimeout, KernelStopped):
            raise               # the whole call ends (the executor interrupts the kernel)
        except wire.WireError as e:
            return error_reply(TypeError(str(e)))
        except BaseException as e:      # raised in the student's code, as under nbgrader
            return error_reply(e)

    def _ask_inside(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        """A request made while the kernel waits for the judge's answer (the test's
        function calls the student's): it goes as that answer (``{"do": req}``), and the
        kernel's next question brings the reply (``{"done": reply}``); questions in
        between are answered on the way."""
        deadline = time.monotonic() + timeout
        text = json.dumps(protocol.answer(do=req), separators=(",", ":"))
        while True:
            prompt = self.channel.exchange(text, max(deadline - time.monotonic(), 0.05))
            if isinstance(prompt, dict):    # the executor's own fault reply (too big)
                return prompt
            if protocol.is_done(prompt):
                try:
                    reply = json.loads(prompt[len(ASK):])["done"]
                except (ValueError, KeyError, TypeError, RecursionError):
                    return protocol.fault(str(ANSWER_NOT_JSON))
                return reply if type(reply) is dict else protocol.fault("not a reply")
            text = self._answer(prompt)

    def _outbound(self, value: object) -> Any:
        """Encode what the judge sends that is not plain data (functions, handles)."""
        if isinstance(value, Recorder):
            if value.func is None:
                raise wire.WireError(RECORDER_BY_NAME)
            number = str(len(self._sent))
            self._sent[number] = value
            inner = self._outbound(value.func)
            return {"$rec": number, "limit": value.limit, "name": value.name,
                    **{f"of:{k}": v for k, v in inner.items()}}
        if isinstance(value, RemoteFunction):
            return {"$ref": value.__name__}
        if isinstance(value, Remote):
            return {"$h": object.__getattribute__(value, "_h")}
        if type(value) is types.FunctionType and value.__globals__ is self.ns:
            portable = self._portable(value)
            if portable is not None:
                return portable
            return self._stand_in(value, "callable")
        if constant(value) and not is_immutable(value):   # puzzlekit's, builtins, modules
            return by_name(value)
        if self._of_the_test(value):
            return self._stand_in(value, "callable" if callable(value) else "object")
        raise wire.WireError(CANNOT_PASS.format(kind=type(value).__name__))

    def _of_the_test(self, value: object) -> bool:
        """A function or object the test made: a closure or lambda of a test cell, a
        ``functools.partial`` or bound method around one, an instance of a test's class."""
        if isinstance(value, types.FunctionType):
            return value.__globals__ is self.ns
        if isinstance(value, types.MethodType):
            return self._of_the_test(value.__func__) or self._of_the_test(value.__self__)
        if isinstance(value, functools.partial):
            return True       # runs here: the arguments it keeps are the test's
        if isinstance(value, types.BuiltinMethodType):      # calls.append
            return not isinstance(value.__self__, types.ModuleType)
        cls = type(value)
        return cls.__module__ == "__main__" and isinstance(cls, type) and \
            getattr(self.ns.get(cls.__name__), "__module__", None) == "__main__"

    def _stand_in(self, value: object, kind: str) -> dict[str, Any]:
        """The kernel gets a stand-in that asks the judge (`_answer`) whenever the
        student's code uses `value`: it runs here, where the test's names live."""
        number = self._numbers.get(id(value))
        if number is None or self._objects.get(number) is not value:
            if len(self._objects) >= MAX_STAND_INS:
                raise wire.WireError(TOO_MANY_STAND_INS.format(most=MAX_STAND_INS))
            number = len(self._objects) + 1
            self._objects[number] = value
            self._numbers[id(value)] = number
        name = getattr(value, "__name__", None) or type(value).__name__
        return {"$j": number, "kind": kind, "name": str(name)[:100]}

    def _portable(self, func: types.FunctionType) -> dict[str, Any] | None:
        """A test's function that needs nothing of the test's but builtins, modules,
        puzzlekit's functions and constants, sent as code to run in the kernel (fast: a
        heuristic the student's search calls 100,000 times); None if it needs more
        (a global of the test, a closure, `global` statements): it then stays here."""
        if func.__closure__ or func.__kwdefaults__:
            return None
        names: set[str] = set()
        for code in codes(func.__code__):
            for instruction in dis.get_instructions(code):
                if instruction.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                    return None
                if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    names.add(str(instruction.argval))
        sent: dict[str, Any] = {}
        for name in names:
            if dict.__contains__(self.ns, name):
                value = dict.__getitem__(self.ns, name)
            elif hasattr(builtins, name):
                continue
            else:
                return None         # the student's name: the kernel's, but not as a global
            if not constant(value):
                return None
            sent[name] = value
        defaults = list(func.__defaults__ or ())
        if not all(constant(v) for v in defaults):
            return None
        return {"$code": base64.b64encode(marshal.dumps(func.__code__)).decode(),
                "name": func.__name__, "globals": wire.dumps(sent, by_name),
                "defaults": wire.dumps(defaults, by_name) if defaults else None}

    def _cannot_send(self, error: Exception, name: str) -> AssertionError:
        """A test gives the student's code what the grader cannot send: the grader's limit,
        worded as such for the student and logged as a warning for the instructor."""
        log = getattr(self.channel, "log", None)
        if not isinstance(log, (logging.Logger, logging.LoggerAdapter)):
            log = logging.getLogger(__name__)
        log.warning("puzzlekit: a graded test cell calls %s with something the kit's grader "
                    "cannot send to the student's code (%s); the student was told that this "
                    "is the grader's limit, not their mistake. `python -m puzzlekit "
                    "check-tests ASSIGNMENT` names the cell and what to write instead.",
                    name, error)
        return AssertionError(GRADER_CANNOT.format(why=error))

    def _inbound(self, tagged: dict[str, Any], given: list[Any] | None = None) -> Any:
        """A handle from the kernel (one Remote per kernel object), a reference to an
        object the judge passed to the call being answered (`given`), and only then, or
        one of the test's own functions and objects that the kernel holds a stand-in for."""
        if "$j" in tagged:      # one of the test's own, given to the kernel before
            number = tagged["$j"]
            if type(number) is not int or number not in self._objects:
                raise wire.WireError(UNKNOWN_TEST_FUNCTION)
            return self._objects[number]
        if "$arg" in tagged:
            number = tagged["$arg"]
            if given is None or type(number) is not int or not 0 <= number < len(given):
                raise wire.WireError(UNKNOWN_ARGUMENT)
            return given[number]
        if "$h" not in tagged or type(tagged["$h"]) is not int:
            raise wire.WireError(NOT_DATA_FROM_KERNEL)
        producing = self._producing or NO_TERMS
        known = self._remotes.get(tagged["$h"])
        if known is not None:
            object.__setattr__(known, "_terms", terms_of(known).joined(producing))
            return known
        cls = RemoteIterator if tagged.get("iter") is True else Remote
        remote = cls(self, tagged, producing)
        self._remotes[tagged["$h"]] = remote
        return remote

    def _value(self, encoded: Any, given: list[Any] | None = None) -> Any:
        try:
            return wire.decode(encoded, lambda tagged: self._inbound(tagged, given),
                               allowance=self.allowance)
        except wire.NotebookSpent as e:
            raise AssertionError(NOTEBOOK_DATA.format(limit=e.limit)) from None
        except wire.TooBig as e:
            raise AssertionError(TOO_BIG.format(why=e)) from None
        except wire.WireError as e:
            raise AssertionError(CANNOT_READ.format(why=e)) from None

    def fetch(self, name: str) -> Any:
        """The value of the student's `name` in the kernel (KeyError if it has none): a
        copy of plain data, a `RemoteFunction`, a twin of an exception class, a
        `RemoteClass`, the judge's own import of a module it may import, or a handle."""
        reply = self._request(protocol.request("names", names=[name]), name)
        found = reply.get("names", {}).get(name)
        if type(found) is dict and found.get("kind") == "missing":
            raised = found.get("raised")       # the student's cell's error, as words
            remember_raised(name, raised if type(raised) is str else None)
        kinds = ("data", "callable", "object", "class", "module")
        if type(found) is not dict or found.get("kind") not in kinds:
            raise KeyError(name)
        if found["kind"] == "callable":
            returns = found.get("returns")      # how its code returns, as the kernel read it
            return RemoteFunction(self, name, returns if returns in RETURN_KINDS else None)
        if found["kind"] == "module":
            module = own_module(found.get("module"), self._import)
            if module is not None:
                return module
        value = self._value(found.get("value"))
        if found["kind"] == "class" and isinstance(value, Remote):
            chain = class_chain(found.get("chain"))
            if chain and ("builtins", "BaseException") in chain:
                return self.twin(chain)
            return RemoteClass(self, name, value)
        return value

    def twin(self, chain: list[tuple[str, str]]) -> type[BaseException]:
        """The judge's class for an exception class of the kernel with this chain (its
        MRO as (module, qualname) pairs): a real builtin exception (or one of a module
        the judge has imported) where the chain names one, else a class made here, by
        name only (nothing the kernel sent is evaluated), whose bases are the twins of
        the chain's rest: ``except ValueError`` catches a student's ValueError subclass,
        and one chain is always one class (``except NoSolution`` catches it)."""
        key = tuple(chain)
        made = self._twins.get(key)
        if made is not None:
            return made
        real = real_exception(*chain[0])
        if real is not None:
            return real
        rest = chain[1:]
        parents: list[type[BaseException]] = []
        if any(pair not in ROOTS for pair in rest):
            parents.append(self.twin(rest))
        for pair in rest:
            cls = real_exception(*pair)
            if cls is not None and not any(issubclass(p, cls) for p in parents):
                parents.append(cls)
        if not parents:
            parents.append(StudentCodeError)
        name = chain[0][1].rpartition(".")[2]
        if not name.isidentifier():
            name = "StudentCodeError"
        body = {"__module__": chain[0][0], "__qualname__": chain[0][1],
                "__str__": student_str}
        try:
            made = type(name, tuple(parents), body)
        except TypeError:       # bases that cannot be mixed: the first one
            made = type(name, (parents[0],), body)
        if len(self._twins) < 1000:
            self._twins[key] = made
        return made

    def student_error(self, error: Any, name: str) -> BaseException:
        """The judge's twin of an exception the student's code raised in the kernel: of
        the class `twin` makes from the class chain the kernel reported, with the
        exception's arguments when they were plain data (its text otherwise)."""
        if type(error) is not dict:
            return AssertionError(FAILED_IN_KERNEL.format(name=name))
        ename, evalue = str(error.get("ename", "Exception")), str(error.get("evalue", ""))
        error_dict = error
        limit = explain_limit(ename, evalue, self.limits)
        own_words = False
        if ename == "MemoryError":
            # the kernel's memory may stay used up after this call: the executor starts
            # a fresh kernel before the next cell (`take_worries`)
            self._worries = replace(self._worries, memory_exhausted=True)
        if ename == "NotImplementedError" and not evalue:
            evalue, own_words = NOT_WRITTEN.format(name=f"`{name}`"), True
        elif limit is not None:
            evalue, own_words = limit, True
        elif ename == "KeyboardInterrupt":
            return CallTimeout(mistake("too-slow", TOO_SLOW.format(
                name=name, seconds=f"{self.call_timeout:g} seconds")))
        elif ename in ("StopIteration", "StopAsyncIteration"):
            # raised by a call, it would end the test's loop around it for good (an
            # all(map(...)) of the test would pass): an error, as in a generator (PEP 479)
            error = RuntimeError(STOP_ITERATION.format(name=name, ename=ename))
            setattr(error, "student_traceback", list(error_lines(error_dict)))
            return error
        chain = class_chain(error.get("chain"))
        cls: type[BaseException] | None = None
        if chain and chain[0][1].rpartition(".")[2] == ename:
            cls = self.twin(chain)
        if cls is None or not issubclass(cls, Exception):
            cls = BUILTIN_ERRORS.get(ename)
        if cls is None or not ename.isidentifier():
            cls = type(ename if ename.isidentifier() else "StudentCodeError",
                       (StudentCodeError,), {})
        args: Any = (evalue,)
        if not own_words and "args" in error:
            try:
                decoded = wire.decode(error["args"])
            except wire.WireError:
                decoded = None
            if type(decoded) is tuple:
                args = decoded
        exc: BaseException
        try:
            if cls.__module__ == "builtins" or cls.__str__ is student_str:
                exc = cls(*args)
            else:       # a real class of another module: its __init__ is not run
                cls = self._own_str(cls)
                exc = cls.__new__(cls, *args)
                exc.args = args
        except Exception:
            exc = StudentCodeError(f"{ename}: {evalue}")
        if type(exc).__str__ is student_str:
            setattr(exc, "_student_text", evalue)       # str(e) as the kernel said it
        setattr(exc, "student_traceback", error_lines(error))
        return exc

    def _own_str(self, cls: type[BaseException]) -> type[BaseException]:
        """A real exception class of another module, with the kernel's text as its str:
        its own __str__ would read attributes its __init__ (never run here) sets
        (``CalledProcessError.returncode``), and fail while the failure is written."""
        key = (("$own", cls.__module__), ("$own", cls.__qualname__))
        made = self._twins.get(key)
        if made is None:
            made = type(cls.__name__, (cls,), {"__module__": cls.__module__,
                                               "__qualname__": cls.__qualname__,
                                               "__str__": student_str,
                                               "__repr__": _student_repr})
            self._twins[key] = made
        return made

    # -- the student's globals, as a test cell left them ------------------------------

    def push_globals(self) -> None:
        """Give the student's code the values a test cell bound or changed of names the
        student's functions read (``goal = ...``, ``COSTS["U"] = 5``), as in plain
        nbgrader, where the test ran in the kernel. What the judge uses stays its own
        copy: a name a test bound is never fetched again. Names with a leading underscore
        (a hidden test's own) are never given; nor are names only the notebook's cells
        read (a path ``p`` of a demo cell: sending it would cost a copy per call)."""
        values = self.globals.to_push(self._read_by_functions)
        if not values:
            return
        reply = self._request(protocol.request("set", values=values), TEST_VALUES)
        self.globals.pushed(values, reply.get("set", []))

    def _read_by_functions(self, names: list[str]) -> list[Any]:
        """Which of `names` the notebook's functions read (asked of the kernel)."""
        reply = self._request(protocol.request("set", values={}, has=names), TEST_VALUES)
        return reply.get("has", [])  # type: ignore[no-any-return]

    def _random_to_send(self) -> Any:
        """The judge's `random` state, or None when the kernel has it already."""
        state = self.random.getstate()
        return None if state == self._synced_random else wire.encode(state)

    def call(self, target: dict[str, Any], name: str, args: tuple[Any, ...],
             kwargs: dict[str, Any], handle: Remote | None = None) -> Any:
        """Call the student's function (by name or handle) in the kernel. A call on a
        handle, or given handles, also runs under the terms they carry (`Terms`)."""
        self.push_globals()
        self._sent = {}
        given: list[Any] = []       # what the call is given, numbered as the agent does
        carried: list[Terms] = [terms_of(handle)]
        outbound = self._collecting(carried)
        try:
            fields = {**target,
                      "args": [wire.encode(a, outbound, seen=given) for a in args],
                      "kwargs": {str(k): wire.encode(v, outbound, seen=given)
                                 for k, v in kwargs.items()},
                      "random": self._random_to_send()}
        except wire.WireError as e:
            raise self._cannot_send(e, name) from None
        terms = _joined(carried)
        if self._record:
            fields["record"] = {r.name: r.limit for r in self._record}
        req = protocol.request("call", forbid=self._forbid_list(terms), **fields)
        self._calls_given.append(given)     # what the kernel's questions may refer to
        try:
            reply = self._request(req, name, terms)
        finally:
            self._calls_given.pop()
        with self._produced(terms):     # the handles in the reply keep the call's terms
            stopped = self._load_records(reply.get("recorded"), given)
            mutated = reply.get("mutated", {})
            if type(mutated) is dict:
                for index, encoded in mutated.items():
                    write_back(given, index, self._value(encoded, given))
            if reply.get("random") is not None:
                self._adopt_random(reply.get("random"))
            self._synced_random = self.random.getstate()
            for stream, key in ((sys.stdout, "stdout"), (sys.stderr, "stderr")):
                if type(reply.get(key)) is str and reply[key]:
                    stream.write(reply[key][:1_000_000])
            _raise_violation(reply)
            if "error" in reply:
                if stopped is not None and type(reply["error"]) is dict \
                        and reply["error"].get("ename") == "ExpansionLimit":
                    # the judge's own words, from the record
                    raise AssertionError(limit_message(stopped.name, stopped.record)) \
                        from None
                raise self.student_error(reply["error"], name)
            return self._value(reply.get("value"), given)

    def _forbid_list(self, terms: Terms) -> list[str]:
        """The references forbidden for a request: the test's now, and those the handles
        it uses carry from the calls that produced them."""
        return list(self._forbid) + sorted(terms.forbid - set(self._forbid))

    def _collecting(self, carried: list[Terms]) -> Callable[[object], Any]:
        """`_outbound`, noting the terms of every handle sent (a handle given to the
        student's code runs there under the terms it carries)."""
        def outbound(value: object) -> Any:
            if isinstance(value, Remote):
                carried.append(terms_of(value))
            return self._outbound(value)
        return outbound

    @contextlib.contextmanager
    def _produced(self, terms: Terms) -> Iterator[None]:
        """The handles decoded in the block keep `terms` and the test's terms now: the
        references forbidden and the budgets of the `within` blocks open."""
        outer = self._producing
        self._producing = Terms(frozenset(self._forbid), tuple(self._blocks)).joined(terms)
        try:
            yield
        finally:
            self._producing = outer

    def _adopt_random(self, encoded: Any) -> None:
        """Make the state the kernel's `random` was left in the tests' own, once it is
        known to be a sound Mersenne Twister state (never Python's global `random`)."""
        self._synced_random = None      # until it is adopted: the next call sends ours
        try:
            state = wire.decode(encoded)
        except wire.WireError as e:
            raise AssertionError(BAD_RANDOM.format(why=str(e)[:100])) from None
        problem = random_state_problem(state)
        if problem is not None:
            raise AssertionError(BAD_RANDOM.format(why=problem))
        self.random.setstate(state)

    def _load_records(self, encoded: Any, given: list[Any] | None = None) -> Recorder | None:
        """Load what the kernel's recorders saw into the judge's; the one that stopped
        the search, if one did."""
        sent, self._sent = self._sent, {}
        if encoded is None:
            return None
        try:
            records = wire.decode(encoded, lambda tagged: self._inbound(tagged, given),
                                  allowance=self.allowance)
        except wire.WireError:
            return None
        if type(records) is not dict:
            return None
        stopped = None
        targets = {**sent, **{f"name:{r.name}": r for r in self._record}}
        for key, recorder in targets.items():
            if key in records:
                recorder.load(records[key])
                if recorder.record.stopped:
                    stopped = recorder
        return stopped

    def operate(self, remote: Remote, op: str, arg: object) -> Any:
        """Ask the kernel about one of the student's objects."""
        handle = object.__getattribute__(remote, "_h")
        kind = object.__getattribute__(remote, "_type")
        self.push_globals()
        carried: list[Terms] = [terms_of(remote)]
        try:
            encoded = wire.encode(arg, self._collecting(carried))
        except wire.WireError as e:
            raise self._cannot_send(e, f"your {kind}") from None
        terms = _joined(carried)
        forbid = self._forbid_list(terms)
        # the object's own methods run the student's code too: forbid there as well
        req = protocol.request("op", h=handle, op=op, arg=encoded,
                               **({"forbid": forbid} if forbid else {}))
        reply = self._request(req, f"your {kind}", terms)
        with self._produced(terms):
            _raise_violation(reply)
            if "error" in reply:
                raise self.student_error(reply["error"], f"your {kind}")
            value = self._value(reply.get("value"))
        if op == "len" and type(value) is int and self.allowance is not None \
                and value > self.allowance.left:
            # a length is checked before anything is built on it: tuple(x) and list(x)
            # make room for len(x) items at once
            raise AssertionError(LENGTH_TOO_BIG.format(kind=kind, length=value,
                                                       limit=f"{self.allowance.left:,}"))
        return value


def _joined(carried: list[Terms]) -> Terms:
    """The terms of every handle a request uses, at once."""
    terms = NO_TERMS
    for each in carried:
        terms = terms.joined(each)
    return terms


def _raise_violation(reply: dict[str, Any]) -> None:
    """The kernel saw the student's code call a forbidden reference: the test fails."""
    violations = reply.get("violations")
    if type(violations) is list and violations:
        raise AssertionError(mistake("used-the-reference",
                                     FORBIDDEN.format(name=str(violations[0])[:60])))


def error_lines(error: dict[str, Any]) -> list[str]:
    """The student's traceback lines the kernel sent with an error."""
    traceback = error.get("traceback")
    return [str(x) for x in traceback] if type(traceback) is list else []


def _student_repr(self: BaseException) -> str:
    return f"{type(self).__name__}({student_str(self)!r})"

