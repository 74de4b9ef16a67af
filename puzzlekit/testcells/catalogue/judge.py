"""The judge's words (`puzzlekit.autograder.judge`): a grading limit stopped the code.

A grading limit, not a test, stopped the code; how the kernel ended; why something could
not cross between the judge and the student's kernel; what a submission's files and a
graded notebook's outputs lost on the way into grading."""

from __future__ import annotations

from .message import GRADED, INSTRUCTOR, Message, TEST_CELL

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
# Why something could not cross between the judge and the kernel: the {why} of CANNOT_READ
# and GRADER_CANNOT, the {fault} of COULD_NOT_RUN, or the words of an error the student's
# code gets (`puzzlekit.autograder.judge.judge`, `.handles`, `.crossing`, `.autograde`)

#: the kernel gave the grader more than the notebook's budget (`NOTEBOOK_DATA` says it to
#: the student; the student's code that asked a question gets it as a ValueError)
NOTEBOOK_DATA_SPENT = Message("more than {limit} from the kernel in this notebook",
                              shown=TEST_CELL, example={"limit": "64 MB"})
KERNEL_NO_ANSWER = Message("the kernel did not answer", shown=TEST_CELL)
ANSWER_NOT_JSON = Message("the kernel's answer is not JSON", shown=TEST_CELL)
NOT_DATA_FROM_KERNEL = Message("the kernel sent something that is not data", shown=TEST_CELL)
#: a handle of the student's where the test binds plain data (`handles.handle_only`)
NOT_PLAIN_DATA = Message("not plain data", shown=TEST_CELL)
#: {kind}: the type of what the test gives the student's code
NOT_SENT_BY_NAME = Message("{kind} cannot be sent by name", shown=TEST_CELL,
                           example={"kind": "method"})
CANNOT_PASS = Message("the grader cannot pass {kind} to your code", shown=TEST_CELL,
                      example={"kind": "generator"})
RECORDER_BY_NAME = Message("a recorder by name is used with `recording`", shown=TEST_CELL)
#: {most}: `crossing.MAX_STAND_INS`
TOO_MANY_STAND_INS = Message("the test passed more than {most:,} functions and objects of "
                             "its own to your code", shown=TEST_CELL,
                             example={"most": 100000})
UNKNOWN_TEST_FUNCTION = Message("the kernel named a function of the test it was never given",
                                shown=TEST_CELL)
UNKNOWN_ARGUMENT = Message("the kernel named an object the grader did not give it",
                           shown=TEST_CELL)
#: the student's code used a function or object of the test's: the errors it gets back
UNREADABLE_QUESTION = Message("the grader could not read your kernel's question about the "
                              "test's function", shown=TEST_CELL)
PUBLIC_ATTRIBUTES_ONLY = Message("the test's {kind} shows your code only its public "
                                 "attributes, not {attribute!r}", shown=TEST_CELL,
                                 example={"kind": "Counter", "attribute": "_seen"})
TEST_ANSWER_NOT_DATA = Message("the test's answer is not data", shown=TEST_CELL)
#: the `what` of a request that gives the student's code the test's globals (COULD_NOT_RUN)
TEST_VALUES = Message("the test's values", shown=TEST_CELL)
#: a handle to an object of the student's code, used by the test; {kind}: its type's name.
#: HANDLE_NOT_HASHED: a handle met while `wire` decodes a value (the wire refuses the set or
#: dict that holds it in words of its own)
HANDLE_NOT_HASHED = Message("a handle is not hashed while a value is decoded",
                            shown=TEST_CELL)
HASH_NOT_INT = Message("the hash of your {kind} is not an int", shown=TEST_CELL,
                       example={"kind": "Node"})
ITER_NOT_ITERATOR = Message("iter() of your {kind} returned something that is not an "
                            "iterator", shown=TEST_CELL, example={"kind": "Node"})
CANNOT_STEP = Message("the grader could not step your {kind}", shown=TEST_CELL,
                      example={"kind": "generator"})

# ---------------------------------------------------------------------------
# A submission's files: only plain files are taken into grading
# (`puzzlekit.autograder.judge.plainfiles`: the instructor's log, the class grader's report)

#: one entry of a submission left out; {dropped}: its path, kind and why (`Dropped`)
LEFT_OUT = Message("{student}'s submission ({where}): left out {dropped}; only plain files "
                   "are taken into grading", shown=INSTRUCTOR,
                   example={"student": "mallory", "where": "ps1, autograde",
                            "dropped": "notes.txt (symbolic link: to /etc/passwd)"})
NO_PLAIN_NOTEBOOK = Message("refused: no notebook of {student}'s submission is a plain file "
                            "(0 points); left out: {dropped}", shown=INSTRUCTOR,
                            example={"student": "mallory", "dropped": "ps1.ipynb (symbolic "
                                     "link: to ../../source/ps1/ps1.ipynb)"})
#: {kind}: `kind_of` the entry (symbolic link, FIFO, file, ...)
NOT_A_FOLDER = Message("{path} is a {kind}, not a folder: nothing in it is taken",
                       shown=INSTRUCTOR, example={"path": "submitted/mallory/ps1",
                                                  "kind": "symbolic link"})
#: why an entry was left out (the detail of a `Dropped`)
CONTROL_CHARACTERS = Message("control characters in its name", shown=INSTRUCTOR)
LINK_MADE_WHILE_COPIED = Message("made while it was being copied", shown=INSTRUCTOR)
SWAPPED_WHILE_COPIED = Message("swapped while it was copied", shown=INSTRUCTOR)
SECOND_NAME = Message("a second name of a file of {owner}", shown=INSTRUCTOR,
                      example={"owner": "root"})
FOLDER_TOO_DEEP = Message("a folder more than {most} folders deep", shown=INSTRUCTOR,
                          example={"most": 32})

# ---------------------------------------------------------------------------
# A graded notebook's outputs: only data is kept (`puzzlekit.autograder.judge.sanitize`)

WIDGET_NOT_KEPT = Message("(an interactive widget: it is not kept in a graded notebook)",
                          shown=GRADED)
#: HTML, SVG or markdown longer than `sanitize.MAX_MARKUP_CHARS`
OUTPUT_TOO_LARGE = Message("(an output of {size:,} characters of {mime} was removed: larger "
                           "than a graded notebook keeps; its text is kept where it had "
                           "one)", shown=GRADED, example={"size": 2000000,
                                                           "mime": "text/html"})
#: {types}: the output's MIME types, none of them kept
OUTPUT_NOT_DATA = Message("(an output of type {types} was removed: it is not plain data)",
                          shown=GRADED, example={"types": "application/x-evil"})
