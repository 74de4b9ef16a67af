"""Small generated courses for the class-grading tests and benchmark.

`build_course(root, assignment, students)` copies ``notebooks/`` (config and the one
assignment's source) to `root`, generates the assignment, and hands in the given
notebooks as ``submitted/<student>/<assignment>/`` (`hand_in` hands in more later).
`simulated(assignment)` makes the submissions of the simulated students of
``students_<NN>.py`` (plus "reference", "untouched" and the hostile ones of
course_harness).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from course_harness import (  # noqa: E402,F401
    COURSE,
    hostile_students,
    notebook_name,
    students_module,
    submission,
    untouched,
    venv_on_path,
)

TIMESTAMP = "2026-01-15 10:00:00.000000 UTC"


def simulated(assignment: str, hostile: bool = False) -> dict[str, Any]:
    """name -> submitted notebook: reference, untouched, the simulated students and,
    with `hostile`, the hostile ones (endless loop, kernel exit, edited/deleted tests)."""
    nbname = notebook_name(assignment)
    source_nb = nbformat.read(COURSE / "source" / assignment / nbname, as_version=4)
    release_nb = _release(assignment)
    out = {"reference": submission(release_nb, source_nb, {}),
           "untouched": untouched(release_nb)}
    module = students_module(assignment)
    if module is not None:
        for student, replacements in module.STUDENTS.items():
            out[student] = submission(release_nb, source_nb, replacements)
    if hostile:
        out |= {k: nb for k, (nb, _check) in hostile_students(release_nb, source_nb).items()}
    return out


_RELEASES: dict[str, Any] = {}


def _release(assignment: str) -> Any:
    """The release notebook of `assignment`, generated once per session: the release of
    the first course `build_course` made, else one made in a scratch course."""
    if assignment not in _RELEASES:
        import tempfile
        root = Path(tempfile.mkdtemp(prefix="pk-release-"))
        try:
            api = _api(_copy(root, assignment, {}))
            res = api.generate_assignment(assignment)
            assert res["success"], res.get("error") or res.get("log")
            nbname = notebook_name(assignment)
            _RELEASES[assignment] = nbformat.read(root / "release" / assignment / nbname,
                                                  as_version=4)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return nbformat.from_dict(_RELEASES[assignment])


def _copy(root: Path, assignment: str, settings: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(COURSE / "source" / assignment, root / "source" / assignment)
    text = (COURSE / "nbgrader_config.py").read_text(encoding="utf-8")
    extra = "".join(f"\nc.{k} = {v}" for k, v in settings.items())
    (root / "nbgrader_config.py").write_text(text + "\n# the tests' settings" + extra + "\n",
                                             encoding="utf-8")
    return root


def _api(root: Path) -> Any:
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    venv_on_path()
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def api(root: Path) -> Any:
    """nbgrader's API on the course at `root` (its own nbgrader_config.py)."""
    return _api(root)


def build_course(root: Path, assignment: str, students: dict[str, Any], *,
                 settings: dict[str, str] | None = None,
                 timestamps: dict[str, str] | None = None,
                 duedate: str | None = None) -> Path:
    """A course at `root` with `assignment` generated and `students` handed in.
    `settings`: extra config lines (``{"Execute.timeout": "8"}``). Its release is kept
    for `simulated`, which then need not generate the assignment again."""
    _copy(root, assignment, settings or {})
    nb_api = _api(root)
    res = nb_api.generate_assignment(assignment)
    assert res["success"], res.get("error") or res.get("log")
    _RELEASES.setdefault(assignment, nbformat.read(
        root / "release" / assignment / notebook_name(assignment), as_version=4))
    if duedate:
        with nb_api.gradebook as gb:
            gb.update_or_create_assignment(assignment, duedate=duedate)
    return hand_in(root, assignment, students, timestamps)


def hand_in(root: Path, assignment: str, students: dict[str, Any],
            timestamps: dict[str, str] | None = None) -> Path:
    """`students` (name -> notebook) handed in as ``submitted/<student>/<assignment>/``."""
    nbname = notebook_name(assignment)
    for student, nb in students.items():
        folder = root / "submitted" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / nbname)
        stamp = (timestamps or {}).get(student, TIMESTAMP)
        (folder / "timestamp.txt").write_text(stamp)
    return root


def clone(src: Path, dest: Path) -> Path:
    """A copy of a built course (gradebook included) at `dest`, its config pointing there."""
    shutil.copytree(src, dest)
    return dest


def gradebook_state(root: Path, assignment: str) -> dict[str, Any]:
    """Everything autograde writes for `assignment`, per student: the submission's
    timestamp and late penalty, each grade's and comment's automatic values, and the
    files of ``autograded/`` (names, and the notebooks' cells without outputs' volatile
    parts)."""
    from nbgrader.api import MissingEntry
    out: dict[str, Any] = {}
    nb_api = _api(root)
    with nb_api.gradebook as gb:
        for student in sorted(p.name for p in (root / "submitted").iterdir()):
            try:
                sub = gb.find_submission(assignment, student)
            except MissingEntry:
                out[student] = None
                continue
            grades = {}
            for nb in sub.notebooks:
                for g in nb.grades:
                    grades[(nb.name, g.name)] = (g.auto_score, g.manual_score,
                                                 g.needs_manual_grade, g.max_score)
                for c in nb.comments:
                    grades[(nb.name, "comment:" + c.name)] = (c.auto_comment,
                                                              c.manual_comment)
            folder = root / "autograded" / student / assignment
            files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                           if p.is_file()) if folder.exists() else None
            out[student] = {"timestamp": str(sub.timestamp),
                            "late_penalty": sub.late_submission_penalty,
                            "score": sub.score, "code_score": sub.code_score,
                            "grades": grades, "files": files,
                            "cells": _cells(folder) if folder.exists() else None}
        out["_submissions"] = len(gb.find_assignment(assignment).submissions)
    return out


def _cells(folder: Path) -> list[Any]:
    """(cell type, grade id, source, output types) of every autograded notebook."""
    cells = []
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for c in nb.cells:
            meta = c.get("metadata", {}).get("nbgrader", {})
            cells.append((c.cell_type, meta.get("grade_id"), c.source,
                          tuple(o.get("output_type") for o in c.get("outputs", []))))
    return cells
