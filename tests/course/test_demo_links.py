"""Every link in a student's notebook leads to a file, wherever the student opens it.

The graded notebooks link to the lecture demos as ``../demos/NAME.ipynb``
(puzzlekit.course.demos). The places a student opens an assignment, each checked here
with the code that lays it out: the JupyterLite site (deploy/lite/build.py's `lay_out`),
a student's home on the class server after a fetch (deploy/hub/classroom.py hands out
the demos), and the course folder after generate (release/, with `ReleaseDemos`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from puzzlekit.course.demos import DEMOS_FOLDER, copy_demos, demo_links

REPO = Path(__file__).resolve().parents[2]
COURSE = REPO / "notebooks"
DEMOS = COURSE / "demos"
SOURCES = sorted((COURSE / "source").glob("*/*.ipynb"))
#: the demo each assignment is meant to reach (issue 32, part 6)
LINKED = {"02-uninformed-search": "01-see-search.ipynb",
          "03-informed-search": "02-see-heuristics.ipynb",
          "04-fifteen-puzzle": "03-pattern-databases.ipynb"}


def _module(path: Path, name: str):
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module          # (dataclasses look their module up there)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def unresolved(notebook: Path, top: Path) -> list[str]:
    """The links of `notebook` that do not lead to a file inside `top` (the folder the
    student's Jupyter serves: it serves nothing outside it)."""
    bad = []
    for link in demo_links(json.loads(notebook.read_text("utf-8"))):
        target = Path(os.path.normpath(notebook.parent / link.split("#")[0]))
        if not target.is_file() or not target.is_relative_to(top):
            bad.append(link)
    return bad


@pytest.mark.parametrize("path", SOURCES, ids=[p.parent.name for p in SOURCES])
def test_the_links_are_to_demos_in_cells_that_a_release_keeps(path):
    nb = json.loads(path.read_text("utf-8"))
    for link in demo_links(nb):
        folder, _, name = link.partition("/demos/")
        assert folder == ".." and (DEMOS / name).is_file(), \
            f"{path.name}: {link} is not ../{DEMOS_FOLDER}/ and a demo's name"
    for cell in nb["cells"]:
        if demo_links({"cells": [cell]}):
            assert not cell["metadata"].get("nbgrader", {}).get("solution"), \
                "a link in a cell that the student's copy replaces"
    want = LINKED.get(path.parent.name)
    if want:
        assert f"../demos/{want}" in demo_links(nb), f"{path.name} does not link {want}"


def test_the_links_work_in_the_jupyterlite_site(tmp_path):
    build = _module(REPO / "deploy" / "lite" / "build.py", "lite_build_for_links")

    def source_versions(dest: Path) -> list[Path]:   # the markdown a release keeps as it is
        return [Path(shutil.copy2(p, dest / p.name)) for p in SOURCES]

    notebooks = build.lay_out(tmp_path, source_versions)
    assert notebooks
    for nb in notebooks:
        assert unresolved(nb, tmp_path) == [], nb.name


def test_the_links_work_in_a_students_home_on_the_class_server(tmp_path):
    classroom = _module(REPO / "deploy" / "hub" / "classroom.py", "classroom_for_links")
    assert classroom.DEMOS == DEMOS_FOLDER

    def course(cid: str, students: list[str]):      # its root with the demos, as setup makes it
        root = tmp_path / f"teacher-{cid}" / cid
        assert classroom.hand_out_demos(DEMOS, root / DEMOS_FOLDER)
        return classroom.Course(course_id=cid, course_root=str(root),
                                instructor=f"teacher-{cid}", students=students)

    settings = classroom.Settings(env="/opt/puzzlekit-hub", state=str(tmp_path),
                                  exchange="/srv/nbgrader/exchange",
                                  courses=[course("puzzlekit", ["alice", "bob"]),
                                           course("ai-202", ["bob"])])
    for student, fetched in (("alice", Path("{a}")), ("bob", Path("puzzlekit") / "{a}")):
        home = tmp_path / "home" / student
        home.mkdir(parents=True)
        for c in settings.courses_of(student):          # what setup does for each student
            dest = classroom.demos_folder(settings, student, c.course_id, home)
            assert classroom.hand_out_demos(Path(c.course_root) / DEMOS_FOLDER, dest)
        for src in SOURCES:     # where nbgrader's fetch puts it (path_includes_course for bob)
            where = home / str(fetched).format(a=src.parent.name) / src.name
            where.parent.mkdir(parents=True)
            shutil.copy2(src, where)
            assert unresolved(where, home) == [], (student, where)
    # a demo the student changed is kept when the set-up runs again
    changed = tmp_path / "home" / "alice" / DEMOS_FOLDER / "01-see-search.ipynb"
    changed.write_text("{}")
    dest = classroom.demos_folder(settings, "alice", "puzzlekit", tmp_path / "home" / "alice")
    assert classroom.hand_out_demos(DEMOS, dest) == []
    assert changed.read_text() == "{}"


def test_copy_demos_copies_what_is_missing_or_changed(tmp_path):
    dest = tmp_path / "release" / DEMOS_FOLDER
    first = copy_demos(DEMOS, dest)
    assert sorted(p.name for p in first) == sorted(p.name for p in DEMOS.glob("*.ipynb"))
    assert copy_demos(DEMOS, dest) == []
    (dest / first[0].name).write_text("{}")
    assert copy_demos(DEMOS, dest) == [dest / first[0].name]
    assert copy_demos(tmp_path / "no-demos", tmp_path / "elsewhere") == []
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.nbgrader
def test_the_links_work_in_the_course_folders_release(tmp_path):
    """generate, through the course's own config, puts the demos beside the release."""
    pytest.importorskip("nbgrader")
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    root = tmp_path / "course"
    (root / "source" / "ps1").mkdir(parents=True)
    shutil.copy(COURSE / "nbgrader_config.py", root)
    shutil.copytree(DEMOS, root / DEMOS_FOLDER)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(
                    "See [the search demo](../demos/01-see-search.ipynb) and "
                    "[the heuristics](../demos/02-see-heuristics.ipynb)."),
                nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(nb, root / "source" / "ps1" / "ps1.ipynb")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.ModelSolutionCheck.enabled = False    # no tests to check: seconds, not a minute
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    result = api.generate_assignment("ps1")
    assert result["success"], result["log"]
    released = root / "release" / "ps1" / "ps1.ipynb"
    assert len(demo_links(json.loads(released.read_text("utf-8")))) == 2
    assert unresolved(released, root / "release") == []
