"""The kit's optional packages: numpy and matplotlib come with pip extras, not with the kit.

``pip install puzzlekit`` is the student kit (boards, searches, see_search, the playable
board, the visible tests), small enough for a browser (JupyterLite, docs/how-to/browser.md).
numpy (pattern databases) and matplotlib with pillow (animations, charts) come with
``pip install "puzzlekit[pdb]"`` and ``"puzzlekit[charts]"``; the course's environment
(``puzzlekit[course]``, environment.yml) has both.

`install()` (run by ``import puzzlekit``) puts a finder at the end of ``sys.meta_path``:
when no other finder has one of those packages, the import raises `MissingExtra`, a
`PuzzleError` that is also a ModuleNotFoundError (code that tries an import and falls back
still works), naming the package, the kit's function that asked for it, and the extra.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import FrameType, ModuleType

from .errors import PuzzleError

#: each optional package (top-level import name) -> (pip extra, what the kit uses it for)
EXTRAS: dict[str, tuple[str, str]] = {
    "numpy": ("pdb", "pattern databases and animations"),
    "matplotlib": ("charts", "animations and charts"),
    "PIL": ("charts", "animations"),
}


class MissingExtra(PuzzleError, ModuleNotFoundError):
    """An optional package the kit needs for this call is not installed."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


def _asker() -> str | None:
    """The kit's function nearest the caller's own code on the stack (the one the student
    called, e.g. 'animate_path'), or None when no code of the kit asked."""
    frame: FrameType | None = sys._getframe(1)
    found = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module == "puzzlekit" or module.startswith("puzzlekit."):
            if module != __name__ and not frame.f_code.co_name.startswith("_"):
                found = frame.f_code.co_name
        elif found is not None and not module.startswith(("importlib", "_frozen_importlib")):
            return found
        frame = frame.f_back
    return found


def message(name: str, asker: str | None = None) -> str:
    """What is missing and how to get it, in one sentence a student can act on."""
    extra, use = EXTRAS[name]
    package = "pillow" if name == "PIL" else name
    what = (f"{asker}() needs {package}, which is not installed here" if asker
            else f"{package} is not installed here")
    return (f"{what} (the kit uses it for {use}): "
            f'pip install "puzzlekit[{extra}]". In the browser version of the course '
            f"(JupyterLite) {package} is not available; boards, searches, see_search and the "
            f"playable board work without it.")


class _Finder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: reached only when no real finder has the package."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in EXTRAS:
            return None
        raise MissingExtra(message(fullname, _asker()), name=fullname)


FINDER = _Finder()


def install() -> None:
    """Put the finder at the end of sys.meta_path, once."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(FINDER)


def require(name: str) -> ModuleType:
    """The optional package `name` (a key of EXTRAS), or `MissingExtra` naming the extra."""
    if name not in EXTRAS:
        raise PuzzleError(f"{name!r} is not one of the kit's optional packages: {sorted(EXTRAS)}")
    try:
        return importlib.import_module(name)
    except MissingExtra:
        raise
    except ImportError as e:
        raise MissingExtra(message(name, _asker()), name=name) from e
