"""Hypothesis strategies for boards, shared by the model tests."""

from __future__ import annotations

from hypothesis import strategies as st

import puzzlekit as pk

#: (rows, cols) of the boards the properties range over: squares and M×N rectangles.
SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 3), (4, 4), (3, 5), (5, 5)]

shapes = st.sampled_from(SHAPES)


@st.composite
def boards(draw, shape: tuple[int, int] | None = None) -> pk.State:
    """Any permutation of 0..rows·cols-1 as a state (solvable or not)."""
    rows, cols = shape or draw(shapes)
    flat = draw(st.permutations(range(rows * cols)))
    return pk.unflatten(flat, rows, cols)


@st.composite
def board_pairs(draw) -> tuple[pk.State, pk.State]:
    """Two boards of the same shape (e.g. a start and a random goal)."""
    rows, cols = draw(shapes)
    return draw(boards((rows, cols))), draw(boards((rows, cols)))


@st.composite
def walks(draw, max_moves: int = 30) -> tuple[pk.State, str]:
    """A board and a legal move string from it (a seeded random walk, undoing allowed)."""
    start = draw(boards())
    n = draw(st.integers(0, max_moves))
    _, moves = pk.random_walk(start, n, seed=draw(st.integers(0, 2**32)), allow_undo=True)
    return start, moves
