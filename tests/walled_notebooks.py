"""Small notebooks graded by `WalledExecute` in real walled kernels, for the tests of
the grader's budgets and of what crosses the kernel's edge."""

import os
import sys
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_notebook


def notebook(*sources, tests=(), given=()):
    cells = [new_code_cell(s) for s in sources]
    for index in tests:
        cells[index].metadata["nbgrader"] = {"grade": True, "solution": False,
                                             "locked": True, "points": 1,
                                             "grade_id": f"t{index}", "schema_version": 3}
    for index in given:
        cells[index].metadata["nbgrader"] = {"grade": False, "solution": False,
                                             "locked": True, "grade_id": f"g{index}",
                                             "schema_version": 3}
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    return nb


@pytest.fixture
def run(monkeypatch, tmp_path):
    """run(nb, **WalledExecute options): the outputs of each cell after grading."""
    from puzzlekit.autograder.judge.autograde import WalledExecute

    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep
                       + os.environ["PATH"])

    def run(nb, **options):
        options.setdefault("timeout", 20)
        nb, _ = WalledExecute(**options).preprocess(nb, {"metadata": {"path": str(tmp_path)}})
        return [c.outputs for c in nb.cells]
    return run


def errors(outputs):
    return [(o.ename, o.evalue) for o in outputs if o.output_type == "error"]


def text(outputs):
    return "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
