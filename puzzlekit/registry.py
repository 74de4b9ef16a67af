"""The registry of the kit's reference functions, and the rules that read the layout.

Every name of the front (``puzzlekit.nextStates``) is listed once here with the module
that defines it (`EXPORTS`) and, where the course has students write it themselves, the
exercise that teaches it (`TAUGHT`, checked against the notebooks by
tests/test_registry.py; the front adds "Taught in …" to the reference's docstring, as the
d2l book's "Defined in" links do). The layout itself is the rule for what a grade must
guard: forbidding a search (`ENGINE_NAMES`) forbids every function defined under the
engine's folder (`in_engine`), and every module under the grading, autograder and course
folders is the grader's (`in_grader`). No list of module names is kept by hand.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from .errors import PuzzleError

#: name -> the module that defines it (relative to the package); where the course has
#: students write a function themselves, `TAUGHT` says where
EXPORTS: Mapping[str, str] = MappingProxyType({
    # the model
    "State": "puzzle.board", "validate_state": "puzzle.board", "goal_state": "puzzle.board",
    "shape": "puzzle.board", "flatten": "puzzle.board", "unflatten": "puzzle.board",
    # the lecture notebook's vocabulary: findZero 1.2, moveUp 1.3, moveDown 1.4,
    # moveLeft/moveRight 1.5, nextStates 1.6
    "findZero": "puzzle.lecture", "moveUp": "puzzle.lecture", "moveDown": "puzzle.lecture",
    "moveLeft": "puzzle.lecture", "moveRight": "puzzle.lecture", "nextStates": "puzzle.lecture",
    "listOfLists": "puzzle.lecture", "tupleOfTuples": "puzzle.lecture",
    # move letters, where the blank goes (the 8-puzzle assignment on flat lists): 1.7, 1.11
    "apply_moves": "puzzle.moves", "moves_to_path": "puzzle.moves",
    "path_to_moves": "puzzle.moves", "check_solution": "puzzle.moves",
    "move_between": "puzzle.moves", "normalize_moves": "puzzle.moves",
    "SolutionCheck": "puzzle.moves",
    # formats (read_board/write_board: Princeton's 8-puzzle files)
    "from_flat": "puzzle.formats", "to_flat": "puzzle.formats", "from_string": "puzzle.formats",
    "to_string": "puzzle.formats", "read_board": "puzzle.formats", "write_board": "puzzle.formats",
    "board_text": "puzzle.formats", "as_state": "puzzle.formats",
    "parse_board_text": "puzzle.formats",
    # solvability: permutation_sign, is_solvable, inversions 3 §3; goal A or B 4 §1
    "is_solvable": "puzzle.solvability", "explain_solvability": "puzzle.solvability",
    "inversions": "puzzle.solvability", "count_inversions": "puzzle.solvability",
    "permutation_sign": "puzzle.solvability",
    # scrambles: shuffle_pos (the graded 15-puzzle notebook's) 2 §3
    "shuffle_pos": "puzzle.scrambles", "random_walk": "puzzle.scrambles",
    "scramble": "puzzle.scrambles", "random_state": "puzzle.scrambles",
    "state_at_depth": "puzzle.scrambles",
    # exact distances
    "distance_table": "puzzle.exact", "exact_distance": "puzzle.exact",
    "depth_histogram": "puzzle.exact",
    # heuristics: hamming, manhattan 3 §1; linear_conflict 4 §3
    "hamming": "puzzle.heuristics", "manhattan": "puzzle.heuristics",
    "linear_conflict": "puzzle.heuristics", "check_heuristic": "puzzle.heuristics",
    "tile_distances": "puzzle.heuristics", "conflict_pairs": "puzzle.heuristics",
    # search: the lecture's search 2 §1; what solve does: BFS 2 §2, depth-limited 2 §4,
    # DFS 2 §5, UCS 2 §6, IDDFS 2 §7, A* 3 §2, IDA* 4 §2; pattern databases 4 §4
    "search": "engine.layered", "bfs_layers": "engine.layered", "SearchPath": "engine.layered",
    "solve": "engine.solver", "SearchResult": "engine.solver", "ALGORITHMS": "engine.solver",
    "pdb_heuristic": "engine.pdb", "solve_large": "engine.large",
    # text rendering: print_moves 1.8, print_pos 1.9
    "print_pos": "puzzle.text", "print_moves": "puzzle.text", "board_str": "puzzle.text",
    "path_str": "puzzle.text",
    # coloured boards and animations (docs/visuals.md)
    "board_html": "visuals.display", "show": "visuals.display", "show_path": "visuals.display",
    "path_html": "visuals.display", "diff_html": "visuals.display", "show_diff": "visuals.display",
    "tile_colours": "visuals.display", "css_text": "visuals.display",
    "show_pattern": "visuals.display", "animate_path": "visuals.animation",
    "animate_bfs_layers": "visuals.animation",
    # widgets: a player for any path, a board to play (docs/visuals.md)
    "play_path": "visuals.widgets", "PathPlayer": "visuals.widgets",
    "PlayableBoard": "visuals.widgets", "play": "visuals.widgets",
})


class Taught(NamedTuple):
    """Where the course has students write a reference themselves."""

    assignment: str        # the folder under notebooks/source/
    grade_id: str          # the answer cell's nbgrader grade id
    name: str              # what the student's function is called there

    def link(self) -> str:
        """``notebooks/source/A/A.ipynb``, the answer cell `grade_id`, as text."""
        return (f"notebooks/source/{self.assignment}/{self.assignment}.ipynb, the answer "
                f"cell {self.grade_id} ({self.name})")


def _t(assignment: str, grade_id: str, name: str | None = None) -> Taught:
    return Taught(assignment, grade_id, name or grade_id.removesuffix("_solution"))


_A1, _A2, _A3, _A4 = ("01-states-and-moves", "02-uninformed-search", "03-informed-search",
                      "04-fifteen-puzzle")
#: reference -> the exercise that teaches it (the first, where several build on it)
TAUGHT: Mapping[str, Taught] = MappingProxyType({
    **{n: _t(_A1, f"{n}_solution") for n in ("findZero", "moveUp", "moveDown", "moveLeft",
                                              "moveRight", "nextStates", "print_moves",
                                              "print_pos")},
    "search": _t(_A2, "search_solution"),
    "solve": _t(_A2, "bfs_solution", "bfs"),
    "shuffle_pos": _t(_A2, "shuffle_pos_solution"),
    "hamming": _t(_A3, "hamming_solution"),
    "manhattan": _t(_A3, "manhattan_solution"),
    "permutation_sign": _t(_A3, "sign_solution", "sign"),
    "is_solvable": _t(_A3, "solvable_solution", "solvable"),
    "inversions": _t(_A3, "inversions_solution", "num_inversions"),
    "linear_conflict": _t(_A4, "linear_conflict_solution"),
    "pdb_heuristic": _t(_A4, "build_pdb_solution", "build_pdb"),
})

#: forbidding one of these forbids every function of the engine
ENGINE_NAMES = frozenset({"solve", "search", "bfs_layers"})
#: the folder of every search of the kit
ENGINE_WING = "engine"
#: the folders of the grader's own code (a student's code that reaches in is flagged)
GRADER_WINGS = ("testcells", "autograder", "course")
#: modules of the front whose import loads a heavy package (ipywidgets); every other one
#: loads in milliseconds (tests/test_packaging.py checks both)
HEAVY_MODULES = frozenset({"visuals.widgets"})

#: the package's folder, as imported (not resolved through links): the wall lets the
#: kernel read it, tracebacks stop at it, the wings' modules are read from it
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _under(module: str, wing: str) -> bool:
    return module == wing or module.startswith(wing + ".")


def in_engine(module: str) -> bool:
    """Whether `module` (relative: ``"engine.informed"``) is part of the search engine."""
    return _under(module, ENGINE_WING)


def in_grader(module: str) -> bool:
    """Whether `module` (relative) is the grader's own code."""
    return any(_under(module, wing) for wing in GRADER_WINGS)


@functools.lru_cache(maxsize=None)
def modules_under(wing: str = "") -> list[str]:
    """Every module and package under `wing` (relative dotted names, the wing first), read
    from the folders without importing anything."""
    root = Path(PACKAGE_DIR)
    top = root.joinpath(*wing.split(".")) if wing else root
    out: list[str] = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if (Path(folder) / d / "__init__.py").exists())
        rel = Path(folder).relative_to(root).parts
        for f in sorted(files):
            if f.endswith(".py") and f != "__main__.py":
                parts = rel if f == "__init__.py" else (*rel, f[:-3])
                out.append(".".join(parts))
    return sorted(out, key=lambda m: (m.count("."), m))


def engine_modules() -> list[str]:
    """Every module of the engine (relative dotted names)."""
    return modules_under(ENGINE_WING)


def module_of(name: str) -> str:
    """The module that defines ``puzzlekit.<name>`` ("puzzle.lecture" for "nextStates");
    a `PuzzleError` when the front has no such name."""
    module = EXPORTS.get(name)
    if module is None:
        raise PuzzleError(f"puzzlekit has no reference called {name!r}")
    return module


def taught_in(name: str) -> str | None:
    """Where the course teaches the reference `name`, as a line for its docstring."""
    taught = TAUGHT.get(name)
    return None if taught is None else f"Taught in {taught.link()}."
