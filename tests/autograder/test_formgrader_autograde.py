"""The formgrader's Autograde button grades behind the wall too.

The formgrader runs nbgrader inside the Jupyter server's own process and event loop; the
course's `WalledExecute` (and its judge) must work there as it does on the command line.
A real JupyterLab server on 127.0.0.1 serves a fresh course copy; the test presses
"Autograde" through the formgrader's API and reads the score from the gradebook.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

REPO = Path(__file__).parents[2]
A1 = "01-states-and-moves"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_formgrader_autogrades_behind_the_wall(tmp_path):
    import nbformat
    from nbgrader.api import Gradebook

    course = tmp_path / "course"
    course.mkdir()
    shutil.copytree(REPO / "notebooks" / "source" / A1, course / "source" / A1)
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", course)
    bin_dir = str(Path(sys.executable).parent)
    env = {"HOME": str(tmp_path), "PATH": f"{bin_dir}:/usr/bin:/bin", "JUPYTER_TOKEN": "t",
           "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config")}
    subprocess.run([f"{bin_dir}/nbgrader", "generate_assignment", A1], cwd=course, env=env,
                   check=True, capture_output=True)
    nb = nbformat.read(course / "source" / A1 / f"{A1}.ipynb", as_version=4)
    forged = {"status": "failed", "mistakes": [{"name": "wrap-around", "sentence": "forged",
                                                "boards": {}}]}
    for cell in nb.cells:       # a submission's own records of mistakes: never kept
        cell.metadata["puzzlekit"] = forged
    (course / "submitted" / "ada" / A1).mkdir(parents=True)
    nbformat.write(nb, course / "submitted" / "ada" / A1 / f"{A1}.ipynb")

    port = free_port()
    server = subprocess.Popen(
        [f"{bin_dir}/jupyter", "lab", "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.disable_check_xsrf=True"],
        cwd=course, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/formgrader/api"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/assignments?token=t", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        request = urllib.request.Request(f"{base}/submission/{A1}/ada/autograde?token=t",
                                         data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=120) as response:
            assert b'"success": true' in response.read()
    finally:
        server.terminate()
        server.wait(timeout=30)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission(A1, "ada")
        assert submission.code_score == submission.max_code_score > 0
    assert not os.path.exists(course / "autograded" / "ada" / A1 / "kernel.json")
    graded = nbformat.read(course / "autograded" / "ada" / A1 / f"{A1}.ipynb", as_version=4)
    from puzzlekit.autograder.wall import status
    assert graded.metadata["puzzlekit"]["judged"] is True
    for cell in graded.cells:   # the judge's records of each test cell, and only those
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade") and not meta.get("solution") and cell.cell_type == "code":
            assert cell.metadata["puzzlekit"] == {"status": "passed", "mistakes": []}
        else:
            assert "puzzlekit" not in cell.metadata, cell.source[:80]
    assert graded.metadata["puzzlekit"]["wall"]["up"] is bool(status().landlock_abi)
