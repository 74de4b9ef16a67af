"""Grading logs that say only what an instructor can act on.

Two kinds of lines filled ``nbgrader autograde``'s log (and the formgrader's) for every
submission, with nothing to act on:

- **"Attribute 'checksum' for cell goal_tests has changed!"**, once for each test cell
  with hidden tests: the release strips the hidden tests, so every student's copy of such
  a cell differs from the gradebook's, and nbgrader puts the gradebook's back. The kit's
  `OverwriteCells` says nothing when the student's cell is exactly the released one (the
  gradebook's source without its hidden tests), and still warns when a student changed a
  locked cell.
- **SQLAlchemy's "Object of type <SubmittedAssignment> not in session" SAWarning**, which
  nbgrader's own gradebook code raises for each new submission (`SA_NOT_IN_SESSION`, the
  pattern the course config and the class grader filter).
"""

from __future__ import annotations

import copy
import functools
import warnings
from typing import Any

#: The message of nbgrader's SAWarning for each new submission (harmless, nbgrader's).
SA_NOT_IN_SESSION = r"Object of type <Submitted\w*> not in session"


def filter_nbgraders_warnings() -> None:
    """Ignore the SAWarning nbgrader's gradebook code gives for every new submission."""
    warnings.filterwarnings("ignore", message=SA_NOT_IN_SESSION)


@functools.cache
def _overwrite_cells() -> type:
    from nbgrader import utils
    from nbgrader.preprocessors import ClearHiddenTests
    from nbgrader.preprocessors import OverwriteCells as NbgraderOverwriteCells

    class OverwriteCells(NbgraderOverwriteCells):  # type: ignore[misc]
        """nbgrader's OverwriteCells, quiet about a test cell that is exactly as released
        (its hidden tests stripped); any other change of a locked cell is still reported."""

        def preprocess_cell(self, cell: Any, resources: Any, cell_index: int) -> Any:
            self._as_released = False
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id is not None and utils.is_locked(cell):
                try:
                    source = self.gradebook.find_source_cell(grade_id, self.notebook_id,
                                                             self.assignment_id)
                except Exception:     # nbgrader's own code reports a missing cell
                    source = None
                if source is not None:
                    released = copy.deepcopy(cell)
                    released.source = source.source
                    ClearHiddenTests(parent=self)._remove_hidden_test_region(released)
                    self._as_released = released.source.strip() == cell.source.strip()
            return super().preprocess_cell(cell, resources, cell_index)

        def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
            if attr == "checksum" and getattr(self, "_as_released", False):
                self.log.debug("cell %s: hidden tests restored", name)
                return
            super().report_change(name, attr, old, new)

    return OverwriteCells


def with_quiet_overwrite(preprocessors: list[Any]) -> list[Any]:
    """`preprocessors` with nbgrader's OverwriteCells replaced by the kit's."""
    from nbgrader.preprocessors import OverwriteCells as NbgraderOverwriteCells
    return [_overwrite_cells() if p is NbgraderOverwriteCells else p for p in preprocessors]


def __getattr__(name: str) -> Any:
    if name == "OverwriteCells":
        return _overwrite_cells()
    raise AttributeError(name)


__all__ = ["OverwriteCells", "SA_NOT_IN_SESSION", "filter_nbgraders_warnings",
           "with_quiet_overwrite"]
