"""Why a test cell failed: the mistake named from the boards, paths and numbers alone
(`puzzlekit.testcells.diagnose`); each is said under a named mistake of
`puzzlekit.testcells.mistakes`."""

from __future__ import annotations

from .message import Message, TEST_CELL

# ---------------------------------------------------------------------------
# A move (moveUp, moveDown, moveLeft, moveRight)

#: what a move does (the {move} of `BLANK_MOVED_NOT_TILE`, `BLANK_WRAPPED_NOT_TILE` and
#: `WRONG_DIRECTION`): {side} is `SIDE_BELOW`, `SIDE_ABOVE`, `SIDE_RIGHT_OF` or `SIDE_LEFT_OF`
SLIDES_THE_TILE = Message("`{move}` slides the tile {side} the blank {way}", shown=TEST_CELL,
                          example={"move": "moveUp", "side": "below", "way": "up"})
SIDE_BELOW = Message("below", shown=TEST_CELL)
SIDE_ABOVE = Message("above", shown=TEST_CELL)
SIDE_RIGHT_OF = Message("to the right of", shown=TEST_CELL)
SIDE_LEFT_OF = Message("to the left of", shown=TEST_CELL)
BOARD_UNCHANGED = Message("the board came back unchanged: make the new board, swap the two "
                          "cells in it, and return the new board", shown=TEST_CELL)
#: {twice}: "5" or "5 and 7"; {lost}: "no blank", "no 3 and no blank"
TILE_COPIED = Message("the board has {twice} twice and {lost}: a tile was copied instead of "
                      "swapped with the blank (set both cells)", shown=TEST_CELL,
                      example={"twice": "5", "lost": "no blank"})
BLANK_MOVED_NOT_TILE = Message("the blank moved {way} instead of the tile: {move} (the name "
                               "says where the tile goes), so the blank goes {blank}",
                               shown=TEST_CELL,
                               example={"way": "up", "blank": "down",
                                        "move": "`moveUp` slides the tile below the blank up"})
#: the blank moved the tile's way off an edge, and Python's index -1 brought it round
BLANK_WRAPPED_NOT_TILE = Message("the blank moved {way} instead of the tile, and from the "
                                 "{edge} Python's index -1 took it round to the other edge: "
                                 "{move} (the name says where the tile goes)",
                                 shown=TEST_CELL,
                                 example={"way": "left", "edge": "first column",
                                          "move": "`moveLeft` slides the tile to the right "
                                                  "of the blank left"})
WRONG_DIRECTION = Message("a tile moved {way}, but {move}", shown=TEST_CELL,
                          example={"way": "down",
                                   "move": "`moveUp` slides the tile below the blank up"})
WRAPPED_ROUND = Message("the blank swapped with a tile on the far side of the board: from "
                        "the {edge}, index -1 is the other edge in Python (it wraps round "
                        "instead of failing); only a tile next to the blank can slide",
                        shown=TEST_CELL, example={"edge": "first row"})

# ---------------------------------------------------------------------------
# The next states (nextStates)

SELF_IN_NEXT_STATES = Message("the board itself is among its next states: every move changes "
                              "the board, so leave S out", shown=TEST_CELL)
WRONG_MOVE_USED = Message("a board where the blank jumped across the edge is there, and the "
                          "board of {moves} is missing: a move function moves the wrong way "
                          "(its own test above says which; fix it first)", shown=TEST_CELL,
                          example={"moves": "`moveUp`"})
JUMPED_ACROSS = Message("a board where the blank jumped across the edge is there: with the "
                        "blank in the {edge}, Python's index -1 wraps round to the other "
                        "side; check the blank's row and column before each move",
                        shown=TEST_CELL, example={"edge": "first row and the first column"})
MOVE_MISSING = Message("{want} boards are one move away here, yours has {got}: {moves} is "
                       "missing (look at the test that decides whether it can move)",
                       shown=TEST_CELL, example={"want": 3, "got": 2, "moves": "`moveUp`"})
BOARD_LISTED_TWICE = Message("a board is listed twice: return a set, or each board once",
                             shown=TEST_CELL)
NOT_ONE_MOVE = Message("{far} of the boards are not one move from S: each next state slides "
                       "exactly one tile next to the blank into it", shown=TEST_CELL,
                       example={"far": 2})

# ---------------------------------------------------------------------------
# A path

#: a path that solves the default goal's puzzle, where another goal was given
PATH_TO_DEFAULT_GOAL = Message("it ignores the goal it is given: the path ends at the default "
                               "goal (the tiles in order, the blank last) instead",
                               shown=TEST_CELL)
TILE_LETTERS = Message("the letters say where the tile goes; here a letter says where the "
                       "blank goes (U: the blank moves up, so the tile above it comes down)",
                       shown=TEST_CELL)
MOVES_FROM_GOAL = Message("these are the moves from the goal back to the start: reverse the "
                          "string and swap each letter with its opposite", shown=TEST_CELL)
PATH_BACKWARDS = Message("the path runs from the goal back to the start: following the "
                         "parents from the goal gives it backwards, so reverse it "
                         "(path[::-1])", shown=TEST_CELL)
PATH_WITHOUT_START = Message("the path leaves out the start: it should begin with the start "
                             "state", shown=TEST_CELL)
PATH_WITHOUT_GOAL = Message("the path stops one move before the goal: it should end with the "
                            "goal state", shown=TEST_CELL)
PATH_BACKWARDS_MISSING_END = Message("the path runs backwards and misses an end: reverse it, "
                                     "and keep both the start and the goal in it",
                                     shown=TEST_CELL)

# ---------------------------------------------------------------------------
# How a search explored (from the record of its successor function)

#: {boards}: the three boards, flat ("1_2345678 → 12_345678 → 1_2345678"); {where} is
#: `ALREADY_ON_THE_PATH` (iterative deepening) or `ALREADY_SEEN`
STEPS_STRAIGHT_BACK = Message("it stepped straight back to the board it came from ({boards}): "
                              "skip a next state that is {where}", shown=TEST_CELL,
                              example={"boards": "1_2345678 → 12_345678 → 1_2345678",
                                       "where": "already seen"})
ALREADY_ON_THE_PATH = Message("already on the path", shown=TEST_CELL)
ALREADY_SEEN = Message("already seen", shown=TEST_CELL)
BFS_TAKES_NEWEST = Message("it expanded a board {far} moves from the start before one only "
                           "{near} moves away: breadth-first search takes the oldest board "
                           "out of its queue (popleft), not the newest (pop)", shown=TEST_CELL,
                           example={"far": 3, "near": 1})

# ---------------------------------------------------------------------------
# Prices (uniform-cost search)

COST_COUNTS_MOVES = Message("the total is the number of moves ({moves}), not the price of the "
                            "path: add each move's price (cost[letter]) to the cost so far, "
                            "not 1", shown=TEST_CELL, example={"moves": 4})
COST_TILE_PRICES = Message("the total prices each move by the way the tile goes; a price here "
                           "is for the blank's move (U: the blank moves up)", shown=TEST_CELL)
COST_TOTAL_WRONG = Message("the total must be the sum of the prices of the path's moves",
                           shown=TEST_CELL)
UCS_STOPS_EARLY = Message("a cheaper path exists ({cheapest:g}): uniform-cost search takes out "
                          "the board with the lowest cost so far (each move adding its price, "
                          "cost[letter]) and stops when the goal comes out of the queue, not "
                          "when it is first put in", shown=TEST_CELL,
                          example={"cheapest": 7.5})

# ---------------------------------------------------------------------------
# A heuristic, linear conflict, can_reach: a wrong rule that alone gives the answers

#: a heuristic, `can_reach` or linear conflict whose answers are the default goal's
IGNORES_THE_GOAL = Message("it ignores the goal it is given: its answers are those for the "
                           "default goal (the tiles in order, the blank last)",
                           shown=TEST_CELL)
COUNTS_BLANK_AS_TILE = Message("it counts the blank as a tile: the blank is not a tile (moving "
                               "it is what every move does), so leave it out, or h "
                               "overestimates", shown=TEST_CELL)
COUNTS_BLANK_AS_MISPLACED = Message("it counts the blank as a misplaced tile: leave the blank "
                                    "out, or h overestimates", shown=TEST_CELL)
BLANK_FIRST_GOAL = Message("it measures against the goal with the blank first, not the goal "
                           "it is given", shown=TEST_CELL)
#: a heuristic's wrong value when no one rule explains it ({name}: "h", or the exercise's
#: "manhattan" where its check reads the student's own)
H_GIVES = Message("your {name} gives {got} for this board; the right value is {right}",
                  shown=TEST_CELL, example={"name": "h", "got": 7, "right": 9})
MANHATTAN_IS_HAMMING = Message("it counts the misplaced tiles (Hamming), not how many steps "
                               "each tile is from its place", shown=TEST_CELL)
CONFLICT_EVERY_PAIR = Message("it adds 2 for every conflicting pair; when one tile conflicts "
                              "with several in a line, only the tiles that must leave the line "
                              "count (the line's tiles minus its longest run already in "
                              "order), 2 moves each", shown=TEST_CELL)
CONFLICT_MISSING = Message("it is the Manhattan distance alone: the conflicts add nothing yet",
                           shown=TEST_CELL)
PARITY_EVEN_WIDTH = Message("the board is {cols} wide, an even width: there a move up or down "
                            "changes the parity of the inversions, so the blank's row counts "
                            "too (inversions plus the rows between the blank and its goal row "
                            "must be even)", shown=TEST_CELL, example={"cols": 4})
PARITY_ODD_WIDTH = Message("the board is {cols} wide, an odd width: there a move up or down "
                           "keeps the parity of the inversions, so only the inversions count, "
                           "not the blank's row", shown=TEST_CELL, example={"cols": 3})

# ---------------------------------------------------------------------------
# The seeded scramble (shuffle_pos)

#: what is wrong with the state a kernel left Python's `random` in (the {why} of
#: `BAD_RANDOM`)
RANDOM_NOT_THREE = Message("not a tuple of three", shown=TEST_CELL)
RANDOM_NOT_VERSION_3 = Message("not version 3", shown=TEST_CELL)
RANDOM_NOT_WORDS = Message("not {count} numbers", shown=TEST_CELL, example={"count": 625})
RANDOM_OUT_OF_RANGE = Message("numbers outside 0 .. 2**32 - 1", shown=TEST_CELL)
RANDOM_INDEX_ABOVE = Message("an index above {most}", shown=TEST_CELL, example={"most": 624})
RANDOM_ALL_ZERO = Message("the all-zero state, which draws 0 for ever", shown=TEST_CELL)
RANDOM_GAUSS = Message("a next gauss that is not a float", shown=TEST_CELL)
SHUFFLE_DRAWS_DIFFER = Message("shuffle_pos({n}) itself is right, but it drew a different "
                               "number of random numbers than the course's, so every position "
                               "after it drifts: one random.randint(0, 3) per try, and a new "
                               "try only when the move leaves the board or undoes the last "
                               "one", shown=TEST_CELL, example={"n": 3})
SHUFFLE_ALLOWS_UNDO = Message("it lets a move undo the one before (the gap steps straight "
                              "back): the course's shuffle draws again when a move would undo "
                              "the last one", shown=TEST_CELL)
SHUFFLE_ORDER_DIFFERS = Message("the position differs from the course's for the same seed: "
                                "draw each move with random.randint(0, 3) (0 up, 1 left, 2 "
                                "down, 3 right: where the tile goes) and draw again when it "
                                "leaves the board or undoes the last move", shown=TEST_CELL)

# ---------------------------------------------------------------------------
# The lecture's layer report ("Iteration k: n new states found.")

REPORT_OFF_BY_ONE = Message("the report is off by one: the first layer of new states is "
                            "Iteration 1 (count k up before printing)", shown=TEST_CELL)
REPORT_COUNTS_START = Message("the report counts the start as a layer: print only the layers "
                              "of new states, from Iteration 1 (3 new states here) on",
                              shown=TEST_CELL)
REPORT_EXTRA_LINE = Message("the report has one line too many: the last layer found the goal, "
                            "so stop before searching a layer with no new states",
                            shown=TEST_CELL)
