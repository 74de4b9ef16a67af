"""What the wall and the judge cost: autograding time per submission, before and after.

One temporary course (a copy of ``notebooks/``) with the reference answers of every
assignment as the submission. Each round autogrades every assignment twice, in
alternation: with plain nbgrader's ``Execute`` (the kernel in the course folder, the
tests in the kernel) and with the course's ``WalledExecute`` (the wall, the judge).
The issue's target: time per submission grows by at most 30%. Figures are the median
of the rounds, in one run (the machine is shared).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "3"))


def _api(root: Path, walled: bool) -> Any:
    from nbgrader.apps import NbGraderAPI
    from nbgrader.converters.autograde import Autograde
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    if not walled:
        config.Autograde.autograde_preprocessors = \
            Autograde.class_traits()["autograde_preprocessors"].default()
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def _course(root: Path) -> list[tuple[str, str]]:
    """Generate every assignment and hand in its source (solutions) as 'reference'."""
    import nbformat
    shutil.copytree(REPO / "notebooks" / "source", root / "source")
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root / "nbgrader_config.py")
    api = _api(root, walled=True)
    out = []
    for folder in sorted((root / "source").iterdir()):
        name = folder.name
        notebook = next(folder.glob("*.ipynb")).name
        assert api.generate_assignment(name)["success"], name
        source = nbformat.read(folder / notebook, as_version=4)
        release = nbformat.read(root / "release" / name / notebook, as_version=4)
        solutions = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source
                     for c in source.cells if c.metadata.get("nbgrader", {}).get("solution")}
        for cell in release.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if gid in solutions:
                cell.source = solutions[gid]
        for student in ("plain", "walled"):
            target = root / "submitted" / student / name
            target.mkdir(parents=True)
            nbformat.write(release, target / notebook)
        out.append((name, notebook))
    return out


def _score(api: Any, name: str, student: str) -> float:
    with api.gradebook as gb:
        return float(gb.find_submission(name, student).code_score)


def main() -> dict[str, Any]:
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    root = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    rows = []
    try:
        assignments = _course(root)
        apis = {"plain": _api(root, walled=False), "walled": _api(root, walled=True)}
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(ROUNDS):
            for name, _notebook in assignments:
                for kind in ("plain", "walled"):
                    t = time.perf_counter()
                    result = apis[kind].autograde(name, kind, force=True)
                    times.setdefault((name, kind), []).append(time.perf_counter() - t)
                    assert result["success"], result.get("log")
        for name, _notebook in assignments:
            plain = statistics.median(times[(name, "plain")])
            walled = statistics.median(times[(name, "walled")])
            rows.append({"assignment": name, "plain nbgrader (s)": plain,
                         "walled + judge (s)": walled, "ratio": walled / plain,
                         "score plain": _score(apis["plain"], name, "plain"),
                         "score walled": _score(apis["walled"], name, "walled"),
                         "seconds": walled})
    finally:
        shutil.rmtree(root, ignore_errors=True)
    total_plain = sum(r["plain nbgrader (s)"] for r in rows)
    total_walled = sum(r["walled + judge (s)"] for r in rows)
    return {"title": "Autograding one reference submission: plain nbgrader vs the wall",
            "rows": rows,
            "notes": [f"median of {ROUNDS} alternating rounds; all four assignments: "
                      f"{total_plain:.1f} s plain, {total_walled:.1f} s walled "
                      f"({total_walled / total_plain:.2f}x; target <= 1.30x)"]}


if __name__ == "__main__":
    report = main()
    for row in report["rows"]:
        print(row)
    print(*report["notes"], sep="\n")
