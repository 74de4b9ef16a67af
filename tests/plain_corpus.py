"""A corpus of plain nbgrader test cells, each graded by plain nbgrader and by the kit.

Issue 22, item 1: a graded test cell written for plain nbgrader must give the same verdict
under the kit's grader (the wall and the judge), for a right and for a wrong answer, or
the kit's generate step must refuse it, naming the cell, before any student sees it.

Each `Kind` is one small exercise: an answer cell (the model solution between nbgrader's
markers), one graded test cell, a RIGHT student answer (often written another way than
the model) and a WRONG one. All kinds go into one notebook of one assignment
(`source_notebook`); `grade_plain` grades it with nbgrader alone (a bare course folder,
no configuration but the folder), `grade_kit` with the course's own ``nbgrader_config.py``
(generate grades the model solution first: `puzzlekit.course.author_check`). Both read the score
of every test cell from the gradebook. tests/autograder/test_plain_semantics.py compares them.

Run alone, it prints the table (about a minute on a 2-core machine)::

    .venv/bin/python tests/plain_corpus.py      # -v: the refusals in full
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
from test_author_page import auto_scores, submit  # noqa: E402
from test_authoring import cell, course_api  # noqa: E402

ASSIGNMENT = "plain-corpus"


@dataclass(frozen=True)
class Kind:
    """One kind of plain nbgrader test: its exercise, its test cell and two answers."""

    name: str          #: the grade ids are NAME_solution and NAME_tests
    solution: str      #: the model solution (with nbgrader's solution markers)
    test: str          #: the graded test cell
    right: str         #: a right answer, as a student may write it
    wrong: str         #: a wrong answer
    points: int = 1


GIVEN = '''\
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)

def next_states(S):
    """The boards one move of the blank away from S (3 x 3), in the order U, D, L, R."""
    i = S.index(0)
    r, c = divmod(i, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 3 and 0 <= c + dc < 3:
            j = (r + dr) * 3 + c + dc
            T = list(S)
            T[i], T[j] = T[j], T[i]
            out.append(tuple(T))
    return out

def misplaced(S):
    """Tiles (not the blank) out of their goal place."""
    return sum(1 for a, b in zip(S, GOAL) if a != 0 and a != b)
'''


def _sol(signature: str, body: str) -> str:
    """An answer cell: the signature, then the body between nbgrader's markers."""
    body = "\n".join("    " + line if line else "" for line in body.strip("\n").split("\n"))
    return f"{signature}\n    ### BEGIN SOLUTION\n{body}\n    ### END SOLUTION"


#: an exercise of a 2 x 2 puzzle that raises an exception class of the student's own
BADMOVE_SOLUTION = ('class BadMove(Exception):\n    """A move off the board."""\n\n'
                    + _sol("def move_blank(S, d):", '''\
i = S.index(0)
r, c = divmod(i, 2)
dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[d]
if not (0 <= r + dr < 2 and 0 <= c + dc < 2):
    raise BadMove(d)
j = (r + dr) * 2 + c + dc
T = list(S)
T[i], T[j] = T[j], T[i]
return tuple(T)'''))

BADMOVE_RIGHT = '''class BadMove(Exception):
    pass

def move_blank(S, d):
    i = S.index(0)
    j = i + {"U": -2, "D": 2, "L": -1, "R": 1}[d]
    if not 0 <= j < 4 or (d in "LR" and j // 2 != i // 2):
        raise BadMove(d)
    T = list(S)
    T[i], T[j] = T[j], 0
    return tuple(T)'''

BADMOVE_WRONG = '''class BadMove(Exception):
    pass

def move_blank(S, d):
    i = S.index(0)
    j = i + {"U": -2, "D": 2, "L": -1, "R": 1}[d]
    if not 0 <= j < 4:
        raise ValueError(d)
    T = list(S)
    T[i], T[j] = T[j], 0
    return tuple(T)'''

KINDS: list[Kind] = [
    Kind("closure_calls", points=2,
         solution=_sol('def cheapest_next(S, h):\n    """The next board of S with the '
                       'smallest h(T)."""', "return min(next_states(S), key=h)"),
         right='''def cheapest_next(S, h):
    best = None
    for T in next_states(S):
        value = h(T)
        if best is None or value < best[0]:
            best = (value, T)
    return best[1]''',
         wrong="def cheapest_next(S, h):\n    return next_states(S)[0]",
         test='''calls = []
def h(T):
    calls.append(T)
    return misplaced(T)
S = (1, 2, 3, 4, 0, 5, 7, 8, 6)
got = cheapest_next(S, h)
assert sorted(calls) == sorted(next_states(S)), "h must be asked once per next board"
assert got == min(next_states(S), key=misplaced)'''),

    Kind("lambda",
         solution=_sol("def sort_by(states, key):", "return sorted(states, key=key)"),
         right="def sort_by(states, key):\n    return sorted(list(states), key=key)",
         wrong="def sort_by(states, key):\n    return sorted(states)",
         test="assert sort_by([(3, 1), (1, 2), (2, 0)], lambda s: s[1]) == "
              "[(2, 0), (3, 1), (1, 2)]"),

    Kind("lambda_test_name",
         solution=_sol("def count_if(states, pred):",
                       "return sum(1 for s in states if pred(s))"),
         right="def count_if(states, pred):\n    return len([s for s in states if pred(s)])",
         wrong="def count_if(states, pred):\n    return len(states)",
         test="target = 0\nassert count_if([(0, 1), (1, 0), (0, 0)], "
              "lambda s: s[0] == target) == 2"),

    Kind("partial",
         solution=_sol("def apply_all(f, states):", "return [f(s) for s in states]"),
         right="def apply_all(f, states):\n    return list(map(f, states))",
         wrong="def apply_all(f, states):\n    return [0 for s in states]",
         test='''import functools
def distance(S, goal):
    return sum(1 for a, b in zip(S, goal) if a != b)
h = functools.partial(distance, goal=(1, 2, 0))
assert apply_all(h, [(1, 2, 0), (0, 1, 2)]) == [0, 3]'''),

    Kind("bound_method",
         solution=_sol("def feed(states, sink):",
                       "for s in states:\n    sink(s)\nreturn len(states)"),
         right="def feed(states, sink):\n    n = 0\n    for s in states:\n        sink(s)\n"
               "        n += 1\n    return n",
         wrong="def feed(states, sink):\n    return len(states)",
         test='''class Log:
    def __init__(self):
        self.seen = []
    def add(self, s):
        self.seen.append(s)
log = Log()
assert feed([(1, 0), (0, 1)], log.add) == 2
assert log.seen == [(1, 0), (0, 1)]'''),

    Kind("test_object", points=2,
         solution=_sol('def explore(start, problem):\n    """Breadth-first search on any '
                       'problem with successors(s) and is_goal(s)."""', '''\
parent = {start: None}
frontier = [start]
while frontier:
    s = frontier.pop(0)
    if problem.is_goal(s):
        path = [s]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        return path[::-1]
    for t in problem.successors(s):
        if t not in parent:
            parent[t] = s
            frontier.append(t)
return None'''),
         right='''from collections import deque
def explore(start, problem):
    seen, queue = {start}, deque([[start]])
    while queue:
        path = queue.popleft()
        if problem.is_goal(path[-1]):
            return path
        for t in problem.successors(path[-1]):
            if t not in seen:
                seen.add(t)
                queue.append(path + [t])''',
         wrong="def explore(start, problem):\n    return [start]",
         test='''class Line:
    """Positions 0..9 on a line; one step left or right; the goal is 7."""
    def successors(self, n):
        return [m for m in (n - 1, n + 1) if 0 <= m <= 9]
    def is_goal(self, n):
        return n == 7
assert explore(3, Line()) == [3, 4, 5, 6, 7]'''),

    Kind("read_global",
         solution="### BEGIN SOLUTION\nGOAL_2x2 = (1, 2, 3, 0)\n### END SOLUTION",
         right="GOAL_2x2 = tuple([1, 2, 3, 0])",
         wrong="GOAL_2x2 = (0, 1, 2, 3)",
         test="assert GOAL_2x2 == (1, 2, 3, 0)\nassert GOAL_2x2[-1] == 0"),

    Kind("rebind_global",
         solution="WIDTH = 3\n\ndef index_of(row, col):\n    ### BEGIN SOLUTION\n"
                  "    return row * WIDTH + col\n    ### END SOLUTION",
         right="WIDTH = 3\n\ndef index_of(row, col):\n    return col + WIDTH * row",
         wrong="WIDTH = 3\n\ndef index_of(row, col):\n    return row * 3 + col",
         test="assert index_of(1, 2) == 5\nWIDTH = 4\nassert index_of(1, 2) == 6\n"
              "WIDTH = 3"),

    Kind("print_capture",
         solution=_sol("def show_row(row):", 'print(" ".join(str(x) for x in row))'),
         right="def show_row(row):\n    print(*row)",
         wrong="def show_row(row):\n    print(row)",
         test='''import contextlib, io
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    show_row((1, 0, 2))
assert buffer.getvalue() == "1 0 2\\n"'''),

    Kind("random_seed",
         solution="import random\n\n" + _sol(
             "def shuffled(tiles):",
             "tiles = list(tiles)\nrandom.shuffle(tiles)\nreturn tiles"),
         right="import random\n\ndef shuffled(tiles):\n    out = [t for t in tiles]\n"
               "    random.shuffle(out)\n    return out",
         wrong="import random\n\ndef shuffled(tiles):\n    return sorted(tiles, reverse=True)",
         test='''import random
random.seed(5)
expected = [1, 2, 3, 4, 5, 6]
random.shuffle(expected)
random.seed(5)
assert shuffled([1, 2, 3, 4, 5, 6]) == expected'''),

    Kind("mutated_args",
         solution=_sol("def visit(S, seen, frontier):",
                       "seen.add(S)\nfrontier.extend(T for T in next_states(S) "
                       "if T not in seen)"),
         right="def visit(S, seen, frontier):\n    seen |= {S}\n    for T in next_states(S):\n"
               "        if T not in seen:\n            frontier.append(T)",
         wrong="def visit(S, seen, frontier):\n    seen = seen | {S}\n"
               "    frontier = frontier + next_states(S)",
         test='''seen, frontier = set(), []
visit(GOAL, seen, frontier)
assert seen == {GOAL}
assert sorted(frontier) == sorted(next_states(GOAL))'''),

    Kind("generator", points=2,
         solution=_sol('def blank_tour():\n    """Moves of the blank round a 2 x 2 board, '
                       'for ever."""', 'while True:\n    yield from "RDLU"'),
         right="import itertools\n\ndef blank_tour():\n    for move in itertools.cycle('RDLU'):"
               "\n        yield move",
         wrong="def blank_tour():\n    while True:\n        yield from 'RDUL'",
         test='''import itertools
tour = blank_tour()
assert next(tour) == "R"
assert next(tour) == "D"
assert "".join(itertools.islice(blank_tour(), 6)) == "RDLURD"'''),

    Kind("student_class", points=2,
         solution='class Board:\n    def __init__(self, tiles):\n        ### BEGIN SOLUTION\n'
                  '        self.tiles = tuple(tiles)\n        ### END SOLUTION\n\n'
                  '    def blank(self):\n        ### BEGIN SOLUTION\n'
                  '        return self.tiles.index(0)\n        ### END SOLUTION',
         right="class Board:\n    def __init__(self, tiles):\n        self.tiles = tuple(tiles)\n"
               "    def blank(self):\n        for i, t in enumerate(self.tiles):\n"
               "            if t == 0:\n                return i",
         wrong="class Board:\n    def __init__(self, tiles):\n        self.tiles = tuple(tiles)\n"
               "    def blank(self):\n        return 0",
         test='''b = Board([1, 0, 2, 3])
assert isinstance(b, Board)
assert b.tiles == (1, 0, 2, 3)
assert b.blank() == 1'''),

    # the student's class, compared by `type(...) is`: what the kit cannot honour (its
    # objects cross as handles of their own kind), so its generate step refuses the test
    Kind("type_identity",
         solution='class Node:\n    def __init__(self, board):\n        ### BEGIN SOLUTION\n'
                  '        self.board = tuple(board)\n        ### END SOLUTION',
         right="class Node:\n    def __init__(self, board):\n        self.board = tuple(board)",
         wrong="class Node:\n    def __init__(self, board):\n        self.board = list(board)",
         test='''n = Node([1, 0, 2, 3])
assert type(n) is Node
assert n.board == (1, 0, 2, 3)'''),

    Kind("exception_builtin",
         solution=_sol("def check_board(S):",
                       'if sorted(S) != list(range(len(S))):\n'
                       '    raise ValueError(f"not a board: {S}")\nreturn True'),
         right='def check_board(S):\n    if set(S) != set(range(len(S))) or len(set(S)) '
               '!= len(S):\n        raise ValueError("not a board")\n    return True',
         wrong="def check_board(S):\n    return sorted(S) == list(range(len(S)))",
         test='''assert check_board((1, 0, 2, 3))
try:
    check_board((1, 1, 2, 3))
except ValueError:
    pass
else:
    raise AssertionError("check_board must raise ValueError for a tile twice")'''),

    Kind("exception_own_class",
         solution=BADMOVE_SOLUTION,
         right=BADMOVE_RIGHT,
         wrong=BADMOVE_WRONG,
         test='''assert move_blank((0, 1, 2, 3), "R") == (1, 0, 2, 3)
try:
    move_blank((0, 1, 2, 3), "U")
except BadMove:
    pass
else:
    raise AssertionError("a move off the board must raise BadMove")'''),

    # what the refusal of exception_own_class tells the author to write instead
    Kind("exception_by_name",
         solution=BADMOVE_SOLUTION,
         right=BADMOVE_RIGHT,
         wrong=BADMOVE_WRONG,
         test='''try:
    move_blank((1, 0, 2, 3), "R")
except Exception as e:
    assert type(e).__name__ == "BadMove", f"raised {type(e).__name__}, not BadMove"
else:
    raise AssertionError("a move off the board must raise BadMove")'''),

    Kind("numpy",
         solution="import numpy as np\n\n" + _sol("def as_grid(S, width):",
                                                  "return np.array(S).reshape(-1, width)"),
         right="import numpy as np\n\ndef as_grid(S, width):\n"
               "    return np.array([S[i:i + width] for i in range(0, len(S), width)])",
         wrong="import numpy as np\n\ndef as_grid(S, width):\n"
               "    return np.array(S).reshape(width, -1)",
         test='''import numpy as np
assert np.array_equal(as_grid((1, 2, 3, 0), 2), np.array([[1, 2], [3, 0]]))
np.testing.assert_array_equal(as_grid((1, 2, 3, 4, 5, 0), 3), [[1, 2, 3], [4, 5, 0]])'''),

    Kind("partial_credit", points=2,
         solution=_sol('def out_of_place(S, goal):\n    """Tiles (not the blank) out of '
                       'place."""', "return sum(1 for a, b in zip(S, goal) if a and a != b)"),
         right="def out_of_place(S, goal):\n    return len([a for a, b in zip(S, goal) "
               "if a != 0 and a != b])",
         wrong="def out_of_place(S, goal):\n    return sum(1 for a, b in zip(S, goal) "
               "if a != b)",
         test='''score = 0
if out_of_place((1, 2, 3, 0), (1, 2, 3, 0)) == 0:
    score += 1
if out_of_place((1, 2, 0, 3), (1, 2, 3, 0)) == 1:
    score += 1
score'''),

    Kind("identity",
         solution=_sol('def trail(S, moves):\n    """The boards from S on (S itself first), '
                       'one per move of the blank (2 x 2)."""', '''\
path = [S]
for d in moves:
    i = path[-1].index(0)
    j = i + {"U": -2, "D": 2, "L": -1, "R": 1}[d]
    T = list(path[-1])
    T[i], T[j] = T[j], 0
    path.append(tuple(T))
return path'''),
         right='''def trail(S, moves):
    path = [S]
    for d in moves:
        B = list(path[-1])
        i = B.index(0)
        j = i + {"U": -2, "D": 2, "L": -1, "R": 1}[d]
        B[i], B[j] = B[j], B[i]
        path.append(tuple(B))
    return path''',
         wrong='''def trail(S, moves):
    path = [tuple(list(S))]
    for d in moves:
        B = list(path[-1])
        i = B.index(0)
        j = i + {"U": -2, "D": 2, "L": -1, "R": 1}[d]
        B[i], B[j] = B[j], B[i]
        path.append(tuple(B))
    return path''',
         test='''S = (0, 1, 2, 3)
p = trail(S, "RD")
assert p[0] is S, "the trail starts with the board itself"
assert p[-1] == (1, 3, 2, 0)'''),
]

#: the kinds whose test the kit's generate step may refuse (what truly cannot cross the
#: wall), with what its refusal must tell the author to write instead. `type(x) is C` with
#: the student's class: the student's objects cross as handles (that is what keeps the
#: student's code from changing a verdict), so their type is the handle's.
MAY_BE_REFUSED = {"type_identity": "isinstance("}


def source_notebook(kinds: list[Kind] = KINDS) -> nbformat.NotebookNode:
    """One notebook: a given cell, then each kind's prose, answer cell and test cell."""
    cells = [cell("markdown", "# A corpus of plain nbgrader tests"),
             cell("code", GIVEN.rstrip("\n"), grade_id="given", locked=True)]
    for k in kinds:
        cells += [cell("markdown", f"## {k.name} ({k.points} point{'s' * (k.points > 1)})"),
                  cell("code", k.solution, grade_id=f"{k.name}_solution", solution=True),
                  cell("code", k.test, grade_id=f"{k.name}_tests", grade=True, locked=True,
                       points=k.points)]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def _new_course(root: Path, kit: bool, kinds: list[Kind]) -> None:
    folder = root / "source" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(source_notebook(kinds), folder / f"{ASSIGNMENT}.ipynb")
    if kit:
        shutil.copy(Path(__file__).parents[1] / "notebooks" / "nbgrader_config.py", root)


def _answers(kinds: list[Kind], which: str) -> dict[str, str]:
    return {f"{k.name}_solution": getattr(k, which) for k in kinds}


def _grade(root: Path, api: object, kinds: list[Kind]) -> dict[str, tuple[float, float]]:
    """Autograde the right and the wrong answers: test cell -> (right, wrong) score."""
    release = root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    scores: dict[str, list[float]] = {}
    for student in ("right", "wrong"):
        submit(root, ASSIGNMENT, student, release, _answers(kinds, student))
        result = api.autograde(ASSIGNMENT, student)  # type: ignore[attr-defined]
        assert result["success"], result.get("error") or result["log"]
        for grade_id, score in auto_scores(root, ASSIGNMENT, student).items():
            scores.setdefault(grade_id, []).append(score)
    return {k.name: tuple(scores[f"{k.name}_tests"]) for k in kinds}  # type: ignore[misc]


def grade_plain(root: Path, kinds: list[Kind] = KINDS) -> dict[str, tuple[float, float]]:
    """Plain nbgrader (no configuration but the course folder): kind -> (right, wrong)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    from puzzlekit.course.course_setup import environment_first_on_path
    environment_first_on_path()     # nbgrader runs `alembic` by name: this environment's
    _new_course(root, False, kinds)
    config = Config()
    config.CourseDirectory.root = str(root)
    config.NbGraderAPI.timezone = "UTC"
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    result = api.generate_assignment(ASSIGNMENT)
    assert result["success"], result.get("error") or result["log"]
    return _grade(root, api, kinds)


def grade_kit(root: Path, kinds: list[Kind] = KINDS
              ) -> tuple[dict[str, tuple[float, float]], dict[str, str]]:
    """The course's config: (kind -> (right, wrong), kind -> the generate step's refusal).

    A refused kind is taken out of the source and the assignment generated again, so the
    others are still graded."""
    refused: dict[str, str] = {}
    _new_course(root, True, kinds)
    path = root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    while True:
        result = course_api(root).generate_assignment(ASSIGNMENT, force=True)
        if result["success"]:
            break
        said = result.get("error", "") + result.get("log", "")
        named = {k.name: _paragraph(said, f"{k.name}_tests") for k in kinds
                 if k.name not in refused and f"test cell {k.name}_tests" in said}
        assert named, said
        refused.update(named)
        nbformat.write(source_notebook([k for k in kinds if k.name not in refused]), path)
    left = [k for k in kinds if k.name not in refused]
    return _grade(root, course_api(root), left), refused


def _paragraph(said: str, grade_id: str) -> str:
    """The refusal's paragraph about one test cell, on one line."""
    said = " ".join(said.split())
    found = re.search(rf"test cell {grade_id}\b.*?"
                      rf"(?= {ASSIGNMENT}, test cell | \[[A-Z]+\] |\Z)", said)
    return found.group(0).strip() if found else said


def table(plain: dict[str, tuple[float, float]], kit: dict[str, tuple[float, float]],
          refused: dict[str, str]) -> str:
    """kind -> plain (right/wrong) -> kit (right/wrong or the refusal), as text."""
    rows = [f"{'kind':<20} {'points':>6} {'plain':>9}  kit", "-" * 78]
    for k in KINDS:
        p = plain.get(k.name)
        pt = f"{p[0]:g}/{p[1]:g}" if p else "-"
        if k.name in refused:
            kt = "refused: " + refused[k.name][:120]
        elif k.name in kit:
            kt = f"{kit[k.name][0]:g}/{kit[k.name][1]:g}"
            kt += "" if kit[k.name] == p else "   DIFFERS"
        else:
            kt = "-"
        rows.append(f"{k.name:<20} {k.points:>6} {pt:>9}  {kt}")
    return "\n".join(rows)


if __name__ == "__main__":
    import time
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        plain = grade_plain(Path(tmp) / "plain")
        t1 = time.perf_counter()
        kit, refused = grade_kit(Path(tmp) / "kit")
        t2 = time.perf_counter()
    print(table(plain, kit, refused))
    if "-v" in sys.argv[1:]:
        print("\nThe refusals in full:\n" + "\n\n".join(refused.values()))
    print(f"plain nbgrader {t1 - t0:.0f} s, the kit {t2 - t1:.0f} s")
