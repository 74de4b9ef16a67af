"""puzzlekit: the sliding-tile puzzle for a course on state-space search.

The front of the package re-exports what the notebooks use. Names load lazily, so
``import puzzlekit`` stays fast and matplotlib/ipywidgets are imported only when a
visual is asked for. `references`, `reference_module` and `reference` name what is behind
the front (the grading helpers use them to switch a reference off while a student's own
version is tested); `puzzlekit.registry` keeps that table, and says which exercise
teaches each reference: its docstring, read through the front, ends with the link.

Behind the front the package is in wings, each importing only the ones before it
(tests/test_layers.py): `puzzle` (the model), `engine` (every search), `visuals`,
`testcells` (what a test cell imports), `autograder` (the two sides of the wall: `kernel`,
`judge`, `wall`) and `course` (the instructor's commands). Old flat paths
(``puzzlekit.autograde``) work until `old_paths.REMOVE_AFTER`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from . import old_paths, optional, registry
from .errors import PuzzleError, SearchLimitReached, SearchStats, Unsolvable

old_paths.install()
optional.install()

__version__ = "0.1.0"

_EXPORTS = registry.EXPORTS


#: modules of the front that load ipywidgets; the engine's names; see `registry`
HEAVY_MODULES = registry.HEAVY_MODULES
ENGINE_NAMES = registry.ENGINE_NAMES

# what a notebook's `from puzzlekit import *` brings (the references' look-ups stay out of
# the students' namespace)
__all__ = sorted(set(_EXPORTS) | {"PuzzleError", "Unsolvable", "SearchLimitReached",
                                  "SearchStats"})


def references() -> Mapping[str, str]:
    """Every name of the front (``"nextStates"``) with the module that defines it
    (``"puzzle.lecture"``): the kit's reference functions, read-only."""
    return _EXPORTS


def reference_module(name: str) -> str:
    """The module of the kit that defines ``puzzlekit.<name>`` ("puzzle.lecture" for
    "nextStates"); a `PuzzleError` when the front has no such name."""
    return registry.module_of(name)


def reference(name: str) -> Any:
    """The object behind ``puzzlekit.<name>``, from the module that defines it."""
    return getattr(importlib.import_module(f".{reference_module(name)}", __name__), name)


def __getattr__(name: str) -> Any:
    if name in old_paths.ALIASES:       # puzzlekit.diagnose, as before the wings
        return importlib.import_module(f".{name}", __name__)
    if name not in _EXPORTS:
        raise AttributeError(f"module 'puzzlekit' has no attribute {name!r}")
    value = reference(name)
    taught = registry.taught_in(name)
    doc = getattr(value, "__doc__", None)
    if taught and isinstance(doc, str) and taught not in doc:
        try:        # the d2l book's "Defined in" link, the other way round
            value.__doc__ = f"{doc.rstrip()}\n\n{taught}"
        except (AttributeError, TypeError):
            pass
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
