"""Typical mistakes with the lecture's moves are named from the boards alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlekit.testcells import assert_board_equal, assert_equal
from puzzlekit.testcells.diagnose import LECTURE_NAME, blank_moves, diagnose_move, diagnose_neighbours

START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    tiles = draw(st.permutations(range(rows * cols)))
    return tuple(tuple(tiles[r * cols:(r + 1) * cols]) for r in range(rows))


@given(boards())
def test_the_right_move_needs_no_diagnosis_and_the_reverse_is_named(S):
    moves = blank_moves(S)
    for letter, right in moves.items():
        assert diagnose_move(S, right, right) is None
        name = LECTURE_NAME[letter]
        if REVERSE[letter] in moves:
            why = diagnose_move(S, moves[REVERSE[letter]], right)
            assert why.startswith("the blank moved") and f"`{name}`" in why
            assert "the name says where the tile goes" in why
        assert diagnose_move(S, S, right).startswith("the board came back unchanged")


@given(boards())
def test_every_wrong_neighbour_set_is_named(S):
    right = set(blank_moves(S).values())
    assert diagnose_neighbours(S, right, right) is None
    assert "itself" in diagnose_neighbours(S, right | {S}, right)
    for letter, B in blank_moves(S).items():
        assert f"`{LECTURE_NAME[letter]}` is missing" in diagnose_neighbours(S, right - {B},
                                                                            right)
    for letter, B in blank_moves(S, wrap=True).items():
        assert "jumped across the edge" in diagnose_neighbours(S, right | {B}, right)


def test_moveUp_read_as_the_blank_going_up():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    with pytest.raises(AssertionError) as e:
        assert_board_equal(((1, 0, 3), (4, 2, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)),
                           what="moveUp(S, 1, 1)", start=S)
    first = str(e.value).splitlines()[0]
    assert first == ("moveUp(S, 1, 1): the blank moved up instead of the tile: `moveUp` "
                     "slides the tile below the blank up (the name says where the tile "
                     "goes), so the blank goes down")


def test_the_blank_going_up_from_the_top_row_wraps_round():
    S = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    why = diagnose_move(S, ((8, 3, 6), (5, 4, 7), (2, 0, 1)), ((8, 4, 6), (5, 0, 7), (2, 3, 1)))
    assert why == ("the blank moved up instead of the tile, and from the first row Python's "
                   "index -1 took it round to the other edge: `moveUp` slides the tile below "
                   "the blank up (the name says where the tile goes)")


def test_a_tile_moved_another_way():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    why = diagnose_move(S, blank_moves(S)["L"], blank_moves(S)["D"])
    assert why == "a tile moved right, but `moveUp` slides the tile below the blank up"


def test_a_wrap_round_the_edge():
    S = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    wrapped = ((8, 3, 6), (5, 4, 7), (2, 0, 1))      # moveDown at row 0: L[-1] is row 2
    why = diagnose_move(S, wrapped, S)
    assert why.startswith("the blank swapped with a tile on the far side of the board: "
                          "from the first row, index -1")


def test_a_copied_tile():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    why = diagnose_move(S, ((1, 2, 3), (4, 7, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)))
    assert why.startswith("the board has 7 twice and no blank: a tile was copied")


def test_a_copied_tile_is_named_although_it_is_not_a_board():
    with pytest.raises(AssertionError) as e:
        assert_board_equal(((8, 6, 6), (5, 4, 7), (2, 3, 1)), ((8, 6, 0), (5, 4, 7), (2, 3, 1)),
                           what="moveLeft(start, 0, 1)", start=START)
    assert str(e.value).splitlines()[0] == (
        "moveLeft(start, 0, 1): the board has 6 twice and no blank: a tile was copied "
        "instead of swapped with the blank (set both cells)")


def test_neighbours_message_leads_with_the_diagnosis():
    right = set(blank_moves(START).values())
    with pytest.raises(AssertionError) as e:
        assert_equal(right | {START}, right, "nextStates(start)", start=START)
    lines = str(e.value).splitlines()
    assert lines[0].startswith("nextStates(start): the board itself is among its next states")
    assert lines[1] == "expected a set of 3 states, got 4"
    with pytest.raises(AssertionError) as e:            # no start: as before
        assert_equal(right | {START}, right, "nextStates(start)")
    assert str(e.value).startswith("nextStates(start): expected a set of 3 states, got 4")


def test_a_wrong_move_behind_next_states_is_named_as_such():
    right = set(blank_moves(START).values())
    up = blank_moves(START)["D"]                      # moveUp's board
    wrapped = blank_moves(START, wrap=True)["U"]      # the blank up from row 0: row -1
    why = diagnose_neighbours(START, right - {up} | {wrapped}, right)
    assert why.startswith("a board where the blank jumped across the edge is there, and the "
                          "board of `moveUp` is missing: a move function moves the wrong way")


def test_nothing_recognised_leaves_the_plain_message():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    assert diagnose_move(S, ((2, 1, 3), (4, 0, 5), (6, 7, 8)),
                         ((1, 2, 3), (4, 7, 5), (6, 0, 8))) is None
    with pytest.raises(AssertionError, match="is not the expected board"):
        assert_board_equal(((2, 1, 3), (4, 0, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)),
                           start=S)


PATH = [((1, 2, 3), (4, 0, 5), (6, 7, 8)), ((1, 2, 3), (4, 5, 0), (6, 7, 8)),
        ((1, 2, 3), (4, 5, 8), (6, 7, 0))]          # the blank goes R then D


@pytest.mark.parametrize("answer, words", [
    (PATH[::-1], "the path runs from the goal back to the start"),
    (PATH[1:], "the path leaves out the start"),
    (PATH[:-1], "the path stops one move before the goal"),
    (PATH[1:][::-1], "the path runs backwards and misses an end"),
    ("LU", "the letters say where the tile goes"),
    ("UL", "these are the moves from the goal back to the start"),
])
def test_a_path_slip_is_named(answer, words):
    from puzzlekit.testcells.diagnose import diagnose_path
    assert diagnose_path(PATH[0], PATH[-1], answer).startswith(words)
    with pytest.raises(AssertionError, match=f"^your path is not a solution: {words}"):
        from puzzlekit.testcells import assert_solution
        assert_solution(PATH[0], PATH[-1], answer)


def test_a_right_or_unrecognised_path_has_no_diagnosis():
    from puzzlekit.testcells.diagnose import diagnose_path
    assert diagnose_path(PATH[0], PATH[-1], PATH) is None
    assert diagnose_path(PATH[0], PATH[-1], "RD") is None
    assert diagnose_path(PATH[0], PATH[-1], "RR") is None
    assert diagnose_path(PATH[0], PATH[-1], [PATH[0], PATH[2]]) is None


# ---------------------------------------------------------------------------
# Prices, heuristics, parity and linear conflicts: which wrong rule gave the number

def test_ucs_totals_and_paths_are_named_by_the_rule_that_gives_them():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_cost, path_cost
    goal = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    prices = {"U": 1, "D": 2, "L": 3, "R": 4}
    S = puzzlekit.state_at_depth(18, seed=10, goal=goal)
    best = puzzlekit.solve(S, goal, algorithm="ucs", costs=prices)
    path = best.path
    cheapest = best.cost
    assert diagnose_cost(S, goal, path, prices, cheapest, cheapest) is None
    assert "number of moves" in diagnose_cost(S, goal, path, prices, cheapest, len(path) - 1)
    tile = {"D": 1, "U": 2, "R": 3, "L": 4}
    assert "the way the tile goes" in diagnose_cost(S, goal, path, prices, cheapest,
                                                    path_cost(path, tile))
    assert "sum of the prices" in diagnose_cost(S, goal, path, prices, cheapest, -5)
    # a dearer path, with its right total
    detour = next(T for T in puzzlekit.nextStates(goal))    # one step away and back
    dearer = [*path, detour, goal]
    price = path_cost(dearer, prices)
    assert price > cheapest
    words = diagnose_cost(S, goal, dearer, prices, cheapest, price)
    assert f"a cheaper path exists ({cheapest})" in words and "comes out of the queue" in words


def _students_heuristics(goal):
    """Wrong Manhattan distances students write, by the mistake each one makes."""
    import puzzlekit
    rows, cols = len(goal), len(goal[0])

    def counts_blank(S, G):
        where = {t: (r, c) for r, row in enumerate(G) for c, t in enumerate(row)}
        return sum(abs(r - where[t][0]) + abs(c - where[t][1])
                   for r, row in enumerate(S) for c, t in enumerate(row))
    found = {"heuristic-counts-blank": counts_blank,
             "manhattan-is-hamming": puzzlekit.hamming,
             "heuristic-other-goal": lambda S, G: puzzlekit.manhattan(
                 S, puzzlekit.goal_state(rows, cols, blank="first")),
             "ignores-the-goal": lambda S, G: puzzlekit.manhattan(S)}
    if goal == puzzlekit.goal_state(rows, cols, blank="first"):
        del found["heuristic-other-goal"]
    if goal == puzzlekit.goal_state(rows, cols):
        del found["ignores-the-goal"]
    return found


@given(boards(), st.sampled_from(["last", "first"]))
def test_a_heuristics_rule_is_named_only_when_it_alone_gives_its_values(S, blank):
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_heuristic, heuristic_probes
    from puzzlekit.testcells.mistakes import Diagnosis
    goal = puzzlekit.goal_state(len(S), len(S[0]), blank=blank)
    md = puzzlekit.manhattan(S, goal)
    assert diagnose_heuristic(S, goal, md, md) is None
    assert diagnose_heuristic(S, goal, "10", md) is None
    assert heuristic_probes(S, goal, md, md, "manhattan") == []
    for named, h in _students_heuristics(goal).items():
        got = h(S, goal)
        if got == md:
            continue
        alone = diagnose_heuristic(S, goal, got, md, "manhattan")    # one board: no cause
        assert not isinstance(alone, Diagnosis)
        assert alone == f"your h gives {got} for this board; the right value is {md}"
        probes = heuristic_probes(S, goal, got, md, "manhattan")
        also = [(T, goal, h(T, goal)) for T in probes]
        why = diagnose_heuristic(S, goal, got, md, "manhattan", also)
        if probes:      # a board that tells the rules apart: only this one is named
            assert isinstance(why, Diagnosis) and why.name == named, (named, why)
        else:
            assert not isinstance(why, Diagnosis) or why.name == named


@given(boards(), st.sampled_from(["last", "first"]))
def test_a_reachability_rule_is_named_only_when_it_alone_gives_the_answers(S, blank):
    import puzzlekit
    from puzzlekit.testcells.diagnose import (
        _tile_parity,
        diagnose_reachability,
        reachability_probes,
    )
    from puzzlekit.testcells.mistakes import Diagnosis
    goal = puzzlekit.goal_state(len(S), len(S[0]), blank=blank)
    right = puzzlekit.is_solvable(S, goal)
    assert diagnose_reachability(S, goal, right) is None
    assert diagnose_reachability(S, goal, "yes") is None
    assert reachability_probes(S, goal, right) == []

    def blank_row(T, G):
        return abs(next(r for r, row in enumerate(T) if 0 in row)
                   - next(r for r, row in enumerate(G) if 0 in row))
    wrong_width = ("parity-ignores-blank-row", lambda T, G: _tile_parity(T, G) == 0) \
        if len(S[0]) % 2 == 0 else \
        ("parity-counts-blank-row", lambda T, G: (_tile_parity(T, G) + blank_row(T, G)) % 2 == 0)
    students = dict([wrong_width])
    if blank == "first":
        students["ignores-the-goal"] = lambda T, G: puzzlekit.is_solvable(T)
    for named, can_reach in students.items():
        got = can_reach(S, goal)
        if got == right:
            continue
        assert diagnose_reachability(S, goal, got) is None       # one board: no cause
        probes = reachability_probes(S, goal, got)
        why = diagnose_reachability(S, goal, got, [(T, goal, can_reach(T, goal)) for T in probes])
        if probes:
            assert isinstance(why, Diagnosis) and why.name == named, (named, why)
        else:
            assert why is None or why.name == named


def test_linear_conflict_by_pairs_is_named():
    import puzzlekit
    from puzzlekit.testcells.diagnose import conflict_probes, diagnose_linear_conflict
    G = puzzlekit.goal_state(3)
    S = ((3, 2, 1), (4, 5, 6), (7, 8, 0))
    assert diagnose_linear_conflict(S, G, 8, 8) is None
    assert conflict_probes(S, G, 8, 8) == []

    def by_pairs(T, G):
        return puzzlekit.manhattan(T, G) + 2 * len(puzzlekit.conflict_pairs(T, G))
    students = {"conflict-every-pair": by_pairs, "conflict-missing": puzzlekit.manhattan,
                "ignores-the-goal": lambda T, G: puzzlekit.linear_conflict(T)}
    for B in (G, puzzlekit.goal_state(3, blank="first")):
        for named, h in students.items():
            got = h(S, B)
            right = puzzlekit.linear_conflict(S, B)
            if got == right:
                continue
            assert diagnose_linear_conflict(S, B, got, right) == \
                f"your h gives {got} for this board; the right value is {right}"
            probes = conflict_probes(S, B, got, right)
            assert probes, named
            why = diagnose_linear_conflict(S, B, got, right, [(T, B, h(T, B)) for T in probes])
            assert why.name == named
