"""One place for a point: what the kit adds to a notebook when an assignment is generated.

An instructor writes an exercise the way nbgrader teaches: an answer cell, a test cell
with ``points`` in its nbgrader metadata, some prose. Everything else the kit needs is
derived from that metadata when ``nbgrader generate_assignment`` (or the formgrader's
*Generate* button) runs, by `KitAuthoring`, which the course's ``nbgrader_config.py``
puts at the front of the generate pipeline:

* every answer, test and unmarked code cell gets the ``raises-exception`` tag, so that
  *Run All* goes past a failing exercise and reaches the score table at the end (the
  cells the notebook gives, such as its imports, keep the tags their author chose);
* every autograded test cell reports its result to that table: ``passed("label")`` is
  appended (the label is the grade id without ``_tests``), or, where the cell ends with
  an expression (nbgrader's partial credit: the cell's value is its score), a comment
  ``# exercise: label`` is put first, which the kit reads the same way;
* the summary cell (grade id ``summary``, or the code cell that calls ``summary(``) is
  written anew with every exercise and its points, taken from the metadata;
* every points note in the prose, ``(2 points)`` or ``(2 points, graded by your
  teacher)``, says the points of the graded cells that follow it, up to the next heading
  or points note: change a cell's points and the text follows.

Regrading after a fix: nbgrader's autograde restores every test cell from the copy the
gradebook took at generate time, so a test fixed in ``source/`` but not generated again
would silently grade with the old one. `RefuseStaleTests`, the first step of the course's
autograde, compares that copy with what generate would make of today's source
(`stale_cells`) and refuses, naming the cells and the command to run first.

All of it is idempotent: a source notebook that already has these lines is left as it
is, so the kit's own notebooks and a plain nbgrader notebook are treated alike.
`notes_without_cells` lists the points notes no graded cell follows (text that
`KitAuthoring` leaves alone and an author should look at).
"""

from __future__ import annotations

import ast
import copy
import json
import re
from typing import Any

__all__ = ["KitAuthoring", "RefuseStaleTests", "StaleTests", "exercise_label",
           "points_notes", "stale_cells", "stale_tests", "summary_points", "with_kit_lines"]

TAG = "raises-exception"
SUMMARY_ID = "summary"
_PASSED = re.compile(r"""(?m)^\s*passed\(\s*["']([^"']+)["']""")
_MARKER = re.compile(r"""(?m)^#\s*exercise:\s*(\S+)\s*$""")
#: "(2 points)", "(1 point)", "(2 points, graded by your teacher)", "(1.5 points)"
_NOTE = re.compile(r"\((\d+(?:\.\d+)?) (points?)([,)])")
_HEADING = re.compile(r"(?m)^#{1,6}\s")


def _meta(cell: Any) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_autograded_test(cell: Any) -> bool:
    """An autograded test cell: code, graded, not an answer."""
    meta = _meta(cell)
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) \
        and not meta.get("solution")


def is_graded(cell: Any) -> bool:
    """A cell that earns points: an autograded test or an answer graded by hand."""
    return bool(_meta(cell).get("grade"))


def exercise_label(cell: Any) -> str:
    """The name a test cell reports under: its ``passed("...")`` label, its
    ``# exercise:`` comment, or its grade id without ``_tests``."""
    source = cell.get("source", "")
    found = _PASSED.findall(source) or _MARKER.findall(source)
    if found:
        return str(found[-1])
    grade_id = str(_meta(cell).get("grade_id", "exercise"))
    return grade_id.removesuffix("_tests") or grade_id


def _points(cell: Any) -> float:
    try:
        return float(_meta(cell).get("points", 0) or 0)
    except (TypeError, ValueError):
        return 0.0


def _number(x: float) -> str:
    return f"{x:g}"


def _ends_with_expression(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return bool(tree.body) and isinstance(tree.body[-1], ast.Expr) \
        and not _is_passed_call(tree.body[-1].value)


def _is_passed_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id == "passed"


def _reporting(source: str, label: str) -> str:
    """`source` with the line that reports its result to the score table, if missing."""
    if _PASSED.search(source) or _MARKER.search(source):
        return source
    if _ends_with_expression(source):
        return f"# exercise: {label}\n{source}"
    body = source.rstrip("\n")
    return f"{body}\n\nfrom puzzlekit.testcells import passed\npassed({json.dumps(label)})\n"


def summary_points(nb: Any) -> dict[str, float]:
    """Every exercise of the notebook (label -> points), in order, from the metadata."""
    points: dict[str, float] = {}
    for cell in nb.cells:
        if is_autograded_test(cell):
            label = exercise_label(cell)
            points[label] = points.get(label, 0.0) + _points(cell)
    return points


def _summary_source(points: dict[str, float]) -> str:
    if not points:
        return "from puzzlekit.testcells import summary\nsummary({})"
    rows = [f"{json.dumps(label)}: {_number(p)}" for label, p in points.items()]
    body = (",\n" + " " * 9).join(rows)
    return f"from puzzlekit.testcells import summary\nsummary({{{body}}})"


def _is_summary(cell: Any) -> bool:
    if cell.get("cell_type") != "code":
        return False
    if _meta(cell).get("grade_id") == SUMMARY_ID:
        return True
    return not is_graded(cell) and re.search(r"(?m)^\s*summary\(", cell.get("source", "")) \
        is not None


def points_notes(nb: Any) -> list[tuple[int, float]]:
    """(index of the markdown cell, points of the graded cells it introduces) for every
    points note: the graded cells from the note up to the next heading or note."""
    found: list[tuple[int, float]] = []
    current: list[Any] | None = None        # [index, total, counted any]
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            note = _NOTE.search(source)
            if note or _HEADING.search(source):
                if current is not None and current[2]:
                    found.append((current[0], current[1]))
                current = [index, 0.0, False] if note else None
                # a markdown answer graded by hand may itself carry no note
            if current is not None and is_graded(cell) and index != current[0]:
                current[1] += _points(cell)
                current[2] = True
            continue
        if current is not None and is_graded(cell):
            current[1] += _points(cell)
            current[2] = True
    if current is not None and current[2]:
        found.append((current[0], current[1]))
    return found


def notes_without_cells(nb: Any) -> list[int]:
    """Markdown cells with a points note that no graded cell follows."""
    placed = {index for index, _ in points_notes(nb)}
    return [i for i, c in enumerate(nb.cells)
            if c.get("cell_type") == "markdown" and _NOTE.search(c.get("source", ""))
            and i not in placed]


def _with_note(source: str, points: float) -> str:
    def fix(match: re.Match[str]) -> str:
        word = "point" if points == 1 else "points"
        return f"({_number(points)} {word}{match.group(3)}"
    return _NOTE.sub(fix, source, count=1)


def with_kit_lines(nb: Any) -> Any:
    """A copy of `nb` with the kit's lines, tags, summary and points notes derived."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        tags = list(cell.setdefault("metadata", {}).get("tags", []))
        given = bool(_meta(cell).get("locked")) and not is_graded(cell)
        if TAG not in tags and not _is_summary(cell) and not given:
            cell["metadata"]["tags"] = tags + [TAG]
        if is_autograded_test(cell):
            cell["source"] = _reporting(cell.get("source", ""), exercise_label(cell))
    points = summary_points(nb)
    for cell in nb.cells:
        if _is_summary(cell):
            cell["source"] = _summary_source(points)
    for index, total in points_notes(nb):
        cell = nb.cells[index]
        cell["source"] = _with_note(cell.get("source", ""), total)
    return nb


# ---------------------------------------------------------------------------
# Regrading with the tests of today's source

def _comparable(cell: Any) -> bool:
    """A cell whose gradebook copy autograding restores: a test or a given locked cell."""
    meta = _meta(cell)
    return cell.get("cell_type") == "code" and not meta.get("solution") \
        and bool(meta.get("grade") or meta.get("locked")) and bool(meta.get("grade_id")) \
        and not _is_summary(cell)       # derived from the points, which are compared


def stale_cells(source_nb: Any, stored: dict[str, tuple[str, float | None]]) -> list[str]:
    """What changed in the source since it was generated: one phrase per cell.

    `stored` is the gradebook's copy (grade id -> (source, max score or None)), which
    nbgrader's autograde restores into every submission; `source_nb` is today's notebook
    in ``source/``, which generate would turn into `with_kit_lines(source_nb)`.
    """
    now = with_kit_lines(source_nb)
    changed: list[str] = []
    seen: set[str] = set()
    for cell in now.cells:
        if not _comparable(cell):
            continue
        grade_id = str(_meta(cell)["grade_id"])
        seen.add(grade_id)
        if grade_id not in stored:
            changed.append(f"{grade_id}: new")
            continue
        source, max_score = stored[grade_id]
        if source.rstrip() != cell.get("source", "").rstrip():
            changed.append(f"{grade_id}: its code")
        if is_graded(cell) and max_score is not None and float(max_score) != _points(cell):
            changed.append(f"{grade_id}: points {_number(float(max_score))} -> "
                           f"{_number(_points(cell))}")
    return changed


def stale_message(assignment: str, changed: list[str]) -> str:
    """What an instructor reads when grading would use tests older than the source."""
    shown = "; ".join(changed[:6]) + (f"; and {len(changed) - 6} more" if len(changed) > 6
                                      else "")
    return (f"The tests of {assignment} changed in source/ since it was generated ({shown}). "
            "Grading now would use the old tests, which the gradebook keeps. Generate it "
            f"again first: `nbgrader generate_assignment {assignment} --force` (or the "
            "formgrader's Generate button), release it again if students should see the "
            "change, then grade.")


def stored_cells(db_url: str, assignment: str, notebook: str
                 ) -> dict[str, tuple[str, float | None]]:
    """The gradebook's copy of a notebook's cells: grade id -> (source, max score)."""
    from nbgrader.api import Gradebook
    with Gradebook(db_url) as gb:
        nb = gb.find_notebook(notebook, assignment)
        scores = {c.name: float(c.max_score) for c in nb.grade_cells}
        return {c.name: (c.source, scores.get(c.name)) for c in nb.source_cells}


def stale_tests(coursedir: Any, assignment: str, db_url: str) -> list[str]:
    """Every change of the source's tests since generate, over the assignment's notebooks."""
    import glob
    import os

    import nbformat
    folder = coursedir.format_path(coursedir.source_directory, ".", assignment)
    changed: list[str] = []
    for path in sorted(glob.glob(os.path.join(folder, "*.ipynb"))):
        notebook = os.path.splitext(os.path.basename(path))[0]
        try:
            stored = stored_cells(db_url, assignment, notebook)
        except Exception:       # not generated yet: nbgrader itself says so
            continue
        changed += stale_cells(nbformat.read(path, as_version=4), stored)
    return changed


def _preprocessor_base() -> type:
    from nbgrader.preprocessors import NbGraderPreprocessor
    return NbGraderPreprocessor  # type: ignore[no-any-return]


def _make_kit_authoring() -> type:
    base = _preprocessor_base()

    class KitAuthoring(base):  # type: ignore[misc, valid-type]
        """nbgrader generate step: the kit's tags, reporting lines, summary and points
        notes, derived from the cells' nbgrader metadata (see the module docstring)."""

        def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
            for index in notes_without_cells(nb):
                note = _NOTE.search(nb.cells[index].source)
                self.log.warning("puzzlekit: cell %d says %r but no graded cell follows "
                                 "it; its points note is left as written", index,
                                 note.group(0) if note else "")
            return with_kit_lines(nb), resources

    KitAuthoring.__module__, KitAuthoring.__qualname__ = __name__, "KitAuthoring"
    return KitAuthoring


class StaleTests(Exception):
    """Autograding refused: the source's tests changed since the assignment was generated."""


def _make_refuse_stale_tests() -> type:
    base = _preprocessor_base()

    class RefuseStaleTests(base):  # type: ignore[misc, valid-type]
        """nbgrader autograde step (first of its sanitize steps): refuse a notebook whose
        tests in ``source/`` changed since ``generate_assignment``, naming the cells, so
        that nobody is graded with a test the instructor has already fixed."""

        def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
            import os

            import nbformat
            from nbgrader.coursedir import CourseDirectory
            info = resources.get("nbgrader", {})
            assignment, notebook = info.get("assignment"), info.get("notebook")
            coursedir = CourseDirectory(config=self.config)
            path = os.path.join(coursedir.format_path(coursedir.source_directory, ".",
                                                      assignment), f"{notebook}.ipynb")
            if not os.path.exists(path):
                return nb, resources
            changed = stale_cells(nbformat.read(path, as_version=4),
                                  stored_cells(info["db_url"], assignment, notebook))
            if changed:
                raise StaleTests(stale_message(assignment, changed))
            return nb, resources

    RefuseStaleTests.__module__, RefuseStaleTests.__qualname__ = __name__, "RefuseStaleTests"
    return RefuseStaleTests


_MAKERS = {"KitAuthoring": _make_kit_authoring, "RefuseStaleTests": _make_refuse_stale_tests}
_built: dict[str, type] = {}


def __getattr__(name: str) -> Any:
    # nbgrader's preprocessor classes are built on first use, so that importing this
    # module (the course config does) costs no nbgrader import
    if name in _MAKERS:
        if name not in _built:
            _built[name] = _MAKERS[name]()
        return _built[name]
    raise AttributeError(name)
