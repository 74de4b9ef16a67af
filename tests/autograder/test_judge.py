"""The judge and its agent, in one process: verdicts built from plain data only.

`InProcess` plays the kernel: it hands each request to `puzzlekit.autograder.kernel.agent.answer` with a
namespace of its own (the "student's" globals), the way the agent answers inside a real
kernel. Since both sides share one process here, no "student" below patches a module
(that would patch the judge too); the real kernel, the wall, nbgrader and the whole
attack corpus are tested in tests/simulated_class.
"""

from __future__ import annotations

import random
import types
from typing import Any

import pytest
from agent_here import answer_here
from hypothesis import given
from hypothesis import strategies as st

import puzzlekit
from puzzlekit.autograder import wire
from puzzlekit.autograder.judge.judge import (
    Judge,
    KernelFault,
    Remote,
    RemoteFunction,
    bound_names,
)
from puzzlekit.autograder.kernel import agent
from puzzlekit.errors import PuzzleError
from puzzlekit.testcells.catalogue import NOTEBOOK_TIME


class InProcess:
    """A Channel whose 'kernel' is this process, with `space` as the student's globals."""

    def __init__(self, tmp_path, space: dict[str, Any]) -> None:
        self.tmp, self.space, self.n = tmp_path, space, 0

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.n += 1
        return answer_here(self.space, req)


def student(tmp_path, code: str, **budgets: Any) -> tuple[Judge, dict[str, Any]]:
    space: dict[str, Any] = {"__name__": "__main__"}
    exec(code, space)
    return Judge(InProcess(tmp_path, space), call_timeout=5, **budgets), space


GIVEN = """
from puzzlekit.testcells import assert_equal, assert_board_equal, forbid_reference, \\
    run_with_timeout
import puzzlekit
start = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
"""

TEST = """
with forbid_reference("findZero"):
    assert_equal(findZero(start), (0, 1), "findZero(start)")
"""


def outcome(judge: Judge, test: str = TEST) -> str | None:
    """None if the test passed, else its error's name and message."""
    judge.run_given(GIVEN, 1)
    outputs = judge.run_test(test, 2)
    errors = [o for o in outputs if o["output_type"] == "error"]
    return f"{errors[-1]['ename']}: {errors[-1]['evalue']}" if errors else None


HONEST = """
def findZero(S):
    for r, row in enumerate(S):
        for c, x in enumerate(row):
            if x == 0:
                return (r, c)
"""


def test_an_honest_answer_passes(tmp_path):
    judge, _ = student(tmp_path, HONEST)
    assert outcome(judge) is None


@pytest.mark.parametrize("code", [
    # rebinding the test helpers in the student's namespace
    HONEST.replace("(r, c)", "(9, 9)") + "\nassert_equal = lambda *a, **k: None\n",
    # an object that equals everything
    "class Yes:\n    __eq__ = lambda s, o: True\n    __hash__ = lambda s: 0\n"
    "def findZero(S):\n    return Yes()\n",
    # a tuple subclass with a rigged __eq__ comes over as its plain items
    "class T(tuple):\n    __eq__ = lambda s, o: True\n    __hash__ = lambda s: 0\n"
    "def findZero(S):\n    return T((9, 9))\n",
    # the reference, reached through a default argument, a partial and a lambda
    "import puzzlekit\ndef findZero(S, _r=puzzlekit.findZero):\n    return _r(S)\n",
    "import functools, puzzlekit\nfindZero = functools.partial(puzzlekit.findZero)\n",
    "import puzzlekit\nfindZero = (lambda f: lambda S: f(S))(puzzlekit.findZero)\n",
    # swallowing the forbidden call's error does not help
    "import puzzlekit\ndef findZero(S):\n    try:\n        puzzlekit.puzzle.lecture.findZero(S)\n"
    "    except AssertionError:\n        pass\n    return (0, 1)\n",
])
def test_a_trick_fails(tmp_path, code):
    judge, _ = student(tmp_path, code)
    assert outcome(judge) is not None


def test_a_forbidden_call_is_named(tmp_path):
    judge, _ = student(tmp_path, "import functools, puzzlekit\n"
                                 "findZero = functools.partial(puzzlekit.findZero)\n")
    assert "ready-made findZero" in outcome(judge)
    # and the reference works again afterwards, here and for the judge
    assert puzzlekit.findZero(((1, 0), (2, 3))) == (0, 1)


def test_a_stub_says_it_is_not_written_yet(tmp_path):
    judge, _ = student(tmp_path, "def findZero(S):\n    raise NotImplementedError()\n")
    assert outcome(judge) == ("NotImplementedError: `findZero` is not written yet: replace\n"
                              "`raise NotImplementedError()` in its cell with your code, "
                              "run that cell, then this one.")


def test_a_missing_function_is_a_name_error(tmp_path):
    judge, _ = student(tmp_path, "")
    assert outcome(judge).startswith("NameError")


def test_a_test_helper_is_never_taken_from_the_kernel(tmp_path):
    judge, _ = student(tmp_path, HONEST + "\nstart = ((1, 2), (3, 0))\n")
    assert outcome(judge) is None      # `start` is the given cell's, not the student's


def test_printed_text_and_mutated_arguments_come_back(tmp_path):
    judge, _ = student(tmp_path, "def f(xs):\n    print('hi')\n    xs.append(1)\n"
                                 "    return len(xs)\n")
    test = ("import io, contextlib\nxs = []\nbuf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n    n = f(xs)\n"
            "assert (n, xs, buf.getvalue()) == (1, [1], 'hi\\n'), (n, xs, buf.getvalue())\n")
    assert outcome(judge, test) is None


def test_the_random_state_travels_both_ways(tmp_path):
    judge, _ = student(tmp_path, "import random\ndef roll():\n    return random.random()\n")
    test = ("import random\nrandom.seed(1)\na = [roll(), roll()]\nrandom.seed(1)\n"
            "assert a == [random.random(), random.random()], a\n")
    assert outcome(judge, test) is None


def test_objects_stay_in_the_kernel_as_handles(tmp_path):
    code = ("class P:\n    def __init__(self, s):\n        self.squares = list(s)\n"
            "    def __eq__(self, o):\n        return isinstance(o, P) and "
            "self.squares == o.squares\n    def __hash__(self):\n"
            "        return hash(tuple(self.squares))\n    def moved(self):\n"
            "        return [P(self.squares[::-1]), None]\n")
    judge, _ = student(tmp_path, code)
    test = ("a, b = P('123'), P('123')\nassert a == b and not (a == P('321'))\n"
            "assert len({a, b}) == 1 and a.squares == ['1', '2', '3']\n"
            "m, n = a.moved()\nassert ''.join(m.squares) == '321' and n is None\n"
            "assert not (a == None) and a != ['1', '2', '3']\n")
    assert outcome(judge, test) is None


def test_a_handle_never_equals_the_judges_data(tmp_path):
    judge, _ = student(tmp_path, "class Yes:\n    __eq__ = lambda s, o: True\n"
                                 "    __hash__ = lambda s: 0\nyes = Yes()\n")
    judge.run_given("x = 1", 1)
    assert isinstance(judge.ns["yes"], Remote)
    assert judge.ns["yes"] != (0, 1) and not (judge.ns["yes"] == (0, 1))


def test_functions_are_sent_by_reference_or_by_code(tmp_path):
    judge, _ = student(tmp_path, "def apply(h, S, G):\n    return h(S, G)\n")
    test = ("S, G = ((1, 0), (2, 3)), ((0, 1), (2, 3))\n"
            "assert apply(puzzlekit.manhattan, S, G) == 1\n"
            "assert apply(lambda S, goal: 7, S, G) == 7\n")
    assert outcome(judge, test) is None


def test_a_failure_shows_the_test_line_and_the_boards(tmp_path):
    judge, _ = student(tmp_path, "def moveUp(S, r, c):\n    return ((1, 2), (3, 0))\n")
    judge.run_given(GIVEN, 1)
    outputs = judge.run_test("assert_board_equal(moveUp(((1, 0), (3, 2)), 0, 1),"
                             " ((1, 2), (3, 0))[::-1], what='moveUp')\n", 7)
    error = outputs[-1]
    assert error["ename"] == "AssertionError"
    assert any("In[7]" in chunk and "line 1" in chunk for chunk in error["traceback"])
    assert any(o["output_type"] == "display_data" for o in outputs)


class Faulty(InProcess):
    """A kernel whose calls of the student's code all end in `fault`."""

    def __init__(self, tmp_path, space, fault: str) -> None:
        super().__init__(tmp_path, space)
        self.fault = fault

    def request(self, req, timeout):
        if req["kind"] == "call":
            raise KernelFault(self.fault)
        return super().request(req, timeout)


def faulty_judge(tmp_path, fault: str) -> Judge:
    space: dict[str, Any] = {}
    exec(HONEST, space)
    return Judge(Faulty(tmp_path, space, fault), call_timeout=5, memory="2G")


def test_a_kernel_fault_fails_only_that_test(tmp_path):
    said = outcome(faulty_judge(tmp_path, "died"))
    # what the channel saw of its end is all it says (this one saw nothing)
    assert "kernel stopped while running findZero.\n" in said and "os._exit" not in said


def test_a_timeout_inside_run_with_timeout_gives_its_message(tmp_path):
    test = "run_with_timeout(2, findZero, start)\n"
    assert "did not finish within 2 seconds" in outcome(faulty_judge(tmp_path, "timeout"), test)


def test_bound_names():
    assert bound_names("import os\nfrom x import y as z\ndef f(): global g; g = 1\n"
                       "for i in range(3): pass\nclass C: pass\nw = v = 1\n") == \
        {"os", "z", "f", "g", "i", "C", "w", "v"}


def test_remote_function_repr(tmp_path):
    assert "search" in repr(RemoteFunction(Judge(InProcess(tmp_path, {})), "search"))


# ---------------------------------------------------------------------------
# the wire

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.frozensets(st.integers() | st.text(), max_size=4)
                   | st.dictionaries(st.integers() | st.text(), inner, max_size=4)),
    max_leaves=20)


@given(plain)
def test_plain_data_round_trips(value):
    assert wire.loads(wire.dumps(value)) == value
    assert type(wire.loads(wire.dumps(value))) is type(value)


@pytest.mark.parametrize("text", [
    '{"$t": [1]}', '{"a": 1}', '[]', '[1, 2]', '["q", 1]', '["d", 1]', '["s", ["l", 1]]',
    '["x", {"$h": 1}]', '["x", {"$py": "os:system"}]', '["x", [1]]', '["n", "1e999"]',
    '["b", "***"]', '["t", ' * 5000 + '1' + ']' * 5000, "not json",
])
def test_the_wire_refuses_what_is_not_plain_data(text):
    with pytest.raises(wire.WireError):
        wire.loads(text)


def test_subclasses_and_numpy_scalars_cross_as_their_plain_values():
    import numpy as np

    class Rigged(int):
        def __eq__(self, other):
            return True
        __hash__ = int.__hash__

    assert wire.loads(wire.dumps([np.int64(3), np.float64(0.5)])) == [3, 0.5]
    back = wire.loads(wire.dumps((Rigged(3),), other=lambda x: {"$h": 1}),
                      handle=lambda tagged: "handle")
    assert type(back[0]) is int and back[0] == 3 and back[0] != 4


def test_non_finite_floats_cross():
    assert wire.loads(wire.dumps([float("inf"), float("-inf")])) == [float("inf"), -float("inf")]


def test_random_state_crosses():
    state = random.getstate()
    assert wire.decode(wire.encode(state)) == state


def test_the_agent_sends_functions_back_as_handles(tmp_path):
    judge, _ = student(tmp_path, "def f():\n    return types\nimport types\n")
    judge.run_given("x = 1", 1)
    assert isinstance(judge.ns["f"](), Remote)
    # a module of the standard library the student imported: the judge's own import
    assert judge.ns["types"] is types


class _Clock(InProcess):
    """Records the time left for each call into the 'kernel'."""

    def __init__(self, tmp_path, space):
        super().__init__(tmp_path, space)
        self.timeouts: list[float] = []

    def request(self, req, timeout):
        self.timeouts.append(timeout)
        return super().request(req, timeout)


@pytest.mark.parametrize("scale", [1.0, 2.5])
def test_time_scale_multiplies_the_seconds_a_test_gives(tmp_path, scale):
    space: dict[str, Any] = {"__name__": "__main__"}
    exec("def findZero(S):\n    return (0, 0)\n", space)
    channel = _Clock(tmp_path, space)
    judge = Judge(channel, call_timeout=30, time_scale=scale)
    judge.within(4, "too slow", RemoteFunction(judge, "findZero"), ((0, 1), (2, 3)))
    assert channel.timeouts and 4 * scale - 1 < max(channel.timeouts) <= 4 * scale


@pytest.mark.parametrize("scale", [0, -1.0, float("nan")])
def test_a_time_scale_that_is_not_positive_is_refused(tmp_path, scale):
    with pytest.raises(PuzzleError, match="time_scale"):
        Judge(InProcess(tmp_path, {}), time_scale=scale)


# ---------------------------------------------------------------------------
# The second ring: nothing the kernel returns sets the grader's state or costs it more
# than a budget

class Lying:
    """A Channel whose 'kernel' answers every call with `value` (already on the wire), as a
    student's code that patched the agent could: the judge decodes it."""

    def __init__(self, value: Any, **extra: Any) -> None:
        self.value, self.extra = value, extra

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        if req["kind"] == "names":
            return {"ok": True, "names": {n: {"kind": "callable"} for n in req["names"]}}
        if req["kind"] == "set":       # a reply of another kind's shape is refused whole
            return {"ok": True, "has": [], "set": []}
        return {"ok": True, "value": self.value, **self.extra}


def failure(judge: Judge, test: str) -> str | None:
    outputs = judge.run_test(test, 1)
    errors = [o for o in outputs if o["output_type"] == "error"]
    return errors[-1]["evalue"] if errors else None


COLLIDING = ["s"] + [k * (2 ** 61 - 1) for k in range(1, 20_001)]


def test_keys_built_to_collide_are_refused_before_a_set_is_built():
    assert len({hash(k) for k in COLLIDING[1:]}) == 1
    with pytest.raises(wire.TooBig, match="same hash"):
        wire.decode(COLLIDING)
    with pytest.raises(wire.TooBig, match="same hash"):
        wire.decode(["d"] + [x for k in COLLIDING[1:] for x in (k, 0)])
    # honest sets of boards and dicts keyed by boards pass
    boards = {puzzlekit.random_state(3, seed=i) for i in range(2000)}
    assert wire.decode(wire.encode(boards)) == boards
    table = {b: i for i, b in enumerate(boards)}
    assert wire.decode(wire.encode(table)) == table


def test_a_reply_built_to_collide_fails_its_test_with_a_clear_message():
    judge = Judge(Lying(COLLIDING), judge_timeout=5)
    message = failure(judge, "assert nextStates(((0, 1), (2, 3))) == set()")
    assert message.startswith("your code returned a value too large or odd for the grader")
    assert "same hash" in message


@pytest.mark.parametrize("value, words", [
    (["l"] + ["x" * 10] * 50, "more than 40 items"),
    ("x" * 101, "a string of 101 characters"),
    (["b", "eHh4" * 40], "bytes longer than 100"),
    (2 ** 200, "an int of 201 bits"),
])
def test_the_wire_bounds_items_strings_bytes_and_ints(monkeypatch, value, words):
    monkeypatch.setattr(wire, "MAX_ITEMS", 40)
    monkeypatch.setattr(wire, "MAX_STR", 100)
    monkeypatch.setattr(wire, "MAX_BYTES", 100)
    monkeypatch.setattr(wire, "MAX_INT_BITS", 200)
    with pytest.raises(wire.TooBig, match=words):
        wire.decode(value)


def test_a_dfs_path_of_tens_of_thousands_of_boards_still_crosses():
    _, moves = puzzlekit.random_walk(puzzlekit.goal_state(3), 60_000, seed=1)
    path = puzzlekit.moves_to_path(puzzlekit.goal_state(3), moves)
    assert wire.loads(wire.dumps(path)) == path


def test_a_reply_over_the_executors_cap_is_named(tmp_path):
    judge = Judge(Lying(None, too_big=True, ok=False,
                        fault="40 MB of data; the grader takes at most 32 MB from one call"))
    message = failure(judge, "f()")
    assert message.startswith("your code returned a value too large or odd for the grader")
    assert "40 MB" in message


def test_the_tests_have_a_random_of_their_own(tmp_path):
    judge, _ = student(tmp_path, "import random\ndef roll():\n    return random.random()\n")
    before = random.getstate()
    assert outcome(judge, "import random\nrandom.seed(5)\nx = random.random()\n"
                          "random.shuffle([1, 2, 3])\nfrom random import randint\n"
                          "randint(0, 3)\n") is None
    assert random.getstate() == before          # Python's global generator: untouched
    assert judge.ns["random"] is judge.random and judge.random is not random
    assert judge.random.Random is random.Random  # the same classes (isinstance works)
    # shuffle_pos from puzzlekit, called by a test, draws from the test's random
    assert outcome(judge, "import random, puzzlekit\nrandom.seed(1)\n"
                          "a = puzzlekit.shuffle_pos(20)\nrandom.seed(1)\n"
                          "assert a == puzzlekit.shuffle_pos(20)\n") is None
    assert random.getstate() == before


ALL_ZERO = (3, (0,) * 624 + (624,), None)


@pytest.mark.parametrize("state, why", [
    (ALL_ZERO, "the all-zero state"),
    ((3, (1,) * 624 + (625,), None), "an index above 624"),
    ((3, (2 ** 32,) * 624 + (624,), None), "numbers outside"),
    ((2, (1,) * 625, None), "not version 3"),
    ((3, (1,) * 10, None), "not 625 numbers"),
    ([1, 2], "not a tuple of three"),
    ((3, (1,) * 624 + (624,), "0.5"), "a next gauss that is not a float"),
])
def test_a_random_state_from_the_kernel_is_checked_before_it_is_used(tmp_path, state, why):
    judge = Judge(Lying(None, random=wire.encode(state)), judge_timeout=5)
    before = random.getstate()
    message = failure(judge, "import random\nrandom.seed(1)\nf()\n")
    assert message.startswith("your code left Python's `random` in a state the grader "
                              "cannot use") and why in message
    assert random.getstate() == before


def test_a_crafted_state_cannot_make_the_shuffle_diagnosis_loop(tmp_path):
    # the student's shuffle_pos leaves the all-zero state, whose generator draws 0 for
    # ever: a replay with it (diagnose_shuffle) would never end; it is refused instead
    code = ("import random\ndef shuffle_pos(n):\n    random.setstate(" + repr(ALL_ZERO)
            + ")\n    return [1]\n")
    judge, space = student(tmp_path, code)
    test = ("import random\nfrom puzzlekit.testcells.diagnose import diagnose_shuffle\n"
            "random.seed(1)\nbefore = random.getstate()\np = shuffle_pos(3)\n"
            "diagnose_shuffle(3, p, before, random.getstate())\n")
    state = random.getstate()
    try:
        assert "all-zero state" in failure(judge, test)
    finally:
        random.setstate(state)      # the in-process 'kernel' shares this process
    from puzzlekit.testcells.diagnose import diagnose_shuffle, random_state_problem
    assert diagnose_shuffle(3, [1], ALL_ZERO, None) is None      # refused, at once
    assert random_state_problem(random.Random(7).getstate()) is None


@given(st.integers(min_value=0))
def test_every_state_of_a_seeded_generator_is_sound(seed):
    from puzzlekit.testcells.diagnose import random_state_problem
    rng = random.Random(seed)
    rng.random()
    assert random_state_problem(rng.getstate()) is None


def test_the_judges_own_work_has_a_time_limit(tmp_path):
    judge, _ = student(tmp_path, HONEST, judge_timeout=0.3)
    message = failure(judge, "x = 0\nwhile True:\n    x += 1\n")
    assert message.startswith("the grader's checks of what your code returned took longer "
                              "than 0.3 s")
    # and the judge goes on with the next cell
    assert outcome(judge) is None


def test_waiting_for_the_kernel_does_not_count_against_the_judge(tmp_path):
    judge, _ = student(tmp_path, "import time\ndef slow():\n    time.sleep(0.4)\n"
                                 "    return 1\n", judge_timeout=0.25)
    assert failure(judge, "assert slow() + slow() == 2\n") is None


def test_the_time_limit_holds_in_any_thread(tmp_path):
    """The formgrader grades in the Jupyter server's thread, not the main one."""
    import threading
    judge, _ = student(tmp_path, HONEST, judge_timeout=0.3)
    box: list[Any] = []
    worker = threading.Thread(target=lambda: box.append(failure(judge, "while True:\n"
                                                                       "    pass\n")))
    worker.start()
    worker.join(20)
    assert not worker.is_alive() and "took longer than 0.3 s" in box[0]


def test_a_notebook_whose_time_is_up_stops_its_tests(tmp_path):
    judge, _ = student(tmp_path, HONEST)
    judge.run_given(GIVEN, 1)       # while there was time (a busy machine may need it)
    judge.notebook_left, judge.notebook_seconds = (lambda: -1.0), 90
    errors = [o for o in judge.run_test(TEST, 2) if o["output_type"] == "error"]
    assert NOTEBOOK_TIME.format(seconds=90) in errors[-1]["evalue"]


def test_a_search_that_rewrites_its_cost_table_prices_nothing(tmp_path):
    """The test's own table prices the path: ucs gets a copy (dict(COSTS)); the copy
    shows what the call did to it, as in plain nbgrader."""
    code = ("def ucs(start, goal, cost):\n    cost.update(U=1, D=1, L=1, R=1)\n"
            "    return [start], 0\n")
    judge, _ = student(tmp_path, code)
    judge.run_given('COSTS = {"U": 1, "D": 2, "L": 3, "R": 4}', 1)
    test = ("given = dict(COSTS)\npath, total = ucs(1, 2, given)\n"
            "assert given == {'U': 1, 'D': 1, 'L': 1, 'R': 1}\n"
            "assert COSTS == {'U': 1, 'D': 2, 'L': 3, 'R': 4}, COSTS\n")
    assert failure(judge, test) is None


def test_judge_timeout_must_be_positive(tmp_path):
    with pytest.raises(PuzzleError, match="judge_timeout"):
        Judge(InProcess(tmp_path, {}), judge_timeout=0)


def test_a_deep_recursion_is_reported_from_its_ends_only():
    """A recursion thousands deep is formatted from its first and last frames: IPython
    took 9.5 s for 3,000 frames, longer than the call's time, so the student read "did
    not finish" instead of the recursion's own message (the simulated student
    dfs_recursive, found when the grader began to record the mistakes it names)."""
    import sys

    def deeper(n: int) -> int:
        return deeper(n + 1)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(3000)
    try:
        deeper(0)
    except RecursionError as e:
        error = e
    finally:
        sys.setrecursionlimit(old)
    depth = 0
    tb = error.__traceback__
    while tb is not None:
        depth, tb = depth + 1, tb.tb_next
    assert depth > 2000
    ends = agent._ends(error.__traceback__)
    kept = []
    while ends is not None:
        kept.append(ends.tb_frame.f_code.co_name)
        ends = ends.tb_next
    assert len(kept) == agent.FIRST_FRAMES + agent.LAST_FRAMES
    assert kept[0] == "test_a_deep_recursion_is_reported_from_its_ends_only"
    report = agent._report(error)
    assert report["ename"] == "RecursionError"
    assert "deeper" in "".join(report["traceback"])


def test_the_judges_time_counts_its_own_computing_not_a_busy_machine(tmp_path, monkeypatch):
    """The judge's limit counts the CPU time of the thread that grades: a test cell that
    waits (the machine gives the grader no core) keeps its verdict; the clock is only a
    backstop, 5 times as long."""
    judge, _ = student(tmp_path, HONEST, judge_timeout=0.3)
    assert failure(judge, "import time\ntime.sleep(0.8)\nassert 1 + 1 == 2\n") is None
    from puzzlekit.testcells import budget
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)      # the backstop: 1.5 s
    message = failure(judge, "import time\nfor _ in range(40):\n    time.sleep(0.1)\n")
    assert "took longer than 0.3 s" in message
