"""Grade answers written as real students write them, as the course's grader does.

An answer replaces some solution cells (by grade id) of the instructor's source notebook;
the notebook is cut to what that answer's exercises need (the given cells, every solution
cell, the answered exercises' example and test cells, and the earlier test cells that
define helpers for later ones) and graded by the course's execute
step, `WalledExecute` (the student's kernel behind the wall, the test cells run by the
judge), with the shipped settings (a cell's 30 s, `time_scale` 1). A cell's score is
nbgrader's own rule (`nbgrader.utils.determine_grade`).

Run as a program it grades one corpus module and writes the results as JSON, so that a
test can run it as a whole process tree on a busy machine (`throttle.py`):

    python tests/fair_marks/harness.py corpus_01,corpus_02 results.json [corpus_02:bfs_...]
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def source_notebook(assignment: str) -> Any:
    import nbformat
    return nbformat.read(ROOT / "notebooks" / "source" / assignment / f"{assignment}.ipynb",
                         as_version=4)


def _meta(cell: Any) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def exercises(nb: Any) -> dict[str, list[int]]:
    """solution grade id -> the indices of the code cells after it up to the next
    solution cell (its examples and its test cells)."""
    out: dict[str, list[int]] = {}
    current: str | None = None
    for i, cell in enumerate(nb.cells):
        meta = _meta(cell)
        if cell.cell_type != "code":
            continue
        if meta.get("solution"):
            current = meta["grade_id"]
            out[current] = []
        elif current is not None and not (meta.get("locked") and not meta.get("grade")):
            out[current].append(i)
    return out


def answer_notebook(assignment: str, answer: dict[str, str]) -> Any:
    """The source notebook with `answer`'s cells, cut to what its exercises need."""
    nb = source_notebook(assignment)
    following = exercises(nb)
    unknown = set(answer) - set(following)
    if unknown:
        raise KeyError(f"no solution cells {sorted(unknown)} in {assignment}")
    keep = {i for gid in answer for i in following[gid]}
    last = max(keep)
    cells = []
    for i, cell in enumerate(nb.cells[:last + 1]):
        meta = _meta(cell)
        if cell.cell_type != "code":
            continue
        if meta.get("solution"):
            if meta["grade_id"] in answer:
                cell.source = answer[meta["grade_id"]].strip("\n")
            cells.append(cell)
        elif (meta.get("locked") and not meta.get("grade")) or i in keep:
            cells.append(cell)
        elif meta.get("grade") and re.search(r"^def ", cell.source, re.M):
            cells.append(cell)      # an earlier test cell that defines a helper of later ones
    nb.cells = cells
    return nb


def first_sentence(cell: Any) -> str:
    """What the student reads first about a test cell: its error's words, or the partial
    credit's line (empty when it passed)."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            text = ANSI.sub("", f"{output.get('evalue', '')}")
            return " ".join(text.split())[:600]
    for output in cell.get("outputs", []):
        text = output.get("text", "") if output.get("output_type") == "stream" else ""
        if "partly right" in text:
            return " ".join(ANSI.sub("", text).split())[:600]
    return ""


def grade(assignment: str, answer: dict[str, str],
          keep: list[Any] | None = None) -> dict[str, list[Any]]:
    """grade id -> [score, max score, first sentence, the mistakes the grader named] of
    the answered exercises' tests (the graded notebook appended to `keep`, if given)."""
    from nbgrader.utils import determine_grade

    from puzzlekit.autograder.judge.autograde import WalledExecute
    nb = answer_notebook(assignment, answer)
    with tempfile.TemporaryDirectory(prefix="fair-marks-") as folder:
        nb, _ = WalledExecute(timeout=30).preprocess(nb, {"metadata": {"path": folder}})
    if keep is not None:
        keep.append(nb)
    log = logging.getLogger("fair-marks")
    out: dict[str, list[Any]] = {}
    for cell in nb.cells:
        meta = _meta(cell)
        if meta.get("grade") and cell.cell_type == "code":
            score, most = determine_grade(cell, log)
            named = [m.get("name") for m in
                     cell.get("metadata", {}).get("puzzlekit", {}).get("mistakes", [])]
            out[meta["grade_id"]] = [score, most, first_sentence(cell), named]
    return out


def main(modules: str, out_path: str, only: str = "") -> None:
    """Grade the answers of the corpus `modules` (comma-separated), or only those named
    in `only` ("module:answer,..."); write {module: {answer: grade(...)}} to `out_path`."""
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]
    os.environ["NBGRADER_EXECUTION"] = "autograde"       # as nbgrader autograde sets it
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    wanted = set(filter(None, only.split(",")))
    results: dict[str, dict[str, Any]] = {}
    for module in modules.split(","):
        corpus = importlib.import_module(module)
        results[module] = {name: grade(corpus.ASSIGNMENT, answer)
                           for name, answer in corpus.ANSWERS.items()
                           if not wanted or f"{module}:{name}" in wanted}
    Path(out_path).write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:4])
