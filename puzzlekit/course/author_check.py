"""The instructor learns first: the model solution is graded before anything is released.

A test that the instructor's own solution does not pass would mark every honest student
wrong, and nbgrader would say nothing (``validate`` of the source says "Success!" when its
tests pass in a plain kernel, ``generate_assignment`` and ``autograde`` exit 0). So the
course's generate step (`ModelSolutionCheck`, after `puzzlekit.course.authoring.KitAuthoring` in
``nbgrader_config.py``, hence also the formgrader's *Generate* button) grades the source
notebook, solutions and hidden tests included, exactly as a submission is graded: the
course's own execute step (`puzzlekit.autograder.judge.autograde.WalledExecute`, the wall and the judge)
and nbgrader's own scoring of each test cell. Any test cell that does not earn its full
points stops the release, with the cell, the line and what it said. A test cell that
binds an answer as a global the student's code could read (``shortest = ...`` before it
calls ``solve_pos``) gets a warning (`answer_warnings`, `puzzlekit.course.test_globals`).

A test the model solution fails under the kit's grader is also run the plain way (the
same notebook in an ordinary kernel, as plain nbgrader runs it, `plain_verdicts`). If the
model solution passes it there, the test is not wrong: it does something the kit's
grader cannot honour (the test cells run in the grader's process, across the wall from
the student's code), and the refusal says so, with what to write instead when it is
known (`advice`: ``==`` for ``is``, ...). That second run costs a few seconds, and only
when something failed.

The same check, without generating, for an author at work::

    python -m puzzlekit check-tests 03-informed-search      # from the course folder

`check_model_solution` is the function both use; it returns a `ModelCheck`.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import PuzzleError
from ..testcells.messages import plain

__all__ = ["CellVerdict", "ModelCheck", "ModelSolutionCheck", "advice", "answer_warnings",
           "check_model_solution", "plain_verdicts"]

#: what the grader says when a test hands the student's code something it cannot pass
_GRADER_CANNOT = re.compile(r"the grader cannot (pass|run|read)|cannot pass \w+ to your code")

#: what to write instead, for a test the kit's grader cannot honour: (a pattern of what
#: the failing line said, a pattern of its code, the advice); the first that matches
_ADVICE: list[tuple[re.Pattern[str] | None, re.Pattern[str] | None, str]] = [
    (None, re.compile(r"\btype\s*\([^)]*\)\s+is\b"),
     "write isinstance(obj, TheClass) rather than `type(obj) is TheClass`: the student's "
     "objects reach the grader as handles of their own kind"),
    (None, re.compile(r"\bis\s+(?!None\b|not\s+None\b|True\b|False\b)(not\s+)?(?!None\b)\w"),
     "compare with == rather than `is`: only the test's own objects keep their identity "
     "across the wall; what the student's code builds, or kept from an earlier call, "
     "reaches the grader as a copy"),
]


def advice(line: str, said: str) -> str:
    """What to write instead of a test line the kit's grader cannot honour ("" if not known)."""
    code = line.split(":", 1)[1] if ":" in line else line
    code = re.sub(r"(['\"]).*?\1", "''", code)        # not what its strings say
    for in_said, in_code, text in _ADVICE:
        if (in_said and in_said.search(said)) or (in_code and in_code.search(code)):
            return text
    return ""


@dataclass(frozen=True)
class CellVerdict:
    """One autograded test cell of the model solution, as the grader scored it."""

    grade_id: str
    points: float
    max_points: float
    said: str = ""          #: the error's last line (plain text), if it failed
    line: str = ""          #: where, in the test cell ("line 4: assert ...")
    grader_limit: bool = False    #: the grader could not honour what the test does
    plain_passes: bool = False    #: ... and plain nbgrader gives it its full points

    @property
    def full(self) -> bool:
        return self.points >= self.max_points


@dataclass
class ModelCheck:
    """The model solution of one notebook, graded: each test cell's verdict."""

    notebook: str
    cells: list[CellVerdict] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(c.full for c in self.cells)

    def problems(self) -> list[str]:
        """One paragraph per test cell the model solution does not pass in full."""
        out = []
        for c in self.cells:
            if c.full:
                continue
            where = f" ({c.line})" if c.line else ""
            text = (f"{self.notebook}, test cell {c.grade_id}{where}: the model solution "
                    f"earns {c.points:g} of {c.max_points:g} points: {c.said or 'it failed'}")
            if c.plain_passes:
                hint = advice(c.line, c.said)
                text += ("\n  Plain nbgrader gives the model solution its full points here: "
                         "this is something the kit's grader cannot honour, not a wrong "
                         "test. While grading, test cells run in the grader's process and "
                         "reach the student's code across a wall (docs/how-to/add-an-exercise.md, "
                         "step 5). "
                         + (f"Instead: {hint}." if hint else
                            "That step lists what a test may do: write this line with "
                            "those, and compare plain values."))
            elif c.grader_limit:
                text += ("\n  This is a limit of the kit's grader, not of the solution: "
                         "while grading, test cells run in the grader's process and reach "
                         "the student's code across a wall (docs/how-to/add-an-exercise.md, "
                         "step 5, lists what a test may do).")
            else:
                text += ("\n  Fix the test or the solution in source/, then generate "
                         "again: as it stands, every honest student would lose these points.")
            out.append(text)
        return out

    def report(self) -> str:
        """Every test cell with its verdict, then the time it took."""
        lines = []
        for c in self.cells:
            mark = "✔" if c.full else "✘"
            lines.append(f"  {mark} {c.grade_id}: {c.points:g} of {c.max_points:g}"
                         + ("" if c.full else f" - {c.said}"))
        lines.append(f"{self.notebook}: {'all tests pass' if self.ok else 'NOT READY'} "
                     f"({self.seconds:.1f} s)")
        return "\n".join(lines)


def _failure(cell: Any) -> tuple[str, str]:
    """(the error's message, the failing line of the test cell) of a failed cell."""
    for output in cell.get("outputs", []):
        if output.get("output_type") != "error":
            continue
        said = plain(f"{output.get('ename', 'Error')}: {output.get('evalue', '')}")
        said = " ".join(said.split())
        line = ""
        for chunk in output.get("traceback", []):
            found = re.search(r"line (\d+)[^\n]*\n(?:\x1b\[[0-9;]*m)*-+>\s*(?:\x1b\[[0-9;]*m)*"
                              r"\s*\d+(?:\x1b\[[0-9;]*m)*\s(.*)", str(chunk))
            if found:
                line = f"line {found.group(1)}: {plain(found.group(2)).strip()}"
                break
        return said[:300], line[:200]
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stderr":
            return " ".join(plain(str(output.get("text", ""))).split())[:300], ""
    return "", ""


def _verdicts(nb: Any) -> list[CellVerdict]:
    from nbgrader.utils import determine_grade, is_grade, is_solution
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code" or not is_grade(cell) or is_solution(cell):
            continue
        points, max_points = determine_grade(cell)
        points = float(points or 0.0)
        said, line = ("", "") if points >= max_points else _failure(cell)
        out.append(CellVerdict(str(cell.metadata["nbgrader"]["grade_id"]), points,
                               float(max_points), said, line,
                               bool(_GRADER_CANNOT.search(said))))
    return out


def check_model_solution(nb: Any, folder: str, config: Any = None,
                         notebook: str = "notebook") -> ModelCheck:
    """Grade the source notebook `nb` (read from `folder`) as a submission is graded."""
    from nbgrader.preprocessors import Execute
    from traitlets.config import Config

    from ..autograder.judge.autograde import WalledExecute
    from ..context import nbgrader_execution_as
    if not os.path.isdir(folder):
        raise PuzzleError(f"check_model_solution needs the notebook's folder, not {folder!r}")
    config = copy.deepcopy(config) if config is not None else Config()
    wanted = [p for p in config.get("Autograde", {}).get("autograde_preprocessors", [])
              if isinstance(p, type) and issubclass(p, Execute)]
    step = wanted[0] if wanted else WalledExecute
    executed = copy.deepcopy(nb)
    for cell in executed.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    t0 = time.perf_counter()
    with nbgrader_execution_as("autograde"):
        pp = step(config=config)
        executed, _ = pp.preprocess(executed, {"metadata": {"path": folder}})
    verdicts = _verdicts(executed)
    if not all(v.full for v in verdicts):
        plain_full = {v.grade_id for v in plain_verdicts(nb, folder, config) if v.full}
        verdicts = [v if v.full or v.grade_id not in plain_full else
                    dataclasses.replace(v, grader_limit=True, plain_passes=True)
                    for v in verdicts]
    return ModelCheck(notebook, verdicts, time.perf_counter() - t0)


def plain_verdicts(nb: Any, folder: str, config: Any = None) -> list[CellVerdict]:
    """The test cells of `nb` as plain nbgrader scores them: every cell in order in an
    ordinary kernel (nbgrader's `Execute`, no wall, no judge)."""
    from nbgrader.preprocessors import Execute
    from traitlets.config import Config

    from ..context import nbgrader_execution_as
    executed = copy.deepcopy(nb)
    for cell in executed.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    with nbgrader_execution_as("autograde"):
        pp = Execute(config=copy.deepcopy(config) if config is not None else Config())
        executed, _ = pp.preprocess(executed, {"metadata": {"path": folder}})
    return _verdicts(executed)


def answer_warnings(nb: Any, notebook: str = "notebook") -> list[str]:
    """One warning per binding of a test cell that hands the student's code an answer
    (`puzzlekit.course.test_globals`): generate and check-tests say them, and go on."""
    from .test_globals import readable_answers
    return [found.warning(notebook) for found in readable_answers(nb)]


class ModelSolutionFails(Exception):
    """generate_assignment refused: the model solution does not pass its own tests."""


def _make_model_solution_check() -> type:
    from nbgrader.preprocessors import NbGraderPreprocessor
    from traitlets import Bool

    class ModelSolutionCheck(NbGraderPreprocessor):  # type: ignore[misc]
        """nbgrader generate step: grade the model solution first; refuse to release
        tests that it does not pass in full (see the module docstring)."""

        check = Bool(True, help="Grade the model solution through the course's grader "
                     "before generating, and refuse tests it does not pass").tag(config=True)

        def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
            if not self.check:
                return nb, resources
            folder = (resources.get("metadata") or {}).get("path") or os.getcwd()
            name = (resources.get("nbgrader") or {}).get("notebook", "notebook")
            for warning in answer_warnings(nb, name):
                self.log.warning("puzzlekit: %s", warning)
            result = check_model_solution(nb, folder, self.config, name)
            self.log.info("puzzlekit: the model solution of %s passes its tests (%.1f s)",
                          name, result.seconds)
            if not result.ok:
                raise ModelSolutionFails("\n".join(
                    ["Not generated: the model solution does not pass its own tests."]
                    + result.problems()))
            return nb, resources

    ModelSolutionCheck.__module__ = __name__
    ModelSolutionCheck.__qualname__ = "ModelSolutionCheck"
    return ModelSolutionCheck


_built: list[type] = []


def __getattr__(name: str) -> Any:
    # built on first use, so that importing this module costs no nbgrader import
    if name == "ModelSolutionCheck":
        if not _built:
            _built.append(_make_model_solution_check())
        return _built[0]
    raise AttributeError(name)
