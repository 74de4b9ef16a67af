"""What the agent and the guard in the student's kernel say while a notebook is graded
(`puzzlekit.autograder.kernel`): the kernel imports them from here, never from the
grader's side."""

from __future__ import annotations

from .message import GRADED, Message, TEST_CELL

# ---------------------------------------------------------------------------
# The agent: the stand-ins for the test's functions (`puzzlekit.autograder.kernel.agent`)

#: the repr of a function of the test that the student's code is given
TEST_FUNCTION = Message("<the test's function {name}>", shown=TEST_CELL,
                        example={"name": "manhattan"})
#: a function of the test failed in the grader with an error that came back unreadable
TEST_FUNCTION_FAILED = Message("the test's function failed", shown=TEST_CELL)
#: the grader's reply to a question of a stand-in was not the protocol's
GRADER_ANSWER_UNREADABLE = Message("the grader's answer could not be read", shown=TEST_CELL)

# ---------------------------------------------------------------------------
# The guard: what the student's code reached into, the {what} of REACHED_IN
# (`puzzlekit.autograder.kernel.guard`)

#: a new function made from the code of one of puzzlekit's
COPY_OF_KIT_FUNCTION = Message("a copy of puzzlekit's function", shown=GRADED)
#: code compiled under the file name of a module of the kit, of an installed package or
#: of Python's own library
COMPILED_AS = Message("code compiled as {path}", shown=GRADED,
                      example={"path": "/usr/lib/python3.11/random.py"})
