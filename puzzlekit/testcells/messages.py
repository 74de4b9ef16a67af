"""What a student reads when something fails, and where they stand.

A fresh student notebook is full of stubs (``raise NotImplementedError()``), and the first
thing a student sees is a wall of red. This module turns that red into instructions:

- `explain` rewrites the messages of the usual first-hour failures: a stub that is "not
  written yet" (and which one), a name that a cell above should define (or whose cell
  raised before defining it), a function that returned nothing (``None``: "did it forget
  to `return`?", said only when its code has no `return` at all), an index past the
  edge (of a 3×3 board; on another size, a board size taken for granted).
  Each names a cause only where the evidence for it was seen.
- In a notebook (`install`, done when `puzzlekit.testcells` is imported), every error is
  shown with those words and a short traceback: the notebook's own cells only, no frames
  inside puzzlekit, so that the line to look at is the last one.
- Each test cell ends with `passed("findZero")`, which says so in one short line, and the
  last cell of an assignment calls `summary`: every exercise with ✔ passed, ✘ failed (and
  the first line of why), ✎ not written yet or · not run yet, and its points.

While nbgrader grades a notebook the tests run outside the student's kernel (see
`puzzlekit.autograder.judge.judge`), which uses the same words.
"""

from __future__ import annotations

import ast
import html
import inspect
import linecache
import os
import re
import sys
import textwrap
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import registry
from ..context import nbgrader_execution
from ..errors import PuzzleError
from ..puzzle.board import State, shape
from ..puzzle.formats import as_state
from .catalogue import (
    BEING_GRADED,
    CALLED_A_BOARD,
    CREDIT,
    EARLIER,
    GRADER_LIMIT,
    INDEX_SEEN,
    MORE_CASES,
    NO_RETURN,
    NONE_SEEN,
    NOT_DEFINED,
    NOT_DEFINED_RAISED,
    NOT_IMPORTED,
    NOT_WRITTEN,
    NOT_WRITTEN_CELL,
    OTHER_SIZE,
    PARTLY,
    PARTLY_GRADED,
    PASSED,
    PASSED_GRADED,
    PASSED_HIDDEN,
    PAST_THE_EDGE,
    STATUS_FAILED,
    STATUS_HIDDEN,
    STATUS_NOT_RUN,
    STATUS_NOT_WRITTEN,
    STATUS_PARTLY,
    STATUS_PASSED,
    STUB,
    SUMMARY_PASS,
    SUMMARY_POINTS,
    TOO_DEEP,
    UNHASHABLE,
    UNHASHABLE_BUILTIN,
)
from .mistakes import mistake

#: The label of an exercise's test cell in the summary: "findZero" for `passed("findZero")`.
_PASSED_CALL = re.compile(r"""^\s*passed\(\s*["']([^"']+)["']\s*(,\s*hidden\s*=\s*True)?""",
                          re.MULTILINE)
_PACKAGE = str(Path(registry.PACKAGE_DIR).resolve()) + os.sep


# ---------------------------------------------------------------------------
# The red of a notebook's error output

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def plain(text: str) -> str:
    """`text` without ANSI colour codes."""
    return _ANSI.sub("", text)


def red(text: str) -> str:
    """`text` in the red of Jupyter's tracebacks (an ANSI colour, as IPython writes it)."""
    return f"\x1b[0;31m{text}\x1b[0m"


def error_line(ename: str, words: str) -> str:
    """The last line of a traceback: the error's name in red, then what it says."""
    return f"{red(ename)}: {words}"


def error_output(ename: str, evalue: str) -> Any:
    """A notebook error output of one red line, as nbgrader's feedback shows it."""
    from nbformat.v4 import new_output
    return new_output("error", ename=ename, evalue=evalue,
                      traceback=[error_line(ename, evalue)])


# ---------------------------------------------------------------------------
# Which failure is it?

def _innermost(tb: types.TracebackType | None) -> types.TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def is_stub(e: BaseException) -> bool:
    """Was `e` raised by an untouched stub (a bare ``raise NotImplementedError()``)?"""
    return type(e) is NotImplementedError and not str(e)


def not_written_name(e: BaseException) -> str | None:
    """The function a stub error came from ('findZero'), '' for a stubbed cell, else None."""
    if not is_stub(e):
        return None
    first = e.__traceback__
    while first is not None and _is_kit_frame(first.tb_frame):
        first = first.tb_next
    last = _innermost(e.__traceback__)
    if first is None or last is None:
        return ""
    code = last.tb_frame.f_code
    same_cell = code.co_filename == first.tb_frame.f_code.co_filename
    return "" if code.co_name.startswith("<") or same_cell else code.co_name


def from_puzzlekit(name: str) -> bool:
    """Is `name` one puzzlekit or its grading helpers give (what a setup cell imports), and
    no exercise's (a name students write themselves is `registry.TAUGHT`)?"""
    import importlib

    from .. import registry
    if name.startswith("_") or registry.taught_in(name) is not None:
        return False
    if name in registry.EXPORTS:
        return True
    for module in ("puzzlekit.testcells", "puzzlekit.testcells.diagnose"):
        if hasattr(importlib.import_module(module), name):
            return True
    return False


def is_not_defined(e: BaseException) -> bool:
    """A NameError at the top level of a cell: a name that an earlier cell should define."""
    last = _innermost(e.__traceback__)
    return (type(e) is NameError and bool(getattr(e, "name", None))
            and (last is None or last.tb_frame.f_code.co_name == "<module>"))


# ---------------------------------------------------------------------------
# A name a cell would have defined, had it not raised first

#: For each name a cell binds at its top level, the error the latest run of that cell
#: raised ("KeyError: 15"), if it raised one (not a stub's): a later NameError for the
#: name is then that error's, not an exercise left unwritten.
_raised_before: dict[str, str] = {}


def top_level_names(source: str) -> set[str]:
    """The names a cell's source binds at its top level (defs, classes, assignments,
    imports); none if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def remember_raised(name: str, error: str | None) -> None:
    """Keep (or, with None, forget) the error a cell raised before binding `name`."""
    if error is None:
        _raised_before.pop(name, None)
    elif type(name) is str and type(error) is str and error.strip():
        _raised_before[name] = error.strip().splitlines()[0][:80]


def raised_before(name: str) -> str | None:
    """The error the latest run of the cell that binds `name` raised, if it raised."""
    return _raised_before.get(name)


def forget_raised() -> None:
    """Forget every cell's error (the judge does, for each notebook)."""
    _raised_before.clear()


def _remember_cell(source: str, error: BaseException | None) -> None:
    """After a cell ran: which of its names its error (not a stub's) left unbound."""
    raised = None if error is None or is_stub(error) else \
        f"{type(error).__name__}: {error}".strip()
    for name in top_level_names(source):
        remember_raised(name, raised)


def status_of(e: BaseException | None) -> str:
    """'passed', 'not written' (a stub or a missing name), 'partly right' or 'failed'."""
    if e is None:
        return "passed"
    if is_stub(e) or (is_not_defined(e) and not raised_before(getattr(e, "name"))):
        return "not written"
    if isinstance(e, PartlyRight):
        return "partly right"
    return "failed"


def explain(e: BaseException) -> str | None:
    """The words to show instead of `e`'s own message, or None to keep it."""
    name = not_written_name(e)
    if name is not None:
        return NOT_WRITTEN.format(name=f"`{name}`") if name else NOT_WRITTEN_CELL
    if is_not_defined(e):
        name = getattr(e, "name")
        error = raised_before(name)
        if error:
            return NOT_DEFINED_RAISED.format(name=name, error=error)
        if from_puzzlekit(name):
            return NOT_IMPORTED.format(name=name)
        return NOT_DEFINED.format(name=name)
    if isinstance(e, (TypeError, AttributeError, ValueError)) and "NoneType" in str(e):
        return f"{e}\n{none_why(e)}"
    if isinstance(e, TypeError) and re.search(r"'(tuple|list)' object is not callable", str(e)):
        return f"{e}\n{mistake('arguments-in-another-order', CALLED_A_BOARD)}"
    if type(e) is IndexError and "out of range" in str(e):
        board = board_near(e)
        if board is None:
            return f"{e} {INDEX_SEEN}"
        if shape(board) != (3, 3):
            return f"{e} {mistake('assumes-3x3', OTHER_SIZE.format(rows=len(board), cols=len(board[0])))}"
        return f"{e} {mistake('past-the-edge', PAST_THE_EDGE)}"
    if type(e) is TypeError and "unhashable type" in str(e) and "(a " not in str(e):
        builtin = re.search(r"unhashable type: '(list|dict|set|bytearray)'", str(e))
        return (f"{e}\n{mistake('board-not-tuple', UNHASHABLE_BUILTIN)}" if builtin
                else f"{e}\n{mistake('unhashable-class', UNHASHABLE)}")
    if type(e) is RecursionError and "instead of recursion" not in str(e):
        deep = TOO_DEEP.format(depth=sys.getrecursionlimit())
        return f"{e}\n{mistake('recursion-too-deep', deep)}"
    return None


# ---------------------------------------------------------------------------
# A value that is None: what the code of the function that gave it says

#: what `return_kind` says of a function's code
RETURN_KINDS = ("no return", "returns a value", "returns None")


def return_kind(func: object) -> str | None:
    """How `func`'s own code returns, read from its source (nested functions left out):
    "no return" (no `return` statement at all), "returns a value" (a `return` of
    something other than None), "returns None" (only bare `return` or `return None`);
    None when its code cannot be read (a handle on a function in the student's kernel,
    a builtin, a generator, a source that is not at hand)."""
    if not inspect.isfunction(func):
        # a handle: what the student's kernel read of the function's source, if anything
        said = inspect.getattr_static(func, "code_returns", None)
        return said if said in RETURN_KINDS else None
    if inspect.isgeneratorfunction(func):
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(defs) != 1:
        return None
    returns: list[ast.Return] = []
    todo: list[ast.AST] = list(defs[0].body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            returns.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    if not returns:
        return "no return"
    if any(r.value is not None and not (isinstance(r.value, ast.Constant)
                                        and r.value.value is None) for r in returns):
        return "returns a value"
    return "returns None"


def no_return_words(name: str, func: object) -> str | None:
    """The no-return diagnosis, when `func`'s code was read and has no `return` at all."""
    if return_kind(func) != "no return":
        return None
    return mistake("no-return", NO_RETURN.format(name=name))


def _calls_on_line(frame: types.FrameType, lineno: int) -> list[tuple[str, object]]:
    """(name, function) of each plain call ``name(...)`` on line `lineno` of the frame's
    code whose value the line uses (not a statement of its own, ``print_pos(p)``), the
    function looked up where the frame would find it; the kit's own left out."""
    line = linecache.getline(frame.f_code.co_filename, lineno).strip()
    try:
        tree = ast.parse(line)
    except SyntaxError:
        try:
            tree = ast.parse(line.rstrip(":\\") + ("\n    pass" if line.endswith(":")
                                                    else ""))
        except SyntaxError:
            return []
    unused = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and id(node) not in unused:
            name = node.func.id
            space = frame.f_locals if name in frame.f_locals else frame.f_globals
            if name not in space:
                continue
            code = getattr(space[name], "__code__", None)    # a handle has none
            if code is None or not code.co_filename.startswith(_PACKAGE):
                found.append((name, space[name]))
    return found


def none_why(e: BaseException) -> str:
    """Why a value in `e`'s traceback is None, as far as the code says: a function called
    on the failing line of the student's code (or of the test) that has no `return` at
    all (the no-return diagnosis), else only what was seen (`NONE_SEEN`)."""
    tb = e.__traceback__
    frames: list[tuple[types.FrameType, int]] = []
    while tb is not None:
        if not _is_kit_frame(tb.tb_frame):
            frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    for frame, lineno in reversed(frames):      # the innermost first
        for name, func in _calls_on_line(frame, lineno):
            words = no_return_words(name, func)
            if words:
                return words
    return NONE_SEEN


def _board_or_none(x: object) -> State | None:
    if not isinstance(x, (tuple, list)) or not 2 <= len(x) <= 64:
        return None
    try:
        return as_state(x)
    except (PuzzleError, TypeError, ValueError, AttributeError):
        return None


def board_near(e: BaseException) -> State | None:
    """The board the code that raised `e` was working on: the first board (tuple or list
    of rows, or a flat list) among the local values of its traceback's frames, innermost
    first, looking one level into tuples of arguments (the grader's call of the student's
    function holds them so); None when no frame holds one."""
    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in list(frame.f_locals.values()):
            board = _board_or_none(value)
            if board is None and type(value) is tuple and len(value) <= 8:
                board = next((b for b in map(_board_or_none, value) if b is not None), None)
            if board is not None:
                return board
    return None


def friendlier(e: BaseException, more: str = "") -> BaseException:
    """`e`, or an exception of the same type carrying `explain`'s words (same traceback),
    and then `more`."""
    words = explain(e)
    if more:
        words = (words if words is not None else str(e)) + more
    if words is None:
        return e
    try:
        new = NameError(words, name=e.name) if type(e) is NameError else type(e)(words)
    except Exception:
        return e
    return new.with_traceback(e.__traceback__)


def first_line(e: BaseException, width: int = 72) -> str:
    """The first line of what `e` says, cut to `width` characters."""
    text = (explain(e) or str(e) or type(e).__name__).strip().splitlines()
    line = text[0] if text else type(e).__name__
    line = line if len(line) <= width else line[:width - 1] + "…"
    return f"{type(e).__name__}: {line}"


# ---------------------------------------------------------------------------
# Short tracebacks: the notebook's cells only

def _is_kit_frame(frame: types.FrameType) -> bool:
    return (frame.f_code.co_filename.startswith(_PACKAGE)
            or bool(frame.f_locals.get("__tracebackhide__")))


def student_frames(tb: types.TracebackType | None, is_cell: Any = None,
                   ends_only: bool = False) -> types.TracebackType | None:
    """The traceback `tb` without the kit's frames (nor, given `is_cell`, non-cell frames);
    with `ends_only`, just the first and the last of those (where it ran, where it failed)."""
    kept: list[types.TracebackType] = []
    while tb is not None:
        frame = tb.tb_frame
        if not _is_kit_frame(frame) and (is_cell is None or is_cell(frame.f_code.co_filename)):
            kept.append(tb)
        tb = tb.tb_next
    if ends_only and len(kept) > 2:
        kept = [kept[0], kept[-1]]
    new: types.TracebackType | None = None
    for old in reversed(kept):
        new = types.TracebackType(new, old.tb_frame, old.tb_lasti, old.tb_lineno)
    return new


# ---------------------------------------------------------------------------
# In a notebook: the error display, and what each test cell did

@dataclass
class _Result:
    status: str          # passed / failed / not written / hidden
    why: str = ""


#: The latest result of each exercise's test cell in this kernel, by its label.
results: dict[str, _Result] = {}


def _cell_files(shell: Any) -> Any:
    names = getattr(getattr(shell, "compile", None), "_filename_map", None)

    def is_cell(filename: str) -> bool:
        if isinstance(names, dict) and filename in names:
            return True
        return filename.startswith("<ipython-input") or f"{os.sep}ipykernel_" in filename
    return is_cell


def _show_error(shell: Any, etype: type, value: BaseException, tb: Any,
                tb_offset: int | None = None) -> None:
    """IPython's custom exception handler: the friendlier message, the cells' frames."""
    shown = friendlier(value, earlier_words(explain(value) or str(value)))
    # a stub: where the student ran it and the stub itself say it all
    short = student_frames(tb, _cell_files(shell), ends_only=is_stub(value)) or tb
    shown.__traceback__ = short
    if isinstance(value, PartlyRight) and nbgrader_execution() != "validate":
        stb = [f"◐ {shown}"]        # partial credit, not a crash (no colour: it is text)
    elif nbgrader_execution() == "validate" or _a_test_failed(shell, value, tb):
        # nbgrader's Validate dialog lists every failing cell, and a test's own check
        # needs no lines of the test: the words (and the boards the check showed) say it
        stb = [error_line(type(shown).__name__, str(shown))]
    else:
        stb = shell.InteractiveTB.structured_traceback(type(shown), shown, short,
                                                       tb_offset=0 if short is not tb else 1)
    shell._showtraceback(type(shown), shown, stb)


def _a_test_failed(shell: Any, error: BaseException, tb: Any) -> bool:
    """A test's own check failed (an AssertionError, partial credit too, raised by the
    kit's checks or by code of a cell that imports them, the test cell or the setup cell;
    not by the student's code), in a test cell: the verdict is all the student needs to
    read first, not the test's lines (the check shows its boards itself)."""
    if not isinstance(error, AssertionError):
        return False
    try:
        source = shell.history_manager.input_hist_raw[-1]
    except (AttributeError, IndexError):
        return False
    if not _PASSED_CALL.search(source or ""):
        return False
    while tb is not None and tb.tb_next is not None:     # where it was raised
        tb = tb.tb_next
    if tb is None:
        return False
    if _is_kit_frame(tb.tb_frame):
        return True
    lines = linecache.getlines(tb.tb_frame.f_code.co_filename)
    return any("puzzlekit.testcells" in line for line in lines)


def _after_cell(result: Any) -> None:
    """Record the result of every test cell (a cell that calls `passed("name")`)."""
    source = getattr(getattr(result, "info", None), "raw_cell", "") or ""
    calls = _PASSED_CALL.findall(source)
    error = getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)
    _remember_cell(source, error)
    status = status_of(error)
    why = "" if error is None or status != "failed" else first_line(error)
    if isinstance(error, PartlyRight):
        words = str(error).removeprefix("partly right, ")
        why = words if len(words) <= 72 else words[:71] + "…"
    _partial.clear()        # a cell that failed after `partly` leaves nothing behind
    _notes.clear()
    if isinstance(error, (KeyboardInterrupt, MemoryError)):
        release(error)
    for label, hidden in calls:
        results[label] = _Result("hidden" if hidden and error is None else status, why)


def release(error: BaseException) -> None:
    """Free what a stopped runaway kept: the local variables of the frames in `error`'s
    traceback (and in those of the errors it came from). IPython keeps the last error
    (``sys.last_traceback``); without this, the millions of boards a search kept when the
    student interrupted it would stay in memory and slow every later cell."""
    import gc
    import traceback
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        traceback.clear_frames(error.__traceback__)
        error = error.__context__       # type: ignore[assignment]
    gc.collect()


def install(shell: Any = None) -> bool:
    """In an IPython kernel: show errors the friendly way and record test cells' results.

    Idempotent; a no-op outside IPython and in the grader's own process.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    shell.set_custom_exc((Exception,), _show_error)
    events = shell.events
    if _after_cell not in events.callbacks.get("post_run_cell", []):
        events.register("post_run_cell", _after_cell)
    return True


# ---------------------------------------------------------------------------
# What the student reads

def _grading() -> bool:
    return nbgrader_execution() == "autograde"


class PartlyRight(AssertionError):
    """A test cell whose answer is partly right: it earns `points`, not all of them."""

    def __init__(self, message: str, points: float = 0.0) -> None:
        super().__init__(message)
        self.points = points


#: The partial credit recorded by `partly` in the test cell running now: (points, why).
_partial: list[tuple[float, str]] = []


def partly(points: float, why: str) -> None:
    """Say that the test cell running now earns only `points`, because of `why` (one
    sentence naming the mistake). The cell goes on, so a later failure still costs
    everything; the lowest award of a cell counts. `passed` reports it at the end."""
    _partial.append((float(points), why))


def withdraw(points: float, why: str) -> None:
    """Take back an award `partly` recorded in this cell (`puzzlekit.testcells.cases`
    records its cases' failures anew as one award each time another case fails)."""
    if (float(points), why) in _partial:
        _partial.remove((float(points), why))


#: Diagnoses a test found in the cell running now without failing it (a search that
#: stepped back, on a board where it still found the answer): a later time-out says them.
_notes: list[str] = []


def note(why: str | None) -> None:
    """Keep `why` for a later failure of this test cell to mention."""
    if why and why not in _notes:
        _notes.append(why)


#: the longest an earlier diagnosis's line may be (the feedback drops longer lines)
_EARLIER_WIDTH = 360


def earlier_words(text: str = "") -> str:
    """The diagnoses the test cell running now found before it failed (the reasons of
    its partial credit, then its notes), a line each after `EARLIER`, those that `text`
    (the failure's own words) does not say already: a visible check's precise diagnosis
    stays beside a later failure (a hidden test's, whose words are few)."""
    said = "".join(text.split())
    lines = []
    for why in dict.fromkeys([why for _, why in _partial] + _notes):
        flat = " ".join(why.split())
        if not flat or "".join(flat.split()) in said:
            continue
        if len(flat) > _EARLIER_WIDTH:
            flat = flat[:_EARLIER_WIDTH - 1] + "…"
        lines.append(f"\n{EARLIER}{flat}")
        said += "".join(flat.split())
    return "".join(lines)


def take_notes() -> list[str]:
    """The notes of the cell running now (and forget them)."""
    found = list(_notes)
    _notes.clear()
    return found


def notes() -> list[str]:
    """The notes of the cell running now."""
    return list(_notes)


#: The partial credit `passed` reported while grading, for the grader to record.
_awarded: list[float] = []


def take_awarded() -> float | None:
    """The points the test cell that just ran was awarded by `passed`, if partial (and
    forget them): the judge turns them into the cell's value for nbgrader."""
    found = min(_awarded) if _awarded else None
    _awarded.clear()
    return found


def take_partial() -> tuple[float, str] | None:
    """The lowest award `partly` recorded since the last call, with every reason given
    (and forget them all)."""
    if not _partial:
        return None
    points = min(award[0] for award in _partial)
    # the reason of the lowest award first: it is what the student lost most points for
    reasons = list(dict.fromkeys(why for _, why in sorted(_partial, key=lambda a: a[0])))
    _partial.clear()
    more = len(reasons) - 1
    return points, reasons[0] + (MORE_CASES.format(more=more, s="s" if more > 1 else "")
                                 if more else "")


def _wrapped(text: str, width: int = 88) -> str:
    """`text` in lines of at most `width` characters (feedback pages do not scroll)."""
    # never inside a hyphenated word: "breadth-first" stays whole, to be read and found
    return "\n".join(textwrap.fill(line, width, subsequent_indent="  ",
                                   break_on_hyphens=False)
                     for line in text.splitlines())


class Credit(float):
    """Partial points as a cell's value: nbgrader reads the number (``text/plain``) as the
    cell's score; the notebook shows a sentence."""

    def _repr_html_(self) -> str:
        return f"<b>{CREDIT.format(points=self, s='' if self == 1 else 's')}</b>"


def _points(points: float) -> str:
    return f"{points:g} point{'' if points == 1 else 's'}"


def passed(label: str, hidden: bool = False) -> Credit | None:
    """Say in one line that an exercise's tests passed (the last line of its test cell).

    `hidden`: the exercise has only hidden tests, which run when the notebook is graded.
    When `partly` recorded partial credit in the cell, say so instead: while grading, the
    cell's value is the points it earns; in a student's notebook it fails with the reason.
    """
    award = take_partial()
    if award is not None:
        points, why = award
        if _grading():
            print(_wrapped(PARTLY_GRADED.format(label=label, points=_points(points), why=why)))
            _awarded.append(points)
            return Credit(points)
        raise PartlyRight(_wrapped(PARTLY.format(points=_points(points), why=why)), points)
    if _grading():
        print(PASSED_GRADED.format(label=label))
    elif hidden:
        print(PASSED_HIDDEN.format(label=label))
    else:
        print(PASSED.format(label=label))
    return None


_MARK = {"passed": STATUS_PASSED, "failed": STATUS_FAILED, "not written": STATUS_NOT_WRITTEN,
         "partly right": STATUS_PARTLY, "not run": STATUS_NOT_RUN, "hidden": STATUS_HIDDEN}
_COLOUR = {"passed": "#1a7f37", "failed": "#cf222e", "not written": "#9a6700",
           "partly right": "#bc4c00",
           "not run": "#57606a", "hidden": "#57606a"}


@dataclass
class Summary:
    """Where a student stands: each exercise's status and points (text and HTML)."""

    rows: list[tuple[str, int | float, str, str]]   # label, points, status, why

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for _, _, status, _ in self.rows:
            found[status] = found.get(status, 0) + 1
        return found

    def _headline(self) -> str:
        done = sum(p for _, p, s, _ in self.rows if s == "passed")
        total = sum(p for _, p, _, _ in self.rows)
        exercises = f"{self.counts().get('passed', 0)} of {len(self.rows)} exercises"
        if not total:       # no points given: the instructor's source notebook
            return SUMMARY_PASS.format(exercises=exercises)
        return SUMMARY_POINTS.format(done=done, total=total, exercises=exercises)

    def __str__(self) -> str:
        width = max((len(label) for label, *_ in self.rows), default=0)
        lines = [self._headline()]
        for label, points, status, why in self.rows:
            line = f"  {label:<{width}}  {points:>2g} pt  {_MARK[status]}"
            lines.append(line + (f": {why}" if why else ""))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        cells = []
        for label, points, status, why in self.rows:
            cells.append(
                f"<tr><td style='text-align:left'><code>{html.escape(label)}</code></td>"
                f"<td>{points:g}</td><td style='text-align:left;color:{_COLOUR[status]}'>"
                f"<b>{_MARK[status]}</b>"
                + (f": {html.escape(why)}" if why else "") + "</td></tr>")
        return (f"<div><b>{html.escape(self._headline())}</b>"
                "<table><tr><th style='text-align:left'>exercise</th><th>points</th>"
                "<th style='text-align:left'>status</th></tr>" + "".join(cells)
                + "</table></div>")


def summary(points: Mapping[str, int | float] | None = None) -> Summary | str:
    """Every exercise of the notebook (label → points) with what its test cell did.

    The points come from the test cells' nbgrader metadata: ``nbgrader generate_assignment``
    writes them into the summary cell of the students' copy (`puzzlekit.course.authoring`). Without
    them (the instructor's source notebook), the exercises whose tests have run are listed.
    While the notebook is graded the tests run outside the kernel, so the summary says
    where the scores are instead.
    """
    if _grading():
        return str(BEING_GRADED)
    if points is None:
        points = {label: 0 for label in results}
    rows = []
    for label, worth in points.items():
        found = results.get(label)
        rows.append((label, worth, found.status if found else "not run",
                     found.why if found else ""))
    return Summary(rows)
