"""The class grader (`python -m puzzlekit grade`) keeps a hostile submission's outputs as
data too: its coordinator runs nbgrader's converter with only the execute step replaced,
so the course's SanitizeOutputs step (after it) still runs. The graded notebook has no
script, no active HTML or SVG and no widget state; the kit's honest board is kept with its
data; the formgrader's exporter (the course's config) renders it without any script of the
student's."""

from __future__ import annotations

import subprocess
import sys

import nbformat
import pytest
from active_content import runnable
from hostile_outputs import A1, MARK, REPO, assert_data_only, grades, make_course

from puzzlekit.visuals.display import KIT_MIME

pytest.importorskip("nbgrader")
pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def test_the_class_grader_sanitises_a_hostile_submission(tmp_path):
    course, env = make_course(tmp_path, grade=False)
    proc = subprocess.run([sys.executable, "-m", "puzzlekit", "grade", A1, "--course-root",
                           str(course), "--workers", "1", "--progress", "log"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    scores = grades(course)
    assert scores and all(m is None for _, m, _ in scores.values())
    graded = nbformat.read(course / "autograded" / "mallory" / A1 / f"{A1}.ipynb",
                           as_version=4)
    assert_data_only(graded)
    kit = [o for c in graded.cells for o in c.get("outputs", []) if KIT_MIME in o.get("data", {})]
    assert [o["data"][KIT_MIME].get("title") for o in kit].count("an honest board") == 1
    assert all(isinstance(o["data"][KIT_MIME]["state"], list) for o in kit)  # not the forged

    # the formgrader's page, as its exporter renders it with the course's config
    from nbconvert.exporters import HTMLExporter
    from nbgrader.apps import NbGraderAPI  # noqa: F401  (the course config imports nbgrader)
    from traitlets.config import Config, PyFileConfigLoader
    config = Config(PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config())
    config.HTMLExporter.template_name = "formgrade"
    import nbgrader.server_extensions.formgrader.handlers as fg
    config.HTMLExporter.extra_template_basedirs = [fg.template_path]
    html, _ = HTMLExporter(config=config).from_filename(
        str(course / "autograded" / "mallory" / A1 / f"{A1}.ipynb"),
        resources={"base_url": "/", "index": 0, "total": 1, "notebook_id": A1})
    assert not [code for code in runnable(html) if MARK in code]
    assert "My answer" in html and 'class="pk-board' in html
