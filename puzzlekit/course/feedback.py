"""Feedback without the hidden tests.

nbgrader's feedback HTML is made from the autograded notebook, in which every test cell
holds its hidden tests again, and a failing hidden test leaves a traceback that quotes
them. `StripHiddenTests` is a preprocessor for ``GenerateFeedback`` that

1. replaces each ``### BEGIN HIDDEN TESTS`` … ``### END HIDDEN TESTS`` block by one comment;
2. when the failure came from a hidden line, replaces that cell's traceback by a sentence
   that says a hidden test failed and which property (the first line of its message,
   unless that quotes a hidden line), keeping the boards the failing check drew; a limit
   of the grader (`puzzlekit.testcells.catalogue.GRADER_LIMIT`) is said as it is, not as a failure
   of the student's code;
3. removes from the other tracebacks the lines of the hidden block (by their line number
   in the test cell's frame) and any other line that quotes a hidden line.

The score is untouched: grades are read from the gradebook, not from these cells.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from ..testcells.catalogue import GRADER_LIMIT, HIDDEN_FAILED, HIDDEN_FAILED_ON, HIDDEN_PLACEHOLDER
from ..testcells.messages import error_output, plain

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
_CELL_LINE = re.compile(r"(?:Cell In\s*\[([^\]]*)\]|Input In\s*\[([^\]]*)\]"
                        r"|<ipython-input-(\d+)-[^>]*>),?\s*line (\d+)")
_NUMBERED = re.compile(r"^\s*(?:-*>\s*)?(\d+)\s")
MAX_WORDS = 400  #: a longer first line is data, not words
MIN_SNIPPET = 6   #: shorter hidden lines ('pass', ')') give nothing away
MAX_FRAMES = 12   #: longer tracebacks (deep recursion) keep their first and last frames


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
            kept.append(indent + HIDDEN_PLACEHOLDER)
        elif marker == END and inside:
            inside = False
            numbers.add(n)
        elif inside:
            numbers.add(n)
            texts.append(line.strip())
        else:
            kept.append(line)
    return "\n".join(kept), numbers, [t for t in texts if len(t) >= MIN_SNIPPET]


def frame_of(chunk: str) -> tuple[str, int] | None:
    """(execution count, line) if this traceback chunk is a frame of a notebook cell."""
    match = _CELL_LINE.search(plain(chunk))
    if not match:
        return None
    count = next(g for g in match.groups()[:3] if g is not None)
    return count.strip(), int(match.group(4))


def own_frames(traceback: list[str], count: object) -> list[int]:
    """Indexes of the chunks that are frames of the cell run as `count` (In[count]); the
    first cell frame if the count is unknown."""
    frames = [(i, f) for i, f in enumerate(map(frame_of, traceback)) if f]
    if count is None:
        return [frames[0][0]] if frames else []
    return [i for i, (c, _) in frames if c == str(count)]


def failing_lines(traceback: list[str], count: object = None) -> list[int]:
    """The lines of the cell run as `count` that the traceback passes through."""
    return [frame_of(traceback[i])[1] for i in own_frames(traceback, count)]  # type: ignore[index]


def quotes(text: str, snippets: list[str]) -> bool:
    """Does `text` contain any of the hidden `snippets`?"""
    flat = plain(text)
    return any(s in flat for s in snippets)


def _scrub(text: str, snippets: list[str]) -> str:
    return "\n".join(line for line in text.split("\n") if not quotes(line, snippets))


def _scrub_frame(chunk: str, numbers: set[int]) -> str:
    """A frame of the test cell itself without the lines numbered as hidden."""
    kept = []
    for line in chunk.split("\n"):
        m = _NUMBERED.match(plain(line))
        if not (m and int(m.group(1)) in numbers):
            kept.append(line)
    return "\n".join(kept)


def shorten(traceback: list[str], most: int = MAX_FRAMES) -> list[str]:
    """A traceback of at most about `most` chunks: the first and the last ones."""
    if len(traceback) <= most:
        return traceback
    half = most // 2
    return (traceback[:half] + [f"    [... {len(traceback) - 2 * half} more frames ...]"]
            + traceback[-half:])


def scrub_traceback(traceback: list[str], numbers: set[int], snippets: list[str],
                    count: object = None) -> list[str]:
    """`traceback` without the hidden lines: by line number in the frames of the test cell
    itself (run as In[count]), by content everywhere else."""
    own = set(own_frames(traceback, count))
    return shorten([_scrub_frame(chunk, numbers) if i in own else _scrub(chunk, snippets)
                    for i, chunk in enumerate(traceback)])


def _scrub_output(output: Any, numbers: set[int], snippets: list[str], count: object) -> Any:
    if output.get("output_type") == "error":
        output["traceback"] = scrub_traceback(output.get("traceback", []), numbers, snippets,
                                              count)
        output["evalue"] = _scrub(output.get("evalue", ""), snippets)
    elif output.get("output_type") == "stream":
        output["text"] = _scrub(output.get("text", ""), snippets)
    return output


def from_hidden(error: Any, numbers: set[int], snippets: list[str], count: object) -> bool:
    """Did this error come out of the hidden block (run as In[count])?"""
    traceback = list(error.get("traceback", []))
    lines = failing_lines(traceback, count)
    if lines:
        return any(line in numbers for line in lines)
    return quotes("\n".join(traceback) + error.get("evalue", ""), snippets)


def hidden_failure_words(evalue: str, snippets: list[str]) -> str:
    """What a failed hidden test tells the student: its property, if that is not secret."""
    lines = [line.strip() for line in plain(evalue).splitlines() if line.strip()]
    if " ".join(GRADER_LIMIT.split()) in " ".join(lines):
        # the grader's own limit: said as it is, never "check that your code works"
        return "\n".join(line for line in lines if not quotes(line, snippets)) or HIDDEN_FAILED
    what = lines[0].rstrip(":") if lines else ""
    if what and quotes(what, snippets):
        # "nextStates(<a hidden board>): <what went wrong>": the diagnosis may be shown
        _, sep, rest = what.partition(": ")
        what = rest if sep and not quotes(rest, snippets) else ""
    if not what or len(what) > MAX_WORDS:
        return HIDDEN_FAILED
    # a diagnosis ("why: ...", from puzzlekit.testcells.diagnose) names the mistake, not the case
    why = [line for line in lines[1:] if line.startswith("why")
           and len(line) <= MAX_WORDS and not quotes(line, snippets)]
    what = "\n".join([what, *why])
    return HIDDEN_FAILED_ON.format(what="\n".join(
        "\n".join(textwrap.wrap(line, 96)) for line in what.splitlines()))


def _hidden_failure(error: Any, snippets: list[str]) -> dict[str, Any]:
    ename = error.get("ename", "AssertionError")
    return error_output(ename, hidden_failure_words(error.get("evalue", ""), snippets))


class StripHiddenTests(Preprocessor):
    """Remove hidden tests, and every trace of them, from autograded notebooks."""

    enabled = Bool(True, help="Strip hidden tests (on unless switched off)").tag(config=True)

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        if cell.cell_type != "code" or BEGIN not in cell.source:
            return cell, resources
        visible, numbers, snippets = split_hidden(cell.source)
        cell.source = visible
        count = cell.get("execution_count")
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if any(from_hidden(e, numbers, snippets, count) for e in errors):
            boards = [o for o in cell.get("outputs", []) if o.get("output_type") == "display_data"
                      and "text/html" in o.get("data", {})]
            cell.outputs = boards + [_hidden_failure(errors[-1], snippets)]
            return cell, resources
        cell.outputs = [_scrub_output(o, numbers, snippets, count)
                        for o in cell.get("outputs", [])]
        return cell, resources
