"""Partial credit and recorded searches, in one process (the judge and its agent).

`partly` lets a test cell give part of its points for an answer that is partly right;
while grading, the judge turns the award into the cell's value, which nbgrader reads as
the cell's score. `counted` and `recording` keep what a student's search asks of the
puzzle, on the kernel's side of the wire, and bring the record back as data.
"""

from __future__ import annotations

import pytest
from test_judge import student

from puzzlekit.testcells import (
    ExpansionLimit,
    PartlyRight,
    assert_solution,
    counted,
    messages,
    partly,
    passed,
    recording,
)
from puzzlekit.testcells.diagnose import diagnose_search
from puzzlekit.testcells.instrument import Record, Recorder

GIVEN = """
from puzzlekit import nextStates
from puzzlekit.testcells import assert_solution, counted, recording, partly, passed
def flat_successors(board):
    n = round(len(board) ** 0.5)
    z = board.index(0)
    out = []
    for letter, dz, ok in (("U", -n, z >= n), ("D", n, z < n * n - n),
                           ("L", -1, z % n > 0), ("R", 1, z % n < n - 1)):
        if ok:
            new = list(board)
            new[z], new[z + dz] = new[z + dz], new[z]
            out.append((letter, new))
    return out
"""

BFS = """
from collections import deque
def bfs(board):
    goal = list(range(1, len(board))) + [0]
    seen = {tuple(board)}
    fringe = deque([(list(board), "")])
    while fringe:
        current, moves = fringe.popleft()
        if current == goal:
            return moves
        for letter, new in flat_successors(current):
            if tuple(new) not in seen:
                seen.add(tuple(new))
                fringe.append((new, moves + letter))
    return None
"""

NO_VISITED = BFS.replace("if tuple(new) not in seen:", "if True:")
STACK = BFS.replace("fringe.popleft()", "fringe.pop()")

BFS_TEST = """
board = [2, 3, 6, 0, 1, 5, 4, 7, 8]
with recording("flat_successors") as asked:
    moves = bfs(list(board))
S = ((2, 3, 6), (0, 1, 5), (4, 7, 8))
assert_solution(S, ((1, 2, 3), (4, 5, 6), (7, 8, 0)), moves, optimal_length=9,
                what="bfs(board)", partial=1, searched=asked)
passed("bfs")
"""


def grade(tmp_path, code: str, test: str) -> list[dict]:
    judge, _ = student(tmp_path, GIVEN + code)
    judge.run_given(GIVEN, 1)
    return judge.run_test(test, 2)


def value_of(outputs: list[dict]) -> str | None:
    """The cell's value as nbgrader reads it for partial credit (text/plain)."""
    found = [o for o in outputs if o["output_type"] == "execute_result"]
    return found[0]["data"]["text/plain"] if found else None


def printed(outputs: list[dict]) -> str:
    """What the cell printed, its lines (wrapped for the page) joined again."""
    text = "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")
    return " ".join(text.split())


@pytest.fixture(autouse=True)
def grading(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    yield
    messages.take_partial(), messages.take_awarded(), messages.take_notes()


def test_a_right_search_earns_everything(tmp_path):
    outputs = grade(tmp_path, BFS, BFS_TEST)
    assert value_of(outputs) is None and "error" not in [o["output_type"] for o in outputs]
    assert "✔ bfs: all tests passed" in printed(outputs)


def test_a_search_without_a_visited_set_earns_part_and_is_told_why(tmp_path):
    outputs = grade(tmp_path, NO_VISITED, BFS_TEST)
    assert value_of(outputs) == "1"
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert "◐ bfs: partly right, 1 point" in printed(outputs)
    assert "expanded some boards more than once" in printed(outputs)


def test_a_longer_path_earns_part_and_the_record_names_the_stack(tmp_path):
    outputs = grade(tmp_path, STACK, BFS_TEST)
    assert value_of(outputs) == "1"
    assert "takes the oldest board out of its queue" in printed(outputs)


def test_a_failure_after_partial_credit_costs_everything(tmp_path):
    test = BFS_TEST.replace('passed("bfs")', 'assert False, "later"\npassed("bfs")')
    outputs = grade(tmp_path, NO_VISITED, test)
    assert value_of(outputs) is None
    assert outputs[-1]["output_type"] == "error"
    # and nothing is left over for the next cell
    assert value_of(grade(tmp_path, BFS, BFS_TEST)) is None


def test_a_recorder_stops_a_runaway_search_with_the_reason(tmp_path):
    test = """
with recording("flat_successors", limit=500):
    bfs([2, 1, 3, 0])
"""
    outputs = grade(tmp_path, NO_VISITED, test)
    error = outputs[-1]
    assert error["output_type"] == "error" and error["ename"] == "AssertionError"
    assert "called flat_successors 501 times" in error["evalue"]
    assert "only 12 different boards" in error["evalue"]


def test_a_counted_argument_crosses_the_wire_and_its_record_comes_back(tmp_path):
    code = """
def search(nextStates, start, goal):
    parent, layer = {start: None}, [start]
    while goal not in parent and layer:
        layer = [T for S in layer for T in nextStates(S)
                 if T not in parent and not parent.setdefault(T, S) is None]
    return None
"""
    test = """
asked = counted(nextStates)
search(asked, ((4, 5, 0), (1, 2, 3)), ((1, 2, 3), (4, 5, 0)))
assert asked.record.calls > 0, asked.record
assert asked.record.most_times == 1, asked.record
assert asked.record.distinct == asked.record.calls <= 360
"""
    outputs = grade(tmp_path, code, test)
    assert not [o for o in outputs if o["output_type"] == "error"], outputs


def test_in_a_students_notebook_a_partly_right_cell_fails_with_the_reason(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION")
    partly(1, "its path is longer than the shortest")
    with pytest.raises(PartlyRight, match="partly right, worth 1 point when graded: its "
                                          "path is longer") as failed:
        passed("bfs")
    assert failed.value.points == 1
    assert messages.take_partial() is None


def test_while_grading_without_the_judge_passed_returns_the_points():
    partly(2, "a")
    partly(1, "b")
    credit = passed("ucs")
    assert credit == 1 and repr(credit) == "1.0"     # nbgrader reads the text/plain
    assert "partial credit: 1 point" in credit._repr_html_()


def test_the_summary_marks_a_partly_right_exercise(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION")
    messages.results["bfs"] = messages._Result("partly right", "worth 1 point when graded")
    try:
        text = str(messages.summary({"bfs": 3}))
    finally:
        messages.results.pop("bfs")
    assert "◐ partly right: worth 1 point" in text


def test_assert_solution_gives_partial_points_only_for_a_longer_right_path():
    S, G = ((1, 2, 3), (4, 5, 6), (7, 0, 8)), ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    assert_solution(S, G, "RLR", optimal_length=1, partial=1)
    points, why = messages.take_partial()
    assert points == 1 and "has 3 moves, but the shortest solution has 1" in why
    with pytest.raises(AssertionError, match="not a solution"):
        assert_solution(S, G, "L", optimal_length=1, partial=1)
    assert messages.take_partial() is None


def test_a_recorder_counts_boards_and_stops_at_its_limit():
    seen = Recorder(lambda S: [S], limit=3, name="f")
    for board in ([1, 0], [1, 0], (0, 1)):
        seen(board)
    assert (seen.record.calls, seen.record.distinct, seen.record.most_times) == (3, 2, 2)
    assert seen.record.first == [(1, 0), (1, 0), (0, 1)]
    with pytest.raises(ExpansionLimit, match="called f 4 times"):
        seen([1, 0])
    again = Record.from_data(seen.record.as_data())
    assert again == seen.record and again.stopped
    assert Record.from_data({"calls": -1}) == Record() and Record.from_data(None) == Record()
    assert counted(len).name == "len"


def test_a_record_of_steps_straight_back_is_named_for_iterative_deepening():
    S = ((1, 2, 3), (4, 5, 6), (7, 0, 8))
    T = ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    record = Record(calls=3, distinct=2, most=S, most_times=2, first=[S, T, S])
    assert "stepped straight back" in diagnose_search(S, record, "iterative")
    assert "already on the path" in diagnose_search(S, record, "iterative")
    assert "more than once" in diagnose_search(S, record, "once")
    assert diagnose_search(S, Record(calls=2, distinct=2, most=S, most_times=1,
                                     first=[S, T]), "breadth-first") is None
