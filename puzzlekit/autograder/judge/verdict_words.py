"""Which of the judge's words a grading limit, not a test, calls for: an error that means
the code hit the memory, process, file or network limit of a graded notebook
(`explain_limit`). The words themselves are the catalogue's
(`puzzlekit.testcells.catalogue`); each blames the student only for what their code did.
"""

from __future__ import annotations

from ...testcells.catalogue import FILE_SIZE, MEMORY, NETWORK, OUTSIDE, PROCESSES

#: the widest line of a message in the feedback (its page does not scroll sideways)
WIDTH = 90


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
        return str(NETWORK)
    if ename == "PermissionError" or "Read-only file system" in evalue:
        return OUTSIDE.format(evalue=evalue)
    return None
