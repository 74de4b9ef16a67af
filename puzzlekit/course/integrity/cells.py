"""Cells: source text, IPython magics, nbgrader metadata."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...testcells.catalogue import CODE_FROM_ELSEWHERE, SHELL_COMMAND
from .kinds import LINE_WIDTH

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
        return "shell-command", str(SHELL_COMMAND)
    if name in _CODE_MAGICS:
        return "dynamic-code", CODE_FROM_ELSEWHERE.format(magic=name)
    if name in _OK_LINE_MAGICS:
        return None
    return "ipython-shell", f"runs the IPython magic %{name}"


def source_text(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


@dataclass
class Parsed:
    tree: ast.Module | None
    lines: list[str]
    magics: list[tuple[int, str, str]] = field(default_factory=list)  # (lineno, kind, why)


@functools.lru_cache(maxsize=4096)
def parse(source: str) -> Parsed:
    """The cell's syntax tree, IPython magics and shell escapes turned into ``pass``
    (cached: most cells of a submission are the instructor's; nothing changes a tree)."""
    lines = source.splitlines()
    try:
        return Parsed(ast.parse(source), lines)
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
            return Parsed(None, lines, magics)
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
        return Parsed(ast.parse("\n".join(out)), lines, magics)
    except SyntaxError:
        return Parsed(None, lines, magics)


def cell_meta(cell: Mapping[str, Any]) -> Mapping[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_solution(cell: Mapping[str, Any]) -> bool:
    return bool(cell_meta(cell).get("solution"))


def is_locked(cell: Mapping[str, Any]) -> bool:
    """nbgrader's rule: grade cells and locked cells, but never solution cells."""
    meta = cell_meta(cell)
    if not meta or meta.get("solution"):
        return False
    return bool(meta.get("grade") or meta.get("locked"))


def is_test(cell: Mapping[str, Any]) -> bool:
    return bool(cell_meta(cell).get("grade")) and not is_solution(cell)


def normalized(source: str) -> list[str]:
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


def short(line: str) -> str:
    line = line.strip()
    return line if len(line) <= LINE_WIDTH else line[:LINE_WIDTH - 1] + "…"
