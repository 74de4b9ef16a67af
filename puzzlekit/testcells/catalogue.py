"""The catalogue of what students and instructors read from grading: every sentence, once.

Each message is a `Message`: a template with named parameters (``{name}``), the place a
person reads it (`Message.shown`) and an example of its parameters, from which the guide's
reference page (docs/reference/messages.md, written by docs/_ext/kitref.py) renders it.
A message is the plain `str` of its template, so ``NOT_WRITTEN.format(name="`findZero`")``
reads as it always did; `Message.format` also refuses a missing or an unknown parameter.

It sits in the lowest wing that every user can import (`puzzlekit.testcells`: the test
cells, the grader's judge and autograde, the agent in the student's kernel, the course's
feedback and integrity report), holds only text and imports nothing of the kit, so the
student's kernel loads it for free. The named mistakes (a stable name for each diagnosis,
for the class report) are in `puzzlekit.testcells.mistakes` and docs/mistakes.md.

tests/testcells/test_catalogue.py holds the catalogue to it: every message is used by the
code, every student-facing one is rendered by a test, and the grading code writes no
sentence of its own outside this module.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

# ---------------------------------------------------------------------------
# Where a message is read

#: an error of any cell of a student's notebook, in their own kernel (`messages.explain`)
NOTEBOOK = "any cell's error, in the student's notebook"
#: a test cell's failure: in the student's notebook, in the graded one and its feedback
TEST_CELL = "a test cell's failure (the student's notebook, the graded notebook, the feedback)"
#: the one line a test cell ends with, and the `summary` of the last cell
VERDICT = "the last line of a test cell, and the summary at the end of the notebook"
#: what the grader writes into a graded cell (the graded notebook and the feedback page)
GRADED = "a graded cell's output, written by the grader (the graded notebook, the feedback)"
#: the feedback page's own words about hidden tests
FEEDBACK = "the feedback page (a hidden test's cell)"
#: the instructor's side: the grader's log and warnings, the integrity report
INSTRUCTOR = "the instructor's terminal or log while grading"
#: an example cell's printed line, in the student's notebook
EXAMPLE = "an example cell's printed line, in the student's notebook"

_FIELDS = string.Formatter()


class Message(str):
    """A sentence of the catalogue: the `str` of its template, with its `name` (the
    catalogue's, set at the end of this module), its parameters, where it is `shown`
    and an `example` of its parameters."""

    name: str
    params: frozenset[str]
    shown: str
    example: Mapping[str, object]

    def __new__(cls, template: str, *, shown: str,
                example: Mapping[str, object] | None = None) -> Message:
        self = super().__new__(cls, template)
        self.name = ""
        self.params = frozenset(field.split(".")[0].split("[")[0].split("!")[0]
                                for _, field, _, _ in _FIELDS.parse(template) if field)
        self.shown = shown
        self.example = dict(example or {})
        if set(self.example) != self.params:
            raise ValueError(f"the example of {template[:40]!r} gives {sorted(self.example)}"
                             f", its parameters are {sorted(self.params)}")
        return self

    def format(self, *args: object, **params: Any) -> str:
        """The sentence with `params` (all of the message's parameters, no others)."""
        # as many as it takes, and none missing (a KeyError): the very same names, at
        # the cost of one comparison (a test cell's verdict is formatted often)
        if not args and len(params) == len(self.params):
            try:
                return str.format(self, **params)
            except KeyError:
                pass
        raise TypeError(f"the message {self.name} takes {sorted(self.params)}, "
                        f"got {sorted(params)}{' and positional values' if args else ''}")

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        """A copy or a pickle of a message is its plain text (a notebook's output copied
        by nbconvert, an error sent to another process): a `str`, as it was before."""
        return str, (str(self),)

    def rendered(self) -> str:
        """The message with its example parameters (the reference page shows it)."""
        return str.format(self, **self.example) if self.params else str(self)


# ---------------------------------------------------------------------------
# A cell's error, in the student's notebook (`puzzlekit.testcells.messages.explain`)

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

# ---------------------------------------------------------------------------
# A test cell's verdict (`puzzlekit.testcells.messages.passed`, `summary`)

PARTLY_GRADED = Message("◐ {label}: partly right, {points}: {why}", shown=VERDICT,
                        example={"label": "bfs", "points": "2 points",
                                 "why": "bfs's path is right, but it expanded some boards "
                                        "more than once"})
PARTLY = Message("partly right, worth {points} when graded: {why}", shown=VERDICT,
                 example={"points": "2 points", "why": "bfs's path is right, but it "
                                                       "expanded some boards more than once"})
#: the reasons of a partial credit after the first, counted
MORE_CASES = Message(" (and {more} more case{s} like it)", shown=VERDICT,
                     example={"more": 2, "s": "s"})
PASSED_GRADED = Message("✔ {label}: all tests passed", shown=VERDICT,
                        example={"label": "findZero"})
PASSED_HIDDEN = Message("· {label}: its tests are hidden; they run when your notebook is "
                        "graded", shown=VERDICT, example={"label": "astar"})
#: a partly right cell's value in the notebook (HTML around it)
CREDIT = Message("partial credit: {points:g} point{s}", shown=VERDICT,
                 example={"points": 2, "s": "s"})
PASSED = Message("✔ {label}: the tests above pass (more run when your notebook is graded)",
                 shown=VERDICT, example={"label": "findZero"})
BEING_GRADED = Message("Your notebook is being graded: the score of each exercise is shown "
                       "at its test cell\nand in the feedback.", shown=VERDICT)
#: the summary's first line (without points: the instructor's source notebook)
SUMMARY_PASS = Message("{exercises} pass", shown=VERDICT,
                       example={"exercises": "3 of 5 exercises"})
SUMMARY_POINTS = Message("{done:g} of {total:g} points' worth of tests pass ({exercises})",
                         shown=VERDICT, example={"done": 6, "total": 10,
                                                 "exercises": "3 of 5 exercises"})
#: each status of an exercise in the summary
STATUS_PASSED = Message("✔ passed", shown=VERDICT)
STATUS_FAILED = Message("✘ failed", shown=VERDICT)
STATUS_NOT_WRITTEN = Message("✎ not written yet", shown=VERDICT)
STATUS_PARTLY = Message("◐ partly right", shown=VERDICT)
STATUS_NOT_RUN = Message("· not run yet", shown=VERDICT)
STATUS_HIDDEN = Message("· tested when graded (hidden tests)", shown=VERDICT)

# ---------------------------------------------------------------------------
# What a test cell's failure adds (`puzzlekit.testcells`)

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

# ---------------------------------------------------------------------------
# A call that used up its time (`puzzlekit.testcells.budget`, the judge)

#: the one sentence for a call stopped after its time: {seconds} says how long and, where
#: it was counted so, "of computing time" ("6 seconds of computing time")
TOO_SLOW = Message("{name} did not finish within {seconds} and was stopped.", shown=TEST_CELL,
                   example={"name": "bfs", "seconds": "6 seconds of computing time"})
#: how long a call in the browser had (the `seconds` of `TOO_SLOW` there)
ON_THE_PAGES_CLOCK = Message("{seconds} on the page's clock", shown=TEST_CELL,
                             example={"seconds": "24 seconds"})
#: after `TOO_SLOW` in the browser, which gives no computing time: what was counted there
BROWSER_CLOCK = Message(" A browser gives no computing time: its clock counts, {slack:g} times "
                        "the {computing} of computing time in JupyterLab.", shown=TEST_CELL,
                        example={"slack": 4, "computing": "6 seconds"})
#: ", though it computed for only 0.2 s" when the computing time was seen
COMPUTED_ONLY = Message(", though it computed for only {cpu:.1f} s", shown=TEST_CELL,
                        example={"cpu": 0.2})
WAITED = Message("{name} was stopped after {seconds} on the clock{used}:\nis it waiting "
                 "for something (input(), time.sleep, a lock)?", shown=TEST_CELL,
                 example={"name": "bfs", "seconds": "30 seconds",
                          "used": ", though it computed for only 0.2 s"})
#: the evidence for a missing visited set: one board asked about again and again
ASKED_AGAIN = Message("It asked for the next states of one board {most:,} times ({calls:,} "
                      "calls for {distinct:,} different boards): a missing visited set?",
                      shown=TEST_CELL, example={"most": 40, "calls": 5000, "distinct": 900})
#: a search (not uniform-cost) seen expanding boards again: {shown} names the board
EXPANDED_AGAIN = Message("it expanded some boards more than once{shown}: {calls:,} calls for "
                         "{distinct:,} different boards. {advice}", shown=TEST_CELL,
                         example={"shown": " (one board, 1 2 3 4 0 5 6 7 8, 3 times)",
                                  "calls": 5000, "distinct": 900,
                                  "advice": "Keep a set of the boards already seen and skip "
                                            "a next state that is in it"})
#: the advice for a uniform-cost search that expands a board again at a higher cost
STALE_ENTRY = Message("A board can wait in the queue several times, at several costs: when "
                      "one comes out at a higher cost than its best, skip it (a stale entry)",
                      shown=TEST_CELL)
#: the advice that goes with a search seen expanding boards again
KEEP_VISITED = Message("Keep a set of the boards already seen and skip a next state that "
                       "is in it", shown=TEST_CELL)
#: a recorder stopped a search that asked about more boards than a search needs
TOO_MANY_CALLS = Message("the search called {name} {calls:,} times, more than a search "
                         "needs on this board", shown=TEST_CELL,
                         example={"name": "nextStates", "calls": 200000})
#: a recorder stopped a search that asked about the same boards again and again
CALLED_AGAIN = Message("the search called {name} {calls:,} times but there were only "
                       "{distinct:,} different boards among them{again}: it expands boards "
                       "it has already expanded. " + KEEP_VISITED, shown=TEST_CELL,
                       example={"name": "nextStates", "calls": 200000, "distinct": 900,
                                "again": "; the board it asked about most, 400 times, was "
                                         "((1, 2, 3), (4, 0, 5), (6, 7, 8))"})
ASKED_MOST = Message("; the board it asked about most, {most:,} times, was {board}",
                     shown=TEST_CELL, example={"most": 400,
                                               "board": "((1, 2, 3), (4, 0, 5), (6, 7, 8))"})
#: a case of another size failed (`puzzlekit.testcells.cases`)
ASSUMES_SIZE = Message("{what}: {seen} {rows}×{cols} board: does your code assume {shape} "
                       "board ({fixed})?\n{own}", shown=TEST_CELL,
                       example={"what": "nextStates(S)", "seen": "right on the 3×3 boards "
                                "before, but not on this", "rows": 4, "cols": 4,
                                "shape": "a 3×3", "fixed": "a fixed 3, or range(3)",
                                "own": "IndexError: tuple index out of range"})
SEEN_AFTER_3X3 = Message("right on the 3×3 boards before, but not on this", shown=TEST_CELL)
SEEN_FAILED = Message("your code failed on this", shown=TEST_CELL)

# ---------------------------------------------------------------------------
# The judge's words: a grading limit, not a test, stopped the code
# (`puzzlekit.autograder.judge.judge`, `verdict_words`)

#: what a student reads when a test gives their code something the grader cannot send:
#: the grader's limit, never the student's mistake (the judge, `puzzlekit.course.feedback`)
GRADER_LIMIT = Message(
    "This is a limit of the grader, not a mistake in your code: this test gives your "
    "code\nsomething the grader cannot send it. Your teacher has been told and will look "
    "at\nthis test.", shown=TEST_CELL)
#: the kernel was restarted after it died in a call of the judge's tests
RESTARTED_FOR_TESTS = Message("The kernel was restarted for the next tests.", shown=GRADED)
#: the kernel was restarted after it died or hung in a cell, the cells before replayed
RESTARTED_AND_REPLAYED = Message(
    "The kernel was restarted and the cells before this one were run again; the cells after "
    "it were graded as usual.", shown=GRADED)
#: {what}: "this cell" or the function the test called; {how}: what was seen of how it
#: ended (`kernel_end.clause`), or nothing; {restarted}: what happened then
KERNEL_DIED = Message("the Python kernel stopped while running {what}{how}.\n{restarted}",
                      shown=GRADED, example={
                          "what": "this cell",
                          "how": ": it ended with exit status 1, as a call of os._exit(1) "
                                 "would", "restarted": RESTARTED_AND_REPLAYED})
MEMORY = Message("your code used more memory than a graded notebook may ({memory})\nand "
                 "was stopped: does a search keep more states than it needs?",
                 shown=GRADED, example={"memory": "2G"})
PROCESSES = Message("your code started more threads or processes than a graded notebook\n"
                    "may ({processes}): a search needs none", shown=GRADED,
                    example={"processes": 64})
FILE_SIZE = Message("your code wrote a file bigger than a graded notebook may ({file_size})",
                    shown=GRADED, example={"file_size": "50M"})
NETWORK = Message("there is no network while a notebook is graded:\nyour code must not "
                  "need one", shown=GRADED)
OUTSIDE = Message("{evalue}\n(while it is graded, a notebook may use only its own folder: "
                  "no other files\nand no network)", shown=GRADED,
                  example={"evalue": "[Errno 13] Permission denied: '/etc/passwd'"})
TEST_FUNCTION_TOO_LONG = Message(
    "your code used the test's {name} for longer than the grader spends on one test "
    "cell\n({seconds:g} s): it called it {calls:,} times, and was stopped", shown=TEST_CELL,
    example={"name": "manhattan", "seconds": 60, "calls": 2000000})
JUDGE_TOO_LONG = Message(
    "the grader's checks of what your code returned took longer than {seconds:g} s,\nthe "
    "most the grader spends on one test cell, and were stopped (your code itself\nwas not "
    "timed out). Does it return something unusually large or odd:\na huge list, set or "
    "string?", shown=TEST_CELL, example={"seconds": 60})
TOO_BIG = Message("your code returned a value too large or odd for the grader to check "
                  "({why}):\nthe tests need plain boards, paths and numbers", shown=TEST_CELL,
                  example={"why": "12.0 MB of data; the grader takes at most 8.0 MB from "
                                  "one call"})
#: {limit}: the notebook's budget of what the grader takes from its kernel (MB or items)
NOTEBOOK_DATA = Message(
    "your code gave the grader more than {limit} in this notebook, the most the grader "
    "takes\nfrom one notebook, so this test was stopped here (and the tests after it are "
    "too):\nthe tests need plain boards, paths and numbers, not endless or huge data",
    shown=TEST_CELL, example={"limit": "64 MB"})
#: {length}: what len() of a student's object said; {limit}: the items left in the notebook
LENGTH_TOO_BIG = Message(
    "len() of your {kind} says {length:,}: more items than the grader takes from one "
    "notebook\n({limit} left), so this test was stopped before anything was built on it",
    shown=TEST_CELL, example={"kind": "Board", "length": 10 ** 9, "limit": "4,000,000"})
#: {limit}: the memory the grader's own process may use (`own_memory`)
GRADER_MEMORY = Message(
    "the grader ran out of the memory it allows itself ({limit}) while it checked what\n"
    "your code returned, so this test was stopped: the tests need plain boards, paths "
    "and\nnumbers, not huge data", shown=TEST_CELL, example={"limit": "1.0 GB"})
BAD_RANDOM = Message(
    "your code left Python's `random` in a state the grader cannot use ({why}):\nuse "
    "random's own functions (random.seed, random.randint), never random.setstate with a "
    "state of your own", shown=TEST_CELL, example={"why": "not a state of random"})
GRADER_CANNOT = Message("{why}.\n" + GRADER_LIMIT, shown=TEST_CELL,
                        example={"why": "the grader cannot pass generator to your code"})
NOTEBOOK_TIME = Message(
    "this notebook used up the time the grader gives one notebook ({seconds:g} s),\nso "
    "this test was stopped here (slow or many cells, or kernel restarts, before it)",
    shown=TEST_CELL, example={"seconds": 900})
#: a student's StopIteration raised by a call, turned into an error
STOP_ITERATION = Message(
    "{name} raised {ename}: outside a generator that ends the loop of whoever called it,\n"
    "so the grader counts it as an error (a generator's own return is fine)",
    shown=TEST_CELL, example={"name": "nextStates", "ename": "StopIteration"})
#: a failure whose own text could not be written
UNREADABLE_FAILURE = Message("{ename} (the grader could not read its message)",
                             shown=TEST_CELL, example={"ename": "ValueError"})
COULD_NOT_RUN = Message("the grader could not run {name} in your kernel ({fault})",
                        shown=TEST_CELL, example={"name": "bfs", "fault": "no answer"})
FAILED_IN_KERNEL = Message("{name} failed in your kernel", shown=TEST_CELL,
                           example={"name": "bfs"})
CANNOT_READ = Message("your code returned something the grader cannot read: {why}",
                      shown=TEST_CELL, example={"why": "the kernel sent something that is "
                                                       "not data"})
#: a value larger than one reply may be (`WalledExecute.max_reply_bytes`)
REPLY_TOO_BIG = Message("{size} of data; the grader takes at most {most} from one call",
                        shown=TEST_CELL, example={"size": "12.0 MB", "most": "8.0 MB"})
NO_INPUT = Message("input() cannot be answered while a notebook is graded", shown=GRADED)
#: a function or object of the test kept by the student's code for later
NOT_NOW = Message("a function or object of the grader's test can be used only while the "
                  "test runs (not in your own cells, and not kept for later)",
                  shown=TEST_CELL)
#: the kernel's guard refused a reach into the grader's machinery
REACHED_IN = Message("puzzlekit's grader: your code reached into the grader's machinery "
                     "({what}) while graded; this is not allowed, and your instructor sees "
                     "that it was tried", shown=GRADED,
                     example={"what": "puzzlekit's module puzzlekit.testcells run again"})

# ---------------------------------------------------------------------------
# How the kernel ended (`puzzlekit.autograder.judge.kernel_end`): the {how} of KERNEL_DIED

ENDED_MEMORY = Message("it used more memory than a graded notebook may ({memory}), and the "
                       "system stopped it", shown=GRADED, example={"memory": "2G"})
ENDED_CRASHED = Message("it crashed inside Python (signal {number}, {signal})", shown=GRADED,
                        example={"number": 11, "signal": "SIGSEGV"})
ENDED_SIGNAL = Message("it was stopped by signal {number} ({signal})", shown=GRADED,
                       example={"number": 9, "signal": "SIGKILL"})
ENDED_EXIT = Message("it ended with exit status {status}, as a call of os._exit({status}) "
                     "would", shown=GRADED, example={"status": 1})

# ---------------------------------------------------------------------------
# A cell's limits in a graded notebook (`puzzlekit.autograder.judge.autograde`)

CELL_TOO_LONG = Message("this cell computed for {seconds:g} s and was stopped; the cells "
                        "after it were graded as usual.", shown=GRADED,
                        example={"seconds": 30})
CELL_WAITED = Message("this cell was stopped after {seconds:g} seconds on the clock, though "
                      "it computed for only {cpu:.1f} s:\nis it waiting for something "
                      "(input(), time.sleep, a lock)? The cells after it were graded as "
                      "usual.", shown=GRADED, example={"seconds": 150, "cpu": 0.3})
KERNEL_HUNG = Message("this cell ran too long and did not stop when interrupted, so its "
                      "kernel was stopped.\n" + RESTARTED_AND_REPLAYED, shown=GRADED)
NOT_RUN = Message("not run: the kernel stopped too often in earlier cells ({restarts} "
                  "restarts), so grading stopped here.", shown=GRADED,
                  example={"restarts": 3})
#: a notebook's budget of computing time, said in NOT_RUN_CPU and OUT_OF_CPU
CPU_BUDGET = Message("{seconds:g} s of computing time: {factor:g} times what the model "
                     "solution used ({model:.1f} s), and at least {floor:g} s", shown=GRADED,
                     example={"seconds": 120, "factor": 10, "model": 4.2, "floor": 120})
NOT_RUN_CPU = Message("not run: this notebook used up the computing time the grader gives "
                      "it ({budget}) in the cells before, so grading stopped here.",
                      shown=GRADED, example={"budget": "120 s of computing time"})
OUT_OF_CPU = Message("this notebook used up the computing time the grader gives it "
                     "({budget}) while this cell ran: the cells after it are not run.",
                     shown=GRADED, example={"budget": "120 s of computing time"})
NOT_RUN_TIME = Message("not run: this notebook used up the time the grader gives one "
                       "notebook ({seconds:g} s) in the cells before, so grading stopped "
                       "here.", shown=GRADED, example={"seconds": 900})
OUT_OF_TIME = Message("this notebook used up the time the grader gives one notebook "
                      "({seconds:g} s) while this cell ran: it was stopped, and the cells "
                      "after it are not run.", shown=GRADED, example={"seconds": 900})
OUTPUT_CUT = Message("[output cut: this cell displayed more than {limit} (the most one "
                     "{what} may show while it is graded); the rest of its output is left "
                     "out]\n", shown=GRADED, example={"limit": "1.0 MB", "what": "cell"})
NO_WALL = Message("puzzlekit: no wall around the students' code on this machine ({why}): "
                  "their code runs with the grader's rights and can read and change the "
                  "course folder. See the guide: docs/explanation/wall.md.",
                  shown=INSTRUCTOR, example={"why": "this kernel has no Landlock"})
NO_LANDLOCK = Message("this kernel has no Landlock", shown=INSTRUCTOR)
WALL_SWITCHED_OFF = Message("switched off in nbgrader_config.py", shown=INSTRUCTOR)

# ---------------------------------------------------------------------------
# The feedback page's own words (`puzzlekit.course.feedback`)

#: what replaces a hidden test's lines on the feedback page
HIDDEN_PLACEHOLDER = Message("# (hidden tests ran here: they check more cases and are not "
                             "shown)", shown=FEEDBACK)
HIDDEN_FAILED = Message("one of the hidden tests failed.\nThey try more cases than the "
                        "visible tests (other boards, other positions of the blank):\ncheck "
                        "that your code works for every case the exercise describes.",
                        shown=FEEDBACK)
HIDDEN_FAILED_ON = Message("a hidden test failed: {what}\nThe hidden tests try more cases "
                           "than the visible ones: check that your code\nworks for every "
                           "case the exercise describes.", shown=FEEDBACK,
                           example={"what": "nextStates(S) should have 3 boards"})


# ---------------------------------------------------------------------------
# The catalogue by name

#: every message, by its name
MESSAGES: dict[str, Message] = {}
for _name, _value in list(globals().items()):
    if isinstance(_value, Message):
        _value.name = _name
        MESSAGES[_name] = _value
del _name, _value
