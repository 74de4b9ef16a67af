"""An example cell runs the student's function as its test will (`testcells.example`): under
the same budget of computing time, with the boards it asks about recorded, so a runaway
search stops within seconds with its test's words; a function not written yet shows
puzzlekit's answer and says so."""

from __future__ import annotations

import pytest

import puzzlekit as pk

START = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
GOAL = pk.goal_state(3)

from students_02 import STUDENTS  # noqa: E402  (the simulated class's answers)

#: a search without a visited set (it prints its layers as it goes)
NO_VISITED_SET = STUDENTS["search_without_visited_set"]["search_solution"]
#: a right search: puzzlekit's, asking the successor function it is given
RIGHT = ("def search(nextStates, start, goal):\n"
         "    return list(puzzlekit.search(nextStates, start, goal))\n")


def cell(code: str, **names: object) -> dict:
    """Run `code` as a notebook cell would, in a namespace of its own; the namespace."""
    space: dict = {"example": __import__("puzzlekit.testcells", fromlist=["example"]).example,
                   "nextStates": pk.nextStates, "puzzlekit": pk, "start": START,
                   "goal": GOAL, **names}
    exec(compile(code, "<example cell>", "exec"), space)
    return space


def test_a_right_search_gives_its_path_and_the_namespace_is_left_as_it_was():
    space = cell(RIGHT + "Path = example(search, nextStates, start, goal, "
                         "successors='nextStates')\n")
    assert space["Path"][0] == START and space["Path"][-1] == GOAL
    assert space["nextStates"] is pk.nextStates         # the recorder is gone again


def test_a_runaway_search_stops_with_the_words_of_its_test():
    hard = pk.state_at_depth(20, seed=3)
    with pytest.raises(AssertionError) as e:
        cell(NO_VISITED_SET + "example(search, nextStates, start, goal, "
                              "successors='nextStates', seconds=1)\n", start=hard)
    said = str(e.value)
    assert said.startswith("search did not finish within 1 second of computing time")
    assert "It asked for the next states of one board" in said and "visited set?" in said


def test_a_search_not_written_yet_shows_puzzlekits_answer_and_says_so(capsys):
    stub = "def search(nextStates, start, goal):\n    raise NotImplementedError()\n"
    space = cell(stub + "Path = example(search, nextStates, start, goal, "
                        "successors='nextStates', reference=lambda *a: list(puzzlekit.search(*a)))\n")
    assert "(search is not written yet, so here is puzzlekit's answer.)" in capsys.readouterr().out
    assert space["Path"][0] == START and space["Path"][-1] == GOAL
    space = cell(stub + "Path = example(search, nextStates, start, goal)\n")
    assert space["Path"] is None
    assert "(search is not written yet: nothing to show.)" in capsys.readouterr().out
