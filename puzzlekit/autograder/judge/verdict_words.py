"""The judge's words: what a student reads when a grading limit, not a test, stopped
their code (memory, processes, files, the network, the grader's own time), and the
messages of the judge's failures (`puzzlekit.autograder.judge.judge`). Each blames
the student only for what their code did.
"""

from __future__ import annotations

from ...testcells.messages import GRADER_LIMIT

#: the widest line of a message in the feedback (its page does not scroll sideways)
WIDTH = 90

#: {how}: what was seen of how it ended (`kernel_end`), or nothing
KERNEL_DIED = ("the Python kernel stopped while running {name}{how}.\nThe kernel was "
               "restarted for the next tests.")
TOO_LONG = "{name} did not finish within {seconds:g} seconds and was stopped."
MEMORY = ("your code used more memory than a graded notebook may ({memory})\nand was "
          "stopped: does a search keep more states than it needs?")
PROCESSES = ("your code started more threads or processes than a graded notebook\nmay "
             "({processes}): a search needs none")
FILE_SIZE = ("your code wrote a file bigger than a graded notebook may ({file_size})")
NETWORK = "there is no network while a notebook is graded:\nyour code must not need one"
OUTSIDE = ("{evalue}\n(while it is graded, a notebook may use only its own folder: no "
           "other files\nand no network)")


def explain_limit(ename: str, evalue: str, limits: dict[str, str]) -> str | None:
    """The plain-words message for an error that means a grading limit was hit."""
    if ename == "MemoryError":
        return MEMORY.format(memory=limits.get("memory", "the limit"))
    if ("can't start new thread" in evalue
            or (ename in ("BlockingIOError", "OSError") and "Resource temporarily" in evalue)):
        return PROCESSES.format(processes=limits.get("processes", "the limit"))
    if "File too large" in evalue or "[Errno 27]" in evalue:
        return FILE_SIZE.format(file_size=limits.get("file_size", "the limit"))
    if ename == "gaierror" or any(words in evalue for words in (
            "Network is unreachable", "name resolution", "Name or service not known")):
        return NETWORK
    if ename == "PermissionError" or "Read-only file system" in evalue:
        return OUTSIDE.format(evalue=evalue)
    return None
FORBIDDEN = ("your code called puzzlekit's ready-made {name};\nthis exercise asks you to "
             "write it yourself")
TEST_FUNCTION_TOO_LONG = ("your code used the test's {name} for longer than the grader "
                          "spends on one test cell\n({seconds:g} s): it called it {calls:,} "
                          "times, and was stopped")
JUDGE_TOO_LONG = ("the grader's checks of what your code returned took longer than "
                  "{seconds:g} s,\nthe most the grader spends on one test cell, and were "
                  "stopped (your code itself\nwas not timed out). Does it return something "
                  "unusually large or odd:\na huge list, set or string?")
TOO_BIG = ("your code returned a value too large or odd for the grader to check "
           "({why}):\nthe tests need plain boards, paths and numbers")
#: {limit}: the notebook's budget of what the grader takes from its kernel (MB or items)
NOTEBOOK_DATA = ("your code gave the grader more than {limit} in this notebook, the most "
                 "the grader takes\nfrom one notebook, so this test was stopped here (and "
                 "the tests after it are too):\nthe tests need plain boards, paths and "
                 "numbers, not endless or huge data")
#: {length}: what len() of a student's object said; {limit}: the items left in the notebook
LENGTH_TOO_BIG = ("len() of your {kind} says {length:,}: more items than the grader takes "
                  "from one notebook\n({limit} left), so this test was stopped before "
                  "anything was built on it")
#: {limit}: the memory the grader's own process may use (`own_memory`)
GRADER_MEMORY = ("the grader ran out of the memory it allows itself ({limit}) while it "
                 "checked what\nyour code returned, so this test was stopped: the tests "
                 "need plain boards, paths and\nnumbers, not huge data")
BAD_RANDOM = ("your code left Python's `random` in a state the grader cannot use "
              "({why}):\nuse random's own functions (random.seed, random.randint), "
              "never random.setstate with a state of your own")
GRADER_CANNOT = "{why}.\n" + GRADER_LIMIT
NOTEBOOK_TIME = ("this notebook used up the time the grader gives one notebook "
                 "({seconds:g} s),\nso this test was stopped here (slow or many cells, or "
                 "kernel restarts, before it)")
