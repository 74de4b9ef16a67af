"""Autograding that survives a notebook which kills its own kernel.

When a student's cell ends the Python process (``os._exit``, a crash in a C extension,
running out of memory), nbgrader's executor gives up on the whole notebook: no score, no
feedback, only an error in the instructor's log. `ResilientExecute` instead writes an
error into the cell that killed the kernel, marks every later code cell as not run, and
lets nbgrader grade the notebook: tests that passed before keep their points, the others
score 0, and the student gets feedback that says what happened.

Use it in ``nbgrader_config.py``::

    c.Autograde.autograde_preprocessors = with_resilient_execute(
        Autograde.class_traits()["autograde_preprocessors"].default())
"""

from __future__ import annotations

from typing import Any

from nbclient.exceptions import DeadKernelError
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute

KERNEL_DIED = ("the Python kernel stopped while running this cell.\nDid the code call "
               "os._exit() or sys.exit(), or run out of memory? Later cells were not run.")
NOT_RUN = "not run: the Python kernel had stopped in an earlier cell."


def error_output(ename: str, evalue: str) -> Any:
    """A notebook error output, red in the feedback."""
    return new_output("error", ename=ename, evalue=evalue,
                      traceback=[f"\x1b[0;31m{ename}\x1b[0m: {evalue}"])


class ResilientExecute(Execute):
    """nbgrader's Execute, except that a dead kernel fails the rest of the notebook
    instead of the whole autograding run."""

    def preprocess(self, nb: Any, resources: Any = None, km: Any = None) -> Any:
        self._kernel_died = False
        return super().preprocess(nb, resources, km)

    def preprocess_cell(self, cell: Any, resources: Any, index: int) -> Any:
        if cell.cell_type != "code":
            return cell, resources
        if getattr(self, "_kernel_died", False):
            cell.outputs = [error_output("KernelDied", NOT_RUN)]
            return cell, resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._kernel_died = True
            self.log.warning("The kernel died in cell %d; the remaining cells are marked "
                             "as not run", index)
            cell.outputs = list(cell.get("outputs", [])) + [error_output("KernelDied",
                                                                          KERNEL_DIED)]
            return cell, resources


def with_resilient_execute(preprocessors: list[Any]) -> list[Any]:
    """`preprocessors` with nbgrader's Execute replaced by `ResilientExecute`."""
    return [ResilientExecute if p is Execute else p for p in preprocessors]
