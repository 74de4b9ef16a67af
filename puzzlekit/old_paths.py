"""Old paths keep working for one term: ``puzzlekit.autograde`` is
``puzzlekit.autograder.grader.autograde`` until `REMOVE_AFTER`.

Until the autumn term of 2026 the package was one flat folder. Notebooks already released
(``from puzzlekit.diagnose import …``), course configs (``c.Autograde.… =
"puzzlekit.autograde.WalledExecute"``), kernel specs (``python -m puzzlekit.wall``) and
students' habits name those modules. `ALIASES` maps each old name to its module in the
wings; an import finder makes the old name the very same module object (so a patch of
one is a patch of the other, and the integrity report and `grading.forbidding` see one
module), and ``python -m`` runs an old name as the new one. tests/test_old_paths.py
imports every alias and fails after `REMOVE_AFTER`, so the list is not forgotten.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import CodeType, ModuleType

#: the last day the old paths are promised (the end of the spring term 2027)
REMOVE_AFTER = "2027-07-31"

#: old module (relative to puzzlekit) -> its module in the wings
ALIASES: dict[str, str] = {
    "board": "puzzle.board",
    "geometry": "puzzle.geometry",
    "lecture": "puzzle.lecture",
    "moves": "puzzle.moves",
    "formats": "puzzle.formats",
    "solvability": "puzzle.solvability",
    "exact": "puzzle.exact",
    "scrambles": "puzzle.scrambles",
    "heuristics": "puzzle.heuristics",
    "text": "puzzle.text",
    "problem": "engine.problem",
    "uninformed": "engine.uninformed",
    "informed": "engine.informed",
    "layered": "engine.layered",
    "solver": "engine.solver",
    "pdb": "engine.pdb",
    "large": "engine.large",
    "fast_idastar": "engine.fast_idastar",
    "heuristic_choice": "engine.heuristic_choice",
    "progress": "engine.progress",
    "progress_events": "engine.progress.events",
    "progress_display": "engine.progress.display",
    "display": "visuals.display",
    "animation": "visuals.animation",
    "widgets": "visuals.widgets",
    "game": "visuals.game",
    "diagnose": "grading.diagnose",
    "messages": "grading.messages",
    "instrument": "grading.instrument",
    "wire": "autograder.wire",
    "agent": "autograder.kernel.agent",
    "judge": "autograder.grader.judge",
    "autograde": "autograder.grader.autograde",
    "sanitize": "autograder.grader.sanitize",
    "plainfiles": "autograder.grader.plainfiles",
    "wall": "autograder.wall",
    "collect": "course.collect",
    "feedback": "course.feedback",
    "late": "course.late",
    "lms_export": "course.lms_export",
    "course_setup": "course.course_setup",
    "authoring": "course.authoring",
    "author_check": "course.author_check",
    "integrity": "course.integrity",
    "classgrade": "course.class_grading",
    "classgrade_pool": "course.class_grading.pool",
    "classgrade_remote": "course.class_grading.remote",
    "grade_progress": "course.class_grading.progress",
    "proctree": "course.class_grading.proctree",}


class _AliasLoader(importlib.abc.Loader):
    """Loads an old name as the module it now names (the same object)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The target ran when it was imported; importlib has just given it the old
        name's spec, so its own is put back (``__spec__.name`` stays the new path)."""
        if self.spec is not None:
            module.__spec__ = self.spec

    def get_code(self, fullname: str) -> CodeType | None:
        """The target's code, for ``python -m puzzlekit.<old name>``."""
        spec = importlib.util.find_spec(self.target)
        if spec is not None and spec.submodule_search_locations is not None:
            spec = importlib.util.find_spec(f"{self.target}.__main__")
        loader = spec.loader if spec is not None else None
        get_code = getattr(loader, "get_code", None)
        return get_code(spec.name) if get_code is not None and spec is not None else None


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``puzzlekit.<old name>`` for every name of `ALIASES`."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.partition(".")
        if package != "puzzlekit" or name not in ALIASES:
            return None
        new = f"puzzlekit.{ALIASES[name]}"
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the finder on `sys.meta_path` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.append(_AliasFinder())

