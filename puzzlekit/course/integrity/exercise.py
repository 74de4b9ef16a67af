"""What the instructor's source notebook says: the names the tests rely on and the references
they forbid.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from typing import Any

from ... import registry
from ...old_paths import kit_path
from ...testcells.checks import forbidden_by
from .cells import is_locked, is_solution, is_test, cell_meta, parse, source_text
from .scopes import global_loads, module_bound, module_level, stmt_binds
from .values import fold, import_val, module_val


def _forbid_args(call: ast.Call, consts: Mapping[str, object]) -> set[str]:
    names: set[str] = set()
    for arg in call.args:
        value = fold(arg.value if isinstance(arg, ast.Starred) else arg, consts)
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, tuple):
            names |= {v for v in value if isinstance(v, str)}
    return names


def _is_forbid_call(node: ast.Call) -> bool:
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name in ("forbid_reference", "forbidding")


def _imported_checks(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """name -> (module, name) of each check a test cell imports from the testcells wing's
    checks (`puzzlekit.testcells.checks`): the references such a check forbids are the
    cell's, as if it called ``forbid_reference`` itself."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                kit_path(node.module).startswith("puzzlekit.testcells.checks"):
            for alias in node.names:
                found[alias.asname or alias.name] = (kit_path(node.module), alias.name)
    return found


def constants(tree: ast.Module, consts: dict[str, object]) -> None:
    """Add the module-level ``NAME = <constant>`` assignments of `tree` to `consts`."""
    for stmt in module_level(tree):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name):
            value = fold(stmt.value, consts)
            if value is not None:
                consts[stmt.targets[0].id] = value
            else:
                consts.pop(stmt.targets[0].id, None)


class Exercise:
    """The rules one source notebook sets: protected names and forbidden references."""

    def __init__(self, source_nb: Mapping[str, Any]) -> None:
        cells = [c for c in source_nb.get("cells", []) if c.get("cell_type") == "code"]
        self.locked: dict[str, str] = {}          # grade id -> source of a locked code cell
        self.generated: dict[str, str] = {}       # the same, as generate writes it
        self.solution_ids: set[str] = set()
        self.solution_names: set[str] = set()
        self.locked_ident: dict[str, set[str]] = {}   # name -> what locked cells bind to it
        self.locked_stmts: set[str] = set()
        self.instructor_lines: set[str] = set()
        locked_bound: set[str] = set()
        helpers: dict[str, set[str]] = {}          # locked function -> names it reads
        tests: list[tuple[ast.Module, set[str]]] = []
        consts: dict[str, object] = {}
        for cell in cells:
            source, gid = source_text(cell), cell_meta(cell).get("grade_id")
            tree = parse(source).tree
            if is_solution(cell):
                if gid:
                    self.solution_ids.add(gid)
                if tree is not None:
                    self.solution_names |= module_bound(tree)
                continue
            if not is_locked(cell):
                self.instructor_lines |= {line.strip() for line in source.splitlines()
                                          if line.strip()}
                continue
            if gid:
                self.locked[gid] = source
            if tree is None:
                continue
            constants(tree, consts)
            locked_bound |= module_bound(tree)
            for stmt in module_level(tree):
                self.locked_stmts.add(ast.dump(stmt))
                for name in stmt_binds(stmt):
                    self.locked_ident.setdefault(name, set()).add(binding_identity(stmt, name))
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    helpers[stmt.name] = global_loads(stmt)
            if is_test(cell):
                forbidden: set[str] = set()
                checks = _imported_checks(tree)
                for node in ast.walk(tree):
                    if isinstance(node, ast.Call) and _is_forbid_call(node):
                        forbidden |= _forbid_args(node, consts)
                    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                            and node.func.id in checks:
                        forbidden |= set(forbidden_by(*checks[node.func.id]))
                tests.append((tree, forbidden))
        self.base_forbidden: dict[str, set[str]] = {}
        relied: set[str] = set()
        for tree, forbidden in tests:
            reads = global_loads(tree) - module_bound(tree)
            frontier = list(reads)
            while frontier:                      # through check_path & co.
                name = frontier.pop()
                for more in helpers.get(name, set()) - reads:
                    reads.add(more)
                    frontier.append(more)
            relied |= reads
            for name in reads:
                self.base_forbidden.setdefault(name, set()).update(forbidden)
        self.all_forbidden = frozenset().union(*self.base_forbidden.values()) \
            if self.base_forbidden else frozenset()
        for name in self.solution_names:
            if not self.base_forbidden.get(name):
                self.base_forbidden[name] = set(self.all_forbidden)
        graders = tuple(f"puzzlekit.{wing}." for wing in registry.GRADER_WINGS)
        helpers_given = {n for n, idents in self.locked_ident.items()
                         if any(kit_path(i).startswith(graders) for i in idents)}
        self.protected = {n for n in (locked_bound & relied) | helpers_given
                          if n not in self.solution_names and not n.startswith("__")}
        self.test_builtins = {n for n in relied - locked_bound - self.solution_names
                              if n in vars(builtins) and not n.startswith("_")}
        self.consts = consts


def binding_identity(stmt: ast.AST, name: str) -> str:
    """What an import binds to `name` (a dotted name), '' for any other binding."""
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if (a.asname or a.name.split(".")[0]) == name:
                return module_val(a.name if a.asname else a.name.split(".")[0]).dotted
    if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
        for a in stmt.names:
            if (a.asname or a.name) == name:
                return import_val(stmt.module, a.name).dotted
    return ""
