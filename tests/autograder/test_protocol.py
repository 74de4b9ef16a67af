"""The judge's messages to the kernel are one specification (issue 34, part 3).

`puzzlekit.autograder.protocol` lists every request, reply, question and answer; the
judge and the agent build and check their messages through it. In one process (the
agent answering the judge directly, as tests/autograder/test_judge.py does): every kind
the agent answers is specified, what each side sends fits, a misnamed field fails on the
other side, a reply of the kernel's that does not fit is refused whole, a nested request
may only be one the judge makes while a test runs, and the reference page shows it all.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from agent_here import answer_here

from puzzlekit.autograder import protocol
from puzzlekit.autograder.judge.judge import Judge
from puzzlekit.autograder.kernel import agent

REPO = Path(__file__).resolve().parents[2]


class Checked:
    """A Channel whose 'kernel' is this process; every request and reply is checked
    against the specification on its way (`seen`: the kinds sent)."""

    def __init__(self, space: dict[str, Any]) -> None:
        self.space, self.seen = space, []

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        protocol.check_request(req)
        self.seen.append(req["kind"])
        reply = answer_here(self.space, req)
        return protocol.check_reply(req["kind"], reply)


STUDENT = """
import random
class Node:
    def __init__(self, s):
        self.s = s
    def __len__(self):
        return 3
def f(xs):
    xs.append(1)
    print("hi")
    random.random()
    return Node(xs)
def boom():
    raise ValueError("no")
def g():
    return goal
goal = 1
"""

TEST = """
xs = []
n = f(xs)
assert xs == [1] and len(n) == 3
try:
    boom()
except ValueError as e:
    assert str(e) == "no"
goal = 2
assert g() == 2
"""


def test_every_kind_the_agent_answers_is_specified_and_no_other():
    assert set(agent._DISPATCH) == set(protocol.REQUESTS)


def test_what_both_sides_send_in_a_test_fits_the_specification():
    space: dict[str, Any] = {"__name__": "__main__"}
    exec(STUDENT, space)
    channel = Checked(space)
    judge = Judge(channel, call_timeout=5, judge_timeout=5)
    outputs = judge.run_test(TEST, 1)
    assert [o for o in outputs if o["output_type"] == "error"] == []
    assert {"names", "call", "op", "set"} <= set(channel.seen)


@pytest.mark.parametrize("kind", ["ping", "memory", "seen", "count"])
def test_the_executors_requests_and_their_replies_fit(kind):
    req = protocol.request(kind, **({"n": 3} if kind == "count" else {}))
    protocol.check_reply(kind, json.loads(agent.answer(req)))


def test_a_misnamed_field_fails_on_either_side():
    with pytest.raises(protocol.ProtocolError, match="unknown field 'nmae'"):
        protocol.request("call", nmae="f", args=[], kwargs={}, random=None, forbid=[])
    with pytest.raises(protocol.ProtocolError, match="no args"):
        protocol.request("call", name="f", kwargs={}, random=None, forbid=[])
    with pytest.raises(protocol.ProtocolError, match="exactly one of name, h, next"):
        protocol.request("call", name="f", h=1, args=[], kwargs={}, random=None, forbid=[])
    with pytest.raises(protocol.ProtocolError, match="stdout must be str"):
        protocol.reply("call", value=1, stdout=b"")
    with pytest.raises(protocol.ProtocolError, match="unknown field 'valeu'"):
        protocol.reply("call", valeu=1)
    with pytest.raises(protocol.ProtocolError, match="unknown request kind"):
        protocol.request("cal")
    # the agent refuses a request that does not fit, as a fault
    reply = json.loads(agent.answer({"kind": "call", "nmae": "f", "args": [], "kwargs": {},
                                     "random": None, "forbid": []}))
    assert reply["ok"] is False and "unknown field 'nmae'" in reply["fault"]
    protocol.check_reply("call", reply)


def test_a_nested_request_is_one_the_judge_makes_while_a_test_runs():
    nested = {m.name for m in protocol.REQUESTS.values() if m.nested}
    assert nested == {"call", "op", "names", "set"}
    for kind in ("ping", "memory", "seen"):
        with pytest.raises(protocol.ProtocolError, match="cannot be nested"):
            protocol.check_request(protocol.request(kind), nested=True)
    with pytest.raises(protocol.ProtocolError, match="cannot be nested"):
        protocol.check_request(protocol.request("count", n=1), nested=True)
    assert protocol.answer(do=protocol.request("names", names=["f"]))["do"]["kind"] == "names"


class Lying:
    """A kernel whose agent was made to send `reply` to every call."""

    def __init__(self, reply: dict[str, Any]) -> None:
        self.reply = reply

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        if req["kind"] == "names":
            return {"ok": True, "names": {n: {"kind": "callable"} for n in req["names"]}}
        return self.reply


@pytest.mark.parametrize("reply, words", [
    ({"ok": True, "value": 1, "stdout": 5}, "stdout must be str"),
    ({"ok": True, "value": 1, "violations": "findZero"}, "violations must be list of str"),
    ({"ok": True, "value": 1, "surprise": True}, "unknown field 'surprise'"),
    ({"ok": True}, "exactly one of value, error"),
    ({"ok": True, "value": 1, "error": {"ename": "E", "evalue": "", "traceback": []}},
     "exactly one of value, error"),
    ({"ok": True, "error": {"ename": "ValueError", "evalue": 3, "traceback": []}},
     "error must be error report"),
    ({"ok": "yes", "value": 1}, "(no answer)"),      # refused as before the protocol
])
def test_a_reply_that_does_not_fit_is_refused_whole(reply, words):
    judge = Judge(Lying(reply), judge_timeout=5)
    outputs = judge.run_test("assert f() == 1\n", 1)
    errors = [o for o in outputs if o["output_type"] == "error"]
    assert errors, "a reply that does not fit passed the test"
    assert errors[-1]["evalue"].startswith("the grader could not run f in your kernel")
    assert words in errors[-1]["evalue"]


def test_a_question_that_does_not_fit_is_refused():
    judge = Judge(Lying({"ok": True, "value": 1}), judge_timeout=5)
    judge._objects[1] = len
    for question in ({"j": 1, "op": "call", "args": {}}, {"j": 1, "op": 3},
                     {"j": "1", "op": "call"}, {"j": 1, "op": "call", "extra": 1}):
        answer = json.loads(judge._answer(protocol.ASK + json.dumps(question)))
        assert answer["error"]["ename"] == "RuntimeError", question
    answer = json.loads(judge._answer(protocol.ASK + json.dumps(
        {"j": 1, "op": "call", "args": [["l", 1, 2]], "kwargs": {}})))
    assert protocol.answer(**answer) == {"value": 2}


def test_calls_may_cross_at_most_max_nesting_deep():
    judge = Judge(Lying({"ok": True, "value": 1}), judge_timeout=5)
    judge._objects[1] = len
    prompt = protocol.ASK + json.dumps({"j": 1, "op": "call", "args": [["l"]], "kwargs": {}})
    judge._answering = protocol.MAX_NESTING - 1
    assert json.loads(judge._answer(prompt)) == {"value": 0}
    judge._answering = protocol.MAX_NESTING
    answer = json.loads(judge._answer(prompt))
    assert answer["error"] == {"ename": "RecursionError", "evalue": protocol.TOO_DEEP}


def test_the_sealed_agent_checks_with_its_own_copy_of_the_protocol(monkeypatch):
    space = agent._sealed()
    sealed = space["protocol"]
    assert sealed is not protocol
    monkeypatch.setattr(protocol, "check_request", lambda data, nested=False: data)
    monkeypatch.setattr(protocol, "reply", lambda kind, **fields: {"forged": True})
    with pytest.raises(protocol.ProtocolError):
        sealed.check_request({"kind": "call", "nmae": "f"})
    assert sealed.reply("ping") == {"ok": True}
    assert json.loads(space["answer"]({"kind": "ping"})) == {"ok": True}


def test_the_reference_page_has_a_table_for_every_message():
    spec = importlib.util.spec_from_file_location("kitref", REPO / "docs" / "_ext" / "kitref.py")
    assert spec is not None and spec.loader is not None
    kitref = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("kitref", kitref)
    spec.loader.exec_module(kitref)
    page = kitref.protocol_page()
    for message in protocol.walk():
        assert f"## {message.name}\n" in page
        for field in message.fields:
            assert f"| `{field.name}` | " in page
    assert f"At most {protocol.MAX_NESTING} questions are answered inside one another" in page
    assert "(../explanation/wall.md)" in page
