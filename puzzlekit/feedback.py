"""Feedback without the hidden tests.

nbgrader's feedback HTML is made from the autograded notebook, in which every test cell
holds its hidden tests again, and a failing hidden test leaves a traceback that quotes
them. `StripHiddenTests` is a preprocessor for ``GenerateFeedback`` that

1. replaces each ``### BEGIN HIDDEN TESTS`` … ``### END HIDDEN TESTS`` block by one comment;
2. when the failure came from a hidden line, replaces that cell's outputs (traceback,
   boards drawn by the failing test) by one sentence that says a hidden test failed;
3. removes from the other tracebacks the lines of the hidden block (by their line number
   in the test cell's frame) and any other line that quotes a hidden line.

The score is untouched: grades are read from the gradebook, not from these cells.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
PLACEHOLDER = "# (hidden tests ran here: they check more cases and are not shown)"
HIDDEN_FAILED = ("one of the hidden tests failed.\nThey try more cases than the visible "
                 "tests (other boards, other positions of the blank):\ncheck that your code "
                 "works for every case the exercise describes.")

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CELL_LINE = re.compile(r"(?:Cell In\s*\[[^\]]*\]|Input In\s*\[[^\]]*\]|<ipython-input-[^>]*>)"
                        r",?\s*line (\d+)")
MIN_SNIPPET = 6   #: shorter hidden lines ('pass', ')') give nothing away


def split_hidden(source: str) -> tuple[str, set[int], list[str]]:
    """(source without hidden blocks, 1-based hidden line numbers, hidden lines' text)."""
    kept: list[str] = []
    numbers: set[int] = set()
    texts: list[str] = []
    inside = False
    for n, line in enumerate(source.splitlines(), start=1):
        marker = line.strip()
        if marker == BEGIN:
            inside = True
            numbers.add(n)
            indent = line[:len(line) - len(line.lstrip())]
            kept.append(indent + PLACEHOLDER)
        elif marker == END and inside:
            inside = False
            numbers.add(n)
        elif inside:
            numbers.add(n)
            texts.append(line.strip())
        else:
            kept.append(line)
    return "\n".join(kept), numbers, [t for t in texts if len(t) >= MIN_SNIPPET]


def plain(text: str) -> str:
    """`text` without ANSI colour codes."""
    return _ANSI.sub("", text)


def failing_line(traceback: Iterable[str]) -> int | None:
    """The line of the executed cell where the error was raised, if the traceback says."""
    match = _CELL_LINE.search(plain("\n".join(traceback)))
    return int(match.group(1)) if match else None


def quotes(text: str, snippets: list[str]) -> bool:
    """Does `text` contain any of the hidden `snippets`?"""
    flat = plain(text)
    return any(s in flat for s in snippets)


def _scrub(text: str, snippets: list[str]) -> str:
    return "\n".join(line for line in text.split("\n") if not quotes(line, snippets))


_NUMBERED = re.compile(r"^\s*(?:-*>\s*)?(\d+)\s")


def _scrub_frame(chunk: str, numbers: set[int]) -> str:
    """The test cell's own frame without the lines numbered as hidden."""
    kept = []
    for line in chunk.split("\n"):
        m = _NUMBERED.match(plain(line))
        if not (m and int(m.group(1)) in numbers):
            kept.append(line)
    return "\n".join(kept)


def scrub_traceback(traceback: list[str], numbers: set[int], snippets: list[str]) -> list[str]:
    """`traceback` without the hidden lines: by line number in the test cell's own frame
    (the first one that names a cell), by content everywhere else."""
    out, seen_cell = [], False
    for chunk in traceback:
        if not seen_cell and _CELL_LINE.search(plain(chunk)):
            seen_cell = True
            out.append(_scrub_frame(chunk, numbers))
        else:
            out.append(_scrub(chunk, snippets))
    return out


def _scrub_output(output: Any, numbers: set[int], snippets: list[str]) -> Any:
    if output.get("output_type") == "error":
        output["traceback"] = scrub_traceback(output.get("traceback", []), numbers, snippets)
        output["evalue"] = _scrub(output.get("evalue", ""), snippets)
    elif output.get("output_type") == "stream":
        output["text"] = _scrub(output.get("text", ""), snippets)
    return output


def _hidden_failure(ename: str) -> dict[str, Any]:
    from nbformat.v4 import new_output
    return new_output("error", ename=ename, evalue=HIDDEN_FAILED,
                      traceback=[f"\x1b[0;31m{ename}\x1b[0m: {HIDDEN_FAILED}"])


class StripHiddenTests(Preprocessor):
    """Remove hidden tests, and every trace of them, from autograded notebooks."""

    enabled = Bool(True, help="Strip hidden tests (on unless switched off)").tag(config=True)

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        if cell.cell_type != "code" or BEGIN not in cell.source:
            return cell, resources
        visible, numbers, snippets = split_hidden(cell.source)
        cell.source = visible
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            error = errors[-1]
            line = failing_line(error.get("traceback", []))
            from_hidden = (line in numbers if line is not None
                           else quotes("\n".join(error.get("traceback", [])) + error.get(
                               "evalue", ""), snippets))
            if from_hidden:
                cell.outputs = [_hidden_failure(error.get("ename", "AssertionError"))]
                return cell, resources
        cell.outputs = [_scrub_output(o, numbers, snippets) for o in cell.get("outputs", [])]
        return cell, resources
