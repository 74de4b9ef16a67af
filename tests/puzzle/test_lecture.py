"""The lecture notebook's vocabulary: findZero, moveUp/Down/Left/Right, nextStates."""

from __future__ import annotations

import pytest
from boards import boards
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk

#: lecture function -> the move letter of the same move (where the blank goes)
LETTER_OF = {pk.moveUp: "D", pk.moveDown: "U", pk.moveLeft: "R", pk.moveRight: "L"}
INVERSE = {pk.moveUp: pk.moveDown, pk.moveDown: pk.moveUp,
           pk.moveLeft: pk.moveRight, pk.moveRight: pk.moveLeft}


def legal_moves(S):
    """The lecture moves that are possible in S (a tile exists on that side of the blank)."""
    r, c = pk.findZero(S)
    rows, cols = pk.shape(S)
    return [m for m, ok in ((pk.moveUp, r + 1 < rows), (pk.moveDown, r > 0),
                            (pk.moveLeft, c + 1 < cols), (pk.moveRight, c > 0)) if ok]


@given(boards())
def test_findZero_finds_the_blank(S):
    r, c = pk.findZero(S)
    assert S[r][c] == 0


@given(boards())
def test_each_move_has_its_inverse(S):
    for move in legal_moves(S):
        T = move(S, *pk.findZero(S))
        assert T != S
        assert INVERSE[move](T, *pk.findZero(T)) == S


@given(boards())
def test_moves_name_where_the_tile_goes(S):
    """moveUp: the tile below the blank goes up, so the blank goes down (letter D)."""
    for move in legal_moves(S):
        assert move(S, *pk.findZero(S)) == pk.apply_moves(S, LETTER_OF[move])


@given(boards())
def test_nextStates_has_2_to_4_states_one_move_away(S):
    nxt = pk.nextStates(S)
    assert 2 <= len(nxt) <= 4
    assert nxt == {move(S, *pk.findZero(S)) for move in legal_moves(S)}
    assert all(pk.move_between(S, T) is not None for T in nxt)


def test_nextStates_sizes_by_blank_position():
    S = pk.goal_state(3, blank="first")
    assert len(pk.nextStates(S)) == 2                                   # corner
    assert len(pk.nextStates(pk.apply_moves(S, "R"))) == 3              # edge
    assert len(pk.nextStates(pk.apply_moves(S, "RD"))) == 4             # centre


@pytest.mark.parametrize("move, r, c", [
    (pk.moveUp, 2, 2), (pk.moveDown, 0, 0), (pk.moveLeft, 2, 2), (pk.moveRight, 0, 0)])
def test_moves_off_the_board_raise(move, r, c):
    S = pk.goal_state(3) if r == 2 else pk.goal_state(3, blank="first")
    with pytest.raises(pk.PuzzleError, match=move.__name__):
        move(S, r, c)


@pytest.mark.parametrize("move", [pk.moveUp, pk.moveDown, pk.moveLeft, pk.moveRight])
def test_moves_insist_on_the_blank_position(move):
    S = pk.apply_moves(pk.goal_state(3), "UL")            # blank in the centre
    with pytest.raises(pk.PuzzleError, match="findZero"):
        move(S, 0, 0)
    with pytest.raises(pk.PuzzleError):
        move(S, -1, 1)                                     # no negative-index wrap-around


def test_findZero_without_blank():
    with pytest.raises(pk.PuzzleError, match="no blank"):
        pk.findZero(((1, 2), (3, 4)))


def test_list_and_tuple_conversions():
    S = pk.goal_state(2, 3)
    assert pk.listOfLists(S) == [[1, 2, 3], [4, 5, 0]]
    assert pk.tupleOfTuples(pk.listOfLists(S)) == S


# ------------------------------------------------------------- search(nextStates, start, goal)

def own_nextStates(S):
    """A student's nextStates: the same states, but not the kit's function object."""
    return {move(S, *pk.findZero(S)) for move in legal_moves(S)}


def compare_searches(start, goal):
    fast = pk.search(pk.nextStates, start, goal)
    plain = pk.search(own_nextStates, start, goal)
    assert fast.layer_sizes == plain.layer_sizes and fast.states_seen == plain.states_seen
    assert len(fast) == len(plain) == pk.exact_distance(start, goal) + 1
    assert fast[0] == start and fast[-1] is goal
    assert all(isinstance(S, tuple) and isinstance(S[0], tuple) for S in fast)
    assert all(b in pk.nextStates(a) for a, b in zip(fast, fast[1:]))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 2)]), st.integers(0, 10**6),
       st.sampled_from(["last", "first"]))
def test_search_with_the_kits_nextStates_matches_a_students(shape, seed, blank):
    """The kit's nextStates takes a flat-tuple fast path; a student's goes the plain way."""
    goal = pk.goal_state(*shape, blank=blank)
    compare_searches(pk.random_state(*shape, seed=seed, goal=goal), goal)


@pytest.mark.parametrize("depth", [12, 31])
def test_search_fast_path_on_the_8_puzzle(depth):
    goal = pk.goal_state(3, blank="first")
    compare_searches(pk.state_at_depth(depth, seed=depth, goal=goal), goal)


def test_search_prints_the_same_iterations_either_way(capsys):
    start, goal = pk.apply_moves(pk.goal_state(3), "ULDLUR"), pk.goal_state(3)
    pk.search(pk.nextStates, start, goal, verbose=True)
    fast = capsys.readouterr().out
    pk.search(own_nextStates, start, goal, verbose=True)
    assert fast == capsys.readouterr().out and fast.startswith("Iteration 1: ")


@pytest.mark.parametrize("successors", [pk.nextStates, own_nextStates])
def test_search_budget_and_garbage_collector(successors):
    import gc
    start = pk.random_state(4, seed=1)
    with pytest.raises(pk.SearchLimitReached) as e:
        pk.search(successors, start, pk.goal_state(4), max_states=2000)
    assert e.value.stats.nodes_generated > 2000
    assert gc.isenabled()                         # restored after the search, even on error
    gc.disable()
    try:
        pk.search(successors, pk.apply_moves(pk.goal_state(3), "UL"), pk.goal_state(3))
        assert not gc.isenabled()                 # and left off when it was off
    finally:
        gc.enable()


def test_search_on_other_puzzles_is_generic():
    """Any hashable states work: here, numbers with moves +1 and *2."""
    path = pk.search(lambda n: {n + 1, n * 2}, 1, 10)
    assert path == [1, 2, 4, 5, 10] and path.layer_sizes[:2] == [1, 2]
    assert pk.search(lambda n: {n + 1} if n < 5 else set(), 1, 10) is None
