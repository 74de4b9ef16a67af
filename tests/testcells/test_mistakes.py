"""Named mistakes: the catalogue, its page in the docs, and the judge's record of them.

Every diagnosis the kit shows is a `Diagnosis` (a str with a stable name); the judge
writes the ones a failing test cell showed into the cell's metadata, where the class
report counts them (tests/course/test_class_report.py; the simulated class's planted
mistakes in tests/simulated_class/test_mistake_counts.py).
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest
from test_judge import GIVEN, student

import puzzlekit
from puzzlekit.errors import PuzzleError
from puzzlekit.testcells import diagnose
from puzzlekit.testcells.mistakes import (
    CATALOGUE,
    Diagnosis,
    forget_made,
    made,
    mistake,
    shown,
    title_of,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "mistakes.md"
_USED = re.compile(r"""mistake\(\s*["']([A-Za-z0-9-]+)["']""")


def names_used() -> dict[str, list[str]]:
    """Each name the kit's code and notebooks pass to `mistake`, with where."""
    found: dict[str, list[str]] = {}
    files = [*ROOT.glob("puzzlekit/**/*.py"), *ROOT.glob("notebooks/source/*/*.ipynb")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
        for name in _USED.findall(text):
            found.setdefault(name, []).append(path.name)
    # the names picked by a condition (`mistake("a" if ... else "b", ...)`)
    for name in re.findall(r'mistake\("([a-z-]+)" if', (ROOT / "puzzlekit/testcells/diagnose.py")
                           .read_text()):
        found.setdefault(name, [])
    found.setdefault("no-visited-set", []).append("diagnose.py")
    return found


def test_every_name_the_kit_uses_is_in_the_catalogue_and_every_entry_is_used():
    used = names_used()
    assert set(used) - set(CATALOGUE) == set(), "a name missing from the catalogue"
    # the named calls inside messages.py/judge.py/diagnose.py cover every entry
    unused = {n for n in CATALOGUE if n not in used and
              not re.search(rf'["\']{re.escape(n)}["\']',
                            (ROOT / "puzzlekit/testcells/diagnose.py").read_text())}
    assert unused == set(), f"catalogue entries nothing names: {sorted(unused)}"


def test_the_docs_catalogue_lists_exactly_the_catalogue():
    rows = re.findall(r"^\| `([A-Za-z0-9-]+)` \| (.+?) \| (.+?) \|$", DOC.read_text(), re.M)
    assert [r[0] for r in rows] == list(CATALOGUE)
    for name, title, teach in rows:
        assert title == CATALOGUE[name].title and teach == CATALOGUE[name].teach, name


def test_a_diagnosis_is_a_str_with_a_name_and_only_proper_boards():
    forget_made()
    d = mistake("wrap-around", "the blank jumped", start=((1, 2), (3, 0)), got=[[1]],
                expected=((1, 2), (3,)))
    assert d == "the blank jumped" and isinstance(d, str) and d.name == "wrap-around"
    assert d.boards == {"start": ((1, 2), (3, 0))}
    assert pickle.loads(pickle.dumps(d)).name == "wrap-around"
    assert made() == [d]
    assert title_of("wrap-around") == CATALOGUE["wrap-around"].title
    assert title_of("my-own-slip") == "my own slip"      # an author's own name
    for bad in ("", "a b", "x" * 60, "-dash", None):
        with pytest.raises(PuzzleError, match="mistake's name"):
            mistake(bad, "words")  # type: ignore[arg-type]


def test_only_what_the_student_was_shown_counts_even_wrapped():
    forget_made()
    a = mistake("tile-copied", "a tile was copied instead of swapped with the blank")
    b = mistake("board-unchanged", "the board came back unchanged")
    c = mistake("tile-copied", "a tile was copied again")
    text = "moveLeft: a tile was copied instead of swapped\n  with the\nblank (set both)"
    assert shown(made(), text) == [a]
    assert shown(made(), "nothing of it") == []
    assert shown([a, c, b], f"{a} and {c}") == [a]      # each name once


def test_every_diagnose_function_names_what_it_finds():
    start = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    up = ((1, 2, 3), (4, 7, 5), (6, 0, 8))            # moveUp: the tile below goes up
    blank_up = ((1, 0, 3), (4, 2, 5), (6, 7, 8))
    d = diagnose.diagnose_move(start, blank_up, up)
    assert isinstance(d, Diagnosis) and d.name == "blank-moved-not-tile"
    assert set(d.boards) == {"start", "expected", "got"}
    goal = ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    S = ((1, 2, 3), (4, 5, 6), (7, 0, 8))

    def counts_blank(T):        # a student's Manhattan distance that counts the blank
        (r, c), = [(r, c) for r, row in enumerate(T) for c, t in enumerate(row) if t == 0]
        return puzzlekit.manhattan(T, goal) + abs(r - 2) + abs(c - 2)
    also = [(T, goal, counts_blank(T))
            for T in diagnose.heuristic_probes(S, goal, 2, 1, "manhattan")]
    assert diagnose.diagnose_heuristic(S, goal, 2, 1, "manhattan", also).name == \
        "heuristic-counts-blank"
    assert diagnose.diagnose_path(S, goal, [goal, S]).name == "path-backwards"
    assert diagnose.diagnose_report(["Iteration 0: 3 new states found."], [3]).name == \
        "report-off-by-one"


FAILS_NAMED = """
def moveUp(S, r, c):
    L = [list(row) for row in S]
    L[r][c], L[r - 1][c] = L[r - 1][c], 0
    return tuple(map(tuple, L))
"""
TEST_MOVE = """
S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
assert_board_equal(moveUp(S, 1, 1), ((1, 2, 3), (4, 7, 5), (6, 0, 8)), what="moveUp(S)",
                   start=S)
"""


def test_the_judge_records_the_mistake_a_failing_cell_showed(tmp_path):
    judge, _ = student(tmp_path, FAILS_NAMED)
    judge.run_given(GIVEN, 1)
    outputs = judge.run_test(TEST_MOVE, 2)
    assert outputs[-1]["output_type"] == "error"
    record = judge.last_cell
    assert record["status"] == "failed"
    [found] = record["mistakes"]
    assert found["name"] == "blank-moved-not-tile"
    assert found["sentence"] in outputs[-1]["evalue"]
    assert found["boards"]["start"] == [[1, 2, 3], [4, 0, 5], [6, 7, 8]]
    json.dumps(record)                                  # plain data for the notebook


def test_a_passing_cell_and_a_made_but_unshown_diagnosis_record_nothing(tmp_path):
    judge, _ = student(tmp_path, FAILS_NAMED.replace("r - 1", "r + 1"))
    judge.run_given(GIVEN, 1)
    made_but_unshown = TEST_MOVE + '\nwhy = mistake("wrap-around", "never shown")\n'
    judge.run_test("from puzzlekit.testcells import mistake\n" + made_but_unshown, 2)
    assert judge.last_cell == {"status": "passed", "mistakes": []}


def test_a_stub_is_not_written_not_a_mistake(tmp_path):
    judge, _ = student(tmp_path, "def moveUp(S, r, c):\n    raise NotImplementedError()\n")
    judge.run_given(GIVEN, 1)
    judge.run_test(TEST_MOVE, 2)
    assert judge.last_cell == {"status": "not written", "mistakes": []}
