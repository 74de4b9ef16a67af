"""puzzlekit: the sliding-tile puzzle for a course on state-space search.

The front of the package re-exports what the notebooks use. Names load lazily, so
``import puzzlekit`` stays fast and matplotlib/ipywidgets are imported only when a
visual is asked for. `references`, `reference_module` and `reference` name what is behind
the front (the grading helpers use them to switch a reference off while a student's own
version is tested).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import old_paths
from .errors import PuzzleError, SearchLimitReached, SearchStats, Unsolvable

old_paths.install()

__version__ = "0.1.0"

# name -> module that defines it (relative to the package). Where the course has students
# write a function themselves, the comment says where ("1.6": assignment 1, exercise 6;
# "2 §3": assignment 2, section 3); the graded tests forbid the kit's own there.
_EXPORTS: dict[str, str] = {
    # the model
    "State": "puzzle.board", "validate_state": "puzzle.board", "goal_state": "puzzle.board", "shape": "puzzle.board",
    "flatten": "puzzle.board", "unflatten": "puzzle.board",
    # the lecture notebook's vocabulary: findZero 1.2, moveUp 1.3, moveDown 1.4,
    # moveLeft/moveRight 1.5, nextStates 1.6
    "findZero": "puzzle.lecture", "moveUp": "puzzle.lecture", "moveDown": "puzzle.lecture", "moveLeft": "puzzle.lecture",
    "moveRight": "puzzle.lecture", "nextStates": "puzzle.lecture", "listOfLists": "puzzle.lecture",
    "tupleOfTuples": "puzzle.lecture",
    # move letters, where the blank goes (the 8-puzzle assignment on flat lists): 1.7, 1.11
    "apply_moves": "puzzle.moves", "moves_to_path": "puzzle.moves", "path_to_moves": "puzzle.moves",
    "check_solution": "puzzle.moves", "move_between": "puzzle.moves", "normalize_moves": "puzzle.moves",
    "SolutionCheck": "puzzle.moves",
    # formats (read_board/write_board: Princeton's 8-puzzle files)
    "from_flat": "puzzle.formats", "to_flat": "puzzle.formats", "from_string": "puzzle.formats",
    "to_string": "puzzle.formats", "read_board": "puzzle.formats", "write_board": "puzzle.formats",
    "board_text": "puzzle.formats", "as_state": "puzzle.formats", "parse_board_text": "puzzle.formats",
    # solvability: permutation_sign, is_solvable, inversions 3 §3; goal A or B 4 §1
    "is_solvable": "puzzle.solvability", "explain_solvability": "puzzle.solvability",
    "inversions": "puzzle.solvability", "count_inversions": "puzzle.solvability",
    "permutation_sign": "puzzle.solvability",
    # scrambles: shuffle_pos (the graded 15-puzzle notebook's) 2 §3
    "shuffle_pos": "puzzle.scrambles", "random_walk": "puzzle.scrambles", "scramble": "puzzle.scrambles",
    "random_state": "puzzle.scrambles", "state_at_depth": "puzzle.scrambles",
    # exact distances
    "distance_table": "puzzle.exact", "exact_distance": "puzzle.exact", "depth_histogram": "puzzle.exact",
    # heuristics: hamming, manhattan 3 §1; linear_conflict 4 §3
    "hamming": "puzzle.heuristics", "manhattan": "puzzle.heuristics", "linear_conflict": "puzzle.heuristics",
    "check_heuristic": "puzzle.heuristics", "tile_distances": "puzzle.heuristics",
    "conflict_pairs": "puzzle.heuristics",
    # search: the lecture's search 2 §1; what solve does: BFS 2 §2, depth-limited 2 §4,
    # DFS 2 §5, UCS 2 §6, IDDFS 2 §7, A* 3 §2, IDA* 4 §2; pattern databases 4 §4
    "search": "engine.layered", "bfs_layers": "engine.layered", "SearchPath": "engine.layered",
    "solve": "engine.solver", "SearchResult": "engine.solver", "ALGORITHMS": "engine.solver",
    "pdb_heuristic": "engine.pdb", "solve_large": "engine.large",
    # text rendering: print_moves 1.8, print_pos 1.9
    "print_pos": "puzzle.text", "print_moves": "puzzle.text", "board_str": "puzzle.text", "path_str": "puzzle.text",
    # coloured boards and animations (docs/visuals.md)
    "board_html": "visuals.display", "show": "visuals.display", "show_path": "visuals.display",
    "path_html": "visuals.display", "diff_html": "visuals.display", "show_diff": "visuals.display",
    "tile_colours": "visuals.display", "css_text": "visuals.display", "show_pattern": "visuals.display",
    "animate_path": "visuals.animation", "animate_bfs_layers": "visuals.animation",
    # widgets: a player for any path, a board to play (docs/visuals.md)
    "play_path": "visuals.widgets", "PathPlayer": "visuals.widgets", "PlayableBoard": "visuals.widgets",
    "play": "visuals.widgets",
}
_REFERENCES: Mapping[str, str] = MappingProxyType(_EXPORTS)


#: modules of the front whose import loads a heavy package (ipywidgets); every other one
#: loads in milliseconds (tests/test_packaging.py checks both)
HEAVY_MODULES = frozenset({"visuals.widgets"})

#: the search engine: forbidding one of `ENGINE_NAMES` forbids every function of these
#: modules too, however it is reached (``puzzlekit.engine.informed.best_first``, the solver's
#: helpers, ``puzzlekit.engine.problem.reconstruct``), at grading time (`grading.forbidding`) and
#: in the integrity report (`integrity`) alike: any search of the kit would do the work
ENGINE_MODULES = frozenset({"engine.solver", "engine.uninformed", "engine.informed",
                            "engine.layered", "engine.pdb", "engine.large",
                            "engine.fast_idastar", "engine.heuristic_choice", "engine.problem"})
ENGINE_NAMES = frozenset({"solve", "search", "bfs_layers"})

# what a notebook's `from puzzlekit import *` brings (the references' look-ups stay out of
# the students' namespace)
__all__ = sorted(set(_EXPORTS) | {"PuzzleError", "Unsolvable", "SearchLimitReached",
                                  "SearchStats"})


def references() -> Mapping[str, str]:
    """Every name of the front (``"nextStates"``) with the module that defines it
    (``"lecture"``): the kit's reference functions, read-only."""
    return _REFERENCES


def reference_module(name: str) -> str:
    """The module of the kit that defines ``puzzlekit.<name>`` ("lecture" for
    "nextStates"); a `PuzzleError` when the front has no such name."""
    module = _EXPORTS.get(name)
    if module is None:
        raise PuzzleError(f"puzzlekit has no reference called {name!r}")
    return module


def reference(name: str) -> Any:
    """The object behind ``puzzlekit.<name>``, from the module that defines it."""
    return getattr(importlib.import_module(f".{reference_module(name)}", __name__), name)


def __getattr__(name: str) -> Any:
    if name in old_paths.ALIASES:       # puzzlekit.diagnose, as before the wings
        return importlib.import_module(f".{name}", __name__)
    if name not in _EXPORTS:
        raise AttributeError(f"module 'puzzlekit' has no attribute {name!r}")
    value = reference(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
