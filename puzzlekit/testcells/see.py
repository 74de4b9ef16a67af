"""See your own search: run the student's search on a small board and draw what it did.

``see_search(dfs, start, goal)`` calls the student's `dfs` with the successor function
it uses (``nextStates`` by default; `watch` names another, such as the notebook's
``successors``) recorded by a `Watch`: the recorder of `instrument`, which also keeps,
for the first expansions, what each call gave back. From that record
`puzzlekit.visuals.search_view` draws the boards in the order the search expanded them,
by depth, the repeats, the frontier and the path it returned.

The call is run as a test runs it (`runner.run`, as an example cell runs it too): past
`limit` calls the recorder stops the search with the words a test gives
(`instrument.limit_message`), and past `seconds` of computing time it is stopped with the
words of a test's time limit. What the search printed is kept out
of the cell. Where the student's function (or one it calls) is not written yet
(``NotImplementedError``), the kit's reference search runs on the kit's ``nextStates``
instead, and the drawing says so.

While nbgrader executes the notebook (`context.under_autograder`) the drawing is made
without its script, from a search bounded more tightly: grading time stays as it was,
and the feedback shows every step at once.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from .. import registry
from ..context import under_autograder
from ..engine import informed, uninformed
from ..engine.layered import search as layered_search
from ..engine.problem import Budget, GenericProblem
from ..errors import PuzzleError
from ..puzzle.board import State, goal_state, shape
from ..puzzle.formats import as_state
from ..puzzle.heuristics import manhattan
from ..puzzle.lecture import nextStates
from ..puzzle.moves import move_between, moves_to_path
from ..visuals.search_view import MAX_DRAWN, MAX_PATH, SearchView, Trace
from . import catalogue, runner
from .instrument import ExpansionLimit, Recorder

#: calls of the successor function before the search is stopped (as the tests of `search`)
LIMIT = 2000
#: seconds of computing time the search gets
SECONDS = 3.0
#: under the autograder: fewer calls, seconds and boards drawn (the tests have judged the
#: search already; what is drawn goes through the sanitiser, about 1 ms per board)
GRADING_LIMIT, GRADING_SECONDS, GRADING_DRAWN = 600, 1.0, 40

#: the reference drawn for each kind of search, in words
NAMES = {"search": catalogue.LAYER_BY_LAYER, "bfs": "breadth-first search",
         "dfs": "depth-first search", "ucs": "uniform-cost search",
         "iddfs": "iterative deepening", "astar": "A* search", "idastar": "IDA*"}


class Watch(Recorder):
    """A recorder that also keeps, for its first `drawn` calls, the board asked about and
    the boards the call gave back (a generator's items are handed on as an iterator).
    A call made while another is running (a successor function that calls itself, or
    another recorded one) is not counted again."""

    def __init__(self, func: Callable[..., Any] | None, *, limit: int | None, name: str,
                 drawn: int = MAX_DRAWN) -> None:
        super().__init__(func, limit=limit, name=name)
        self.drawn = drawn
        self.calls: list[tuple[Any, list[Any]]] = []
        self._busy = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.func is None:
            raise TypeError(catalogue.NO_FUNCTION_TO_CALL.format(name=self.name))
        if self._busy:
            return self.func(*args, **kwargs)
        board = args[0] if args else None
        self.note(board)
        self._busy = True
        try:
            out = self.func(*args, **kwargs)
        finally:
            self._busy = False
        if len(self.calls) < self.drawn:
            if isinstance(out, (list, tuple, set, frozenset, dict)):
                items = list(out)
            elif isinstance(out, Iterator):
                items = list(out)
                out = iter(items)
            else:
                items = []
            self.calls.append((board, items))
        return out


# ----------------------------------------------------------------------------- boards

def board_of(x: object) -> State | None:
    """`x` as a board if it is one in a format of the course (tuple rows, a flat list),
    else None."""
    try:
        return as_state(x)
    except (PuzzleError, TypeError, ValueError, AttributeError):
        return None


def child_of(item: object) -> State | None:
    """The board in one item a successor function gave back: a board, or a (move
    letter, board) pair."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        item = item[1]
    return board_of(item)


def expansions(watch: Watch, rows: int, cols: int) -> list[tuple[State, list[State]]]:
    """The recorded calls as (board, children) of the start's shape; calls about
    something that is not such a board are left out."""
    out = []
    for board, items in watch.calls:
        S = board_of(board)
        if S is None or shape(S) != (rows, cols):
            continue
        kids = [T for T in map(child_of, items) if T is not None and shape(T) == (rows, cols)]
        out.append((S, kids))
    return out


def path_of(result: object, start: State) -> tuple[list[State] | None, str | None]:
    """The path a search returned (a list of boards, a string of the blank's moves, or
    a (path, cost) pair), and a sentence when it is not one."""
    if isinstance(result, tuple) and len(result) == 2 and (
            result[1] is None or isinstance(result[1], (int, float))):
        result = result[0]            # (path, cost), as ucs returns
    if result is None:
        return None, None
    if isinstance(result, str):
        try:
            return moves_to_path(start, result), None
        except PuzzleError as e:
            return None, catalogue.NOT_A_PATH_FROM_START.format(moves=result[:40], why=e)
    if isinstance(result, (list, tuple)) and result:
        boards = [board_of(S) for S in result]
        if all(b is not None and shape(b) == shape(start) for b in boards):
            if len(boards) > MAX_PATH:
                return None, catalogue.PATH_TOO_LONG.format(moves=len(boards) - 1)
            return boards, None           # type: ignore[return-value]
    kind = type(result).__name__
    return None, catalogue.NOT_A_PATH.format(kind=kind, result=result)


# ----------------------------------------------------------------------------- the references

class _Watched(GenericProblem):
    """The engine's problem over a recorded successor function, with the blank's move
    prices where a search needs them."""

    def __init__(self, start: State, goal: State, succ: Callable[[Any], Any],
                 h: Callable[[Any], float] | None = None,
                 costs: dict[str, float] | None = None) -> None:
        super().__init__(start, goal, succ, h)
        self.costs = costs

    def expand(self, s: Any, h: float) -> list[Any]:
        out = []
        for t in self.next_states(s):
            letter = move_between(s, t)
            price = 1 if self.costs is None or letter is None else self.costs[letter]
            out.append((letter, t, price, self.h(t)))
        return out


def _heuristic(h: object, start: State, goal: State) -> tuple[Callable[[Any], float], str]:
    """h(S) for the reference from the student's h(S, goal), or the kit's Manhattan
    distance when theirs is missing or not written."""
    if callable(h):
        try:
            h(start, goal)
            return (lambda S: h(S, goal)), getattr(h, "__name__", "your heuristic")
        except Exception:       # not written yet, or broken: the kit's own is drawn
            pass
    return (lambda S: manhattan(S, goal)), "puzzlekit's manhattan"


def reference(kind: str, succ: Callable[[Any], Any], start: State, goal: State,
              extra: tuple[Any, ...]) -> tuple[list[State] | None, str]:
    """The kit's reference search `kind` on the recorded `succ`: its path, and what ran
    (in words)."""
    budget_ = Budget(kind, math.inf, None)
    name = NAMES[kind]
    if kind == "search":
        layered = layered_search(succ, start, goal)
        return (list(layered) if layered is not None else None), name
    if kind in ("bfs", "dfs", "iddfs"):
        run = {"bfs": uninformed.bfs, "dfs": uninformed.dfs, "iddfs": uninformed.iddfs}[kind]
        return run(_Watched(start, goal, succ), budget_), name
    if kind == "ucs":
        costs = extra[0] if extra and isinstance(extra[0], dict) else None
        return informed.best_first(_Watched(start, goal, succ, costs=costs), budget_,
                                   g_weight=1, h_weight=0), name
    h, hname = _heuristic(extra[0] if extra else None, start, goal)
    P = _Watched(start, goal, succ, h)
    found = informed.idastar(P, budget_) if kind == "idastar" else \
        informed.best_first(P, budget_)
    return found, f"{name} with {hname}"


# ----------------------------------------------------------------------------- running

def _not_written(e: BaseException) -> str:
    """The student's function that raised NotImplementedError (the innermost frame
    outside the kit)."""
    name = "it"
    for frame, _ in traceback.walk_tb(e.__traceback__):
        if not frame.f_code.co_filename.startswith(registry.PACKAGE_DIR):
            name = frame.f_code.co_name
    return name


def _run(func: Callable[..., Any], args: list[Any], watch: Watch, given: list[int],
         seconds: float) -> tuple[object, str | None, BaseException | None]:
    """(what func returned, a sentence when it was stopped, the exception it raised): run
    as a test runs it (`runner.run`), what it prints kept out of the cell."""
    try:
        value, stopped = runner.run(func, args, seconds=seconds, recorder=watch, given=given,
                                    quiet=True)
    except ExpansionLimit as e:
        return None, catalogue.STOPPED.format(why=e), None
    except RecursionError:
        return None, catalogue.STOPPED_TOO_DEEP, None
    except Exception as e:          # the student's bug: the drawing shows what came before
        return None, None, e
    if stopped:
        return None, catalogue.STOPPED.format(why=stopped)[:600], None
    return value, None, None


def see_search(func: Callable[..., Any], *args: Any, watch: str = "nextStates",
               kind: str | None = None, goal: State | None = None,
               limit: int | None = None, seconds: float | None = None) -> SearchView:
    """Run the search `func(*args)` with its successor function `watch` recorded and
    draw what it did: the boards it expanded, in order and by depth, and its path.

    The first board among `args` is the start, the second the goal (else `goal`, else the
    goal with the blank last). `watch` is found in the arguments (``search(nextStates,
    ...)``) or among the globals of `func` (a search that calls ``nextStates`` or
    ``successors`` by name). `kind` names the reference drawn when `func` is not written
    yet: search, bfs, dfs, ucs, iddfs, astar or idastar (default: `func`'s name).
    """
    if not callable(func):
        raise PuzzleError(f"see_search needs the search function, got {type(func).__name__}")
    name = getattr(func, "__name__", "the search")
    kind = kind or name
    boards = [b for b in (board_of(a) if not callable(a) else None for a in args)
              if b is not None]
    if not boards:
        raise PuzzleError(f"see_search({name}, ...): no board among the arguments")
    start = boards[0]
    rows, cols = shape(start)
    target = boards[1] if len(boards) > 1 else (as_state(goal) if goal is not None
                                               else goal_state(rows, cols))
    grading = under_autograder()
    limit = limit or (GRADING_LIMIT if grading else LIMIT)
    seconds = seconds or (GRADING_SECONDS if grading else SECONDS)
    original, given = runner.successor(func, args, watch)
    if original is None:
        raise PuzzleError(f"{name} is given no {watch} and its notebook has none: name the "
                          f"successor function it calls, see_search(..., watch='its name')")
    drawn = GRADING_DRAWN if grading else MAX_DRAWN
    spy = Watch(original, limit=limit, name=watch, drawn=drawn)
    value, stopped, error = _run(func, list(args), spy, given, seconds)
    notes = [stopped] if stopped else []
    who = f"your {name}"
    if isinstance(error, NotImplementedError):
        if kind not in NAMES:
            raise PuzzleError(f"{name} is not written yet, and the kit has no reference for "
                              f"{kind!r} to draw instead (kind= one of {', '.join(NAMES)})")
        spy = Watch(nextStates, limit=limit, name="nextStates", drawn=drawn)
        extra = tuple(a for a in args if board_of(a) is None and a is not original)
        notes.append(catalogue.NOT_WRITTEN_DRAWN.format(name=_not_written(error),
                                                        search=NAMES[kind]))
        try:
            value, what = reference(kind, spy, start, target, extra)
        except ExpansionLimit:
            value, what = None, NAMES[kind]
            notes.append(catalogue.STOPPED_AFTER.format(limit=limit))
        who, error = f"puzzlekit's reference {what}", None
    elif error is not None:
        words = " ".join(str(error).split())[:300]
        notes.append(catalogue.STOPPED_WITH.format(error=type(error).__name__, words=words))
    path, wrong = path_of(value, start)
    if wrong and not stopped and error is None:
        notes.append(wrong)
    trace = Trace(start, target, expansions(spy, rows, cols), spy.record.calls,
                  spy.record.distinct, path, who, notes)
    return SearchView(trace, interactive=not grading)


__all__ = ["see_search", "Watch", "reference", "NAMES", "LIMIT", "SECONDS"]

