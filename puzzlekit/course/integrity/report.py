"""The public API: a notebook's findings, a course's report, its CSV."""

from __future__ import annotations

import ast
import csv
import difflib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ...errors import PuzzleError
from ...testcells.catalogue import (
    LOCKED_CELL_DELETED,
    LOCKED_CELL_DIFFERS,
    LOCKED_CELL_EDITED,
    LOCKED_CELL_UNKNOWN,
    LOCKED_LINE_REMOVED,
)
from ..csv_cells import inert
from .cells import is_locked, is_solution, cell_meta, normalized, parse, short, source_text
from .exercise import constants, Exercise
from .forbidden import judge_reaches
from .seen import grader_saw
from .kinds import CSV_HEADER, Finding
from .scan import Cell, env_apply, Hit, Scan, Visitor
from .scopes import module_bound, module_level, stmt_binds


def _answer_cells(submitted_nb: Mapping[str, Any], ex: Exercise,
                  scan: Scan) -> Iterator[tuple[int, Mapping[str, Any], str, str]]:
    """(index, cell, grade id, role) of each code cell; role 'locked', 'answer', 'added'."""
    for index, cell in enumerate(submitted_nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        meta = cell_meta(cell)
        gid = meta.get("grade_id") or f"cell-{index}"
        if gid in ex.locked:
            yield index, cell, gid, "locked"
        elif gid in ex.solution_ids or is_solution(cell):
            yield index, cell, gid, "answer"
        elif is_locked(cell):
            scan.hit(Cell(index, gid, False, parse(source_text(cell))), 1,
                     "edited-locked-cell", str(LOCKED_CELL_UNKNOWN))
            yield index, cell, gid, "answer"
        else:
            yield index, cell, gid, "added" if not meta else "answer"


def scan_notebook(submitted_nb: Mapping[str, Any], source_nb: Mapping[str, Any], *,
                  student: str = "", assignment: str = "",
                  notebook: str = "") -> list[Finding]:
    """The findings of one submitted notebook, judged by the rules of its source notebook.

    Both notebooks are nbformat dicts (``nbformat.read`` or ``json.load``).
    """
    return _scan(submitted_nb, _exercise(source_nb), student, assignment, notebook)


def _exercise(source_nb: Mapping[str, Any]) -> Exercise:
    """The rules of a source notebook (remembered by content: report() and the instructor
    scan many submissions against few sources)."""
    key = tuple((c.get("cell_type", ""), json.dumps(cell_meta(c), sort_keys=True),
                 source_text(c)) for c in source_nb.get("cells", []))
    exercise = _EXERCISES.get(key)
    if exercise is None:
        if len(_EXERCISES) >= 16:
            _EXERCISES.clear()
        exercise = _EXERCISES[key] = Exercise(source_nb)
        exercise.generated = _generated_locked(source_nb)
    return exercise


def _generated_locked(source_nb: Mapping[str, Any]) -> dict[str, str]:
    """grade id -> source of each locked code cell as generate writes it for students
    (`puzzlekit.course.authoring` derives the score table and the reporting lines): a submitted
    locked cell may match that or the source itself."""
    import nbformat

    from ..authoring import with_kit_lines
    nb = with_kit_lines(nbformat.reads(json.dumps(source_nb), as_version=4))
    return {str(cell_meta(c).get("grade_id")): source_text(c) for c in nb.cells
            if c.get("cell_type") == "code" and is_locked(c) and cell_meta(c).get("grade_id")}


_EXERCISES: dict[tuple[tuple[str, str, str], ...], Exercise] = {}   # read-only once built


def _scan(submitted_nb: Mapping[str, Any], ex: Exercise, student: str, assignment: str,
          notebook: str) -> list[Finding]:
    scan = Scan(ex)
    cells: list[tuple[Cell, str]] = []
    for index, raw, gid, role in _answer_cells(submitted_nb, ex, scan):
        text = ex.locked[gid] if role == "locked" else source_text(raw)
        cells.append((Cell(index, gid, role == "added", parse(text)), role))
        submitted = source_text(raw)
        first = submitted.split("\n", 1)[0]
        if role == "locked" and "was missing from the submission" in first:
            _deleted_locked(scan, gid, text, index)     # nbgrader's note: it added it back
        elif role == "locked" and normalized(submitted) not in (
                normalized(text), normalized(ex.generated.get(gid, text))):
            _edited_locked(scan, cells[-1][0], submitted, text)
    present = {c.grade_id for c, _ in cells}
    for gid, text in ex.locked.items():
        if gid not in present:
            _deleted_locked(scan, gid, text, 10 ** 6)
    _prepass(scan, [c for c, _ in cells])
    for cell, role in cells:
        tree = cell.parsed.tree
        if role == "locked":
            if tree is not None:
                resolver = Visitor(scan, cell)
                for stmt in module_level(tree):
                    env_apply(stmt, scan.env, resolver.resolve)
            continue
        visitor = Visitor(scan, cell)
        if tree is None:
            for lineno, kind, why in cell.parsed.magics:
                scan.hit(cell, lineno, kind, why)
            continue
        visitor.run(tree)
    judge_reaches(scan)
    return [Finding(student, assignment, notebook, h.grade_id, h.finding, h.line)
            for h in sorted(scan.hits)]


def _deleted_locked(scan: Scan, grade_id: str, source: str, index: int) -> None:
    first = next((line for line in source.splitlines() if line.strip()), "")
    scan.order += 1
    scan.hits.append(Hit((index, 0, scan.order), grade_id,
                          str(LOCKED_CELL_DELETED), short(first)))


def _edited_locked(scan: Scan, cell: Cell, submitted: str, source: str) -> None:
    mine, theirs = normalized(submitted), normalized(source)
    for tag, i1, _, j1, _ in difflib.SequenceMatcher(a=theirs, b=mine,
                                                     autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete":
            line, why = theirs[i1], str(LOCKED_LINE_REMOVED)
        else:
            line, why = mine[j1], str(LOCKED_CELL_DIFFERS)
        scan.order += 1
        scan.hits.append(Hit((cell.index, 0, scan.order), cell.grade_id,
                              LOCKED_CELL_EDITED.format(why=why),
                              short(line)))
        return


def _prepass(scan: Scan, cells: Sequence[Cell]) -> None:
    """Every module-level binding of the notebook, for code that runs later (functions)."""
    for cell in cells:
        tree = cell.parsed.tree
        if tree is None:
            continue
        constants(tree, scan.consts)
        scan.module_names |= module_bound(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                scan.module_names |= set(node.names)
        resolver = Visitor(scan, cell)
        for stmt in module_level(tree):
            env_apply(stmt, scan.env, resolver.resolve)
            for name in stmt_binds(stmt):
                if name in scan.env:
                    scan.may_env[name] = scan.env[name]
    scan.env = {}


def read_notebook(path: Path) -> dict[str, Any]:
    """A notebook as a dict (plain JSON for nbformat 4, nbformat's upgrade for older ones)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise ValueError(f"{path.name} is not a notebook")
    if nb.get("nbformat", 4) < 4:
        import nbformat
        nb = dict(nbformat.read(str(path), as_version=4))
    return nb


def submission_folder(course_root: Path, autograded: bool) -> Path:
    return course_root / ("autograded" if autograded else "submitted")


def source_notebooks(course_root: Path, assignment: str) -> list[Path]:
    folder = course_root / "source" / assignment
    notebooks = sorted(folder.glob("*.ipynb")) if folder.is_dir() else []
    if not notebooks:
        raise PuzzleError(f"unknown assignment {assignment!r}: no notebook in {folder}")
    return notebooks


def chosen_students(course_root: Path, assignment: str, students: Sequence[str] | None,
              autograded: bool) -> list[str]:
    folder = submission_folder(course_root, autograded)
    if not folder.is_dir():
        raise PuzzleError(f"no {folder.name}/ folder in {course_root}")
    if students:
        for s in students:
            if not (folder / s / assignment).is_dir():
                raise PuzzleError(f"no {folder.name}/{s}/{assignment} folder in {course_root}")
        return list(dict.fromkeys(students))
    return sorted(p.parent.name for p in folder.glob(f"*/{assignment}") if p.is_dir())


def report(course_root: str | Path, assignment: str, *, students: Sequence[str] | None = None,
           autograded: bool = False) -> list[Finding]:
    """The findings of every submission of `assignment` (or of `students`) in a course.

    Reads ``submitted/<student>/<assignment>/*.ipynb`` (``autograded/`` with `autograded`)
    and ``source/<assignment>/*.ipynb``; raises `PuzzleError` for missing folders.
    """
    root = Path(course_root)
    sources = source_notebooks(root, assignment)
    try:
        exercises = {p.name: _exercise(read_notebook(p)) for p in sources}
    except (ValueError, OSError) as e:
        raise PuzzleError(f"cannot read the source notebook: {e}") from None
    folder = submission_folder(root, autograded)
    findings: list[Finding] = []
    for student in chosen_students(root, assignment, students, autograded):
        for source in sources:
            path = folder / student / assignment / source.name
            if not path.exists():
                continue
            try:
                nb = read_notebook(path)
            except (ValueError, OSError) as e:
                findings.append(Finding(student, assignment, source.stem, "-",
                                        f"unreadable-notebook: {type(e).__name__}", ""))
                continue
            findings += _scan(nb, exercises[source.name], student, assignment, source.stem)
            graded = submission_folder(root, True) / student / assignment / source.name
            if graded.exists():     # what the grader saw while grading it
                try:
                    findings += grader_saw(read_notebook(graded), student, assignment,
                                           source.stem)
                except (ValueError, OSError):
                    pass
    return findings


def write_csv(findings: Iterable[Finding], out: IO[str]) -> None:
    """The findings as CSV with the header `CSV_HEADER`; no cell a spreadsheet would run
    (`puzzlekit.course.csv_cells.inert`)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for f in findings:      # a student's edited line (=HYPERLINK(...)) stays text
        writer.writerow([inert(x) for x in (f.student, f.assignment, f.notebook, f.grade_id,
                                             f.finding, f.line)])
