"""What the course's exercise checks say when a test fails, notebook by notebook
(`puzzlekit.testcells.checks`).

A message that ends in a noun (``the numbers on the board``, ``the first state of {what}``)
is the `what` of a comparison: `assert_equal` and `assert_board_equal` put it in their own
sentence (``... is not the expected board``)."""

from __future__ import annotations

from .message import Message, TEST_CELL

# ---------------------------------------------------------------------------
# Notebook 01, States and moves (`puzzlekit.testcells.checks.states_and_moves`)

GOAL_NOT_A_TUPLE = Message("goal should be a tuple (of rows), not a list", shown=TEST_CELL)
GOAL_ROWS = Message("goal should have 3 rows", shown=TEST_CELL)
GOAL_ROW_NOT_A_TUPLE = Message("each row of goal should be a tuple of 3 numbers (not a list)",
                               shown=TEST_CELL)
#: the `what` of comparing the goal's numbers, sorted, with 0 to 8
NUMBERS_ON_THE_BOARD = Message("the numbers on the board", shown=TEST_CELL)
#: the goal of the courses that put the blank last
GOAL_BLANK_LAST = Message("the lecture's goal has the blank (0) in the top-left corner; "
                          "(1, 2, 3), (4, 5, 6), (7, 8, 0) is another course's goal",
                          shown=TEST_CELL)
#: the goal's tiles written down the columns
GOAL_BY_COLUMNS = Message("the tiles follow in reading order: along the first row, then "
                          "the second (not down the columns)", shown=TEST_CELL)
#: the named mistake findZero-column-row
FIND_ZERO_COLUMN_ROW = Message("it returned (column, row); findZero returns (row, column), "
                               "the row first", shown=TEST_CELL)
#: the named mistake board-not-tuple: {got} is the repr of what moveUp returned
MOVE_UP_NOT_TUPLES = Message("moveUp should return a tuple of tuples (use tupleOfTuples), "
                             "got {got}", shown=TEST_CELL,
                             example={"got": "[[1, 2, 3], [4, 0, 5], [6, 7, 8]]"})
#: the named mistake list-not-set (2 of the 3 points)
NEXT_STATES_IN_A_LIST = Message("nextStates returns its states in a list; the exercise asks "
                                "for a set (return set(...), or build one)", shown=TEST_CELL)
#: {kind}: the name of the type gen_successors returned
SUCCESSORS_NOT_A_LIST = Message("gen_successors should return a list, got {kind}",
                                shown=TEST_CELL, example={"kind": "tuple"})
SUCCESSORS_NONE = Message("gen_successors should return a list, got NoneType (did it forget "
                          "to `return` it?)", shown=TEST_CELL)
SUCCESSORS_NOT_BLOCKS = Message("the list has {items} items, not a multiple of {size}",
                                shown=TEST_CELL, example={"items": 10, "size": 4})
#: the named mistake tile-letters
LETTERS_SAY_WHERE_THE_TILE_WENT = Message(
    "each new letter says where the tile went; in this course a letter says where the "
    "blank moves (D: the blank moves down, the tile below it up)", shown=TEST_CELL)
#: the `what` of comparing gen_successors' successors with the right ones
SUCCESSORS_OF = Message("the successors of {node}", shown=TEST_CELL,
                        example={"node": "[1, 2, 3, 4, 0, 5, 6, 7, 8, '']"})
#: the `what` of comparing the length of gen_successors' list with the right one
SUCCESSOR_LIST_LENGTH = Message("the length of the successor list ({items} items for each "
                                "of {moves} moves)", shown=TEST_CELL,
                                example={"items": 10, "moves": 4})
PRINTED_NOTHING = Message("{name} printed nothing: it should print the rows (not return "
                          "them)", shown=TEST_CELL, example={"name": "print_pos"})
#: the named mistake print-spacing (the braces are the format's own, not a parameter:
#: format it with no parameters)
PRINT_SPACING = Message("the numbers and rows are right, the spacing is not: each square "
                        "takes 3 characters, the number at its right end (f\"{{x:>3}}\"), "
                        "the gap 3 spaces", shown=TEST_CELL)
PUZZLES_EQUAL = Message("two puzzles with the same squares should be equal", shown=TEST_CELL)
PUZZLES_NOT_EQUAL = Message("puzzles with different squares should not be equal",
                            shown=TEST_CELL)
#: the `what` of comparing len({a, b}) of two equal EightPuzzles with 1
SET_OF_EQUAL_PUZZLES = Message("the size of a set holding two equal puzzles", shown=TEST_CELL)
#: the `what` of comparing the first of EightPuzzle's successors with the right one
SUCCESSOR_BLANK_LEFT = Message("the successor for moving the blank left", shown=TEST_CELL)

# ---------------------------------------------------------------------------
# Notebook 02, Uninformed search (`puzzlekit.testcells.checks.uninformed_search`)

#: puzzlekit's own search found no path for the search report's test: a fault of the kit
LECTURE_GOAL_REACHABLE = Message("the lecture's goal can be reached from its start",
                                 shown=TEST_CELL)
#: the `what` of comparing a search's first printed line with the lecture's
FIRST_LINE_PRINTED = Message("the first line printed", shown=TEST_CELL)
#: the `what` of comparing the number of lines a search printed with its layers
LINES_PRINTED = Message("the number of lines printed (one per layer: {layers} layers)",
                        shown=TEST_CELL, example={"layers": 31})
#: the `what` of comparing the path dfs returned with a path from start to goal
DFS_PATH = Message("the path dfs returned", shown=TEST_CELL)
#: {why}: what the evidence says (`diagnose_cost`); 2 of the 4 points
UCS_TOTAL_NOT_ITS_PRICE = Message(
    "the total ucs returned for {what} is {total}, but that path costs {price}: {why}",
    shown=TEST_CELL, example={"what": "the path ucs returned", "total": 12, "price": 14,
                              "why": "the total counts one move twice"})
#: {why}: what the evidence says (`diagnose_cost`); 2 of the 4 points
NOT_CHEAPEST = Message("{what} costs {price}, but the cheapest path costs {cheapest}: {why}",
                       shown=TEST_CELL, example={"what": "the path ucs returned", "price": 14,
                                                 "cheapest": 12,
                                                 "why": "it stops when it first sees the "
                                                        "goal"})
#: the `what` of comparing shuffle_pos's position with the course's
SHUFFLE_AFTER_SEED = Message("shuffle_pos({n}) after random.seed({seed}) and the calls "
                             "before it", shown=TEST_CELL, example={"n": 3, "seed": 1})
#: the `what` of comparing what solve_pos returned with the shortest solution's moves
SOLVE_POS_MOVES = Message("solve_pos({position}, 20) should return the number of moves",
                          shown=TEST_CELL,
                          example={"position": "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, "
                                               "13, 14, ' ', 15]"})
SOLVE_POS_UNSOLVED = Message("solve_pos printed 'unsolved' for a board it solved",
                             shown=TEST_CELL)
SOLVE_POS_PRINTED_NOTHING = Message("solve_pos should print the positions along the way",
                                    shown=TEST_CELL)

# ---------------------------------------------------------------------------
# The paths of notebooks 02 to 04 (`puzzlekit.testcells.checks.paths`)

#: the `what` of comparing a path's first state with the start
FIRST_STATE_OF = Message("the first state of {what}", shown=TEST_CELL,
                         example={"what": "the path dfs returned"})
#: the `what` of comparing a path's last state with the goal
LAST_STATE_OF = Message("the last state of {what}", shown=TEST_CELL,
                        example={"what": "the path dfs returned"})

# ---------------------------------------------------------------------------
# Notebook 03, Informed search (`puzzlekit.testcells.checks.informed_search`)

#: the named mistake astar-not-shortest: a right but longer path of astar's
ASTAR_SHORTEST_HINT = Message(
    "with an h that never overestimates, A* finds a shortest path when its priority is "
    "g + h (the moves so far plus h) and it stops only when the goal comes out of the "
    "queue", shown=TEST_CELL)
#: the `what` of astar's path; {h}: the heuristic's name
ASTAR_PATH = Message("astar's path for a board {moves} moves from the goal ({h})",
                     shown=TEST_CELL, example={"moves": 12, "h": "manhattan"})
#: the named mistake inversions-count-blank
INVERSIONS_COUNT_BLANK = Message("it counts the blank as a tile 0: leave '_' out of the "
                                 "sequence", shown=TEST_CELL)
#: the `what` of comparing the solver's last printed line with the right one
LAST_LINE_PRINTED = Message("the last line printed", shown=TEST_CELL)
#: the `what` of the boards the solver printed, as a path
BOARDS_PRINTED = Message("the boards printed", shown=TEST_CELL)
#: which of the student's own parts the solver uses is wrong for a board (the named
#: mistake own-part-wrong: the parts found, joined by "; "). {can}: "can" or "cannot"
OWN_SOLVABLE_WRONG = Message("your solvable returns {said} for this board, which {can} be "
                             "solved", shown=TEST_CELL, example={"said": True,
                                                                 "can": "cannot"})
#: {got}: "a path of N moves", or the repr of what astar returned
OWN_ASTAR_WRONG = Message("your astar(S, goal, puzzlekit.manhattan) returns {got}; the "
                          "shortest has {shortest}", shown=TEST_CELL,
                          example={"got": "a path of 14 moves", "shortest": 12})
#: the solver's failure: {part} is the own-part-wrong sentence, {error} the comparison's
SOLVER_ON_THE_BOARD = Message(
    "on the board {board}: {part}\n{error}", shown=TEST_CELL,
    example={"board": "((1, 2, 3), (4, 0, 5), (6, 7, 8))",
             "part": "your manhattan gives 14 for this board; the right value is 16",
             "error": "the last line printed\n  expected: 'Minimum number of moves = 12'"
                      "\n  got:      'Minimum number of moves = 14'"})
#: added to the solver's failure when it printed other lines between the boards
PRINTED_NOT_BOARDS = Message("\n(it also printed lines that are not boards: {lines})",
                             shown=TEST_CELL, example={"lines": "['f = 12', 'f = 14']"})

# ---------------------------------------------------------------------------
# Notebook 04, The fifteen puzzle (`puzzlekit.testcells.checks.fifteen_puzzle`)

#: the named mistake idastar-not-shortest: a right but longer path of idastar's
IDASTAR_SHORTEST_HINT = Message(
    "with an h that never overestimates, IDA* finds a shortest path when each round cuts "
    "off at f = g + h > bound and the next bound is the smallest f that was cut off",
    shown=TEST_CELL)
