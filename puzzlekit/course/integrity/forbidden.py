"""Forbidden references: which answer may not reach which of puzzlekit's functions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ... import registry
from ...testcells.catalogue import (HANDS_ON_FORBIDDEN, STAR_IMPORT_BINDS,
                                    STAR_IMPORT_EVERYTHING)
from .rules import FRONT

if TYPE_CHECKING:
    from .scan import Reach, Scan



def _implementing(forbidden: Iterable[str]) -> dict[str, str]:
    """module -> a forbidden public name it implements (the engine for solve/search)."""
    out: dict[str, str] = {}
    for name in sorted(forbidden):
        if name in FRONT:
            out.setdefault(FRONT[name], name)
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
    if name in forbidden and FRONT.get(name) == module:
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
    if FRONT.get(name) == module:
        return f"puzzlekit.{name}"
    return f"puzzlekit.{module}.{name}" if module else f"puzzlekit.{name}"


def judge_reaches(scan: Scan) -> None:
    """reference-call for the reaches whose names may not reach them."""
    ex = scan.exercise
    forbidden = _propagate(ex.base_forbidden, scan.deps)
    starred: dict[tuple[int, int], tuple[Reach, list[str]]] = {}
    for r in scan.reaches:
        why = None
        if r.star and not r.attrib:
            # ``from puzzlekit.engine.X import *``: every public name of X, not only the
            # front's (those come as reaches of their own, each with its name)
            covering = _covers(ex.all_forbidden, r.ident)
            if covering:
                scan.hit(r.cell, r.lineno, "reference-call", STAR_IMPORT_EVERYTHING.format(
                    module=r.ident[0], name=covering))
            continue
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
            why = HANDS_ON_FORBIDDEN.format(label=_label(r.ident))
        if why:
            scan.hit(r.cell, r.lineno, "reference-call", why)
    for r, names in starred.values():
        scan.hit(r.cell, r.lineno, "reference-call",
                 STAR_IMPORT_BINDS.format(names=", ".join(sorted(names))))
