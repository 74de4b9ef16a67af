"""The kernel's agent answering in this process: a test's stand-in for a kernel channel."""

from __future__ import annotations

import json
from typing import Any


def answer_here(space: dict[str, Any], req: dict[str, Any]) -> dict[str, Any]:
    """What the agent in a kernel whose namespace is `space` replies to `req` (both sides
    through JSON, as on the wire)."""
    from puzzlekit.autograder.kernel import agent
    original = agent._namespace
    agent._namespace = lambda: space  # type: ignore[assignment]
    try:
        return json.loads(agent.answer(json.loads(json.dumps(req))))  # type: ignore[no-any-return]
    finally:
        agent._namespace = original  # type: ignore[assignment]
