"""Every simulated student's marks and messages as JSON, to compare two commits.

A reshaping of the grader (issue 34) must leave what students get unchanged. This program
grades the simulated class (`tests/simulated_class/course_harness.py`: every assignment,
every simulated student and attack, through the class grader) and the fair-marks corpus
(`tests/fair_marks/harness.py`: 54 answers in students' styles), and writes one row per
graded test cell: ``[source, student, cell, points, message]``, the message being what
the cell's outputs say with colours stripped (its error's words, or its printed text)::

    python tests/marks_record.py before.json          # on the old commit
    python tests/marks_record.py after.json           # on the new one
    python tests/marks_record.py --compare before.json after.json

Only `--compare`'s differences need reading: timings are left out of the rows, but a
message that quotes a measured time (a time limit's words) may differ between runs.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _words(cell: Any) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            parts.append(f"{output.get('ename', '')}: {output.get('evalue', '')}")
        elif output.get("output_type") == "stream":
            parts.append(str(output.get("text", "")))
        elif output.get("output_type") in ("execute_result", "display_data"):
            parts.append(str(output.get("data", {}).get("text/plain", "")))
    return ANSI.sub("", "\n".join(parts))


def simulated_class() -> list[list[Any]]:
    """The simulated class's rows (gradebook points, the autograded cells' words)."""
    import nbformat
    sys.path.insert(0, str(HERE / "simulated_class"))
    from course_harness import build_course, grade_id, test_cells
    rows: list[list[Any]] = []
    with tempfile.TemporaryDirectory(prefix="marks-record-") as folder:
        course = build_course(Path(folder))
        for name, a in course.assignments.items():
            ids = {grade_id(c) for c in test_cells(a.source_nb)}
            for student, graded in sorted(a.graded.items()):
                path = course.root / "autograded" / student / name / a.notebook
                words: dict[str, str] = {}
                if path.exists():
                    for cell in nbformat.read(path, as_version=4).cells:
                        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
                        if gid in ids:
                            words[gid] = _words(cell)
                for gid, points in sorted(graded.cells.items()):
                    rows.append([f"class {name}", student, gid, points, words.get(gid, "")])
    return rows


def fair_marks() -> list[list[Any]]:
    """The fair-marks corpus's rows (nbgrader's score, the first sentence, mistakes)."""
    sys.path.insert(0, str(HERE / "fair_marks"))
    import harness
    with tempfile.TemporaryDirectory(prefix="marks-record-") as folder:
        out = Path(folder) / "fair.json"
        harness.main("corpus_01,corpus_02,corpus_03,corpus_04", str(out))
        results = json.loads(out.read_text(encoding="utf-8"))
    rows: list[list[Any]] = []
    for module, answers in sorted(results.items()):
        for answer, cells in sorted(answers.items()):
            for gid, (score, _most, sentence, named) in sorted(cells.items()):
                rows.append([f"fair {module}", answer, gid, score,
                             f"{sentence} {sorted(n for n in named if n)}"])
    return rows


def compare(before: str, after: str) -> int:
    """Print the rows that differ; 1 when any does."""
    old = {tuple(r[:3]): r[3:] for r in json.loads(Path(before).read_text())}
    new = {tuple(r[:3]): r[3:] for r in json.loads(Path(after).read_text())}
    differ = 0
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            differ += 1
            print(f"{' / '.join(map(str, key))}:\n  before {old.get(key)}\n  after  {new.get(key)}")
    print(f"{len(old)} rows before, {len(new)} after, {differ} differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"] and len(argv) == 3:
        return compare(argv[1], argv[2])
    if len(argv) != 1:
        print(__doc__)
        return 2
    rows = simulated_class() + fair_marks()
    Path(argv[0]).write_text(json.dumps(rows, indent=0), encoding="utf-8")
    print(f"{len(rows)} rows in {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
