"""A cell's error, in the student's notebook (`puzzlekit.testcells.messages.explain`)."""

from __future__ import annotations

from .message import Message, NOTEBOOK

#: the line every untouched exercise stub raises at
STUB = "raise NotImplementedError()"
# the first line stays short: a notebook's output area is about 100 characters wide
NOT_WRITTEN = Message(
    "{name} is not written yet: replace\n`" + STUB + "` in its cell with your "
    "code, run that cell, then this one.", shown=NOTEBOOK, example={"name": "`findZero`"})
NOT_WRITTEN_CELL = Message(
    "this exercise is not written yet: replace\n`" + STUB + "` with your code and run "
    "the cell again.", shown=NOTEBOOK)
NOT_DEFINED = Message(
    "name '{name}' is not defined yet: the exercise that defines `{name}` is above;\nwrite "
    "it and run its cell first (Run All runs every cell in order).",
    shown=NOTEBOOK, example={"name": "nextStates"})
#: a name puzzlekit gives (the notebook's setup cell imports it): after a restart the setup
#: cell has not run again
NOT_IMPORTED = Message(
    "name '{name}' is not defined: it comes from puzzlekit, which the setup cell at the "
    "top of the notebook imports;\nrun that cell again (after a restart, Run All runs "
    "every cell in order).", shown=NOTEBOOK, example={"name": "goal_state"})
NOT_DEFINED_RAISED = Message(
    "name '{name}' is not defined: its cell raised {error} before defining `{name}`;\nfix "
    "that error and run the cell again.",
    shown=NOTEBOOK, example={"name": "moveUp", "error": "KeyError: 15"})
#: said only when the function's own code was read and has no `return` statement at all
NO_RETURN = Message(
    "(`{name}` has no `return` statement, so it returns None: did it forget to `return` "
    "its result?)", shown=NOTEBOOK, example={"name": "findZero"})
#: what was seen when no function's code says why a value is None
NONE_SEEN = Message(
    "(a value here is None: look at which call gave it; a function gives None when it "
    "reaches a `return None`, a bare `return` or its end)", shown=NOTEBOOK)
CALLED_A_BOARD = Message(
    "(your code called a board, a tuple or list, as if it were a function: are its\n"
    "arguments in the order the exercise gives, with the successor function where it "
    "says?)", shown=NOTEBOOK)
PAST_THE_EDGE = Message(
    "(a row or column past the edge of the board: check that the blank can move that way "
    "before moving it)", shown=NOTEBOOK)
#: an index error on a board that is not 3×3 (`PAST_THE_EDGE` is for 3×3 boards)
OTHER_SIZE = Message(
    "(on a {rows}×{cols} board: does your code assume a 3×3 board (a fixed 3 or "
    "range(3))?)", shown=NOTEBOOK, example={"rows": 4, "cols": 4})
#: an index error where no board was seen
INDEX_SEEN = Message(
    "(an index past the end of a list or tuple: which index was it, and how long is it?)",
    shown=NOTEBOOK)
UNHASHABLE = Message(
    "(a class that defines __eq__ needs __hash__ too, built from the same data, e.g.\n"
    "hash(tuple(self.squares)), to go in a set or be a key of a dict)", shown=NOTEBOOK)
UNHASHABLE_BUILTIN = Message(
    "(a list can change, so it cannot go in a set or be a key of a dict: a board is a\n"
    "tuple of tuples; turn a list of lists back with tupleOfTuples before returning it)",
    shown=NOTEBOOK)
TOO_DEEP = Message(
    "(a function called itself about {depth:,} deep, Python's limit: a search that goes\n"
    "thousands of moves deep needs a loop and a stack (a list) instead of recursion)",
    shown=NOTEBOOK, example={"depth": 3000})
