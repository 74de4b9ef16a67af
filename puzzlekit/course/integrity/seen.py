"""What the grader saw while it graded: the tampering its guard refused in the student's
kernel, and the names of puzzlekit the notebook rebound
(`puzzlekit.autograder.kernel.guard`), as the grader wrote them into the graded notebook
(``metadata.puzzlekit.tampering``). Read from ``autograded/`` only: the grader writes that
metadata afresh, a submission cannot put it there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...testcells.catalogue import GRADER_SAW
from .kinds import Finding


def grader_saw(graded_nb: Mapping[str, Any], student: str = "", assignment: str = "",
               notebook: str = "") -> list[Finding]:
    """One ``grader-tampering`` finding for each cell in which the grader's guard saw
    something (the first few things named, and how many in all)."""
    meta = graded_nb.get("metadata", {}).get("puzzlekit", {})
    seen = meta.get("tampering") if isinstance(meta, Mapping) else None
    by_cell: dict[str, list[str]] = {}
    for entry in seen if isinstance(seen, list) else []:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("what"), str):
            continue
        where = entry.get("grade_id") or (f"cell {entry['cell']}"
                                          if isinstance(entry.get("cell"), int) else "-")
        whats = by_cell.setdefault(str(where), [])
        if entry["what"] not in whats:
            whats.append(entry["what"])
    out = []
    for where, whats in by_cell.items():
        said = ", ".join(whats[:SHOWN]) + (f" ({len(whats)} in all)"
                                           if len(whats) > SHOWN else "")
        out.append(Finding(student, assignment, notebook, where,
                           GRADER_SAW.format(what=said), ""))
    return out


#: the things named in one finding
SHOWN = 3
