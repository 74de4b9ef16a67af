"""Where the kit runs: in a Jupyter notebook, in a terminal, or under nbgrader.

The visuals, the progress displays and the grading helpers each behave a little
differently in these places (a widget in a notebook, a text line in a terminal, a cheap
picture or nothing at all while nbgrader executes the notebook); they ask here.
"""

from __future__ import annotations

import os
import sys


def nbgrader_execution() -> str:
    """What nbgrader is doing with this notebook ("autograde", "validate", ...), or ""
    when nbgrader is not executing it (nbgrader sets ``NBGRADER_EXECUTION``)."""
    return os.environ.get("NBGRADER_EXECUTION", "")


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
