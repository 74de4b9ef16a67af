"""The scan of one submitted notebook: a visitor that resolves names as Python would and
records what student code reaches.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ... import registry
from ...testcells.catalogue import (
    FAKES_CLASS,
    HANDS_NAMESPACE,
    LOCATES_GRADER,
    REACHES_INTERNALS,
    REBINDS_HELPER,
    RIGGED_IGNORES_OTHER,
    RIGGED_SAME_ANSWER,
    SETS_ATTRIBUTES,
    SHADOWS_BUILTIN,
    USES_PATH,
)
from .cells import short
from .exercise import binding_identity
from .rules import (
    ATTRIBUTE_RULES,
    FRONT,
    INSPECTORS,
    IPYTHON_NAMES,
    NAMESPACE_READERS,
    NAMESPACE_READING_CALLS,
    OTHER_DUNDERS,
    PATCHERS,
    SELF_DUNDERS,
    owner_kind,
    rule_for,
    sensitive_path,
    split_dotted,
)
from .scopes import bound_by, own_nodes, scope_names, stmt_binds, target_names
from .values import MAIN_NS, fold_str, import_val, module_val, Val

if TYPE_CHECKING:
    from .cells import Parsed
    from .exercise import Exercise



#: a module's own look-up by name: handed on, it reaches any of the module's names
_LOOKUPS = frozenset({"__getattr__", "__getattribute__"})


@dataclass
class _Scope:
    kind: str                      # "function", "class" or "comprehension"
    names: set[str]
    declared_global: set[str]
    aliases: dict[str, Val] = field(default_factory=dict)


@dataclass
class Cell:
    index: int
    grade_id: str
    unmarked: bool                 # no nbgrader metadata: the instructor's lines are exempt
    parsed: Parsed


@dataclass
class Reach:
    """Student code took puzzlekit's `ident` = (module, name) out of puzzlekit."""

    cell: Cell
    lineno: int
    ident: tuple[str, str]
    attrib: tuple[str, ...]        # the module-level names the statement binds
    escapes: bool                  # the function itself is stored or handed on (not called)
    star: bool = False


@dataclass(order=True)
class Hit:
    key: tuple[int, int, int]
    grade_id: str
    finding: str
    line: str


class Scan:
    """Notebook-wide state of one scan."""

    def __init__(self, exercise: Exercise) -> None:
        self.exercise = exercise
        self.env: dict[str, Val] = {}           # module level, in the order cells run
        self.may_env: dict[str, Val] = {}       # any module-level binding (for functions)
        self.module_names: set[str] = set()
        self.consts: dict[str, object] = dict(exercise.consts)
        self.deps: dict[str, set[str]] = {}
        self.reaches: list[Reach] = []
        self.student_binds: dict[str, list[tuple[int, int]]] = {}
        self.hits: list[Hit] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.order = 0

    def line(self, cell: Cell, lineno: int) -> str:
        return cell.parsed.lines[lineno - 1] if 0 < lineno <= len(cell.parsed.lines) else ""

    def exempt(self, cell: Cell, lineno: int) -> bool:
        """A line the instructor wrote in a demo cell (e.g. a fallback to puzzlekit)."""
        return cell.unmarked and self.line(cell, lineno).strip() in self.exercise.instructor_lines

    def hit(self, cell: Cell, lineno: int, kind: str, why: str) -> None:
        if self.exempt(cell, lineno):
            return
        line = self.line(cell, lineno)
        key = (cell.grade_id, kind, line.strip())
        if key in self.seen:
            return
        self.seen.add(key)
        self.order += 1
        self.hits.append(Hit((cell.index, lineno, self.order), cell.grade_id,
                              f"{kind}: {why}", short(line)))


def env_apply(stmt: ast.stmt, env: dict[str, Val],
               resolve: Callable[[ast.AST], Val | None]) -> None:
    """Update the module-level environment after `stmt` ran."""
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if a.asname:
                env[a.asname] = module_val(a.name)
            else:
                env[a.name.split(".")[0]] = module_val(a.name.split(".")[0])
        return
    if isinstance(stmt, ast.ImportFrom):
        if stmt.level or not stmt.module:
            return
        for a in stmt.names:
            if a.name == "*":
                if stmt.module == "puzzlekit":
                    for name in FRONT:
                        env[name] = import_val("puzzlekit", name)
                continue
            env[a.asname or a.name] = import_val(stmt.module, a.name)
        return
    if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
        value = resolve(stmt.value)
        for t in stmt.targets:
            if value is None:
                env.pop(t.id, None)  # type: ignore[attr-defined]
            else:
                env[t.id] = value  # type: ignore[attr-defined]
        return
    for name in stmt_binds(stmt):
        env.pop(name, None)


class Visitor(ast.NodeVisitor):
    """Walks the answer cells of one notebook, in order, naming what it finds."""

    def __init__(self, scan: Scan, cell: Cell) -> None:
        self.scan, self.cell = scan, cell
        self.ex = scan.exercise
        self.scopes: list[_Scope] = []
        self.attrib: tuple[str, ...] = ()
        self.loads: set[str] = set()
        self.parents: dict[ast.AST, ast.AST] = {}

    # -- entry points ------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        for lineno, kind, why in self.cell.parsed.magics:
            self.scan.hit(self.cell, lineno, kind, why)
        for stmt in tree.body:
            self.top(stmt)

    def top(self, stmt: ast.stmt) -> None:
        """One module-level statement: bindings checked, then visited, then applied."""
        if isinstance(stmt, (ast.If, ast.While)):
            self.part(stmt.test, ())
            for s in (*stmt.body, *stmt.orelse):
                self.top(s)
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            names = tuple(target_names(stmt.target))
            self.check_binding(stmt, names, callable_value=False)
            self.part(stmt.iter, names)
            self.part(stmt.target, names)
            for name in names:
                self.scan.env.pop(name, None)
            for s in (*stmt.body, *stmt.orelse):
                self.top(s)
            return
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                names = tuple(target_names(item.optional_vars))
                self.check_binding(stmt, names, callable_value=False)
                self.part(item.context_expr, names)
                if item.optional_vars is not None:
                    self.part(item.optional_vars, names)
                for name in names:
                    self.scan.env.pop(name, None)
            for s in stmt.body:
                self.top(s)
            return
        if isinstance(stmt, (ast.Try, ast.TryStar)):
            for s in stmt.body:
                self.top(s)
            for h in stmt.handlers:
                if h.type is not None:
                    self.part(h.type, ())
                if h.name:
                    self.check_binding(stmt, (h.name,), callable_value=False)
                for s in h.body:
                    self.top(s)
            for s in (*stmt.orelse, *stmt.finalbody):
                self.top(s)
            return
        if isinstance(stmt, ast.Match):
            self.part(stmt.subject, ())
            for case in stmt.cases:
                names = tuple(n for p in ast.walk(case.pattern) for n in bound_by(p))
                self.check_binding(stmt, names, callable_value=False)
                if case.guard is not None:
                    self.part(case.guard, names)
                for s in case.body:
                    self.top(s)
            return
        names = tuple(stmt_binds(stmt))
        self.check_binding(stmt, names, callable_value=_callable_binding(stmt))
        self.part(stmt, names)
        env_apply(stmt, self.scan.env, self.resolve)

    def part(self, node: ast.AST, names: tuple[str, ...]) -> None:
        """Visit `node` with its reaches attributed to the module-level `names`."""
        self.attrib, self.loads = names, set()
        self.visit(node)
        for name in names:
            self.scan.deps.setdefault(name, set()).update(self.loads)
        self.attrib, self.loads = (), set()

    # -- findings ---------------------------------------------------------------------
    def hit(self, node: ast.AST, kind: str, why: str) -> None:
        self.scan.hit(self.cell, getattr(node, "lineno", 1), kind, why)

    def reach(self, node: ast.AST, val: Val, base: Val, star: bool = False) -> None:
        module = base.puzzlekit_module
        if module is None:
            return
        parts = val.dotted.split(".")
        if len(parts) < 2 or val.is_module:
            return
        split = split_dotted(val.dotted)
        ident = split if split is not None and split[0] else (module, parts[-1])
        if ident[1] in _LOOKUPS and self.escapes(node):
            # the module's own look-up handed on (``map(puzzlekit.__getattr__, names)``):
            # it reaches whatever name it is later given
            ident = (ident[0], "?")
        if registry.in_grader(ident[0]):
            if ident[1].startswith("_") and not ident[1].endswith("__"):
                self.hit(node, "patches-grader",
                         REACHES_INTERNALS.format(module=ident[0], name=ident[1]))
            return
        line = getattr(node, "lineno", 1)
        if self.scan.exempt(self.cell, line):
            return
        self.scan.reaches.append(Reach(self.cell, line, ident, self.attrib,
                                        self.escapes(node), star))

    def escapes(self, node: ast.AST) -> bool:
        """Whether the function at `node` is kept or handed on, rather than called or
        looked at (``help(puzzlekit.solve)``, ``puzzlekit.search.__doc__``)."""
        parent = self.parents.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            return False
        if isinstance(parent, ast.Attribute):
            return False
        if isinstance(parent, ast.Call) and node in parent.args:
            callee = self.resolve(parent.func)
            return callee is None or not (callee.dotted in INSPECTORS
                                          or callee.dotted.startswith(("inspect.", "pydoc.")))
        return True

    def flag_val(self, node: ast.AST, val: Val | None) -> None:
        if val is None or val.ns:
            return
        kind = rule_for(val.dotted)
        if kind:
            self.hit(node, kind, f"uses {val.dotted.removeprefix('builtins.')}")

    # -- bindings ---------------------------------------------------------------------
    def check_binding(self, stmt: ast.AST, names: Iterable[str], *,
                      callable_value: bool) -> None:
        """rebinds-helper and shadowed builtins, for module-level bindings of `names`."""
        dumped: str | None = None
        helpers: list[str] = []
        shadowed: list[str] = []
        for name in names:
            self.scan.student_binds.setdefault(name, []).append(
                (self.cell.index, getattr(stmt, "lineno", 0)))
            if name in self.ex.solution_names:
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in FRONT:
                continue   # the student's own nextStates etc.: the grader uses puzzlekit's
            protected = name in self.ex.protected
            shadows = name in self.ex.test_builtins and callable_value
            if not (protected or shadows):
                continue
            identity = binding_identity(stmt, name)
            if identity and identity in self.ex.locked_ident.get(name, set()):
                continue
            dumped = dumped or ast.dump(stmt)
            if dumped not in self.ex.locked_stmts:
                (helpers if protected else shadowed).append(name)
        if helpers:
            self.hit(stmt, "rebinds-helper", REBINDS_HELPER.format(names=", ".join(helpers)))
        if shadowed:
            self.hit(stmt, "builtins", SHADOWS_BUILTIN.format(names=", ".join(shadowed)))

    def global_binding(self, node: ast.AST, targets: Iterable[str]) -> tuple[str, ...]:
        """Names a statement in a function binds at module level (declared global)."""
        declared = next((s.declared_global for s in reversed(self.scopes)
                         if s.kind == "function"), set())
        names = tuple(n for n in targets if n in declared)
        if names:
            self.check_binding(node, names, callable_value=_callable_binding(node))
        return names

    # -- name resolution --------------------------------------------------------------
    def in_function(self) -> bool:
        return any(s.kind == "function" for s in self.scopes)

    def lookup(self, name: str) -> tuple[bool, Val | None]:
        """(whether `name` is local to a function/class/comprehension, its value)."""
        for i, scope in enumerate(reversed(self.scopes)):
            if scope.kind == "class" and i > 0:
                continue
            if name in scope.declared_global:
                break
            if name in scope.names:
                return True, scope.aliases.get(name)
        env = self.scan.may_env if self.in_function() else self.scan.env
        if name in env:
            return False, env[name]
        if name in self.scan.module_names:
            return False, None
        if name == "__builtins__":
            return False, Val("builtins", is_module=True)
        if name in IPYTHON_NAMES:
            return False, Val(IPYTHON_NAMES[name])
        if name in vars(builtins) or name in ("exit", "quit"):
            return False, Val(f"builtins.{name}")
        return False, None

    def resolve(self, node: ast.AST) -> Val | None:
        """What `node` stands for, as far as it can be told without running anything."""
        if isinstance(node, ast.Name):
            return self.lookup(node.id)[1]
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None or base.ns:
                return None
            if node.attr == "__dict__" and base.is_module:
                return Val(base.dotted, True, ns=True)
            return base.attr(node.attr)
        if isinstance(node, ast.Subscript):
            base = self.resolve(node.value)
            if base is None:
                return None
            key = fold_str(node.slice, self.scan.consts)
            if base.dotted == "sys.modules" and not base.ns:
                return module_val(key) if key else None
            if base.ns and base.dotted != "__main__":
                return Val(base.dotted, True).attr(key or "?")
            return None
        if isinstance(node, ast.Call):
            return self.resolve_call(node)
        return None

    def resolve_call(self, node: ast.Call) -> Val | None:
        return self.call_target(node)[0]

    def call_target(self, node: ast.Call) -> tuple[Val | None, Val | None]:
        """(what a call returns, the module it took it from) for getattr, attrgetter,
        ``M.__getattr__``, ``vars(M).get``, ``puzzlekit.reference``, import_module,
        __import__, vars and globals."""
        args, consts = node.args, self.scan.consts
        name = fold_str(args[0], consts) if args else None
        if isinstance(node.func, ast.Call):               # attrgetter("search")(puzzlekit)
            getter = self.resolve(node.func.func)
            if getter is not None and getter.dotted == "operator.attrgetter" and args:
                base = self.resolve(args[0])
                attr = fold_str(node.func.args[0], consts) if node.func.args else None
                if base is not None and base.is_module and not base.ns:
                    return base.attr(attr or "?"), base
            return None, None
        if isinstance(node.func, ast.Attribute):
            owner = self.resolve(node.func.value)
            method = node.func.attr
            if owner is not None and args:
                if method in ("__getattr__", "__getattribute__") and owner.is_module \
                        and not owner.ns:
                    return owner.attr(name or "?"), owner
                if method in ("get", "__getitem__") and owner.ns and owner != MAIN_NS:
                    module = Val(owner.dotted, True)
                    return module.attr(name or "?"), module
                if method == "get" and owner.dotted == "sys.modules" and name:
                    return module_val(name), None
        func = self.resolve(node.func)
        if func is None:
            return None, None
        if func.dotted == "builtins.getattr" and len(args) >= 2:
            base = self.resolve(args[0])
            if base is None or base.ns:
                return None, None
            return base.attr(fold_str(args[1], consts) or "?"), base
        if func.dotted == "puzzlekit.reference" and args:     # the front's own look-up
            front = Val("puzzlekit", is_module=True)
            return front.attr(name or "?"), front
        if func.dotted == "importlib.import_module" and name:
            return module_val(name), None
        if func.dotted == "builtins.__import__" and name:
            fromlist = args[3] if len(args) > 3 else next(
                (k.value for k in node.keywords if k.arg == "fromlist"), None)
            empty = fromlist is None or (isinstance(fromlist, (ast.List, ast.Tuple))
                                         and not fromlist.elts) or (
                isinstance(fromlist, ast.Constant) and not fromlist.value)
            return module_val(name.split(".")[0] if empty else name), None
        if func.dotted == "builtins.vars":
            if not args:
                return (None if self.in_function() else MAIN_NS), None
            base = self.resolve(args[0])
            if base is not None and base.is_module and not base.ns:
                return Val(base.dotted, True, ns=True), None
            return None, None
        if func.dotted == "builtins.globals" or (
                func.dotted == "builtins.locals" and not self.in_function()):
            return MAIN_NS, None
        return None, None

    # -- scopes -----------------------------------------------------------------------
    def push(self, node: ast.AST, kind: str) -> None:
        names, declared = scope_names(node)
        self.scopes.append(_Scope(kind, names, declared))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for d in (*node.decorator_list, *node.args.defaults,
                  *[k for k in node.args.kw_defaults if k is not None]):
            self.visit(d)
        if self.scopes:
            self.global_binding(node, [node.name])
        self.push(node, "function")
        for stmt in node.body:
            self.visit(stmt)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for d in (*node.args.defaults, *[k for k in node.args.kw_defaults if k is not None]):
            self.visit(d)
        self.push(node, "function")
        self.visit(node.body)
        self.scopes.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for d in (*node.decorator_list, *node.bases, *node.keywords):
            self.visit(d)
        self.check_dunders(node)
        self.push(node, "class")
        for stmt in node.body:
            self.visit(stmt)
        self.scopes.pop()

    def visit_comprehension_scope(self, node: ast.AST) -> None:
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)
        self.push(node, "comprehension")
        for i, g in enumerate(generators):
            if i:
                self.visit(g.iter)
            self.visit(g.target)
            for cond in g.ifs:
                self.visit(cond)
        for name in ("elt", "key", "value"):
            child = getattr(node, name, None)
            if child is not None:
                self.visit(child)
        self.scopes.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = \
        visit_comprehension_scope  # type: ignore[assignment]

    # -- statements inside functions that bind module-level names ---------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        extra: tuple[str, ...] = ()
        for t in node.targets:            # globals()["search"] = ... binds search
            if isinstance(t, ast.Subscript) and self.resolve(t.value) == MAIN_NS:
                key = fold_str(t.slice, self.scan.consts)
                if key:
                    extra += (key,)
                    self.check_binding(node, (key,), callable_value=_callable_value(
                        node.value))
        if self.scopes:
            extra += self.global_binding(node, [n for t in node.targets
                                                for n in target_names(t)])
            self.track_alias(node)
        self.with_extra(node, extra)

    def visit_AugAssign(self, node: ast.AugAssign | ast.AnnAssign) -> None:
        extra = self.global_binding(node, target_names(node.target)) if self.scopes else ()
        self.with_extra(node, extra)

    visit_AnnAssign = visit_AugAssign  # type: ignore[assignment]

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        extra = self.global_binding(node, target_names(node.target)) if self.scopes else ()
        self.with_extra(node, extra)

    visit_AsyncFor = visit_For  # type: ignore[assignment]

    def with_extra(self, node: ast.AST, extra: tuple[str, ...]) -> None:
        before, loads = self.attrib, self.loads
        if extra:
            self.attrib, self.loads = tuple(dict.fromkeys(self.attrib + extra)), set()
        self.generic_visit(node)
        if extra:
            for name in extra:
                self.scan.deps.setdefault(name, set()).update(self.loads)
            self.attrib, self.loads = before, loads | self.loads

    def track_alias(self, node: ast.Assign) -> None:
        """Inside a function: remember ``x = puzzlekit.search``-like local aliases."""
        scope = self.scopes[-1]
        value = self.resolve(node.value)
        for t in node.targets:
            if isinstance(t, ast.Name) and t.id in scope.names:
                if value is None:
                    scope.aliases.pop(t.id, None)
                else:
                    scope.aliases[t.id] = value

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        if isinstance(node.target, ast.Name) and not self.in_function():
            self.check_binding(node, (node.target.id,),
                               callable_value=_callable_value(node.value))
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self.flag_val(node, module_val(a.name))
            if self.scopes and self.scopes[-1].kind != "class":
                bound = a.asname or a.name.split(".")[0]
                self.scopes[-1].aliases[bound] = module_val(a.name if a.asname else bound)
        if self.scopes:
            self.global_binding(node, bound_by(node))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        base = module_val(node.module)
        self.flag_val(node, base)
        for a in node.names:
            if a.name == "*":
                self.star_import(node, base)
                continue
            val = import_val(node.module, a.name)
            self.flag_val(node, val)
            if base.puzzlekit_module is not None:
                attrib = self.attrib if self.scopes else (a.asname or a.name,)
                before, self.attrib = self.attrib, attrib
                self.reach(node, val, base)
                self.attrib = before
            if self.scopes and self.scopes[-1].kind != "class":
                self.scopes[-1].aliases[a.asname or a.name] = val
        if self.scopes:
            self.global_binding(node, bound_by(node))

    def star_import(self, node: ast.ImportFrom, base: Val) -> None:
        module = base.puzzlekit_module
        if module is None:
            return
        names = [n for n, m in FRONT.items() if module in ("", m)]
        for name in names:
            before, self.attrib = self.attrib, (name,)
            self.reach(node, base.attr(name), base, star=True)
            self.attrib = before
        if registry.in_engine(module):
            self.reach(node, base.attr("*"), base, star=True)

    # -- expressions ------------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        local, val = self.lookup(node.id)
        if local:
            return
        self.loads.add(node.id)
        if val is not None and node.id not in self.scan.module_names:
            self.flag_val(node, val)         # an unbound builtin: exec, exit, get_ipython...

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and sensitive_path(node.value) \
                and not isinstance(self.parents.get(node), ast.Expr):      # not a docstring
            self.hit(node, "file-access", USES_PATH.format(path=short(node.value)[:60]))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        kind = ATTRIBUTE_RULES.get(node.attr)
        if kind:
            self.hit(node, kind, f"uses .{node.attr}")
        base = self.resolve(node.value)
        if base is not None and base.ns and base != MAIN_NS and node.attr in (
                "get", "__getitem__") and self.escapes(node):
            # a module's namespace look-up handed on (``map(vars(puzzlekit).get, names)``)
            module = Val(base.dotted, True)
            self.reach(node, module.attr("?"), module)
        if base is not None and not base.ns:
            val = self.resolve(node)
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                verb = "deletes" if isinstance(node.ctx, ast.Del) else "sets"
                self.hit(node, owner_kind(base.dotted), f"{verb} {base.dotted}.{node.attr}")
            elif val is not None:
                if base.puzzlekit_module is not None:
                    self.reach(node, val, base)
                    if registry.in_grader(base.puzzlekit_module) and node.attr in (
                            "__file__", "__path__", "__spec__", "__loader__"):
                        self.hit(node, "patches-grader", str(LOCATES_GRADER))
                self.flag_val(node, val)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        base = self.resolve(node.value)
        if base is not None:
            key = fold_str(node.slice, self.scan.consts)
            writes = isinstance(node.ctx, (ast.Store, ast.Del))
            if base.dotted == "sys.modules" and writes:
                kind = owner_kind(key) if key else "sys-hooks"
                self.hit(node, kind if kind != "module-attributes" else "sys-hooks",
                         f"replaces sys.modules[{key!r}]")
            elif base.ns and writes:
                self.hit(node, owner_kind(base.dotted) if base != MAIN_NS
                         else "module-attributes", f"writes {_ns_name(base)}[{key!r}]")
            elif base.ns and base != MAIN_NS:
                val = self.resolve(node)
                if val is not None:
                    self.reach(node, val, Val(base.dotted, True))
                    self.flag_val(node, val)
            elif base.dotted == "sys.modules":
                self.flag_val(node, self.resolve(node))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = self.resolve(node.func)
        dotted = func.dotted if func is not None else ""
        for arg in (*node.args, *(k.value for k in node.keywords)):
            text = fold_str(arg.value if isinstance(arg, ast.Starred) else arg,
                             self.scan.consts)
            if text and sensitive_path(text):
                self.hit(node, "file-access", USES_PATH.format(path=short(text)[:60]))
        if dotted in ("builtins.globals", "builtins.vars", "builtins.locals"):
            self.check_namespace_use(node)
        elif dotted in ("builtins.setattr", "builtins.delattr", "builtins.object.__setattr__",
                        "builtins.type.__setattr__", "builtins.object.__delattr__"):
            self.check_setattr(node, dotted.rsplit(".", 1)[-1])
        elif dotted in PATCHERS:
            self.check_patch(node, dotted)
        elif dotted == "builtins.type" and len(node.args) == 3 \
                and isinstance(node.args[2], ast.Dict):
            for k, v in zip(node.args[2].keys, node.args[2].values):
                name = fold_str(k, self.scan.consts)
                if name and isinstance(v, ast.Lambda) and _rigged(v, name):
                    self.hit(node, "rigged-dunder", _rigged_why(name))
        if isinstance(node.func, ast.Attribute):
            owner = self.resolve(node.func.value)
            if owner is not None and owner.ns and node.func.attr not in NAMESPACE_READERS:
                self.hit(node, owner_kind(owner.dotted) if owner != MAIN_NS
                         else "module-attributes",
                         f"changes {_ns_name(owner)} with .{node.func.attr}")
                if owner == MAIN_NS and node.func.attr == "update":
                    keys = tuple(k.arg for k in node.keywords if k.arg)
                    self.check_binding(node, keys, callable_value=True)
            if node.func.attr in ("__setattr__", "__delattr__") and owner is not None \
                    and owner.is_module:
                self.hit(node, owner_kind(owner.dotted),
                         SETS_ATTRIBUTES.format(module=owner.dotted))
        val, base = self.call_target(node)
        if val is not None and not val.ns:
            if base is not None:
                self.reach(node, val, base)
            self.flag_val(node, val)
        self.generic_visit(node)

    # -- checks -----------------------------------------------------------------------
    def check_namespace_use(self, node: ast.Call) -> None:
        """globals()/vars(): fine to read, named when written (there) or handed on (here)."""
        if self.resolve_call(node) != MAIN_NS:
            return
        parent = self.parents.get(node)
        if isinstance(parent, (ast.Subscript, ast.Attribute)) and parent.value is node:
            return                  # written: named by visit_Subscript / visit_Call
        if isinstance(parent, ast.Compare):
            return
        if isinstance(parent, ast.Call) and node in parent.args:
            reader = self.resolve(parent.func)
            if reader is not None and (reader.dotted in NAMESPACE_READING_CALLS
                                       or rule_for(reader.dotted) == "dynamic-code"):
                return
        self.hit(node, "module-attributes", str(HANDS_NAMESPACE))

    def check_setattr(self, node: ast.Call, verb: str) -> None:
        if not node.args:
            return
        target = self.resolve(node.args[0])
        name = fold_str(node.args[1], self.scan.consts) if len(node.args) > 1 else None
        if target is not None and not target.ns:
            self.hit(node, owner_kind(target.dotted), f"{verb} on {target.dotted}")
        elif target == MAIN_NS or (name and name.startswith("__") and name.endswith("__")
                                    and name not in ("__doc__", "__name__", "__qualname__")):
            self.hit(node, "module-attributes", f"{verb}(..., {name!r})")

    def check_patch(self, node: ast.Call, dotted: str) -> None:
        if not node.args:
            return
        target = fold_str(node.args[0], self.scan.consts)
        if target is not None:
            self.hit(node, owner_kind(target), f"mock-patches {target}")
            return
        val = self.resolve(node.args[0])
        if val is not None:
            self.hit(node, owner_kind(val.dotted), f"mock-patches {val.dotted}")
        else:
            self.hit(node, "module-attributes", f"uses {dotted}")

    def check_dunders(self, node: ast.ClassDef) -> None:
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if stmt.name == "__class__":
                    self.hit(stmt, "rigged-dunder", str(FAKES_CLASS))
                elif _rigged(stmt, stmt.name):
                    self.hit(stmt, "rigged-dunder", _rigged_why(stmt.name))
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    if not isinstance(t, ast.Name):
                        continue
                    if t.id == "__class__":
                        self.hit(stmt, "rigged-dunder", str(FAKES_CLASS))
                    elif isinstance(stmt.value, ast.Lambda) and _rigged(stmt.value, t.id):
                        self.hit(stmt, "rigged-dunder", _rigged_why(t.id))


def _ns_name(ns: Val) -> str:
    return "globals()" if ns == MAIN_NS else f"vars({ns.dotted})"


def _callable_value(value: ast.AST | None) -> bool:
    return isinstance(value, (ast.Lambda, ast.Name, ast.Attribute))


def _callable_binding(stmt: ast.AST) -> bool:
    """Whether a binding puts a function-like value in place (not plain data)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return True
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return _callable_value(stmt.value)
    return False


def _rigged_why(name: str) -> str:
    if name in OTHER_DUNDERS:
        return RIGGED_IGNORES_OTHER.format(name=name)
    return RIGGED_SAME_ANSWER.format(name=name)


def _rigged(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    """A comparison dunder that never looks at the other object, or a __hash__/__len__ that
    never looks at its own: it answers the same whatever it is asked."""
    if name not in OTHER_DUNDERS and name not in SELF_DUNDERS:
        return False
    a = func.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    if name in OTHER_DUNDERS:
        subject = positional[1] if len(positional) > 1 else (a.vararg.arg if a.vararg else None)
    else:
        subject = positional[0] if positional else (a.vararg.arg if a.vararg else None)
    body: list[ast.AST] = [func.body] if isinstance(func, ast.Lambda) else list(func.body)
    nodes = [n for b in body for n in ast.walk(b)]
    if subject is not None and any(isinstance(n, ast.Name) and n.id == subject for n in nodes):
        return False
    if isinstance(func, ast.Lambda):
        values: list[ast.AST | None] = [func.body]
    else:
        values = [n.value for n in own_nodes(body) if isinstance(n, ast.Return)]
    meaningful = [v for v in values if v is not None and not (
        isinstance(v, ast.Constant) and v.value is None) and not (
        isinstance(v, ast.Name) and v.id == "NotImplemented")]
    return bool(meaningful)
