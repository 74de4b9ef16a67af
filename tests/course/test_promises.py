"""docs/promises.md audits every graded test cell of the course against its text.

A graded cell added to a notebook without its row in the table fails here, and so does a
row whose points are not the cell's, or a share in brackets that the cell does not give.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "promises.md"
NOTEBOOKS = sorted((ROOT / "notebooks" / "source").glob("*/*.ipynb"))

#: grade ids whose row names the exercise otherwise than `<name>_tests` -> `name`
ROW_OF = {
    "search_report_tests": "search's report",
    "bfs_hard_tests": "bfs, hard boards",
    "gen_successors_bonus_tests": "bonus",
    "inversions_tests": "`num_inversions`, `same_parity`",
    "nineteen_tests": "`nineteen_path`",
    "astar_more_tests": "`astar`",
}


def graded_cells(path: Path) -> list[tuple[str, float, str]]:
    """(grade id, points, source) of each autograded test cell of a source notebook."""
    cells = json.loads(path.read_text("utf-8"))["cells"]
    out = []
    for cell in cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell["cell_type"] == "code" and meta.get("grade"):
            out.append((meta["grade_id"], float(meta["points"]), "".join(cell["source"])))
    return out


def section(number: str) -> str:
    """The part of the table under the heading of notebook `number` ("01" ...)."""
    text = DOC.read_text("utf-8")
    found = re.search(rf"^## {number} .*?(?=^## |\Z)", text, re.M | re.S)
    assert found, f"docs/promises.md has no section for notebook {number}"
    return found.group(0)


def row_for(table: str, grade_id: str) -> str:
    name = ROW_OF.get(grade_id, f"`{grade_id.removesuffix('_tests')}`")
    rows = [line for line in table.splitlines() if line.startswith("| ") and
            name in line.split(" | ")[0]]
    assert rows, f"docs/promises.md: no row for {grade_id} (looked for {name})"
    return rows[0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.parent.name for p in NOTEBOOKS])
def test_every_graded_cell_has_its_row_with_its_points_and_shares(path):
    table = section(path.parent.name[:2])
    for grade_id, points, source in graded_cells(path):
        row = row_for(table, grade_id)
        first = row.split(" | ")[0]
        numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", first.split("(", 1)[-1])]
        assert points in numbers or sum(numbers) == points or "each" in first, \
            f"{grade_id} is worth {points:g}, its row says {first}"
        # every share the row promises in brackets is a case of the cell, and back
        said = sorted(float(x) for x in re.findall(r"\[(\d+(?:\.\d+)?)(?: each)?\]", row))
        given = re.findall(r"\.case\(\s*(?:[\w.]+ if [^,]+ else )?(\d+(?:\.\d+)?)", source)
        assert bool(said) == bool(given), \
            f"{grade_id}: the row's shares {said} and the cell's cases {given} disagree"
        assert set(said) <= {float(x) for x in given} | {float(x) for x in re.findall(
            r"(\d+(?:\.\d+)?) if", source)}, (grade_id, said, given)
