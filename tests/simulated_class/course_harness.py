"""The course harness: builds one generated nbgrader course for all pipeline tests.

A session fixture copies ``notebooks/`` to a temporary course root, generates every
assignment in ``notebooks/source/``, submits the simulated students of
``tests/simulated_class/students_<NN>.py`` (plus "reference", "untouched" and the hostile ones made
here), autogrades them all, generates feedback and exports the grades. The tests then only
read what happened. nbgrader's own exit status says little (validate and autograde succeed
even when tests fail), so scores come from the gradebook.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib.util
import logging
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

REPO = Path(__file__).parents[2]
COURSE = REPO / "notebooks"
HERE = Path(__file__).parent

#: Per-cell timeout for the tests: short, with room for a busy machine (the course uses 30 s).
CELL_TIMEOUT = 15
#: WalledExecute.time_scale of the suite's course: the shipped 1 (see course_config).
TIME_SCALE = 1.0
#: Assignments on which the hostile students are tried (the first one, to save time).
HOSTILE_ON = 1
#: Assignments on which the attack corpus (tests/simulated_class/attacks.py) is tried: the tricks
#: on both; the breakouts on the first, the quickest to grade (a breakout is an answer
#: cell with something hostile on top, whatever the exercise; attacks.RUN_ATTACKS also
#: knows the cells of the second, the most searched one, should they move back).
TRICKS_ON = ("01-states-and-moves", "02-uninformed-search")
BREAKOUTS_ON = "01-states-and-moves"
#: Local worker processes that autograde the course: one per core of a CI machine, or one
#: when pytest-xdist already runs tests on the other cores (`make test`). More processes
#: than cores would slow every kernel down, and the hidden tests give a student's search
#: a few seconds of wall-clock time: a right but slowish answer must not time out.
GRADE_WORKERS = 1 if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1 else 2
#: Graded after every other submission of its assignment: the reference after the attacks.
GRADED_LAST = ("zz_reference_after",)
#: Assignments on which the second ring's attacks are tried (attacks.ring_attacks).
RING_ON = ("01-states-and-moves", "02-uninformed-search")

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def assignments() -> list[str]:
    """Every assignment of the course: a folder of notebooks/source with a notebook.

    ``PUZZLEKIT_ASSIGNMENTS=01-states-and-moves,03-informed-search`` limits the run to some
    (handy while writing an exercise).
    """
    source = COURSE / "source"
    found = sorted(p.name for p in source.iterdir()
                   if p.is_dir() and any(p.glob("*.ipynb"))) if source.is_dir() else []
    only = [a.strip() for a in os.environ.get("PUZZLEKIT_ASSIGNMENTS", "").split(",") if a.strip()]
    return [a for a in found if a in only] if only else found


@functools.cache
def students_module(assignment: str) -> ModuleType | None:
    """tests/simulated_class/students_<NN>.py for assignment '<NN>-...', if it exists."""
    path = HERE / f"students_{assignment[:2]}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"course_students_{assignment[:2]}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------
# Notebooks: cells by grade id, solutions, stubs, hidden tests

def nbgrader_meta(cell: Any) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def grade_id(cell: Any) -> str | None:
    return nbgrader_meta(cell).get("grade_id")


def is_solution(cell: Any) -> bool:
    return bool(nbgrader_meta(cell).get("solution"))


def is_test(cell: Any) -> bool:
    meta = nbgrader_meta(cell)
    return bool(meta.get("grade")) and not meta.get("solution") and cell.cell_type == "code"


def between(source: str, begin: str, end: str) -> tuple[list[str], list[str]]:
    """(lines between the markers `begin` and `end`, all the other lines but the markers)."""
    inside, outside, within = [], [], False
    for line in source.splitlines():
        if line.strip() == begin:
            within = True
        elif line.strip() == end and within:
            within = False
        else:
            (inside if within else outside).append(line)
    return inside, outside


def hidden_lines(source: str) -> list[str]:
    """The lines of `source` between the hidden-test markers."""
    return between(source, BEGIN_HIDDEN, END_HIDDEN)[0]


def solution_lines(source: str) -> list[str]:
    """The lines of `source` between the solution markers."""
    return between(source, BEGIN_SOLUTION, END_SOLUTION)[0]


MARKERS = {hidden_lines: (BEGIN_HIDDEN, END_HIDDEN), solution_lines: (BEGIN_SOLUTION, END_SOLUTION)}


def secret_snippets(source_nb: Any, kind: Callable[[str], list[str]],
                    min_len: int = 12) -> list[str]:
    """Stripped secret lines (hidden tests or solutions) that appear nowhere else in the
    notebook, long enough to be telling."""
    begin, end = MARKERS[kind]
    secret: set[str] = set()
    public: list[str] = []
    for cell in source_nb.cells:
        inside, outside = between(cell.source, begin, end)
        secret |= {line.strip() for line in inside}
        public += outside
    text = "\n".join(public)
    return sorted(s for s in secret
                  if len(s) >= min_len and not s.startswith("#") and s not in text)


def defined_names(sources: list[str]) -> set[str]:
    """Top-level names that these code cells define (functions, classes, variables)."""
    names: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def notebook_name(assignment: str) -> str:
    return next((COURSE / "source" / assignment).glob("*.ipynb")).name


# ---------------------------------------------------------------------------
# Submissions

def submission(release_nb: Any, source_nb: Any, replacements: dict[str, str]) -> Any:
    """The release with every solution cell filled in from the source, then `replacements`
    (grade id -> new source) applied: what a student hands in."""
    nb = nbformat.from_dict(release_nb)
    solutions = {grade_id(c): c.source for c in source_nb.cells if is_solution(c)}
    unknown = set(replacements) - {grade_id(c) for c in nb.cells}
    assert not unknown, f"replacements for cells that do not exist: {sorted(unknown)}"
    for cell in nb.cells:
        gid = grade_id(cell)
        if gid in replacements:
            cell.source = replacements[gid]
        elif is_solution(cell) and gid in solutions:
            cell.source = solutions[gid]
    return nb


def untouched(release_nb: Any) -> Any:
    return nbformat.from_dict(release_nb)


def first_solution_code_cell(nb: Any) -> Any:
    return next(c for c in nb.cells if is_solution(c) and c.cell_type == "code")


def test_cells(nb: Any) -> list[Any]:
    return [c for c in nb.cells if is_test(c)]


def hostile_students(release_nb: Any, source_nb: Any) -> dict[str, tuple[Any, Callable]]:
    """Hostile submissions: name -> (notebook, expectation on (score, max_score))."""
    ref = submission(release_nb, source_nb, {})
    out: dict[str, tuple[Any, Callable]] = {}

    # An endless loop at the top of the first solution cell: the cell times out, grading
    # goes on, and the cells that need what it defines fail.
    nb = nbformat.from_dict(ref)
    cell = first_solution_code_cell(nb)
    cell.source = "while True:\n    pass\n" + cell.source
    out["hostile_endless_loop"] = (nb, lambda s, m: 0 < s < m)

    # A kernel that exits in the middle: no crash of the grader, no points after it.
    nb = nbformat.from_dict(ref)
    cells = [c for c in nb.cells if is_solution(c) and c.cell_type == "code"]
    cells[len(cells) // 2].source = "import os\nos._exit(1)\n"
    out["hostile_kernel_exit"] = (nb, lambda s, m: s < m)

    # Visible tests edited to pass, on top of an untouched (stubbed) solution: restored.
    nb = untouched(release_nb)
    for cell in test_cells(nb):
        cell.source = "pass"
    out["hostile_edited_tests"] = (nb, lambda s, m: s == 0)

    # Test cells deleted from a correct submission: re-added, and they pass.
    nb = nbformat.from_dict(ref)
    nb.cells = [c for c in nb.cells if not is_test(c)]
    out["hostile_deleted_tests"] = (nb, lambda s, m: s == m)

    # Test cells deleted from an untouched submission: re-added, and they fail.
    nb = untouched(release_nb)
    nb.cells = [c for c in nb.cells if not is_test(c)]
    out["hostile_deleted_tests_stub"] = (nb, lambda s, m: s == 0)
    return out


# ---------------------------------------------------------------------------
# The shared course

@dataclass
class Graded:
    score: float
    max_score: float
    seconds: float
    log: str = ""
    cells: dict[str, float] = field(default_factory=dict)   # grade id -> automatic score


@dataclass
class Assignment:
    name: str
    notebook: str
    source_nb: Any
    release_nb: Any
    source_validation: dict
    release_validation: dict
    solution_names: set[str]
    #: student -> {grade id of a test cell: the points it loses}; other cells earn all
    loses: dict[str, dict[str, float]] = field(default_factory=dict)
    hostile: dict[str, Callable] = field(default_factory=dict)
    attacks: dict[str, tuple] = field(default_factory=dict)
    graded: dict[str, Graded] = field(default_factory=dict)

    def points(self, grade_ids: list[str]) -> float:
        """The automatic points of these test cells."""
        return sum(float(nbgrader_meta(c).get("points", 0)) for c in self.source_nb.cells
                   if grade_id(c) in grade_ids)

    def expected_cells(self, student: str) -> dict[str, float]:
        """What each test cell should give `student`: its points less what it loses."""
        lost = self.loses[student]
        return {grade_id(c): float(nbgrader_meta(c).get("points", 0)) - lost.get(grade_id(c), 0)
                for c in test_cells(self.source_nb)}


@dataclass
class Course:
    root: Path
    api: Any
    config: Any
    assignments: dict[str, Assignment]
    feedback_log: dict[str, dict]
    csv_path: Path
    timings: dict[str, float]
    hashes_before: dict[str, str] = field(default_factory=dict)
    hashes_after: dict[str, str] = field(default_factory=dict)
    planted: list[str] = field(default_factory=list)

    def cell_errors(self, assignment: str, student: str, grade_ids: Any) -> str:
        """What the autograded test cells `grade_ids` said (their errors and the kit's
        notes), for a failing test's message: a score alone does not say why."""
        a = self.assignments[assignment]
        path = self.root / "autograded" / student / assignment / a.notebook
        if not path.exists():
            return f"(no autograded notebook at {path})"
        lines = []
        for cell in nbformat.read(path, as_version=4).cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id not in grade_ids:
                continue
            for o in cell.get("outputs", []):
                if o.output_type == "error":
                    lines.append(f"{grade_id}: {o.ename}: {o.evalue[:600]}")
                elif o.output_type in ("stream", "execute_result", "display_data"):
                    data = o.get("text") or o.get("data", {}).get("text/plain", "")
                    lines.append(f"{grade_id}: {''.join(data)[:300]}")
        return "\n".join(lines)

    def feedback_html(self, assignment: str, student: str) -> str:
        a = self.assignments[assignment]
        path = (self.root / "feedback" / student / assignment
                / a.notebook.replace(".ipynb", ".html"))
        return path.read_text(encoding="utf-8")


def course_config(root: Path) -> Any:
    """The course's own nbgrader_config.py, pointed at `root`, with short timeouts."""
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.Execute.timeout = CELL_TIMEOUT
    # the suite grades while other tests run on the other cores, at the shipped settings:
    # the seconds a test gives a search are seconds of computing time, so a busy machine
    # costs a right answer nothing (tests/fair_marks grades on a deliberately busy one)
    config.WalledExecute.time_scale = TIME_SCALE
    config.Execute.startup_timeout = 60
    # generate grades each model solution first (puzzlekit.course.author_check); here every
    # reference submission is graded anyway, and tests/simulated_class/test_authoring.py tests the check
    config.ModelSolutionCheck.check = False
    config.NbGraderAPI.timezone = "UTC"
    return config


def validate(config: Any, path: Path) -> dict:
    from nbgrader.validator import Validator
    return Validator(config=config).validate(str(path))


def venv_on_path() -> None:
    """nbgrader runs `alembic` and kernels by name: put this Python's bin folder first."""
    bin_dir = str(Path(sys.executable).parent)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != bin_dir:
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")


def only_some(students: dict[str, Any]) -> dict[str, Any]:
    """`students`, or those whose names match ``PUZZLEKIT_STUDENTS`` (comma-separated
    shell patterns, e.g. ``ring_*,reference,ucs_counts_moves``): handy while writing an
    attack (run only the tests that read those students)."""
    import fnmatch
    patterns = [p.strip() for p in os.environ.get("PUZZLEKIT_STUDENTS", "").split(",")
                if p.strip()]
    if not patterns:
        return students
    return {s: nb for s, nb in students.items()
            if any(fnmatch.fnmatch(s, p) for p in patterns)}


def build_course(root: Path) -> Course:
    import attacks
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    venv_on_path()

    timings: dict[str, float] = {}
    shutil.copytree(COURSE / "source", root / "source")
    shutil.copy(COURSE / "nbgrader_config.py", root / "nbgrader_config.py")
    config = course_config(root)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    result: dict[str, Assignment] = {}
    for name in assignments():
        t = time.perf_counter()
        res = api.generate_assignment(name)
        assert res["success"], res.get("error") or res.get("log")
        timings[f"generate {name}"] = time.perf_counter() - t
        nbname = notebook_name(name)
        source_nb = nbformat.read(root / "source" / name / nbname, as_version=4)
        release_nb = nbformat.read(root / "release" / name / nbname, as_version=4)
        t = time.perf_counter()
        source_validation = validate(config, root / "source" / name / nbname)
        release_validation = validate(config, root / "release" / name / nbname)
        timings[f"validate {name}"] = time.perf_counter() - t
        solutions = [c.source for c in source_nb.cells if is_solution(c) and c.cell_type == "code"]
        a = Assignment(name, nbname, source_nb, release_nb, source_validation,
                       release_validation, defined_names(solutions))
        result[name] = a

        module = students_module(name)
        students: dict[str, Any] = {"reference": submission(release_nb, source_nb, {}),
                                    "untouched": untouched(release_nb)}
        everything = {grade_id(c): float(nbgrader_meta(c).get("points", 0))
                      for c in test_cells(source_nb)}
        a.loses = {"reference": {}, "untouched": everything}
        if module is not None:
            for student, replacements in module.STUDENTS.items():
                students[student] = submission(release_nb, source_nb, replacements)
                a.loses[student] = dict(module.LOSES[student])
        if name == assignments()[HOSTILE_ON - 1]:
            for student, (nb, check) in hostile_students(release_nb, source_nb).items():
                students[student] = nb
                a.hostile[student] = check
        corpus: dict[str, Any] = {}
        if name in TRICKS_ON:
            corpus |= attacks.grading_tricks(name, release_nb, source_nb)
        if name in RING_ON:
            corpus |= attacks.ring_attacks(name, release_nb, source_nb, CELL_TIMEOUT)
        if name == BREAKOUTS_ON:
            corpus |= attacks.wall_attacks(name, release_nb, source_nb, root, nbname)
            corpus |= attacks.run_attacks(name, release_nb, source_nb)
            corpus |= attacks.reference_after(release_nb, source_nb)
        for student, (nb, expectation) in corpus.items():
            students[student] = nb
            a.attacks[student] = expectation
        students = only_some(students)
        a.attacks = {s: e for s, e in a.attacks.items() if s in students}
        a.loses = {s: e for s, e in a.loses.items() if s in students}
        a.hostile = {s: e for s, e in a.hostile.items() if s in students}
        for student, nb in students.items():
            folder = root / "submitted" / student / name
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / nbname)
            (folder / "timestamp.txt").write_text("2026-01-15 10:00:00.000000 UTC")

    attacks.make_world_readable(root)
    hashes_before = attacks.source_hashes(root)
    autograde_all(api, config, root, result)
    hashes_after = attacks.source_hashes(root)
    planted = [str(p) for p in attacks.planted_paths() if p.exists()]
    for path in planted:        # never leave them behind, whatever the tests say
        Path(path).unlink()
    feedback_log = {}
    for name in result:
        t = time.perf_counter()
        feedback_log[name] = api.generate_feedback(name)
        timings[f"feedback {name}"] = time.perf_counter() - t
    csv_path = root / "grades.csv"
    t = time.perf_counter()
    export_csv(api, csv_path)
    timings["export"] = time.perf_counter() - t
    write_timings(timings, result)
    course = Course(root, api, config, result, feedback_log, csv_path, timings, hashes_before,
                    hashes_after, planted)
    write_record(course)
    return course


def write_record(course: Course) -> None:
    """test-artifacts/course-record.txt: every simulated student's cell scores and what
    the failing cells said, and the integrity report's CSV, to compare two commits (a
    reshaping of the package must leave it unchanged; only timings may differ)."""
    import io

    from puzzlekit.course.integrity import report, write_csv
    lines = []
    for name, a in course.assignments.items():
        ids = [grade_id(c) for c in test_cells(a.source_nb)]
        for student, g in sorted(a.graded.items()):
            lines.append(f"== {name} {student}: {g.score:g}/{g.max_score:g} "
                         f"{sorted(g.cells.items())}")
            lines.append(course.cell_errors(name, student, ids))
        if name in TRICKS_ON:
            out = io.StringIO()
            write_csv(report(course.root, name), out)
            lines.append(f"== integrity {name}\n{out.getvalue()}")
    out_dir = REPO / "test-artifacts"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "course-record.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


class _PerStudentLog(logging.Handler):
    """Keeps what the grader logged about each student ("[student] message")."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: dict[str, list[str]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("["):
            student, _, rest = message[1:].partition("] ")
            self.lines.setdefault(student, []).append(rest)


def autograde_all(api: Any, config: Any, root: Path, result: dict[str, Assignment]) -> None:
    """Autograde every submission of every assignment with the kit's class grader
    (`puzzlekit.course.workers`: nbgrader's own autograde converter, the execute step on
    GRADE_WORKERS local processes). tests/simulated_class/test_classgrade.py proves it grades
    exactly as serial ``nbgrader autograde`` does, and the guide, formgrader and hub
    tests run nbgrader's own commands. The submissions named in GRADED_LAST are graded
    after all the others of their assignment (the reference after the attacks)."""
    from puzzlekit.course.workers import grade_class, make_pool

    collected = _PerStudentLog()
    log = logging.getLogger("puzzlekit.tests.course")
    log.setLevel(logging.INFO)
    log.propagate = False
    log.addHandler(collected)
    import attacks
    tight = copy.deepcopy(config)
    tight.WalledExecute.notebook_timeout = attacks.TIGHT_NOTEBOOK_TIMEOUT
    budgeted = set(attacks.BUDGET_ATTACKS)
    pool = make_pool(GRADE_WORKERS, log=log)
    try:
        for name, a in result.items():
            everyone = sorted(p.parent.name for p in (root / "submitted").glob(f"*/{name}"))
            for group, group_config in (
                    ([s for s in everyone if s not in GRADED_LAST and s not in budgeted],
                     config),
                    ([s for s in everyone if s in budgeted], tight),
                    ([s for s in everyone if s in GRADED_LAST], config)):
                if not group:
                    continue
                report = grade_class(name, root, students=group, progress=None,
                                     config=group_config, pool=pool, log=log)
                for student in group:
                    times = report.times.get(student)
                    text = "\n".join(collected.lines.get(student, []))
                    if student in report.failed:
                        text += f"\ngrading failed: {report.failed[student]}"
                    a.graded[student] = Graded(*scores(api, name, student),
                                               times.own if times else 0.0, text,
                                               cell_scores(api, name, student))
    finally:
        pool.close()
        log.removeHandler(collected)


def write_timings(timings: dict[str, float], result: dict[str, Assignment]) -> None:
    """test-artifacts/course-timings.txt: how long each step took (for the report)."""
    lines = [f"{k}: {v:.1f} s" for k, v in timings.items()]
    for name, a in result.items():
        times = {s: g.seconds for s, g in a.graded.items()}
        if not times:
            continue
        reference = f"reference {times['reference']:.1f} s, " if "reference" in times else ""
        lines.append(f"autograde {name}: {reference}mean "
                     f"{sum(times.values()) / len(times):.1f} s over {len(times)} submissions")
        for student, g in sorted(a.graded.items()):
            if student.startswith("ring_"):
                lines.append(f"  {name} {student}: {g.score:g}/{g.max_score:g} in "
                             f"{g.seconds:.1f} s")
    out = REPO / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "course-timings.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def scores(api: Any, assignment: str, student: str) -> tuple[float, float]:
    """(automatic score, maximum automatic score) from the gradebook; 0 if never graded."""
    from nbgrader.api import MissingEntry
    with api.gradebook as gb:
        try:
            sub = gb.find_submission(assignment, student)
        except MissingEntry:
            return 0.0, float(gb.find_assignment(assignment).max_code_score)
        return float(sub.code_score), float(sub.max_code_score)


def cell_scores(api: Any, assignment: str, student: str) -> dict[str, float]:
    """{grade id: automatic score} of each autograded test cell of a submission."""
    from nbgrader.api import MissingEntry
    with api.gradebook as gb:
        try:
            sub = gb.find_submission(assignment, student)
        except MissingEntry:
            return {}
        return {g.name: float(g.auto_score) for nb in sub.notebooks for g in nb.grades
                if g.auto_score is not None}


def export_csv(api: Any, path: Path) -> None:
    from nbgrader.plugins import CsvExportPlugin
    plugin = CsvExportPlugin(to=str(path))
    with api.gradebook as gb:
        plugin.export(gb)
