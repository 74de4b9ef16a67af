"""What making outputs inert costs per honest notebook (puzzlekit.autograder.judge.sanitize).

One temporary course (a copy of ``notebooks/``) with the reference answers of every
assignment as the submission, autograded once with the course's config (the wall, the
judge, then `SanitizeOutputs`): full marks, checked. Then, on each graded notebook, median of ``ROUNDS``:

- the autograde step: `clean_notebook` (every output through the allow-list, the kit's
  drawings redrawn from their data), from a cold start (its CSS cache emptied), against
  the whole autograde of that notebook;
- the formgrader's page: nbconvert's HTMLExporter with the ``formgrade`` template, with
  the course's sanitising (``sanitize_html``, the kit's ``clean_html``, `SanitizePage`)
  and without it.
"""

from __future__ import annotations

import copy
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "5"))


def _config(root: Path, sanitized: bool) -> Any:
    import nbgrader.server_extensions.formgrader.handlers as fg
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [fg.template_path]
    if not sanitized:
        config.HTMLExporter.sanitize_html = False
        config.HTMLExporter.filters = {}
        config.HTMLExporter.preprocessors = []
    return config


def _course(root: Path) -> list[tuple[str, str]]:
    """Generate every assignment and hand in its source (solutions) as 'reference'."""
    import nbformat
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    shutil.copytree(REPO / "notebooks" / "source", root / "source")
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root / "nbgrader_config.py")
    config = _config(root, True)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
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
        target = root / "submitted" / "reference" / name
        target.mkdir(parents=True)
        nbformat.write(release, target / notebook)
        t = time.perf_counter()
        assert api.autograde(name, "reference", force=True)["success"], name
        seconds = time.perf_counter() - t
        with api.gradebook as gb:     # the reference keeps full marks through the step
            sub = gb.find_submission(name, "reference")
            assert sub.code_score == sub.max_code_score > 0, (name, sub.code_score)
        out.append((name, notebook, seconds))
    return out


def _median(f: Any) -> float:
    times = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> dict[str, Any]:
    import nbformat
    from nbconvert.exporters import HTMLExporter

    from puzzlekit.autograder.judge.sanitize import clean_css, clean_notebook
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    root = Path(tempfile.mkdtemp(prefix="bench-sanitize-"))
    rows = []
    try:
        graded = _course(root)
        exporters = {kind: HTMLExporter(config=_config(root, kind == "sanitized"))
                     for kind in ("sanitized", "plain")}
        for name, notebook, autograde in graded:
            path = root / "autograded" / "reference" / name / notebook
            nb = nbformat.read(path, as_version=4)
            outputs = sum(len(c.get("outputs", [])) for c in nb.cells)
            # a cold start each time (the CSS cache empty), as for a grader's first notebook
            step = _median(lambda: (clean_css.cache_clear(), clean_notebook(copy.deepcopy(nb))))
            step -= _median(lambda: copy.deepcopy(nb))
            pages = {kind: _median(lambda e=e: e.from_notebook_node(  # type: ignore[misc]
                copy.deepcopy(nb), resources={"base_url": "/", "index": 0, "total": 1,
                                              "notebook_id": notebook}))
                     for kind, e in exporters.items()}
            rows.append({"assignment": name, "outputs": outputs,
                         "graded notebook (KB)": path.stat().st_size / 1024,
                         "autograde (s)": autograde, "sanitise step (s)": step,
                         "step / autograde": step / autograde,
                         "page plain (s)": pages["plain"],
                         "page sanitised (s)": pages["sanitized"], "seconds": step})
    finally:
        shutil.rmtree(root, ignore_errors=True)
    total = sum(r["sanitise step (s)"] for r in rows)
    grading = sum(r["autograde (s)"] for r in rows)
    return {"title": "Sanitising outputs: the autograde step and the formgrader's page",
            "rows": rows,
            "notes": [f"median of {ROUNDS}; the four reference notebooks: sanitising "
                      f"{total:.3f} s of {grading:.1f} s autograding "
                      f"({100 * total / grading:.2f}%)"]}


if __name__ == "__main__":
    report = main()
    for row in report["rows"]:
        print(row)
    print(*report["notes"], sep="\n")
