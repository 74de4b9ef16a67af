"""An example cell runs the student's function as its test will (`testcells.example`): under
the same budget of computing time, with the boards it asks about recorded, so a runaway
search stops within seconds with its test's words; a function not written yet shows
puzzlekit's answer and says so."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlekit as pk
from puzzlekit.testcells import EXAMPLE_SECONDS

START = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
GOAL = pk.goal_state(3)

from students_02 import STUDENTS  # noqa: E402  (the simulated class's answers)

#: colours of a terminal's traceback
ANSI = re.compile(r"\x1b\[[0-9;]*m")
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


# ----------------------------------------------------------------------------- as a student reads it

#: the notebook's own cells, run in an IPython with the kit's error display (as a student's
#: kernel runs them): the setup and the lecture's boards, then a student's answer and the
#: example cell after it; what each cell printed and the computing time it took
AS_A_STUDENT = r"""
import contextlib, io, json, sys, time
import nbformat
from IPython.testing.globalipapp import start_ipython
from puzzlekit.testcells import messages as m
nb = nbformat.read(sys.argv[1], as_version=4)
cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in nb.cells}
ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
after = {ids[i]: nb.cells[i + 1].source for i in range(len(ids) - 1) if ids[i]}
answers = json.loads(sys.argv[2])
ip = start_ipython()
m.install(ip)
for source in (cells["setup"], cells["lecture_example"]):
    ip.run_cell(source, store_history=True)
said = {}
for grade_id, answer in answers.items():
    ip.run_cell(answer, store_history=True)
    out = io.StringIO()
    cpu = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        ip.run_cell(after[grade_id], store_history=True)
    said[grade_id] = [out.getvalue(), time.process_time() - cpu]
print(json.dumps(said))
"""


@pytest.mark.slow       # about 11 s of computing time: a search given its 6 s, in an IPython
def test_a_runaway_example_stops_with_its_diagnosis_and_a_recursive_dfs_says_why_in_a_screen():
    """The notebook's own example cells (02): a layer-by-layer BFS without a visited set on
    the lecture's board is stopped by its budget of computing time (6 s: well within 20 s)
    with the diagnosis its test gives, and a recursive DFS that goes deeper than Python
    allows says so in fewer than 60 lines."""
    notebook = Path(__file__).parents[2] / "notebooks/source/02-uninformed-search/" \
        "02-uninformed-search.ipynb"
    answers = {"search_solution": STUDENTS["search_without_visited_set"]["search_solution"],
               "dfs_solution": STUDENTS["dfs_recursive"]["dfs_solution"]}
    run = subprocess.run([sys.executable, "-c", AS_A_STUDENT, str(notebook), json.dumps(answers)],
                         capture_output=True, text=True, timeout=600, check=True)
    found = json.loads(run.stdout.splitlines()[-1])     # IPython printed Out[...] before it
    said = {k: (ANSI.sub("", text), cpu) for k, (text, cpu) in found.items()}
    runaway, cpu = said["search_solution"]
    # stopped by its 6 s of computing time, or on a machine so busy that the clock's
    # backstop came first (30 s): either way with what the record shows
    assert re.search(r"did not finish within 6 seconds of computing time|was stopped after "
                     r"30 seconds on the clock", runaway), runaway
    assert "It asked for the next states of one board" in runaway and "visited set?" in runaway
    assert EXAMPLE_SECONDS <= 6 and cpu < 20        # computing time counted, not the clock
    deep, _ = said["dfs_solution"]
    assert "RecursionError" in deep and "recursion" in deep, deep
    assert len(deep.splitlines()) < 60, deep
