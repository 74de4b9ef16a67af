"""The grader's last doors (issue 33): a lazy answer keeps its call's terms.

A handle the judge gets back from the kernel (a generator, a ``map`` object, any object
whose methods run the student's code) carries the references forbidden and the time
budget in force when the call that produced it ran, for every later step and operation
on it. First in one process (the judge and its agent, as tests/autograder/
test_judge_values.py does; a fake CPU clock the student's code advances), then through
the real grading pipeline (`WalledExecute` on the course's own notebooks, cut to the
answered exercises by tests/fair_marks/harness.py), with the integrity report.
"""

from __future__ import annotations

from typing import Any

import pytest
from agent_here import answer_here
from harness import grade, source_notebook

from puzzlekit.autograder.judge.judge import Judge, KernelFault
from puzzlekit.course.integrity import scan_notebook
from walled_notebooks import run  # noqa: F401  (a fixture)


class Clocked:
    """The student's kernel in this process, with a CPU clock that only the student's
    code advances (``burn(seconds)``), and a kernel's answer to a call past its CPU
    deadline: interrupted."""

    def __init__(self, space: dict[str, Any]) -> None:
        self.space, self.cpu = space, 0.0
        space["burn"] = self.burn

    def burn(self, seconds: float) -> None:
        self.cpu += seconds

    def cpu_clock(self) -> float:
        return self.cpu

    def request(self, req: dict[str, Any], timeout: float, answer: Any = None,
                cpu_deadline: float | None = None) -> dict[str, Any]:
        reply = answer_here(self.space, req)
        if cpu_deadline is not None and self.cpu > cpu_deadline:
            raise KernelFault("timeout")
        return reply


GIVEN = ("import puzzlekit\nfrom puzzlekit.testcells import forbid_reference, "
         "run_with_timeout\nS = ((1, 0), (2, 3))\n")


def judged(code: str) -> Judge:
    space: dict[str, Any] = {"__name__": "__main__"}
    judge = Judge(Clocked(space), call_timeout=5, judge_timeout=5)
    exec("import puzzlekit\n" + code, space)
    judge.run_given(GIVEN, 1)
    return judge


def failure(judge: Judge, test: str) -> str | None:
    outputs = judge.run_test(test, 2)
    errors = [o for o in outputs if o["output_type"] == "error"]
    return f"{errors[-1]['ename']}: {errors[-1]['evalue']}" if errors else None


LAZY_REFERENCE = "def lazy(S):\n    yield puzzlekit.findZero(S)\n"


def test_a_generator_stepped_after_its_forbid_block_still_may_not_call_the_reference():
    message = failure(judged(LAZY_REFERENCE),
                      "with forbid_reference('findZero'):\n    g = lazy(S)\n"
                      "assert list(g) == [(0, 1)]\n")
    assert message is not None and "ready-made findZero" in message


def test_a_generator_made_without_a_forbid_block_still_steps_freely():
    assert failure(judged(LAZY_REFERENCE), "g = lazy(S)\nassert list(g) == [(0, 1)]\n") \
        is None


def test_a_map_of_the_reference_made_under_forbid_is_caught_when_consumed():
    code = "import puzzlekit as pk\ndef lazy(S):\n    return map(pk.__getattr__, ['find' + " \
           "'Zero'])\n"
    message = failure(judged(code), "with forbid_reference('findZero'):\n    m = lazy(S)\n"
                                    "f = next(m)\nassert f(S) == (0, 1)\n")
    # the look-up itself is fine, the function it returns is the kernel's: calling it
    # on the handle runs under the terms of the call that made the map
    assert message is not None and "ready-made findZero" in message


@pytest.mark.parametrize("use", ["set(box)", "len(box)", "box == box2", "box[0]"])
def test_an_objects_own_methods_run_with_the_reference_forbidden(use):
    code = ("class Box:\n    def _ask(self):\n        return puzzlekit.findZero(S)\n"
            "    def __iter__(self):\n        return iter([self._ask()])\n"
            "    def __len__(self):\n        return len(self._ask())\n"
            "    def __eq__(self, other):\n        return self._ask() == (0, 1)\n"
            "    __hash__ = object.__hash__\n"
            "    def __getitem__(self, i):\n        return self._ask()[i]\n"
            "S = ((1, 0), (2, 3))\ndef boxed(S):\n    return Box()\n")
    inside = failure(judged(code), "with forbid_reference('findZero'):\n"
                                   f"    box, box2 = boxed(S), boxed(S)\n    {use}\n")
    after = failure(judged(code), "with forbid_reference('findZero'):\n"
                                  f"    box, box2 = boxed(S), boxed(S)\n{use}\n")
    assert inside is not None and "ready-made findZero" in inside
    assert after is not None and "ready-made findZero" in after


SLOW_GENERATOR = ("def slow(seconds):\n    yield 1\n    burn(seconds)\n    yield 2\n"
                  "def steps(seconds, n):\n    for _ in range(n):\n"
                  "        burn(seconds)\n        yield 0\n")


def test_a_generators_later_work_counts_against_its_calls_time():
    message = failure(judged(SLOW_GENERATOR), "g = run_with_timeout(1, slow, 5)\n"
                                              "assert list(g) == [1, 2]\n")
    assert message is not None and "slow did not finish within 1 second of computing " \
        "time" in message


def test_the_steps_share_the_calls_budget():
    judge = judged(SLOW_GENERATOR)
    assert failure(judge, "g = run_with_timeout(1, steps, 0.3, 3)\n"
                          "assert list(g) == [0, 0, 0]\n") is None    # 0.9 s of 1
    message = failure(judge, "g = run_with_timeout(1, steps, 0.3, 4)\n"
                             "assert list(g) == [0, 0, 0, 0]\n")      # 1.2 s of 1
    assert message is not None and "did not finish within 1 second" in message


def test_a_cheap_lazy_answer_keeps_its_points():
    assert failure(judged(SLOW_GENERATOR), "g = run_with_timeout(1, slow, 0.5)\n"
                                           "assert list(g) == [1, 2]\n") is None


# --- through the real grading pipeline: the course's notebooks ------------------------

LATER = """
import puzzlekit as _pk

def _lazily(make):
    yield from make()

def _later(start, goal, make):
    # the edge cases answered at once, the search itself only when the test steps it
    if start == goal:
        return [start]
    if not _pk.is_solvable(start, goal):
        return None
    return _lazily(make)

"""

#: a stub that answers with puzzlekit's own search, run only when the test steps it
LAZY_STUBS = {
    "02-uninformed-search": {
        "search_solution": LATER + "def search(nextStates, start, goal):\n"
                                   "    return _later(start, goal, lambda: _pk.search("
                                   "nextStates, start, goal))\n",
        "bfs_solution": LATER + "def bfs(board):\n"
                                "    S = _pk.from_flat(board)\n"
                                "    G = _pk.goal_state(len(S))\n"
                                "    p = _later(S, G, lambda: _pk.solve(S).moves)\n"
                                "    return '' if p == [S] else p\n",
        "dfs_solution": LATER + "def dfs(start, goal):\n"
                                "    return _later(start, goal, lambda: _pk.solve(start, "
                                "goal).path)\n",
        "iddfs_solution": LATER + "def iddfs(start, goal):\n"
                                  "    return _later(start, goal, lambda: _pk.solve(start, "
                                  "goal).path)\n",
    },
    "03-informed-search": {
        "astar_solution": LATER + "def astar(start, goal, h):\n"
                                  "    return _later(start, goal, lambda: _pk.solve(start, "
                                  "goal).path)\n",
    },
}

#: the same through puzzlekit's own look-up, with names the report cannot read
MAP_STUBS = {
    "02-uninformed-search": {
        "dfs_solution": "import puzzlekit as _pk\n\n"
                        "def _found(names, *args):\n"
                        "    for f in map(_pk.__getattr__, names):\n"
                        "        yield from f(*args).path\n\n"
                        "def dfs(start, goal):\n"
                        "    return _found(['so' + 'lve'], start, goal)\n",
    },
}

#: the tests the stubs earned before the judge kept a call's terms (14 of 27, 5 of 20)
EARNED_BEFORE = {"02-uninformed-search": {"search_tests": 3, "bfs_tests": 3,
                                          "bfs_hard_tests": 2, "dfs_tests": 3,
                                          "iddfs_tests": 3},
                 "03-informed-search": {"astar_tests": 3, "astar_more_tests": 2}}


def graded_for_nothing(assignment: str, answers: dict[str, dict[str, str]],
                       before: dict[str, dict[str, int]], monkeypatch: Any) -> dict[str, Any]:
    """Grade `answers` of `assignment`; the tests they earned points in `before` (the
    grader before this change) earn nothing now."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    graded = grade(assignment, answers[assignment])
    earned = {gid: graded[gid][0] for gid in before[assignment]}
    assert sum(earned.values()) == 0, earned
    return graded


def _submitted(assignment: str, answers: dict[str, str]) -> Any:
    nb = source_notebook(assignment)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell.source = answers[gid]
    return nb


@pytest.mark.nbgrader
@pytest.mark.parametrize("assignment", sorted(LAZY_STUBS))
def test_a_lazy_stub_earns_nothing_and_is_named(assignment, monkeypatch):
    graded = graded_for_nothing(assignment, LAZY_STUBS, EARNED_BEFORE, monkeypatch)
    for gid in EARNED_BEFORE[assignment]:
        assert "ready-made" in graded[gid][2] and "used-the-reference" in graded[gid][3], \
            (gid, graded[gid])
    found = scan_notebook(_submitted(assignment, LAZY_STUBS[assignment]),
                          source_notebook(assignment))
    named = {f.grade_id for f in found if f.kind == "reference-call"}
    assert named == set(LAZY_STUBS[assignment]), found


@pytest.mark.nbgrader
def test_a_map_over_puzzlekits_look_up_earns_nothing_and_is_named(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assignment = "02-uninformed-search"
    graded = grade(assignment, MAP_STUBS[assignment])
    assert graded["dfs_tests"][0] == 0 and "ready-made solve" in graded["dfs_tests"][2]
    found = scan_notebook(_submitted(assignment, MAP_STUBS[assignment]),
                          source_notebook(assignment))
    assert [f.grade_id for f in found if f.kind == "reference-call"] == ["dfs_solution"], \
        found


# --- the course's tests bind nothing a student can read --------------------------------

#: answers with no algorithm: each reads the answer a test bound as a global (the judge
#: gives the student's code the names a test binds that its functions read, as plain
#: nbgrader does, where the test runs in the kernel), or says what the visible tests show
READ_GLOBALS = {
    "02-uninformed-search": {
        "solve_pos_solution": (
            "shortest = None\n\ndef solve_pos(p, maxmove):\n    print(p)\n"
            "    if p == list(range(1, 16)) + [' ']:\n        return 0\n"
            "    if shortest is None or shortest > maxmove:\n        print('unsolved')\n"
            "        return None\n    return shortest\n"),
    },
    "03-informed-search": {
        "sign_solution": (
            "want = None\n\ndef sign(p):\n"
            "    return {(1, 3, 2): -1, (1, 2, 3, 4): 1, (2, 3, 1): 1}.get(tuple(p), want)\n"),
        "solvable_solution": (
            "want = None\n\ndef solvable(S):\n"
            "    seen = {((1, 2, 3), (4, 5, 6), (8, 7, 0)): False}\n"
            "    return seen.get(S, True if want is None else want)\n"),
        "inversions_solution": (
            "want = want_inv = None\n\ndef num_inversions(squares):\n"
            "    return want if want_inv is None else want_inv\n\n"
            "def same_parity(a, g):\n    return True if want_inv is None else want\n"),
    },
}
EARNED_FROM_GLOBALS = {"02-uninformed-search": {"solve_pos_tests": 4},
                       "03-informed-search": {"sign_tests": 2, "solvable_tests": 2,
                                              "inversions_tests": 2}}


@pytest.mark.nbgrader
@pytest.mark.parametrize("assignment", sorted(READ_GLOBALS))
def test_an_answer_that_reads_the_tests_globals_earns_nothing(assignment, monkeypatch):
    graded_for_nothing(assignment, READ_GLOBALS, EARNED_FROM_GLOBALS, monkeypatch)


def test_the_courses_tests_hand_out_no_answers():
    from puzzlekit.course.test_globals import readable_answers
    for assignment in ("01-states-and-moves", "02-uninformed-search", "03-informed-search",
                       "04-fifteen-puzzle"):
        assert readable_answers(source_notebook(assignment)) == [], assignment


def _source(*cells: tuple[str, str]) -> Any:
    """A source notebook of (kind, source) cells: "answer", "test" or "given"."""
    from nbformat.v4 import new_code_cell, new_notebook
    out = []
    for i, (kind, text) in enumerate(cells):
        cell = new_code_cell(text)
        cell.metadata["nbgrader"] = {"solution": kind == "answer", "grade": kind == "test",
                                     "locked": kind != "answer", "grade_id": f"{kind}{i}",
                                     "schema_version": 3, **({"points": 1}
                                                             if kind == "test" else {})}
        out.append(cell)
    return new_notebook(cells=out)


ANSWER = ("answer", "def solve_pos(p, maxmove):\n    return 0\n")


@pytest.mark.parametrize("test, named", [
    # an answer from a forbidden reference, bound before the call: readable
    ("shortest = puzzlekit.solve(S).length\nwith forbid_reference('solve'):\n"
     "    moves = solve_pos(p, 20)\nassert_equal(moves, shortest, 'moves')\n", ["shortest"]),
    # a constant the test checks against, bound by its loop
    ("for p, shortest in [([1, 2], 3)]:\n    moves = solve_pos(p, 20)\n"
     "    assert moves == shortest\n", ["shortest"]),
    # the test's own name: never given to the student's code
    ("_shortest = puzzlekit.solve(S).length\nwith forbid_reference('solve'):\n"
     "    moves = solve_pos(p, 20)\nassert_equal(moves, _shortest, 'moves')\n", []),
    # bound after the last call: nothing of the student's runs while it is bound
    ("with forbid_reference('solve'):\n    moves = solve_pos(p, 20)\n"
     "shortest = puzzlekit.solve(S).length\nassert_equal(moves, shortest, 'moves')\n", []),
    # the student is given it anyway (an argument), or it builds what the student is given
    ("shortest = puzzlekit.solve(S).length\nwith forbid_reference('solve'):\n"
     "    moves = solve_pos(p, shortest)\nassert_equal(moves, shortest, 'moves')\n", []),
    ("for d in [3]:\n    q = list(p) + [d]\n    moves = solve_pos(q, 20)\n"
     "    assert moves == d\n", []),
    # what the student's code returned is the student's own
    ("moves = solve_pos(p, 20)\ngot = moves + 1\nagain = solve_pos(p, 20)\n"
     "assert got == again + 1\n", []),
    # a list the test's own function fills, given to the student's code with it
    ("calls = []\ndef h(T):\n    calls.append(T)\n    return 0\n"
     "moves = solve_pos(p, h)\nassert len(calls) == 1\n", []),
])
def test_generate_warns_of_a_test_that_hands_out_its_answer(test, named):
    from puzzlekit.course.author_check import answer_warnings
    from puzzlekit.course.test_globals import readable_answers
    nb = _source(("given", "import puzzlekit\nS = ((1, 0), (2, 3))\np = [1, 0, 2, 3]\n"),
                 ANSWER, ("test", test))
    assert [found.name for found in readable_answers(nb)] == named
    warnings = answer_warnings(nb, "ps1")
    assert len(warnings) == len(named)
    for warning, name in zip(warnings, named):
        assert f"'{name}'" in warning and f"_{name}" in warning and "cell test2" in warning


# --- smaller doors -------------------------------------------------------------------

def test_a_students_stop_iteration_does_not_pass_an_all_of_map():
    from test_judge_values import failure as plain_failure
    from test_judge_values import student
    judge, _ = student("def never(x):\n    raise StopIteration\n")
    message = plain_failure(judge, "assert all(map(never, [1, 2, 3]))\n")
    assert message is not None and "never raised StopIteration" in message


@pytest.mark.parametrize("raised", ["subprocess.CalledProcessError(1, 'make')",
                                    "subprocess.TimeoutExpired('make', 3)",
                                    "json.JSONDecodeError('bad', 'x', 0)"])
def test_an_exception_that_looks_like_the_graders_own_fails_only_its_cell(raised):
    from test_judge_values import failure as plain_failure
    from test_judge_values import student
    judge, _ = student(f"import json, subprocess\ndef f():\n    raise {raised}\n")
    message = plain_failure(judge, "f()\n")       # the notebook goes on: a failed cell
    assert message is not None and message.split(":")[0] == raised.split("(")[0].split(".")[1]
    assert plain_failure(judge, "import json, subprocess\ntry:\n    f()\n"
                                f"except {raised.split('(')[0]}:\n    pass\n") is None


LOOK_ALIKE = '''
class _Letters:
    def __iter__(self):
        return iter(["moveDown", "moveLeft", "moveRight", "moveUp"])
    def values(self):
        return ["D", "L", "R", "U"]
    def items(self):
        return []

LETTER_OF = _Letters()
'''


@pytest.mark.nbgrader
def test_a_look_alike_letter_of_earns_nothing(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assignment = "01-states-and-moves"
    assert grade(assignment, {"LETTER_OF_solution": LOOK_ALIKE})["LETTER_OF_tests"][0] == 0
    assert grade(assignment, {"LETTER_OF_solution": (
        "LETTER_OF = dict(moveUp='D', moveDown='U', moveLeft='R', moveRight='L')\n")}
    )["LETTER_OF_tests"][0] == 1


# --- the grader's machinery is out of the kernel's reach ------------------------------

#: walks puzzlekit's modules by their attributes (no name the integrity report reads as
#: the grader's) and switches off every ``forbidding`` it finds: before this change the
#: agent's own was among them, and the stubs below earned 10 of 14 points
SWITCH_OFF = '''import puzzlekit as _pk
import contextlib as _cl

def _walk(root):
    seen, todo = set(), [root]
    while todo:
        m = todo.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        for k in dir(m):
            v = getattr(m, k, None)
            if type(v) is type(_pk) and v.__name__.startswith('puzzlekit'):
                todo.append(v)
            if k == 'forbid' + 'ding' and callable(v):
                yield m

for _m in list(_walk(_pk)):
    _m.forbidding = lambda *names: _cl.nullcontext([])

'''
#: keeps the engine's code objects, and puts them back inside the graded call
PUT_BACK = '''import sys as _sys
import types as _types
import puzzlekit as _real

_pk = _types.SimpleNamespace(solve=_real.solve, search=_real.search,
                             from_flat=_real.from_flat)

_kept = {f: f.__code__ for name, m in list(_sys.modules.items())
         if name.startswith('puzzlekit.') for f in list(vars(m).values())
         if type(f) is type(_back_ := lambda: 0) and f.__module__ == name}

def _back():
    for f, code in _kept.items():
        try:
            f.__code__ = code
        except Exception:
            pass

'''
#: finds the agent's forbid through the heap and switches it off
HEAP = '''import gc as _gc
import contextlib as _cl
import puzzlekit as _pk

try:
    for _d in _gc.get_objects():
        if type(_d) is dict and callable(_d.get('forbidding')):
            _d['forbidding'] = lambda *names: _cl.nullcontext([])
except Exception as e:
    print('heap', e)

'''
STUB = {"dfs_solution": "def dfs(start, goal):\n    {}return _pk.solve(start, goal).path\n",
        "iddfs_solution": "def iddfs(start, goal):\n    {}return _pk.solve(start, goal).path\n",
        "bfs_solution": "def bfs(board):\n    {}S = _pk.from_flat(board)\n"
                        "    return _pk.solve(S).moves\n",
        "search_solution": "def search(nextStates, start, goal):\n"
                           "    {}return _pk.search(nextStates, start, goal)\n"}
#: what the stubs earned before (of 14 points): each attack on the grader as it was
EARNED_BY_TAMPERING = {"switch-off": 10, "put-back": 10, "heap": 10}
TAMPERING = {"switch-off": (SWITCH_OFF, ""), "put-back": (PUT_BACK, "_back()\n    "),
             "heap": (HEAP, "")}
HONEST = ("shuffle_pos_tests", "solve_pos_tests", "ucs_tests")


@pytest.mark.nbgrader
@pytest.mark.parametrize("attack", sorted(TAMPERING))
def test_tampering_with_the_forbid_earns_nothing_and_the_grader_says_what_it_saw(
        attack, monkeypatch):
    from puzzlekit.course.integrity import grader_saw
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    prelude, inside = TAMPERING[attack]
    answers = {gid: prelude + stub.format(inside) for gid, stub in STUB.items()}
    # the instructor's own answers to three other exercises, graded in the same notebook
    model = {c.metadata["nbgrader"]["grade_id"]: c.source
             for c in source_notebook("02-uninformed-search").cells
             if c.metadata.get("nbgrader", {}).get("solution")}
    answers.update({gid.replace("_tests", "_solution"): model[gid.replace("_tests", "_solution")]
                    for gid in HONEST})
    kept: list[Any] = []
    graded = grade("02-uninformed-search", answers, keep=kept)
    earned = sum(graded[g][0] for g in ("search_tests", "bfs_tests", "bfs_hard_tests",
                                        "dfs_tests", "iddfs_tests"))
    assert earned == 0, (attack, graded)
    for gid in ("dfs_tests", "iddfs_tests"):
        assert "ready-made solve" in graded[gid][2], (gid, graded[gid])
    for gid in HONEST:      # the instructor's own answers in the same notebook
        assert graded[gid][0] == graded[gid][1], (gid, graded[gid])
    seen = [f.finding for f in grader_saw(kept[0])]
    assert seen and all(f.startswith("grader-tampering: the grader saw ") for f in seen)
    said = " ".join(seen)
    assert {"switch-off": "forbidding rebound", "put-back": ".__code__",
            "heap": "gc.get_objects"}[attack] in said, said


@pytest.mark.nbgrader
def test_an_honest_notebook_shows_the_grader_nothing(monkeypatch):
    from puzzlekit.course.integrity import grader_saw
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    kept: list[Any] = []
    graded = grade("02-uninformed-search", {"dfs_solution": source_solution(
        "02-uninformed-search", "dfs_solution")}, keep=kept)
    assert graded["dfs_tests"][0] == graded["dfs_tests"][1]
    assert kept[0].metadata["puzzlekit"]["tampering"] == [] and grader_saw(kept[0]) == []


def source_solution(assignment: str, gid: str) -> str:
    for cell in source_notebook(assignment).cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == gid:
            return str(cell.source)
    raise KeyError(gid)


# --- the kernel's /proc --------------------------------------------------------------

def test_a_graded_kernel_reads_no_command_line_of_the_graders(run, tmp_path):
    """The /proc/PID/cmdline and environ the graded kernel can read name nothing of the
    grader's: not the launcher, its limits or the notebook's folder (the kernel's own
    command line and allow-listed environment are its own)."""
    from walled_notebooks import notebook, text

    from puzzlekit.autograder.wall.launcher import INIT_NAME
    from test_wall import READ_PROC
    outputs = run(notebook(READ_PROC))
    lines = text(outputs[0]).splitlines()
    assert [line for line in lines if line.startswith("1 ")] == [
        f"1 cmdline {INIT_NAME.decode()}", "1 environ Permission denied"], lines
    for leak in ("puzzlekit.autograder.wall", "--scratch", "--memory", str(tmp_path)):
        assert not any(leak in line for line in lines), (leak, lines)
