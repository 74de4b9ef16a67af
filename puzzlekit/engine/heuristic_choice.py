"""One way in for a heuristic: whatever form it is given in, `resolve_heuristic` makes it
one `Heuristic` that knows its name, whether it is admissible, and its two forms.

A heuristic may be given as a name ("zero", "hamming", "manhattan", "linear_conflict",
"pdb"), as one of the kit's own functions (`puzzlekit.manhattan`), as None (no estimate:
"zero"), or as a student's function, ``h(S, goal)`` or ``h(S)``. The searches need it
either as a function of a board (`of_state`, for a student's own ``next_states``) or on
flat tuples (`flat`, incremental where the kit can). The kit's own are admissible; a
student's function is not known to be, so a search with it never claims optimality.
`HEURISTIC_NAMES` is the table's list of names, for the command line and the messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..errors import PuzzleError
from ..puzzle.board import Flat, State, flatten, shape, unflatten
from ..puzzle.heuristics import (
    FlatHeuristic,
    flat_heuristic,
    hamming,
    linear_conflict,
    manhattan,
    of_state,
)
from .fast_idastar import search_manhattan, search_pdb
from .pdb import flat_pdb_heuristic


@dataclass(frozen=True)
class KitHeuristic:
    """A row of the kit's table: the function of a board (None: not one), the fast IDA*
    engine (`fast_idastar.py`) and the board shape it is used on (None: any)."""

    function: Callable[..., float] | None
    engine: Callable[..., str] | None = None
    engine_shape: tuple[int, int] | None = None


#: The kit's heuristics by name, all admissible. Manhattan's own IDA* engine serves the
#: 15-puzzle; smaller boards keep the general IDA* and its statistics.
KIT: dict[str, KitHeuristic] = {
    "zero": KitHeuristic(None),
    "hamming": KitHeuristic(hamming),
    "manhattan": KitHeuristic(manhattan, search_manhattan, (4, 4)),
    "linear_conflict": KitHeuristic(linear_conflict),
    "pdb": KitHeuristic(None, search_pdb),
}
HEURISTIC_NAMES: tuple[str, ...] = tuple(KIT)


@dataclass(frozen=True)
class Heuristic:
    """A heuristic, resolved: its name, whether it never overestimates, and its forms."""

    name: str
    function: Callable[..., float] | None     #: h(S, goal) or h(S); None for zero and pdb
    kit: KitHeuristic | None = None                   #: the kit's row; None for a student's function

    @property
    def admissible(self) -> bool:
        """Known never to overestimate: the kit's own heuristics."""
        return self.kit is not None

    def of_state(self, goal: State) -> Callable[[State], float]:
        """h as a function of a board alone, for searches over any `next_states`."""
        if self.function is not None:
            return of_state(self.function, goal)
        if self.name == "zero":
            return lambda S: 0
        raise PuzzleError(f"heuristic {self.name!r} needs the built-in moves; with your own "
                          "next_states use hamming, manhattan, linear_conflict or a "
                          "function h(S, goal)")

    def flat(self, goal: State, tables: str | None = None) -> FlatHeuristic:
        """h on flat tuples for `goal`: the kit's tables, or the function on each board.
        tables: the pattern databases' table set (heuristic "pdb")."""
        if self.kit is not None:
            if self.name == "pdb":
                return flat_pdb_heuristic(flatten(goal), *shape(goal), tables)
            return flat_heuristic(self.name, goal)
        h, (rows, cols) = self.of_state(goal), shape(goal)

        def on_flat(s: Flat) -> float:
            return h(unflatten(s, rows, cols))
        return FlatHeuristic(self.name, on_flat, None, False)

    def engine(self, rows: int, cols: int,
               tables: str | None = None) -> Callable[..., str] | None:
        """The kit's fast IDA* engine for this heuristic on a rows×cols board, if any
        (for "pdb", on the table set `tables`)."""
        kit = self.kit
        if kit is None or kit.engine is None:
            return None
        if kit.engine_shape not in (None, (rows, cols)):
            return None
        return partial(kit.engine, tables=tables) if self.name == "pdb" else kit.engine


def resolve_heuristic(heuristic: object) -> Heuristic:
    """The `Heuristic` of any accepted form; an unknown name raises `PuzzleError`."""
    if heuristic is None:
        heuristic = "zero"
    if isinstance(heuristic, str):
        if heuristic not in KIT:
            raise PuzzleError(f"unknown heuristic {heuristic!r}; choose from "
                              f"{', '.join(HEURISTIC_NAMES)} or pass a function h(S, goal)")
        return Heuristic(heuristic, KIT[heuristic].function, KIT[heuristic])
    for name, kit in KIT.items():
        if kit.function is not None and heuristic is kit.function:
            return Heuristic(name, kit.function, kit)
    if not callable(heuristic):
        raise PuzzleError(f"heuristic must be a name ({', '.join(HEURISTIC_NAMES)}) or a "
                          f"function h(S, goal), got {type(heuristic).__name__}")
    return Heuristic(getattr(heuristic, "__name__", "custom"), heuristic)
