"""The sliding-tile puzzle as a game: the rules behind the playable board.

`Game` is a board, the moves made, undo, reset and scramble; a hint is the first move of
`plan_solution`, an optimal solution from the solver where one is found in time. Nothing
here draws anything, so the rules are tested without a browser; `puzzlekit.visuals.widgets` puts
an ipywidgets face on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.pdb import ready
from ..engine.solver import solve
from ..errors import PuzzleError, SearchLimitReached, Unsolvable
from ..puzzle.board import State, flatten, goal_state, resolve_goal, shape, validate_state
from ..puzzle.geometry import INVERSE, grid
from ..puzzle.heuristics import manhattan
from ..puzzle.moves import moves_to_path, path_to_moves
from ..puzzle.scrambles import random_walk
from ..puzzle.solvability import is_solvable

__all__ = ["Game", "Plan", "plan_solution", "OPTIMAL_TIME_LIMIT"]

OPTIMAL_TIME_LIMIT = 3.0   #: seconds of optimal search before a hint settles for any path


@dataclass(frozen=True)
class Plan:
    """Moves (blank letters) from a state to the goal, and whether they are shortest."""

    start: State
    moves: str
    optimal: bool


def _attempt(state: State, goal: State, options: dict[str, Any]) -> Plan | str:
    """A plan from one call of the solver, or the reason it gave none."""
    try:
        result = solve(state, goal, **options)
    except Unsolvable:
        raise
    except SearchLimitReached as e:
        return f"out of budget: {e}"
    except (ImportError, NotImplementedError, PuzzleError) as e:   # not (yet) available
        return f"{options['algorithm']}: {e}"
    return Plan(state, result.moves or "", bool(result.optimal))


def plan_solution(state: State, goal: State, *,
                  time_limit: float = OPTIMAL_TIME_LIMIT) -> Plan:
    """A solution from `state`: optimal when the solver finds one within `time_limit`
    (boards up to 4×4: pattern databases, the five-tile tables while the default ones
    are not built yet), otherwise the big-board reduction solver's (legal, not shortest)."""
    cells = shape(state)[0] * shape(state)[1]
    # the default tables when they are built; else the five-tile ones, built in seconds,
    # so that a hint never waits half a minute or more for a build
    tables = None if cells > 16 or ready(goal) else "5-5-5"
    optimal: list[dict[str, Any]] = (
        [dict(algorithm="astar", heuristic="manhattan")] if cells <= 9 else
        [dict(algorithm="idastar", heuristic="pdb", tables=tables, time_limit=time_limit),
         dict(algorithm="idastar", heuristic="linear_conflict", time_limit=time_limit)]
        if cells <= 16 else [])
    fallback: list[dict[str, Any]] = [
        dict(algorithm="reduction"),
        dict(algorithm="weighted_astar", heuristic="linear_conflict", weight=3.0,
             time_limit=4 * time_limit)]
    reasons: list[str] = []
    for tries in (optimal, fallback):
        for options in tries:
            plan = _attempt(state, goal, options)
            if isinstance(plan, Plan):
                return plan
            reasons.append(plan)
            if plan.startswith("out of budget"):
                break                  # a weaker search of the same kind will not do better
    raise PuzzleError("no solution found within the budget: " + "; ".join(reasons))


class Game:
    """The sliding-tile puzzle as a game: a board, the moves made, undo and hints.

    >>> g = Game(state=((1, 2, 3), (4, 5, 6), (7, 0, 8)))
    >>> g.click(2, 2), g.solved, g.moves_made
    (True, True, 1)
    """

    def __init__(self, rows: int = 3, cols: int | None = None, state: State | None = None,
                 goal: State | None = None) -> None:
        if state is None:
            start = goal_state(rows, cols) if goal is None else validate_state(goal, name="goal")
        else:
            start = validate_state(state)
        self.goal: State = resolve_goal(start, goal)
        self.start: State = start
        self.history: list[State] = [start]
        self._plan: Plan | None = None

    # what the board shows
    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def shape(self) -> tuple[int, int]:
        return shape(self.state)

    @property
    def moves_made(self) -> int:
        return len(self.history) - 1

    @property
    def moves(self) -> str:
        """The move letters played so far (where the blank went)."""
        return path_to_moves(self.history)

    @property
    def solved(self) -> bool:
        return self.state == self.goal

    @property
    def solvable(self) -> bool:
        return is_solvable(self.state, self.goal)

    @property
    def manhattan(self) -> int:
        return manhattan(self.state, self.goal)

    def blank(self) -> tuple[int, int]:
        """(row, col) of the blank."""
        return divmod(flatten(self.state).index(0), self.shape[1])

    def movable(self) -> dict[tuple[int, int], str]:
        """{(row, col) of each tile that can slide: the blank's move letter}."""
        rows, cols = self.shape
        z = flatten(self.state).index(0)
        return {divmod(q, cols): letter for letter, q in grid(rows, cols).neighbors[z]}

    # playing
    def move(self, letter: str) -> bool:
        """Move the blank by `letter` (U/D/L/R); False (and no change) if illegal."""
        rows, cols = self.shape
        if letter not in INVERSE or grid(rows, cols).target(
                flatten(self.state).index(0), letter) is None:
            return False
        self.history.append(moves_to_path(self.state, letter)[-1])
        return True

    def click(self, row: int, col: int) -> bool:
        """Slide the tile at (row, col) into the blank if it is next to it."""
        letter = self.movable().get((row, col))
        return letter is not None and self.move(letter)

    def undo(self) -> bool:
        """Take back the last move; False if there is none."""
        if len(self.history) == 1:
            return False
        self.history.pop()
        return True

    def reset(self) -> None:
        """Back to the board this game (or the last scramble) started from."""
        self.history = [self.start]

    def new_start(self, state: State) -> None:
        """Start over from `state` (same shape and goal)."""
        state = validate_state(state)
        if shape(state) != shape(self.goal):
            raise PuzzleError(f"the new board is {shape(state)}, the game is {shape(self.goal)}")
        self.start = state
        self.history = [state]

    def scramble(self, moves: int | None = None, seed: int | None = None) -> State:
        """Start over from `moves` random moves away from the goal (default: 10 per cell)."""
        rows, cols = self.shape
        n = 10 * rows * cols if moves is None else moves
        self.new_start(random_walk(self.goal, n, seed)[0])
        return self.start

    # help from the solver
    def solution(self) -> Plan:
        """A plan from the current board to the goal (reusing the last plan when the
        board is still on it)."""
        p = self._plan
        on_plan = [] if p is None else moves_to_path(p.start, p.moves)
        if p is not None and self.state in on_plan:
            done = on_plan.index(self.state)
            p = Plan(self.state, p.moves[done:], p.optimal)
        else:
            p = plan_solution(self.state, self.goal)
        self._plan = p
        return p

    def hint(self) -> str | None:
        """The first move (blank letter) of the solver's solution; None when solved or
        unsolvable."""
        if self.solved or not self.solvable:
            return None
        return self.solution().moves[:1] or None

    def hint_tile(self) -> tuple[int, int] | None:
        """(row, col) of the tile to click next, from `hint`."""
        letter = self.hint()
        if letter is None:
            return None
        return next(rc for rc, m in self.movable().items() if m == letter)

    def status(self) -> str:
        """One line for under the board."""
        if self.solved:
            verdict = "solved!"
        elif not self.solvable:
            verdict = "this board cannot reach the goal"
        else:
            verdict = "solvable"
        return (f"moves made: {self.moves_made} · Manhattan distance: {self.manhattan} · "
                f"{verdict}")
