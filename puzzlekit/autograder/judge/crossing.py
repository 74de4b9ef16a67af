"""What crosses the wall between the judge and the kernel, besides plain data.

The judge's helpers for the values that are not plain data (`puzzlekit.autograder.wire`
carries those): which exception class a kernel's class chain may stand for
(`real_exception`), which module a student's name may be the judge's own import of
(`own_module`), which of a test's functions and constants the kernel can have as the
same thing (`constant`, `by_name`), how a call's arguments are updated in place as the
student's code left them (`write_back`), and the names a cell binds or reads
(`bound_names`, `names_used`). Used by `puzzlekit.autograder.judge.judge` only.
"""

from __future__ import annotations

import builtins
import symtable
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

from ...testcells.catalogue import NOT_SENT_BY_NAME
from .. import wire


def bound_names(source: str) -> set[str]:
    """The module-level names a cell binds (assignments, defs, imports, loops)."""
    try:
        table = symtable.symtable(source, "<cell>", "exec")
    except SyntaxError:
        return set()
    names = {s.get_name() for s in table.get_symbols()
             if s.is_assigned() or s.is_imported() or s.is_namespace()}
    for child in table.get_children():
        names |= {s.get_name() for s in child.get_symbols()
                  if s.is_declared_global() and s.is_assigned()}
    return names


BUILTIN_ERRORS = {name: cls for name, cls in vars(builtins).items()
                   if isinstance(cls, type) and issubclass(cls, Exception)}
#: the roots every exception's chain ends with
ROOTS = frozenset({("builtins", "BaseException"), ("builtins", "Exception")})
#: modules the kernel may not name for a real class or a module of the judge's own
_NOT_OWN = frozenset({"__main__", "antigravity", "this", "idlelib", "turtle", "turtledemo",
                      "tkinter"})


#: modules the judge imports itself when a student's name stands for one it has not
#: imported yet (any other module of the standard library only when already imported:
#: importing some runs code, a test suite even)
_IMPORTABLE = frozenset({
    "numpy", "puzzlekit", "math", "cmath", "random", "itertools", "functools",
    "collections", "heapq", "bisect", "copy", "re", "string", "time", "json", "statistics",
    "operator", "fractions", "decimal", "typing", "dataclasses", "enum", "queue", "array",
    "numbers", "textwrap", "io", "contextlib", "types", "pprint", "datetime"})


def class_chain(raw: Any) -> list[tuple[str, str]]:
    """A class chain from the kernel as (module, qualname) pairs; [] if it is not one."""
    if type(raw) is not list or not 0 < len(raw) <= 30:
        return []
    chain = []
    for pair in raw:
        if type(pair) is not list or len(pair) != 2 or not all(
                type(x) is str and 0 < len(x) <= 200 for x in pair):
            return []
        chain.append((pair[0], pair[1]))
    return chain


def real_exception(module: str, qualname: str) -> type[BaseException] | None:
    """The judge's own exception class `module.qualname`, looked up by name (never
    imported), when it is a builtin one or one of the standard library or
    puzzlekit.errors that the judge has imported; else None."""
    if module == "builtins":
        return BUILTIN_ERRORS.get(qualname)
    top = module.split(".")[0]
    if module != "puzzlekit.errors" and (top in _NOT_OWN
                                         or top not in sys.stdlib_module_names):
        return None
    value: Any = sys.modules.get(module)
    for part in qualname.split("."):
        value = vars(value).get(part) if value is not None else None
    if isinstance(value, type) and issubclass(value, Exception):
        return value
    return None


def own_module(name: Any, importer: Callable[..., Any]) -> types.ModuleType | None:
    """The judge's own import of a module a student's name stands for: numpy, puzzlekit or
    a common module of the standard library (`_IMPORTABLE`), or one of the standard
    library the judge has imported already; never a file of the student's."""
    if type(name) is not str or not name:
        return None
    top = name.split(".")[0]
    if top in _NOT_OWN:
        return None
    loaded = name in sys.modules and top in sys.stdlib_module_names   # runs no code
    if not (loaded or top in _IMPORTABLE):
        return None
    try:
        module = importer(name, None, None, ("__name__",), 0)
    except Exception:
        return None
    return module if isinstance(module, types.ModuleType) else None


def student_str(self: BaseException) -> str:
    """str() of a twin exception: the text the kernel gave (its class's __str__)."""
    text = vars(self).get("_student_text")
    return text if type(text) is str else BaseException.__str__(self)


def is_mutable(value: object) -> bool:
    if type(value) in (list, dict, set):
        return True
    np = sys.modules.get("numpy")
    return np is not None and type(value) is np.ndarray


#: what the student's code may do with an object of the test (`_answer_question`)
TEST_OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "len": lambda x, _: len(x), "iter": lambda x, _: list(x),
    "getitem": lambda x, y: x[y], "contains": lambda x, y: y in x,
    "eq": lambda x, y: x == y, "hash": lambda x, _: hash(x), "bool": lambda x, _: bool(x),
    "str": lambda x, _: str(x), "repr": lambda x, _: repr(x),
}


def error_reply(e: BaseException) -> dict[str, Any]:
    return {"error": {"ename": type(e).__name__, "evalue": str(e)[:5000]}}


#: the most functions and objects of its own a notebook's tests may pass to the kernel
MAX_STAND_INS = 100_000


def codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """`code` and the code objects nested in it (its lambdas, comprehensions, defs)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from codes(const)


def _importable(module: types.ModuleType) -> bool:
    """A module the kernel imports as the same thing: the standard library's or
    puzzlekit's (never ``__main__``, the judge's own namespace)."""
    name = module.__name__
    return name != "__main__" and (name.split(".")[0] == "puzzlekit"
                                   or name in sys.stdlib_module_names
                                   or name.split(".")[0] in sys.stdlib_module_names)


def _named(value: object) -> str | None:
    """``module:qualname`` of a function or class that the kernel can import as the same
    thing (puzzlekit's or a builtin), or None."""
    if not isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type)):
        return None
    module = getattr(value, "__module__", "") or ""
    qualname = getattr(value, "__qualname__", "") or ""
    if "<locals>" in qualname or not (module.split(".")[0] == "puzzlekit"
                                      or module == "builtins"):
        return None
    return f"{module}:{qualname}"


def is_immutable(value: object, depth: int = 0) -> bool:
    if depth > 8:
        return False
    if type(value) in (type(None), bool, int, float, str, bytes, complex):
        return True
    if type(value) in (tuple, frozenset):
        return all(is_immutable(v, depth + 1) for v in value)  # type: ignore[attr-defined]
    return False


def constant(value: object) -> bool:
    """The kernel's copy of `value` behaves exactly like it: immutable plain data, a
    module, puzzlekit's or a builtin function (so a test's function that uses only
    these may run in the kernel)."""
    if is_immutable(value) and type(value) is not complex:
        return True
    if isinstance(value, types.ModuleType):
        return _importable(value)
    return _named(value) is not None


def by_name(value: object) -> dict[str, Any]:
    """The wire's extension for what `constant` allows beyond plain data."""
    if isinstance(value, types.ModuleType):
        return {"$py": f"{value.__name__}:"}
    name = _named(value)
    if name is None:
        raise wire.WireError(NOT_SENT_BY_NAME.format(kind=type(value).__name__))
    return {"$py": name}


def shown_text(value: object) -> str:
    """`value` as IPython's display shows it in ``text/plain``."""
    try:
        from IPython.lib.pretty import pretty
        return str(pretty(value))[:100_000]
    except Exception:
        return f"<{type(value).__name__} object>"


def write_back(given: list[Any], index: str, new: Any) -> None:
    """Make the judge's object number `index` of a call's arguments look as the
    student's call left it (in place: it stays the judge's object)."""
    try:
        old = given[int(index)]
    except (ValueError, IndexError):
        return
    if old is new:
        return
    if type(old) is list and type(new) is list:
        old[:] = new
    elif type(old) is dict and type(new) is dict:
        old.clear()
        old.update(new)
    elif type(old) is set and type(new) is set:
        old.clear()
        old.update(new)
    elif is_mutable(old) and type(new) is type(old) and not isinstance(old, (list, dict,
                                                                              set)):
        if old.shape == new.shape and old.dtype == new.dtype and old.flags.writeable:
            old[...] = new


def names_used(source: str) -> set[str]:
    """The global names a cell's code reads or writes (its functions' too)."""
    try:
        code = compile(source, "<cell>", "exec")
    except SyntaxError:
        return set()
    names: set[str] = set()
    todo = [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    return names
