"""A test that hands out its answers: names a graded test cell binds that the student's code
can read while the test calls it.

A test cell runs where the student's functions live (in plain nbgrader, in the kernel;
under the kit's grader, the judge gives the student's code every name a test binds that
one of the student's functions reads, as plain nbgrader would). So a test that binds
``shortest = puzzlekit.solve(S).length`` and then calls ``solve_pos(p, 20)`` lets an
answer ``return shortest`` pass with no algorithm. Names with a leading underscore are the
test's own: the kit's grader never gives them to the student's code.

`readable_answers` finds such bindings in a source notebook, without running anything:
a module-level name without a leading underscore, bound in a graded test cell to a value
the test computed with a reference it forbids (``puzzlekit.solve(...)``) or to a constant
(``for board, shortest in [(..., 8)]``), that the test then checks against (in an
``assert`` or a call of ``assert_*``/``check_*``), while the student's code runs after
the binding without being given that name. The course's generate step and ``python -m
puzzlekit check-tests`` warn the author about each (`puzzlekit.course.author_check`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ReadableAnswer", "readable_answers"]


@dataclass(frozen=True)
class ReadableAnswer:
    """One binding of a test cell that the student's code can read."""

    grade_id: str
    line: int
    name: str

    def warning(self, notebook: str = "the notebook") -> str:
        return (f"{notebook}, cell {self.grade_id}, line {self.line}: the test binds "
                f"{self.name!r}, a value it checks against, as a global before it calls the "
                f"student's code, which can read it (`return {self.name}` would pass). Name "
                f"it _{self.name}: the grader never gives a name with a leading underscore "
                f"to the student's code.")


def _meta(cell: Mapping[str, Any]) -> Mapping[str, Any]:
    return (cell.get("metadata") or {}).get("nbgrader") or {}


def _source(cell: Mapping[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def _parse(cell: Mapping[str, Any]) -> ast.Module | None:
    lines = [line for line in _source(cell).splitlines()
             if not line.lstrip().startswith(("%", "!"))]     # magics: not Python
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _names(node: ast.AST | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _free(node: ast.AST | None) -> set[str]:
    """The names `node` reads from the module (not its comprehensions' own variables)."""
    if node is None:
        return set()
    local = {n.id for c in ast.walk(node) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    return _names(node) - local


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _student_names(nb: Mapping[str, Any]) -> set[str]:
    """The names the solution cells bind at module level: the student's."""
    names: set[str] = set()
    for cell in nb.get("cells", []):
        tree = _parse(cell) if cell.get("cell_type") == "code" and \
            _meta(cell).get("solution") else None
        for stmt in tree.body if tree is not None else ():
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    names |= _names(target)
    return names


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements in the order they run, nested blocks included (not the
    bodies of functions and classes)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With,
                             ast.AsyncWith, ast.Try)):
            yield from _statements(getattr(stmt, "body", []))
            yield from _statements(getattr(stmt, "orelse", []))
            for handler in getattr(stmt, "handlers", []):
                yield from _statements(handler.body)
            yield from _statements(getattr(stmt, "finalbody", []))


def _own_parts(stmt: ast.stmt) -> list[ast.AST]:
    """The parts of a statement that run as it starts (not its nested statements)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.target, stmt.iter]
    if isinstance(stmt, (ast.While, ast.If)):
        return [stmt.test]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [part for item in stmt.items for part in (item.context_expr,
                                                         item.optional_vars) if part]
    if isinstance(stmt, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    return [stmt]


def _binding(stmt: ast.stmt) -> tuple[list[ast.expr], ast.expr | None]:
    """(the targets, the value) of a statement that binds names at module level."""
    if isinstance(stmt, ast.Assign):
        return list(stmt.targets), stmt.value
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        return [stmt.target], stmt.value
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.target], stmt.iter
    return [], None


def _constant(node: ast.expr) -> bool:
    """A literal, or containers of literals (the test's expected values)."""
    return all(isinstance(n, (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict,
                              ast.UnaryOp, ast.USub, ast.Load, ast.BinOp, ast.operator))
               for n in ast.walk(node))


def _forbidden(cells: list[ast.Module]) -> set[str]:
    """Every reference a test cell forbids (the string arguments of forbid_reference)."""
    names: set[str] = set()
    for tree in cells:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node.func) == "forbid_reference":
                names |= {a.value for a in node.args if isinstance(a, ast.Constant)
                          and isinstance(a.value, str)}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and any(
                    isinstance(t, ast.Name) and t.id == "forbidden" for t in node.targets):
                names |= {e.value for e in node.value.elts      # forbidden = ("solve", ...)
                          if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return names


def _calling_helpers(cells: list[ast.Module], students: set[str]) -> set[str]:
    """The test cells' own functions that call the student's code."""
    helpers: set[str] = set()
    changed = True
    while changed:
        changed = False
        for tree in cells:
            for stmt in tree.body:
                if isinstance(stmt, ast.FunctionDef) and stmt.name not in helpers and \
                        _names(stmt) & (students | helpers) - {stmt.name}:
                    helpers.add(stmt.name)
                    changed = True
    return helpers


def _checked(node: ast.AST, callers: set[str]) -> set[str]:
    """The names `node` checks against: not those of the student's calls in it (what the
    student is given) nor of f-strings (the message)."""
    if isinstance(node, ast.JoinedStr):
        return set()
    if isinstance(node, ast.Call) and _calls_student(node, callers):
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    out: set[str] = set()
    for child in ast.iter_child_nodes(node):
        out |= _checked(child, callers)
    return out


def _calls_student(node: ast.Call, callers: set[str]) -> bool:
    args = [*node.args, *(k.value for k in node.keywords)]
    return bool(_names(node.func) & callers) or any(
        isinstance(a, ast.Name) and a.id in callers for a in args)


def _flowing(name: str, flows: Mapping[str, set[str]]) -> set[str]:
    """`name` and every name bound from it, and from those, ..."""
    out, todo = {name}, [name]
    while todo:
        for other in flows.get(todo.pop(), ()):
            if other not in out:
                out.add(other)
                todo.append(other)
    return out


def readable_answers(nb: Mapping[str, Any]) -> list[ReadableAnswer]:
    """The bindings of `nb`'s graded test cells that hand the student's code an answer
    (see the module docstring), in the order the cells run."""
    students = _student_names(nb)
    cells: list[tuple[str, ast.Module]] = []
    for cell in nb.get("cells", []):
        meta = _meta(cell)
        tree = _parse(cell) if cell.get("cell_type") == "code" and meta.get("grade") \
            and not meta.get("solution") else None
        if tree is not None:
            cells.append((str(meta.get("grade_id", "?")), tree))
    trees = [tree for _, tree in cells]
    references = _forbidden(trees)
    callers = students | _calling_helpers(trees, students)
    stmts = [(gid, stmt) for gid, tree in cells for stmt in _statements(tree.body)]
    calls: list[tuple[int, set[str]]] = []     # (position, the names it gives the student)
    checked: dict[str, set[str]] = {}          # grade id -> the names its cell checks
    derived: set[str] = set()                  # bound from what the student's code returned
    flows: dict[str, set[str]] = {}            # name -> the names bound from it
    candidates: list[tuple[int, str, str, int]] = []
    for pos, (gid, stmt) in enumerate(stmts):
        mine = checked.setdefault(gid, set())
        for part in _own_parts(stmt):
            for node in ast.walk(part):
                if isinstance(node, ast.Assert):
                    mine |= _checked(node.test, callers)
                if not isinstance(node, ast.Call):
                    continue
                args = [*node.args, *(k.value for k in node.keywords)]
                if _calls_student(node, callers):
                    calls.append((pos, set().union(*map(_names, args)) if args else set()))
                elif _called(node.func).startswith(("assert", "check")):
                    for arg in args:
                        mine |= _checked(arg, callers)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for name in _names(stmt) - {stmt.name}:     # what the test's function reads
                flows.setdefault(name, set()).add(stmt.name)
        targets, value = _binding(stmt)
        if not targets:
            continue
        bound = {n for t in targets for n in _names(t)}
        for name in _free(value):
            flows.setdefault(name, set()).update(bound - {name})
        if value is not None and _free(value) & (callers | derived):
            derived |= bound            # the student's own values: nothing to hand out
            continue
        answer = value is not None and (_constant(value) or any(
            isinstance(n, ast.Call) and _called(n.func) in references
            for n in ast.walk(value)))
        derived -= bound
        if answer:
            candidates += [(pos, gid, name, stmt.lineno) for name in sorted(bound)
                           if not name.startswith("_")]
    found: list[ReadableAnswer] = []
    seen: set[tuple[str, str]] = set()
    for pos, gid, name, line in candidates:
        later = [given for at, given in calls if at > pos or (
            at == pos and isinstance(stmts[pos][1], (ast.For, ast.AsyncFor)))]
        if name not in checked.get(gid, set()) or not later or (gid, name) in seen:
            continue
        if not _flowing(name, flows) & later[0]:     # not the input it is given
            seen.add((gid, name))
            found.append(ReadableAnswer(gid, line, name))
    return found
