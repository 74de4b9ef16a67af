"""The integrity report: name the tricks a submitted notebook uses to game the autograder.

    python -m puzzlekit integrity 02-uninformed-search --course-root notebooks

Design
------
*Static only.* Every cell a student could have written (nbgrader solution cells, and code
cells without locked nbgrader metadata: students add cells) is parsed with :mod:`ast`;
student code is never run. A locked cell is only compared with the instructor's source
(hidden tests left out on both sides): a difference is ``edited-locked-cell``.

*The rules come from the source notebook*, nothing is configured per assignment:

- the names the tests rely on: names a locked cell binds that a test cell reads (directly
  or through a locked helper such as ``check_path``) and the grader's helpers a locked cell
  imports, minus the names the exercise asks for (those bound in the source's solution
  cells). Rebinding one is ``rebinds-helper``; a locked cell's variable no test reads
  (``listOfLists``, ``neighbors``, a test's ``got``) is the student's to reuse;
- the forbidden references: the names in a test cell's ``forbid_reference(...)`` calls
  apply to the student names that test cell reads, and flow on to every student-bound name
  those read in turn (a helper of ``search`` may not call ``puzzlekit.search`` either).
  Answer names whose tests forbid nothing get the union of the notebook's forbidden names.
  ``solve``/``search`` cover the whole search engine (``solver``, ``layered``, ...).

*Names are resolved as Python would*: module aliases, ``from`` imports, submodules,
``getattr`` with constant-folded names, ``vars()``/``__dict__``, ``importlib``,
``sys.modules``. A reference is "reached" where student code takes it out of puzzlekit (an
attribute, an import, a ``getattr``); names a locked cell hands out (``nextStates`` in
assignment 2, ``manhattan`` in 4) are fine. A reference called or looked at (``help``) at
top level, whose result feeds no answer (``print(puzzlekit.nextStates(start))``), is not
named: it cannot change what a test sees. Lines of the instructor's unmarked demo cells
(their ``except NotImplementedError`` fallbacks call puzzlekit) are never named, even in an
edited cell.

*Findings*: one :class:`Finding` per cell, kind and line. Its ``finding`` field is
``"<kind>: <explanation>"`` (split on the first ``": "``); the kinds are :data:`KINDS`.
``submitted/`` shows what students handed in; ``autograded/`` what nbgrader graded (its
locked cells are already restored, so edits to them no longer show, deletions still do).

*Comments* (``--comment``): each finding becomes a line of the auto comment of its solution
cell (findings of other cells go to the nearest solution cell above). The formgrader shows
an auto comment in the cell's comment box until a grader types a manual one; manual
comments are never touched. nbgrader also puts the comment (manual, else auto) into the
feedback it generates, and ``nbgrader autograde`` resets auto comments: run this after
autograding, and before generating feedback only if students may read the findings.
"""

from __future__ import annotations

import ast
import builtins
import csv
import difflib
import functools
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ... import registry
from ...errors import PuzzleError
from ...old_paths import ALIASES

__all__ = ["Finding", "KINDS", "scan_notebook", "report", "write_csv", "add_comments",
           "CSV_HEADER"]

#: every kind of finding, with what it means
KINDS: dict[str, str] = {
    "rebinds-helper": "binds a name the tests rely on (check_path, assert_equal, start, ...)",
    "reference-call": "reaches puzzlekit's ready-made answer to the exercise",
    "patches-grader": "changes (or reaches inside) puzzlekit's grading modules",
    "patches-puzzlekit": "changes puzzlekit, whose references the hidden tests compare with",
    "builtins": "changes or shadows Python's builtins",
    "sys-hooks": "sys.modules, sys.excepthook, sys.settrace/setprofile and other hooks",
    "ipython-shell": "drives the IPython shell (get_ipython, transformers, magics)",
    "dynamic-code": "exec, eval, compile, __import__, importlib, %run",
    "module-attributes": "globals(), setattr, vars(), __dict__, __code__, stack frames",
    "interrupt-handler": "installs signal handlers (ignoring interrupts and timeouts)",
    "kernel-exit": "kills or exits the kernel (os._exit, os.kill, ctypes, exit())",
    "shell-command": "runs shell commands (!cmd, %%bash, subprocess, os.system)",
    "rigged-dunder": "__eq__/__hash__/__len__ that ignore their operands, mock.ANY",
    "file-access": "names the course's, the grader's or Python's own files (gradebook.db, "
                   "source/, site-packages, IPython startup)",
    "edited-locked-cell": "a locked cell differs from the instructor's source, or is gone",
    "unreadable-notebook": "the submitted notebook is not valid JSON",
}

CSV_HEADER = ("student", "assignment", "notebook", "grade_id", "finding", "line")

LINE_WIDTH = 120


@dataclass(frozen=True)
class Finding:
    """One trick in one cell of one submitted notebook."""

    student: str
    assignment: str
    notebook: str
    grade_id: str
    finding: str
    line: str

    @property
    def kind(self) -> str:
        """The kind of the finding (a key of `KINDS`)."""
        return self.finding.split(":", 1)[0]


# ---------------------------------------------------------------------------
# What is flagged, by the dotted name student code reaches

#: every name of puzzlekit's front -> the module that defines it
_FRONT = registry.EXPORTS

#: every module and package of the kit, relative (``"engine.solver"``), read from its folders
_KIT_MODULES = frozenset(registry.modules_under())


def _split(dotted: str) -> tuple[str, str] | None:
    """(the kit's module, the name after it) for ``puzzlekit.engine.solver.solve`` (the
    longest module that `dotted` names an attribute of), None outside the kit."""
    parts = dotted.split(".")
    if parts[0] != "puzzlekit" or len(parts) < 2:
        return None
    for i in range(len(parts) - 1, 1, -1):
        module = ".".join(parts[1:i])
        if module in _KIT_MODULES:
            return module, parts[i]
    return "", parts[1]

_OS_EXEC = [f"os.{n}" for n in ("execl", "execle", "execlp", "execlpe", "execv", "execve",
                                "execvp", "execvpe", "spawnl", "spawnle", "spawnlp",
                                "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
                                "posix_spawn", "posix_spawnp", "system", "popen", "fork")]

#: dotted name (or a prefix of it) -> kind
_RULES: dict[str, str] = {
    **dict.fromkeys(["os._exit", "os.kill", "os.killpg", "os.abort", "sys.exit",
                     "builtins.exit", "builtins.quit", "ctypes", "_ctypes",
                     "signal.raise_signal", "signal.pthread_kill", "faulthandler._sigsegv",
                     "faulthandler._read_null", "faulthandler._fatal_error"], "kernel-exit"),
    **dict.fromkeys(["signal.signal", "signal.setitimer", "signal.alarm",
                     "signal.pthread_sigmask", "signal.siginterrupt", "signal.set_wakeup_fd",
                     "signal.SIG_IGN", "_thread.interrupt_main"], "interrupt-handler"),
    **dict.fromkeys(["sys.modules", "sys.excepthook", "sys.__excepthook__", "sys.displayhook",
                     "sys.__displayhook__", "sys.setprofile", "sys.settrace", "sys.addaudithook",
                     "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache",
                     "sys.breakpointhook", "sys.unraisablehook", "sys.monitoring",
                     "sys.call_tracing", "threading.settrace", "threading.setprofile",
                     "threading.settrace_all_threads", "threading.setprofile_all_threads",
                     "threading.excepthook"], "sys-hooks"),
    **dict.fromkeys(["sys._getframe", "sys._current_frames", "inspect.currentframe",
                     "inspect.stack", "inspect.trace", "inspect.getouterframes",
                     "inspect.getinnerframes", "gc.get_referrers", "gc.get_referents",
                     "gc.get_objects", "__main__"], "module-attributes"),
    **dict.fromkeys(["builtins.exec", "builtins.eval", "builtins.compile",
                     "builtins.__import__", "importlib", "runpy", "types.FunctionType",
                     "types.LambdaType", "types.CodeType", "marshal", "codeop",
                     "code.InteractiveInterpreter", "code.InteractiveConsole"], "dynamic-code"),
    **dict.fromkeys(["IPython.get_ipython", "IPython.core.getipython",
                     "IPython.core.interactiveshell", "IPython.InteractiveShell",
                     "IPython.core.magic", "IPython.core.ultratb", "ipykernel"],
                    "ipython-shell"),
    **dict.fromkeys(["subprocess", "pty", *_OS_EXEC], "shell-command"),
    **dict.fromkeys(["sqlite3.connect", "site.getsitepackages", "site.getusersitepackages",
                     "sysconfig.get_paths", "IPython.paths"], "file-access"),
    "nbgrader": "patches-grader",
    **dict.fromkeys(["unittest.mock.ANY", "unittest.mock.Mock", "unittest.mock.MagicMock",
                     "unittest.mock.NonCallableMock", "unittest.mock.NonCallableMagicMock",
                     "unittest.mock.create_autospec", "mock.ANY", "mock.Mock",
                     "mock.MagicMock"], "rigged-dunder"),
}
#: dotted names flagged only as themselves (their attributes are ordinary builtins)
_EXACT_RULES = {"builtins": "builtins"}

#: attribute names flagged whatever they are read from
_ATTRIBUTE_RULES: dict[str, str] = {
    **dict.fromkeys(["__code__", "__globals__", "__closure__", "__defaults__",
                     "__kwdefaults__", "__subclasses__", "f_globals", "f_locals", "f_back",
                     "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame"],
                    "module-attributes"),
    "__builtins__": "builtins",
    **dict.fromkeys(["input_transformers_post", "input_transformers_cleanup",
                     "ast_transformers", "set_custom_exc", "showtraceback", "showsyntaxerror",
                     "custom_exceptions", "run_cell", "run_line_magic", "run_cell_magic",
                     "register_magic_function", "user_ns", "user_global_ns", "InteractiveTB",
                     "SyntaxTB"], "ipython-shell"),
}

#: special builtins that the resolver turns into values
_IPYTHON_NAMES = {"get_ipython": "IPython.get_ipython"}

#: functions that only look at what they are given
_INSPECTORS = frozenset(f"builtins.{n}" for n in (
    "help", "print", "repr", "str", "type", "id", "dir", "callable", "isinstance",
    "issubclass", "hasattr", "len"))

#: methods of a namespace dict that only read it
_NAMESPACE_READERS = frozenset({"get", "keys", "items", "values", "copy", "__contains__",
                                "__getitem__", "__len__", "__iter__"})
_NAMESPACE_READING_CALLS = frozenset({"builtins.len", "builtins.list", "builtins.sorted",
                                      "builtins.dict", "builtins.set", "builtins.print",
                                      "builtins.repr", "builtins.str", "builtins.iter",
                                      "builtins.tuple", "builtins.any", "builtins.all"})

#: dunders that compare with another object / that describe the object itself
_OTHER_DUNDERS = frozenset({"__eq__", "__ne__", "__contains__", "__instancecheck__",
                            "__subclasscheck__"})
_SELF_DUNDERS = frozenset({"__hash__", "__len__"})

_PATCHERS = frozenset({"unittest.mock.patch", "unittest.mock.patch.object",
                       "unittest.mock.patch.dict", "unittest.mock.patch.multiple",
                       "mock.patch", "mock.patch.object", "mock.patch.dict"})


#: a path into the course (gradebook, other folders' notebooks), nbgrader, puzzlekit's
#: source, site-packages or IPython's and Python's start-up files
_SENSITIVE_PATH = re.compile(
    r"gradebook\.db|site-packages|dist-packages|\.ipython|\.jupyter|sitecustomize"
    r"|usercustomize|nbgrader|\.pth$|[/\\]puzzlekit([/\\]|$)|\.ipynb$"
    r"|(^|[/\\])(source|release|submitted|autograded|feedback)[/\\][^/\\]+[/\\]")


def _sensitive_path(text: str) -> bool:
    """Whether a string handed to a function names files a student has no business with."""
    if "/" not in text and "\\" not in text and not text.endswith("gradebook.db"):
        return False
    return bool(_SENSITIVE_PATH.search(text.strip()))


def _rule_for(dotted: str) -> str | None:
    """The kind of finding for reaching `dotted`, if any."""
    if dotted in _EXACT_RULES:
        return _EXACT_RULES[dotted]
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        kind = _RULES.get(".".join(parts[:i]))
        if kind is not None:
            return kind
    return None


def _owner_kind(dotted: str) -> str:
    """The kind of finding for changing something of the module (or object) `dotted`."""
    parts = dotted.split(".")
    if parts[0] == "puzzlekit":
        split = _split(dotted)
        grader = split is not None and (registry.in_grader(split[0])
                                        or registry.in_grader(".".join(parts[1:])))
        return "patches-grader" if grader else "patches-puzzlekit"
    return {"builtins": "builtins", "sys": "sys-hooks",
            "signal": "interrupt-handler"}.get(parts[0], "module-attributes")


# ---------------------------------------------------------------------------
# Values the resolver knows

@dataclass(frozen=True)
class _Val:
    """What an expression stands for: a module, an object of one, or a module's namespace."""

    dotted: str
    is_module: bool = False
    ns: bool = False        # the namespace dict of module `dotted` (vars(M), globals(), ...)

    def attr(self, name: str) -> _Val:
        """The value of attribute `name` of this module or object."""
        module = self.puzzlekit_module
        if module is not None:
            if module == "" and name in _FRONT:
                return _Val(f"puzzlekit.{_FRONT[name]}.{name}")
            inner = f"{module}.{name}" if module else ALIASES.get(name, name)
            if inner in _KIT_MODULES:
                return _Val(f"puzzlekit.{inner}", is_module=True)
        return _Val(f"{self.dotted}.{name}")

    @property
    def puzzlekit_module(self) -> str | None:
        """'' for the package, the module's path in it for one of its modules
        (``"engine.solver"``), else None."""
        parts = self.dotted.split(".")
        if parts[0] != "puzzlekit" or not self.is_module:
            return None
        return ".".join(parts[1:])


_MAIN_NS = _Val("__main__", is_module=True, ns=True)


def _module_val(name: str) -> _Val:
    """The module `name` (a dotted import path)."""
    parts = name.split(".")
    if parts[0] == "puzzlekit" and len(parts) > 1:      # old paths are the new modules
        val = _Val("puzzlekit", True)
        for part in parts[1:]:
            val = val.attr(part)
        if val.is_module or len(parts) > 2:             # puzzlekit.x.y may be no module
            return val
    return _Val(name, is_module=True)


def _import_val(module: str, name: str) -> _Val:
    """The value ``from module import name`` binds."""
    return _module_val(module).attr(name)


# ---------------------------------------------------------------------------
# Constant folding (getattr(puzzlekit, "se" + "arch"))

def _fold(node: ast.AST | None, consts: Mapping[str, object]) -> object | None:
    """The value of a constant expression made of strings and numbers, else None."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [_fold(e, consts) for e in node.elts]
        return None if any(i is None for i in items) else tuple(items)
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for v in node.values:
            inner = v.value if isinstance(v, ast.FormattedValue) else v
            folded = _fold(inner, consts)
            if folded is None:
                return None
            parts.append(str(folded))
        return "".join(parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _fold(node.operand, consts)
        if isinstance(value, int):
            return -value if isinstance(node.op, ast.USub) else value
        return None
    if isinstance(node, ast.BinOp):
        a, b = _fold(node.left, consts), _fold(node.right, consts)
        try:
            if isinstance(node.op, ast.Add) and type(a) is type(b) and a is not None:
                return a + b  # type: ignore[operator]
            if isinstance(node.op, ast.Mult) and isinstance(a, str) and isinstance(b, int):
                return a * b if len(a) * b < 200 else None
            if isinstance(node.op, ast.Mod) and isinstance(a, str) and b is not None:
                return a % b
        except (TypeError, ValueError):
            return None
        return None
    if isinstance(node, ast.Subscript):
        base = _fold(node.value, consts)
        if not isinstance(base, (str, tuple)):
            return None
        s = node.slice
        try:
            if isinstance(s, ast.Slice):
                ends = (s.lower, s.upper, s.step)
                bounds: list[Any] = [None if x is None else _fold(x, consts) for x in ends]
                if any(b is None and x is not None for b, x in zip(bounds, ends)):
                    return None
                return base[slice(*bounds)]
            index = _fold(s, consts)
            return base[index] if isinstance(index, int) else None
        except (IndexError, TypeError, ValueError):
            return None
    if isinstance(node, ast.Call) and not node.keywords:
        args = [_fold(a, consts) for a in node.args]
        if any(a is None for a in args):
            return None
        func = node.func
        if isinstance(func, ast.Name):
            if func.id == "chr" and len(args) == 1 and isinstance(args[0], int):
                return chr(args[0]) if 0 <= args[0] < 0x110000 else None
            if func.id == "str" and len(args) == 1:
                return str(args[0])
            if func.id in ("reversed", "list", "tuple") and len(args) == 1:
                seq = args[0]
                if isinstance(seq, (str, tuple)):
                    return tuple(reversed(seq)) if func.id == "reversed" else tuple(seq)
            return None
        if isinstance(func, ast.Attribute):
            base = _fold(func.value, consts)
            if not isinstance(base, str):
                return None
            if func.attr == "join" and len(args) == 1 and isinstance(args[0], tuple):
                return base.join(str(a) for a in args[0])
            if func.attr in ("lower", "upper", "strip", "lstrip", "rstrip", "replace",
                             "capitalize", "title", "swapcase", "casefold", "removeprefix",
                             "removesuffix", "format"):
                try:
                    return getattr(base, func.attr)(*args)
                except (TypeError, ValueError, IndexError, KeyError):
                    return None
    return None


def _fold_str(node: ast.AST | None, consts: Mapping[str, object]) -> str | None:
    value = _fold(node, consts)
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------------------
# Scopes: which names a function, class or comprehension binds

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_nodes(nodes: Iterable[ast.AST]) -> Iterator[ast.AST]:
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


def _bound_by(node: ast.AST) -> list[str]:
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


def _scope_names(node: ast.AST) -> tuple[set[str], set[str]]:
    """(the names local to this function, lambda, class or comprehension, its globals)."""
    if isinstance(node, _COMPREHENSIONS):
        return {n for g in node.generators for t in ast.walk(g.target)
                for n in _bound_by(t)}, set()
    if isinstance(node, ast.Lambda):
        body: list[ast.AST] = [node.body]
    else:
        body = list(node.body)  # type: ignore[attr-defined]
    names: set[str] = set(_params(node)) if isinstance(node, _FUNCTIONS) else set()
    declared: set[str] = set()
    for n in _own_nodes(body):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared |= set(n.names)
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        else:
            names |= set(_bound_by(n))
    return names - declared, {g for n in _own_nodes(body) if isinstance(n, ast.Global)
                              for g in n.names}


def _target_names(target: ast.AST | None) -> list[str]:
    if target is None:
        return []
    return [n.id for n in ast.walk(target)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _module_level(tree: ast.Module) -> Iterator[ast.stmt]:
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


def _stmt_binds(stmt: ast.stmt) -> list[str]:
    """The module-level names a module-level statement binds (not those of its body)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return _target_names(stmt.target)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [n for item in stmt.items for n in _target_names(item.optional_vars)]
    if isinstance(stmt, (ast.Try, ast.TryStar)):
        return [h.name for h in stmt.handlers if h.name]
    if isinstance(stmt, (ast.If, ast.While, ast.Match)):
        return []
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return _bound_by(stmt)
    if isinstance(stmt, ast.Assign):
        return [n for t in stmt.targets for n in _target_names(t)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return _target_names(stmt.target)
    return []


def _global_loads(tree: ast.AST) -> set[str]:
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
            names, declared = _scope_names(node)
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


def _module_bound(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for stmt in _module_level(tree):
        names |= set(_stmt_binds(stmt))
    for node in _own_nodes(tree.body):
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


# ---------------------------------------------------------------------------
# Cells: source text, IPython magics, nbgrader metadata

_PY_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
_QUIET_CELL_MAGICS = frozenset({"html", "markdown", "latex", "svg", "javascript", "js"})
_SHELL_MAGICS = frozenset({"bash", "sh", "script", "system", "sx", "writefile", "perl",
                           "ruby", "python", "python2", "python3", "pypy", "pip", "conda"})
_CODE_MAGICS = frozenset({"run", "load", "loadpy", "load_ext", "reload_ext"})
_OK_LINE_MAGICS = frozenset({"time", "timeit", "prun", "matplotlib", "precision", "pprint",
                             "who", "whos", "lsmagic", "history", "pwd", "autoreload"})
#: magics that are harmless with these arguments only
_OK_WITH = {"load_ext": ("autoreload",), "config": ("InlineBackend.",)}
_MAGIC = re.compile(r"^(\s*)(?:([\w.,\s*()\[\]]+?)\s*=\s*)?(%%?|!!?)(\w*)(.*)$")


def _magic_kind(name: str, shell: bool, rest: str = "") -> tuple[str, str] | None:
    """(kind, explanation) for a magic or shell escape, None if it is harmless."""
    if not shell and rest.strip().startswith(_OK_WITH.get(name, ("\0",))):
        return None
    if shell or name in _SHELL_MAGICS:
        return "shell-command", "runs a shell command from the notebook"
    if name in _CODE_MAGICS:
        return "dynamic-code", f"%{name} runs code that is not in the notebook"
    if name in _OK_LINE_MAGICS:
        return None
    return "ipython-shell", f"runs the IPython magic %{name}"


def _source_text(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


@dataclass
class _Parsed:
    tree: ast.Module | None
    lines: list[str]
    magics: list[tuple[int, str, str]] = field(default_factory=list)  # (lineno, kind, why)


@functools.lru_cache(maxsize=4096)
def _parse(source: str) -> _Parsed:
    """The cell's syntax tree, IPython magics and shell escapes turned into ``pass``
    (cached: most cells of a submission are the instructor's; nothing changes a tree)."""
    lines = source.splitlines()
    try:
        return _Parsed(ast.parse(source), lines)
    except SyntaxError:
        pass
    out, magics = list(lines), []
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].lstrip()[2:].split(maxsplit=1)[0] if lines[first].strip() != "%%" \
            else ""
        out[first] = ""
        if name not in _PY_CELL_MAGICS:
            kind = _magic_kind(name, False) if name not in _QUIET_CELL_MAGICS else None
            if kind:
                magics.append((first + 1, *kind))
            return _Parsed(None, lines, magics)
    for i, line in enumerate(out):
        m = _MAGIC.match(line)
        if m and not line.strip().startswith(("%%", "!=")) and (m.group(3) != "%" or m.group(4)):
            indent, target, sigil, name, rest = m.groups()
            shell = sigil.startswith("!")
            kind = _magic_kind(name, shell, rest)
            if kind:
                magics.append((i + 1, *kind))
            payload = rest.strip() if name in ("time", "timeit", "prun") and not shell else ""
            payload = re.sub(r"^(-\w+(\s+\d+)?\s+)*", "", payload)
            out[i] = f"{indent}{target} = {payload or 'None'}" if target else \
                f"{indent}{payload or 'pass'}"
        elif re.match(r"^\s*[\w.]+\?\??\s*$", line):
            out[i] = re.sub(r"\S.*", "pass", line)
    try:
        return _Parsed(ast.parse("\n".join(out)), lines, magics)
    except SyntaxError:
        return _Parsed(None, lines, magics)


def _meta(cell: Mapping[str, Any]) -> Mapping[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _is_solution(cell: Mapping[str, Any]) -> bool:
    return bool(_meta(cell).get("solution"))


def _is_locked(cell: Mapping[str, Any]) -> bool:
    """nbgrader's rule: grade cells and locked cells, but never solution cells."""
    meta = _meta(cell)
    if not meta or meta.get("solution"):
        return False
    return bool(meta.get("grade") or meta.get("locked"))


def _is_test(cell: Mapping[str, Any]) -> bool:
    return bool(_meta(cell).get("grade")) and not _is_solution(cell)


def _normalized(source: str) -> list[str]:
    """A locked cell's lines as nbgrader compares them: hidden tests and blanks left out."""
    out, hidden = [], False
    for line in source.splitlines():
        if "BEGIN HIDDEN TESTS" in line:
            hidden = True
        elif "END HIDDEN TESTS" in line and hidden:
            hidden = False
        elif not hidden and line.strip():
            out.append(line.rstrip())
    return out


def _short(line: str) -> str:
    line = line.strip()
    return line if len(line) <= LINE_WIDTH else line[:LINE_WIDTH - 1] + "…"


# ---------------------------------------------------------------------------
# What the instructor's source notebook says

def _forbid_args(call: ast.Call, consts: Mapping[str, object]) -> set[str]:
    names: set[str] = set()
    for arg in call.args:
        value = _fold(arg.value if isinstance(arg, ast.Starred) else arg, consts)
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, tuple):
            names |= {v for v in value if isinstance(v, str)}
    return names


def _is_forbid_call(node: ast.Call) -> bool:
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name in ("forbid_reference", "forbidding")


def _constants(tree: ast.Module, consts: dict[str, object]) -> None:
    """Add the module-level ``NAME = <constant>`` assignments of `tree` to `consts`."""
    for stmt in _module_level(tree):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name):
            value = _fold(stmt.value, consts)
            if value is not None:
                consts[stmt.targets[0].id] = value
            else:
                consts.pop(stmt.targets[0].id, None)


class _Exercise:
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
            source, gid = _source_text(cell), _meta(cell).get("grade_id")
            tree = _parse(source).tree
            if _is_solution(cell):
                if gid:
                    self.solution_ids.add(gid)
                if tree is not None:
                    self.solution_names |= _module_bound(tree)
                continue
            if not _is_locked(cell):
                self.instructor_lines |= {line.strip() for line in source.splitlines()
                                          if line.strip()}
                continue
            if gid:
                self.locked[gid] = source
            if tree is None:
                continue
            _constants(tree, consts)
            locked_bound |= _module_bound(tree)
            for stmt in _module_level(tree):
                self.locked_stmts.add(ast.dump(stmt))
                for name in _stmt_binds(stmt):
                    self.locked_ident.setdefault(name, set()).add(_binding_identity(stmt, name))
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    helpers[stmt.name] = _global_loads(stmt)
            if _is_test(cell):
                forbidden: set[str] = set()
                for node in ast.walk(tree):
                    if isinstance(node, ast.Call) and _is_forbid_call(node):
                        forbidden |= _forbid_args(node, consts)
                tests.append((tree, forbidden))
        self.base_forbidden: dict[str, set[str]] = {}
        relied: set[str] = set()
        for tree, forbidden in tests:
            reads = _global_loads(tree) - _module_bound(tree)
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
                         if any(i.startswith(graders) for i in idents)}
        self.protected = {n for n in (locked_bound & relied) | helpers_given
                          if n not in self.solution_names and not n.startswith("__")}
        self.test_builtins = {n for n in relied - locked_bound - self.solution_names
                              if n in vars(builtins) and not n.startswith("_")}
        self.consts = consts


def _binding_identity(stmt: ast.AST, name: str) -> str:
    """What an import binds to `name` (a dotted name), '' for any other binding."""
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if (a.asname or a.name.split(".")[0]) == name:
                return _module_val(a.name if a.asname else a.name.split(".")[0]).dotted
    if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
        for a in stmt.names:
            if (a.asname or a.name) == name:
                return _import_val(stmt.module, a.name).dotted
    return ""


# ---------------------------------------------------------------------------
# The scan of one submitted notebook

@dataclass
class _Scope:
    kind: str                      # "function", "class" or "comprehension"
    names: set[str]
    declared_global: set[str]
    aliases: dict[str, _Val] = field(default_factory=dict)


@dataclass
class _Cell:
    index: int
    grade_id: str
    unmarked: bool                 # no nbgrader metadata: the instructor's lines are exempt
    parsed: _Parsed


@dataclass
class _Reach:
    """Student code took puzzlekit's `ident` = (module, name) out of puzzlekit."""

    cell: _Cell
    lineno: int
    ident: tuple[str, str]
    attrib: tuple[str, ...]        # the module-level names the statement binds
    escapes: bool                  # the function itself is stored or handed on (not called)
    star: bool = False


@dataclass(order=True)
class _Hit:
    key: tuple[int, int, int]
    grade_id: str
    finding: str
    line: str


class _Scan:
    """Notebook-wide state of one scan."""

    def __init__(self, exercise: _Exercise) -> None:
        self.exercise = exercise
        self.env: dict[str, _Val] = {}           # module level, in the order cells run
        self.may_env: dict[str, _Val] = {}       # any module-level binding (for functions)
        self.module_names: set[str] = set()
        self.consts: dict[str, object] = dict(exercise.consts)
        self.deps: dict[str, set[str]] = {}
        self.reaches: list[_Reach] = []
        self.student_binds: dict[str, list[tuple[int, int]]] = {}
        self.hits: list[_Hit] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.order = 0

    def line(self, cell: _Cell, lineno: int) -> str:
        return cell.parsed.lines[lineno - 1] if 0 < lineno <= len(cell.parsed.lines) else ""

    def exempt(self, cell: _Cell, lineno: int) -> bool:
        """A line the instructor wrote in a demo cell (e.g. a fallback to puzzlekit)."""
        return cell.unmarked and self.line(cell, lineno).strip() in self.exercise.instructor_lines

    def hit(self, cell: _Cell, lineno: int, kind: str, why: str) -> None:
        if self.exempt(cell, lineno):
            return
        line = self.line(cell, lineno)
        key = (cell.grade_id, kind, line.strip())
        if key in self.seen:
            return
        self.seen.add(key)
        self.order += 1
        self.hits.append(_Hit((cell.index, lineno, self.order), cell.grade_id,
                              f"{kind}: {why}", _short(line)))


def _env_apply(stmt: ast.stmt, env: dict[str, _Val],
               resolve: Callable[[ast.AST], _Val | None]) -> None:
    """Update the module-level environment after `stmt` ran."""
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if a.asname:
                env[a.asname] = _module_val(a.name)
            else:
                env[a.name.split(".")[0]] = _module_val(a.name.split(".")[0])
        return
    if isinstance(stmt, ast.ImportFrom):
        if stmt.level or not stmt.module:
            return
        for a in stmt.names:
            if a.name == "*":
                if stmt.module == "puzzlekit":
                    for name in _FRONT:
                        env[name] = _import_val("puzzlekit", name)
                continue
            env[a.asname or a.name] = _import_val(stmt.module, a.name)
        return
    if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
        value = resolve(stmt.value)
        for t in stmt.targets:
            if value is None:
                env.pop(t.id, None)  # type: ignore[attr-defined]
            else:
                env[t.id] = value  # type: ignore[attr-defined]
        return
    for name in _stmt_binds(stmt):
        env.pop(name, None)


class _Visitor(ast.NodeVisitor):
    """Walks the answer cells of one notebook, in order, naming what it finds."""

    def __init__(self, scan: _Scan, cell: _Cell) -> None:
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
            names = tuple(_target_names(stmt.target))
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
                names = tuple(_target_names(item.optional_vars))
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
                names = tuple(n for p in ast.walk(case.pattern) for n in _bound_by(p))
                self.check_binding(stmt, names, callable_value=False)
                if case.guard is not None:
                    self.part(case.guard, names)
                for s in case.body:
                    self.top(s)
            return
        names = tuple(_stmt_binds(stmt))
        self.check_binding(stmt, names, callable_value=_callable_binding(stmt))
        self.part(stmt, names)
        _env_apply(stmt, self.scan.env, self.resolve)

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

    def reach(self, node: ast.AST, val: _Val, base: _Val, star: bool = False) -> None:
        module = base.puzzlekit_module
        if module is None:
            return
        parts = val.dotted.split(".")
        if len(parts) < 2 or val.is_module:
            return
        split = _split(val.dotted)
        ident = split if split is not None and split[0] else (module, parts[-1])
        if registry.in_grader(ident[0]):
            if ident[1].startswith("_") and not ident[1].endswith("__"):
                self.hit(node, "patches-grader",
                         f"reaches the grader's internals ({ident[0]}.{ident[1]})")
            return
        line = getattr(node, "lineno", 1)
        if self.scan.exempt(self.cell, line):
            return
        self.scan.reaches.append(_Reach(self.cell, line, ident, self.attrib,
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
            return callee is None or not (callee.dotted in _INSPECTORS
                                          or callee.dotted.startswith(("inspect.", "pydoc.")))
        return True

    def flag_val(self, node: ast.AST, val: _Val | None) -> None:
        if val is None or val.ns:
            return
        kind = _rule_for(val.dotted)
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
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in _FRONT:
                continue   # the student's own nextStates etc.: the grader uses puzzlekit's
            protected = name in self.ex.protected
            shadows = name in self.ex.test_builtins and callable_value
            if not (protected or shadows):
                continue
            identity = _binding_identity(stmt, name)
            if identity and identity in self.ex.locked_ident.get(name, set()):
                continue
            dumped = dumped or ast.dump(stmt)
            if dumped not in self.ex.locked_stmts:
                (helpers if protected else shadowed).append(name)
        if helpers:
            self.hit(stmt, "rebinds-helper", f"rebinds {', '.join(helpers)}, which the tests "
                     "use")
        if shadowed:
            self.hit(stmt, "builtins", f"shadows the builtin {', '.join(shadowed)}, which the "
                     "tests use")

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

    def lookup(self, name: str) -> tuple[bool, _Val | None]:
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
            return False, _Val("builtins", is_module=True)
        if name in _IPYTHON_NAMES:
            return False, _Val(_IPYTHON_NAMES[name])
        if name in vars(builtins) or name in ("exit", "quit"):
            return False, _Val(f"builtins.{name}")
        return False, None

    def resolve(self, node: ast.AST) -> _Val | None:
        """What `node` stands for, as far as it can be told without running anything."""
        if isinstance(node, ast.Name):
            return self.lookup(node.id)[1]
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None or base.ns:
                return None
            if node.attr == "__dict__" and base.is_module:
                return _Val(base.dotted, True, ns=True)
            return base.attr(node.attr)
        if isinstance(node, ast.Subscript):
            base = self.resolve(node.value)
            if base is None:
                return None
            key = _fold_str(node.slice, self.scan.consts)
            if base.dotted == "sys.modules" and not base.ns:
                return _module_val(key) if key else None
            if base.ns and base.dotted != "__main__":
                return _Val(base.dotted, True).attr(key or "?")
            return None
        if isinstance(node, ast.Call):
            return self.resolve_call(node)
        return None

    def resolve_call(self, node: ast.Call) -> _Val | None:
        return self.call_target(node)[0]

    def call_target(self, node: ast.Call) -> tuple[_Val | None, _Val | None]:
        """(what a call returns, the module it took it from) for getattr, attrgetter,
        ``M.__getattr__``, ``vars(M).get``, ``puzzlekit.reference``, import_module,
        __import__, vars and globals."""
        args, consts = node.args, self.scan.consts
        name = _fold_str(args[0], consts) if args else None
        if isinstance(node.func, ast.Call):               # attrgetter("search")(puzzlekit)
            getter = self.resolve(node.func.func)
            if getter is not None and getter.dotted == "operator.attrgetter" and args:
                base = self.resolve(args[0])
                attr = _fold_str(node.func.args[0], consts) if node.func.args else None
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
                if method in ("get", "__getitem__") and owner.ns and owner != _MAIN_NS:
                    module = _Val(owner.dotted, True)
                    return module.attr(name or "?"), module
                if method == "get" and owner.dotted == "sys.modules" and name:
                    return _module_val(name), None
        func = self.resolve(node.func)
        if func is None:
            return None, None
        if func.dotted == "builtins.getattr" and len(args) >= 2:
            base = self.resolve(args[0])
            if base is None or base.ns:
                return None, None
            return base.attr(_fold_str(args[1], consts) or "?"), base
        if func.dotted == "puzzlekit.reference" and args:     # the front's own look-up
            front = _Val("puzzlekit", is_module=True)
            return front.attr(name or "?"), front
        if func.dotted == "importlib.import_module" and name:
            return _module_val(name), None
        if func.dotted == "builtins.__import__" and name:
            fromlist = args[3] if len(args) > 3 else next(
                (k.value for k in node.keywords if k.arg == "fromlist"), None)
            empty = fromlist is None or (isinstance(fromlist, (ast.List, ast.Tuple))
                                         and not fromlist.elts) or (
                isinstance(fromlist, ast.Constant) and not fromlist.value)
            return _module_val(name.split(".")[0] if empty else name), None
        if func.dotted == "builtins.vars":
            if not args:
                return (None if self.in_function() else _MAIN_NS), None
            base = self.resolve(args[0])
            if base is not None and base.is_module and not base.ns:
                return _Val(base.dotted, True, ns=True), None
            return None, None
        if func.dotted == "builtins.globals" or (
                func.dotted == "builtins.locals" and not self.in_function()):
            return _MAIN_NS, None
        return None, None

    # -- scopes -----------------------------------------------------------------------
    def push(self, node: ast.AST, kind: str) -> None:
        names, declared = _scope_names(node)
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
            if isinstance(t, ast.Subscript) and self.resolve(t.value) == _MAIN_NS:
                key = _fold_str(t.slice, self.scan.consts)
                if key:
                    extra += (key,)
                    self.check_binding(node, (key,), callable_value=_callable_value(
                        node.value))
        if self.scopes:
            extra += self.global_binding(node, [n for t in node.targets
                                                for n in _target_names(t)])
            self.track_alias(node)
        self.with_extra(node, extra)

    def visit_AugAssign(self, node: ast.AugAssign | ast.AnnAssign) -> None:
        extra = self.global_binding(node, _target_names(node.target)) if self.scopes else ()
        self.with_extra(node, extra)

    visit_AnnAssign = visit_AugAssign  # type: ignore[assignment]

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        extra = self.global_binding(node, _target_names(node.target)) if self.scopes else ()
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
            self.flag_val(node, _module_val(a.name))
            if self.scopes and self.scopes[-1].kind != "class":
                bound = a.asname or a.name.split(".")[0]
                self.scopes[-1].aliases[bound] = _module_val(a.name if a.asname else bound)
        if self.scopes:
            self.global_binding(node, _bound_by(node))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        base = _module_val(node.module)
        self.flag_val(node, base)
        for a in node.names:
            if a.name == "*":
                self.star_import(node, base)
                continue
            val = _import_val(node.module, a.name)
            self.flag_val(node, val)
            if base.puzzlekit_module is not None:
                attrib = self.attrib if self.scopes else (a.asname or a.name,)
                before, self.attrib = self.attrib, attrib
                self.reach(node, val, base)
                self.attrib = before
            if self.scopes and self.scopes[-1].kind != "class":
                self.scopes[-1].aliases[a.asname or a.name] = val
        if self.scopes:
            self.global_binding(node, _bound_by(node))

    def star_import(self, node: ast.ImportFrom, base: _Val) -> None:
        module = base.puzzlekit_module
        if module is None:
            return
        names = [n for n, m in _FRONT.items() if module in ("", m)]
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
        if isinstance(node.value, str) and _sensitive_path(node.value) \
                and not isinstance(self.parents.get(node), ast.Expr):      # not a docstring
            self.hit(node, "file-access", f"uses the path {_short(node.value)[:60]!r}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        kind = _ATTRIBUTE_RULES.get(node.attr)
        if kind:
            self.hit(node, kind, f"uses .{node.attr}")
        base = self.resolve(node.value)
        if base is not None and not base.ns:
            val = self.resolve(node)
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                verb = "deletes" if isinstance(node.ctx, ast.Del) else "sets"
                self.hit(node, _owner_kind(base.dotted), f"{verb} {base.dotted}.{node.attr}")
            elif val is not None:
                if base.puzzlekit_module is not None:
                    self.reach(node, val, base)
                    if registry.in_grader(base.puzzlekit_module) and node.attr in (
                            "__file__", "__path__", "__spec__", "__loader__"):
                        self.hit(node, "patches-grader", "locates the grader's source files")
                self.flag_val(node, val)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        base = self.resolve(node.value)
        if base is not None:
            key = _fold_str(node.slice, self.scan.consts)
            writes = isinstance(node.ctx, (ast.Store, ast.Del))
            if base.dotted == "sys.modules" and writes:
                kind = _owner_kind(key) if key else "sys-hooks"
                self.hit(node, kind if kind != "module-attributes" else "sys-hooks",
                         f"replaces sys.modules[{key!r}]")
            elif base.ns and writes:
                self.hit(node, _owner_kind(base.dotted) if base != _MAIN_NS
                         else "module-attributes", f"writes {_ns_name(base)}[{key!r}]")
            elif base.ns and base != _MAIN_NS:
                val = self.resolve(node)
                if val is not None:
                    self.reach(node, val, _Val(base.dotted, True))
                    self.flag_val(node, val)
            elif base.dotted == "sys.modules":
                self.flag_val(node, self.resolve(node))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = self.resolve(node.func)
        dotted = func.dotted if func is not None else ""
        for arg in (*node.args, *(k.value for k in node.keywords)):
            text = _fold_str(arg.value if isinstance(arg, ast.Starred) else arg,
                             self.scan.consts)
            if text and _sensitive_path(text):
                self.hit(node, "file-access", f"uses the path {_short(text)[:60]!r}")
        if dotted in ("builtins.globals", "builtins.vars", "builtins.locals"):
            self.check_namespace_use(node)
        elif dotted in ("builtins.setattr", "builtins.delattr", "builtins.object.__setattr__",
                        "builtins.type.__setattr__", "builtins.object.__delattr__"):
            self.check_setattr(node, dotted.rsplit(".", 1)[-1])
        elif dotted in _PATCHERS:
            self.check_patch(node, dotted)
        elif dotted == "builtins.type" and len(node.args) == 3 \
                and isinstance(node.args[2], ast.Dict):
            for k, v in zip(node.args[2].keys, node.args[2].values):
                name = _fold_str(k, self.scan.consts)
                if name and isinstance(v, ast.Lambda) and _rigged(v, name):
                    self.hit(node, "rigged-dunder", _rigged_why(name))
        if isinstance(node.func, ast.Attribute):
            owner = self.resolve(node.func.value)
            if owner is not None and owner.ns and node.func.attr not in _NAMESPACE_READERS:
                self.hit(node, _owner_kind(owner.dotted) if owner != _MAIN_NS
                         else "module-attributes",
                         f"changes {_ns_name(owner)} with .{node.func.attr}")
                if owner == _MAIN_NS and node.func.attr == "update":
                    keys = tuple(k.arg for k in node.keywords if k.arg)
                    self.check_binding(node, keys, callable_value=True)
            if node.func.attr in ("__setattr__", "__delattr__") and owner is not None \
                    and owner.is_module:
                self.hit(node, _owner_kind(owner.dotted), f"sets attributes of {owner.dotted}")
        val, base = self.call_target(node)
        if val is not None and not val.ns:
            if base is not None:
                self.reach(node, val, base)
            self.flag_val(node, val)
        self.generic_visit(node)

    # -- checks -----------------------------------------------------------------------
    def check_namespace_use(self, node: ast.Call) -> None:
        """globals()/vars(): fine to read, named when written (there) or handed on (here)."""
        if self.resolve_call(node) != _MAIN_NS:
            return
        parent = self.parents.get(node)
        if isinstance(parent, (ast.Subscript, ast.Attribute)) and parent.value is node:
            return                  # written: named by visit_Subscript / visit_Call
        if isinstance(parent, ast.Compare):
            return
        if isinstance(parent, ast.Call) and node in parent.args:
            reader = self.resolve(parent.func)
            if reader is not None and (reader.dotted in _NAMESPACE_READING_CALLS
                                       or _rule_for(reader.dotted) == "dynamic-code"):
                return
        self.hit(node, "module-attributes", "hands the notebook's namespace to other code")

    def check_setattr(self, node: ast.Call, verb: str) -> None:
        if not node.args:
            return
        target = self.resolve(node.args[0])
        name = _fold_str(node.args[1], self.scan.consts) if len(node.args) > 1 else None
        if target is not None and not target.ns:
            self.hit(node, _owner_kind(target.dotted), f"{verb} on {target.dotted}")
        elif target == _MAIN_NS or (name and name.startswith("__") and name.endswith("__")
                                    and name not in ("__doc__", "__name__", "__qualname__")):
            self.hit(node, "module-attributes", f"{verb}(..., {name!r})")

    def check_patch(self, node: ast.Call, dotted: str) -> None:
        if not node.args:
            return
        target = _fold_str(node.args[0], self.scan.consts)
        if target is not None:
            self.hit(node, _owner_kind(target), f"mock-patches {target}")
            return
        val = self.resolve(node.args[0])
        if val is not None:
            self.hit(node, _owner_kind(val.dotted), f"mock-patches {val.dotted}")
        else:
            self.hit(node, "module-attributes", f"uses {dotted}")

    def check_dunders(self, node: ast.ClassDef) -> None:
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if stmt.name == "__class__":
                    self.hit(stmt, "rigged-dunder", "fakes the class of its objects")
                elif _rigged(stmt, stmt.name):
                    self.hit(stmt, "rigged-dunder", _rigged_why(stmt.name))
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    if not isinstance(t, ast.Name):
                        continue
                    if t.id == "__class__":
                        self.hit(stmt, "rigged-dunder", "fakes the class of its objects")
                    elif isinstance(stmt.value, ast.Lambda) and _rigged(stmt.value, t.id):
                        self.hit(stmt, "rigged-dunder", _rigged_why(t.id))


def _ns_name(ns: _Val) -> str:
    return "globals()" if ns == _MAIN_NS else f"vars({ns.dotted})"


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
    if name in _OTHER_DUNDERS:
        return f"{name} answers without looking at the other object"
    return f"{name} answers the same for every object"


def _rigged(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    """A comparison dunder that never looks at the other object, or a __hash__/__len__ that
    never looks at its own: it answers the same whatever it is asked."""
    if name not in _OTHER_DUNDERS and name not in _SELF_DUNDERS:
        return False
    a = func.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    if name in _OTHER_DUNDERS:
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
        values = [n.value for n in _own_nodes(body) if isinstance(n, ast.Return)]
    meaningful = [v for v in values if v is not None and not (
        isinstance(v, ast.Constant) and v.value is None) and not (
        isinstance(v, ast.Name) and v.id == "NotImplemented")]
    return bool(meaningful)


# ---------------------------------------------------------------------------
# Forbidden references: which answer may not reach which of puzzlekit's functions

def _implementing(forbidden: Iterable[str]) -> dict[str, str]:
    """module -> a forbidden public name it implements (the engine for solve/search)."""
    out: dict[str, str] = {}
    for name in sorted(forbidden):
        if name in _FRONT:
            out.setdefault(_FRONT[name], name)
        if name in registry.ENGINE_NAMES:
            for module in registry.engine_modules():
                out.setdefault(module, name)
    return out


def _covers(forbidden: Iterable[str], ident: tuple[str, str]) -> str | None:
    """The forbidden public name that makes reaching `ident` = (module, name) cheating."""
    forbidden = set(forbidden)
    if not forbidden:
        return None
    module, name = ident
    if name in forbidden and _FRONT.get(name) == module:
        return name
    if registry.in_engine(module) and forbidden & registry.ENGINE_NAMES:
        return sorted(forbidden & registry.ENGINE_NAMES)[0]
    implementing = _implementing(forbidden)
    if name in ("?", "*") or name.startswith("_"):
        if module == "" and name in ("?", "*"):
            return sorted(forbidden)[0]
        return implementing.get(module)
    return None


def _propagate(base: Mapping[str, set[str]],
               deps: Mapping[str, set[str]]) -> dict[str, dict[str, str]]:
    """name -> {forbidden public name: the answer whose tests forbid it}. A name inherits
    what its users may not reach: callers pass theirs on to whatever they use."""
    forbidden = {k: dict.fromkeys(sorted(v), k) for k, v in base.items()}
    changed = True
    while changed:
        changed = False
        for name, used in deps.items():
            mine = forbidden.get(name)
            if not mine:
                continue
            for other in used:
                theirs = forbidden.setdefault(other, {})
                for ref, origin in mine.items():
                    if ref not in theirs:
                        theirs[ref] = origin
                        changed = True
    return forbidden


def _label(ident: tuple[str, str]) -> str:
    module, name = ident
    if name == "?":
        return f"puzzlekit{'.' + module if module else ''} through a computed name"
    if name == "*":
        return f"everything of puzzlekit.{module}"
    if _FRONT.get(name) == module:
        return f"puzzlekit.{name}"
    return f"puzzlekit.{module}.{name}" if module else f"puzzlekit.{name}"


def _judge_reaches(scan: _Scan) -> None:
    """reference-call for the reaches whose names may not reach them."""
    ex = scan.exercise
    forbidden = _propagate(ex.base_forbidden, scan.deps)
    starred: dict[tuple[int, int], tuple[_Reach, list[str]]] = {}
    for r in scan.reaches:
        why = None
        if r.star:
            name = r.attrib[0]
            later = [p for p in scan.student_binds.get(name, [])
                     if p > (r.cell.index, r.lineno)]
            if not later and _covers(forbidden.get(name, {}), r.ident):
                starred.setdefault((r.cell.index, r.lineno), (r, []))[1].append(name)
            continue
        if r.attrib:
            for name in r.attrib:
                covering = _covers(forbidden.get(name, {}), r.ident)
                if covering:
                    origin = forbidden[name][covering]
                    why = f"{_label(r.ident)}, forbidden for {origin}"
                    break
        elif r.escapes and _covers(ex.all_forbidden, r.ident):
            why = f"hands {_label(r.ident)} on (this assignment forbids it)"
        if why:
            scan.hit(r.cell, r.lineno, "reference-call", why)
    for r, names in starred.values():
        scan.hit(r.cell, r.lineno, "reference-call",
                 f"a * import binds puzzlekit's {', '.join(sorted(names))}")


# ---------------------------------------------------------------------------
# The public API

def _answer_cells(submitted_nb: Mapping[str, Any], ex: _Exercise,
                  scan: _Scan) -> Iterator[tuple[int, Mapping[str, Any], str, str]]:
    """(index, cell, grade id, role) of each code cell; role 'locked', 'answer', 'added'."""
    for index, cell in enumerate(submitted_nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        meta = _meta(cell)
        gid = meta.get("grade_id") or f"cell-{index}"
        if gid in ex.locked:
            yield index, cell, gid, "locked"
        elif gid in ex.solution_ids or _is_solution(cell):
            yield index, cell, gid, "answer"
        elif _is_locked(cell):
            scan.hit(_Cell(index, gid, False, _parse(_source_text(cell))), 1,
                     "edited-locked-cell", "a locked cell the source does not have")
            yield index, cell, gid, "answer"
        else:
            yield index, cell, gid, "added" if not meta else "answer"


def scan_notebook(submitted_nb: Mapping[str, Any], source_nb: Mapping[str, Any], *,
                  student: str = "", assignment: str = "",
                  notebook: str = "") -> list[Finding]:
    """The findings of one submitted notebook, judged by the rules of its source notebook.

    Both notebooks are nbformat dicts (``nbformat.read`` or ``json.load``).
    """
    return _scan(submitted_nb, _exercise(source_nb), student, assignment, notebook)


def _exercise(source_nb: Mapping[str, Any]) -> _Exercise:
    """The rules of a source notebook (remembered by content: report() and the instructor
    scan many submissions against few sources)."""
    key = tuple((c.get("cell_type", ""), json.dumps(_meta(c), sort_keys=True),
                 _source_text(c)) for c in source_nb.get("cells", []))
    exercise = _EXERCISES.get(key)
    if exercise is None:
        if len(_EXERCISES) >= 16:
            _EXERCISES.clear()
        exercise = _EXERCISES[key] = _Exercise(source_nb)
        exercise.generated = _generated_locked(source_nb)
    return exercise


def _generated_locked(source_nb: Mapping[str, Any]) -> dict[str, str]:
    """grade id -> source of each locked code cell as generate writes it for students
    (`puzzlekit.course.authoring` derives the score table and the reporting lines): a submitted
    locked cell may match that or the source itself."""
    import nbformat

    from ..authoring import with_kit_lines
    nb = with_kit_lines(nbformat.reads(json.dumps(source_nb), as_version=4))
    return {str(_meta(c).get("grade_id")): _source_text(c) for c in nb.cells
            if c.get("cell_type") == "code" and _is_locked(c) and _meta(c).get("grade_id")}


_EXERCISES: dict[tuple[tuple[str, str, str], ...], _Exercise] = {}   # read-only once built


def _scan(submitted_nb: Mapping[str, Any], ex: _Exercise, student: str, assignment: str,
          notebook: str) -> list[Finding]:
    scan = _Scan(ex)
    cells: list[tuple[_Cell, str]] = []
    for index, raw, gid, role in _answer_cells(submitted_nb, ex, scan):
        text = ex.locked[gid] if role == "locked" else _source_text(raw)
        cells.append((_Cell(index, gid, role == "added", _parse(text)), role))
        submitted = _source_text(raw)
        if role == "locked" and _MISSING in submitted.split("\n", 1)[0]:
            _deleted_locked(scan, gid, text, index)     # nbgrader added it back
        elif role == "locked" and _normalized(submitted) not in (
                _normalized(text), _normalized(ex.generated.get(gid, text))):
            _edited_locked(scan, cells[-1][0], submitted, text)
    present = {c.grade_id for c, _ in cells}
    for gid, text in ex.locked.items():
        if gid not in present:
            _deleted_locked(scan, gid, text, 10 ** 6)
    _prepass(scan, [c for c, _ in cells])
    for cell, role in cells:
        tree = cell.parsed.tree
        if role == "locked":
            if tree is not None:
                resolver = _Visitor(scan, cell)
                for stmt in _module_level(tree):
                    _env_apply(stmt, scan.env, resolver.resolve)
            continue
        visitor = _Visitor(scan, cell)
        if tree is None:
            for lineno, kind, why in cell.parsed.magics:
                scan.hit(cell, lineno, kind, why)
            continue
        visitor.run(tree)
    _judge_reaches(scan)
    return [Finding(student, assignment, notebook, h.grade_id, h.finding, h.line)
            for h in sorted(scan.hits)]


_MISSING = "was missing from the submission"     # nbgrader's note on a cell it added back


def _deleted_locked(scan: _Scan, grade_id: str, source: str, index: int) -> None:
    first = next((line for line in source.splitlines() if line.strip()), "")
    scan.order += 1
    scan.hits.append(_Hit((index, 0, scan.order), grade_id,
                          "edited-locked-cell: the locked cell was deleted "
                          "(nbgrader adds it back)", _short(first)))


def _edited_locked(scan: _Scan, cell: _Cell, submitted: str, source: str) -> None:
    mine, theirs = _normalized(submitted), _normalized(source)
    for tag, i1, _, j1, _ in difflib.SequenceMatcher(a=theirs, b=mine,
                                                     autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete":
            line, why = theirs[i1], "a line of the instructor's cell was removed"
        else:
            line, why = mine[j1], "the cell differs from the instructor's"
        scan.order += 1
        scan.hits.append(_Hit((cell.index, 0, scan.order), cell.grade_id,
                              f"edited-locked-cell: {why} (nbgrader restores it)",
                              _short(line)))
        return


def _prepass(scan: _Scan, cells: Sequence[_Cell]) -> None:
    """Every module-level binding of the notebook, for code that runs later (functions)."""
    for cell in cells:
        tree = cell.parsed.tree
        if tree is None:
            continue
        _constants(tree, scan.consts)
        scan.module_names |= _module_bound(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                scan.module_names |= set(node.names)
        resolver = _Visitor(scan, cell)
        for stmt in _module_level(tree):
            _env_apply(stmt, scan.env, resolver.resolve)
            for name in _stmt_binds(stmt):
                if name in scan.env:
                    scan.may_env[name] = scan.env[name]
    scan.env = {}


def _read_notebook(path: Path) -> dict[str, Any]:
    """A notebook as a dict (plain JSON for nbformat 4, nbformat's upgrade for older ones)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise ValueError(f"{path.name} is not a notebook")
    if nb.get("nbformat", 4) < 4:
        import nbformat
        nb = dict(nbformat.read(str(path), as_version=4))
    return nb


def _submission_folder(course_root: Path, autograded: bool) -> Path:
    return course_root / ("autograded" if autograded else "submitted")


def _source_notebooks(course_root: Path, assignment: str) -> list[Path]:
    folder = course_root / "source" / assignment
    notebooks = sorted(folder.glob("*.ipynb")) if folder.is_dir() else []
    if not notebooks:
        raise PuzzleError(f"unknown assignment {assignment!r}: no notebook in {folder}")
    return notebooks


def _students(course_root: Path, assignment: str, students: Sequence[str] | None,
              autograded: bool) -> list[str]:
    folder = _submission_folder(course_root, autograded)
    if not folder.is_dir():
        raise PuzzleError(f"no {folder.name}/ folder in {course_root}")
    if students:
        for s in students:
            if not (folder / s / assignment).is_dir():
                raise PuzzleError(f"no {folder.name}/{s}/{assignment} folder in {course_root}")
        return list(dict.fromkeys(students))
    return sorted(p.parent.name for p in folder.glob(f"*/{assignment}") if p.is_dir())


def report(course_root: str | Path, assignment: str, *, students: Sequence[str] | None = None,
           autograded: bool = False) -> list[Finding]:
    """The findings of every submission of `assignment` (or of `students`) in a course.

    Reads ``submitted/<student>/<assignment>/*.ipynb`` (``autograded/`` with `autograded`)
    and ``source/<assignment>/*.ipynb``; raises `PuzzleError` for missing folders.
    """
    root = Path(course_root)
    sources = _source_notebooks(root, assignment)
    try:
        exercises = {p.name: _exercise(_read_notebook(p)) for p in sources}
    except (ValueError, OSError) as e:
        raise PuzzleError(f"cannot read the source notebook: {e}") from None
    folder = _submission_folder(root, autograded)
    findings: list[Finding] = []
    for student in _students(root, assignment, students, autograded):
        for source in sources:
            path = folder / student / assignment / source.name
            if not path.exists():
                continue
            try:
                nb = _read_notebook(path)
            except (ValueError, OSError) as e:
                findings.append(Finding(student, assignment, source.stem, "-",
                                        f"unreadable-notebook: {type(e).__name__}", ""))
                continue
            findings += _scan(nb, exercises[source.name], student, assignment, source.stem)
    return findings


def write_csv(findings: Iterable[Finding], out: IO[str]) -> None:
    """The findings as CSV with the header `CSV_HEADER`."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for f in findings:
        writer.writerow([f.student, f.assignment, f.notebook, f.grade_id, f.finding, f.line])


# ---------------------------------------------------------------------------
# --comment: the findings as auto comments in nbgrader's gradebook

COMMENT_MARK = "- integrity: "


def _comment_lines(findings: Iterable[Finding], cell_of: Mapping[str, str]) -> dict[str, list]:
    """solution cell -> the comment lines of the findings it carries."""
    out: dict[str, list[str]] = {}
    for f in findings:
        target = cell_of.get(f.grade_id)
        if target is None:
            continue
        where = "" if target == f.grade_id else f" (in {f.grade_id})"
        code = f.line.replace("`", "'")
        out.setdefault(target, []).append(f"{COMMENT_MARK}{f.finding}{where}: `{code}`")
    return out


def _comment_targets(nb: Mapping[str, Any], solution_cells: set[str]) -> dict[str, str]:
    """grade id (or cell-<i>) of every cell -> the solution cell whose comment carries its
    findings: itself, else the nearest solution cell above it, else the first below."""
    ids = [(_meta(c).get("grade_id") or f"cell-{i}") for i, c in
           enumerate(nb.get("cells", []))]
    out: dict[str, str] = {}
    last: str | None = None
    pending: list[str] = []
    for gid in ids:
        if gid in solution_cells:
            last = gid
            for p in pending:
                out[p] = gid
            pending = []
        if last is None:
            pending.append(gid)
        else:
            out[gid] = gid if gid in solution_cells else last
    return out


def add_comments(course_root: str | Path, assignment: str, findings: Iterable[Finding], *,
                 students: Sequence[str] | None = None, autograded: bool = False) -> int:
    """Put the findings of `students` (default: all) into ``gradebook.db`` as auto comments.

    Each finding goes to its solution cell's comment (findings of other cells to the
    nearest solution cell above them). A grader's manual comment is never touched (the
    formgrader shows the auto comment in the comment box until a grader writes one);
    earlier integrity lines are replaced, other auto comments ("No response.") kept.
    Returns the number of comments that now carry integrity lines.
    """
    from nbgrader.api import Gradebook, MissingEntry
    root = Path(course_root)
    db = root / "gradebook.db"
    if not db.exists():
        raise PuzzleError(f"no gradebook.db in {root}: run nbgrader autograde first")
    by_student: dict[str, list[Finding]] = {}
    for f in findings:
        by_student.setdefault(f.student, []).append(f)
    folder = _submission_folder(root, autograded)
    written = 0
    with Gradebook(f"sqlite:///{db}", course_id="") as gb:
        for student in _students(root, assignment, students, autograded):
            for source in _source_notebooks(root, assignment):
                try:
                    book = gb.find_notebook(source.stem, assignment)
                    gb.find_submission_notebook(source.stem, assignment, student)
                except MissingEntry:
                    print(f"integrity: no {assignment}/{source.stem} of {student} in the "
                          "gradebook; comments skipped", file=sys.stderr)
                    continue
                cells = {c.name for c in (*book.solution_cells, *book.task_cells)}
                path = folder / student / assignment / source.name
                nb = _read_notebook(path) if path.exists() else {"cells": []}
                mine = [f for f in by_student.get(student, []) if f.notebook == source.stem]
                lines = _comment_lines(mine, _comment_targets(nb, cells))
                for name in sorted(cells):
                    comment = gb.find_comment(name, source.stem, assignment, student)
                    kept = [line for line in (comment.auto_comment or "").split("\n")
                            if line and not line.startswith(COMMENT_MARK)]
                    text = "\n".join(kept + ([""] if kept and lines.get(name) else [])
                                     + lines.get(name, [])) or None
                    if text != comment.auto_comment:
                        comment.auto_comment = text
                    written += bool(lines.get(name))
            gb.db.commit()
    return written
