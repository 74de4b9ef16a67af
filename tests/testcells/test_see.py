"""See your own search (puzzlekit.testcells.see): the student's search, run and drawn.

Each search below is written as a student writes it in the notebooks: it calls
``nextStates`` (or ``successors``, ``flat_successors``) by name from this module's
globals, which `see_search` records while the search runs."""

from __future__ import annotations

import heapq
import json
import re
from collections import deque
from pathlib import Path

import pytest

import puzzlekit as pk
from puzzlekit import nextStates  # noqa: F401  (the searches below call it by name)
from puzzlekit.testcells import see_search
from puzzlekit.testcells.instrument import Record, limit_message
from puzzlekit.visuals.search_view import MAX_DRAWN, lay_out

LECTURE_START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
LECTURE_GOAL = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
SMALL_GOAL = ((1, 2, 3), (4, 5, 0))
NEAR = pk.state_at_depth(5, seed=1, goal=LECTURE_GOAL)


@pytest.fixture(autouse=True)
def not_autograding(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


NOTEBOOKS = Path(__file__).parents[2] / "notebooks" / "source"


def answers(notebook: str, *grade_ids: str, **replace: str) -> dict:
    """The model answers (and given cells) `grade_ids` of a source notebook, run in a
    namespace of their own as the notebook runs them; `replace` rewrites their source
    (old=new pairs joined by ' => ') to make a typical other answer."""
    nb = json.loads((NOTEBOOKS / notebook / f"{notebook}.ipynb").read_text())
    space = {"nextStates": pk.nextStates, "findZero": pk.findZero, "heapq": heapq,
             "deque": deque, "start": LECTURE_START, "goal": LECTURE_GOAL}
    for cell in nb["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") in grade_ids:
            source = "".join(cell["source"])
            for rule in replace.values():
                old, new = rule.split(" => ")
                assert old in source, old
                source = source.replace(old, new)
            exec(source, space)
    return space


_02 = answers("02-uninformed-search", "search_solution", "dfs_solution", "flat_successors",
              "bfs_solution", "successors", "ucs_solution")
search, dfs, bfs, ucs, COSTS = (_02[x] for x in ("search", "dfs", "bfs", "ucs", "COSTS"))
#: the same BFS, taking each board's successors in the other order: also right
reversed_search = answers("02-uninformed-search", "search_solution", order=(
    "for T in nextStates(S): => for T in sorted(nextStates(S), reverse=True):"))["search"]


def no_visited_set(nextStates, start, goal):
    """A BFS that forgets where it has been: a right path, boards expanded again."""
    frontier = deque([[start]])
    while frontier:
        path = frontier.popleft()
        if path[-1] == goal:
            return path
        frontier.extend(path + [T] for T in nextStates(path[-1]))
    return None

astar = answers("03-informed-search", "astar_solution")["astar"]


def draw(func, *args, **kw):
    return see_search(func, *args, **kw)


def rows_of(view):
    """{depth: the boards expanded at that depth, in order} of a drawing."""
    out: dict[int, list] = {}
    for n in lay_out(view.trace).nodes:
        if not n.found:
            out.setdefault(n.depth, []).append(n.board)
    return out


# ----------------------------------------------------------------------------- the drawing follows the code

def test_a_differently_ordered_right_bfs_draws_its_own_order():
    right = draw(search, pk.nextStates, NEAR, LECTURE_GOAL)
    other = draw(reversed_search, pk.nextStates, NEAR, LECTURE_GOAL)
    assert right.order() != other.order()            # the order each one expanded
    assert right.data != other.data
    for view in (right, other):
        assert len(view.trace.path) == 6 and view.trace.path[-1] == LECTURE_GOAL
        assert "each once" in view.text
    # the same layers, each filled in its own order
    a, b = rows_of(right), rows_of(other)
    assert {d: sorted(x) for d, x in a.items()} == {d: sorted(x) for d, x in b.items()}
    assert any(a[d] != b[d] for d in a)
    sizes = [len(a[d]) for d in sorted(a)]
    assert sizes == sorted(sizes) and sizes[0] == 1          # layers growing


def test_dfs_dives_where_bfs_grows_sideways():
    start = ((0, 4, 2), (5, 1, 3))
    deep = draw(dfs, start, SMALL_GOAL)
    wide = draw(search, pk.nextStates, start, SMALL_GOAL)
    dive, layers = rows_of(deep), rows_of(wide)
    assert max(dive) > 3 * max(layers)                    # far deeper than the goal
    assert max(len(x) for x in dive.values()) <= 2       # about one board per depth
    assert len(deep.trace.path) - 1 > len(wide.trace.path) - 1 == 7
    # expanded in order of depth, one after the other, down the rows
    depths = [n.depth for n in lay_out(deep.trace).nodes[:20]]
    assert depths == list(range(20))


def test_a_bfs_without_a_visited_set_shows_its_repeats():
    view = draw(no_visited_set, pk.nextStates, NEAR, LECTURE_GOAL)
    again = [n for n in lay_out(view.trace).nodes if n.again is not None]
    assert again and all(n.again < n.step for n in again)
    assert re.search(r"\d+ of them again \(↻\)", view.text)
    assert view.data.count("pk-sv-again") == len(again)
    assert "again (first expanded as" in view.data                    # spoken too
    right = draw(search, pk.nextStates, NEAR, LECTURE_GOAL)
    assert view.trace.total > 3 * right.trace.total


def test_a_weak_heuristic_fills_the_rows_a_good_one_leaves_empty():
    start, goal = ((0, 5, 2), (1, 8, 3), (4, 7, 6)), pk.goal_state(3)    # 8 moves apart
    good = rows_of(draw(astar, start, goal, pk.manhattan))
    weak = rows_of(draw(astar, start, goal, lambda S, G: 0))
    assert max(len(x) for x in good.values()) <= 2
    assert max(len(x) for x in weak.values()) > 10
    assert sum(map(len, weak.values())) > 5 * sum(map(len, good.values()))


def test_the_successor_function_is_given_back_even_when_the_search_fails():
    def broken(start, goal):
        nextStates(start)
        raise KeyError("parent")
    before = globals()["nextStates"]
    view = draw(broken, NEAR, LECTURE_GOAL)
    assert globals()["nextStates"] is before and dfs.__globals__["nextStates"] is before
    assert "It stopped with KeyError" in view.text and view.trace.total == 1


def test_a_generator_successor_function_is_recorded_and_still_works():
    view = draw(bfs, [1, 0, 3, 5, 2, 6, 4, 7, 8], watch="flat_successors")
    assert view.trace.goal == pk.goal_state(3)                 # the goal with the blank last
    assert len(view.trace.path) == 6 and view.trace.total > 10
    assert all(len(kids) >= 2 for _, kids in view.trace.expansions)
    assert bfs.__globals__["flat_successors"].__name__ == "flat_successors"


def test_a_cheapest_first_search_and_its_cost_are_drawn():
    start = pk.state_at_depth(4, seed=3, goal=LECTURE_GOAL)
    view = draw(ucs, start, LECTURE_GOAL, COSTS, watch="successors")
    assert view.trace.path[-1] == LECTURE_GOAL and view.trace.total > 4
    assert [S for S, _ in view.trace.expansions][0] == start
    assert type(ucs.__globals__["successors"]).__name__ == "function"


# ----------------------------------------------------------------------------- not written, runaway

def test_a_search_not_written_yet_draws_the_reference_and_says_so():
    def dfs(start, goal):                                       # noqa: F811
        raise NotImplementedError()
    view = draw(dfs, ((0, 4, 2), (5, 1, 3)), SMALL_GOAL)
    assert view.trace.who == "puzzlekit's reference depth-first search"
    assert "dfs is not written yet (NotImplementedError)" in view.text
    assert "is not written yet" in view.data and view.trace.total > 5
    assert view.trace.path[0] == ((0, 4, 2), (5, 1, 3)) and view.trace.path[-1] == SMALL_GOAL

    def search(nextStates, start, goal):                        # noqa: F811
        raise NotImplementedError()
    view = draw(search, pk.nextStates, NEAR, LECTURE_GOAL)
    assert view.trace.who.startswith("puzzlekit's reference breadth-first search")
    assert len(view.trace.path) == 6


def test_a_heuristic_not_written_yet_is_named_and_the_kits_is_used():
    def manhattan(S, goal):
        raise NotImplementedError()
    view = draw(astar, ((0, 5, 2), (1, 4, 3), (7, 8, 6)), pk.goal_state(3), manhattan)
    assert "manhattan is not written yet" in view.text
    assert view.trace.who == "puzzlekit's reference A* search with puzzlekit's manhattan"
    assert len(view.trace.path) == 7


def test_a_runaway_search_is_stopped_with_the_words_of_the_tests():
    cannot = ((1, 2, 3), (5, 4, 0))                   # tiles swapped: no path to the goal
    view = draw(no_visited_set, pk.nextStates, cannot, SMALL_GOAL)
    record = Record(calls=2001, distinct=view.trace.distinct)
    assert view.trace.total == 2001 and view.trace.distinct <= 360
    assert "It was stopped: the search called nextStates 2,001 times but there were only" \
        in view.text
    assert "Keep a set of the boards already seen" in view.text
    assert limit_message("nextStates", record).split(",")[0] in view.text
    assert len(view.trace.expansions) == MAX_DRAWN
    assert f"The first {MAX_DRAWN} are drawn." in view.text


def test_a_search_that_loops_without_expanding_is_stopped_by_its_computing_time():
    def spin(start, goal):
        while True:
            pass
    view = see_search(spin, NEAR, LECTURE_GOAL, seconds=0.3)
    assert "did not finish within 0.3 seconds of computing time" in view.text


# ----------------------------------------------------------------------------- size, grading

def test_the_drawing_is_small_and_bounded():
    typical = draw(search, pk.nextStates, NEAR, LECTURE_GOAL)
    assert len(typical.data.encode()) < 80_000
    cannot = ((1, 2, 3), (5, 4, 0))
    runaway = draw(no_visited_set, pk.nextStates, cannot, SMALL_GOAL)
    assert len(runaway.data.encode()) < 250_000
    assert runaway.data.count('role="img"') == MAX_DRAWN
    assert len(runaway.text.splitlines()) < 20


def test_under_the_autograder_it_is_static_and_draws_less(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    view = draw(no_visited_set, pk.nextStates, NEAR, LECTURE_GOAL)
    assert "<script" not in view.data and "pk-controls" not in view.data
    assert len(view.trace.expansions) == 40 and view.trace.total > 40
    assert view.trace.total <= 601                     # stopped sooner while grading
    assert len(view.data.encode()) < 60_000


def test_what_it_is_given_is_checked():
    with pytest.raises(pk.PuzzleError, match="no board among the arguments"):
        see_search(dfs, "nothing", None)
    with pytest.raises(pk.PuzzleError, match="name the successor function it calls"):
        see_search(dfs, NEAR, LECTURE_GOAL, watch="no_such_function")
