"""The package as shipped: dependencies, a light `import puzzlekit`, exports, no import
cycles, and style.css as package data."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import puzzlekit as pk

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "puzzlekit"
HEAVY = ("matplotlib", "ipywidgets", "numpy", "IPython")


def python(code: str) -> str:
    """Run `code` in a fresh interpreter from the repository root; return its stdout."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# -------------------------------------------------------------- environment.yml vs pyproject

def requirement(spec: str) -> tuple[str, str | None]:
    """('numpy', '1.24') from 'numpy>=1.24'; the version is None without a minimum."""
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(?:\[.*\])?\s*(?:>=\s*([0-9][0-9.]*))?.*", spec)
    assert m, f"cannot read the requirement {spec!r}"
    return m.group(1).lower().replace("_", "-"), m.group(2)


def version(v: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split(".")) if v else ()


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def conda_environment() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def extra(project: dict, name: str) -> list[str]:
    """The requirements of one extra, with the kit's own extras it names spelled out."""
    out: list[str] = []
    for spec in project["optional-dependencies"][name]:
        own = re.fullmatch(r"puzzlekit\[(.*)\]", spec.strip())
        out += [s for e in own.group(1).split(",") for s in extra(project, e.strip())] \
            if own else [spec]
    return out


def test_environment_yml_has_the_dependencies_of_pyproject():
    project = pyproject()["project"]
    wanted = dict(map(requirement, project["dependencies"] + extra(project, "course")))
    env = conda_environment()
    conda = dict(requirement(d) for d in env["dependencies"] if isinstance(d, str))
    for name, minimum in wanted.items():
        assert name in conda, f"environment.yml lacks {name}"
        assert version(conda[name]) >= version(minimum), \
            f"environment.yml allows {name} {conda[name]}, pyproject needs >= {minimum}"
    python_min = requirement("python" + project["requires-python"])[1]
    assert version(conda["python"]) >= version(python_min)


def test_environment_yml_is_conda_forge_first_and_pip_installs_the_kit():
    env = conda_environment()
    assert env["channels"][0] == "conda-forge"
    pip = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert "pip" in env["dependencies"] and pip
    assert any(re.fullmatch(r"(-e\s+)?\.(\[.*\])?", item.strip()) for item in pip[0])


# ------------------------------------------------------------------------ the import itself

def test_import_puzzlekit_is_light():
    loaded = json.loads(python(
        "import sys, json, puzzlekit; "
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"))
    assert loaded == []


def test_the_model_and_solver_stay_free_of_visuals():
    visuals = tuple(m for m in HEAVY if m != "numpy")
    code = ("import sys, json, puzzlekit as pk\n"
            "pk.solve(pk.apply_moves(pk.goal_state(3), 'ULDR'))\n"
            "pk.search(pk.nextStates, pk.apply_moves(pk.goal_state(3), 'UL'), pk.goal_state(3))\n"
            "pk.read_board('2\\n0 1\\n2 3\\n'); pk.check_heuristic(pk.manhattan, samples=10)\n"
            f"print(json.dumps([m for m in {visuals!r} if m in sys.modules]))")
    assert json.loads(python(code)) == []


def test_every_exported_name_resolves():
    missing = [name for name in pk.__all__ if getattr(pk, name, None) is None]
    assert missing == []
    assert set(pk._EXPORTS) <= set(dir(pk))
    with pytest.raises(AttributeError):
        pk.no_such_name  # noqa: B018


def test_exports_point_at_their_defining_modules():
    for name, module in pk._EXPORTS.items():
        defined = getattr(pk, name)
        home = getattr(defined, "__module__", None)
        if home is not None and home.startswith("puzzlekit."):
            assert home == f"puzzlekit.{module}" or name == "State", (name, home)


def test_the_front_names_its_references():
    assert pk.reference_module("nextStates") == "puzzle.lecture"
    assert pk.reference("solve") is pk.solve
    assert dict(pk.references()) == pk._EXPORTS
    with pytest.raises(pk.PuzzleError, match="no_such_name"):
        pk.reference_module("no_such_name")
    with pytest.raises(TypeError):
        pk.references()["solve"] = "elsewhere"  # type: ignore[index]


def test_only_the_heavy_modules_of_the_front_load_a_heavy_package():
    """`testcells` imports every module behind the front but `HEAVY_MODULES` before it forbids
    a reference: those must stay light, and the heavy ones must be heavy."""
    light = sorted(set(pk.references().values()) - pk.HEAVY_MODULES)
    code = (f"import sys, json, importlib\n"
            f"for m in {light!r}: importlib.import_module('puzzlekit.' + m)\n"
            f"light = [m for m in {HEAVY!r} if m in sys.modules]\n"
            f"for m in {sorted(pk.HEAVY_MODULES)!r}: importlib.import_module('puzzlekit.' + m)\n"
            f"print(json.dumps([light, 'ipywidgets' in sys.modules]))")
    assert json.loads(python(code)) == [[], True]


# ---------------------------------------------------------------------------- import cycles

def modules() -> list[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))


def _type_checking_only(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` (its imports never run)."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_in(source: str, siblings: set[str]) -> set[str]:
    """The `siblings` a module's `source` imports anywhere: at the top, inside functions
    or methods, in try/except; all but under `if TYPE_CHECKING:`, whose imports never run."""
    found = set()
    todo: list[ast.AST] = [ast.parse(source)]
    while todo:
        node = todo.pop()
        todo += [child for child in ast.iter_child_nodes(node) if not _type_checking_only(child)]
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("puzzlekit."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names
                         if a.name.startswith("puzzlekit."))
    return found & siblings


def sibling_imports(module: str) -> set[str]:
    """Sibling modules that `module` imports, wherever the import stands."""
    return imports_in((PACKAGE / f"{module}.py").read_text(), set(modules()))


def test_the_cycle_check_sees_imports_inside_functions():
    inside = ("def f():\n    from .a import x\n"
              "class C:\n    def m(self):\n        import puzzlekit.b\n"
              "try:\n    from . import c\nexcept ImportError:\n    pass\n")
    assert imports_in(inside, {"a", "b", "c"}) == {"a", "b", "c"}
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import T\n"
    assert imports_in(typing_only, {"a"}) == set()


def test_no_import_cycles_between_modules():
    graph = {m: sibling_imports(m) for m in modules()}
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            assert state.get(n) != 1, "import cycle: " + " -> ".join(trail + [m, n])
            if n not in state:
                visit(n, trail + [m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])


def test_every_module_imports_alone():
    """Each module imported first in a clean interpreter state (one subprocess for all)."""
    code = f"""
import importlib, sys
failed = []
for name in {modules()!r}:
    for key in [k for k in sys.modules if k == "puzzlekit" or k.startswith("puzzlekit.")]:
        del sys.modules[key]
    try:
        importlib.import_module("puzzlekit." + name)
    except Exception as e:
        failed.append(f"{{name}}: {{type(e).__name__}}: {{e}}")
print("\\n".join(failed))
"""
    assert python(code).strip() == ""


# ------------------------------------------------------------------------------- style.css

def test_style_css_ships_inside_the_package():
    assert (PACKAGE / "style.css").is_file()
    data = pyproject()["tool"]["setuptools"]["package-data"]["puzzlekit"]
    assert any(Path("style.css").match(pattern) for pattern in data)
    from importlib import resources
    assert "{" in resources.files("puzzlekit").joinpath("style.css").read_text(encoding="utf-8")


def test_root_style_css_is_the_package_copy():
    if (ROOT / "style.css").exists():
        assert (ROOT / "style.css").read_text() == (PACKAGE / "style.css").read_text()


@pytest.mark.slow
def test_setuptools_ships_the_modules_and_style_css(tmp_path):
    """Run setuptools' build_py on a copy of the project: what a wheel would contain."""
    import shutil
    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src / "puzzlekit", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    proc = subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()",
                           "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          capture_output=True, text=True, timeout=300, cwd=src)
    assert proc.returncode == 0, proc.stderr[-2000:]
    built = {p.relative_to(tmp_path / "lib").as_posix()
             for p in (tmp_path / "lib").rglob("*") if p.is_file()}
    assert {"puzzlekit/style.css", "puzzlekit/py.typed", "puzzlekit/__main__.py"} <= built
    # the course's feedback template (puzzlekit.course.feedback_page) ships too
    assert {"puzzlekit/templates/puzzlekit_feedback/index.html.j2",
            "puzzlekit/templates/puzzlekit_feedback/conf.json"} <= built
    assert {f"puzzlekit/{m}.py" for m in modules()} <= built


def test_the_student_kit_needs_neither_numpy_nor_matplotlib():
    """`pip install puzzlekit` (no extras) is the browser's kit: its dependencies are pure
    Python; numpy and matplotlib come with extras that the course's extra includes."""
    project = pyproject()["project"]
    plain = {requirement(d)[0] for d in project["dependencies"]}
    assert plain == {"ipywidgets"}
    assert {requirement(d)[0] for d in extra(project, "pdb")} == {"numpy"}
    assert {"numpy", "matplotlib", "pillow"} <= {requirement(d)[0] for d in extra(project, "charts")}
    assert {"numpy", "matplotlib", "pillow"} <= {requirement(d)[0] for d in extra(project, "course")}
