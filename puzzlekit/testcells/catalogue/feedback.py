"""The feedback page's own words (`puzzlekit.course.feedback`)."""

from __future__ import annotations

from .message import FEEDBACK, Message

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
