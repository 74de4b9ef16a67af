"""Run the reference (instructor's source) notebooks as the course does, for
test_references_under_load: graded by the course's execute step (`WalledExecute`), and
in a plain kernel as a student runs them (every test cell, visible and hidden, in the
live kernel). Prints one JSON line: notebook -> how -> the test cells that lost points.

    python tests/fair_marks/reference_run.py 01-states-and-moves,02-uninformed-search 02-uninformed-search

(the notebooks to grade, then those to run in a live kernel as well).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def lost_cells(nb) -> dict[str, list]:
    from nbgrader.utils import determine_grade
    from harness import first_sentence
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {}) or {}
        if meta.get("grade") and cell.cell_type == "code":
            score, most = determine_grade(cell, logging.getLogger("reference-run"))
            if score != most:
                out[meta["grade_id"]] = [score, most, first_sentence(cell)]
    return out


def main(names: list[str], live_too: list[str]) -> None:
    sys.path.insert(0, str(HERE))
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]
    from nbclient import NotebookClient

    from harness import source_notebook

    from puzzlekit.autograder.judge.autograde import WalledExecute
    results = {}
    for name in names:
        with tempfile.TemporaryDirectory(prefix="reference-") as folder:
            os.environ["NBGRADER_EXECUTION"] = "autograde"
            graded, _ = WalledExecute(timeout=30).preprocess(
                source_notebook(name), {"metadata": {"path": folder}})
            os.environ.pop("NBGRADER_EXECUTION")
            results[name] = {"graded": lost_cells(graded)}
            if name in live_too:
                live = source_notebook(name)
                NotebookClient(live, timeout=120, kernel_name="python3", allow_errors=True,
                               resources={"metadata": {"path": folder}}).execute()
                results[name]["live"] = lost_cells(live)
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1].split(","), sys.argv[2].split(",") if len(sys.argv) > 2 else [])
