"""What an expression stands for (a module, an object of one, a module's namespace), and
constant folding (``getattr(puzzlekit, "se" + "arch")``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...old_paths import new_path
from .rules import FRONT, KIT_MODULES


@dataclass(frozen=True)
class Val:
    """What an expression stands for: a module, an object of one, or a module's namespace."""

    dotted: str
    is_module: bool = False
    ns: bool = False        # the namespace dict of module `dotted` (vars(M), globals(), ...)

    def attr(self, name: str) -> Val:
        """The value of attribute `name` of this module or object."""
        module = self.puzzlekit_module
        if module is not None:
            if module == "" and name in FRONT:
                return Val(f"puzzlekit.{FRONT[name]}.{name}")
            inner = new_path(f"{module}.{name}" if module else name)
            if inner in KIT_MODULES:
                return Val(f"puzzlekit.{inner}", is_module=True)
        return Val(f"{self.dotted}.{name}")

    @property
    def puzzlekit_module(self) -> str | None:
        """'' for the package, the module's path in it for one of its modules
        (``"engine.solver"``), else None."""
        parts = self.dotted.split(".")
        if parts[0] != "puzzlekit" or not self.is_module:
            return None
        return ".".join(parts[1:])


MAIN_NS = Val("__main__", is_module=True, ns=True)


def module_val(name: str) -> Val:
    """The module `name` (a dotted import path)."""
    parts = name.split(".")
    if parts[0] == "puzzlekit" and len(parts) > 1:      # old paths are the new modules
        val = Val("puzzlekit", True)
        for part in parts[1:]:
            val = val.attr(part)
        if val.is_module or len(parts) > 2:             # puzzlekit.x.y may be no module
            return val
    return Val(name, is_module=True)


def import_val(module: str, name: str) -> Val:
    """The value ``from module import name`` binds."""
    return module_val(module).attr(name)


# ---------------------------------------------------------------------------
# Constant folding (getattr(puzzlekit, "se" + "arch"))

def fold(node: ast.AST | None, consts: Mapping[str, object]) -> object | None:
    """The value of a constant expression made of strings and numbers, else None."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [fold(e, consts) for e in node.elts]
        return None if any(i is None for i in items) else tuple(items)
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for v in node.values:
            inner = v.value if isinstance(v, ast.FormattedValue) else v
            folded = fold(inner, consts)
            if folded is None:
                return None
            parts.append(str(folded))
        return "".join(parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = fold(node.operand, consts)
        if isinstance(value, int):
            return -value if isinstance(node.op, ast.USub) else value
        return None
    if isinstance(node, ast.BinOp):
        a, b = fold(node.left, consts), fold(node.right, consts)
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
        base = fold(node.value, consts)
        if not isinstance(base, (str, tuple)):
            return None
        s = node.slice
        try:
            if isinstance(s, ast.Slice):
                ends = (s.lower, s.upper, s.step)
                bounds: list[Any] = [None if x is None else fold(x, consts) for x in ends]
                if any(b is None and x is not None for b, x in zip(bounds, ends)):
                    return None
                return base[slice(*bounds)]
            index = fold(s, consts)
            return base[index] if isinstance(index, int) else None
        except (IndexError, TypeError, ValueError):
            return None
    if isinstance(node, ast.Call) and not node.keywords:
        args = [fold(a, consts) for a in node.args]
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
            base = fold(func.value, consts)
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


def fold_str(node: ast.AST | None, consts: Mapping[str, object]) -> str | None:
    value = fold(node, consts)
    return value if isinstance(value, str) else None
