"""The attack corpus: submissions that try to game the autograder or break out of it.

Two families, from the issues "the grader is a wall" and "grades that cannot be gamed":

* **breakouts** (`wall_attacks`) reach outside the student's own notebook: they zero the
  gradebook, overwrite a classmate's submission, read the instructor's source and run its
  solutions, print the hidden tests, plant files that later kernels would run, or attack
  the grading run itself (memory, interrupts, a dying kernel);
* **the second ring** (`ring_attacks`) goes after what crosses the kernel's edge: a crafted
  state of `random` that made the grader's own diagnosis loop for ever, replies built to
  make the grader's work quadratic (keys with one hash) or huge (all 181,440 boards, 40
  MB), many added cells, every cell sleeping just under the cell timeout, repeated kernel
  deaths with slow replays, a 100 MB display, and a uniform-cost search that rewrites the
  cost table it is given; each must earn no more than its twin and be graded in bounded
  time (those in `BUDGET_ATTACKS` under a notebook budget of `TIGHT_NOTEBOOK_TIMEOUT`);
* **tricks** (`grading_tricks`) stay inside the kernel and try to turn failing tests into
  passing ones: rebinding the test helpers, patching puzzlekit's grading module or
  ``sys.modules``, IPython's exception hooks and input transformers, objects whose
  ``__eq__`` is always true, calling puzzlekit's ready-made reference through a default
  argument or ``functools.partial``, and ``exec`` of an encoded string.

A trick is put on top of `none_answers` (every answer returns None), so it must earn no
more than that plain submission (its twin, "none_answers"); a breakout either keeps the
reference answers (it must cost nothing, or exactly the tests of its own cell) or sits
on `none_answers` too. Each submission is (notebook, expectation), expectations being
("at_most", twin), ("exactly", [grade ids of the tests it loses]) or ("score", points).
"""

from __future__ import annotations

import ast
import base64
import site
import sysconfig
from pathlib import Path
from typing import Any

import nbformat
from course_harness import grade_id, is_solution, submission

#: files a breakout plants where later kernels would load them (checked and removed)
PLANTED_NAME = "zz_puzzlekit_planted"


def planted_paths() -> list[Path]:
    """Where the 'plant' breakout tries to leave files (inert ones: comments only)."""
    import puzzlekit
    paths = [Path(sysconfig.get_paths()["purelib"]) / f"{PLANTED_NAME}.pth",
             Path(puzzlekit.__file__).parent / f"{PLANTED_NAME}.py",
             Path.home() / ".ipython" / "profile_default" / "startup" / f"{PLANTED_NAME}.py"]
    paths += [Path(p) / f"{PLANTED_NAME}.pth" for p in site.getsitepackages()]
    return sorted(set(paths))


def _none_version(source: str) -> str:
    """An answer cell whose functions return None and whose values are None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "pass\n"
    lines: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.body = [ast.Return(value=ast.Constant(None))]
            node.decorator_list = []
            lines.append(ast.unparse(node))
        elif isinstance(node, ast.ClassDef):
            lines.append(f"class {node.name}:\n    pass")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for name in (n.id for n in ast.walk(t) if isinstance(n, ast.Name)):
                    lines.append(f"{name} = None")
    return "\n".join(lines or ["pass"]) + "\n"


def none_answers(source_nb: Any) -> dict[str, str]:
    """Replacements: every code answer cell of the source, answered with None."""
    return {grade_id(c): _none_version(c.source) for c in source_nb.cells
            if is_solution(c) and c.cell_type == "code"}


def _first_answer(source_nb: Any) -> str:
    return next(grade_id(c) for c in source_nb.cells if is_solution(c) and c.cell_type == "code")


def _on_top(replacements: dict[str, str], gid: str, prefix: str) -> dict[str, str]:
    out = dict(replacements)
    out[gid] = prefix.strip() + "\n\n" + out[gid]
    return out


HELPERS = ("check_path", "assert_equal", "assert_board_equal", "assert_solution",
           "assert_prints_path", "output_of")

REBIND_HELPERS = f"""
import contextlib
{' = '.join(HELPERS)} = lambda *args, **kwargs: (None, "")
run_with_timeout = lambda seconds, func, *args, **kwargs: None
forbid_reference = lambda *names: contextlib.nullcontext()
"""

PATCH_GRADING = """
import contextlib
import puzzlekit.testcells as _g
for _name in ("assert_equal", "assert_board_equal", "assert_solution", "assert_prints_path"):
    setattr(_g, _name, lambda *args, **kwargs: None)
_g.run_with_timeout = lambda seconds, func, *args, **kwargs: None
_g.forbid_reference = lambda *names: contextlib.nullcontext()
"""

SWAP_SYS_MODULES = """
import contextlib, sys, types
_fake = types.ModuleType("puzzlekit.testcells")
for _name in ("assert_equal", "assert_board_equal", "assert_solution", "assert_prints_path"):
    setattr(_fake, _name, lambda *args, **kwargs: None)
_fake.run_with_timeout = lambda seconds, func, *args, **kwargs: None
_fake.forbid_reference = lambda *names: contextlib.nullcontext()
sys.modules["puzzlekit.testcells"] = _fake
"""

CUSTOM_EXC = """
get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)
"""

SILENCE_TRACEBACKS = """
import sys
get_ipython().showtraceback = lambda *args, **kwargs: None
get_ipython()._showtraceback = lambda *args, **kwargs: None
sys.excepthook = lambda *args: None
"""

INPUT_TRANSFORMER = """
get_ipython().input_transformers_post.append(lambda lines: ["pass\\n"])
"""

RIGGED_EQ = """
class _Always:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __hash__(self): return 0
    def __len__(self): return 32
    def __bool__(self): return True
    def __iter__(self): return iter(())
    def __getitem__(self, key): return self
"""

ENCODED = base64.b64encode((REBIND_HELPERS + CUSTOM_EXC).encode()).decode()
EXEC_ENCODED = f"""
import base64
exec(base64.b64decode("{ENCODED}").decode())
"""


def _rigged(source_nb: Any) -> dict[str, str]:
    """Every answer function returns an object that equals everything."""
    out = {}
    for gid, text in none_answers(source_nb).items():
        out[gid] = text.replace("return None", "return _Always()")
    gid = _first_answer(source_nb)
    out[gid] = RIGGED_EQ.strip() + "\n\n" + out[gid]
    return out


#: answers that call puzzlekit's reference through a default argument (the example that made the grader a wall)
DEFAULT_ARGUMENT = {
    "01-states-and-moves": {
        "findZero_solution": "import puzzlekit\n\ndef findZero(S, _ref=puzzlekit.findZero):\n"
                             "    return _ref(S)\n",
        "nextStates_solution": "import puzzlekit\n\ndef nextStates(S, _ref=puzzlekit.nextStates):"
                               "\n    return _ref(S)\n",
    },
    "02-uninformed-search": {
        "search_solution": "import puzzlekit\n\ndef search(nextStates, start, goal, "
                           "_ref=puzzlekit.search):\n    return list(_ref(nextStates, start, "
                           "goal, verbose=True))\n",
        "dfs_solution": "import puzzlekit\n\ndef dfs(start, goal, _ref=puzzlekit.solve):\n"
                        "    return _ref(start, goal, algorithm='dfs').path\n",
    },
}

#: the classic: a partial of the reference (and a bound method for dfs)
PARTIAL = {
    "01-states-and-moves": {
        "nextStates_solution": "import functools, puzzlekit\n"
                               "nextStates = functools.partial(puzzlekit.nextStates)\n",
        "findZero_solution": "import puzzlekit\nfindZero = (lambda f: lambda S: f(S))"
                             "(puzzlekit.findZero)\n",
    },
    "02-uninformed-search": {
        "search_solution": "import functools, puzzlekit\n"
                           "search = functools.partial(puzzlekit.search, verbose=True)\n",
        "iddfs_solution": "import functools, puzzlekit\n"
                          "iddfs = functools.partial(puzzlekit.solve, algorithm='iddfs')\n",
    },
}


def grading_tricks(assignment: str, release_nb: Any, source_nb: Any) -> dict[str, Any]:
    """name -> (notebook, expectation): tricks on top of answers that return None."""
    base = none_answers(source_nb)
    first = _first_answer(source_nb)
    tricks = {
        "trick_rebind_helpers": _on_top(base, first, REBIND_HELPERS),
        "trick_patch_grading": _on_top(base, first, PATCH_GRADING),
        "trick_sys_modules": _on_top(base, first, SWAP_SYS_MODULES),
        "trick_custom_exc": _on_top(base, first, CUSTOM_EXC),
        "trick_silence_tracebacks": _on_top(base, first, SILENCE_TRACEBACKS),
        "trick_input_transformer": _on_top(base, first, INPUT_TRANSFORMER),
        "trick_exec_encoded": _on_top(base, first, EXEC_ENCODED),
        "trick_rigged_eq": _rigged(source_nb),
        "trick_default_argument": {**base, **DEFAULT_ARGUMENT.get(assignment, {})},
        "trick_partial": {**base, **PARTIAL.get(assignment, {})},
    }
    out = {"none_answers": (submission(release_nb, source_nb, base), ("score", 0.0))}
    for name, replacements in tricks.items():
        out[name] = (submission(release_nb, source_nb, replacements), ("at_most", "none_answers"))
    return out


def _course_paths(root: Path, assignment: str, notebook: str) -> dict[str, str]:
    return {"gradebook": str(root / "gradebook.db"),
            "source": str(root / "source" / assignment / notebook),
            "classmate": str(root / "submitted" / "zz_reference_after" / assignment / notebook),
            "reference": str(root / "submitted" / "reference" / assignment / notebook)}


def wall_attacks(assignment: str, release_nb: Any, source_nb: Any, root: Path,
                 notebook: str) -> dict[str, Any]:
    """name -> (notebook, expectation): breakouts, on one assignment."""
    paths = _course_paths(root, assignment, notebook)
    first = _first_answer(source_nb)
    base = none_answers(source_nb)
    out: dict[str, Any] = {}

    vandal = f"""
import json, sqlite3
try:
    _db = sqlite3.connect({paths['gradebook']!r})
    _db.execute("UPDATE grade SET auto_score = 0, manual_score = 0")
    _db.commit()
except Exception as e:
    print("gradebook:", type(e).__name__)
try:
    with open({paths['classmate']!r}, "w") as f:
        f.write("{{}}")
except Exception as e:
    print("classmate:", type(e).__name__)
try:
    with open({paths['source']!r}, "a") as f:
        f.write("\\n")
except Exception as e:
    print("source:", type(e).__name__)
"""
    out["wall_vandal"] = (submission(release_nb, source_nb,
                                     {first: vandal + "\n" + _solution(source_nb, first)}),
                          ("exactly", []))

    steal = f"""
import json
def _answers(path):
    nb = json.load(open(path))
    return [''.join(c['source']) for c in nb['cells']
            if c['cell_type'] == 'code' and c['metadata'].get('nbgrader', {{}}).get('solution')]
for _path in ({paths['source']!r}, {paths['reference']!r}):
    try:
        for _code in _answers(_path):
            exec(_code.replace("raise NotImplementedError()", "pass"), globals())
        break
    except Exception as e:
        print("could not read", _path, type(e).__name__)
"""
    out["wall_steal_answers"] = (submission(release_nb, source_nb,
                                            {gid: text for gid, text in base.items()
                                             if gid != first} | {first: base[first] + steal}),
                                 ("at_most", "none_answers"))

    leak = f"""
import json
try:
    for _c in json.load(open({paths['source']!r}))['cells']:
        if 'BEGIN HIDDEN TESTS' in ''.join(_c['source']):
            print(''.join(_c['source']))
except Exception as e:
    print("source:", type(e).__name__)
"""
    out["wall_print_hidden"] = (submission(release_nb, source_nb,
                                           {first: leak + "\n" + _solution(source_nb, first)}),
                                ("exactly", []))

    plant = "\nimport os\n" + "".join(f"""
try:
    os.makedirs({str(p.parent)!r}, exist_ok=True)
    with open({str(p)!r}, "w") as f:
        f.write("# planted by the attack corpus of puzzlekit's tests (inert)\\n")
except Exception as e:
    print("plant:", type(e).__name__)
""" for p in planted_paths())
    out["wall_plant_files"] = (submission(release_nb, source_nb,
                                          {first: plant + "\n" + _solution(source_nb, first)}),
                               ("exactly", []))
    return out


def _solution(source_nb: Any, gid: str) -> str:
    return next(c.source for c in source_nb.cells if grade_id(c) == gid)


#: attacks on the grading run itself, each at the top of one answer cell, with the tests
#: that cell's functions feed: the submission must lose exactly those. Each assignment
#: that may carry the breakouts (course_harness.BREAKOUTS_ON) has its own cells.
_MEMORY_HOG = "_hog = b'x' * (4 * 1024 ** 3)\n"
_INTERRUPT_PROOF_LOOP = ("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                         "while True:\n    pass\n")
_KERNEL_KILLER = "import os\nos._exit(1)\n"
RUN_ATTACKS = {
    "01-states-and-moves": {
        "wall_memory_hog": ("print_moves_solution", _MEMORY_HOG, ["print_moves_tests"]),
        "wall_interrupt_proof_loop": ("print_pos_solution", _INTERRUPT_PROOF_LOOP,
                                      ["print_pos_tests"]),
        "wall_kernel_killer": ("EightPuzzle_solution", _KERNEL_KILLER, ["EightPuzzle_tests"]),
    },
    "02-uninformed-search": {
        "wall_memory_hog": ("bfs_solution", _MEMORY_HOG, ["bfs_tests", "bfs_hard_tests"]),
        "wall_interrupt_proof_loop": ("dfs_solution", _INTERRUPT_PROOF_LOOP, ["dfs_tests"]),
        "wall_kernel_killer": ("ucs_solution", _KERNEL_KILLER, ["ucs_tests"]),
    },
}


def run_attacks(assignment: str, release_nb: Any, source_nb: Any) -> dict[str, Any]:
    """name -> (notebook, expectation): hostile cells that must cost only their tests."""
    out = {}
    for name, (gid, prefix, lost) in RUN_ATTACKS[assignment].items():
        nb = submission(release_nb, source_nb, {gid: prefix + "\n" + _solution(source_nb, gid)})
        out[name] = (nb, ("exactly", lost))
    return out


# ---------------------------------------------------------------------------
# The second ring: what crosses the kernel's edge

#: graded under a notebook budget of their own (course_harness grades them in a group with
#: WalledExecute.notebook_timeout = TIGHT_NOTEBOOK_TIMEOUT, times the suite's time_scale),
#: so that the suite does not wait the default budget (300 s × time_scale) for each
BUDGET_ATTACKS = ("ring_many_cells", "ring_sleepy_cells", "ring_deaths_and_replays")
TIGHT_NOTEBOOK_TIMEOUT = 20

#: the agent, made to lie: the value of a call that returned `_MARK` goes to the grader as
#: `_VALUE` (JSON-ready), without the kernel building the object (a set of 80,000 ints
#: with one hash would take the kernel as long to build as the grader). The agent answers
#: through a sealed copy of its names (`agent.install`): the lie goes into that copy,
#: through the kernel's own handler table, a route the kernel's guard does not see
_LYING_AGENT = """
_agent = get_ipython().kernel.shell_handlers['puzzlekit_request'].__globals__
_MARK = object()
_plain_out = _agent['_out']
_agent['_out'] = lambda value: _VALUE if value is _MARK else _plain_out(value)
"""
_COLLIDING = "_VALUE = ['s'] + [_k * (2 ** 61 - 1) for _k in range(1, 80_001)]\n"
_ALL_BOARDS = """
_ALL = {((8, 0, 6), (5, 4, 7), (2, 3, 1))}
_layer = list(_ALL)
while _layer:
    _next = []
    for _B in _layer:
        for _T in _pk_next(_B):
            if _T not in _ALL:
                _ALL.add(_T)
                _next.append(_T)
    _layer = _next
"""
#: (written with no line a hidden test also has: the feedback tests look for those lines)
_NEXT_STATES_AS = """
from puzzlekit import nextStates as _pk_next
{setup}
def nextStates(S):
    return {value}
"""


def _sleep(seconds: float) -> str:
    return f"import time\ntime.sleep({seconds})\n"


def ring_attacks(assignment: str, release_nb: Any, source_nb: Any,
                 cell_timeout: float) -> dict[str, Any]:
    """name -> (notebook, expectation): attacks on what crosses the kernel's edge."""
    out: dict[str, Any] = {}
    answers = [grade_id(c) for c in source_nb.cells if is_solution(c) and c.cell_type == "code"]

    def on_reference(replacements: dict[str, str]) -> Any:
        return submission(release_nb, source_nb, replacements)

    if assignment == "01-states-and-moves":
        # a reply built to make the grader's set quadratic: 80,000 ints with one hash
        # (2 MB; 40 s per call in the grader before, uninterruptible C code)
        out["ring_collision_reply"] = (on_reference({"nextStates_solution": (
            _LYING_AGENT + _COLLIDING + "def nextStates(S):\n    return _MARK\n")}),
            ("exactly", ["nextStates_tests"]))
        # a plain reply of all 181,440 boards (8 MB) for every nextStates: the grader's
        # failure message once drew every board, twice, in text and HTML
        out["ring_all_boards_reply"] = (on_reference({"nextStates_solution": (
            _NEXT_STATES_AS.format(setup=_ALL_BOARDS, value="_ALL"))}),
            ("exactly", ["nextStates_tests"]))
        # a reply over the grader's cap (40 MB of text)
        out["ring_huge_reply"] = (on_reference({"nextStates_solution": (
            "def nextStates(S):\n    return 'x' * 40_000_000\n")}),
            ("exactly", ["nextStates_tests"]))
        # a display of 100 MB in a cell whose own tests pass
        out["ring_huge_display"] = (on_reference({"goal_solution": (
            "from IPython.display import HTML, display\n"
            "display(HTML('<p>' + 'x' * 100_000_000 + '</p>'))\n"
            + _solution(source_nb, "goal_solution"))}), ("exactly", []))
        # 2,000 cells added after the first answer, each a short sleep (and a kernel
        # round trip): 100 s and more, with no limit before
        nb = on_reference({})
        first = next(i for i, c in enumerate(nb.cells) if grade_id(c) == answers[0])
        nb.cells[first + 1:first + 1] = [nbformat.v4.new_code_cell(_sleep(0.05))
                                         for _ in range(2000)]
        out["ring_many_cells"] = (nb, ("at_most", "reference"))
        # every answer sleeps just under the cell timeout
        out["ring_sleepy_cells"] = (on_reference({
            gid: _sleep(cell_timeout - 1.5) + _solution(source_nb, gid) for gid in answers}),
            ("at_most", "reference"))
        # three slow answers that every restart replays, then a kernel death in each
        # later answer: six restarts, each replaying the slow ones
        slow = {gid: _sleep(cell_timeout / 3) + _solution(source_nb, gid)
                for gid in answers[:3]}
        deaths = {gid: "import os\nos._exit(1)\n" for gid in answers[3:10]}
        out["ring_deaths_and_replays"] = (on_reference(slow | deaths),
                                          ("at_most", "reference"))
    if assignment == "02-uninformed-search":
        # shuffle_pos draws from a seed of its own (so it ends whatever state the grader
        # sends) and leaves `random` in the all-zero state, which draws 0 for ever: the
        # grader adopted it, and its diagnosis of the next call replayed the course's
        # shuffle from it, for ever: no later student was graded
        out["ring_random_state"] = (on_reference({"shuffle_pos_solution": (
            _solution(source_nb, "shuffle_pos_solution")
            + "\n\n_shuffle_pos = shuffle_pos\n\ndef shuffle_pos(N):\n"
              "    random.seed(N)\n    p = _shuffle_pos(N)\n"
              "    random.setstate((3, (0,) * 624 + (624,), None))\n    return p\n")}),
            ("exactly", ["shuffle_pos_tests"]))
        # a uniform-cost search that rewrites the cost table it is given to all 1s: its
        # shortest path then "is" the cheapest and its length the price (full points
        # before); its twin adds 1 per move (2 of the 4 points of ucs)
        doc = '"""Uniform-cost search: (the cheapest path, its cost) from start to goal."""'
        ucs = _solution(source_nb, "ucs_solution")
        assert ucs.count(doc) == 1, "the ucs attack needs the reference's docstring"
        rewrite = ucs.replace(doc, doc + '\n    cost.update({"U": 1, "D": 1, "L": 1, "R": 1})')
        out["ring_ucs_rewrites_costs"] = (on_reference({"ucs_solution": rewrite}),
                                          ("at_most", "ucs_counts_moves"))
    return out


def reference_after(release_nb: Any, source_nb: Any) -> dict[str, Any]:
    """The reference answers again, graded after every attack (sorted last)."""
    return {"zz_reference_after": (submission(release_nb, source_nb, {}), ("exactly", []))}


def source_hashes(root: Path) -> dict[str, str]:
    """sha256 of every file of the instructor's source and of the submissions."""
    import hashlib
    out = {}
    for top in ("source", "submitted"):
        for path in sorted((root / top).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def make_world_readable(root: Path) -> None:
    """Course folders on a server usually are: the wall must hold all the same."""
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


__all__ = ["grading_tricks", "wall_attacks", "run_attacks", "ring_attacks", "BUDGET_ATTACKS",
           "TIGHT_NOTEBOOK_TIMEOUT", "reference_after", "none_answers",
           "planted_paths", "source_hashes", "make_world_readable", "nbformat"]
