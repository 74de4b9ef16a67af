"""The messages of the catalogue's diagnoses and drawings that no other test reads, each
rendered by the code that says it, from the evidence that calls for it
(tests/testcells/test_catalogue.py checks that every message a student reads is rendered
by a test somewhere)."""

from __future__ import annotations

import functools
import random

import pytest

import puzzlekit as pk
from puzzlekit.testcells import budget, catalogue, see_search
from puzzlekit.testcells.diagnose import (
    LECTURE_NAME,
    REVERSE,
    TILE_GOES,
    blank_moves,
    conflict_probes,
    diagnose_heuristic,
    diagnose_linear_conflict,
    diagnose_move,
    diagnose_neighbours,
    diagnose_report,
    diagnose_shuffle,
    heuristic_probes,
    random_state_problem,
)
from puzzlekit.testcells.instrument import ExpansionLimit, Recorder
from puzzlekit.testcells.mistakes import Diagnosis
from puzzlekit.testcells.see import Watch, path_of
from puzzlekit.visuals.search_view import MAX_PATH

MIDDLE = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
G3 = pk.goal_state(3)


@pytest.fixture(autouse=True)
def not_autograding(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


# ----------------------------------------------------------------------------- moves

@pytest.mark.parametrize("letter, side", [
    ("D", catalogue.SIDE_BELOW), ("U", catalogue.SIDE_ABOVE),
    ("R", catalogue.SIDE_RIGHT_OF), ("L", catalogue.SIDE_LEFT_OF)])
def test_each_move_read_as_the_blanks_says_which_tile_it_slides(letter, side):
    """The four moves from the middle, each made the blank's way: the sentence says which
    neighbour of the blank the move slides, and where."""
    moves = blank_moves(MIDDLE)
    why = diagnose_move(MIDDLE, moves[REVERSE[letter]], moves[letter])
    assert isinstance(why, Diagnosis) and why.name == "blank-moved-not-tile"
    assert why == catalogue.BLANK_MOVED_NOT_TILE.format(
        way=TILE_GOES[letter], blank=TILE_GOES[REVERSE[letter]],
        move=catalogue.SLIDES_THE_TILE.format(move=LECTURE_NAME[letter], side=side,
                                              way=TILE_GOES[letter]))


def test_a_board_listed_twice_among_the_next_states():
    right = list(blank_moves(MIDDLE).values())
    why = diagnose_neighbours(MIDDLE, right + right[:1], right)
    assert why == catalogue.BOARD_LISTED_TWICE and why.name == "board-listed-twice"


# ----------------------------------------------------------------------------- numbers

def test_a_manhattan_that_counts_misplaced_tiles_is_named_on_a_second_board():
    S = ((8, 2, 3), (4, 5, 6), (7, 1, 0))         # two tiles misplaced, 6 steps away
    got, right = pk.hamming(S, G3), pk.manhattan(S, G3)
    probes = heuristic_probes(S, G3, got, right, "manhattan")
    assert probes
    why = diagnose_heuristic(S, G3, got, right, "manhattan",
                             [(T, G3, pk.hamming(T, G3)) for T in probes])
    assert why == catalogue.MANHATTAN_IS_HAMMING and why.name == "manhattan-is-hamming"


def test_a_linear_conflict_without_its_conflicts_is_named_on_a_second_board():
    S = ((3, 2, 1), (4, 5, 6), (7, 8, 0))
    got, right = pk.manhattan(S, G3), pk.linear_conflict(S, G3)
    probes = conflict_probes(S, G3, got, right)
    assert probes
    why = diagnose_linear_conflict(S, G3, got, right,
                                   [(T, G3, pk.manhattan(T, G3)) for T in probes])
    assert why == catalogue.CONFLICT_MISSING and why.name == "conflict-missing"


# ----------------------------------------------------------------------------- the scramble

def test_a_state_of_random_with_too_few_words_is_refused():
    state = random.Random(7).getstate()
    assert random_state_problem((state[0], state[1][:100], state[2])) == \
        catalogue.RANDOM_NOT_WORDS.format(count=625)
    assert random_state_problem(state) is None


def test_a_scramble_with_the_right_tiles_in_another_order_is_named():
    before = random.Random(11).getstate()
    rng = random.Random()
    rng.setstate(before)
    want = pk.shuffle_pos(6, rng=rng)
    got = want[::-1]            # the course's tiles, not where its moves put them
    why = diagnose_shuffle(6, got, before, None)
    assert why == catalogue.SHUFFLE_ORDER_DIFFERS and why.name == "shuffle-order-differs"


def test_a_layer_report_that_goes_on_past_the_goal():
    sizes = [3, 5]
    lines = [f"Iteration {k}: {n} new states found." for k, n in enumerate(sizes, start=1)]
    why = diagnose_report([*lines, "Iteration 3: 0 new states found."], sizes)
    assert why == catalogue.REPORT_EXTRA_LINE and why.name == "report-extra-line"
    assert diagnose_report(lines, sizes) is None


# ----------------------------------------------------------------------------- time, recorders

def test_a_call_out_of_time_says_it_was_computing_time():
    assert budget.too_slow("bfs", 6) == catalogue.TOO_SLOW.format(
        name="bfs", seconds=catalogue.OF_COMPUTING_TIME.format(seconds="6 seconds"))


def test_a_successor_function_without_a_name_is_called_the_successor_function():
    recorder = Recorder(functools.partial(pk.nextStates), limit=3)
    assert recorder.name == catalogue.THE_SUCCESSOR_FUNCTION
    with pytest.raises(ExpansionLimit, match="^the search called the successor function 4 "):
        for _ in range(4):
            recorder(MIDDLE)


@pytest.mark.parametrize("kind", [Recorder, Watch])
def test_a_recorder_without_its_function_says_so(kind):
    recorder = kind(None, limit=None, name="nextStates")
    with pytest.raises(TypeError) as e:
        recorder(MIDDLE)
    assert str(e.value) == catalogue.NO_FUNCTION_TO_CALL.format(name="nextStates")


# ----------------------------------------------------------------------------- drawings

def search(nextStates, start, goal):
    """The lecture's search, not written yet."""
    raise NotImplementedError()


def test_the_lectures_search_not_written_yet_draws_the_layered_reference():
    view = see_search(search, pk.nextStates, MIDDLE, G3)
    assert view.trace.who == f"puzzlekit's reference {catalogue.LAYER_BY_LAYER}"
    assert catalogue.NOT_WRITTEN_DRAWN.format(name="search",
                                              search=catalogue.LAYER_BY_LAYER) in view.text


def test_a_search_stopped_by_its_recorder_says_it_was_stopped():
    def again(nextStates, start, goal):
        while True:
            nextStates(start)
    view = see_search(again, pk.nextStates, MIDDLE, G3, limit=20)
    assert catalogue.STOPPED.format(why="the search called nextStates 21 times but there "
                                        "were only 1 different boards") in view.text


def test_what_a_search_returned_that_cannot_be_drawn_as_a_path():
    def answer(nextStates, start, goal):
        nextStates(start)
        return {"path": "UL"}
    view = see_search(answer, pk.nextStates, MIDDLE, G3)
    assert catalogue.NOT_A_PATH.format(kind="dict", result={"path": "UL"}) in view.text
    too_long = [MIDDLE] * (MAX_PATH + 2)
    assert path_of(too_long, MIDDLE) == (
        None, catalogue.PATH_TOO_LONG.format(moves=MAX_PATH + 1))
