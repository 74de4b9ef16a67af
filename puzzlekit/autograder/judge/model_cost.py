"""What the model solution costs, and the budget of a submission measured by it.

A notebook's budget is relative to the instructor's own notebook (the source, with the
model solution): the first time the grader grades a notebook of an assignment it grades
that notebook's source first, the same way, and keeps what it cost (the kernel's CPU
seconds over every cell, and the seconds on the notebook's clock, `fair_clock`, from its
kernel's start) in the course, in
``.puzzlekit/model-costs.json`` beside ``gradebook.db``::

    {"ps1/ps1": {"cpu": 12.4, "wall": 31.0, "measured": "2026-11-27T05:00:00+00:00"}}

Each submission of it then gets ``max(floor, factor × the model's cost)`` of computing time
(`WalledExecute.notebook_cpu_factor`, ``notebook_cpu_floor``) and, as a backstop for code
that waits rather than computes, ``max(floor, factor × the model's wall time)`` on the
clock (``notebook_wall_factor``, ``notebook_wall_floor``). Delete an entry (or the file)
after changing the source notebook: the next grading measures it again.
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the file of the course's model costs, relative to the course's root
COSTS_FILE = Path(".puzzlekit") / "model-costs.json"


@dataclass(frozen=True)
class ModelCost:
    """What grading the model solution's notebook cost: CPU seconds and seconds on the
    notebook's clock (`FairClock`)."""

    cpu: float
    wall: float


def course_root(resources: dict[str, Any], fallback: str | os.PathLike[str]) -> Path:
    """The course's root folder: the gradebook's folder when it is a SQLite file (as
    nbgrader autograde gives it), else `fallback`."""
    url = str((resources.get("nbgrader") or {}).get("db_url") or "")
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):]).parent
    return Path(fallback)


def key_of(resources: dict[str, Any]) -> str | None:
    """``assignment/notebook`` of the notebook being graded (None outside nbgrader)."""
    meta = resources.get("nbgrader") or {}
    assignment, notebook = meta.get("assignment"), meta.get("notebook")
    if not isinstance(assignment, str) or not isinstance(notebook, str):
        return None
    return f"{assignment}/{notebook}"


def read_cost(root: Path, key: str) -> ModelCost | None:
    """The model cost kept for `key`, if any (a broken file is as none)."""
    try:
        entry = json.loads((root / COSTS_FILE).read_text(encoding="utf-8")).get(key)
        cost = ModelCost(float(entry["cpu"]), float(entry["wall"]))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return cost if cost.cpu >= 0 and cost.wall > 0 else None


def write_cost(root: Path, key: str, cost: ModelCost) -> None:
    """Keep `cost` for `key` (other entries kept; written whole, then renamed)."""
    path = root / COSTS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        costs = json.loads(path.read_text(encoding="utf-8"))
        costs = costs if isinstance(costs, dict) else {}
    except (OSError, ValueError):
        costs = {}
    costs[key] = {"cpu": round(cost.cpu, 3), "wall": round(cost.wall, 3),
                  "measured": datetime.datetime.now(datetime.timezone.utc).isoformat(
                      timespec="seconds")}
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(costs, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    part.replace(path)


def relative_budget(model: float, factor: float, floor: float) -> float:
    """``max(floor, factor × model)`` seconds."""
    return max(floor, factor * model)
