"""The pages the accessibility tests audit: an executed lecture demo exported with nbconvert,
and the feedback page of a failing submission as the course renders it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "notebooks"
DEMO = COURSE / "demos" / "01-see-search.ipynb"

#: a student's notebook that fails its test: the tile moved the wrong way; the test cell
#: shows the two boards (as the grader's assert_board_equal does) and a traceback
SUBMISSION = [
    ("markdown", "# Moves\n\nWrite `moveUp(S)`: the tile **below** the blank moves up. "
                 "See [the lecture notes](https://example.org/lecture) for the rules.", {}),
    ("code", "import puzzlekit as pk\nfrom puzzlekit.testcells import assert_board_equal", {}),
    ("code", "def moveUp(S):\n    rows = [list(r) for r in S]\n"
             "    (r, c), = [(i, j) for i, row in enumerate(S) for j, v in enumerate(row) "
             "if v == 0]\n    rows[r][c], rows[r - 1][c] = rows[r - 1][c], rows[r][c]\n"
             "    return tuple(map(tuple, rows))",
     {"solution": True, "grade": False, "grade_id": "moveUp", "locked": False}),
    ("code", "start = ((1, 2, 3), (4, 0, 5), (6, 7, 8))\n"
             "assert_board_equal(moveUp(start), ((1, 2, 3), (4, 7, 5), (6, 0, 8)), "
             "start=start)",
     {"solution": False, "grade": True, "grade_id": "test_moveUp", "points": 2,
      "locked": True, "score": 0.0}),
    ("code", "pk.show_path(pk.moves_to_path(pk.goal_state(3), 'UL'))", {}),
]


#: the first graded notebook of the course, whose given cells the failing submission
#: carries too: a real page has their syntax colours (``except ImportError``: pygments'
#: Name.Exception, 4.47:1 in nbconvert's colours, 4 of them on 01's feedback page)
GRADED = COURSE / "source" / "01-states-and-moves" / "01-states-and-moves.ipynb"


def course_cells() -> list[tuple[str, str, dict[str, Any]]]:
    """The given code cells of the course's first notebook that name an exception
    (as a student's copy has them: no nbgrader metadata, not graded)."""
    import nbformat
    nb = nbformat.read(GRADED, as_version=4)
    return [("code", c.source, {}) for c in nb.cells if c.cell_type == "code"
            and "except " in c.source and not c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata.get("nbgrader", {}).get("solution")]


def execute_demo() -> Any:
    """The lecture demo, executed as `jupyter nbconvert --execute` does, without stored
    widget state (so that the export shows the widgets' static pictures)."""
    import nbformat
    import pytest
    from nbclient import NotebookClient
    nb = nbformat.read(DEMO, as_version=4)
    mp = pytest.MonkeyPatch()
    mp.delenv("NBGRADER_EXECUTION", raising=False)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=False,
                       resources={"metadata": {"path": str(DEMO.parent)}}).execute()
    finally:
        mp.undo()
    return nb


def export_html(nb: Any) -> str:
    """nbconvert's HTML export (its default template), as students and instructors make it."""
    from nbconvert import HTMLExporter
    body, _ = HTMLExporter().from_notebook_node(nb)
    return str(body)


def failing_submission() -> Any:
    """The student's notebook above, executed (its test fails) and scored 0 of 2 as the
    autograder leaves it for the feedback."""
    import nbformat
    cells = []
    given = course_cells()
    assert given, f"{GRADED.name} has no given cell that names an exception any more"
    for kind, source, meta in SUBMISSION + given:
        cell = (nbformat.v4.new_markdown_cell(source) if kind == "markdown"
                else nbformat.v4.new_code_cell(source))
        if meta:
            cell.metadata["nbgrader"] = {"schema_version": 3, **meta}
        cells.append(cell)
    return executed(nbformat.v4.new_notebook(cells=cells))


def executed(nb: Any) -> Any:
    """`nb` executed as `jupyter nbconvert --execute` does, outside nbgrader (errors kept
    as outputs)."""
    import pytest
    from nbclient import NotebookClient
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    mp = pytest.MonkeyPatch()
    mp.delenv("NBGRADER_EXECUTION", raising=False)
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    finally:
        mp.undo()
    return nb


def feedback_page(nb: Any) -> str:
    """The feedback page of `nb` as `nbgrader generate_feedback` renders it with the
    course's configuration (notebooks/nbgrader_config.py, loaded as nbgrader loads it):
    its exporter and template, nbgrader's CSS, the sanitised page."""
    import nbgrader
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader
    from traitlets.utils.importstring import import_item
    formgrader = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    c = Config(PyFileConfigLoader("nbgrader_config.py", path=str(COURSE)).load_config())
    # what nbgrader's GenerateFeedback converter adds to it
    c.HTMLExporter.template_name = "feedback"
    c.HTMLExporter.extra_template_basedirs = [str(formgrader / "templates")]
    c.HTMLExporter.extra_template_paths = [
        str(formgrader / "static" / "node_modules" / "bootstrap" / "dist" / "css")]
    exporter_class = c.GenerateFeedback.exporter_class
    if isinstance(exporter_class, str):
        exporter_class = import_item(exporter_class)
    exporter = exporter_class(config=c)
    exporter.register_preprocessor(CSSHTMLHeaderPreprocessor(config=c), enabled=True)
    resources = {"nbgrader": {"notebook": "moves", "score": 0.0, "max_score": 2.0,
                              "late_penalty": 0}}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return str(body)


#: a failing check of each module of puzzlekit/testcells/checks, and the kernel guard's
#: refusal, as a notebook shows them (the student's answers are wrong on purpose)
CHECKS_FAILING = [
    "from puzzlekit import nextStates\nS = ((8, 0, 6), (5, 4, 7), (2, 3, 1))\n"
    "G = ((0, 1, 2), (3, 4, 5), (6, 7, 8))",
    "from puzzlekit.testcells.checks.states_and_moves import check_findZero\n"
    "def findZero(S):\n    return (1, 0)\n"
    "check_findZero(findZero, ((1, 0), (2, 3)), (0, 1), 'findZero(S)')",
    "from puzzlekit.testcells.checks.states_and_moves import check_nextStates\n"
    "def nextStates2(S):\n    return [S]\n"
    "check_nextStates(nextStates2, S, set(nextStates(S)), 'nextStates(S)')",
    "from puzzlekit.testcells.checks.uninformed_search import check_bfs\n"
    "def bfs(board):\n    return 'LU'\ncheck_bfs(bfs, [4, 1, 3, 2, 5, 6, 7, 8, 0], 8)",
    "from puzzlekit.testcells.checks.informed_search import check_h\n"
    "def hamming(S, G):\n    return 0\ncheck_h(hamming, S, G, 7, 'hamming(S, G)')",
    "from puzzlekit.testcells.checks.fifteen_puzzle import check_which_goal\n"
    "check_which_goal(lambda p: 'C', list(range(1, 16)) + [' '], 'A', 'which_goal(p)')",
    "from puzzlekit.testcells.checks.paths import check_path\n"
    "check_path(S, G, [S, G], what='the path')",
    "from puzzlekit.autograder.kernel.guard import MESSAGE\n"
    "raise PermissionError(MESSAGE.format(what='a frame (sys._getframe)'))",
]


def checks_failing() -> Any:
    """`CHECKS_FAILING` executed in a notebook (every cell but the first fails)."""
    import nbformat
    return executed(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(c) for c in CHECKS_FAILING]))
