"""``--comment``: the findings as auto comments in nbgrader's gradebook."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import PuzzleError
from ...testcells.catalogue import NO_GRADEBOOK_ENTRY
from .cells import cell_meta
from .report import read_notebook, source_notebooks, chosen_students, submission_folder

if TYPE_CHECKING:
    from .kinds import Finding



COMMENT_MARK = "- integrity: "


def _comment_lines(findings: Iterable[Finding], cell_of: Mapping[str, str]) -> dict[str, list]:
    """solution cell -> the comment lines of the findings it carries."""
    out: dict[str, list[str]] = {}
    for f in findings:
        target = cell_of.get(f.grade_id)
        if target is None:
            continue
        where = "" if target == f.grade_id else f" (in {f.grade_id})"
        code = f.line.replace("`", "'")
        out.setdefault(target, []).append(f"{COMMENT_MARK}{f.finding}{where}: `{code}`")
    return out


def _comment_targets(nb: Mapping[str, Any], solution_cells: set[str]) -> dict[str, str]:
    """grade id (or cell-<i>) of every cell -> the solution cell whose comment carries its
    findings: itself, else the nearest solution cell above it, else the first below."""
    ids = [(cell_meta(c).get("grade_id") or f"cell-{i}") for i, c in
           enumerate(nb.get("cells", []))]
    out: dict[str, str] = {}
    last: str | None = None
    pending: list[str] = []
    for gid in ids:
        if gid in solution_cells:
            last = gid
            for p in pending:
                out[p] = gid
            pending = []
        if last is None:
            pending.append(gid)
        else:
            out[gid] = gid if gid in solution_cells else last
    return out


def add_comments(course_root: str | Path, assignment: str, findings: Iterable[Finding], *,
                 students: Sequence[str] | None = None, autograded: bool = False) -> int:
    """Put the findings of `students` (default: all) into ``gradebook.db`` as auto comments.

    Each finding goes to its solution cell's comment (findings of other cells to the
    nearest solution cell above them). A grader's manual comment is never touched (the
    formgrader shows the auto comment in the comment box until a grader writes one);
    earlier integrity lines are replaced, other auto comments ("No response.") kept.
    Returns the number of comments that now carry integrity lines.
    """
    from nbgrader.api import Gradebook, MissingEntry
    root = Path(course_root)
    db = root / "gradebook.db"
    if not db.exists():
        raise PuzzleError(f"no gradebook.db in {root}: run nbgrader autograde first")
    by_student: dict[str, list[Finding]] = {}
    for f in findings:
        by_student.setdefault(f.student, []).append(f)
    folder = submission_folder(root, autograded)
    written = 0
    with Gradebook(f"sqlite:///{db}", course_id="") as gb:
        for student in chosen_students(root, assignment, students, autograded):
            for source in source_notebooks(root, assignment):
                try:
                    book = gb.find_notebook(source.stem, assignment)
                    gb.find_submission_notebook(source.stem, assignment, student)
                except MissingEntry:
                    print(NO_GRADEBOOK_ENTRY.format(assignment=assignment,
                                                    notebook=source.stem, student=student),
                          file=sys.stderr)
                    continue
                cells = {c.name for c in (*book.solution_cells, *book.task_cells)}
                path = folder / student / assignment / source.name
                nb = read_notebook(path) if path.exists() else {"cells": []}
                mine = [f for f in by_student.get(student, []) if f.notebook == source.stem]
                lines = _comment_lines(mine, _comment_targets(nb, cells))
                for name in sorted(cells):
                    comment = gb.find_comment(name, source.stem, assignment, student)
                    kept = [line for line in (comment.auto_comment or "").split("\n")
                            if line and not line.startswith(COMMENT_MARK)]
                    text = "\n".join(kept + ([""] if kept and lines.get(name) else [])
                                     + lines.get(name, [])) or None
                    if text != comment.auto_comment:
                        comment.auto_comment = text
                    written += bool(lines.get(name))
            gb.db.commit()
    return written
