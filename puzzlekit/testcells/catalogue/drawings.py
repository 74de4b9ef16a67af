"""A search drawn from what it did (`puzzlekit.testcells.see.see_search`), and the words of
the recorder of its successor function (`puzzlekit.testcells.instrument`)."""

from __future__ import annotations

from .message import EXAMPLE, Message, TEST_CELL

#: how a recorder calls a successor function that has no name of its own
THE_SUCCESSOR_FUNCTION = Message("the successor function", shown=TEST_CELL)
#: a recorder made for a function of the notebook recorded by name, called before it has one
NO_FUNCTION_TO_CALL = Message("the recorder of {name} has no function to call",
                              shown=TEST_CELL, example={"name": "nextStates"})
#: the reference drawn for `search` (the lecture's search), when it is not written yet
LAYER_BY_LAYER = Message("breadth-first search (layer by layer)", shown=EXAMPLE)
#: the note of a drawing whose search is not written yet: {search} names the reference
NOT_WRITTEN_DRAWN = Message("{name} is not written yet (NotImplementedError), so this is what "
                            "puzzlekit's {search} does on this board, drawn the same way.",
                            shown=EXAMPLE, example={"name": "bfs",
                                                    "search": "breadth-first search"})
#: the note of a drawing whose search was stopped: {why} is the words of a test's limit
STOPPED = Message("It was stopped: {why}", shown=EXAMPLE,
                  example={"why": "the search called nextStates 2,001 times, more than a "
                                  "search needs on this board"})
STOPPED_TOO_DEEP = Message("It was stopped: it went deeper than Python's recursion limit "
                           "(RecursionError).", shown=EXAMPLE)
#: the reference itself asked for more boards than a drawing allows
STOPPED_AFTER = Message("It was stopped after {limit:,} expansions.", shown=EXAMPLE,
                        example={"limit": 2000})
STOPPED_WITH = Message("It stopped with {error}: {words} (the drawing shows what it expanded "
                       "before).", shown=EXAMPLE,
                       example={"error": "IndexError", "words": "tuple index out of range"})
#: what the search returned, when it is not a path that can be drawn
NOT_A_PATH_FROM_START = Message("Its moves {moves!r} are not a path from the start: {why}",
                                shown=EXAMPLE,
                                example={"moves": "UUL", "why": "move 2 ('U') is illegal: the "
                                         "blank at row 0, column 1 cannot go up on a 3×3 "
                                         "board"})
PATH_TOO_LONG = Message("It returned a path of {moves:,} moves, too long to draw.",
                        shown=EXAMPLE, example={"moves": 1200})
NOT_A_PATH = Message("It returned a {kind}, which is not a path ({result!r:.60}).",
                     shown=EXAMPLE, example={"kind": "dict", "result": {"U": 1}})
