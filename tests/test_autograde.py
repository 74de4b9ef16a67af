"""ResilientExecute: a notebook that kills its kernel is run to the end, not abandoned."""

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from nbformat.v4 import new_code_cell, new_notebook  # noqa: E402

from puzzlekit.autograde import KERNEL_DIED, NOT_RUN, ResilientExecute  # noqa: E402

pytestmark = pytest.mark.nbgrader


def test_a_dead_kernel_fails_the_rest_of_the_notebook_only(monkeypatch):
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    nb = new_notebook(cells=[new_code_cell("x = 6 * 7\nprint(x)"),
                             new_code_cell("import os\nos._exit(1)"),
                             new_code_cell("print(x)")])
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    nb, _ = ResilientExecute(timeout=60).preprocess(nb, {})
    first, killer, after = (c.outputs for c in nb.cells)
    assert first[0].text == "42\n"
    assert killer[-1].ename == "KernelDied" and killer[-1].evalue == KERNEL_DIED
    assert [(o.ename, o.evalue) for o in after] == [("KernelDied", NOT_RUN)]
