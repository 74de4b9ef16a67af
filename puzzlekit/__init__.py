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

from .errors import PuzzleError, SearchLimitReached, SearchStats, Unsolvable

__version__ = "0.1.0"

# name -> module that defines it (relative to the package). Where the course has students
# write a function themselves, the comment says where ("1.6": assignment 1, exercise 6;
# "2 §3": assignment 2, section 3); the graded tests forbid the kit's own there.
_EXPORTS: dict[str, str] = {
    # the model
    "State": "board", "validate_state": "board", "goal_state": "board", "shape": "board",
    "flatten": "board", "unflatten": "board",
    # the lecture notebook's vocabulary: findZero 1.2, moveUp 1.3, moveDown 1.4,
    # moveLeft/moveRight 1.5, nextStates 1.6
    "findZero": "lecture", "moveUp": "lecture", "moveDown": "lecture", "moveLeft": "lecture",
    "moveRight": "lecture", "nextStates": "lecture", "listOfLists": "lecture",
    "tupleOfTuples": "lecture",
    # move letters, where the blank goes (the 8-puzzle assignment on flat lists): 1.7, 1.11
    "apply_moves": "moves", "moves_to_path": "moves", "path_to_moves": "moves",
    "check_solution": "moves", "move_between": "moves", "normalize_moves": "moves",
    "SolutionCheck": "moves",
    # formats (read_board/write_board: Princeton's 8-puzzle files)
    "from_flat": "formats", "to_flat": "formats", "from_string": "formats",
    "to_string": "formats", "read_board": "formats", "write_board": "formats",
    "board_text": "formats", "as_state": "formats", "parse_board_text": "formats",
    # solvability: permutation_sign, is_solvable, inversions 3 §3; goal A or B 4 §1
    "is_solvable": "solvability", "explain_solvability": "solvability",
    "inversions": "solvability", "count_inversions": "solvability",
    "permutation_sign": "solvability",
    # scrambles: shuffle_pos (the graded 15-puzzle notebook's) 2 §3
    "shuffle_pos": "scrambles", "random_walk": "scrambles", "scramble": "scrambles",
    "random_state": "scrambles", "state_at_depth": "scrambles",
    # exact distances
    "distance_table": "exact", "exact_distance": "exact", "depth_histogram": "exact",
    # heuristics: hamming, manhattan 3 §1; linear_conflict 4 §3
    "hamming": "heuristics", "manhattan": "heuristics", "linear_conflict": "heuristics",
    "check_heuristic": "heuristics", "tile_distances": "heuristics",
    "conflict_pairs": "heuristics",
    # search: the lecture's search 2 §1; what solve does: BFS 2 §2, depth-limited 2 §4,
    # DFS 2 §5, UCS 2 §6, IDDFS 2 §7, A* 3 §2, IDA* 4 §2; pattern databases 4 §4
    "search": "layered", "bfs_layers": "layered", "SearchPath": "layered",
    "solve": "solver", "SearchResult": "solver", "ALGORITHMS": "solver",
    "pdb_heuristic": "pdb", "solve_large": "large",
    # text rendering: print_moves 1.8, print_pos 1.9
    "print_pos": "text", "print_moves": "text", "board_str": "text", "path_str": "text",
    # coloured boards and animations (docs/visuals.md)
    "board_html": "display", "show": "display", "show_path": "display",
    "path_html": "display", "diff_html": "display", "show_diff": "display",
    "tile_colours": "display", "css_text": "display", "show_pattern": "display",
    "animate_path": "animation", "animate_bfs_layers": "animation",
    # widgets: a player for any path, a board to play (docs/visuals.md)
    "play_path": "widgets", "PathPlayer": "widgets", "PlayableBoard": "widgets",
    "play": "widgets",
}
_REFERENCES: Mapping[str, str] = MappingProxyType(_EXPORTS)


#: modules of the front whose import loads a heavy package (ipywidgets); every other one
#: loads in milliseconds (tests/test_packaging.py checks both)
HEAVY_MODULES = frozenset({"widgets"})

#: the search engine: forbidding one of `ENGINE_NAMES` forbids every function of these
#: modules too, however it is reached (``puzzlekit.informed.best_first``, the solver's
#: helpers, ``puzzlekit.problem.reconstruct``), at grading time (`grading.forbidding`) and
#: in the integrity report (`integrity`) alike: any search of the kit would do the work
ENGINE_MODULES = frozenset({"solver", "uninformed", "informed", "layered", "pdb", "large",
                            "fast_idastar", "heuristic_choice", "problem"})
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
    if name not in _EXPORTS:
        raise AttributeError(f"module 'puzzlekit' has no attribute {name!r}")
    value = reference(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
