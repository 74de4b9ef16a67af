"""Where the kit runs: in a Jupyter notebook, in a terminal, or under nbgrader.

The visuals, the progress displays and the grading helpers each behave a little
differently in these places (a widget in a notebook, a text line in a terminal, a cheap
picture or nothing at all while nbgrader executes the notebook); they ask here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def nbgrader_execution() -> str:
    """What nbgrader is doing with this notebook ("autograde", "validate", ...), or ""
    when nbgrader is not executing it (nbgrader sets ``NBGRADER_EXECUTION``)."""
    return os.environ.get("NBGRADER_EXECUTION", "")


@contextmanager
def nbgrader_execution_as(what: str | None) -> Iterator[None]:
    """Inside: ``NBGRADER_EXECUTION`` set to `what` (None: left to whoever sets it, such
    as nbgrader's converters); after: as it was before, set or not."""
    before = os.environ.get("NBGRADER_EXECUTION")
    if what is not None:
        os.environ["NBGRADER_EXECUTION"] = what
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before


def under_autograder() -> bool:
    """True while nbgrader executes the notebook (to autograde or to validate it)."""
    return bool(nbgrader_execution())


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where HTML and widgets can be displayed).

    A kernel has imported IPython long before any of our code runs, so a process that
    has not imported it is no notebook, and is spared the import.
    """
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})
