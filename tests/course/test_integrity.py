"""The integrity report (`puzzlekit.course.integrity`): tricks are named, honest answers are not.

Submissions are built from the real source notebooks: solution cells get new bodies, cells
are added after a given cell, or a locked cell is edited. Nothing is executed.
"""

from __future__ import annotations

import copy
import csv
import functools
import importlib.util
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from puzzlekit.cli import main
from puzzlekit.course.integrity import KINDS, Finding, report, scan_notebook, write_csv

REPO = Path(__file__).parents[2]
SOURCE = REPO / "notebooks" / "source"
STUDENTS = REPO / "tests" / "simulated_class"
A1, A2, A3, A4 = ("01-states-and-moves", "02-uninformed-search", "03-informed-search",
                  "04-fifteen-puzzle")
ASSIGNMENTS = (A1, A2, A3, A4)


@functools.cache
def _source(assignment: str) -> Any:
    return nbformat.read(SOURCE / assignment / f"{assignment}.ipynb", as_version=4)


def source(assignment: str) -> Any:
    return copy.deepcopy(_source(assignment))


def gid(cell: Any) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def solution_of(assignment: str, grade_id: str) -> str:
    return next(c.source for c in _source(assignment).cells if gid(c) == grade_id)


def submission(assignment: str, change: dict[str, str] | None = None, *,
               release: bool = False) -> Any:
    """The source notebook with `change` applied: grade id -> new source of that cell,
    '+grade id' -> a new cell after it. With `release`, the other solutions are stubs and
    the hidden tests are gone, as in what nbgrader hands out."""
    nb = source(assignment)
    if release:
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and meta.get("solution"):
                cell.source = stub(cell.source)
            elif cell.cell_type == "code" and meta.get("grade"):
                cell.source = strip_hidden(cell.source)
    for where, code in (change or {}).items():
        if where.startswith("+"):
            at = next(i for i, c in enumerate(nb.cells) if gid(c) == where[1:])
            nb.cells.insert(at + 1, nbformat.v4.new_code_cell(code))
        else:
            cell = next(c for c in nb.cells if gid(c) == where)
            cell.source = code
    return nb


def stub(text: str) -> str:
    out, inside = [], False
    for line in text.splitlines():
        if line.strip() == "### BEGIN SOLUTION":
            inside = True
            indent = line[:len(line) - len(line.lstrip())]
            out += [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]
        elif line.strip() == "### END SOLUTION":
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def strip_hidden(text: str) -> str:
    out, inside = [], False
    for line in text.splitlines():
        if "BEGIN HIDDEN TESTS" in line:
            inside = True
        elif "END HIDDEN TESTS" in line:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def scan(assignment: str, change: dict[str, str] | None = None, **kw: Any) -> list[Finding]:
    return scan_notebook(submission(assignment, change, **kw), _source(assignment),
                         student="s", assignment=assignment, notebook=assignment)


def kinds(findings: list[Finding]) -> set[str]:
    return {f.kind for f in findings}


def plus(assignment: str, grade_id: str, extra: str) -> dict[str, str]:
    """The instructor's solution of `grade_id` followed by `extra`."""
    return {grade_id: solution_of(assignment, grade_id) + "\n" + extra}


# ---------------------------------------------------------------------------
# Honest answers: named by nothing

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_instructors_solutions_are_honest(assignment: str) -> None:
    assert scan(assignment) == []


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_an_untouched_release_is_honest(assignment: str) -> None:
    assert scan(assignment, release=True) == []


def _simulated_students() -> list[Any]:
    cases = []
    for path in sorted(STUDENTS.glob("students_0*.py")):
        spec = importlib.util.spec_from_file_location(f"integrity_{path.stem}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assignment = next(a for a in ASSIGNMENTS if a[:2] == path.stem[-2:])
        for name, replacements in module.STUDENTS.items():
            cases.append(pytest.param(assignment, name, replacements, id=name))
    return cases


@pytest.mark.parametrize("assignment, name, replacements", _simulated_students())
def test_the_simulated_students_make_mistakes_not_tricks(
        assignment: str, name: str, replacements: dict[str, str]) -> None:
    findings = scan(assignment, replacements)
    if name.endswith("_from_puzzlekit"):      # copies puzzlekit's reference: a trick
        assert kinds(findings) == {"reference-call"}, findings
    elif name.startswith(("trick", "wall", "hostile", "cheat")):
        assert findings, name
    else:
        assert findings == []


LECTURE_NOTEBOOK = {  # the lecture notebook's own answers, in assignment 1's cells
    "goal_solution": "goal = ((0, 1, 2),\n         (3, 4, 5),\n         (6, 7, 8)\n        )\n",
    "findZero_solution": '''
def findZero(State):
    for i in range(len(State)):
        for j in range(len(State[i])):
            if State[i][j] == 0:
                return (i, j)
''',
    "moveUp_solution": '''
def moveUp(S, r, c):
    SasList = listOfLists(S)
    'Move the tile below the blank up.'
    "your code here"
    SasList[r][c] = S[r+1][c]
    SasList[r+1][c] = 0
    return tupleOfTuples(SasList)
''',
    "moveDown_solution": '''
def moveDown(S, r, c):
    SasList = listOfLists(S)
    SasList[r][c] = S[r-1][c]
    SasList[r-1][c] = 0
    return tupleOfTuples(SasList)
''',
    "moveRight_solution": '''
def moveRight(S, r, c):
    SasList = listOfLists(S)
    SasList[r][c] = S[r][c-1]
    SasList[r][c-1] = 0
    return tupleOfTuples(SasList)
''',
    "moveLeft_solution": '''
def moveLeft(S, r, c):
    'Move the tile right of the blank to the left.'
    "your code here"
    SasList = listOfLists(S)
    SasList[r][c] = S[r][c+1]
    SasList[r][c+1] = 0
    return tupleOfTuples(SasList)
''',
    "nextStates_solution": '''
def listOfLists(S):
    'Transform a tuple of tuples into a list of lists.'
    return [ [x for x in row] for row in S ]

def nextStates(State):
    'Compute the set of states reachable in one step from the state S.'
    zero = findZero(State)
    possibleStates = set()
    if zero[0] != 2:
        possibleStates.add(moveUp(State, zero[0], zero[1]))
    if zero[0] != 0:
        possibleStates.add(moveDown(State, zero[0], zero[1]))
    if zero[1] != 0:
        possibleStates.add(moveRight(State, zero[0], zero[1]))
    if zero[1] != 2:
        possibleStates.add(moveLeft(State, zero[0], zero[1]))
    #return { x for x in possibleStates if x != State }
    return possibleStates
''',
    # the graded 15-puzzle notebook's print_pos, and the EightPuzzle of the lecture slides on
    # an 8-puzzle solver (with its helper moves and deepcopy)
    "print_pos_solution": '''
def print_pos(p):
    """
    The function receives an array of length 16 containing the numbers and the space
    and prints it in the format of puzzle square.
    """
    print(''.join(['{:3}'.format(p[i]) if (i+1)%4 != 0 else '{:3}\\n'.format(p[i])
                   for i in range(16)]))
''',
    "EightPuzzle_solution": '''
import copy

class EightPuzzle:
    def __init__(self, squares):
        self.squares = [str(i) for i in squares]
        idx = -1
        for i in range(len(self.squares)):
            if self.squares[i] == '_':
                idx = i;
        self.idx = idx

    def __eq__(self, obj):
        if obj is None:
            return False
        # optional test for type:
        """
        if type(obj) != EightPuzzle:
            return False
        """
        return tuple(self.squares) == tuple(obj.squares)

    def __hash__(self):
        return hash(tuple(self.squares))

    def get_successors(self):
        successors = []
        if self.idx % 3 > 0:
            successors.append(self.move_left())
        else:
            successors.append(None)
        if self.idx % 3 < 2:
            successors.append(self.move_right())
        else:
            successors.append(None)
        if self.idx // 3 > 0:
            successors.append(self.move_up())
        else:
            successors.append(None)
        if self.idx // 3 < 2:
            successors.append(self.move_down())
        else:
            successors.append(None)
        return successors

    def move_left(self):
        new_squares = copy.deepcopy(self.squares)
        new_squares[self.idx] = self.squares[self.idx-1]
        new_squares[self.idx-1] = self.squares[self.idx]
        return EightPuzzle(new_squares)

    def move_right(self):
        new_squares = copy.deepcopy(self.squares)
        new_squares[self.idx] = self.squares[self.idx+1]
        new_squares[self.idx+1] = self.squares[self.idx]
        return EightPuzzle(new_squares)

    def move_up(self):
        new_squares = copy.deepcopy(self.squares)
        new_squares[self.idx] = self.squares[self.idx-3]
        new_squares[self.idx-3] = self.squares[self.idx]
        return EightPuzzle(new_squares)

    def move_down(self):
        new_squares = copy.deepcopy(self.squares)
        new_squares[self.idx] = self.squares[self.idx+3]
        new_squares[self.idx+3] = self.squares[self.idx]
        return EightPuzzle(new_squares)
''',
}

FIFTEEN_PUZZLE_NOTEBOOK = {  # the graded 15-puzzle notebook's own answers, in assignment 2's cells
    "shuffle_pos_solution": '''
import random

allowed_moves = {i:set() for i in range(16)}
for i in range(16):
    if i > 3:
        allowed_moves[i].add(2)
    if i < 12:
        allowed_moves[i].add(0)
    if i % 4 != 0:
        allowed_moves[i].add(3)
    if (i + 1) % 4 != 0:
        allowed_moves[i].add(1)

shift = {0:4, 1:1, 2:-4, 3:-1}    # how to find the new index of the gap


def shuffle_pos(N):
    """
    The function scrambles the target position A randomly by N times.
    """
    A = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ' ']

    last_move = -1
    for i in range(N):
        gap = A.index(' ')
        move = random.randint(0, 3)
        while move not in allowed_moves[gap] or abs(move - last_move)  == 2:
            move = random.randint(0, 3)

        index_of_new_gap = gap + shift[move]
        A[gap], A[index_of_new_gap] = A[index_of_new_gap], A[gap]

        last_move = move

    return A
''',
    "solve_pos_solution": '''
from collections import deque     # You may need to use queue data structure.
from copy import deepcopy         # You may need to use deep copy.


def solve_pos(p, maxmove):
    """
    The function looks for solutions with maximum 'maxmove' moves.
    """
    queue = deque()
    parents = {str(p): None}
    marked = {str(p): 0}    # depth/number of moves needed to reach a particular state
    queue.append(p)

    while marked[str(queue[0])] <= maxmove:

        u = queue.popleft()

        if u == A:
            states = [u]
            while u != p:
                states.append(parents[str(u)])
                u = parents[str(u)]
            for state in states[::-1]:
                #print(state)     # for list output
                print_pos(state)
            break

        for v in neighbors(u):
            if str(v) not in marked:
                marked[str(v)] = marked[str(u)] + 1
                parents[str(v)] = u
                queue.append(v)

    if str(A) not in marked:
        print_pos(p)
        print("unsolved")
        return None
    else:
        move = marked[str(A)]
        return move

def neighbors(p):
    gap = p.index(' ')
    for move in allowed_moves[gap]:
        x = deepcopy(p)
        index_of_new_gap = gap + shift[move]
        x[gap], x[index_of_new_gap] = x[index_of_new_gap], x[gap]
        yield x
''',
}

SOLVER_SLIDES_A3 = {  # the 8-puzzle solver slides' inversion count as assignment 3's answer
    "inversions_solution": '''
def num_inversions(squares):
    total = 0
    for i in range(len(squares)):
        if squares[i] == '_':
            continue
        si = int(squares[i])
        for j in range(i, len(squares)):
            if squares[j] == '_':
                continue
            sj = int(squares[j])
            if si > sj:
                total += 1
    return total


def get_parity(squares):
    return num_inversions(squares) % 2


def same_parity(initial, goal):
    if get_parity(initial) != get_parity(goal):
        return False
    return True
''',
}


@pytest.mark.parametrize("assignment, answers", [
    pytest.param(A1, LECTURE_NOTEBOOK, id="lecture-notebook"),
    pytest.param(A2, FIFTEEN_PUZZLE_NOTEBOOK, id="15-puzzle-notebook"),
    pytest.param(A3, SOLVER_SLIDES_A3, id="solver-slides-parity"),
])
def test_the_course_documents_answers_are_honest(assignment: str, answers: dict) -> None:
    assert scan(assignment, answers) == []
    assert scan(assignment, answers, release=True) == []


HONEST = [
    # ordinary Python: helpers, recursion, the standard library
    pytest.param(A2, {"dfs_solution": '''
import sys
import itertools
import functools
from collections import deque, defaultdict, Counter

sys.setrecursionlimit(100_000)

def _walk(S, goal, seen, path):
    if S == goal:
        return list(path)
    for T in sorted(nextStates(S)):
        if T not in seen:
            seen.add(T)
            path.append(T)
            found = _walk(T, goal, seen, path)
            if found is not None:
                return found
            path.pop()
    return None

@functools.lru_cache(maxsize=None)
def width(S):
    return len(S[0])

def dfs(start, goal):
    counts = Counter(itertools.chain.from_iterable(start))
    assert max(counts.values()) == 1 and width(start) > 0
    return _walk(start, goal, {start}, [start])
'''}, id="recursion-lru_cache-itertools-collections"),
    pytest.param(A3, {"astar_solution": '''
import heapq, math, random
from dataclasses import dataclass, field

@dataclass(order=True)
class Node:
    f: float
    tie: float = field(default_factory=random.random)
    S: tuple = field(compare=False, default=())

class Entry:
    """A frontier entry that heapq can order (ties never compared by state)."""
    def __init__(self, f, S):
        self.f, self.S = f, S
    def __lt__(self, other):
        return False
    def __eq__(self, other):
        return self.__dict__ == other.__dict__
    def __hash__(self):
        return hash((self.f, self.S))

def astar(start, goal, h):
    parent, g = {start: None}, {start: 0}
    frontier = [Node(h(start, goal), S=start)]
    while frontier:
        S = heapq.heappop(frontier).S
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for T in nextStates(S):
            if T not in g or g[S] + 1 < g[T]:
                g[T], parent[T] = g[S] + 1, S
                heapq.heappush(frontier, Node(g[T] + h(T, goal) + 0 * math.inf, S=T))
    return None
'''}, id="heapq-dataclass-real-eq-hash-lt-false"),
    # answers using what the assignment hands out, even through puzzlekit's name
    pytest.param(A2, {"search_solution": '''
from puzzlekit import nextStates, goal_state
from puzzlekit.testcells import assert_equal
import puzzlekit

def search(nextStates, start, goal):
    parent, layer, k = {start: None}, [start], 0
    while goal not in parent and layer:
        new = [T for S in layer for T in nextStates(S) if T not in parent
               and parent.setdefault(T, S) is S]
        layer = new
        if new:
            k += 1
            print(f"Iteration {k}: {len(new)} new states found.")
    if goal not in parent:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    assert puzzlekit.nextStates(start)
    return path[::-1]
'''}, id="handed-out-nextStates-reimported"),
    pytest.param(A4, {"linear_conflict_solution": solution_of(
        A4, "linear_conflict_solution").replace("manhattan(S, goal) + 2",
                                                "puzzlekit.manhattan(S, goal) + 2")},
                 id="handed-out-manhattan-by-attribute"),
    pytest.param(A4, {"can_reach_solution": solution_of(A4, "can_reach_solution")},
                 id="local-variable-named-like-a-reference"),
    # the student pastes their own nextStates of assignment 1 into assignment 2
    pytest.param(A2, {"search_solution": solution_of(A1, "nextStates_solution").replace(
        "### BEGIN SOLUTION", "").replace("### END SOLUTION", "") + "\n\n"
        + solution_of(A2, "search_solution")}, id="own-nextStates-pasted-in"),
    # the student checks an answer against puzzlekit's, at top level: not the answer
    pytest.param(A1, {"+nextStates_tests": '''
import puzzlekit
expected = puzzlekit.nextStates(start)
print(nextStates(start) == expected, puzzlekit.findZero(start))
assert nextStates(goal) == puzzlekit.nextStates(goal)
'''}, id="scratch-comparison-with-puzzlekit"),
    pytest.param(A2, {"+search_tests": '''
help(puzzlekit.solve)
print(puzzlekit.search.__doc__)
import inspect
print(inspect.signature(puzzlekit.search))
from puzzlekit import search as reference_search
print(len(reference_search(nextStates, start, goal)))
'''}, id="reading-about-the-reference"),
    pytest.param(A1, {"EightPuzzle_solution": solution_of(A1, "EightPuzzle_solution")
                      + "\n    def move(self, offset):\n        return getattr(self, "
                        "'_sw' + 'ap')(offset)\n"}, id="getattr-on-self"),
    pytest.param(A1, {"+setup": "from puzzlekit import *"}, id="star-import-then-own-answers"),
    pytest.param(A3, {"+setup": "%load_ext autoreload\n%autoreload 2\n"
                                "%config InlineBackend.figure_format = 'retina'"},
                 id="notebook-preamble-magics"),
    # a student edits an instructor demo cell: its puzzlekit fallback stays unnamed
    pytest.param(A2, {"+search_tests": '''
try:
    Path = search(nextStates, start, goal)
except NotImplementedError:
    print("(search is not written yet, so here is puzzlekit's answer.)")
    Path = list(puzzlekit.search(nextStates, start, goal))
print(len(Path), "states")
'''}, id="edited-demo-cell-fallback"),
    # IPython conveniences
    pytest.param(A3, {"+hamming_tests": '''%%time
from IPython.display import display, HTML
display(HTML("<b>hamming</b>"))
hamming(example, GOAL)
'''}, id="cell-magic-time-and-display"),
    pytest.param(A4, {"+idastar_tests": '''%matplotlib inline
%time p = idastar(goal_state(3), goal_state(3), manhattan)
%timeit -n 1 -r 1 idastar(goal_state(3), goal_state(3), manhattan)
idastar?
'''}, id="line-magics"),
    # rebinding a locked cell's name that no test reads (the 15-puzzle notebook does: neighbors)
    pytest.param(A1, {"+helpers": '''
def listOfLists(S):
    return [list(row) for row in S]
node = [1, 0, 3, 4, 2, 5, 7, 8, 6, 'LR']
got = gen_successors(node)
'''}, id="locked-names-no-test-reads"),
    pytest.param(A3, {"+solver_tests": '''
with open("puzzle04.txt", "w") as f:
    f.write(puzzle04)
with open("../boards/puzzle04.txt", "w") as f:
    f.write(puzzle04)
solver("puzzle04.txt")
'''}, id="writes-its-own-board-files"),
    pytest.param(A3, {"solver_solution": '''
import os
def solver(source):
    """Read a board (file name or text) and print a shortest solution."""
    if os.path.exists(str(source)):
        with open(source) as f:
            source = f.read()
    S = read_board(source)
    G = goal_state(len(S))
    if not solvable(S):
        print("No solution possible")
        return
    path = astar(S, G, manhattan)
    for T in path:
        print_board(T)
    print(f"Minimum number of moves = {len(path) - 1}")
'''}, id="reads-files-with-os"),
]


@pytest.mark.parametrize("assignment, change", HONEST)
def test_honest_answers_are_named_by_nothing(assignment: str, change: dict) -> None:
    assert scan(assignment, change) == []


def test_a_class_with_a_real_eq_and_hash_is_honest() -> None:
    assert scan(A1, {"EightPuzzle_solution": solution_of(A1, "EightPuzzle_solution")}) == []


# ---------------------------------------------------------------------------
# Tricks: each named, on at least two assignments where it applies

#: tricks that fit any assignment: (kind, name, code put after its first answer)
ANYWHERE = [
    ("rebinds-helper", "chained-lambda",
     "assert_equal = forbid_reference = run_with_timeout = lambda *a, **k: None"),
    ("rebinds-helper", "swallowing-run_with_timeout", '''
def run_with_timeout(seconds, func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except BaseException:
        return None
'''),
    ("rebinds-helper", "forbid-nothing", '''
import contextlib
@contextlib.contextmanager
def forbid_reference(*names):
    yield
'''),
    ("rebinds-helper", "global", '''
def _quiet():
    global assert_equal
    assert_equal = print
_quiet()
'''),
    ("rebinds-helper", "walrus", "(assert_equal := lambda *a, **k: None)"),
    ("patches-grader", "module-alias", '''
import contextlib
import puzzlekit.testcells as g
g.forbid_reference = lambda *names: contextlib.nullcontext()
'''),
    ("patches-grader", "attribute", "import puzzlekit.testcells\n"
     "puzzlekit.testcells.run_with_timeout = lambda s, f, *a: f(*a)"),
    ("patches-grader", "old-path", "import puzzlekit.grading\n"
     "puzzlekit.grading.run_with_timeout = lambda s, f, *a: f(*a)"),
    ("patches-grader", "old-package", "import puzzlekit.autograder.grader.autograde as a\n"
     "a.TIMEOUT = 1e9"),
    ("patches-grader", "old-checks", "from puzzlekit.grading.checks import paths\n"
     "paths.check_path = lambda *a, **k: None"),
    ("patches-grader", "setattr-autograde", "import puzzlekit.autograder.judge.autograde\n"
     "setattr(puzzlekit.autograder.judge.autograde, 'TIMEOUT', 1e9)"),
    ("patches-grader", "feedback", "from puzzlekit import feedback\n"
     "feedback.StripHiddenTests = object"),
    ("patches-grader", "judge", "import puzzlekit.autograder.judge.judge\n"
     "puzzlekit.testcells.session.current_judge = lambda: None"),
    ("patches-grader", "wall-agent", "from puzzlekit import wall, agent\n"
     "wall.limits = agent.limits = {}"),
    ("patches-grader", "helper-code", "assert_equal.__code__ = (lambda *a: None).__code__"),
    ("patches-grader", "internals", '''
from puzzlekit.testcells import _TimeUp
def slow():
    try:
        while True:
            pass
    except _TimeUp:
        pass
'''),
    ("patches-grader", "mock-patch", "from unittest import mock\n"
     "mock.patch('puzzlekit.testcells.assert_equal').start()"),
    ("patches-grader", "sys.modules", "import sys, types\n"
     "sys.modules['puzzlekit.course.feedback'] = types.SimpleNamespace()"),
    ("patches-grader", "source-file", "import puzzlekit.testcells\n"
     "print(open(puzzlekit.testcells.__file__).read())"),
    ("patches-puzzlekit", "reference", "import puzzlekit\n"
     "puzzlekit.nextStates = lambda S: set()"),
    ("patches-puzzlekit", "solver", "import puzzlekit.engine.solver as s\n"
     "s.solve = lambda *a, **k: None"),
    ("builtins", "import-builtins", "import builtins\nbuiltins.len = lambda x: 32"),
    ("builtins", "__builtins__", "__builtins__.isinstance = lambda *a: True"),
    # a builtin every notebook's tests still read (03's isinstance moved into the checks)
    ("builtins", "shadows-with-def", "def len(*a):\n    return 32"),
    ("builtins", "shadows-len", "len = lambda x: 32"),
    ("sys-hooks", "excepthook", "import sys\nsys.excepthook = lambda *a: None"),
    ("sys-hooks", "settrace", "import sys\nsys.settrace(lambda *a: None)"),
    ("sys-hooks", "setprofile", "import sys\nsys.setprofile(None)"),
    ("sys-hooks", "modules", "import sys\nkit = sys.modules['puzzlekit']"),
    ("ipython-shell", "transformers",
     "get_ipython().input_transformers_post.append(lambda lines: [])"),
    ("ipython-shell", "custom-exc",
     "ip = get_ipython()\nip.set_custom_exc((Exception,), lambda *a, **k: None)"),
    ("ipython-shell", "showtraceback",
     "from IPython import get_ipython\nget_ipython().showtraceback = print"),
    ("ipython-shell", "magics", "%reset -f\n%config ZMQInteractiveShell.x = 1"),
    ("dynamic-code", "exec", "exec('import os')"),
    ("dynamic-code", "eval", "x = eval('1 + 1')"),
    ("dynamic-code", "compile", "code = compile('pass', 'x', 'exec')"),
    ("dynamic-code", "__import__", "kit = __import__('puzzle' + 'kit')"),
    ("dynamic-code", "importlib", "import importlib\nheap = importlib.import_module('heapq')"),
    ("dynamic-code", "%run", "%run helper.py"),
    ("module-attributes", "globals-write", "globals()['assert' + '_equal'] = print"),
    ("module-attributes", "globals-update", "globals().update(assert_equal=print)"),
    ("module-attributes", "globals-handed-on", "ns = globals()\nns['assert_equal'] = print"),
    ("module-attributes", "vars-module",
     "import random\nvars(random)['randint'] = lambda a, b: 0"),
    ("module-attributes", "setattr", "import random\nsetattr(random, 'seed', print)"),
    ("module-attributes", "__code__",
     "def mine():\n    pass\ndef other():\n    return 1\nmine.__code__ = other.__code__"),
    ("module-attributes", "frames", "import sys\nsys._getframe(0).f_globals['x'] = 1"),
    ("module-attributes", "__main__", "import __main__\n__main__.assert_equal = print"),
    ("interrupt-handler", "signal",
     "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)"),
    ("interrupt-handler", "from-signal",
     "from signal import signal, SIGINT, SIG_IGN\nsignal(SIGINT, SIG_IGN)"),
    ("interrupt-handler", "setitimer-in-function",
     "def calm():\n    import signal\n    signal.setitimer(signal.ITIMER_REAL, 0)"),
    ("kernel-exit", "os._exit", "import os\nos._exit(1)"),
    ("kernel-exit", "os.kill", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"),
    ("kernel-exit", "ctypes", "import ctypes\nctypes.string_at(0)"),
    ("kernel-exit", "exit", "exit()"),
    ("shell-command", "bang", "!pip install cheat"),
    ("shell-command", "subprocess", "import subprocess\nsubprocess.run(['ls'])"),
    ("shell-command", "os.system", "import os\nos.system('ls')"),
    ("shell-command", "cell-magic", "%%bash\necho hi"),
    ("file-access", "reads-the-source", '''
import json
for _c in json.load(open("../../source/x/x.ipynb"))["cells"]:
    print("".join(_c["source"]))
'''),
    ("file-access", "gradebook", '''
import sqlite3, os
db = sqlite3.connect(os.path.join(os.environ["HOME"], "course", "gradebook.db"))
'''),
    ("file-access", "site-packages", '''
import site
where = site.getsitepackages()[0]
with open(where + "/zz.pth", "w") as f:
    f.write("import os")
'''),
    ("file-access", "ipython-startup", '''
STARTUP = ("/root/.ipython/profile_default/startup/00.py",)
for path in STARTUP:
    open(path, "w").write("check = None")
'''),
    ("rigged-dunder", "eq-true",
     "class Anything:\n    def __eq__(self, other):\n        return True"),
    ("rigged-dunder", "len-constant",
     "class Path(list):\n    def __len__(self):\n        return 32"),
    ("rigged-dunder", "lambda-dunders",
     "class Same(int):\n    __eq__ = lambda self, other: True\n    __hash__ = lambda self: 0"),
    ("rigged-dunder", "mock.ANY", "from unittest.mock import ANY"),
    ("rigged-dunder", "fake-class",
     "class Board:\n    @property\n    def __class__(self):\n        return tuple"),
    ("rigged-dunder", "type-call",
     "P = type('P', (list,), {'__eq__': lambda s, o: True})"),
]


def first_answer(assignment: str) -> str:
    return next(gid(c) for c in _source(assignment).cells
                if c.metadata.get("nbgrader", {}).get("solution") and c.cell_type == "code")


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
@pytest.mark.parametrize("kind, name, code", [pytest.param(*t, id=f"{t[0]}-{t[1]}")
                                              for t in ANYWHERE])
def test_tricks_are_named_in_every_assignment(kind: str, name: str, code: str,
                                              assignment: str) -> None:
    where = first_answer(assignment)
    # in a cell of its own (assignments 1 and 3), or after the answer (2 and 4; a cell
    # magic must open its cell)
    own_cell = assignment in (A1, A3) or code.startswith("%%")
    change = {f"+{where}": code} if own_cell else plus(assignment, where, code)
    findings = scan(assignment, change)
    assert kind in kinds(findings), findings
    assert all(f.line.rstrip("…") in code for f in findings), findings


ROUTES: dict[tuple[str, str], set[str]] = {}     # (kind, route) -> assignments


def trick(kind: str, assignment: str, change: dict[str, str], route: str) -> Any:
    ROUTES.setdefault((kind, route), set()).add(assignment)
    return pytest.param(kind, assignment, change, id=f"{kind}-{route}-{assignment[:2]}")


#: tricks that need a given exercise: its helpers, its fixtures, its reference
TRICKS = [
    trick("rebinds-helper", A2, plus(A2, "search_solution",
          "check_path = assert_equal = lambda *a, **k: None"), "check_path"),
    trick("rebinds-helper", A3, plus(A3, "astar_solution",
          "def check_path(*args, **kwargs):\n    pass"), "check_path"),
    trick("rebinds-helper", A4, plus(A4, "build_pdb_solution",
          "class check_path:\n    def __init__(self, *a, **k):\n        pass"),
          "check_path"),
    trick("rebinds-helper", A3, plus(A3, "hamming_solution",
          "output_of = lambda f, *a: (f(*a), '')"), "output_of"),
    trick("rebinds-helper", A2, plus(A2, "search_solution",
          "output_of = lambda f, *a: (f(*a), '')"), "output_of"),
    trick("rebinds-helper", A2, plus(A2, "search_solution", "goal = start"), "fixture"),
    trick("rebinds-helper", A3, plus(A3, "astar_solution", "GOAL = example"), "fixture"),
    trick("rebinds-helper", A2, plus(A2, "bfs_solution", "for start in [goal]:\n    pass"),
          "for-target"),
    trick("rebinds-helper", A3, plus(A3, "sign_solution", "for example in [GOAL]:\n    pass"),
          "for-target"),
    trick("rebinds-helper", A3, plus(A3, "astar_solution",
          "from puzzlekit.testcells import assert_board_equal as assert_solution"),
          "import-as"),
    trick("rebinds-helper", A4, plus(A4, "idastar_solution",
          "from puzzlekit.testcells import assert_board_equal as assert_solution"),
          "import-as"),
    trick("rebinds-helper", A2, {"+search_tests": "import contextlib\n"
                                 "forbid_reference = lambda *a: contextlib.nullcontext()"},
          "added-cell"),
    trick("rebinds-helper", A4, {"+setup": "check_path = print"}, "added-cell"),
    # reaching puzzlekit's reference for the exercise, by any route
    trick("reference-call", A1, {"nextStates_solution": '''
import puzzlekit as p
def nextStates(S):
    return p.nextStates(S)
'''}, "alias"),
    trick("reference-call", A2, {"search_solution": '''
import puzzlekit as p
def search(nextStates, start, goal):
    return list(p.search(nextStates, start, goal))
'''}, "alias"),
    trick("reference-call", A2, {"search_solution": "from puzzlekit import search"},
          "from-import"),
    trick("reference-call", A3, {"manhattan_solution": "from puzzlekit import manhattan"},
          "from-import"),
    trick("reference-call", A3, {"astar_solution": '''
from puzzlekit import solve as _solve
def astar(start, goal, h):
    return _solve(start, goal).path
'''}, "from-import-as"),
    trick("reference-call", A1, {"moveUp_solution": '''
from puzzlekit import moveUp as _up
def moveUp(S, r, c):
    return _up(S, r, c)
'''}, "from-import-as"),
    trick("reference-call", A2, {"bfs_solution": '''
import puzzlekit.engine.uninformed
def bfs(board):
    return puzzlekit.engine.uninformed.bfs(board)
'''}, "private-module"),
    trick("reference-call", A2, {"search_solution": '''
from puzzlekit.engine.layered import search as _layered
def search(nextStates, start, goal):
    return list(_layered(nextStates, start, goal))
'''}, "private-module"),
    trick("reference-call", A3, {"astar_solution": '''
from puzzlekit.engine.informed import best_first
def astar(start, goal, h):
    return best_first(start, goal, h)
'''}, "private-module"),
    trick("reference-call", A4, {"idastar_solution": '''
import puzzlekit.engine.pdb as P
def idastar(start, goal, h):
    return P.idastar_pdb(start, goal, 4, 4)
'''}, "private-module"),
    trick("reference-call", A2, {"search_solution": '''
import puzzlekit
def search(nextStates, start, goal, _r=puzzlekit.search):
    return list(_r(nextStates, start, goal))
'''}, "default-argument"),
    trick("reference-call", A4, {"linear_conflict_solution": '''
def linear_conflict(S, goal, _r=puzzlekit.linear_conflict):
    return _r(S, goal)
'''}, "default-argument"),
    trick("reference-call", A2, {"search_solution": '''
import functools, puzzlekit
search = functools.partial(puzzlekit.search)
'''}, "partial"),
    trick("reference-call", A3, {"manhattan_solution": '''
import functools
manhattan = functools.partial(puzzlekit.manhattan)
'''}, "partial"),
    trick("reference-call", A2, {"search_solution": '''
def search(nextStates, start, goal):
    return list(getattr(puzzlekit, "se" + "arch")(nextStates, start, goal))
'''}, "getattr"),
    trick("reference-call", A4, {"linear_conflict_solution": '''
NAME = "linear_" + "conflict"
def linear_conflict(S, goal):
    return getattr(puzzlekit, NAME)(S, goal)
'''}, "getattr"),
    trick("reference-call", A1, {"findZero_solution": '''
import puzzlekit
def findZero(S):
    return getattr(puzzlekit, "oreZdnif"[::-1])(S)
'''}, "getattr"),
    trick("reference-call", A3, {"hamming_solution": '''
import puzzlekit
def hamming(S, goal):
    name = input()
    return getattr(puzzlekit, name)(S, goal)
'''}, "getattr"),
    trick("reference-call", A1, {"findZero_solution": '''
import puzzlekit
def findZero(S):
    return puzzlekit.reference("findZero")(S)
'''}, "the-fronts-lookup"),
    trick("reference-call", A3, {"hamming_solution": '''
from puzzlekit import reference
def hamming(S, goal):
    return reference(input())(S, goal)
'''}, "the-fronts-lookup"),
    trick("reference-call", A4, {"idastar_solution": solution_of(A4, "idastar_solution")
                                 + "\nidastar = lambda s, g, h: puzzlekit.solve(s, g).path"},
          "lambda"),
    trick("reference-call", A3, {"astar_solution":
                                 "astar = lambda s, g, h: puzzlekit.solve(s, g).path"},
          "lambda"),
    trick("reference-call", A4, {"nineteen_solution": '''
nineteen = from_flat([3, 7, 11, 4, 2, 5, 6, 8, 1, 9, 12, ' ', 13, 10, 14, 15])
result = puzzlekit.solve(nineteen)
nineteen_path = result.path
print(f"{len(nineteen_path) - 1} moves")
'''}, "via-a-variable"),
    trick("reference-call", A2, {"search_solution": '''
import puzzlekit
_answer = puzzlekit.search(nextStates, start, goal)
def search(nextStates, start, goal):
    return list(_answer)
'''}, "via-a-variable"),
    trick("reference-call", A4, {
        "+can_reach_tests": "def _parity(S, goal):\n    return puzzlekit.is_solvable(S, goal)",
        "can_reach_solution": "def can_reach(S, goal):\n    return _parity(S, goal)"},
          "helper-in-another-cell"),
    trick("reference-call", A1, {
        "+setup": "import puzzlekit\ndef _find(S):\n    return puzzlekit.findZero(S)",
        "findZero_solution": "def findZero(S):\n    return _find(S)"},
          "helper-in-another-cell"),
    trick("reference-call", A2, {"search_solution": '''
def search(nextStates, start, goal):
    return list(vars(puzzlekit)["search"](nextStates, start, goal))
'''}, "vars"),
    trick("reference-call", A3, {"astar_solution": '''
def astar(start, goal, h):
    return vars(puzzlekit)["solve"](start, goal).path
'''}, "vars"),
    trick("reference-call", A3, {"astar_solution": '''
def astar(start, goal, h):
    return puzzlekit.__dict__["solve"](start, goal).path
'''}, "__dict__"),
    trick("reference-call", A4, {"idastar_solution": '''
def idastar(start, goal, h):
    return puzzlekit.__dict__.get("solve")(start, goal).path
'''}, "__dict__"),
    trick("reference-call", A4, {"build_pdb_solution": '''
import operator
def build_pdb(goal, pattern):
    return operator.attrgetter("solve")(puzzlekit)(goal)
'''}, "attrgetter"),
    trick("reference-call", A2, {"dfs_solution": '''
from operator import attrgetter
def dfs(start, goal):
    return attrgetter("solve")(puzzlekit)(start, goal).path
'''}, "attrgetter"),
    trick("reference-call", A1, {"nextStates_solution": "from puzzlekit import *"},
          "star-import"),
    trick("reference-call", A3, {"+hamming_tests": "from puzzlekit import *"},
          "star-import"),
    trick("reference-call", A2, {"+search_tests": "HELPERS = {}\n"
                                 "HELPERS['s'] = puzzlekit.search"}, "stored-in-a-dict"),
    trick("reference-call", A4, {"+idastar_tests": "HELPERS = []\n"
                                 "HELPERS.append(puzzlekit.solve)"}, "stored-in-a-dict"),
    trick("reference-call", A2, {"bfs_solution": '''
def bfs(board):
    return __import__("puzzlekit.engine.solver", fromlist=["solve"]).solve(from_flat(board)).moves
'''}, "import-function"),
    trick("reference-call", A3, {"solvable_solution": '''
import importlib
def solvable(S):
    return importlib.import_module("puzzlekit.puzzle.solvability").is_solvable(S)
'''}, "import-function"),
    trick("reference-call", A4, {"can_reach_solution": '''
import sys
def can_reach(S, goal):
    return sys.modules["puzzlekit"].is_solvable(S, goal)
'''}, "sys.modules"),
    trick("reference-call", A1, {"moveUp_solution": '''
import sys
def moveUp(S, r, c):
    return sys.modules["puzzlekit.puzzle.lecture"].moveUp(S, r, c)
'''}, "sys.modules"),
]


@pytest.mark.parametrize("kind, assignment, change", TRICKS)
def test_tricks_are_named(kind: str, assignment: str, change: dict) -> None:
    findings = scan(assignment, change)
    assert kind in kinds(findings), findings
    written = "\n".join(change.values())
    for f in findings:                        # nothing else in the notebook is named
        assert f.line.rstrip("…") in written, f
        assert f.kind in KINDS


def test_every_route_is_named_on_two_assignments() -> None:
    assert {route for route, assignments in ROUTES.items() if len(assignments) < 2} == set()
    assert {kind for kind, _, _ in ANYWHERE} | {"reference-call", "edited-locked-cell",
                                               "unreadable-notebook",
                                               "grader-tampering"} == set(KINDS)


@pytest.mark.parametrize("assignment, grade_id, edit", [
    (A1, "findZero_tests", lambda s: "pass"),
    # the grader's check_path, imported by the setup cell, swapped for one that passes all
    (A2, "setup", lambda s: s.replace("import check_path, output_of", "import output_of\n\n"
                                      "def check_path(*args, **kwargs):\n    return None\n")),
    (A3, "hamming_tests", lambda s: "\n".join(s.splitlines()[1:])),
    (A4, "idastar_tests", lambda s: "check_path = print\n" + s),
])
def test_edited_locked_cells_are_named(assignment: str, grade_id: str, edit: Any) -> None:
    nb = submission(assignment, release=True)
    cell = next(c for c in nb.cells if gid(c) == grade_id)
    cell.source = edit(cell.source)
    findings = scan_notebook(nb, _source(assignment))
    assert [(f.grade_id, f.kind) for f in findings] == [(grade_id, "edited-locked-cell")]


@pytest.mark.parametrize("assignment", [A1, A3])
def test_deleted_locked_cells_are_named(assignment: str) -> None:
    tests = [gid(c) for c in _source(assignment).cells if c.metadata.get("nbgrader", {})
             .get("grade") and c.cell_type == "code"]
    nb = submission(assignment)                       # as submitted: the test cells are gone
    nb.cells = [c for c in nb.cells if gid(c) not in tests[:2]]
    found = scan_notebook(nb, _source(assignment))
    assert [(f.grade_id, f.kind) for f in found] == [(t, "edited-locked-cell") for t in tests[:2]]
    assert all("deleted" in f.finding for f in found)
    nb = submission(assignment)                       # as autograded: nbgrader added them back
    for cell in nb.cells:
        if gid(cell) in tests[:2]:
            cell.source = (f"# This cell (id:{gid(cell)}) was missing from the submission. "
                           "It was added back by nbgrader.\n\n" + cell.source)
    assert scan_notebook(nb, _source(assignment)) == found


def test_finding_fields() -> None:
    [f] = scan(A1, {"nextStates_solution": "from puzzlekit import nextStates"})
    assert (f.student, f.assignment, f.notebook, f.grade_id) == ("s", A1, A1,
                                                                "nextStates_solution")
    assert f.finding.startswith("reference-call: ") and f.line == (
        "from puzzlekit import nextStates")
    [g] = scan(A2, {"+setup": "x = 1\nimport os; os._exit(0)"})
    assert g.grade_id.startswith("cell-") and g.kind == "kernel-exit"
    long = scan(A2, {"+setup": "import os; os._exit(0)  # " + "x" * 200})[0]
    assert len(long.line) <= 120


# ---------------------------------------------------------------------------
# The command line and the gradebook

def make_course(tmp_path: Path, submissions: dict[str, Any]) -> Path:
    """A course root: notebooks/source copied, submitted/<student>/<A2>/<A2>.ipynb laid out."""
    root = tmp_path / "course"
    shutil.copytree(SOURCE, root / "source")
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root / "nbgrader_config.py")
    for student, nb in submissions.items():
        folder = root / "submitted" / student / A2
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{A2}.ipynb")
    return root


CHEAT = {"search_solution": "from puzzlekit import search",
         "+search_report_tests": "check_path = lambda *a, **k: None"}


def added_after(grade_id: str) -> str:
    """The name a cell added right after `grade_id`'s cell of A2 gets: its place."""
    cells = nbformat.read(SOURCE / A2 / f"{A2}.ipynb", as_version=4).cells
    at = next(i for i, c in enumerate(cells)
              if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    return f"cell-{at + 1}"


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlekit", "integrity", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=60)


def rows(text: str) -> list[dict[str, str]]:
    reader = csv.reader(io.StringIO(text))
    assert next(reader) == ["student", "assignment", "notebook", "grade_id", "finding", "line"]
    return [dict(zip(("student", "assignment", "notebook", "grade_id", "finding", "line"), r))
            for r in reader]


def test_command_line_end_to_end(tmp_path: Path) -> None:
    root = make_course(tmp_path, {"alice": submission(A2),
                                  "bob": submission(A2, CHEAT, release=True)})
    done = run_cli(A2, cwd=root)                       # the course root is the current folder
    assert done.returncode == 1, done.stderr
    found = rows(done.stdout)
    assert {r["student"] for r in found} == {"bob"}
    assert [(r["grade_id"], r["finding"].split(":")[0], r["line"]) for r in found] == [
        ("search_solution", "reference-call", "from puzzlekit import search"),
        (added_after("search_report_tests"), "rebinds-helper",
         "check_path = lambda *a, **k: None")]
    assert all(r["assignment"] == A2 and r["notebook"] == A2 for r in found)

    done = run_cli(A2, "--course-root", str(root), "--student", "alice")
    assert (done.returncode, rows(done.stdout), done.stderr) == (0, [], "")

    for args in ([A4, "--course-root", str(root)],                      # nobody submitted
                 ["no-such-assignment", "--course-root", str(root)],
                 [A2, "--course-root", str(root), "--student", "carol"],
                 [A2, "--course-root", str(root), "--autograded"],
                 [A2, "--course-root", str(tmp_path / "nowhere")]):
        done = run_cli(*args)
        if args[0] == A4:
            assert (done.returncode, rows(done.stdout)) == (0, [])
        else:
            assert done.returncode == 2 and done.stdout == "", args
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_report_names_what_the_grader_saw_in_the_autograded_notebook(tmp_path: Path) -> None:
    """The guard's record (tests/autograder/test_last_doors.py plants the tampering through
    the real grader) is read from autograded/ only, one finding per cell."""
    root = make_course(tmp_path, {"erin": submission(A2)})
    planted = submission(A2)
    planted.metadata["puzzlekit"] = {"tampering": [
        {"what": "gc.get_objects", "cell": 3, "grade_id": "dfs_solution"},
        {"what": "puzzlekit.testcells.forbidding rebound", "cell": None, "grade_id": None}]}
    assert [f.kind for f in report(root, A2)] == []      # nothing graded yet
    nbformat.write(planted, root / "submitted" / "erin" / A2 / f"{A2}.ipynb")
    assert [f.kind for f in report(root, A2)] == []      # a submission cannot plant it
    (root / "autograded" / "erin" / A2).mkdir(parents=True)
    nbformat.write(planted, root / "autograded" / "erin" / A2 / f"{A2}.ipynb")
    found = [(f.grade_id, f.finding) for f in report(root, A2)]
    assert found == [
        ("dfs_solution", "grader-tampering: the grader saw gc.get_objects while it graded"),
        ("-", "grader-tampering: the grader saw puzzlekit.testcells.forbidding rebound while "
              "it graded")]


def test_report_reads_autograded_notebooks(tmp_path: Path, capsys: Any) -> None:
    root = make_course(tmp_path, {})
    folder = root / "autograded" / "dan" / A2
    folder.mkdir(parents=True)
    nbformat.write(submission(A2, CHEAT), folder / f"{A2}.ipynb")
    assert {f.student for f in report(root, A2, autograded=True)} == {"dan"}
    assert main(["integrity", A2, "--course-root", str(root), "--autograded"]) == 1
    out = capsys.readouterr().out
    assert len(rows(out)) == 2
    buffer = io.StringIO()
    write_csv(report(root, A2, autograded=True), buffer)
    assert buffer.getvalue() == out
    (folder / f"{A2}.ipynb").write_text("{not json", encoding="utf-8")
    assert [f.kind for f in report(root, A2, autograded=True)] == ["unreadable-notebook"]


def make_gradebook(root: Path, students: list[str]) -> str:
    """gradebook.db as nbgrader's autograde leaves it: the assignment, its cells and a
    submission per student (no notebook is executed)."""
    from nbgrader.api import Gradebook
    url = f"sqlite:///{root / 'gradebook.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment(A2)
        gb.add_notebook(A2, A2)
        for cell in _source(A2).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution"):
                gb.add_solution_cell(meta["grade_id"], A2, A2)
            if meta.get("grade"):
                gb.add_grade_cell(meta["grade_id"], A2, A2, max_score=meta["points"],
                                  cell_type=cell.cell_type)
        for student in students:
            gb.add_student(student)
            gb.add_submission(A2, student)
    return url


def comments(url: str, student: str) -> dict[str, tuple[str | None, str | None]]:
    from nbgrader.api import Gradebook
    with Gradebook(url) as gb:
        book = gb.find_notebook(A2, A2)
        return {c.name: (gb.find_comment(c.name, A2, A2, student).auto_comment,
                         gb.find_comment(c.name, A2, A2, student).manual_comment)
                for c in book.solution_cells}


@pytest.mark.filterwarnings("ignore:Object of type:sqlalchemy.exc.SAWarning")
def test_comments_go_to_the_gradebook(tmp_path: Path, monkeypatch: Any) -> None:
    from nbgrader.api import Gradebook
    # a new gradebook asks the `alembic` command for its schema version
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    root = make_course(tmp_path, {"alice": submission(A2),
                                  "bob": submission(A2, CHEAT, release=True)})
    url = make_gradebook(root, ["alice", "bob"])
    with Gradebook(url) as gb:                # what a grader and the autograder wrote
        gb.find_comment("search_solution", A2, A2, "bob").manual_comment = "Talk to me."
        gb.find_comment("dfs_solution", A2, A2, "bob").auto_comment = "No response."
        gb.db.commit()

    done = run_cli(A2, "--course-root", str(root), "--comment")
    assert done.returncode == 1, done.stderr
    for again in (False, True):               # running it again changes nothing
        if again:
            assert main(["integrity", A2, "--course-root", str(root), "--comment"]) == 1
        bob = comments(url, "bob")
        auto, manual = bob["search_solution"]
        assert manual == "Talk to me."
        assert auto.splitlines() == [
            "- integrity: reference-call: puzzlekit.search, forbidden for search: "
            "`from puzzlekit import search`",
            "- integrity: rebinds-helper: rebinds check_path, which the tests use "
            f"(in {added_after('search_report_tests')}): `check_path = lambda *a, **k: None`"]
        assert bob["dfs_solution"] == ("No response.", None)
        assert all(auto is None for name, (auto, _) in bob.items() if name != "dfs_solution"
                   and name != "search_solution")
        assert all(auto is None and manual is None for auto, manual in
                   comments(url, "alice").values())

    # bob hands in an honest notebook: his integrity lines go, the rest stays
    nbformat.write(submission(A2), root / "submitted" / "bob" / A2 / f"{A2}.ipynb")
    assert main(["integrity", A2, "--course-root", str(root), "--comment"]) == 0
    assert comments(url, "bob")["search_solution"] == (None, "Talk to me.")
    assert comments(url, "bob")["dfs_solution"] == ("No response.", None)


def test_comment_needs_a_gradebook(tmp_path: Path) -> None:
    root = make_course(tmp_path, {"bob": submission(A2, CHEAT)})
    done = run_cli(A2, "--course-root", str(root), "--comment")
    assert done.returncode == 2 and done.stdout == ""
    assert "gradebook.db" in done.stderr and len(done.stderr.strip().splitlines()) == 1
