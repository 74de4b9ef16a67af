"""The class report (puzzlekit.course.class_report) of a small synthetic class: a gradebook
made with nbgrader's API and autograded notebooks written by hand with the kit's judge's
metadata (``metadata.puzzlekit``), among them a forged one full of garbage and one graded
by plain nbgrader. Checked: the counts and rankings, the CSV, privacy (no student on the
page without ``--names``), escaping, self-containment, the command line and ``--watch``.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
import re
import shutil
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = [pytest.mark.filterwarnings("ignore:.*not in session")]
#: the tests that make a gradebook (the others read notebooks and draw pages only)
nbgrader = pytest.mark.nbgrader

REPO = Path(__file__).resolve().parents[2]
COURSE_ID = "cr-test"
A = "01-moves"                                   #: the assignment reported on
EXERCISES = (("findZero_tests", 2), ("moveUp_tests", 2), ("moveDown_tests", 1),
             ("nextStates_tests", 3))
GOAL = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
WRAP = {"name": "wrap-around",
        "sentence": "moveUp(S) moved the blank from the bottom row to the top: it wrapped "
                    "around the edge.",
        "boards": {"start": GOAL, "expected": GOAL, "got": [[1, 2, 0], [4, 5, 6], [7, 8, 3]]}}
P, F, PR, NW = "passed", "failed", "partly right", "not written"


def cell(grade_id: str, status: object = None, mistakes: object = None, *,
         record: object = "auto", solution: bool = False) -> dict:
    """A test cell of an autograded notebook, with the judge's record (or `record`)."""
    meta: dict = {"nbgrader": {"grade": True, "solution": solution, "grade_id": grade_id,
                               "locked": True, "points": 1, "schema_version": 3}}
    if record == "auto":
        meta["puzzlekit"] = {"status": status, "mistakes": mistakes or []}
    elif record is not None:
        meta["puzzlekit"] = record
    return {"cell_type": "code", "execution_count": 1, "metadata": meta, "outputs": [],
            "source": f"# {grade_id}"}


def notebook(cells: list[dict], judged: object = True) -> dict:
    meta: dict = {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}}
    if judged is not None:
        meta["puzzlekit"] = {"judged": judged}
    return {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}


def judged_cells(statuses: dict[str, tuple]) -> list[dict]:
    return [cell(g, *statuses.get(g, (P, []))) for g, _ in EXERCISES]


TILE_COPIED = {"name": "tile-copied", "sentence": "<img src=x onerror=alert(1)> as Zed Quux did",
               "boards": {"expected": GOAL, "got": [[1, 2, 3], [4, 5, 5], [7, 8, 0]]}}
#: student -> (points per exercise, the autograded notebook)
CLASS: dict[str, tuple[list[float], dict]] = {
    "s01": ([2, 2, 1, 3], notebook(judged_cells({}))),
    "s02": ([2, 0, 0, 3], notebook(judged_cells({
        "moveUp_tests": (F, [WRAP]),
        "moveDown_tests": (F, [WRAP, {"name": "blank-moved-not-tile",
                                      "sentence": "the blank moved down, not the tile"}])}))),
    "s03": ([2, 1, 1, 0], notebook(judged_cells({
        "moveUp_tests": (PR, [WRAP]), "nextStates_tests": (F, [])}))),
    "s04": ([0, 0, 1, 3], notebook(judged_cells({
        "findZero_tests": (F, [{"name": "findZero-column-row",
                                "sentence": "findZero answered (column, row)"}]),
        "moveUp_tests": (F, [{"name": "my-own-mistake", "sentence": "a mistake of ours",
                              "boards": {"got": GOAL}}])}))),
    "s05": ([2, 0, 0, 0], notebook(judged_cells({g: (NW, []) for g, _ in EXERCISES[1:]}))),
    "s06": ([0, 0, 0, 0], notebook(judged_cells({g: (NW, []) for g, _ in EXERCISES}))),
    "s07": ([2, 1, 0, 0], notebook([cell(g, record=None) for g, _ in EXERCISES],
                                   judged=None)),
    # forged: garbage of every kind, and one well-formed wrap-around whose sentence is
    # markup and names a classmate
    "s08": ([2, 0, 1, 3], notebook([
        cell("findZero_tests", "hacked", [{"name": "<script>alert(1)</script>"}, "junk",
                                          {"name": "too-slow", "sentence": 7},
                                          {"name": "x" * 200, "sentence": "long"}]),
        cell("moveUp_tests", F, [
            {"name": "wrap-around", "sentence": "<img src=x onerror=alert(1)> as Zed Quux "
                                                "did" + " very" * 400,
             "boards": {"got": [[1, 2], [3]], "start": "x",
                        "expected": [[1, 2, 3], [4, 5, 6], [7, 8, 8]], "extra": 1}},
            {"name": "wrap-around", "sentence": "the same name twice"}]),
        cell("moveUp_tests", F, [{"name": "too-slow", "sentence": "a second record"}]),
        cell("moveDown_tests", P, {"name": "not-a-list"}),
        cell("nextStates_tests", P, [TILE_COPIED] * 20),
        cell("bogus_tests", F, [{"name": "too-slow", "sentence": "no such grade cell"}]),
        cell("findZero_tests", F, [{"name": "too-slow", "sentence": "a solution cell"}],
             solution=True),
    ])),
    "zed": ([2, 0, 1, 3], notebook(judged_cells({
        "moveUp_tests": (F, [{**WRAP, "sentence": "zed: your moveUp wrapped around"}])}))),
}
#: The records of s08 left out: 4 bad entries at findZero (a bad status too: 5); at
#: moveUp 3 bad boards + 1 unknown board key; a second moveUp record; moveDown's mistakes
#: not a list; nextStates' 12 mistakes past the cap of 8 (the 7 before them repeat the
#: first's name: each name counts once per cell).
S08_MALFORMED = 5 + 4 + 1 + 1 + 12
ROSTER = [*CLASS, "s09", "s10"]      # s09 handed nothing in; s10 has only an extension


def blank_course(root: Path) -> Path:
    """A course folder with nothing of `A` handed in: the gradebook (three assignments,
    due dates in another order than their names, the roster, an extension's row for s10),
    the source notebook (the exercises' order)."""
    from nbgrader.api import Gradebook

    from puzzlekit.course.course_setup import environment_first_on_path
    environment_first_on_path()        # nbgrader stamps a new gradebook with its alembic
    root.mkdir(parents=True)
    (root / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.course_id = {COURSE_ID!r}\n")
    source = root / "source" / A
    source.mkdir(parents=True)
    # the source lists the exercises in another order than the gradebook's names
    (source / f"{A}.ipynb").write_text(json.dumps(notebook(
        [cell(g, record=None) for g, _ in EXERCISES], judged=None)))
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id=COURSE_ID) as gb:
        gb.add_assignment("zz-intro", duedate=datetime.datetime(2026, 9, 20, 17))
        gb.add_assignment(A, duedate=datetime.datetime(2026, 10, 1, 17))
        gb.add_assignment("02-search", duedate=datetime.datetime(2026, 10, 15, 17))
        gb.add_notebook("intro", "zz-intro")
        gb.add_grade_cell("intro_tests", "intro", "zz-intro", max_score=4, cell_type="code")
        gb.add_notebook(A, A)
        for g, points in sorted(EXERCISES):
            gb.add_grade_cell(g, A, A, max_score=points, cell_type="code")
        gb.add_notebook("search", "02-search")
        gb.add_grade_cell("bfs_tests", "search", "02-search", max_score=3, cell_type="code")
        for s in ROSTER:
            first, last = ("Zed", "Quux") if s == "zed" else (None, None)
            gb.add_student(s, first_name=first, last_name=last)
        for s, points in (("s01", 4), ("s02", 2), ("s03", 3)):
            gb.add_submission("zz-intro", s)
            gb.find_grade("intro_tests", "intro", "zz-intro", s).auto_score = points
        gb.db.commit()
        gb.update_or_create_submission(A, "s10")         # an extension's row only
        gb.grant_extension(A, "s10", days=2)
    return root


def make_course(blank: Path, root: Path,
                students: dict[str, tuple[list[float], dict]] | None = None) -> Path:
    """A copy of the `blank` course where `students` (default: the whole `CLASS`) handed
    in and were graded."""
    from nbgrader.api import Gradebook
    shutil.copytree(blank, root)
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id=COURSE_ID) as gb:
        for s, (points, nb) in (CLASS if students is None else students).items():
            hand_in(root, s, points, nb, gb)
    return root


def hand_in(root: Path, student: str, points: list[float], nb: dict, gb=None) -> None:
    """A graded submission: its scores in the gradebook (`gb`, or the course's opened
    here), its notebook in autograded/."""
    if gb is None:
        from nbgrader.api import Gradebook
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id=COURSE_ID) as gb:
            return hand_in(root, student, points, nb, gb)
    gb.add_submission(A, student, timestamp=datetime.datetime(2026, 9, 30, 12))
    for (g, _), p in zip(EXERCISES, points):
        gb.find_grade(g, A, A, student).auto_score = p
    gb.db.commit()
    folder = root / "autograded" / student / A
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{A}.ipynb").write_text(json.dumps(nb))


def class_data(folder: Path):
    """The synthetic class as `ClassData` without a gradebook (for the browser test): the
    same notebooks read by `read_graded_notebook`, the scores of `CLASS`."""
    from puzzlekit.course.class_report.data import (CellResult, ClassData, Exercise,
                                                     Submission, TermPoint,
                                                     read_graded_notebook)
    exercises = [Exercise(A, g, float(points)) for g, points in EXERCISES]
    data = ClassData(COURSE_ID, A, datetime.datetime(2026, 10, 1, 17), sorted(ROSTER),
                     exercises, {}, [], [*ROSTER, "Zed", "Quux"])
    folder.mkdir(parents=True, exist_ok=True)
    for student, (points, nb) in CLASS.items():
        reading = read_graded_notebook(write(folder / f"{student}.ipynb", nb),
                                       [g for g, _ in EXERCISES])
        data.malformed += reading.malformed
        sub = Submission(student, unread=reading.problem)
        for e, score in zip(exercises, points):
            status, mistakes = reading.cells.get(e.grade_id, (None, ())) if sub.judged \
                else (None, ())
            sub.cells[e.key] = CellResult(float(score), e.max_score, status, mistakes)
        data.submissions[student] = sub
    pcts = sorted(100 * sum(p) / 8 for p, _ in CLASS.values())
    data.term = [TermPoint("zz-intro", datetime.datetime(2026, 9, 20, 17), 3, 75.0, 75.0),
                 TermPoint(A, data.duedate, len(pcts), sum(pcts) / len(pcts),
                           pcts[len(pcts) // 2]),
                 TermPoint("02-search", datetime.datetime(2026, 10, 15, 17), 0, None, None)]
    return data


@nbgrader
def test_the_class_without_a_gradebook_is_the_class_read(report, tmp_path):
    """`class_data` (the browser test's) draws what the gradebook's reading draws."""
    made = class_data(tmp_path)
    assert made.malformed == report.data.malformed
    assert made.submissions == report.data.submissions
    assert made.roster == report.data.roster and made.exercises == report.data.exercises
    assert [(t.assignment, t.submissions) for t in made.term] == \
        [(t.assignment, t.submissions) for t in report.data.term]


def config_of(root: Path):
    from traitlets.config import Config
    c = Config()
    c.CourseDirectory.root = str(root)
    c.CourseDirectory.course_id = COURSE_ID
    return c


@pytest.fixture(scope="module")
def blank(tmp_path_factory) -> Path:
    pytest.importorskip("nbgrader")
    return blank_course(tmp_path_factory.mktemp("class-report") / "blank")


@pytest.fixture(scope="module")
def course(blank) -> Path:
    return make_course(blank, blank.parent / "course")


@pytest.fixture(scope="module")
def report(course):
    from puzzlekit.course.class_report import class_report
    return class_report(A, config=config_of(course))


@pytest.fixture(scope="module")
def page(report) -> str:
    return report.html(csv_name="class-report-01-moves.csv")


def text_of(page: str) -> str:
    """The page's words, as a reader gets them (no style, no tags, entities read)."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


# ------------------------------------------------------------------------------ the counts

@nbgrader
def test_the_class_as_read(report):
    d = report.data
    assert d.roster == sorted(ROSTER)
    assert d.not_submitted == ["s09", "s10"]
    assert sorted(d.submissions) == sorted(CLASS)
    assert [e.grade_id for e in d.exercises] == [g for g, _ in EXERCISES]   # the source's
    assert d.unread == {"s07": "graded without the kit's judge"}
    assert d.malformed == S08_MALFORMED
    s08 = d.submissions["s08"].cells
    assert s08[(A, "findZero_tests")].status is None and not s08[(A, "findZero_tests")].mistakes
    wrap = s08[(A, "moveUp_tests")].mistakes
    assert [m.name for m in wrap] == ["wrap-around"] and wrap[0].boards == {}
    assert len(wrap[0].sentence) <= 600 and wrap[0].sentence.endswith("…")
    # the term in due-date order, not by name
    assert [(t.assignment, t.submissions) for t in d.term] == [
        ("zz-intro", 3), (A, 9), ("02-search", 0)]
    intro = d.term[0]
    assert intro.mean == pytest.approx(75.0) and intro.median == pytest.approx(75.0)
    moves = [100 * sum(p) / 8 for p, _ in CLASS.values()]
    assert d.term[1].mean == pytest.approx(sum(moves) / len(moves))


@nbgrader
def test_mistakes_are_ranked_by_students(report):
    from puzzlekit.course.class_report import tally
    ranked = tally.mistakes(report.data)
    assert [(c.name, len(c.students), c.points_lost) for c in ranked] == [
        ("wrap-around", 4, 2 + 1 + 1 + 2 + 2),      # s02 (two cells), s03, s08, zed
        ("findZero-column-row", 1, 2), ("my-own-mistake", 1, 2),
        ("blank-moved-not-tile", 1, 1), ("tile-copied", 1, 0)]
    wrap = ranked[0]
    assert wrap.students == {"s02", "s03", "s08", "zed"}
    # the typical example is the one two students were shown, with its boards
    assert wrap.example_students == 2 and wrap.example.sentence == WRAP["sentence"]
    assert wrap.example_exercise == (A, "moveUp_tests")
    assert set(wrap.example.boards) == {"start", "expected", "got"}


@nbgrader
def test_losses_with_no_named_mistake_spreads_and_stuck(report):
    from puzzlekit.course.class_report import tally
    d = report.data
    unnamed = {e.grade_id: (n, lost) for e, n, lost in tally.unnamed_losses(d)}
    # s03's nextStates only: s08's forged status is no status, s05/s06 wrote nothing
    assert unnamed == {"findZero_tests": (0, 0), "moveUp_tests": (0, 0),
                       "moveDown_tests": (0, 0), "nextStates_tests": (1, 3)}
    spread = {s.exercise.grade_id: (s.full, s.some, s.none) for s in tally.spreads(d)}
    assert spread == {"findZero_tests": (7, 0, 2), "moveUp_tests": (1, 2, 6),
                      "moveDown_tests": (5, 0, 4), "nextStates_tests": (5, 0, 4)}
    stuck = [(s.student, s.first_unwritten.grade_id, s.position) for s in tally.stuck_early(d)]
    assert stuck == [("s05", "moveUp_tests", 2), ("s06", "findZero_tests", 1)]


@nbgrader
def test_the_csv(report):
    rows = list(csv.reader(io.StringIO(report.csv())))
    assert rows == [["grade_id", "mistake", "students", "points_lost"],
                    ["moveUp_tests", "wrap-around", "4", "7"],
                    ["findZero_tests", "findZero-column-row", "1", "2"],
                    ["moveUp_tests", "my-own-mistake", "1", "2"],
                    ["moveDown_tests", "blank-moved-not-tile", "1", "1"],
                    ["moveDown_tests", "wrap-around", "1", "1"],
                    ["nextStates_tests", "tile-copied", "1", "0"]]


# -------------------------------------------------------------------------------- the page

class _Refs(HTMLParser):
    """Every attribute that loads or links something, and every script and style."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "poster", "data", "background") \
                    or name.startswith("on"):
                self.refs.append((tag, name, value or ""))


@nbgrader
def test_the_page_says_what_the_class_got_wrong(page):
    text = text_of(page)
    assert "1. the blank jumped across the edge" in text
    assert "4 of 8 students" in text            # of the 8 whose mistakes were read
    assert "Teach again: index -1 is the last row or column in Python" in text
    assert "2 students were shown this same message" in text
    assert "my own mistake" in text and "named by your own tests" in text
    assert "Mistakes could not be read from 1 submission : 1 graded without the kit's " \
           "judge" in text
    assert f"{S08_MALFORMED} diagnosis records" in text
    assert "2 students of 11 did not hand in" in text
    assert "2 students got stuck early" in text
    assert "1 student wrote nothing from moveUp_tests (exercise 2 of 4) on" in text
    assert "1 student wrote nothing from findZero_tests (exercise 1 of 4) on" in text
    assert re.search(r"nextStates_tests\s+1\s+3", text)          # no named mistake
    # the example's boards, drawn by the kit (named tables, the differing cell in words)
    assert 'aria-label="start, 3 by 3: row 1: 1, 2, 3; row 2: 4, 5, 6; row 3: 7, 8, blank"' \
        in page
    assert "row 1 column 3: expected 3, got blank" in page
    # every picture has its words
    assert page.count("<img ") == 4 and page.count('alt="') >= 4
    assert re.findall(r'<img [^>]*alt=""', page) == []


@nbgrader
def test_the_page_names_no_student_by_default(report, page):
    text = text_of(page)
    for s in ROSTER:
        assert not re.search(rf"(?<!\w){s}(?!\w)", page, re.I), s
    assert "Zed" not in page and "Quux" not in page
    assert "names no student" in text
    named = report.__class__(report.data, names=True).html()
    for s in ("s09", "s10", "s05", "s06", "s07"):
        assert re.search(rf"<code>{s}</code>", named), s
    assert "keep it to yourself" in named
    # in a notebook: the page in a frame of its own, named, the page escaped inside it
    frame = report._repr_html_()
    assert frame.startswith('<iframe title="Class report: 01-moves" srcdoc="&lt;!DOCTYPE html')
    assert frame.count("<") == 2 and frame.endswith("></iframe>")      # its own tags only


@nbgrader
def test_the_page_is_self_contained_and_escapes_the_notebooks(page):
    refs = _Refs()
    refs.feed(page)
    loads = [(t, n, v) for t, n, v in refs.refs
             if not (v.startswith(("data:image/svg+xml;base64,", "#"))
                     or (t == "a" and n == "href" and v == "class-report-01-moves.csv"))]
    assert loads == []
    assert not re.search(r"https?://", page)     # outside the pictures' base64
    assert "url(" not in page and "@import" not in page
    assert "script" not in refs.tags             # not live: no script at all
    # the forged sentence is shown as text, a classmate's name blanked out
    assert "&lt;img src=x onerror=alert(1)&gt; as [a student] [a student] did" in page
    assert "<script>alert" not in page and "<img src=x" not in page
    # its board drawn as the kit draws a wrong board: the two 5s, the cell in words
    assert "not a legal state" in page and "row 2 column 3: expected 6, got 5" in page


@nbgrader
def test_a_page_with_nothing_graded_yet(blank):
    from puzzlekit.course.class_report import class_report
    report = class_report(A, config=config_of(blank))
    text = text_of(report.html())
    assert "no submission was graded by the kit's judge yet" in text
    assert "11 students of 11 did not hand in" in text
    assert report.csv().splitlines() == ["grade_id,mistake,students,points_lost"]


@nbgrader
def test_an_unknown_assignment_is_named(course):
    from puzzlekit.course.class_report import class_report
    from puzzlekit.errors import PuzzleError
    with pytest.raises(PuzzleError, match=r"unknown assignment 'nope'.*known: 01-moves"):
        class_report("nope", config=config_of(course))


# ----------------------------------------------------------------- command line and watch

@nbgrader
def test_the_command_line_writes_both_files(course, tmp_path, capsys):
    from puzzlekit.cli import main
    out = tmp_path / "out"
    assert main(["class-report", A, "--course-root", str(course), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    page, table = out / "class-report-01-moves.html", out / "class-report-01-moves.csv"
    assert str(page) in said and str(table) in said
    assert table.read_text().splitlines()[1] == "moveUp_tests,wrap-around,4,7"
    assert "s09" not in page.read_text()
    (tmp_path / "plain").write_text("")            # an anonymous page: as any new file
    assert page.stat().st_mode & 0o777 == (tmp_path / "plain").stat().st_mode & 0o777
    assert main(["class-report", A, "--course", str(course), "--out", str(out),
                 "--names"]) == 0
    assert "s09" in page.read_text() and page.stat().st_mode & 0o077 == 0
    assert main(["class-report", "nope", "--course-root", str(course)]) == 2
    assert "unknown assignment" in capsys.readouterr().err


@nbgrader
def test_watch_writes_again_when_a_graded_notebook_arrives(blank, tmp_path):
    from puzzlekit.course.class_report import watch
    root = make_course(blank, tmp_path / "course", {s: CLASS[s] for s in ("s01", "s02")})
    out = tmp_path / "out"
    writes: list[str] = []
    wrote = threading.Event()

    def on_write(files) -> None:
        writes.append(files.html.read_text())
        wrote.set()

    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(A,), kwargs=dict(
        config=config_of(root), out=out, interval=0.05, stop=stop, on_write=on_write))
    thread.start()
    try:
        assert wrote.wait(30)
        wrote.clear()
        assert "1 of 2 students" in text_of(writes[0])         # wrap-around: s02
        assert not wrote.wait(0.3)                              # nothing changed: no write
        hand_in(root, "s03", *CLASS["s03"])                     # a new graded notebook
        # the gradebook may be written a moment before the notebook: wait for both
        deadline = time.monotonic() + 30
        while "2 of 3 students" not in text_of(writes[-1]) and time.monotonic() < deadline:
            wrote.wait(1)
            wrote.clear()
        assert "2 of 3 students" in text_of(writes[-1])
        assert "Live: rewritten as submissions are graded" in text_of(writes[-1])
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive() and 2 <= len(writes) <= 3


@nbgrader
def test_watch_survives_a_gradebook_it_cannot_read(blank, tmp_path):
    """A round that cannot read (here: the gradebook not a database) is logged and tried
    again at the next round."""
    from puzzlekit.course.class_report import watch
    root = make_course(blank, tmp_path / "course", {"s01": CLASS["s01"]})
    shutil.move(root / "gradebook.db", tmp_path / "gb.db")
    (root / "gradebook.db").write_text("not a database")
    assert watch(A, config=config_of(root), out=tmp_path / "out", interval=0.01,
                 rounds=2) == 0
    shutil.move(tmp_path / "gb.db", root / "gradebook.db")
    assert watch(A, config=config_of(root), out=tmp_path / "out", interval=0.01,
                 rounds=1) == 1


# ------------------------------------------------------------- untrusted notebooks, alone

def write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_a_notebook_that_is_not_one_is_not_read(tmp_path, monkeypatch):
    from puzzlekit.course.class_report import data as d
    ids = ["t1"]
    assert d.read_graded_notebook(tmp_path / "missing.ipynb", ids).problem == \
        "no graded notebook"
    for junk in ("{not json", "[" * 100_000, "[]", '{"metadata": []}', "null"):
        found = d.read_graded_notebook(write(tmp_path / "junk.ipynb", junk), ids)
        assert not found.judged and found.problem, junk
    # "judged" must be the JSON true, not a word
    nb = notebook([cell("t1", F, [WRAP])], judged="true")
    assert d.read_graded_notebook(write(tmp_path / "a.ipynb", nb), ids).problem == \
        "graded without the kit's judge"
    nb = notebook([cell("t1", F, [WRAP])])
    nb["cells"] = {"t1": nb["cells"]}
    assert d.read_graded_notebook(write(tmp_path / "b.ipynb", nb), ids).problem
    monkeypatch.setattr(d, "MAX_NOTEBOOK_BYTES", 100)
    found = d.read_graded_notebook(write(tmp_path / "c.ipynb", notebook([cell("t1", P)])), ids)
    assert found.problem == "graded notebook too large to read"


def test_boards_and_sentences_are_checked(tmp_path):
    from puzzlekit.course.class_report import data as d
    good = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    records = [
        {"name": "a-b", "sentence": "\x1b[31mred\x1b[0m\ttext\u202e", "boards": {
            "start": [[True, 2, 3], [4, 5, 6], [7, 8, 0]],          # a bool is no tile
            "expected": good, "got": [[1, 2, 3], [4, 5, 6], [7, 8, 10**6]]}},
        {"name": "c-d", "sentence": "s", "boards": {
            "start": [list(range(13))] * 13,                         # too large to draw
            "got": [[1, 2], [0, 3]]}},                               # another shape: kept
        {"name": "e-f", "sentence": "s", "boards": [good]},          # not a dict
    ]
    nb = notebook([cell("t1", F, records)])
    found = d.read_graded_notebook(write(tmp_path / "a.ipynb", nb), ["t1"])
    (status, (a, c, e)), = found.cells.values()
    assert status == F
    assert a.sentence == "[31mred[0m text" and a.boards == {"expected": tuple(map(tuple, good))}
    assert c.boards == {"got": ((1, 2), (0, 3))} and e.boards == {}
    assert found.malformed == 2 + 1 + 1


def page_of(submissions: dict[str, list[tuple[str, str | None, list]]], roster: list[str],
            identities: list[str], names: bool = False) -> str:
    """A page drawn from hand-made data (no gradebook): one exercise "t1" of 2 points;
    student -> [(grade_id, status, mistakes)]."""
    from puzzlekit.course.class_report.data import (CellResult, ClassData, Exercise,
                                                     MistakeSeen, Submission, TermPoint)
    from puzzlekit.course.class_report.page import render
    e = Exercise("nb", "t1", 2.0)
    subs = {}
    for student, cells in submissions.items():
        sub = Submission(student)
        for _, status, mistakes in cells:
            sub.cells[e.key] = CellResult(0.0, 2.0, status, tuple(
                MistakeSeen(m["name"], m["sentence"], {}) for m in mistakes))
        subs[student] = sub
    data = ClassData("c", "a1", None, roster, [e], subs,
                     [TermPoint("a1", None, len(subs), 0.0, 0.0)], identities)
    return render(data, names=names)


def test_a_forged_name_or_sentence_names_no_one():
    """A mistake's name not in the catalogue is shown as written (an instructor's own):
    forged to carry a classmate's id or name, those words are blanked out too."""
    forged = {"name": "ann-smith-copied", "sentence": "as ann@uni.example and Ann Smith did"}
    page = page_of({"bo": [("t1", F, [forged])]}, ["ann", "bo"],
                   ["ann", "bo", "Ann", "Smith", "ann@uni.example"])
    words = text_of(page)
    assert "[a student] [a student] copied" in words and "[a student]-[a student]-copied" in words
    assert "as [a student] and [a student] [a student] did" in words
    assert not re.search(r"(?<!\w)(ann|bo|smith)(?!\w)", page, re.I)
    named = page_of({"bo": [("t1", F, [forged])]}, ["ann", "bo"], ["ann", "bo"], names=True)
    assert "ann-smith-copied" in named and "<code>ann</code>" in named


@nbgrader
def test_no_gradebook_is_named(tmp_path):
    from puzzlekit.course.class_report import class_report
    from puzzlekit.errors import PuzzleError
    with pytest.raises(PuzzleError, match="no gradebook at .*gradebook.db"):
        class_report(A, config=config_of(tmp_path))
    assert not (tmp_path / "gradebook.db").exists()


def test_a_written_answer_not_graded_yet_is_no_zero():
    """A written answer has no score until it is graded by hand: it is left out of its
    bar and its mean, and loses no points in the counts."""
    from puzzlekit.course.class_report import tally
    from puzzlekit.course.class_report.data import (CellResult, ClassData, Exercise,
                                                     Submission)
    from puzzlekit.course.class_report.page import render
    test, written = Exercise("nb", "t1", 2.0), Exercise("nb", "essay", 2.0)
    subs = {}
    for student, essay in (("a", None), ("b", 2.0), ("c", None)):
        sub = Submission(student)
        sub.cells[test.key] = CellResult(1.0, 2.0, PR)
        sub.cells[written.key] = (CellResult(0.0, 2.0, graded=False) if essay is None
                                  else CellResult(essay, 2.0))
        subs[student] = sub
    data = ClassData("c", "a1", None, list(subs), [test, written], subs, [])
    spread = {s.exercise.grade_id: (s.full, s.some, s.none, s.ungraded, s.mean)
              for s in tally.spreads(data)}
    assert spread == {"t1": (0, 3, 0, 0, 1.0), "essay": (1, 0, 0, 2, 2.0)}
    assert subs["a"].cells[written.key].lost == 0
    assert re.search(r"essay\s+2\s+1\s+0\s+0\s+2\s+2", text_of(render(data)))
