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
from .catalogue import EXPANDED_AGAIN, KEEP_VISITED, STALE_ENTRY
from .instrument import Record
from .mistakes import Diagnosis, mistake

#: What a function told a goal says when its answers are the default goal's instead
IGNORES_THE_GOAL = ("it ignores the goal it is given: its answers are those for the default "
                    "goal (the tiles in order, the blank last)")
#: The blank's step (row, column) for each move letter (letters say where the blank goes).
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
#: Where the tile goes when the blank goes `letter`, and the lecture's name of that move.
TILE_GOES = {"D": "up", "U": "down", "R": "left", "L": "right"}
LECTURE_NAME = {"D": "moveUp", "U": "moveDown", "R": "moveLeft", "L": "moveRight"}
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
#: Where the moving tile sits, seen from the blank.
_SIDE = {"D": "below", "U": "above", "R": "to the right of", "L": "to the left of"}
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


def _the_move(want: str | None) -> str:
    if want is None:
        return "the right move"
    return f"`{LECTURE_NAME[want]}` slides the tile {_SIDE[want]} the blank {TILE_GOES[want]}"


def diagnose_move(start: State, got: State, expected: State) -> Diagnosis | None:
    """One sentence on what `got` did to `start` where `expected` was wanted, or None.

    Used by the tests of assignment 1, exercises 3-5 (moveUp, moveDown, moveLeft, moveRight).
    """
    if got == expected or shape(got) != shape(start) or shape(expected) != shape(start):
        return None
    want = _letter_of(start, expected)
    boards = {"start": start, "expected": expected, "got": got}
    if got == start:
        return mistake("board-unchanged", "the board came back unchanged: make the new "
                       "board, swap the two cells in it, and return the new board", **boards)
    have, had = Counter(t for row in got for t in row), Counter(t for row in start for t in row)
    if have != had:
        twice = sorted(t for t in have if have[t] > had.get(t, 0))
        lost = sorted(t for t in had if have.get(t, 0) < had[t])
        lost_words = " and ".join("no blank" if t == 0 else f"no {t}" for t in lost)
        return mistake("tile-copied", f"the board has {' and '.join(map(str, twice))} twice "
                       f"and {lost_words}: a tile was copied instead of swapped with the "
                       f"blank (set both cells)", **boards)
    letter = _letter_of(start, got)
    if letter is not None and want is not None:
        if letter == REVERSE[want]:
            return mistake("blank-moved-not-tile", f"the blank moved {TILE_GOES[want]} "
                           f"instead of the tile: {_the_move(want)} (the name says where the "
                           f"tile goes), so the blank goes {TILE_GOES[letter]}", **boards)
        return mistake("wrong-direction", f"a tile moved {TILE_GOES[letter]}, but "
                       f"{_the_move(want)}", **boards)
    for letter, B in blank_moves(start, wrap=True).items():
        if B == got and want is not None and letter == REVERSE[want]:
            return mistake("blank-moved-not-tile", f"the blank moved {TILE_GOES[want]} "
                           f"instead of the tile, and from the {_EDGE[letter]} Python's index "
                           f"-1 took it round to the other edge: {_the_move(want)} (the name "
                           f"says where the tile goes)", **boards)
        if B == got:
            return mistake("wrap-around", f"the blank swapped with a tile on the far side of "
                           f"the board: from the {_EDGE[letter]}, index -1 is the other edge in "
                           f"Python (it wraps round instead of failing); only a tile next to "
                           f"the blank can slide", **boards)
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
        return mistake("self-in-next-states", "the board itself is among its next states: "
                       "every move changes the board, so leave S out", start=start)
    wrapped = blank_moves(start, wrap=True)
    across = [k for k, B in wrapped.items() if B in got_set - want]
    missing = [k for k, B in blank_moves(start).items() if B in want - got_set]
    if across and missing:
        moves = " and ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return mistake("wrong-move-used", f"a board where the blank jumped across the edge "
                       f"is there, and the board of {moves} is missing: a move function moves "
                       f"the wrong way (its own test above says which; fix it first)",
                       start=start)
    if across:
        edge = " and the ".join(_EDGE[k] for k in across)
        return mistake("wrap-around", f"a board where the blank jumped across the edge is "
                       f"there: with the blank in the {edge}, Python's index -1 wraps round to "
                       f"the other side; check the blank's row and column before each move",
                       start=start, got=wrapped[across[0]])
    if missing and got_set < want:
        moves = ", ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return mistake("move-missing", f"{len(want)} boards are one move away here, yours "
                       f"has {len(got_set)}: {moves} is missing (look at the test that "
                       f"decides whether it can move)", start=start)
    if len(got) != len(got_set):
        return mistake("board-listed-twice",
                       "a board is listed twice: return a set, or each board once")
    far = [B for B in got_set - want if B not in blank_moves(start).values()]
    if far:
        return mistake("not-one-move", f"{len(far)} of the boards are not one move from S: "
                       f"each next state slides exactly one tile next to the blank into it",
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
    return mistake("ignores-the-goal", "it ignores the goal it is given: the path ends at "
                   "the default goal (the tiles in order, the blank last) instead",
                   start=start, expected=goal)


def _path_slip(start: State, goal: State, seq: str | list[State],
               solves: Callable[[str | list[State]], bool]) -> Diagnosis | None:
    """The slip of `diagnose_path` that makes `seq` a solution, if one does."""
    if isinstance(seq, str):
        inverse = seq.translate(str.maketrans("UDLRudlr", "DURLdurl"))
        if seq and solves(inverse):
            return mistake("tile-letters", "the letters say where the tile goes; here a "
                           "letter says where the blank goes (U: the blank moves up, so the "
                           "tile above it comes down)", start=start)
        if seq and solves(inverse[::-1]):
            return mistake("moves-from-goal", "these are the moves from the goal back to the "
                           "start: reverse the string and swap each letter with its opposite",
                           start=start)
        return None
    if len(seq) > 1 and solves(seq[::-1]):
        return mistake("path-backwards", "the path runs from the goal back to the start: "
                       "following the parents from the goal gives it backwards, so reverse "
                       "it (path[::-1])", start=start)
    # (a path that already begins with the start, or ends with the goal, cannot be
    # missing it: the walk along the path that would say so is skipped)
    if seq and seq[0] != start and solves([start, *seq]):
        return mistake("path-without-start", "the path leaves out the start: it should "
                       "begin with the start state", start=start)
    if seq and seq[-1] != goal and solves([*seq, goal]):
        return mistake("path-without-goal", "the path stops one move before the goal: it "
                       "should end with the goal state", start=start)
    if len(seq) > 1 and (solves([*seq[::-1], goal]) or solves([start, *seq[::-1]])):
        return mistake("path-backwards-missing-end", "the path runs backwards and misses an "
                       "end: reverse it, and keep both the start and the goal in it",
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
            where = ("already on the path" if kind == "iterative" else "already seen")
            return mistake("steps-straight-back", f"it stepped straight back to the board it "
                           f"came from ({_flat_text(a)} → {_flat_text(b)} → {_flat_text(a)}): "
                           f"skip a next state that is {where}", start=a, got=b)
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
                return mistake("bfs-takes-newest", f"it expanded a board {seen_far} moves "
                               f"from the start before one only {d} moves away: breadth-first "
                               f"search takes the oldest board out of its queue (popleft), "
                               f"not the newest (pop)", start=start, got=board)
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
            return mistake("cost-counts-moves", f"the total is the number of moves "
                           f"({moves}), not the price of the path: add each move's price "
                           f"(cost[letter]) to the cost so far, not 1", start=start)
        if by_tiles and not by_moves:
            return mistake("cost-tile-prices", "the total prices each move by the way the "
                           "tile goes; a price here is for the blank's move (U: the blank "
                           "moves up)", start=start)
        return mistake("cost-total-wrong",
                       "the total must be the sum of the prices of the path's moves")
    if paid <= cheapest:
        return None
    return mistake("ucs-stops-early", f"a cheaper path exists ({cheapest:g}): uniform-cost "
                   f"search takes out the board with the lowest cost so far (each move adding "
                   f"its price, cost[letter]) and stops when the goal comes out of the queue, "
                   f"not when it is first put in", start=start)


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
    return f"your h gives {got} for this board; the right value is {expected}"


def _heuristic_rules(name: str) -> Rules:
    """The wrong rules a student's heuristic `name` ("manhattan", "hamming") follows."""
    h = manhattan if name == "manhattan" else hamming

    def rules(S: State, goal: State) -> dict[str, tuple[object, str, str]]:
        rows, cols = shape(S)
        (r, c), (gr, gc) = _blank(S), _blank(goal)
        if name == "manhattan":
            blank = abs(r - gr) + abs(c - gc)
            counted = ("it counts the blank as a tile: the blank is not a tile (moving it "
                       "is what every move does), so leave it out, or h overestimates")
        else:
            blank = int((r, c) != (gr, gc))
            counted = ("it counts the blank as a misplaced tile: leave the blank out, or h "
                       "overestimates")
        found: dict[str, tuple[object, str, str]] = {
            "counts-blank": (h(S, goal) + blank, "heuristic-counts-blank", counted)}
        default = goal_state(rows, cols)
        if default != goal:
            found["default-goal"] = (h(S, default), "ignores-the-goal", IGNORES_THE_GOAL)
        first = goal_state(rows, cols, blank="first")
        if first != goal:
            found["blank-first-goal"] = (h(S, first), "heuristic-other-goal", "it measures "
                                         "against the goal with the blank first, not the "
                                         "goal it is given")
        if name == "manhattan":
            found["hamming"] = (hamming(S, goal), "manhattan-is-hamming", "it counts the "
                                "misplaced tiles (Hamming), not how many steps each tile is "
                                "from its place")
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
                       "it adds 2 for every conflicting pair; when one tile conflicts with "
                       "several in a line, only the tiles that must leave the line count (the "
                       "line's tiles minus its longest run already in order), 2 moves each"),
        "missing": (md, "conflict-missing", "it is the Manhattan distance alone: the "
                    "conflicts add nothing yet")}
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
        found["tiles-only"] = (tiles_only, "parity-ignores-blank-row", f"the board is {cols} "
                               f"wide, an even width: there a move up or down changes the "
                               f"parity of the inversions, so the blank's row counts too "
                               f"(inversions plus the rows between the blank and its goal row "
                               f"must be even)")
    else:
        found["with-row"] = (with_row, "parity-counts-blank-row", f"the board is {cols} "
                             f"wide, an odd width: there a move up or down keeps the parity "
                             f"of the inversions, so only the inversions count, not the "
                             f"blank's row")
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
        return "not a tuple of three"
    version, internal, gauss = state
    if version != 3 or type(version) is not int:
        return "not version 3"
    if type(internal) is not tuple or len(internal) != _MT_WORDS + 1:
        return f"not {_MT_WORDS + 1} numbers"
    if not all(type(w) is int and 0 <= w < 2 ** 32 for w in internal):
        return "numbers outside 0 .. 2**32 - 1"
    if internal[-1] > _MT_WORDS:
        return f"an index above {_MT_WORDS}"
    if not internal[0] & 0x80000000 and not any(internal[1:_MT_WORDS]):
        return "the all-zero state, which draws 0 for ever"
    if gauss is not None and type(gauss) is not float:
        return "a next gauss that is not a float"
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
                return mistake("shuffle-draws-differ", f"shuffle_pos({n}) itself is right, "
                               f"but it drew a different number of random numbers than the "
                               f"course's, so every position after it drifts: one "
                               f"random.randint(0, 3) per try, and a new try only when the "
                               f"move leaves the board or undoes the last one")
            return None
        rng.setstate(before)  # type: ignore[arg-type]
        if got == shuffle_pos(n, allow_undo=True, rng=rng):
            return mistake("shuffle-allows-undo", "it lets a move undo the one before (the "
                           "gap steps straight back): the course's shuffle draws again when "
                           "a move would undo the last one")
    except (TypeError, ValueError):
        return None
    if isinstance(got, list) and sorted(map(str, got)) == sorted(map(str, want)):
        return mistake("shuffle-order-differs", "the position differs from the course's for "
                       "the same seed: draw each move with random.randint(0, 3) (0 up, 1 "
                       "left, 2 down, 3 right: where the tile goes) and draw again when it "
                       "leaves the board or undoes the last move")
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
        return mistake("report-off-by-one", "the report is off by one: the first layer of "
                       "new states is Iteration 1 (count k up before printing)")
    if lines == [line(k, n) for k, n in enumerate([1, *sizes])] or \
            lines == [line(k, n) for k, n in enumerate([1, *sizes], start=1)]:
        return mistake("report-counts-start", "the report counts the start as a layer: "
                       "print only the layers of new states, from Iteration 1 (3 new states "
                       "here) on")
    if lines == want + [line(len(sizes) + 1, 0)]:
        return mistake("report-extra-line", "the report has one line too many: the last "
                       "layer found the goal, so stop before searching a layer with no new "
                       "states")
    return None
