"""The layout is the rule: each wing imports only the wings before it.

The order: the base (errors, context, the registry, the old paths, the optional packages) < puzzle < engine <
visuals < grading < autograder < course < the front (``puzzlekit/__init__.py``, the
command line). Inside the autograder, the kernel's side never imports the grader's side
or the launcher: the student's kernel must not hold the judge. Every import counts, at
the top of a module or inside a function.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "puzzlekit"
BASE = {"errors", "context", "registry", "old_paths", "optional"}
FRONT = {"", "cli"}
WINGS = ["puzzle", "engine", "visuals", "testcells", "autograder", "course"]
#: at most one import against the order, each with its reason
DECLARED: dict[tuple[str, str], str] = {}


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = modules()


def level(module: str) -> int:
    if module in BASE:
        return 0
    if module in FRONT or module == "__main__":
        return len(WINGS) + 1
    return WINGS.index(module.split(".")[0]) + 1


def resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The kit's modules (relative names) that an import statement of `module` loads."""
    out: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            is_package = MODULES[module].name == "__init__.py"
            base = module.split(".") if module else []
            base = base if is_package else base[:-1]
            base = base[:len(base) - node.level + 1] if node.level > 1 else base
            prefix = "puzzlekit" + "".join(f".{p}" for p in base)
        else:
            prefix = ""
        target = ".".join(p for p in (prefix, node.module or "") if p)
        inner = [f"{target}.{a.name}" for a in node.names]
        rel = [n.removeprefix("puzzlekit").removeprefix(".") for n in inner]
        # ``from .. import registry`` loads the module registry; ``from . import x`` of a
        # name that is no module loads the module it comes from
        names = [n for n, r in zip(inner, rel) if r in MODULES]
        if len(names) < len(inner):
            names.append(target)
    for name in names:
        if name != "puzzlekit" and not name.startswith("puzzlekit."):
            continue
        rel = name.removeprefix("puzzlekit").removeprefix(".")
        while rel and rel not in MODULES:
            rel = rel.rpartition(".")[0]
        if rel in MODULES:
            out.append(rel)
    return out


def imports() -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every import of the kit inside the kit."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found += [(module, t, node.lineno) for t in resolve(module, node) if t != module]
    return found


def test_the_walk_finds_every_wing_and_the_imports():
    assert {m.split(".")[0] for m in MODULES if m} - BASE - FRONT - {"__main__"} == set(WINGS)
    found = imports()
    assert len(found) > 150
    assert ("testcells", "testcells.session", 43) in found or any(
        a == "testcells" and b == "testcells.session" for a, b, _ in found)


def test_each_wing_imports_only_the_wings_before_it():
    against = [(a, b, line) for a, b, line in imports()
               if level(b) > level(a) and (a, b) not in DECLARED]
    assert against == [], "imports against the wings' order:\n" + "\n".join(
        f"  puzzlekit.{a} (line {line}) imports puzzlekit.{b}" for a, b, line in against)
    assert len(DECLARED) <= 1


def test_the_kernel_side_never_imports_the_graders_side():
    kernel = [(a, b) for a, b, _ in imports() if a.startswith("autograder.kernel")]
    assert kernel, "the agent imports the wire at least"
    bad = [(a, b) for a, b in kernel
           if b.startswith(("autograder.judge", "autograder.wall", "course"))]
    assert bad == []


def test_the_base_imports_nothing_of_the_wings():
    assert [(a, b) for a, b, _ in imports() if a in BASE and b not in BASE] == []


@pytest.mark.parametrize("entry", ["puzzlekit.autograder.kernel.agent", "puzzlekit.testcells"])
def test_importing_the_kernels_side_loads_no_judge(entry):
    """What the student's kernel imports, loaded in a fresh interpreter: no module of the
    grader's side or the course comes with it."""
    code = (f"import sys, {entry}\n"
            "print('\\n'.join(m for m in sys.modules if m.startswith('puzzlekit')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "puzzlekit.testcells" in loaded
    assert not [m for m in loaded if m.startswith(("puzzlekit.autograder.judge",
                                                   "puzzlekit.autograder.wall",
                                                   "puzzlekit.course"))]


def test_an_import_against_the_order_is_seen():
    """The walk itself: a module of the puzzle that imported the testcells wing, relatively
    or by its full name, at the top or inside a function, would be reported."""
    for source in ("from ..testcells import messages", "import puzzlekit.testcells.messages",
                   "def f():\n    from ..testcells.messages import note"):
        node = next(n for n in ast.walk(ast.parse(source))
                    if isinstance(n, (ast.Import, ast.ImportFrom)))
        assert "testcells.messages" in resolve("puzzle.board", node)
        assert level("testcells.messages") > level("puzzle.board")
    node = ast.parse("from .. import registry").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert resolve("puzzle.board", node) == ["registry"]
