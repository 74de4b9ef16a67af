"""Values and objects cross the wall with plain Python semantics (issue 22, item 1).

A small corpus of plain nbgrader test cells (numpy arrays, complex numbers, identity of
what the test passed in, the student's exceptions by type, generators, instances of the
student's classes, the student's globals rebound or changed by a test), each with a right
and a wrong answer, is run twice in real kernels: by `WalledExecute` (the kit's judge)
and by plain nbclient (the test cells in the kernel, as plain nbgrader runs them). The
verdicts must agree, the right answers pass and the wrong ones fail. Then hostile kernels
(in one process, as tests/autograder/test_judge.py does) that name a judge object they were never
given, forge a class chain, send a huge array or a broken iterator: each fails safely.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from agent_here import answer_here

from puzzlekit.autograder import wire
from puzzlekit.autograder.judge.judge import Judge, Remote, RemoteIterator, StudentCodeError

# Each case: (name, the right answer, a wrong answer, the test cell). Names differ
# between cases: all cases share one notebook.
CASES: list[tuple[str, str, str, str]] = [
    ("numpy_array",
     "def np_double(a):\n    return a * 2\n",
     "def np_double(a):\n    return a + 1\n",
     "import numpy as np\na = np.arange(6).reshape(2, 3)\nout = np_double(a)\n"
     "np.testing.assert_array_equal(out, a * 2)\nassert np.array_equal(out, a * 2)\n"
     "assert (out == a * 2).all() and out.dtype == a.dtype and out.shape == (2, 3)\n"),
    ("numpy_scalar",
     "def np_mean(a):\n    return a.mean()\n",
     "def np_mean(a):\n    return float(a.sum()) / len(a) + 0.5\n",
     "import numpy as np\nm = np_mean(np.array([1.0, 2.0]))\n"
     "assert isinstance(m, np.floating) and m == 1.5\n"),
    ("complex",
     "def rotate(z):\n    return z * 1j\n",
     "def rotate(z):\n    return z\n",
     "assert rotate(1 + 2j) == -2 + 1j\nassert isinstance(rotate(1j), complex)\n"),
    ("identity_of_the_start",
     "def path_from(S):\n    return [S, ((0, 1), (2, 3))]\n",
     "def path_from(S):\n    return [tuple(list(S)), ((0, 1), (2, 3))]\n",
     "S = ((1, 0), (2, 3))\np = path_from(S)\nassert p[0] is S and p[0] == S\n"),
    ("identity_and_mutation",
     "def add_to(xs, item):\n    xs[0].append(item)\n    xs.append(item)\n    return xs\n",
     "def add_to(xs, item):\n    return [xs[0] + [item], item]\n",
     "inner = [1]\nL = [inner]\nr = add_to(L, 5)\n"
     "assert r is L and L[0] is inner and L == [[1, 5], 5], L\n"),
    ("exception_by_type",
     "class NoSolution(ValueError):\n    pass\n\n"
     "def solve(S):\n    raise NoSolution('no path from', S)\n",
     "class NoSolution(ValueError):\n    pass\n\n"
     "def solve(S):\n    raise RuntimeError('no path')\n",
     "try:\n    solve(7)\nexcept NoSolution as e:\n    assert e.args == ('no path from', 7)\n"
     "    assert isinstance(e, ValueError) and issubclass(NoSolution, ValueError)\n"
     "else:\n    raise AssertionError('expected NoSolution')\n"
     "try:\n    solve(7)\nexcept ValueError as e:\n    assert 'no path' in str(e)\n"),
    ("exception_not_raised",
     "def checked(x):\n    if x < 0:\n        raise ValueError(f'negative: {x}')\n"
     "    return x\n",
     "def checked(x):\n    return x\n",
     "try:\n    checked(-1)\nexcept ValueError as e:\n    assert str(e) == 'negative: -1'\n"
     "else:\n    raise AssertionError('no ValueError')\n"),
    ("endless_generator",
     "def naturals():\n    n = 0\n    while True:\n        yield n\n        n += 1\n",
     "def naturals():\n    yield from range(3)\n",
     "import itertools\nassert list(itertools.islice(naturals(), 5)) == [0, 1, 2, 3, 4]\n"
     "g = naturals()\nassert next(g) == 0 and next(g) == 1\n"
     "for x in g:\n    if x > 10:\n        break\nassert x == 11\n"),
    ("lazy_generator",
     "taken = []\n\ndef trace_gen():\n    for i in range(100):\n        taken.append(i)\n"
     "        yield i\n\ndef steps_taken():\n    return len(taken)\n",
     "taken = []\n\ndef trace_gen():\n    items = list(range(100))\n"
     "    taken.extend(items)\n    yield from items\n\ndef steps_taken():\n"
     "    return len(taken)\n",
     "g = trace_gen()\nassert next(g) == 0 and steps_taken() == 1\n"
     "assert next(g) == 1 and steps_taken() == 2\n"),
    ("instances",
     "class Node:\n    def __init__(self, state, parent=None):\n"
     "        self.state, self.parent = state, parent\n"
     "    def path(self):\n        node, out = self, []\n        while node is not None:\n"
     "            out.append(node.state)\n            node = node.parent\n"
     "        return out[::-1]\n    def __len__(self):\n        return len(self.path())\n"
     "    def __iter__(self):\n        return iter(self.path())\n"
     "    def __getitem__(self, i):\n        return self.path()[i]\n",
     "class Node:\n    def __init__(self, state, parent=None):\n"
     "        self.state, self.parent = state, parent\n"
     "    def path(self):\n        return [self.state]\n    def __len__(self):\n"
     "        return 1\n    def __iter__(self):\n        return iter([self.state])\n"
     "    def __getitem__(self, i):\n        return self.state\n",
     "n = Node('b', Node('a'))\nassert isinstance(n, Node) and not isinstance(3, Node)\n"
     "assert n.state == 'b' and n.path() == ['a', 'b'] and len(n) == 2\n"
     "assert list(n) == ['a', 'b'] and 'a' in n and n[0] == 'a'\n"),
    ("rebound_global",
     "goal = (1, 2, 3)\n\ndef at_goal(s):\n    return s == goal\n",
     "goal = (1, 2, 3)\n\ndef at_goal(s):\n    return s == (1, 2, 3)\n",
     "goal = (3, 2, 1)\nassert at_goal((3, 2, 1)) and not at_goal((1, 2, 3))\n"),
    ("changed_global",
     "COSTS = {'U': 1, 'D': 1}\n\ndef price(moves):\n    return sum(COSTS[m] for m in moves)\n",
     "COSTS = {'U': 1, 'D': 1}\n\ndef price(moves):\n    return len(moves)\n",
     "COSTS['U'] = 5\nassert price('UD') == 6, price('UD')\n"),
]

#: a student's cell after the tests: it sees what the test cell bound, as in plain nbgrader
AFTER = "assert goal == (3, 2, 1), goal\nassert COSTS['U'] == 5\n"


def _notebook(answers: list[str]) -> Any:
    from nbformat.v4 import new_code_cell, new_notebook
    cells = []
    for (name, *_, test), answer in zip(CASES, answers):
        cells.append(new_code_cell(answer))
        cell = new_code_cell(test)
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                     "points": 1, "grade_id": name, "schema_version": 3}
        cell.metadata["tags"] = ["raises-exception"]
        cells.append(cell)
    cells.append(new_code_cell(AFTER))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    return nb


def _verdicts(nb: Any) -> dict[str, str | None]:
    """Each test cell's error (None: passed), and the closing student cell's."""
    out: dict[str, str | None] = {}
    for cell in nb.cells:
        errors = [f"{o.ename}: {o.evalue}" for o in cell.get("outputs", [])
                  if o.output_type == "error"]
        name = cell.metadata.get("nbgrader", {}).get("grade_id", "after" if
                                                     cell.source == AFTER else None)
        if name is not None:
            out[name] = errors[0] if errors else None
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[tuple[str, str], dict[str, str | None]]:
    """The corpus graded by the kit and by plain nbclient, right and wrong answers."""
    pytest.importorskip("nbgrader")
    from nbclient import NotebookClient

    from puzzlekit.autograder.judge.autograde import WalledExecute
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    old_path, os.environ["PATH"] = os.environ["PATH"], path
    try:
        results = {}
        for which, index in (("right", 1), ("wrong", 2)):
            answers = [case[index] for case in CASES]
            folder = tmp_path_factory.mktemp(which)
            kit, _ = WalledExecute(timeout=60).preprocess(
                _notebook(answers), {"metadata": {"path": str(folder)}})
            results[("kit", which)] = _verdicts(kit)
            plain = _notebook(answers)
            NotebookClient(plain, timeout=60, allow_errors=True,
                           resources={"metadata": {"path": str(folder)}}).execute()
            results[("plain", which)] = _verdicts(plain)
        return results
    finally:
        os.environ["PATH"] = old_path


pytestmark = pytest.mark.nbgrader

NAMES = [case[0] for case in CASES]


@pytest.mark.parametrize("name", NAMES)
def test_a_right_answer_passes_under_the_kit_as_under_plain_nbgrader(graded, name):
    assert graded[("plain", "right")][name] is None, graded[("plain", "right")][name]
    assert graded[("kit", "right")][name] is None, graded[("kit", "right")][name]


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_answer_fails_under_the_kit_as_under_plain_nbgrader(graded, name):
    assert graded[("plain", "wrong")][name] is not None
    assert graded[("kit", "wrong")][name] is not None


def test_a_later_cell_sees_what_a_test_bound(graded):
    assert graded[("plain", "right")]["after"] is None
    assert graded[("kit", "right")]["after"] is None, graded[("kit", "right")]["after"]


# ---------------------------------------------------------------------------
# in one process: the agent answering with a namespace of its own (tests/autograder/test_judge.py)

class InProcess:
    def __init__(self, space: dict[str, Any]) -> None:
        self.space = space
        self.requests: list[dict[str, Any]] = []

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.requests.append(req)
        return answer_here(self.space, req)


def student(code: str) -> tuple[Judge, dict[str, Any]]:
    space: dict[str, Any] = {"__name__": "__main__"}
    exec(code, space)
    return Judge(InProcess(space), call_timeout=5, judge_timeout=5), space


def failure(judge: Judge, test: str) -> str | None:
    outputs = judge.run_test(test, 1)
    errors = [o for o in outputs if o["output_type"] == "error"]
    return f"{errors[-1]['ename']}: {errors[-1]['evalue']}" if errors else None


def test_importing_puzzlekit_does_not_import_numpy():
    import subprocess
    code = ("import sys, puzzlekit, puzzlekit.autograder.judge.judge, puzzlekit.autograder.kernel.agent, puzzlekit.autograder.wire\n"
            "from puzzlekit import wire\nwire.loads(wire.dumps([1, (2, 3), 1j]))\n"
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_arrays_round_trip_exactly():
    np = pytest.importorskip("numpy")
    for value in [np.arange(12, dtype=np.int32).reshape(3, 4), np.array([1.5, np.nan, -0.0]),
                  np.array(["U", "DL"]), np.zeros((0, 5)), np.array([[1 + 2j]]),
                  np.array([True, False]), np.array(7.0).astype(">f8")]:
        back = wire.loads(wire.dumps(value))
        assert type(back) is np.ndarray and back.shape == value.shape
        assert back.dtype == (value.dtype.newbyteorder("<") if value.dtype.byteorder == ">"
                              else value.dtype)
        assert np.array_equal(back, value, equal_nan=value.dtype.kind in "fc")
    for scalar in (np.int64(3), np.float32(0.5), np.bool_(True)):
        back = wire.loads(wire.dumps(scalar))
        assert type(back) is type(scalar) and back == scalar
    assert wire.loads(wire.dumps([1 + 2j, complex(float("inf"), -1)])) == \
        [1 + 2j, complex(float("inf"), -1)]


def test_an_array_subclass_with_a_rigged_eq_crosses_as_a_plain_array():
    np = pytest.importorskip("numpy")

    class Yes(np.ndarray):
        def __eq__(self, other):
            return True
    back = wire.loads(wire.dumps(np.arange(3).view(Yes)))
    assert type(back) is np.ndarray and not (back == np.arange(1, 4)).all()


@pytest.mark.parametrize("message, words", [
    (["a", "<f8", [10 ** 6, 10 ** 6], "AAAA"], "more than"),
    (["a", "<f8", [10 ** 9], "AAAA"], "shape"),
    (["a", "<f8", [3], "A" * 200], "more than 100 bytes"),
    (["a", "|O8", [1], "AAAA"], "known dtype"),
    (["a", "<f8", [2], "AAAA"], "does not match"),
    (["a", "<f8", [1] * 40, "AAAAAAAAAAA="], "shape"),
    (["a", "<f8", [-1], "AAAA"], "shape"),
    (["c", "x", 1.0], "two floats"),
])
def test_a_hostile_array_is_refused(monkeypatch, message, words):
    monkeypatch.setattr(wire, "MAX_BYTES", 100)
    with pytest.raises(wire.WireError, match=words):
        wire.decode(message)


def test_a_huge_array_from_the_kernel_fails_its_test_with_a_clear_message(monkeypatch):
    np = pytest.importorskip("numpy")
    monkeypatch.setattr(wire, "MAX_BYTES", 1000)
    judge, _ = student("import numpy as np\ndef big():\n    return np.zeros(1000)\n")
    message = failure(judge, "assert big().sum() == 0\n")
    assert message.startswith("AssertionError: your code returned a value too large") \
        and "bytes" in message
    assert np is not None


class Lying:
    """A kernel that answers every call with `value` (on the wire) and `extra`."""

    def __init__(self, value: Any = None, **extra: Any) -> None:
        self.value, self.extra = value, extra

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        if req["kind"] == "names":
            return {"ok": True, "names": {n: {"kind": "callable"} for n in req["names"]}}
        if req["kind"] == "set":
            return {"ok": True, "has": [], "set": []}
        return {"ok": True, "value": self.value, **self.extra}


@pytest.mark.parametrize("test", [
    "f()\n",                        # nothing given: nothing to name
    "f((1, 2))\n",                  # one object given (number 0): number 1 is not one
])
def test_a_kernel_cannot_name_a_judge_object_it_was_not_given(test):
    judge = Judge(Lying(["x", {"$arg": 1}]), judge_timeout=5)
    judge.run_given("SECRET = [1, 2, 3]\n", 1)
    message = failure(judge, test)
    assert message is not None and "did not give it" in message


def test_a_reference_is_good_for_its_own_call_only():
    judge, _ = student("kept = []\ndef keep(x):\n    kept.append(x)\n    return x\n"
                       "def give():\n    return kept[0]\n")
    assert failure(judge, "S = ((1, 2), (3, 0))\nassert keep(S) is S\n"
                          "assert give() == S and give() is not S\n") is None


def test_writing_back_touches_only_the_calls_own_mutable_objects():
    judge = Judge(Lying(None, mutated={"0": ["l", 9], "1": ["l", 9], "7": ["l", 9],
                                       "x": ["l", 9]}), judge_timeout=5)
    assert failure(judge, "t = (1, 2)\nL = [5]\nf(t, L)\nassert t == (1, 2) and L == [9]\n"
                   ) is None


def test_a_named_tuple_of_the_test_comes_back_as_itself():
    judge, _ = student("def first(xs):\n    return xs[0]\n")
    assert failure(judge, "import collections\nP = collections.namedtuple('P', 'r c')\n"
                          "p = P(1, 2)\nassert first([p]) is p and first([p]).r == 1\n") is None


def test_an_identity_survives_a_mutated_argument_in_process():
    judge, _ = student("def shelve(xs, S):\n    xs.append(S)\n    xs.append([S])\n")
    assert failure(judge, "S = ((1, 2), (3, 0))\nxs = []\nshelve(xs, S)\n"
                          "assert xs[0] is S and xs[1][0] is S\n") is None


@pytest.mark.parametrize("chain", [
    [["builtins", "KeyboardInterrupt"], ["builtins", "BaseException"]],
    [["puzzlekit.autograder.judge.judge", "JudgeTimeout"], ["builtins", "BaseException"]],
    [["builtins", "SystemExit"], ["builtins", "BaseException"]],
    [["os", "system"], ["builtins", "BaseException"]],
    [["x", "y"]] * 5000,
    "not a chain",
    [["__main__", "Boom"], ["__main__", "Boom"], ["builtins", "Exception"]] * 10,
])
def test_a_forged_class_chain_gives_only_an_ordinary_failure(chain):
    name = chain[0][1] if type(chain) is list else "Boom"
    error = {"ename": name, "evalue": "boom", "chain": chain, "args": ["t", "boom"]}
    judge = Judge(Lying(None, error=error), judge_timeout=5)
    message = failure(judge, "try:\n    f()\nexcept Exception as e:\n    caught = e\n"
                             "else:\n    raise AssertionError('nothing raised')\n"
                             "raise AssertionError(type(caught).__mro__)\n")
    assert message is not None and message.startswith("AssertionError: (")
    caught = judge.ns["caught"]
    assert isinstance(caught, Exception) and not isinstance(caught, (KeyboardInterrupt,
                                                                     SystemExit))


def test_one_chain_is_one_class_and_builtins_stay_builtins():
    judge, _ = student("class NoSolution(KeyError, ValueError):\n    pass\n"
                       "def solve():\n    raise NoSolution('x')\n"
                       "def plain():\n    raise KeyError('k')\n")
    assert failure(judge, "try:\n    solve()\nexcept NoSolution as e:\n    got = e\n"
                          "assert isinstance(got, KeyError) and isinstance(got, ValueError)\n"
                          "assert type(got).__name__ == 'NoSolution' and got.args == ('x',)\n"
                          "try:\n    plain()\nexcept KeyError as e:\n"
                          "    assert type(e) is KeyError and str(e) == \"'k'\"\n") is None


def test_a_student_exception_shows_its_own_str():
    judge, _ = student("class Odd(Exception):\n    def __str__(self):\n"
                       "        return 'odd: ' + str(self.args[0])\n"
                       "def f():\n    raise Odd(3)\n")
    message = failure(judge, "f()\n")
    assert message == "Odd: odd: 3"
    assert issubclass(type(judge.student_error(
        {"ename": "Odd", "evalue": "", "chain": [["__main__", "Odd"],
                                                 ["builtins", "Exception"]]}, "f")),
        StudentCodeError) is False


def test_a_generator_is_stepped_only_as_far_as_the_test_asks():
    judge, space = student("taken = []\ndef gen():\n    for i in range(10 ** 9):\n"
                           "        taken.append(i)\n        yield i\n")
    assert failure(judge, "import itertools\nassert list(itertools.islice(gen(), 3)) == "
                          "[0, 1, 2]\n") is None
    assert space["taken"] == [0, 1, 2]
    assert isinstance(judge.ns["gen"](), RemoteIterator)


def test_a_plain_iterator_is_stepped_in_batches():
    judge, _ = student("def items():\n    return iter(list(range(200)))\n")
    channel = judge.channel
    assert failure(judge, "assert sum(items()) == sum(range(200))\n") is None
    assert len(channel.requests) < 10


def test_a_generator_that_forbids_a_reference_is_caught_while_stepped():
    judge, _ = student("import puzzlekit\ndef gen(S):\n    yield puzzlekit.findZero(S)\n")
    judge.run_given("from puzzlekit.testcells import forbid_reference\n", 1)
    message = failure(judge, "S = ((1, 0), (2, 3))\nwith forbid_reference('findZero'):\n"
                             "    list(gen(S))\n")
    assert message is not None and "ready-made findZero" in message


def test_a_kernel_that_lies_about_an_iterator_fails_safely():
    judge = Judge(Lying(["x", {"$h": 3, "type": "generator", "iter": True}]),
                  judge_timeout=5)
    message = failure(judge, "next(f())\n")
    assert message is not None and "could not step" in message


def test_the_same_kernel_object_is_the_same_handle():
    judge, _ = student("class Box:\n    def me(self):\n        return self\nb = Box()\n")
    assert failure(judge, "assert b.me() is b and b.me().me() is b\n") is None
    assert isinstance(judge.ns["b"], Remote)


def test_a_test_bound_name_is_never_taken_back_from_the_kernel():
    judge, space = student("goal = (1, 2)\ndef at_goal(s):\n    return s == goal\n"
                           "def rebind():\n    global goal\n    goal = 'rigged'\n")
    assert failure(judge, "goal = (2, 1)\nassert at_goal((2, 1))\nrebind()\n") is None
    assert space["goal"] == "rigged" and judge.ns["goal"] == (2, 1)
    judge.kernel_changed()      # a student's cell ran
    assert failure(judge, "assert goal == (2, 1), goal\n") is None
    assert "goal" in judge.globals.trusted


def test_a_name_a_failed_test_did_not_bind_is_never_the_students():
    # the student's code fails the first cell before it binds `expected`, and defines an
    # `expected` of its own: the second cell must not read the student's
    judge, _ = student("expected = 'mine'\ndef answer():\n    raise ValueError('no')\n"
                       "def other():\n    return 'mine'\n")
    assert failure(judge, "got = answer()\nexpected = 'right'\n") is not None
    assert failure(judge, "assert other() == expected\n").startswith("NameError")


def test_a_name_read_before_the_test_binds_it_is_the_students():
    judge, _ = student("limit = 3\ndef under(x):\n    return x < limit\n")
    assert failure(judge, "assert limit == 3\nlimit = 10\nassert under(5)\n") is None


def test_a_hidden_tests_own_names_never_reach_the_students_code():
    judge, space = student("_expected = None\nexpected_value = None\n"
                           "def peek():\n    return _expected\n")
    assert failure(judge, "_expected = 42\nassert peek() is None\n") is None
    assert space["_expected"] is None


def test_names_the_student_does_not_have_are_not_sent():
    judge, space = student("def f():\n    return 1\n")
    assert failure(judge, "path = [1, 2, 3]\nassert f() == 1\nassert f() == 1\n") is None
    assert "path" not in space
    sets = [r for r in judge.channel.requests if r["kind"] == "set"]
    assert len(sets) == 1 and sets[0].get("has") == ["path"]


#: the agent's names are its sealed copy's (`agent.install`): rebinding the module's changes
#: nothing, so the lies go into the copy, through the kernel's own handler table (a route
#: the kernel's guard does not see: the judge must not believe them all the same)
HOSTILE = '''
import numpy as np
_agent = get_ipython().kernel.shell_handlers['puzzlekit_request'].__globals__
_MARK = object()
_plain_out = _agent['_out']
_agent['_out'] = lambda value: ["x", {"$arg": 3}] if value is _MARK else _plain_out(value)
_plain_report = _agent['_report']

def _forged(e):
    report = _plain_report(e)
    report["ename"] = "SystemExit"
    report["chain"] = [["builtins", "SystemExit"], ["builtins", "BaseException"]]
    return report

_agent['_report'] = _forged

def steal(S):
    return _MARK

def boom():
    raise ValueError("boom")

def huge():
    return np.zeros(300_000)
'''


def test_a_hostile_kernel_fails_only_its_own_tests(tmp_path, monkeypatch):
    """A student's code that makes the agent lie, in a real kernel: a reference to an
    object the judge never gave, a forged class chain (SystemExit), a huge array."""
    pytest.importorskip("nbgrader")
    from nbformat.v4 import new_code_cell, new_notebook

    from puzzlekit.autograder.judge.autograde import WalledExecute
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep
                       + os.environ["PATH"])
    tests = ["S = ((1, 0), (2, 3))\nassert steal(S) is not None\n",
             "try:\n    boom()\nexcept SystemExit:\n    pass\n",
             "assert huge().sum() == 0\n",
             "assert 1 + 1 == 2\n"]
    cells = [new_code_cell(HOSTILE)] + [new_code_cell(t) for t in tests]
    for i, cell in enumerate(cells[1:]):
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                     "points": 1, "grade_id": f"t{i}", "schema_version": 3}
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    nb, _ = WalledExecute(timeout=60, max_reply_bytes=1_000_000).preprocess(
        nb, {"metadata": {"path": str(tmp_path)}})
    said = [[f"{o.ename}: {o.evalue}" for o in c.outputs if o.output_type == "error"]
            for c in nb.cells[1:]]
    assert "did not give it" in said[0][0]
    assert said[1][0].startswith("SystemExit: boom")       # a twin: not the real one
    assert "too large or odd for the grader" in said[2][0]
    assert said[3] == []


def test_a_module_the_kernel_names_is_imported_only_from_a_short_list():
    from puzzlekit.autograder.judge.judge import own_module
    imported: list[str] = []

    def importer(name, *rest):
        imported.append(name)
        return __import__(name, fromlist=["__name__"])
    assert own_module("math", importer) is not None
    assert own_module("test.autotest", importer) is None       # would run a test suite
    assert own_module("antigravity", importer) is None
    assert own_module("my_helpers", importer) is None          # a student's file
    assert imported == ["math"]
