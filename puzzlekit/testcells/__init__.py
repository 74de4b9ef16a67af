"""Helpers for the graded notebooks: friendly failures that show the boards.

A test cell in the course reads like a sentence:

    assert_board_equal(moveUp(start, 0, 1), expected, what="moveUp(start, 0, 1)")
    assert_solution(start, goal, path, optimal_length=31)
    with forbid_reference("nextStates"):
        run_with_timeout(5, nextStates, start)

Every failure is an ``AssertionError`` whose message a student can act on: what was
expected, what came back, and (in a notebook) both boards side by side in colour.

The testcells wing is what a test cell imports. It runs in the student's notebook (the
Validate button, a student's own run) and in the grader's judge (autograding), and it
guards marks by what the helpers accept: any optimal path, a reference forbidden by
every route. It never imports the autograder: under the judge it reaches it only through
`session` (tests/test_layers.py).
"""

from __future__ import annotations

import contextlib
import functools
import html
import importlib
import inspect
import io
import linecache
import pprint
import re
import reprlib
import sys
import textwrap
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .. import registry
from ..context import in_notebook
from ..errors import PuzzleError
from ..puzzle.board import State, flatten, shape
from ..puzzle.exact import MAX_CELLS, exact_distance
from ..puzzle.formats import as_state
from ..puzzle.heuristics import manhattan
from ..puzzle.moves import check_solution, moves_to_path
from ..puzzle.solvability import is_solvable
from ..puzzle.text import board_str
from ..visuals.display import board_html, diff_html
from .diagnose import diagnose_move, diagnose_neighbours, diagnose_path, diagnose_search
from . import budget, catalogue, instrument, runner
from .cases import Cases
from .instrument import ExpansionLimit, Recorder, counted
from .see import see_search
from .messages import (
    PartlyRight,
    install,
    no_return_words,
    note,
    notes,
    partly,
    passed,
    return_kind,
    summary,
)
from .mistakes import Diagnosis, mistake
from .session import KernelStopped, current_judge

T = TypeVar("T")

__all__ = ["assert_board_equal", "assert_solution", "assert_equal", "assert_prints_path",
           "forbid_reference", "run_with_timeout", "as_board", "side_by_side",
           "boards_in_a_row", "passed", "partly", "summary", "counted", "recording",
           "Recorder", "ExpansionLimit", "PartlyRight", "mistake", "Diagnosis", "Cases",
           "example", "see_search"]


# ---------------------------------------------------------------------------
# Reading whatever a student returns as a board

def as_board(x: object) -> State | None:
    """`x` as a state if it is a board in any format of the course's documents, else None.

    Accepts tuples/lists of rows, flat lists (0, ``' '`` or ``'_'`` blank), strings like
    ``'1238_4765'`` and objects with a ``squares`` attribute (the `EightPuzzle` class of
    the lecture slides on an 8-puzzle solver).
    """
    squares = getattr(x, "squares", None)
    if squares is not None and not isinstance(x, (str, Sequence)):
        x = list(squares)
    try:
        return as_state(x)
    except (PuzzleError, TypeError, ValueError, AttributeError):
        return None


def _grid(x: object) -> State | None:
    """`x` as rows of whole numbers, all of one length (a board or not), else None."""
    if not isinstance(x, (list, tuple)) or not x:
        return None
    rows = [r for r in x if isinstance(r, (list, tuple))]
    if len(rows) != len(x) or len({len(r) for r in rows}) != 1:
        return None
    if not all(type(t) is int for r in rows for t in r):
        return None
    return tuple(tuple(r) for r in rows)


def _board_lines(x: object) -> list[str]:
    S = as_board(x)
    if S is None:
        return repr(x).splitlines() or [""]
    return board_str(S).splitlines()


def side_by_side(left: object, right: object, titles: tuple[str, str] = ("expected", "got"),
                 gap: int = 6) -> str:
    """Two boards as plain text next to each other, with a title over each."""
    a, b = _board_lines(left), _board_lines(right)
    width = max(len(titles[0]), *(len(line) for line in a))
    rows = [f"{titles[0]:<{width}}{' ' * gap}{titles[1]}"]
    for i in range(max(len(a), len(b))):
        la = a[i] if i < len(a) else ""
        lb = b[i] if i < len(b) else ""
        rows.append(f"{la:<{width}}{' ' * gap}{lb}".rstrip())
    return "\n".join(rows)


# ---------------------------------------------------------------------------
# Showing the two boards in colour when running in a notebook

def _diff_html(expected: State, got: State | None, got_raw: object) -> str:
    return str(diff_html(expected, got if got is not None else got_raw))


def _show_html(markup: str) -> None:
    judge = current_judge()
    if judge is not None:      # autograding: the grader keeps the picture for the feedback
        judge.display_html(markup)
        return
    if not in_notebook():
        return
    try:
        from IPython.display import HTML, display
        display(HTML(markup))
    except Exception:
        pass


# ---------------------------------------------------------------------------
# A result that is None: what was seen, and what the function's code says

def _student_function(what: str) -> tuple[str, object] | None:
    """(name, function) for the first word of `what` that names a function of the test's
    namespace that is not the kit's: the function whose result the test checks (a handle
    on the student's function while grading). Names the kernel was never asked for are
    not fetched."""
    spaces = _caller_namespaces()
    for word in re.findall(r"[A-Za-z_]\w*", what):
        for space in spaces:
            value = dict.get(space, word)
            if (value is None or not callable(value) or isinstance(value, type)
                    or inspect.isbuiltin(value) or getattr(value, "__name__", None) != word):
                continue
            code = getattr(value, "__code__", None)
            if code is None or not code.co_filename.startswith(registry.PACKAGE_DIR):
                return word, value
    return None


def _moves_away(S: State, G: State) -> int | None:
    """How many moves `S` is from `G`: -1 when it can be reached but counting the moves
    would take long (more than 9 squares), None when it cannot be reached."""
    try:
        if shape(S) != shape(G) or not is_solvable(S, G):
            return None
        rows, cols = shape(S)
        return exact_distance(S, G) if rows * cols <= MAX_CELLS else -1
    except (PuzzleError, ValueError):
        return None


def _none_words(what: str, S: State | None = None, G: State | None = None) -> str | None:
    """What to say of a None result of the check `what`: no `return` at all in the
    function's code (the no-return diagnosis), else what was seen: the board a search
    returned None for (`S`, `G`), or that the function returns something elsewhere."""
    found = _student_function(what)
    kind = None
    if found is not None:
        name, func = found
        words = no_return_words(name, func)
        if words:
            return words
        kind = return_kind(func)
    moves = _moves_away(S, G) if S is not None and G is not None else None
    if moves is not None and kind is not None:  # its code has a `return`: it gave up here
        away = (catalogue.REACHABLE if moves < 0 else catalogue.IS_THE_GOAL if moves == 0
                else catalogue.MOVES_AWAY.format(moves=moves, s="s" if moves != 1 else ""))
        return catalogue.NO_PATH_FOUND.format(away=away)
    if moves is not None:                       # its code unseen: only what was seen
        board = (catalogue.A_REACHABLE_BOARD if moves < 0 else
                 catalogue.A_GOAL_BOARD if moves == 0 else
                 catalogue.A_BOARD_AWAY.format(moves=moves, s="s" if moves != 1 else ""))
        return catalogue.RETURNED_NONE_FOR.format(board=board)
    if S is not None:
        return str(catalogue.RETURNED_NONE)
    if found is not None and kind is not None:
        have = (catalogue.RETURNS_ELSEWHERE if kind == "returns a value"
                else catalogue.HAS_A_RETURN)
        return catalogue.WHICH_RETURN.format(name=found[0], have=have)
    return None


# ---------------------------------------------------------------------------
# The assertions

def assert_board_equal(got: object, expected: object, *, what: str = "the board",
                       start: object = None, why: str | None = None) -> None:
    """Fail with both boards (in colour in a notebook) unless `got` is the board `expected`.

    `start`: the board the move was made on; the message then names the mistake when it
    is a typical one (the blank moved instead of the tile, a wrap round the edge, …).
    `why`: a diagnosis found otherwise (say, by `diagnose_shuffle`), said when they differ.
    """
    __tracebackhide__ = True   # pytest reports the line of the test that called this
    want = as_board(expected)
    if want is None:
        raise PuzzleError(f"assert_board_equal: the expected value is not a board: {expected!r}")
    have = as_board(got)
    if have == want:
        return
    _show_html(_diff_html(want, have, got))
    if got is None:
        hint = _none_words(what)
        raise AssertionError(catalogue.BOARD_IS_NONE.format(what=what, want=board_str(want))
                             + (f" {hint}" if hint else ""))
    before = as_board(start) if start is not None else None
    if have is None:
        grid = _grid(got)   # rows of tiles that break a rule: a tile twice, no blank
        why = diagnose_move(before, grid, want) if before and grid else None
        head = f"{what}: {why}\nit" if why else what
        raise AssertionError(catalogue.NOT_A_BOARD.format(head=head, want=board_str(want),
                                                          got=f"{got!r:.200}"))
    why = (diagnose_move(before, have, want) if before is not None else None) or why
    head = f"{what}: {why}" if why else catalogue.NOT_THE_BOARD.format(what=what)
    raise AssertionError(f"{head}:\n{side_by_side(want, have)}" if not why
                         else f"{head}\n{side_by_side(want, have)}")


def _boards_in(x: object) -> list[State] | None:
    """The boards of a set of boards (what `nextStates` returns), else None."""
    if not isinstance(x, (set, frozenset)) or len(x) > 10_000:
        return None     # not a set of boards, or too many to compare one by one
    boards = [S for S in map(as_board, x) if S is not None]
    return sorted(boards) if len(boards) == len(x) else None


def boards_in_a_row(boards: Sequence[State], gap: int = 4) -> str:
    """Several boards as plain text next to each other."""
    columns = [board_str(S).splitlines() for S in boards]
    widths = [max(len(line) for line in col) for col in columns]
    rows = []
    for i in range(max((len(col) for col in columns), default=0)):
        cells = [(col[i] if i < len(col) else "").ljust(w) for col, w in zip(columns, widths)]
        rows.append((" " * gap).join(cells).rstrip())
    return "\n".join(rows)


def _boards_html(groups: list[tuple[str, list[State]]]) -> str:
    rows = [f'<div><b>{html.escape(title)}</b><div style="display:flex;flex-wrap:wrap;gap:1em">'
            + "".join(board_html(S) for S in boards) + "</div></div>"
            for title, boards in groups if boards]
    return '<div style="display:flex;flex-direction:column;gap:0.5em">' + "".join(rows) + "</div>"


#: the most boards of one kind a failure message shows (a set of 100,000 wrong boards would
#: otherwise make a message, and a feedback page, of hundreds of MB)
SHOWN_BOARDS = 12


def _set_difference_message(message: str, got: list[State], expected: list[State],
                            why: str | None = None) -> str:
    want, have = set(expected), set(got)
    missing = [S for S in expected if S not in have]
    extra = [S for S in got if S not in want]
    groups = [(f"missing ({len(missing)} of the {len(expected)} expected states):", missing),
              (f"not expected ({len(extra)} of the {len(got)} states returned):", extra)]
    shown = [(title + (f" the first {SHOWN_BOARDS}" if len(boards) > SHOWN_BOARDS else ""),
              boards[:SHOWN_BOARDS]) for title, boards in groups]
    _show_html(_boards_html(shown))
    sizes = f"expected a set of {len(expected)} states, got {len(got)}"
    parts = [f"{message}: {why}\n{sizes}" if why else f"{message}: {sizes}"]
    parts += [f"{title}\n{boards_in_a_row(boards)}" for title, boards in shown if boards]
    return "\n".join(parts)


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 6, 600, 200
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxfrozenset = 60
_SHORT.maxdict = 30


def _shown(x: object, limit: int = 600) -> str:
    """A value as readable text: wrapped to lines of ~76 characters, cut after `limit`.
    A big value is cut before it is formatted (its first items only), so that a value of
    a million items costs no more to show than a small one."""
    text = _SHORT.repr(x)
    if "..." not in text and len(text) <= limit:
        text = pprint.pformat(x, width=76, compact=True)
    else:
        text = "\n".join(textwrap.wrap(text[:limit + 100], 76, break_on_hyphens=False))
    text = text if len(text) <= limit else text[:limit] + " …"
    return text.replace("\n", "\n            ")


def assert_equal(got: object, expected: object, message: str, *,
                 start: object = None, why: str | None = None) -> None:
    """Fail with `message` and both values unless ``got == expected``. Sets of boards are
    compared board by board: the message shows the missing and the unexpected ones, and,
    given the board `start` they are the next states of, names a typical mistake. `why`:
    a diagnosis to add when they differ (say, from `diagnose_heuristic`)."""
    __tracebackhide__ = True   # pytest reports the line of the test that called this
    if got == expected:
        return
    if why:
        message = f"{message}: {why}"
    want, have = _boards_in(expected), _boards_in(got)
    if want is not None and have is not None:
        before = as_board(start) if start is not None else None
        why = diagnose_neighbours(before, have, want) if before is not None else None
        raise AssertionError(_set_difference_message(message, have, want, why))
    hint = _none_words(message) if got is None and expected is not None else None
    hint = f"\n{hint}" if hint else ""
    raise AssertionError(f"{message}\n  expected: {_shown(expected)}\n  got:      {_shown(got)}"
                         + hint)


def assert_solution(start: object, goal: object, path_or_moves: object, *,
                    optimal_length: int | None = None, what: str = "your path",
                    partial: float | None = None, searched: Recorder | None = None,
                    kind: str = "breadth-first", hint: str | None = None) -> None:
    """Fail unless `path_or_moves` (states or move letters) legally takes `start` to `goal`.

    With `optimal_length`, the solution must also have exactly that many moves; any
    optimal solution is accepted, whatever its tie-breaks. With `partial`, a solution
    that is right but longer than the shortest earns those points (`partly`) instead of
    failing. `searched`: the `Recorder` the search was given (or `recording` made), whose
    record may say why (`diagnose_search`, with the search's `kind`); else `hint` says
    what makes such a search find a shortest path.
    """
    __tracebackhide__ = True   # pytest reports the line of the test that called this
    S, G = as_board(start), as_board(goal)
    if S is None or G is None:
        raise PuzzleError("assert_solution: start and goal must be boards")
    if path_or_moves is None:
        raise AssertionError(f"{what} is None: {_none_words(what, S, G)}")
    seq = path_or_moves
    if not isinstance(seq, str):
        if not isinstance(seq, Sequence):
            try:
                seq = list(seq)  # type: ignore[call-overload]
            except TypeError:
                raise AssertionError(catalogue.NOT_A_SEQUENCE.format(
                    what=what, kind=type(seq).__name__)) from None
        if seq and not isinstance(seq[0], str):
            seq = [_path_board(x, S) for x in seq]
    try:
        verdict = check_solution(S, G, seq)  # type: ignore[arg-type]
    except PuzzleError as e:
        raise AssertionError(f"{what} is not a solution: {e}") from None
    if not verdict.ok:
        why: str | None = diagnose_path(S, G, seq)  # type: ignore[arg-type]
        raise AssertionError(f"{what} is not a solution: {why or verdict.message}")
    if searched is not None and (optimal_length is None or verdict.length == optimal_length):
        # a right answer, found the wrong way (boards expanded twice, a step straight back):
        # worth `partial` points, and a later time-out says why
        why = diagnose_search(S, searched.record, kind)
        note(why)
        if why and partial is not None:
            partly(partial, f"{what} is right, but {why}")
    if optimal_length is not None and verdict.length != optimal_length:
        more = "longer" if verdict.length > optimal_length else "shorter (impossible!)"
        message = catalogue.NOT_SHORTEST.format(what=what, length=verdict.length,
                                                best=optimal_length, more=more)
        why = diagnose_search(S, searched.record, kind) if searched is not None else None
        why = why or hint
        message += f"\nwhy: {why}" if why else ""
        if why:
            note(why)
        if partial is not None and verdict.length > optimal_length:
            partly(partial, message)
            return
        raise AssertionError(message)


def _path_board(x: object, start: State) -> object:
    """A state of a student's path, read as a board if it can be (else left as it is).

    A tuple of tuples of `start`'s shape is kept as it is, unchecked: `check_solution`
    checks the first state in full and then that each next one is a single slide of the
    blank, which keeps every later state a legal board. A DFS path of 100,000 states
    would otherwise spend seconds on the full check of every state.
    """
    if (type(x) is tuple and len(x) == len(start)
            and all(type(row) is tuple and len(row) == len(start[0]) for row in x)):
        return x
    board = as_board(x)
    return x if board is None else board


# ---------------------------------------------------------------------------
# Making sure students write the function themselves

class Forbidden:
    """Stands in for a reference function while a student's code runs."""

    def __init__(self, name: str, calls: list[str]) -> None:
        self.name, self.calls = name, calls

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise _forbidden_call(self.name)


def _reference(name: str) -> tuple[types.ModuleType, object]:
    """(the module that defines puzzlekit.`name`, the function)."""
    module = importlib.import_module(f"puzzlekit.{registry.module_of(name)}")
    return module, getattr(module, name)


def _import_references() -> None:
    """Import every module behind the front (but those that need ipywidgets)."""
    for module in sorted(set(registry.EXPORTS.values()) - registry.HEAVY_MODULES):
        importlib.import_module(f"puzzlekit.{module}")


def _restore_leftovers(originals: dict[str, object]) -> None:
    """Put the real function back wherever a stand-in is still bound in puzzlekit (a
    module first imported inside the block may have copied one)."""
    for mod_name, module in list(sys.modules.items()):
        if mod_name != "puzzlekit" and not mod_name.startswith("puzzlekit."):
            continue
        space = getattr(module, "__dict__", {})
        for key, value in list(space.items()):
            if isinstance(value, Forbidden) and value.name in originals:
                space[key] = originals[value.name]


def _caller_namespaces() -> list[dict[str, Any]]:
    spaces: list[dict[str, Any]] = []
    main = sys.modules.get("__main__")
    if main is not None:
        spaces.append(vars(main))
    frame = inspect.currentframe()
    while frame is not None:
        g = frame.f_globals
        module = str(g.get("__name__"))
        # the test's own frame: past the testcells wing (its checks too) and contextlib
        if module != "contextlib" and module != __name__ and \
                not module.startswith(f"{__name__}.") and all(g is not s for s in spaces):
            spaces.append(g)
            break
        frame = frame.f_back
    return spaces


_ABSENT = object()

def _stand_in_code(name: str) -> types.CodeType:
    """The code of a function that reports a call of the forbidden reference `name`.

    Its source is put into `linecache`, so that a student's traceback shows the line
    that says what happened instead of "Could not get source"."""
    filename = f"<puzzlekit's {name}, switched off while this test runs>"
    source = (f"def {name}(*args, **kwargs):\n"
              f"    raise __import__('puzzlekit.testcells', fromlist=['_'])"
              f"._forbidden_call({name!r})  # write {name} yourself\n")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return _compiled_stand_in(name, filename, source)


@functools.lru_cache(maxsize=None)
def _compiled_stand_in(name: str, filename: str, source: str) -> types.CodeType:
    space: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), space)
    return space[name].__code__  # type: ignore[no-any-return]


_CALLS: list[list[str]] = []   # the calls lists of the blocks now open, innermost last


def _forbidden_call(name: str) -> AssertionError:
    """Record a call of a forbidden reference; the error to raise in the student's code."""
    for calls in _CALLS:
        calls.append(name)
    return AssertionError(mistake("used-the-reference", catalogue.FORBIDDEN.format(name=name)))


@functools.lru_cache(maxsize=64)   # the same few tuples of names, once per call of the tests
def _functions_behind(names: tuple[str, ...]) -> dict[str, list[types.FunctionType]]:
    """For each forbidden name: the function objects to disable (the reference itself and,
    for the searches, every function defined under the engine's folder)."""
    behind: dict[str, list[types.FunctionType]] = {}
    for name in names:
        module, func = _reference(name)
        found = [func] if isinstance(func, types.FunctionType) else []
        for engine in registry.engine_modules() if name in registry.ENGINE_NAMES else ():
            space = vars(importlib.import_module(f"puzzlekit.{engine}"))
            found += [f for f in space.values() if isinstance(f, types.FunctionType)
                      and f.__module__ == f"puzzlekit.{engine}" and f not in found]
        behind[name] = found
    return behind


@contextlib.contextmanager
def forbidding(*names: str) -> Iterator[list[str]]:
    """While the block runs, puzzlekit's references `names` do not work: calling one, by
    any route (an alias, a default argument, `functools.partial`, a bound method, a
    private module), raises and is recorded in the list the block gets."""
    calls: list[str] = []
    patches: list[tuple[dict[str, Any], str, object]] = []   # (namespace, key, old value)
    swapped: list[tuple[types.FunctionType, types.CodeType]] = []
    # look every reference up (importing its module, and whatever that imports) before
    # patching any, so that no module imported now keeps a stand-in for good
    _import_references()
    found = {name: _reference(name) for name in names}
    originals = {name: func for name, (_, func) in found.items()}
    behind = _functions_behind(tuple(found))
    for name, (module, _) in found.items():
        stand_in = Forbidden(name, calls)
        for space in (vars(module), vars(sys.modules["puzzlekit"])):   # the front's copy
            patches.append((space, name, space.get(name, _ABSENT)))
            space[name] = stand_in
    for space in _caller_namespaces():
        for key, value in list(space.items()):
            for name, func in originals.items():
                if value is func:
                    patches.append((space, key, value))
                    space[key] = Forbidden(name, calls)
    # the function objects themselves: whoever holds one calls the stand-in's code
    stand_ins: dict[int, tuple[types.FunctionType, str]] = {}
    for name, functions in behind.items():
        for f in functions:   # each function once, under its own name if it is forbidden
            if id(f) not in stand_ins or f.__name__ == name:
                stand_ins[id(f)] = (f, name)
    for f, name in stand_ins.values():
        if f.__code__.co_freevars:
            continue
        swapped.append((f, f.__code__))
        f.__code__ = _stand_in_code(name)
    _CALLS.append(calls)
    try:
        yield calls
    finally:
        _CALLS.remove(calls)
        for f, code in reversed(swapped):
            f.__code__ = code
        for space, key, old in reversed(patches):
            if old is _ABSENT:
                space.pop(key, None)
            else:
                space[key] = old
        _restore_leftovers(originals)


def sealed_forbidding() -> Callable[..., contextlib.AbstractContextManager[list[str]]]:
    """`forbidding` on its own copy of this module's names, with every reference (its
    module, the function and the functions behind it) looked up now: rebinding
    ``forbidding``, its helpers, `puzzlekit.registry` or `sys.modules` afterwards changes
    nothing it does. The grader's agent makes one when the kernel starts, before any
    student code runs."""
    _import_references()
    table = {name: _reference(name) for name in registry.EXPORTS
             if registry.module_of(name) not in registry.HEAVY_MODULES}
    table = {name: found for name, found in table.items()
             if isinstance(found[1], types.FunctionType)}
    behind = {name: _functions_behind((name,))[name] for name in table}

    def reference(name: str) -> tuple[types.ModuleType, object]:
        if name not in table:
            raise PuzzleError(f"forbid_reference: puzzlekit has no reference {name!r}")
        return table[name]

    space = dict(globals())
    space.update(_import_references=lambda: None, _reference=reference,
                 _functions_behind=lambda names: {n: behind[n] for n in names})
    space["forbidding"] = forbidding.__wrapped__     # type: ignore[attr-defined]
    for key, value in list(space.items()):   # the module's own functions, on the copy
        if isinstance(value, types.FunctionType) and value.__code__.co_filename == __file__:
            copy = types.FunctionType(value.__code__, space, value.__name__,
                                      value.__defaults__, value.__closure__)
            copy.__kwdefaults__ = value.__kwdefaults__
            space[key] = copy
    space["forbidding"] = contextlib.contextmanager(space["forbidding"])
    return space["forbidding"]  # type: ignore[no-any-return]


@contextlib.contextmanager
def forbid_reference(*names: str) -> Iterator[None]:
    """While the block runs, calling puzzlekit's reference `names` fails the test.

    Catches ``pk.nextStates``, ``from puzzlekit import nextStates``, wrappers around them
    (``functools.partial``, lambdas, default arguments) and private modules, even when the
    student's code swallows the exception. While autograding, the grader asks the
    student's kernel to forbid them around each call of the student's code.
    """
    judge = current_judge()
    if judge is not None:
        with judge.forbidding(names):
            yield
        return
    with forbidding(*names) as calls:
        yield
    if calls:
        raise AssertionError(mistake("used-the-reference", catalogue.FORBIDDEN.format(name=calls[0])))


# ---------------------------------------------------------------------------
# Recording what a search asks of the puzzle (see puzzlekit.testcells.instrument)

@contextlib.contextmanager
def recording(name: str, limit: int | None = None) -> Iterator[Recorder]:
    """While the block runs, the notebook's function `name` (say ``"successors"``, which
    the student's search calls by name) records every board it is called with; the block
    gets the `Recorder`, whose `record` the test reads afterwards. Past `limit` calls it
    stops the search with the reason (`ExpansionLimit`). While autograding, the grader
    asks the student's kernel to record around each call of the student's code."""
    recorder = Recorder(name=name, limit=limit)
    judge = current_judge()
    if judge is not None:
        with judge.recording(recorder):
            yield recorder
        return
    patched: list[dict[str, Any]] = []
    for space in _caller_namespaces():
        func = space.get(name)
        if callable(func) and not isinstance(func, Recorder):
            recorder.func = func
            space[name] = recorder
            patched.append(space)
    try:
        yield recorder
    finally:
        for space in patched:
            if space.get(name) is recorder:
                space[name] = recorder.func


# ---------------------------------------------------------------------------
# A heuristic for testing A*

def patchy_manhattan(S: State, goal: State) -> int:
    """Manhattan distance on boards whose top-left tile is odd, 0 on the others.

    Never above the true distance (admissible) but not consistent: one move can lower it
    by more than 1. With it a board can be reached more cheaply after it was expanded,
    and A* stays optimal only if it takes such a board out again (an A* whose closed set
    never reopens returns a longer path). Passed to a student's `astar` by the tests."""
    return manhattan(S, goal) if S[0][0] % 2 else 0


# ---------------------------------------------------------------------------
# Stopping code that runs too long (seconds of computing time: puzzlekit.testcells.budget)

def run_with_timeout(seconds: float, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``func(*args, **kwargs)``, or an AssertionError if it computes for more than
    `seconds` of CPU time (on a busy machine the clock may show more; see `budget`)."""
    judge = current_judge()
    if judge is not None:      # autograding: the grader counts the kernel's CPU time
        name = getattr(func, "__name__", "your function")
        with runner.with_why():
            return judge.within(seconds, runner.too_slow(name, seconds), func,  # type: ignore[no-any-return]
                                *args, **kwargs)
    value, stopped = runner.run(func, args, kwargs, seconds=seconds)
    if stopped:
        raise AssertionError(stopped)
    return value  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# An example cell: the student's function, run as its test runs it

#: seconds of computing time an example cell gives the student's function (its test's)
EXAMPLE_SECONDS = 6.0


def example(func: Callable[..., T], *args: Any, successors: str | None = None,
            reference: Callable[..., Any] | None = None,
            seconds: float = EXAMPLE_SECONDS) -> T | Any:
    """``func(*args)`` as the example cell after an exercise runs it: under the budget of
    computing time its test gives (`run_with_timeout`), with the boards it asks the
    notebook's `successors` function about recorded (also when that function is one of
    `args`), so a runaway search stops within seconds with the words its test would give
    ("It asked for the next states of one board 40 times …"). A function not written
    yet gives ``reference(*args)`` instead, and says so (None, and says so, without one).

    In the student's kernel it runs as `see_search` runs a search (`runner.run`); in a
    given cell the grader runs again, the grader records and times it."""
    name = getattr(func, "__name__", "your function")
    try:
        if current_judge() is None:
            original, given = runner.successor(func, args, successors) if successors \
                else (None, [])
            recorder = Recorder(original, name=successors) if original is not None else None
            value, stopped = runner.run(func, args, seconds=seconds, recorder=recorder,
                                        given=given)
            if stopped:
                raise AssertionError(stopped)
            return value
        with contextlib.ExitStack() as stack:
            call = args
            if successors is not None:
                recorder = stack.enter_context(recording(successors))
                call = tuple(recorder if a is recorder.func and a is not None else a
                             for a in args)
            return run_with_timeout(seconds, func, *call)
    except NotImplementedError:
        if reference is None:
            print(catalogue.NOT_WRITTEN_NOTHING.format(name=name))
            return None
        print(catalogue.NOT_WRITTEN_REFERENCE.format(name=name))
        return reference(*args)


# ---------------------------------------------------------------------------
# Checking what a function prints

def assert_prints_path(func: Callable[..., object], board: Sequence[object], moves: str, *,
                       what: str | None = None) -> None:
    """Fail unless ``func(board, moves)`` prints every board along `moves`, in order.

    Only the numbers and the move letters are read, so any spacing is accepted, and the
    blank may be printed as 0 or as a space.
    """
    __tracebackhide__ = True   # pytest reports the line of the test that called this
    what = what or f"{getattr(func, '__name__', 'your function')}({list(board)!r}, {moves!r})"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        func(list(board), moves)
    text = out.getvalue()
    path = moves_to_path(as_state(list(board)), moves)
    want_numbers = [x for S in path for x in flatten(S) if x]
    got_numbers = [int(x) for x in re.findall(r"\d+", text) if int(x)]
    if got_numbers != want_numbers:
        boards = len(path)
        raise AssertionError(catalogue.PRINTS_OTHER_BOARDS.format(
            what=what, boards=boards, s="s" * (boards != 1), moves=len(moves),
            ms="s" * (len(moves) != 1), text=text[:1500]))
    letters = "".join(re.findall(r"\b[UDLR]\b", text))
    assert_equal(letters, moves, catalogue.MOVE_LETTERS.format(what=what))


# In a notebook, errors say what to do and test cells' results are kept for `summary`.
install()
