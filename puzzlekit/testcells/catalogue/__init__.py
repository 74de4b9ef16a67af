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

One module a place where messages are read, in the order a student meets them: `notebook`
(any cell's error), `verdicts` (a test cell's last line, the summary), `failures` (what a
failing test cell adds), `checks` (what the course's exercise checks say), `diagnoses`
(the mistake a failure names), `budgets` (a call out of time), `drawings` (a search drawn
by `see_search`, a recorder's words), `judge` (a grading limit, the kernel's end, what
could not cross to the kernel, a submission's files and outputs left out), `kernel` (the
agent and the guard in the student's kernel), `graded` (a graded cell's limits),
`feedback`, `integrity` (the integrity report's findings); `Message` is in `message`.
Import a message from here (``from puzzlekit.testcells.catalogue import NOT_WRITTEN``).

tests/testcells/test_catalogue.py holds the catalogue to it: every message is used by the
code, every student-facing one is rendered by a test, and the grading code writes no
sentence of its own outside this package.
"""

from __future__ import annotations

from .message import *  # noqa: F403
from .notebook import *  # noqa: F403
from .verdicts import *  # noqa: F403
from .failures import *  # noqa: F403
from .checks import *  # noqa: F403
from .diagnoses import *  # noqa: F403
from .budgets import *  # noqa: F403
from .drawings import *  # noqa: F403
from .judge import *  # noqa: F403
from .kernel import *  # noqa: F403
from .graded import *  # noqa: F403
from .feedback import *  # noqa: F403
from .integrity import *  # noqa: F403
from .message import Message

# ---------------------------------------------------------------------------
# The catalogue by name

#: every message, by its name
MESSAGES: dict[str, Message] = {}
for _name, _value in list(globals().items()):
    if isinstance(_value, Message):
        _value.name = _name
        MESSAGES[_name] = _value
del _name, _value
