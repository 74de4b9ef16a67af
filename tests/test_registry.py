"""The registry of references: each reference links back to the exercise that teaches it,
and the links are checked against the notebooks, not copied by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

import puzzlekit as pk
from puzzlekit import registry

SOURCE = Path(__file__).resolve().parents[1] / "notebooks" / "source"


def answer_cells() -> dict[tuple[str, str], set[str]]:
    """(assignment, grade id of an answer cell) -> the functions the cell defines."""
    out: dict[tuple[str, str], set[str]] = {}
    for path in sorted(SOURCE.glob("*/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not meta.get("solution"):
                continue
            lines = [ln for ln in cell.source.splitlines() if not ln.lstrip().startswith("%")]
            tree = ast.parse("\n".join(lines))
            out[(path.parent.name, meta["grade_id"])] = {
                n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    return out


CELLS = answer_cells()


@pytest.mark.parametrize("name", sorted(registry.TAUGHT))
def test_each_link_names_an_answer_cell_that_writes_the_function(name):
    taught = registry.TAUGHT[name]
    assert name in registry.EXPORTS
    assert (taught.assignment, taught.grade_id) in CELLS, taught
    assert taught.name in CELLS[(taught.assignment, taught.grade_id)], taught


def test_every_reference_a_notebook_has_students_write_is_linked():
    """A function an answer cell defines under a name of the front is taught there: the
    registry must say so (the link is not forgotten when an exercise is added)."""
    written = {name for names in CELLS.values() for name in names if name in registry.EXPORTS}
    assert written
    assert written <= set(registry.TAUGHT), sorted(written - set(registry.TAUGHT))


def test_the_front_shows_the_link_in_the_docstring():
    assert pk.nextStates.__doc__.rstrip().endswith(registry.TAUGHT["nextStates"].link() + ".")
    assert "01-states-and-moves.ipynb" in (pk.nextStates.__doc__ or "")
    assert registry.taught_in("board_html") is None
    assert "Taught in" not in (pk.board_html.__doc__ or "")


def test_every_exported_module_is_in_a_wing():
    for module in set(registry.EXPORTS.values()):
        assert module.split(".")[0] in ("puzzle", "engine", "visuals"), module
        assert module in registry.modules_under(module.split(".")[0])
    with pytest.raises(pk.PuzzleError, match="no_such"):
        registry.module_of("no_such")
