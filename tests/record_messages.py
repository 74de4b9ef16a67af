"""Record what the simulated class and the fair-marks corpus read, to compare two commits.

A change of where the grader's sentences live (the message catalogue,
`puzzlekit.testcells.catalogue`) must leave every score and every word the same, but for
deliberate changes of wording. This grades both corpora as their tests do and writes one
JSON file: a list of [corpus, assignment, student, cell, points, text], where text is all
a graded test cell shows (its errors' words and printed lines, colours removed), plus the
text of each simulated student's feedback page and the integrity reports.

    python tests/record_messages.py before.json            # both corpora
    python tests/record_messages.py after.json fair        # only the fair-marks corpus
    python tests/record_messages.py --compare before.json after.json

Not a test (it takes about half an hour on two cores): a tool for a reviewer.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TAGS = re.compile(r"<[^>]+>")


def cell_text(cell: Any) -> str:
    """Everything a graded cell shows: error words, printed text, plain values."""
    parts = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            parts.append(f"{o.get('ename')}: {o.get('evalue')}")
        elif o.get("output_type") == "stream":
            parts.append(o.get("text", ""))
        elif o.get("output_type") in ("execute_result", "display_data"):
            parts.append(str(o.get("data", {}).get("text/plain", "")))
    return ANSI.sub("", "\n".join(parts))


def simulated_class() -> list[list[Any]]:
    sys.path.insert(0, str(HERE / "simulated_class"))
    import nbformat
    from course_harness import build_course, grade_id, test_cells

    rows: list[list[Any]] = []
    with tempfile.TemporaryDirectory(prefix="record-class-") as folder:
        course = build_course(Path(folder))
        for name, a in course.assignments.items():
            ids = {grade_id(c) for c in test_cells(a.source_nb)}
            for student, g in sorted(a.graded.items()):
                path = course.root / "autograded" / student / name / a.notebook
                cells = nbformat.read(path, as_version=4).cells if path.exists() else []
                for cell in cells:
                    gid = cell.metadata.get("nbgrader", {}).get("grade_id")
                    if gid in ids:
                        rows.append(["class", name, student, gid, g.cells.get(gid),
                                     cell_text(cell)])
                page = (course.root / "feedback" / student / name
                        / a.notebook.replace(".ipynb", ".html"))
                if page.exists():
                    text = " ".join(TAGS.sub(" ", page.read_text("utf-8")).split())
                    rows.append(["class-feedback", name, student, "", g.score, text])
            import io

            from puzzlekit.course.integrity import report, write_csv
            out = io.StringIO()
            write_csv(report(course.root, name), out)
            rows.append(["integrity", name, "", "", None, out.getvalue()])
    return rows


def fair_marks() -> list[list[Any]]:
    sys.path.insert(0, str(HERE / "fair_marks"))
    import importlib

    import harness
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    rows: list[list[Any]] = []
    for module in ("corpus_01", "corpus_02", "corpus_03", "corpus_04"):
        corpus = importlib.import_module(module)
        for answer_name, answer in corpus.ANSWERS.items():
            kept: list[Any] = []
            marks = harness.grade(corpus.ASSIGNMENT, answer, keep=kept)
            for cell in kept[0].cells:
                gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                if gid in marks:
                    rows.append(["fair", corpus.ASSIGNMENT, answer_name, gid, marks[gid][0],
                                 cell_text(cell)])
    return rows


#: what differs between two runs of the same code: seconds, memory, process ids, paths
NOISE = [(re.compile(r"\d+(\.\d+)?\s?(s|ms|seconds|MB|KB|GB)\b"), "<n unit>"),
         (re.compile(r"/tmp/[^\s'\"]+"), "<tmp>"),
         (re.compile(r"0x[0-9a-f]+"), "<addr>"),
         (re.compile(r"\b\d{4}-\d\d-\d\d[ T][\d:.]+"), "<time>")]


def normal(text: str) -> str:
    for pattern, by in NOISE:
        text = pattern.sub(by, text)
    return text


def compare(before_path: str, after_path: str) -> int:
    before = {tuple(r[:4]): r[4:] for r in json.loads(Path(before_path).read_text())}
    after = {tuple(r[:4]): r[4:] for r in json.loads(Path(after_path).read_text())}
    differ = 0
    for key in sorted(set(before) | set(after), key=str):
        b, a = before.get(key), after.get(key)
        if b is None or a is None:
            print(f"only in {'after' if b is None else 'before'}: {key}")
            differ += 1
            continue
        if b[0] != a[0] or normal(b[1]) != normal(a[1]):
            differ += 1
            print(f"== {key}: points {b[0]} -> {a[0]}")
            import difflib
            for line in difflib.unified_diff(normal(b[1]).splitlines(),
                                             normal(a[1]).splitlines(), lineterm="", n=0):
                print("   ", line[:300])
    print(f"{len(before)} records before, {len(after)} after, {differ} differ")
    return differ


def main(argv: list[str]) -> None:
    if argv[0] == "--compare":
        compare(argv[1], argv[2])
        return
    which = argv[1] if len(argv) > 1 else "class,fair"
    rows: list[list[Any]] = []
    if "class" in which:
        rows += simulated_class()
    if "fair" in which:
        rows += fair_marks()
    Path(argv[0]).write_text(json.dumps(rows, indent=0), encoding="utf-8")
    print(f"{len(rows)} records -> {argv[0]}")


if __name__ == "__main__":
    main(sys.argv[1:])
