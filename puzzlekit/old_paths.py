"""Old paths keep working for one term: ``puzzlekit.autograde`` is
``puzzlekit.autograder.judge.autograde``, ``puzzlekit.grading.checks`` is
``puzzlekit.testcells.checks``, until `REMOVE_AFTER`.

Until the autumn term of 2026 the package was one flat folder. Notebooks already released
(``from puzzlekit.diagnose import …``), course configs (``c.Autograde.… =
"puzzlekit.autograde.WalledExecute"``), kernel specs (``python -m puzzlekit.wall``) and
students' habits name those modules. `ALIASES` maps each old name to its module in the
wings; an import finder makes the old name the very same module object (so a patch of
one is a patch of the other, and the integrity report and `testcells.forbidding` see one
module), and ``python -m`` runs an old name as the new one. `PACKAGES` maps the three
rooms renamed in the autumn of 2026 (each named for grading, now for what it is): an old
package path and every module under it is the new one. tests/test_old_paths.py
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
    "diagnose": "testcells.diagnose",
    "messages": "testcells.messages",
    "instrument": "testcells.instrument",
    "wire": "autograder.wire",
    "agent": "autograder.kernel.agent",
    "judge": "autograder.judge.judge",
    "autograde": "autograder.judge.autograde",
    "sanitize": "autograder.judge.sanitize",
    "plainfiles": "autograder.judge.plainfiles",
    "wall": "autograder.wall",
    "collect": "course.collect",
    "feedback": "course.feedback",
    "late": "course.late",
    "lms_export": "course.lms_export",
    "course_setup": "course.course_setup",
    "authoring": "course.authoring",
    "author_check": "course.author_check",
    "integrity": "course.integrity",
    "classgrade": "course.workers",
    "classgrade_pool": "course.workers.pool",
    "classgrade_remote": "course.workers.remote",
    "grade_progress": "course.workers.progress",
    "proctree": "course.workers.proctree",
    "grading": "testcells",}

#: old package (relative to puzzlekit) -> its new path; every module under it moved along
PACKAGES: dict[str, str] = {
    "grading": "testcells",                     # what a test cell imports
    "autograder.grader": "autograder.judge",    # the wall's outer side: the judge
    "course.class_grading": "course.workers",   # grading a class on worker processes
}


def new_path(relative: str) -> str:
    """The module an old path (relative to puzzlekit: ``"grading.checks.paths"``) names
    now; a path that is not old is returned as it is."""
    if relative in ALIASES:
        return ALIASES[relative]
    for old, new in PACKAGES.items():
        if relative == old or relative.startswith(old + "."):
            return new + relative[len(old):]
    return relative


def kit_path(dotted: str) -> str:
    """`dotted` (``"puzzlekit.grading.checks"``) with an old module path made the new one;
    any other name is returned as it is."""
    package, dot, rest = dotted.partition(".")
    return f"puzzlekit.{new_path(rest)}" if package == "puzzlekit" and dot else dotted


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
    """Finds ``puzzlekit.<old name>`` for every name of `ALIASES` and every module under
    an old package of `PACKAGES`."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.partition(".")
        if package != "puzzlekit" or not name or new_path(name) == name:
            return None
        return importlib.machinery.ModuleSpec(fullname,
                                              _AliasLoader(f"puzzlekit.{new_path(name)}"))


def install() -> None:
    """Put the finder on `sys.meta_path` (once), first: a module under an old package
    must not be found again, as a second copy, in the new package's folder."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())

