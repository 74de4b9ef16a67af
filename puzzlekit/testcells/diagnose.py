"""Name the mistake behind a wrong board, from the boards alone.

When a test finds that a student's move or successor function returned the wrong
board(s), these functions compare the answer with the mistakes students really make with
the lecture's moves, and say in one sentence what happened:

* the blank moved where the *tile* should have gone (``moveUp`` read as "the blank goes
  up": the name says where the tile goes);
* a tile moved the wrong way altogether;
* the blank jumped to the far side of the board (at the edge, Python's index -1 is the
  last row or column: it wraps round instead of failing);
* a tile was copied instead of swapped (one tile twice, no blank);
* the board came back unchanged;
* a board listed among its own next states, a move missing at an edge;
* a path backwards, without its start or its goal, or move letters for the tile;
* a search that expands boards twice (no visited set), takes the newest board first
  where breadth-first search takes the oldest, or steps straight back (from the record of
  `puzzlekit.testcells.instrument`);
* a uniform-cost search priced by the tile's way, by the number of moves, or stopped too
  early; a heuristic that counts the blank or measures against another goal;
* answers that are the default goal's where another goal was given (a heuristic,
  `can_reach`, linear conflict, a search's path).

A wrong number or answer that several rules could give is named only when one rule alone
gives the student's answers on two boards: `heuristic_probes`, `reachability_probes`
and `conflict_probes` pick a board that tells the rules apart, the test asks the
student's function about it and hands the answers on (`also`); otherwise the plain
numbers, without a cause.

They read only the boards and numbers the test already holds (plain data): nothing of the
student's code runs here. Each returns None when it recognises nothing; the plain "expected / got"
then speaks for itself.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from ..puzzle.board import State, goal_state, shape
from ..puzzle.exact import distances_from
from ..puzzle.heuristics import conflict_pairs, hamming, linear_conflict, manhattan
from ..puzzle.moves import check_solution, path_to_moves
from ..puzzle.scrambles import shuffle_pos
from . import catalogue
from .catalogue import EXPANDED_AGAIN, IGNORES_THE_GOAL, KEEP_VISITED, STALE_ENTRY
from .instrument import Record
from .mistakes import Diagnosis, mistake

#: The blank's step (row, column) for each move letter (letters say where the blank goes).
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
#: Where the tile goes when the blank goes `letter`, and the lecture's name of that move.
TILE_GOES = {"D": "up", "U": "down", "R": "left", "L": "right"}
LECTURE_NAME = {"D": "moveUp", "U": "moveDown", "R": "moveLeft", "L": "moveRight"}
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
#: Where the moving tile sits, seen from the blank.
_SIDE = {"D": catalogue.SIDE_BELOW, "U": catalogue.SIDE_ABOVE, "R": catalogue.SIDE_RIGHT_OF,
         "L": catalogue.SIDE_LEFT_OF}
_EDGE = {"U": "first row", "D": "last row", "L": "first column", "R": "last column"}


def _blank(S: State) -> tuple[int, int]:
    for r, row in enumerate(S):
        for c, tile in enumerate(row):
            if tile == 0:
                return r, c
    raise ValueError("no blank")


def _swapped(S: State, a: tuple[int, int], b: tuple[int, int]) -> State:
    rows = [list(row) for row in S]
    (r1, c1), (r2, c2) = a, b
    rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
    return tuple(tuple(row) for row in rows)


def blank_moves(S: State, wrap: bool = False) -> dict[str, State]:
    """The boards one move from `S`, by the letter of the blank's move; with `wrap`, only
    the moves that leave the board and come back on the far side (Python's index -1), where
    that is not also a real move (on a side of 2 the far side is next to the blank)."""
    rows, cols = shape(S)
    r, c = _blank(S)
    out = {}
    for letter, (dr, dc) in STEP.items():
        r2, c2 = r + dr, c + dc
        inside = 0 <= r2 < rows and 0 <= c2 < cols
        if inside and not wrap:
            out[letter] = _swapped(S, (r, c), (r2, c2))
        elif wrap and not inside and (r2 == -1 or c2 == -1):
            if abs(r2 % rows - r) + abs(c2 % cols - c) > 1:
                out[letter] = _swapped(S, (r, c), (r2 % rows, c2 % cols))
    return out


def _letter_of(S: State, T: State) -> str | None:
    return next((k for k, B in blank_moves(S).items() if B == T), None)


def _the_move(want: str) -> str:
    """What the move `want` (the blank's letter) does, in words."""
    return catalogue.SLIDES_THE_TILE.format(move=LECTURE_NAME[want], side=_SIDE[want],
                                            way=TILE_GOES[want])


def diagnose_move(start: State, got: State, expected: State) -> Diagnosis | None:
    """One sentence on what `got` did to `start` where `expected` was wanted, or None.

    Used by the tests of assignment 1, exercises 3-5 (moveUp, moveDown, moveLeft, moveRight).
    """
    if got == expected or shape(got) != shape(start) or shape(expected) != shape(start):
        return None
    want = _letter_of(start, expected)
    boards = {"start": start, "expected": expected, "got": got}
    if got == start:
        return mistake("board-unchanged", catalogue.BOARD_UNCHANGED, **boards)
    have, had = Counter(t for row in got for t in row), Counter(t for row in start for t in row)
    if have != had:
        twice = sorted(t for t in have if have[t] > had.get(t, 0))
        lost = sorted(t for t in had if have.get(t, 0) < had[t])
        lost_words = " and ".join("no blank" if t == 0 else f"no {t}" for t in lost)
        return mistake("tile-copied", catalogue.TILE_COPIED.format(
            twice=" and ".join(map(str, twice)), lost=lost_words), **boards)
    letter = _letter_of(start, got)
    if letter is not None and want is not None:
        if letter == REVERSE[want]:
            return mistake("blank-moved-not-tile", catalogue.BLANK_MOVED_NOT_TILE.format(
                way=TILE_GOES[want], move=_the_move(want), blank=TILE_GOES[letter]), **boards)
        return mistake("wrong-direction", catalogue.WRONG_DIRECTION.format(
            way=TILE_GOES[letter], move=_the_move(want)), **boards)
    for letter, B in blank_moves(start, wrap=True).items():
        if B == got and want is not None and letter == REVERSE[want]:
            return mistake("blank-moved-not-tile", catalogue.BLANK_WRAPPED_NOT_TILE.format(
                way=TILE_GOES[want], edge=_EDGE[letter], move=_the_move(want)), **boards)
        if B == got:
            return mistake("wrap-around", catalogue.WRAPPED_ROUND.format(edge=_EDGE[letter]),
                           **boards)
    return None


def diagnose_neighbours(start: State, got: Collection[State],
                        expected: Collection[State]) -> Diagnosis | None:
    """One sentence on what is wrong with `got` as the boards one move from `start`.

    Used by the tests of assignment 1, exercise 6 (nextStates).
    """
    got_set, want = set(got), set(expected)
    if got_set == want and len(got) == len(got_set):
        return None
    if start in got_set:
        return mistake("self-in-next-states", catalogue.SELF_IN_NEXT_STATES, start=start)
    wrapped = blank_moves(start, wrap=True)
    across = [k for k, B in wrapped.items() if B in got_set - want]
    missing = [k for k, B in blank_moves(start).items() if B in want - got_set]
    if across and missing:
        moves = " and ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return mistake("wrong-move-used", catalogue.WRONG_MOVE_USED.format(moves=moves),
                       start=start)
    if across:
        edge = " and the ".join(_EDGE[k] for k in across)
        return mistake("wrap-around", catalogue.JUMPED_ACROSS.format(edge=edge),
                       start=start, got=wrapped[across[0]])
    if missing and got_set < want:
        moves = ", ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return mistake("move-missing", catalogue.MOVE_MISSING.format(
            want=len(want), got=len(got_set), moves=moves), start=start)
    if len(got) != len(got_set):
        return mistake("board-listed-twice", catalogue.BOARD_LISTED_TWICE)
    far = [B for B in got_set - want if B not in blank_moves(start).values()]
    if far:
        return mistake("not-one-move", catalogue.NOT_ONE_MOVE.format(far=len(far)),
                       start=start, got=far[0])
    return None


def diagnose_path(start: State, goal: State, seq: str | list[State]) -> Diagnosis | None:
    """One sentence on why `seq` (a list of states or a move string) does not take `start`
    to `goal`, when it is a typical slip: the path backwards, without its start or its
    goal, move letters that say where the tile goes, or a path to the default goal
    instead of the one given (named only when no other slip explains it too).

    Used by the tests of every path in assignments 2-4.
    """
    def solves(candidate: str | list[State], to: State = goal) -> bool:
        try:
            return check_solution(start, to, candidate).ok
        except ValueError:
            return False
    slip = _path_slip(start, goal, seq, solves)
    default = goal_state(*shape(start))
    if default == goal or not seq or not solves(seq, default):
        return slip
    if slip is not None:
        return None         # two explanations: the boards say it, no cause is named
    return mistake("ignores-the-goal", catalogue.PATH_TO_DEFAULT_GOAL, start=start, expected=goal)


def _path_slip(start: State, goal: State, seq: str | list[State],
               solves: Callable[[str | list[State]], bool]) -> Diagnosis | None:
    """The slip of `diagnose_path` that makes `seq` a solution, if one does."""
    if isinstance(seq, str):
        inverse = seq.translate(str.maketrans("UDLRudlr", "DURLdurl"))
        if seq and solves(inverse):
            return mistake("tile-letters", catalogue.TILE_LETTERS, start=start)
        if seq and solves(inverse[::-1]):
            return mistake("moves-from-goal", catalogue.MOVES_FROM_GOAL, start=start)
        return None
    if len(seq) > 1 and solves(seq[::-1]):
        return mistake("path-backwards", catalogue.PATH_BACKWARDS, start=start)
    # (a path that already begins with the start, or ends with the goal, cannot be
    # missing it: the walk along the path that would say so is skipped)
    if seq and seq[0] != start and solves([start, *seq]):
        return mistake("path-without-start", catalogue.PATH_WITHOUT_START, start=start)
    if seq and seq[-1] != goal and solves([*seq, goal]):
        return mistake("path-without-goal", catalogue.PATH_WITHOUT_GOAL, start=start)
    if len(seq) > 1 and (solves([*seq[::-1], goal]) or solves([start, *seq[::-1]])):
        return mistake("path-backwards-missing-end", catalogue.PATH_BACKWARDS_MISSING_END,
                       start=start)
    return None


# ---------------------------------------------------------------------------
# How a search went about it: from what it asked of the successor function

def _as_state(x: object, like: State) -> State | None:
    """`x` as a board of `like`'s shape (a flat list or tuple is read row by row)."""
    rows, cols = shape(like)
    if isinstance(x, tuple) and len(x) == rows and all(
            isinstance(r, tuple) and len(r) == cols for r in x):
        return x
    if isinstance(x, tuple) and len(x) == rows * cols and all(type(v) is int for v in x):
        return tuple(tuple(x[r * cols:(r + 1) * cols]) for r in range(rows))
    return None


def _adjacent(a: State, b: State) -> bool:
    return b in blank_moves(a).values()


def diagnose_search(start: State, record: Record,
                    kind: str = "breadth-first") -> Diagnosis | None:
    """One sentence on how a search explored, from the `Record` of the boards it asked
    the successor function about (first ones in order), or None when nothing stands out.

    `kind`: "breadth-first" (each board once, nearest first), "once" (each board once,
    any order: DFS, A*), "cheapest-first" (each board once: uniform-cost search),
    "iterative" (boards again in each round, but never straight back to the board it
    came from).

    Used by the tests of assignment 2 (breadth-first, depth-first and uniform-cost search).
    """
    boards = [_as_state(x, start) for x in record.first]
    if kind != "iterative" and record.most_times > 1:
        board = _as_state(record.most, start)
        shown = f" (one board, {_flat_text(board)}, {record.most_times:,} times)" if board else ""
        advice = STALE_ENTRY if kind == "cheapest-first" else KEEP_VISITED
        return mistake("no-stale-check" if kind == "cheapest-first" else "no-visited-set",
                       EXPANDED_AGAIN.format(shown=shown, calls=record.calls,
                                             distinct=record.distinct, advice=advice),
                       start=start)
    for a, b, c in zip(boards, boards[1:], boards[2:]):
        if a is not None and b is not None and a == c and _adjacent(a, b):
            where = catalogue.ALREADY_ON_THE_PATH if kind == "iterative" else catalogue.ALREADY_SEEN
            return mistake("steps-straight-back", catalogue.STEPS_STRAIGHT_BACK.format(
                boards=f"{_flat_text(a)} → {_flat_text(b)} → {_flat_text(a)}", where=where),
                start=a, got=b)
    if kind == "breadth-first" and len(start) * len(start[0]) <= 9:
        table = distances_from(start, [b for b in boards if b is not None])
        seen_far = 0
        for board in boards:
            if board is None:
                return None
            d = table.get(tuple(t for row in board for t in row))
            if d is None:
                return None
            if d < seen_far:
                return mistake("bfs-takes-newest", catalogue.BFS_TAKES_NEWEST.format(
                    far=seen_far, near=d), start=start, got=board)
            seen_far = max(seen_far, d)
    return None


def _flat_text(board: State | None) -> str:
    if board is None:
        return "?"
    return "".join("_" if t == 0 else (str(t) if t < 10 else f"({t})") for row in board
                   for t in row)


# ---------------------------------------------------------------------------
# Prices (uniform-cost search) and heuristics: which wrong rule gives the student's number

_TILE_WAY = str.maketrans("UDLR", "DURL")


def path_cost(path: list[State], costs: dict[str, float]) -> float:
    """The price of a path of states with `costs` per move letter (the blank's move)."""
    return sum(costs[letter] for letter in path_to_moves(path))


def diagnose_cost(start: State, goal: State, path: list[State], costs: dict[str, float],
                  cheapest: float, total: object = None) -> Diagnosis | None:
    """One sentence on what is wrong with a uniform-cost search's answer: a `total` that
    is not the price of its `path` with `costs`, or a path dearer than `cheapest`.

    Used by the tests of assignment 2, section 6 (uniform-cost search).
    """
    paid = path_cost(path, costs)
    moves = len(path) - 1
    tile_prices = {letter.translate(_TILE_WAY): price for letter, price in costs.items()}
    if type(total) in (int, float) and total != paid:
        by_moves, by_tiles = total == moves, total == path_cost(path, tile_prices)
        if by_moves and not by_tiles:       # a rule is named only when it alone gives it
            return mistake("cost-counts-moves", catalogue.COST_COUNTS_MOVES.format(moves=moves),
                           start=start)
        if by_tiles and not by_moves:
            return mistake("cost-tile-prices", catalogue.COST_TILE_PRICES, start=start)
        return mistake("cost-total-wrong", catalogue.COST_TOTAL_WRONG)
    if paid <= cheapest:
        return None
    return mistake("ucs-stops-early", catalogue.UCS_STOPS_EARLY.format(cheapest=cheapest),
                   start=start)


# ---------------------------------------------------------------------------
# Rules that give a student's answers: named only when one alone gives them all

#: How many boards a probe search tries at the most
_PROBES = 40

#: A function's wrong rules on a board for a goal: {rule: (answer, mistake name, words)}
Rules = Callable[[State, State], dict[str, tuple[object, str, str]]]


def _rules_giving(rules_of: Rules, S: State, goal: State, got: object) -> set[str]:
    return {rule for rule, (value, _, _) in rules_of(S, goal).items()
            if value == got and (type(value) is bool) == (type(got) is bool)}


def _probe(rules_of: Rules, right_of: Callable[[State, State], object], S: State,
           goal: State, rules: set[str], strict: bool) -> list[State]:
    """A board of `S`'s shape for `goal` (a seeded shuffle) on which each of `rules`
    gives an answer of its own (and, `strict`, none the right one), [] if none is found
    soon."""
    rows, cols = shape(S)
    rng = random.Random(f"{S}{goal}")
    flat = [t for row in goal for t in row]
    for _ in range(_PROBES):
        rng.shuffle(flat)
        T = tuple(tuple(flat[r * cols:(r + 1) * cols]) for r in range(rows))
        found = rules_of(T, goal)
        values = [found[rule][0] for rule in rules]
        if len(set(values)) == len(values) and not (strict and right_of(T, goal) in values):
            return [T]
    return []


def _named_alone(rules_of: Rules, seen: list[tuple[State, State, object]]
                 ) -> tuple[str, str] | None:
    """(mistake name, words) of the one rule that gives every answer `seen` (board, goal,
    answer), on two boards or more; None when none does, or several do."""
    if len(seen) < 2:
        return None
    S, goal, _ = seen[0]
    rules = set(rules_of(S, goal))
    for T, G, value in seen:
        rules &= _rules_giving(rules_of, T, G, value)
    if len(rules) != 1:
        return None
    _, named, words = rules_of(S, goal)[rules.pop()]
    return named, words


def _heuristic_name(S: State, goal: State, expected: int, name: str | None) -> str:
    if name in ("manhattan", "hamming"):
        return name
    return "manhattan" if expected == manhattan(S, goal) else "hamming"


def _plain_numbers(got: object, expected: int) -> str:
    """What was seen of a heuristic's wrong value, when no one rule explains it."""
    return catalogue.H_GIVES.format(name="h", got=got, right=expected)


def _heuristic_rules(name: str) -> Rules:
    """The wrong rules a student's heuristic `name` ("manhattan", "hamming") follows."""
    h = manhattan if name == "manhattan" else hamming

    def rules(S: State, goal: State) -> dict[str, tuple[object, str, str]]:
        rows, cols = shape(S)
        (r, c), (gr, gc) = _blank(S), _blank(goal)
        if name == "manhattan":
            blank = abs(r - gr) + abs(c - gc)
            counted = catalogue.COUNTS_BLANK_AS_TILE
        else:
            blank = int((r, c) != (gr, gc))
            counted = catalogue.COUNTS_BLANK_AS_MISPLACED
        found: dict[str, tuple[object, str, str]] = {
            "counts-blank": (h(S, goal) + blank, "heuristic-counts-blank", counted)}
        default = goal_state(rows, cols)
        if default != goal:
            found["default-goal"] = (h(S, default), "ignores-the-goal", IGNORES_THE_GOAL)
        first = goal_state(rows, cols, blank="first")
        if first != goal:
            found["blank-first-goal"] = (h(S, first), "heuristic-other-goal",
                                         catalogue.BLANK_FIRST_GOAL)
        if name == "manhattan":
            found["hamming"] = (hamming(S, goal), "manhattan-is-hamming",
                                catalogue.MANHATTAN_IS_HAMMING)
        return found
    return rules


def heuristic_probes(S: State, goal: State, got: object, expected: int,
                     name: str | None = None) -> list[State]:
    """Boards to ask the student's heuristic about when it gives `got` on `S` where
    `expected` is right and a wrong rule gives `got` too: one on which each of those
    rules gives another value than the others and than the right one, so that its value
    there tells them apart (`diagnose_heuristic`'s `also`). [] when no rule gives `got`."""
    if type(got) not in (int, float) or got == expected:
        return []
    name = _heuristic_name(S, goal, expected, name)
    rules_of = _heuristic_rules(name)
    rules = _rules_giving(rules_of, S, goal, got)
    right = manhattan if name == "manhattan" else hamming
    return _probe(rules_of, right, S, goal, rules, strict=True) if rules else []


def diagnose_heuristic(S: State, goal: State, got: object, expected: int,
                       name: str | None = None,
                       also: Collection[tuple[State, State, object]] = ()) -> str | None:
    """Which wrong rule gives `got` where the heuristic `name` ("manhattan" or "hamming";
    guessed from `expected` when not given) should be `expected` on board `S`, named
    only when it alone gives the heuristic's values on two boards or more: `S` and those
    of `also`, (board, goal, the student's value) each (`heuristic_probes` says which
    boards tell the rules apart). Otherwise the plain numbers, without a cause.

    Used by the tests of assignment 3, section 1 (hamming, manhattan).
    """
    if type(got) not in (int, float) or got == expected:
        return None
    name = _heuristic_name(S, goal, expected, name)
    alone = _named_alone(_heuristic_rules(name), [(S, goal, got), *also])
    if alone is not None:
        return mistake(alone[0], alone[1], start=S, expected=goal)
    return _plain_numbers(got, expected)


def _conflict_rules(S: State, goal: State) -> dict[str, tuple[object, str, str]]:
    """The wrong rules of a linear-conflict heuristic."""
    md = manhattan(S, goal)
    found: dict[str, tuple[object, str, str]] = {
        "every-pair": (md + 2 * len(conflict_pairs(S, goal)), "conflict-every-pair",
                       catalogue.CONFLICT_EVERY_PAIR),
        "missing": (md, "conflict-missing", catalogue.CONFLICT_MISSING)}
    default = goal_state(*shape(S))
    if default != goal:
        found["default-goal"] = (linear_conflict(S, default), "ignores-the-goal",
                                 IGNORES_THE_GOAL)
    return found


def conflict_probes(S: State, goal: State, got: object, expected: int) -> list[State]:
    """Boards to ask the student's linear conflict about when its value `got` on `S` is
    wrong and a wrong rule gives it: one on which those rules, and the right value, all
    differ (`diagnose_linear_conflict`'s `also`). [] when no rule gives `got`."""
    if type(got) not in (int, float) or got == expected:
        return []
    rules = _rules_giving(_conflict_rules, S, goal, got)
    return _probe(_conflict_rules, linear_conflict, S, goal, rules, strict=True) if rules \
        else []


def diagnose_linear_conflict(S: State, goal: State, got: object, expected: int,
                             also: Collection[tuple[State, State, object]] = ()
                             ) -> str | None:
    """Which slip gives the linear-conflict value `got` where `expected` is right, named
    only when it alone gives the values on `S` and on the boards of `also` ((board,
    goal, the student's value) each; `conflict_probes` says which boards tell the slips
    apart); otherwise the plain numbers, without a cause.

    Used by the tests of assignment 4, section 3.
    """
    if type(got) not in (int, float) or got == expected:
        return None
    alone = _named_alone(_conflict_rules, [(S, goal, got), *also])
    if alone is not None:
        return mistake(alone[0], alone[1], start=S, expected=goal)
    return _plain_numbers(got, expected)


def _tile_parity(S: State, goal: State) -> int:
    """The parity of the inversions of `S`'s tiles in `goal`'s order (blank left out)."""
    rank = {t: i for i, t in enumerate(t for row in goal for t in row)}
    seq = [rank[t] for row in S for t in row if t != 0]
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq))
               if seq[i] > seq[j]) % 2


def _reachable(S: State, goal: State) -> bool:
    """Can `S` reach `goal`? (the parity rule of its width)"""
    tiles = _tile_parity(S, goal)
    if shape(S)[1] % 2 == 1:
        return tiles == 0
    return (tiles + abs(_blank(S)[0] - _blank(goal)[0])) % 2 == 0


def _reachability_rules(S: State, goal: State) -> dict[str, tuple[object, str, str]]:
    """The wrong rules of a `can_reach`: the parity rule of the other width, the default
    goal's answer."""
    rows, cols = shape(S)
    tiles_only = _tile_parity(S, goal) == 0
    with_row = (_tile_parity(S, goal) + abs(_blank(S)[0] - _blank(goal)[0])) % 2 == 0
    found: dict[str, tuple[object, str, str]] = {}
    if cols % 2 == 0:
        found["tiles-only"] = (tiles_only, "parity-ignores-blank-row",
                               catalogue.PARITY_EVEN_WIDTH.format(cols=cols))
    else:
        found["with-row"] = (with_row, "parity-counts-blank-row",
                             catalogue.PARITY_ODD_WIDTH.format(cols=cols))
    default = goal_state(rows, cols)
    if default != goal:
        found["default-goal"] = (_reachable(S, default), "ignores-the-goal", IGNORES_THE_GOAL)
    return found


def reachability_probes(S: State, goal: State, got: object) -> list[State]:
    """Boards to ask the student's `can_reach` about (for `goal`) when its answer `got`
    on `S` is wrong and a wrong rule gives it: one on which those rules answer apart
    (`diagnose_reachability`'s `also`). [] when no rule gives `got`."""
    if type(got) is not bool or shape(S) != shape(goal) or got == _reachable(S, goal):
        return []
    rules = _rules_giving(_reachability_rules, S, goal, got)
    if not rules:
        return []
    return _probe(_reachability_rules, _reachable, S, goal, rules, strict=len(rules) == 1)


def diagnose_reachability(S: State, goal: State, got: object,
                          also: Collection[tuple[State, State, object]] = ()
                          ) -> Diagnosis | None:
    """One sentence on a wrong answer to "can `S` reach `goal`?" that a wrong rule gives:
    the parity rule of the other width (tiles only for an odd width, tiles and the blank's
    row for an even one), or the default goal's answer where another goal is given;
    named only when it alone gives the answers on `S` and on the boards of `also`
    ((board, goal, the student's answer) each; `reachability_probes` says which boards
    tell the rules apart).

    Used by the tests of assignment 4, section 1 (goal A or goal B?).
    """
    if type(got) is not bool or shape(S) != shape(goal) or got == _reachable(S, goal):
        return None
    alone = _named_alone(_reachability_rules, [(S, goal, got), *also])
    return None if alone is None else mistake(alone[0], alone[1], start=S, expected=goal)


# ---------------------------------------------------------------------------
# The seeded scramble of the 15-puzzle course (shuffle_pos)

#: Python's `random` state: (version, 624 words and an index, the next gauss or None)
_MT_WORDS = 624


def random_state_problem(state: object) -> str | None:
    """What is wrong with `state` as a state of Python's `random` (a Mersenne Twister),
    or None when it is a sound one: version 3, 624 words of 32 bits and an index of at
    most 624, a float or None; and not the degenerate all-zero state (whose generator
    returns 0 for ever). Checked before the grader uses a state that came from a kernel."""
    if type(state) is not tuple or len(state) != 3:
        return catalogue.RANDOM_NOT_THREE
    version, internal, gauss = state
    if version != 3 or type(version) is not int:
        return catalogue.RANDOM_NOT_VERSION_3
    if type(internal) is not tuple or len(internal) != _MT_WORDS + 1:
        return catalogue.RANDOM_NOT_WORDS.format(count=_MT_WORDS + 1)
    if not all(type(w) is int and 0 <= w < 2 ** 32 for w in internal):
        return catalogue.RANDOM_OUT_OF_RANGE
    if internal[-1] > _MT_WORDS:
        return catalogue.RANDOM_INDEX_ABOVE.format(most=_MT_WORDS)
    if not internal[0] & 0x80000000 and not any(internal[1:_MT_WORDS]):
        return catalogue.RANDOM_ALL_ZERO
    if gauss is not None and type(gauss) is not float:
        return catalogue.RANDOM_GAUSS
    return None


def diagnose_shuffle(n: int, got: object, before: object, after: object) -> Diagnosis | None:
    """One sentence on why `shuffle_pos(n)` drifted from the course's seeded sequence,
    given the state of `random` before and after the student's call (plain data).

    Used by the tests of assignment 2, section 3 (shuffle_pos).
    """
    # a generator of its own: the replay never touches Python's global `random`, and a
    # state that is not a Mersenne Twister's is refused (`random_state_problem`)
    if random_state_problem(before) is not None:
        return None
    rng = random.Random()
    try:
        rng.setstate(before)  # type: ignore[arg-type]
        want = shuffle_pos(n, rng=rng)
        want_after = rng.getstate()
        if got == want:
            if after is not None and after != want_after:
                return mistake("shuffle-draws-differ", catalogue.SHUFFLE_DRAWS_DIFFER.format(n=n))
            return None
        rng.setstate(before)  # type: ignore[arg-type]
        if got == shuffle_pos(n, allow_undo=True, rng=rng):
            return mistake("shuffle-allows-undo", catalogue.SHUFFLE_ALLOWS_UNDO)
    except (TypeError, ValueError):
        return None
    if isinstance(got, list) and sorted(map(str, got)) == sorted(map(str, want)):
        return mistake("shuffle-order-differs", catalogue.SHUFFLE_ORDER_DIFFERS)
    return None


# ---------------------------------------------------------------------------
# The lecture's layer report ("Iteration k: n new states found.")

def diagnose_report(lines: list[str], sizes: list[int]) -> Diagnosis | None:
    """One sentence on a layer report that is off by one: `lines` as printed, `sizes` the
    right number of new states in each layer 1, 2, ... (the start's layer 0 left out).

    Used by the tests of assignment 2, section 1 (the lecture's search and its report).
    """
    def line(k: int, n: int) -> str:
        return f"Iteration {k}: {n} new states found."
    want = [line(k, n) for k, n in enumerate(sizes, start=1)]
    if lines == want:
        return None
    if lines == [line(k, n) for k, n in enumerate(sizes)]:
        return mistake("report-off-by-one", catalogue.REPORT_OFF_BY_ONE)
    if lines == [line(k, n) for k, n in enumerate([1, *sizes])] or \
            lines == [line(k, n) for k, n in enumerate([1, *sizes], start=1)]:
        return mistake("report-counts-start", catalogue.REPORT_COUNTS_START)
    if lines == want + [line(len(sizes) + 1, 0)]:
        return mistake("report-extra-line", catalogue.REPORT_EXTRA_LINE)
    return None
