"""Rooms keep their insides inside: no module of the package imports another module's
underscore name (a name another module uses is public within its wing, or moves to the
module that uses it). `ALLOWED` lists the few that must stay private, with why."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "puzzlekit"

#: (importing file, module, name) -> why it may cross
ALLOWED: dict[tuple[str, str, str], str] = {}


def module_of(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_private_names(package: Path = PACKAGE) -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(package.rglob("*.py")):
        here = module_of(path, package).split(".")
        folder = here if path.name == "__init__.py" else here[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = folder[:len(folder) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((str(path.relative_to(package.parent)), source, alias.name))
    return found


def test_no_module_imports_another_modules_private_names():
    crossing = [f"{path}: from {source} import {name}"
                for path, source, name in imported_private_names()
                if (path, source, name) not in ALLOWED]
    assert not crossing, ("underscore names imported across modules (make them public in "
                          "their wing, or move them to their user):\n" + "\n".join(crossing))


def test_every_allowed_crossing_still_happens_and_says_why():
    found = set(imported_private_names())
    for key, why in ALLOWED.items():
        assert key in found, f"{key} no longer crosses: take it off ALLOWED"
        assert len(why) > 20, key


def test_the_check_sees_a_private_import(tmp_path):
    """The scanner is not blind: planted imports of private names are found, relative
    and absolute, and dunder names are not counted."""
    wing = tmp_path / "kit" / "wing"
    wing.mkdir(parents=True)
    (tmp_path / "kit" / "__init__.py").write_text("")
    (wing / "__init__.py").write_text("from .inside import __all__\n")
    (wing / "inside.py").write_text("_secret = 1\n")
    (wing / "user.py").write_text("from .inside import _secret\nfrom kit.wing.inside import _x\n")
    assert imported_private_names(tmp_path / "kit") == [
        ("kit/wing/user.py", "kit.wing.inside", "_secret"),
        ("kit/wing/user.py", "kit.wing.inside", "_x")]
