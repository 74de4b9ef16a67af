"""A message of the catalogue (`Message`) and the places a person reads one."""

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
#: the instructor's side: the grader's log and warnings
INSTRUCTOR = "the instructor's terminal or log while grading"
#: a finding of the integrity report (`puzzlekit.course.integrity`): the instructor's CSV,
#: and with ``--comment`` the gradebook's comment on the cell, which the feedback shows
INTEGRITY_FINDING = ("a finding of the integrity report (the instructor's report; with "
                     "--comment, also the student's feedback)")
#: an example cell's printed line, or the notes of a search it draws (`see_search`), in the
#: student's notebook
EXAMPLE = "an example cell's printed line or drawing, in the student's notebook"

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
        """The message with its example parameters (the reference page shows it), a brace
        the template doubles (``{{``, a literal one) as one."""
        return str.format(self, **self.example)
