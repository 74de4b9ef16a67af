"""The checks the graded notebooks' visible tests call (puzzlekit.testcells.checks).

A visible test cell reads as a few checks, its verdict right after them (issue 32): the
checking code lives in the package, where a student's code cannot redefine it. Here: each
cell's visible part stays short, each check forbids the references it says it forbids
(the integrity scan trusts its mark), and a few checks, run on right and wrong answers,
pass, fail and name the mistake as their test cells did.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import random
import re
from pathlib import Path

import pytest

import puzzlekit
import puzzlekit.testcells.checks as checks
from puzzlekit.testcells.checks import forbidden_by
from puzzlekit.testcells.checks.states_and_moves import check_findZero, check_nextStates
from puzzlekit.testcells.checks.uninformed_search import check_shuffle_pos
from puzzlekit.testcells.mistakes import forget_made, made
from puzzlekit.testcells.messages import take_partial

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks" / "source").glob("*/*.ipynb"))
MODULES = [importlib.import_module(f"{checks.__name__}.{m.name}")
           for m in pkgutil.iter_modules(checks.__path__)]

#: the most lines the visible part of a graded test cell may have (its imports, its
#: checks and its `passed` line); build_pdb's plain asserts are the longest
MOST_VISIBLE_LINES = 10


def visible_lines(source: str) -> list[str]:
    """The lines of a test cell a student sees: outside ### BEGIN/END HIDDEN TESTS."""
    out, hidden = [], False
    for line in source.splitlines():
        marker = line.strip()
        if marker in ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"):
            hidden = marker.startswith("### BEGIN")
            continue
        if not hidden:
            out.append(line)
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.parent.name for p in NOTEBOOKS])
def test_every_visible_test_reads_as_a_few_checks(path):
    for cell in json.loads(path.read_text("utf-8"))["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell["cell_type"] != "code" or not meta.get("grade"):
            continue
        lines = visible_lines("".join(cell["source"]))
        assert len(lines) <= MOST_VISIBLE_LINES, (meta["grade_id"], len(lines))
        assert not any(line.startswith(("def ", "class ")) for line in lines), \
            f"{meta['grade_id']}: a helper of its own in the visible part (checks: the package)"


def _forbidden_in_source(func, module) -> set[str]:
    """The names in the `forbid_reference(...)` calls of `func`'s code, `*NAME` read from
    its module's constants."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(inspect.getsource(func))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "forbid_reference":
            for arg in node.args:
                if isinstance(arg, ast.Constant):
                    found.add(arg.value)
                elif isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
                    found |= set(getattr(module, arg.value.id))
    return found


def test_each_check_forbids_what_its_mark_says():
    marked = 0
    for module in MODULES:
        for name, func in vars(module).items():
            if not inspect.isfunction(func) or func.__module__ != module.__name__:
                continue
            said = set(forbidden_by(module.__name__, name))
            calls_a_check = re.search(r"\b(shuffled|printed_lines|_check_move)\(",
                                      inspect.getsource(func))
            if said and not calls_a_check:
                assert said == _forbidden_in_source(func, module), name
            marked += bool(said)
    assert marked >= 20
    assert forbidden_by("puzzlekit.testcells", "assert_equal") == ()
    assert forbidden_by(f"{checks.__name__}.states_and_moves", "no_such_check") == ()


def test_a_check_names_the_swapped_coordinates_and_the_ready_made_function():
    right = lambda S: next((r, c) for r, row in enumerate(S)      # noqa: E731
                           for c, x in enumerate(row) if x == 0)
    check_findZero(right, ((8, 0, 6), (5, 4, 7), (2, 3, 1)), (0, 1), "findZero(start)")
    forget_made()
    with pytest.raises(AssertionError, match=r"\(column, row\)"):
        check_findZero(lambda S: tuple(reversed(right(S))), ((8, 0, 6), (5, 4, 7), (2, 3, 1)),
                       (0, 1), "findZero(start)")
    assert [d.name for d in made()] == ["findZero-column-row"]
    with pytest.raises(AssertionError, match="ready-made findZero"):
        check_findZero(lambda S: puzzlekit.findZero(S), ((1, 0), (2, 3)), (0, 1), "findZero")


def test_next_states_in_a_list_are_partly_right():
    start = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    want = puzzlekit.nextStates(start)
    take_partial()
    check_nextStates(lambda S: sorted(want), start, want, "nextStates(start)")
    points, why = take_partial()
    assert points == 2 and "in a list" in why
    check_nextStates(lambda S: set(want), start, want, "nextStates(start)")
    assert take_partial() is None


def _shuffle(N, allow_undo=False):
    """A student's shuffle_pos, drawing from the global `random` as the course asks."""
    shift = {0: 4, 1: 1, 2: -4, 3: -1}
    p, last = list(range(1, 16)) + [" "], -1
    for _ in range(N):
        gap = p.index(" ")
        while True:
            move = random.randint(0, 3)
            new = gap + shift[move]
            legal = 0 <= new < 16 and (move in (0, 2) or new // 4 == gap // 4)
            if legal and (allow_undo or abs(move - last) != 2):
                break
        p[gap], p[new] = p[new], p[gap]
        last = move
    return p


def test_the_shuffle_check_draws_from_the_random_it_is_given():
    random.seed(1)
    expected = [puzzlekit.shuffle_pos(n, rng=random) for n in range(1, 6)]

    def shuffle_pos(N):
        return _shuffle(N)

    check_shuffle_pos(shuffle_pos, random, 1, expected)

    def undoing(N):
        return _shuffle(N, allow_undo=True)
    undoing.__name__ = "shuffle_pos"
    with pytest.raises(AssertionError, match="after random.seed"):
        check_shuffle_pos(undoing, random, 1, expected)
