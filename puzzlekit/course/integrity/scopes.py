"""Scopes: which names a function, class or comprehension binds."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def own_nodes(nodes: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of one scope: not those of nested functions, classes and comprehensions
    (but a walrus in a comprehension, which binds in this scope)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, _COMPREHENSIONS):
            stack += [n for n in ast.walk(node) if isinstance(n, ast.NamedExpr)]
            continue
        stack.extend(ast.iter_child_nodes(node))


def bound_by(node: ast.AST) -> list[str]:
    """The names one node binds in its scope."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name.split(".")[0] for a in node.names if a.name != "*"]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    a = node.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return names


def scope_names(node: ast.AST) -> tuple[set[str], set[str]]:
    """(the names local to this function, lambda, class or comprehension, its globals)."""
    if isinstance(node, _COMPREHENSIONS):
        return {n for g in node.generators for t in ast.walk(g.target)
                for n in bound_by(t)}, set()
    if isinstance(node, ast.Lambda):
        body: list[ast.AST] = [node.body]
    else:
        body = list(node.body)  # type: ignore[attr-defined]
    names: set[str] = set(_params(node)) if isinstance(node, _FUNCTIONS) else set()
    declared: set[str] = set()
    for n in own_nodes(body):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared |= set(n.names)
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        else:
            names |= set(bound_by(n))
    return names - declared, {g for n in own_nodes(body) if isinstance(n, ast.Global)
                              for g in n.names}


def target_names(target: ast.AST | None) -> list[str]:
    if target is None:
        return []
    return [n.id for n in ast.walk(target)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def module_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Every statement that runs at module level (inside if/for/while/with/try too)."""
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        yield stmt
        inner: list[ast.stmt] = []
        for name in ("body", "orelse", "finalbody"):
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner += getattr(stmt, name, [])
        for handler in getattr(stmt, "handlers", []):
            inner += handler.body
        for case in getattr(stmt, "cases", []):
            inner += case.body
        stack += reversed(inner)


def stmt_binds(stmt: ast.stmt) -> list[str]:
    """The module-level names a module-level statement binds (not those of its body)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return target_names(stmt.target)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [n for item in stmt.items for n in target_names(item.optional_vars)]
    if isinstance(stmt, (ast.Try, ast.TryStar)):
        return [h.name for h in stmt.handlers if h.name]
    if isinstance(stmt, (ast.If, ast.While, ast.Match)):
        return []
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return bound_by(stmt)
    if isinstance(stmt, ast.Assign):
        return [n for t in stmt.targets for n in target_names(t)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return target_names(stmt.target)
    return []


def global_loads(tree: ast.AST) -> set[str]:
    """The names `tree` reads from module level (free in all its functions)."""
    found: set[str] = set()

    def walk(node: ast.AST, local: frozenset[str]) -> None:
        if isinstance(node, (*_SCOPES, *_COMPREHENSIONS)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for d in node.decorator_list:
                    walk(d, local)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for default in (*node.args.defaults, *node.args.kw_defaults):
                    if default is not None:
                        walk(default, local)
            names, declared = scope_names(node)
            inner = local | frozenset(names) if not isinstance(node, ast.ClassDef) else local
            inner = inner - frozenset(declared)
            children = (node.body if isinstance(node.body, list) else [node.body]) \
                if not isinstance(node, _COMPREHENSIONS) else list(ast.iter_child_nodes(node))
            for child in children:
                walk(child, inner)
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
            found.add(node.id)
        for child in ast.iter_child_nodes(node):
            walk(child, local)

    walk(tree, frozenset())
    return found


def module_bound(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for stmt in module_level(tree):
        names |= set(stmt_binds(stmt))
    for node in own_nodes(tree.body):
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names
