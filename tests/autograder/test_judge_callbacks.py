"""The test's own functions and objects, passed to the student's code, behave as under
plain nbgrader: they run in the grader, where the test's names live, each time the
student's code uses them (the kernel asks over its stdin channel), and the student's
code still cannot change a verdict."""

import re

import pytest

pytest.importorskip("nbgrader")

from walled_notebooks import errors, notebook, run, text  # noqa: E402,F401

pytestmark = pytest.mark.nbgrader

STUDENT = '''
def search(start, successors, is_goal):
    """Depth-first search for any goal from `start` (the student's code)."""
    seen, stack = {start}, [(start, [start])]
    while stack:
        node, path = stack.pop()
        if is_goal(node):
            return path
        for nxt in successors(node):
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None

def apply_all(funcs, x):
    return [f(x) for f in funcs]

def use(counter, n):
    for _ in range(n):
        counter.tick()
    return counter.total()

def careful(f):
    try:
        return f(0)
    except ValueError as e:
        return "caught: " + str(e)
'''


def run_tests(run, *tests, student=STUDENT):
    cells = run(notebook(student, *tests, tests=tuple(range(1, len(tests) + 1))))
    return [errors(c) for c in cells[1:]], [text(c) for c in cells[1:]]


def test_a_closure_that_records_calls_sees_every_call(run):
    failed, _ = run_tests(run, '''
calls = []
def successors(n):
    calls.append(n)
    return [m for m in (n + 1, n * 2) if m <= 20]
path = search(1, successors, lambda n: n == 20)
assert path[0] == 1 and path[-1] == 20, path
assert len(calls) >= 3 and calls[0] == 1, calls
''')
    assert failed == [[]]


def test_a_lambda_a_partial_and_a_bound_method_of_the_test(run):
    failed, _ = run_tests(run, '''
import functools
goal = 12
class Moves:
    def __init__(self, step):
        self.step = step
        self.asked = 0
    def next(self, n):
        self.asked += 1
        return [n + self.step]
m = Moves(3)
assert search(0, m.next, lambda n: n == goal) == [0, 3, 6, 9, 12]
assert m.asked == 4
def at_least(limit, n):
    return n >= limit
assert search(0, m.next, functools.partial(at_least, 7))[-1] == 9
assert apply_all([abs, str, lambda x: x * goal], -2) == [2, "-2", -24]
''')
    assert failed == [[]]


def test_an_object_whose_methods_the_student_calls(run):
    failed, _ = run_tests(run, '''
class Counter:
    def __init__(self):
        self.n = 0
    def tick(self):
        self.n += 1
    def total(self):
        return self.n
c = Counter()
assert use(c, 5) == 5 and c.n == 5
''')
    assert failed == [[]]


def test_the_tests_function_may_call_the_students_and_raise_into_it(run):
    failed, _ = run_tests(run, '''
def strict(x):
    raise ValueError("no zero here")
assert careful(strict) == "caught: no zero here"
def through(x):
    # the test's function calls the student's function (a call inside a call)
    return apply_all([lambda y: y + 1], x)[0]
assert careful(through) == 1
''', '''
def wrong(x):
    assert x == 1, "the test's own check failed"
careful(wrong)
''')
    assert failed[0] == []
    (name, value), = failed[1]
    assert name == "AssertionError" and "the test's own check failed" in value


def test_a_stand_in_kept_for_later_refuses_politely(run):
    failed, _ = run_tests(run, '''
kept = apply_all([lambda x: (lambda y: x + y)], 1)[0]
assert kept(2) == 3
''', student=STUDENT + '''
def keep(f):
    global KEPT
    KEPT = f
    return 1
''')
    assert failed == [[]]
    cells = run(notebook(STUDENT + '''
def keep(f):
    global KEPT
    KEPT = f
    return 1
''', "log = []\nassert keep(log.append) == 1", "KEPT(1)", tests=(1,)))
    assert errors(cells[1]) == []
    (name, value), = errors(cells[2])
    assert name == "RuntimeError" and "only while the test runs" in value


def test_a_pure_helper_runs_in_the_kernel_and_one_using_test_state_in_the_grader(run):
    failed, _ = run_tests(run, '''
from puzzlekit.testcells.session import current_judge
import math
GOAL = 99
def h(n):                  # needs only a constant, a module and builtins: sent as code
    return abs(GOAL - n) + math.floor(0.5)
seen = []
def h_logged(n):           # appends to a list of the test: runs here
    seen.append(n)
    return abs(GOAL - n)
assert apply_all([h], 9) == [90]
assert apply_all([h_logged], 9) == [90] and seen == [9]
assert len(current_judge()._objects) == 1     # only h_logged has a stand-in
''')
    assert failed == [[]]


def test_the_student_cannot_name_a_judge_object_it_was_not_given(run):
    cells = run(notebook('''
import json
from puzzlekit.autograder.kernel import agent
def forge(f):
    # a reply naming stand-in 1 while the test gave none: the grader refuses to read it
    return agent._Callback(1, "forged")
''', '''
try:
    forge(1)
except AssertionError as e:
    assert "cannot read" in str(e) or "cannot" in str(e), e
else:
    raise AssertionError("a forged stand-in was accepted")
''', tests=(1,)))
    assert errors(cells[1]) == []


def test_a_student_who_forges_questions_reaches_nothing_of_the_grader(run):
    cells = run(notebook('''
from puzzlekit.autograder.kernel import agent
def probe(f):
    """Ask the grader, through the stand-in's own channel, for what it must not give."""
    said = []
    number = object.__getattribute__(f, "_j")
    for question in ({"j": number, "op": "getattr", "arg": "__globals__"},
                     {"j": number, "op": "getattr", "arg": "_objects"},
                     {"j": number + 1000, "op": "call", "args": [], "kwargs": {}},
                     {"j": number, "op": "exec", "arg": "import os"}):
        try:
            said.append(repr(agent._ask(question)))
        except Exception as e:
            said.append(type(e).__name__ + ": " + str(e))
    return said
''', '''
class Holder:
    secret = "only the test knows"
    def peek(self):
        return 1
said = probe(Holder())
print("\\n".join(said))
assert all("only the test knows" not in s for s in said)
assert said[0].startswith("AttributeError") and said[1].startswith("AttributeError")
assert "could not read" in said[2] and "unknown operation" in said[3]
''', tests=(1,)))
    assert errors(cells[1]) == [], text(cells[1])


def test_a_student_who_calls_the_tests_function_forever_is_stopped_with_words_that_say_so(run):
    cells = run(notebook("""
def forever(f):
    while True:
        f(1)
""", """
import time
calls = []
def slow(board):            # a costly check of the test's (it stays here: `calls`)
    calls.append(board)
    time.sleep(0.05)
forever(slow)
""", "assert 1 + 1 == 2", tests=(1, 2)), judge_timeout=1, timeout=600)
    (name, value), = errors(cells[1])
    assert "used the test's function slow for longer than the grader" in " ".join(
        value.split()), value
    calls = re.search(r"it called it ([\d,]+) times", " ".join(value.split()))
    assert calls and int(calls.group(1).replace(",", "")) > 1, value   # what was seen
    assert errors(cells[2]) == []      # the kernel answers the next test
