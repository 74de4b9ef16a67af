"""What a test cell's failure adds: the boards, the paths, what was returned
(`puzzlekit.testcells`)."""

from __future__ import annotations

from .message import EXAMPLE, Message, TEST_CELL

#: How a diagnosis found earlier in a failing cell begins its line (the feedback keeps a
#: hidden test's lines that begin with "why": `puzzlekit.course.feedback`)
EARLIER = Message("why (seen before this failure): ", shown=TEST_CELL)
#: a diagnosis seen on an easier board, added to a later time-out
SEEN_EASIER = Message("\nwhy (seen on an easier board): {why}", shown=TEST_CELL,
                      example={"why": "it expanded some boards more than once"})
#: the one sentence for a call of a reference the exercise forbids
FORBIDDEN = Message("your code called puzzlekit's ready-made {name};\nthis exercise asks "
                    "you to write it yourself", shown=TEST_CELL, example={"name": "bfs"})
#: a function that returned None where a path was wanted: what was seen of the board
NO_PATH_FOUND = Message("it returned None: it found no path from this board ({away})",
                        shown=TEST_CELL, example={"away": "12 moves from the goal"})
RETURNED_NONE_FOR = Message("it returned None for {board}", shown=TEST_CELL,
                            example={"board": "a board 12 moves from the goal"})
RETURNED_NONE = Message("it returned None", shown=TEST_CELL)
REACHABLE = Message("the goal can be reached from it", shown=TEST_CELL)
IS_THE_GOAL = Message("0 moves from the goal: it is the goal itself", shown=TEST_CELL)
MOVES_AWAY = Message("{moves} move{s} from the goal", shown=TEST_CELL,
                     example={"moves": 12, "s": "s"})
A_REACHABLE_BOARD = Message("a board from which the goal can be reached", shown=TEST_CELL)
A_GOAL_BOARD = Message("a board 0 moves from the goal, the goal itself", shown=TEST_CELL)
A_BOARD_AWAY = Message("a board {moves} move{s} from the goal", shown=TEST_CELL,
                       example={"moves": 12, "s": "s"})
#: a function whose code has a `return` gave None: which one did it reach?
WHICH_RETURN = Message("(`{name}` returned None here; it {have}: which `return`, or the end "
                       "of the function, did it reach for this case?)", shown=TEST_CELL,
                       example={"name": "bfs", "have": "returns a value elsewhere"})
RETURNS_ELSEWHERE = Message("returns a value elsewhere", shown=TEST_CELL)
HAS_A_RETURN = Message("has a `return`", shown=TEST_CELL)
#: the boards of `assert_board_equal`
NOT_THE_BOARD = Message("{what} is not the expected board", shown=TEST_CELL,
                        example={"what": "moveUp(S, 1, 1)"})
BOARD_IS_NONE = Message("{what} should be the board\n{want}\nbut it is None, nothing.",
                        shown=TEST_CELL, example={"what": "moveUp(S, 1, 1)",
                                                  "want": "1 2 3\n4 _ 5\n6 7 8"})
NOT_A_BOARD = Message("{head} should be the board\n{want}\nbut it is {got}, which is not a "
                      "board", shown=TEST_CELL, example={"head": "moveUp(S, 1, 1)",
                                                         "want": "1 2 3\n4 _ 5\n6 7 8",
                                                         "got": "[1, 2, 3]"})
#: `assert_solution`'s words
NOT_A_SEQUENCE = Message("{what} should be a list of states or a string of moves, got "
                         "{kind}", shown=TEST_CELL, example={"what": "bfs(S, G)",
                                                             "kind": "int"})
NOT_SHORTEST = Message("{what} has {length} moves, but the shortest solution has {best}: "
                       "yours is {more}", shown=TEST_CELL,
                       example={"what": "bfs(S, G)", "length": 14, "best": 12,
                                "more": "longer"})
#: `assert_prints_path`'s words
PRINTS_OTHER_BOARDS = Message(
    "{what} should print {boards} board{s} ({moves} move{ms}), but the numbers printed are "
    "not those of the boards along the moves. It printed:\n{text}", shown=TEST_CELL,
    example={"what": "printPath(S, 'UL')", "boards": 3, "s": "s", "moves": 2, "ms": "s",
             "text": "1 2 3"})
MOVE_LETTERS = Message("the move letters {what} prints between the boards", shown=TEST_CELL,
                       example={"what": "printPath(S, 'UL')"})
NOT_WRITTEN_NOTHING = Message("({name} is not written yet: nothing to show.)",
                              shown=EXAMPLE, example={"name": "bfs"})
NOT_WRITTEN_REFERENCE = Message("({name} is not written yet, so here is puzzlekit's "
                                "answer.)", shown=EXAMPLE, example={"name": "bfs"})
