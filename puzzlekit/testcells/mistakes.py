"""Named mistakes: the diagnoses of the grader as data, not only as sentences.

Every sentence the kit uses to name a student's mistake ("the blank moved up instead of
the tile") is a `Diagnosis`: a plain `str`, as it always was, that also carries the
mistake's stable name from `CATALOGUE` ("blank-moved-not-tile") and, where the check had
them, the boards it compared. While nbgrader grades a notebook, the judge keeps each
diagnosis a failing test cell showed the student and writes it into the autograded
notebook (the test cell's ``metadata.puzzlekit``), so a class report can count mistakes
across a class (`puzzlekit.course.class_report`).

A test cell names a mistake of its own exercise with `mistake`:

    why = mistake("findZero-column-row", "it returned (column, row); ...") if swapped else None
    assert_equal(got, want, "findZero(start)", why=why)

A name the catalogue lacks is an author's own: allowed (lower case, digits and dashes),
and reported under that name. The catalogue, with a sentence for each name, is in
docs/mistakes.md (tests/testcells/test_mistakes.py keeps the two alike).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError
from ..puzzle.board import State


@dataclass(frozen=True)
class Mistake:
    """A mistake students make, by its stable name: `title` says it in a few words (a
    class report's heading), `teach` what to show the class again."""

    name: str
    title: str
    teach: str


def _catalogue(*rows: tuple[str, str, str]) -> dict[str, Mistake]:
    return {name: Mistake(name, title, teach) for name, title, teach in rows}


#: The kit's named mistakes, grouped by the idea they miss.
CATALOGUE: dict[str, Mistake] = _catalogue(
    # moves (assignment 1)
    ("blank-moved-not-tile", "the blank moved instead of the tile",
     "a move's name says where the tile goes: in moveUp the tile below the blank goes up"),
    ("wrap-around", "the blank jumped across the edge",
     "index -1 is the last row or column in Python: check the edge before moving"),
    ("wrong-direction", "a tile moved the wrong way",
     "which neighbour of the blank each move slides"),
    ("tile-copied", "a tile was copied, not swapped",
     "a swap sets both cells: the tile's new place and the blank's"),
    ("board-unchanged", "the board came back unchanged",
     "make a new board, swap the two cells in it, return the new board"),
    ("board-not-tuple", "a board returned as lists",
     "a board is a tuple of tuples, so it can go in a set"),
    ("findZero-column-row", "findZero answered (column, row)",
     "positions are (row, column), the row first"),
    # successors (assignment 1)
    ("self-in-next-states", "the board listed among its own next states",
     "every move changes the board; S is not one of its next states"),
    ("move-missing", "a legal move left out",
     "which moves the blank can make at an edge or a corner"),
    ("wrong-move-used", "a next state made by a move that goes the wrong way",
     "each move function on its own first, then nextStates"),
    ("board-listed-twice", "a board listed twice", "a set holds each board once"),
    ("not-one-move", "a board that is not one move away",
     "a next state slides exactly one tile next to the blank"),
    ("past-the-edge", "an index past the edge of the board",
     "check that the blank can move that way before moving it"),
    ("assumes-3x3", "code that works only on 3×3 (or square) boards",
     "the board's size from the board itself (len, a shape), never a fixed 3"),
    ("arguments-in-another-order", "the arguments taken in another order",
     "the exercise's signature, word for word: search(nextStates, start, goal)"),
    ("list-not-set", "the right states in a list, not a set",
     "a set holds each board once, in no order: return set(...) or build one"),
    ("own-part-wrong", "a function of the student's that this one uses is wrong",
     "fix the function named first: this one may well be right"),
    ("tile-letters", "move letters that say where the tile goes",
     "in this course a letter says where the blank goes"),
    ("print-spacing", "the right numbers, spaced another way",
     "a fixed width per square (f\"{x:>3}\")"),
    ("unhashable-class", "a class with __eq__ but no __hash__",
     "__eq__ and __hash__ together, from the same data"),
    # paths (assignments 2-4)
    ("path-backwards", "the path from the goal back to the start",
     "following the parents from the goal gives the path backwards: reverse it"),
    ("path-without-start", "the path leaves out the start",
     "a path begins with the start state"),
    ("path-without-goal", "the path stops before the goal", "a path ends with the goal state"),
    ("path-backwards-missing-end", "the path backwards, and an end missing",
     "reverse the path and keep both ends"),
    ("moves-from-goal", "the moves from the goal back to the start",
     "reverse the moves and swap each letter with its opposite"),
    ("longer-than-limit", "a solution longer than the limit allows",
     "a depth limit counts moves, and the start is depth 0"),
    # searches (assignments 2-4)
    ("no-visited-set", "no set of the boards already seen",
     "a visited set: skip a next state already seen"),
    ("no-stale-check", "stale queue entries expanded again",
     "a board can wait in the queue at several costs: skip it when it comes out dearer"),
    ("steps-straight-back", "a step straight back to the board it came from",
     "skip a next state that is already on the path"),
    ("bfs-takes-newest", "breadth-first search taking the newest board first",
     "a queue: take the oldest board out (popleft), not the newest (pop)"),
    ("recursion-too-deep", "recursion thousands of moves deep",
     "a loop and a stack instead of recursion"),
    ("report-off-by-one", "the layer report off by one",
     "the first layer of new states is Iteration 1"),
    ("report-counts-start", "the layer report counting the start",
     "only the layers of new states are reported"),
    ("report-extra-line", "one report line too many",
     "stop when the last layer found the goal"),
    ("shuffle-draws-differ", "a scramble that draws a different number of random numbers",
     "one draw per try, and a new try only for an illegal or undoing move"),
    ("shuffle-allows-undo", "a scramble whose move may undo the one before",
     "draw again when a move would undo the last one"),
    ("shuffle-order-differs", "a scramble that reads its draws another way",
     "0 up, 1 left, 2 down, 3 right: where the tile goes"),
    # costs (assignment 2)
    ("cost-counts-moves", "a total that counts moves, not prices",
     "add each move's price to the cost so far"),
    ("cost-tile-prices", "prices read by the tile's way",
     "a price is for the blank's move"),
    ("cost-total-wrong", "a total that is not the path's price",
     "the total is the sum of the prices of the path's moves"),
    ("ucs-stops-early", "uniform-cost search stopping when the goal is generated",
     "stop when the goal comes out of the queue, not when it goes in"),
    # heuristics and A* (assignments 3-4)
    ("heuristic-counts-blank", "a heuristic that counts the blank",
     "the blank is not a tile: counting it makes h overestimate"),
    ("heuristic-other-goal", "a heuristic measured against another goal",
     "measure against the goal the function is given"),
    ("ignores-the-goal", "a function that ignores the goal it is given",
     "use the goal argument, not the default goal: the answers differ for another goal"),
    ("manhattan-is-hamming", "misplaced tiles counted instead of distances",
     "Manhattan adds how many steps each tile is from its place"),
    ("astar-not-shortest", "A* finding a path longer than the shortest",
     "A*'s priority is g + h, and it stops when the goal comes out of the queue"),
    ("idastar-not-shortest", "IDA* finding a path longer than the shortest",
     "each round cuts off at f = g + h > bound; the next bound is the smallest f cut off"),
    ("astar-never-reopens", "A* that never reopens a board found cheaper",
     "a board found again more cheaply goes back into the queue"),
    ("inversions-count-blank", "inversions that count the blank",
     "count inversions among the tiles only"),
    ("parity-ignores-blank-row", "the parity rule of an odd width on an even board",
     "on an even width the blank's row counts too"),
    ("parity-counts-blank-row", "the parity rule of an even width on an odd board",
     "on an odd width only the inversions count"),
    ("conflict-every-pair", "linear conflict adding 2 for every pair",
     "only the tiles that must leave the line count"),
    ("conflict-missing", "linear conflict that adds nothing",
     "the conflicts in each row and column add 2 moves each"),
    # the whole exercise
    ("no-return", "a function that returns nothing", "return the result"),
    ("used-the-reference", "puzzlekit's ready-made function called",
     "the exercise asks for the student's own"),
    ("too-slow", "code that ran out of time", "what makes the search slow on this board"),
)

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,47}")


class Diagnosis(str):
    """A sentence naming a mistake (a `str`), with the mistake's `name` and the `boards`
    the check compared ("start", "expected", "got"; only proper boards are kept)."""

    name: str
    boards: dict[str, State]

    def __new__(cls, name: str, sentence: str,
                boards: dict[str, Any] | None = None) -> Diagnosis:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise PuzzleError(f"a mistake's name is a short word of letters, digits and "
                              f"dashes (like 'wrap-around'), not {name!r}")
        self = super().__new__(cls, sentence)
        self.name = name
        self.boards = {k: v for k, v in (boards or {}).items() if _is_board(v)}
        _made.pop(sentence, None)
        _made[sentence] = self
        while len(_made) > _KEPT:
            del _made[next(iter(_made))]
        return self

    def __reduce__(self) -> Any:
        return (Diagnosis, (self.name, str(self), self.boards))


def _is_board(x: object) -> bool:
    return (isinstance(x, tuple) and 0 < len(x) <= 8 and all(
        isinstance(r, tuple) and len(r) == len(x[0]) and all(type(t) is int for t in r)
        for r in x))


def mistake(name: str, sentence: str, **boards: Any) -> Diagnosis:
    """`sentence`, named `name` (a name of `CATALOGUE`, or an author's own), for a test
    cell's failure message: the grader records it for the class report."""
    return Diagnosis(name, sentence, boards)


def title_of(name: str) -> str:
    """The few words a report shows for the mistake `name` (an author's own: the name)."""
    found = CATALOGUE.get(name)
    return found.title if found is not None else name.replace("-", " ")


#: The diagnoses made in this process, by sentence, the latest last (at most `_KEPT`):
#: a test cell may show one made in an earlier cell (a hint defined once, used twice).
_made: dict[str, Diagnosis] = {}
_KEPT = 256


def made() -> list[Diagnosis]:
    """The diagnoses made since `forget_made`, the latest last."""
    return list(_made.values())


def forget_made() -> None:
    """Forget the diagnoses made so far (the judge does, for each notebook)."""
    _made.clear()


def _words(text: str) -> str:
    # without any white space: a wrapped line may break at a space or after a hyphen
    return "".join(text.split())


def shown(diagnoses: list[Diagnosis], text: str) -> list[Diagnosis]:
    """The `diagnoses` whose sentence is in `text` (what a student was shown), each name
    once: a diagnosis a test made but did not show is not the student's."""
    seen, out = _words(text), []
    names: set[str] = set()
    for d in diagnoses:
        if d.name not in names and _words(d) and _words(d) in seen:
            names.add(d.name)
            out.append(d)
    return out


def as_record(d: Diagnosis) -> dict[str, Any]:
    """`d` as plain data for a notebook's metadata."""
    return {"name": d.name, "sentence": str(d)[:600],
            "boards": {k: [list(r) for r in v] for k, v in d.boards.items()}}
