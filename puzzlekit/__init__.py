"""puzzlekit: the sliding-tile puzzle for a course on state-space search.

The front of the package re-exports what the notebooks use. Names load lazily, so
``import puzzlekit`` stays fast and matplotlib/ipywidgets are imported only when a
visual is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import PuzzleError, SearchLimitReached, SearchStats, Unsolvable

__version__ = "0.1.0"

# name -> module that defines it (relative to the package)
_EXPORTS: dict[str, str] = {
    # the model
    "State": "board", "validate_state": "board", "goal_state": "board", "shape": "board",
    "flatten": "board", "unflatten": "board",
    # the lecture's vocabulary (seed 002)
    "findZero": "lecture", "moveUp": "lecture", "moveDown": "lecture", "moveLeft": "lecture",
    "moveRight": "lecture", "nextStates": "lecture", "listOfLists": "lecture",
    "tupleOfTuples": "lecture",
    # move letters (seed 000)
    "apply_moves": "moves", "moves_to_path": "moves", "path_to_moves": "moves",
    "check_solution": "moves", "move_between": "moves", "normalize_moves": "moves",
    "SolutionCheck": "moves",
    # formats
    "from_flat": "formats", "to_flat": "formats", "from_string": "formats",
    "to_string": "formats", "read_board": "formats", "write_board": "formats",
    "board_text": "formats", "as_state": "formats", "parse_board_text": "formats",
    # solvability
    "is_solvable": "solvability", "explain_solvability": "solvability",
    "inversions": "solvability", "count_inversions": "solvability",
    "permutation_sign": "solvability",
    # scrambles
    "shuffle_pos": "scramble", "random_walk": "scramble", "scramble": "scramble",
    "random_state": "scramble", "state_at_depth": "scramble",
    # exact distances
    "distance_table": "exact", "exact_distance": "exact", "depth_histogram": "exact",
    # heuristics
    "hamming": "heuristics", "manhattan": "heuristics", "linear_conflict": "heuristics",
    "check_heuristic": "heuristics", "tile_distances": "heuristics",
    "conflict_pairs": "heuristics",
    # search
    "search": "layered", "bfs_layers": "layered", "SearchPath": "layered",
    "solve": "solver", "SearchResult": "solver", "ALGORITHMS": "solver",
    "pdb_heuristic": "pdb", "solve_large": "large",
    # text rendering
    "print_pos": "text", "print_moves": "text", "board_str": "text", "path_str": "text",
    # coloured boards and animations (issue 3)
    "board_html": "display", "show": "display", "show_path": "display",
    "path_html": "display", "diff_html": "display", "show_diff": "display",
    "tile_colours": "display", "css_text": "display",
    "animate_path": "animation", "animate_bfs_layers": "animation",
    # widgets (issue 3)
    "play_path": "widgets", "PathPlayer": "widgets", "PlayableBoard": "widgets",
    "play": "widgets",
}

__all__ = sorted(set(_EXPORTS) | {"PuzzleError", "Unsolvable", "SearchLimitReached",
                                  "SearchStats"})

# `scramble` names both a submodule and its function. Importing the submodule (as the CLI
# does) would rebind `puzzlekit.scramble` to the module, so bind the function now.
from .scramble import scramble  # noqa: E402


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'puzzlekit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
