"""The judge's conversation with the student's kernel, in one place.

While a notebook is autograded, the judge (`puzzlekit.autograder.judge.judge`, in the
grader's process) runs the graded tests, and the grader's agent
(`puzzlekit.autograder.kernel.agent`, in the student's kernel) runs the student's code
for it. This module is every message they exchange: each kind of request, its fields and
their types, its reply and the reply's fields, who may send it, and how deep the
messages may nest. Both sides build and check their messages through it (`request`,
`reply`, `check_request`, `check_reply`, ...), so a field that one side misnames is a
`ProtocolError` on the other; the guide's reference page is written from it
(docs/_ext/kitref.py: docs/reference/protocol.md).

The routes. The judge sends a *request* as a shell message of its own type (`REQUEST`);
the agent answers with a *reply* (`REPLY`, its JSON in the message's one buffer). While a
request runs, the student's code may use a function or object of the test's that stays
in the judge (a stand-in): the agent then asks a *question* on the kernel's stdin
channel (an input request whose prompt starts with `ASK`), and the judge *answers* it
(the input reply). To answer, the test's function may call the student's code again: the
judge's answer is then a nested request (``{"do": request}``), and the agent's next
question brings its reply (``{"done": reply}``). So one call of a test cell can cross
four times (judge -> kernel -> judge's stand-in -> kernel) and more, up to `MAX_NESTING`
questions answered inside one another.

What is checked where. Only the shape is checked here: the fields a message needs, each
of its type, no field unknown (a reply's optional fields the agent always sends, but the
judge reads one that is absent as empty). A field of type *value* holds a value as `puzzlekit.autograder.wire`
encodes it, and is checked when `wire.decode` builds it (strictly, within its bounds);
the executor refuses a reply over its size bounds before it is parsed at all. Nothing the
kernel sends is trusted: a reply or question that does not fit is refused whole (the
judge treats it as a fault of the kernel's). This module imports nothing of the judge's
side: the kernel's agent uses it, through a sealed copy (`agent.install`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field as slot
from typing import Any

from . import wire

#: the shell message types of a request and of its reply
REQUEST, REPLY = "puzzlekit_request", "puzzlekit_reply"
#: an input request of the agent's own starts with this (a student's ``input()`` does not)
ASK = "\x00puzzlekit:"
#: the most questions the judge answers inside one another (a test's function that calls
#: the student's code that calls the test's function ...): deeper, the question's answer
#: is a RecursionError raised in the student's code
MAX_NESTING = 32
TOO_DEEP = (f"the test's functions and yours called each other more than {MAX_NESTING} "
            "deep across the grader's wall")

#: the operations the judge may ask on one of the student's objects (request "op")
OPERATIONS = ("eq", "ne", "hash", "len", "iter", "bool", "getitem", "repr", "str",
              "iterator", "contains", "isinstance", "issubclass", "getattr")
#: what the student's code may do with a stand-in of the test's (a question's "op")
STAND_IN_OPERATIONS = ("call", "getattr", "len", "iter", "getitem", "contains", "eq",
                       "hash", "bool", "str", "repr")


class ProtocolError(wire.WireError):
    """A message that is not one this module defines: an unknown kind, a missing or
    unknown field, a field of the wrong type, or a request where none may be."""


@dataclass(frozen=True)
class Type:
    """A field's type: its words in the reference, and its check (shape only)."""

    words: str
    check: Callable[[Any], bool]


def _str_list(x: Any) -> bool:
    return type(x) is list and all(type(i) is str for i in x)


def _keyed(x: Any) -> bool:
    return type(x) is dict and all(type(k) is str for k in x)


INT = Type("int", lambda x: type(x) is int)
STR = Type("str", lambda x: type(x) is str)
TRUE = Type("true", lambda x: x is True)
FALSE = Type("false", lambda x: x is False)
BOOL = Type("bool", lambda x: type(x) is bool)
#: a value as `wire` encodes it: checked when it is decoded, within `wire`'s bounds
VALUE = Type("value", lambda x: True)
VALUES = Type("list of values", lambda x: type(x) is list)
NAMED_VALUES = Type("str -> value", _keyed)
STRS = Type("list of str", _str_list)
OBJECTS = Type("list of objects", lambda x: type(x) is list and
               all(type(i) is dict for i in x))
CHAIN = Type("list of [module, qualname]", lambda x: type(x) is list and all(
    type(p) is list and len(p) == 2 and all(type(s) is str for s in p) for p in x))


def maybe(kind: Type) -> Type:
    """`kind`, or null."""
    return Type(f"{kind.words} or null", lambda x: x is None or kind.check(x))


def one_of(*words: str) -> Type:
    """One of these strings."""
    return Type(" or ".join(f'"{w}"' for w in words), lambda x: type(x) is str and x in words)


def named(*words: str) -> Type:
    """A string naming one of these (another is the receiver's to refuse, in its words)."""
    return Type("str: " + ", ".join(f'"{w}"' for w in words), lambda x: type(x) is str)


def keyed(kind: Type) -> Type:
    """An object of str keys whose values are each `kind`."""
    return Type(f"str -> {kind.words}",
                lambda x: _keyed(x) and all(kind.check(v) for v in x.values()))


@dataclass(frozen=True)
class Field:
    """One field of a message."""

    name: str
    type: Type
    doc: str
    required: bool = True


@dataclass(frozen=True)
class Message:
    """One kind of message: who sends it, its fields, and (a request) its reply.

    `choose`: groups of fields of which exactly one is present; `nested`: a request the
    judge may send inside its answer to a question (``{"do": ...}``)."""

    name: str
    sender: str
    doc: str
    fields: tuple[Field, ...]
    reply: Message | None = None
    choose: tuple[tuple[str, ...], ...] = ()
    nested: bool = False
    by_name: dict[str, Field] = slot(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {f.name: f for f in self.fields})

    def field(self, name: str) -> Field | None:
        """The field called `name`, or None."""
        return self.by_name.get(name)

    def problem(self, data: Any) -> str | None:
        """What is wrong with `data` as this message (None: it fits)."""
        if type(data) is not dict:
            return f"{self.name}: not an object"
        for key, value in data.items():
            each = self.field(key) if type(key) is str else None
            if each is None:
                return f"{self.name}: unknown field {str(key)[:40]!r}"
            if not each.type.check(value):
                return f"{self.name}: {key} must be {each.type.words}"
        for each in self.fields:
            if each.required and each.name not in data:
                return f"{self.name}: no {each.name}"
        for group in self.choose:
            if sum(name in data for name in group) != 1:
                return f"{self.name}: exactly one of {', '.join(group)}"
        return None

    def check(self, data: Any) -> dict[str, Any]:
        """`data` when it fits this message, else `ProtocolError`."""
        problem = self.problem(data)
        if problem is not None:
            raise ProtocolError(problem)
        return data  # type: ignore[no-any-return]


def shaped(message: Message) -> Type:
    """A field holding one `message` (an object)."""
    return Type(message.name, lambda x: message.problem(x) is None)


JUDGE, KERNEL, EXECUTOR = "judge", "kernel", "executor"

OK = Field("ok", TRUE, "the request was answered")
VIOLATIONS = Field("violations", STRS, "the forbidden references the student's code "
                   "called, the first first", required=False)
FORBID = Field("forbid", STRS, "the references forbidden while it runs (puzzlekit's "
               "names)")

#: an exception of the student's code, as data (the judge makes its twin)
ERROR = Message("error report", KERNEL, "An exception the student's code raised.", (
    Field("ename", STR, "its class's name"),
    Field("evalue", STR, "its text (at most 5,000 characters)"),
    Field("traceback", STRS, "the notebook's traceback lines (the kernel's own frames "
          "left out)"),
    Field("chain", CHAIN, "its class's MRO as (module, qualname) pairs, `object` left "
          "out", required=False),
    Field("args", VALUE, "its arguments, when they are small plain data", required=False),
))
#: an exception of the test's function, for the student's code (a question's answer)
SHORT_ERROR = Message("test's error", JUDGE, "An exception the test's function raised.", (
    Field("ename", STR, "its class's name"),
    Field("evalue", STR, "its text"),
))
#: what the kernel holds under one name (reply of "names")
FOUND = Message("found", KERNEL, "What the kernel holds under one name.", (
    Field("kind", one_of("missing", "data", "callable", "object", "class", "module"),
          "what it is"),
    Field("raised", maybe(STR), "missing: the error of the cell that would have bound it",
          required=False),
    Field("value", VALUE, "data: a copy; otherwise a handle (``[\"x\", {\"$h\": n, ...}]``)",
          required=False),
    Field("returns", maybe(STR), "callable: how its code returns (`RETURN_KINDS`)",
          required=False),
    Field("chain", CHAIN, "class: its MRO as (module, qualname) pairs", required=False),
    Field("module", STR, "module: its name", required=False),
))

#: the reply of every request that could not be answered
FAULT = Message("fault", KERNEL, "A request the agent could not answer (the executor "
                "sends one too, for a reply it refused before reading it).", (
    Field("ok", FALSE, "not answered"),
    Field("fault", STR, "why (an exception's name and text, or the executor's words)"),
    Field("too_big", TRUE, "the executor's: the reply was over a size bound",
          required=False),
    Field("spent", TRUE, "the executor's: over the notebook's bytes from the kernel",
          required=False),
    Field("limit", STR, "the executor's: that bound, in words", required=False),
))


def _request(name: str, sender: str, doc: str, fields: tuple[Field, ...],
             reply: tuple[Field, ...], choose: tuple[tuple[str, ...], ...] = (),
             reply_choose: tuple[tuple[str, ...], ...] = (), nested: bool = False,
             reply_doc: str = "") -> Message:
    kind = Field("kind", one_of(name), "the request's kind")
    answer = Message(f"reply to {name}", KERNEL, reply_doc or f"The agent's answer to "
                     f"a {name} request.", (OK, *reply), choose=reply_choose)
    return Message(name, sender, doc, (kind, *fields), answer, choose, nested)


CALL = _request(
    "call", JUDGE,
    "Call one of the student's functions (by name), a handle's object, or step an "
    "iterator the kernel holds; with the test's forbidden references disabled, its "
    "recorders, and its `random` state.", (
        Field("name", STR, "the notebook's global to call", required=False),
        Field("h", INT, "the handle of the object to call", required=False),
        Field("next", INT, "the handle of an iterator to step (one ``next``; more items "
              "at once for iterators over plain containers)", required=False),
        Field("args", VALUES, "the positional arguments"),
        Field("kwargs", NAMED_VALUES, "the keyword arguments"),
        Field("random", maybe(VALUE), "the state the kernel's `random` must have first "
              "(null: the kernel's state is the judge's already)"),
        FORBID,
        Field("record", keyed(maybe(INT)), "the notebook's functions to record by name, "
              "each with its limit of calls (null: no limit)", required=False),
    ), (
        Field("value", VALUE, "what the call returned (the objects it was given come "
              "back as ``{\"$arg\": n}``)", required=False),
        Field("error", shaped(ERROR), "what the call raised", required=False),
        Field("recorded", VALUE, "what the recorders saw, by recorder", required=False),
        VIOLATIONS,
        Field("stdout", STR, "what the call printed (at most 10,000,000 characters)",
              required=False),
        Field("stderr", STR, "what it wrote to stderr (at most 1,000,000)", required=False),
        Field("mutated", NAMED_VALUES, "every list, dict, set and array it was given, as "
              "the call left it, by its number among the call's containers",
              required=False),
        Field("random", maybe(VALUE), "the kernel's `random` state after the call (null: "
              "unchanged)", required=False),
    ), choose=(("name", "h", "next"),), reply_choose=(("value", "error"),), nested=True)

OP = _request(
    "op", JUDGE,
    "One operation on one of the student's objects (its own methods run the student's "
    "code, so the references the test forbids are disabled as in a call).", (
        Field("h", INT, "the object's handle"),
        Field("op", one_of(*OPERATIONS), "the operation"),
        Field("arg", VALUE, "its argument (null when it takes none)"),
        Field("forbid", STRS, "the references forbidden while it runs", required=False),
    ), (
        Field("value", VALUE, "the operation's result", required=False),
        Field("error", shaped(ERROR), "what it raised", required=False),
        Field("violations", STRS, "the forbidden references called, when any",
              required=False),
    ), reply_choose=(("value", "error"),), nested=True)

NAMES = _request(
    "names", JUDGE,
    "What the student's notebook holds under some names (a test reads a name no given "
    "or test cell bound).", (
        Field("names", STRS, "the names"),
    ), (
        Field("names", keyed(shaped(FOUND)), "each name's value, or how it is missing",
              required=False),
    ), nested=True)

SET = _request(
    "set", JUDGE,
    "Give the student's names the values a test cell bound or changed (only names the "
    "notebook has; never one with two leading underscores); or, with ``has``, only ask "
    "which of these names the notebook's functions read.", (
        Field("values", NAMED_VALUES, "the values, by name"),
        Field("has", STRS, "the names to ask about (then nothing is set)",
              required=False),
    ), (
        Field("has", STRS, "has: the names the notebook's functions read",
              required=False),
        Field("set", STRS, "the names set", required=False),
        Field("missing", STRS, "the names not set (the notebook has none such)",
              required=False),
    ), nested=True)

COUNT = _request("count", EXECUTOR, "Number the kernel's next cell (tracebacks name it).",
                 (Field("n", INT, "its execution count"),), ())
PING = _request("ping", EXECUTOR, "Is the agent answering? (after an interrupt)", (), ())
MEMORY = _request("memory", EXECUTOR, "The kernel's address space now.", (), (
    Field("vm", maybe(INT), "in bytes (null: not readable)", required=False),))
SEEN = _request(
    "seen", EXECUTOR,
    "What the kernel's guard refused, and which of puzzlekit's names were rebound "
    "(asked at the end of the notebook).", (), (
        Field("seen", OBJECTS, "the guard's refusals, each ``{\"what\": str, \"cell\": "
              "int}`` (read leniently: an entry that is not so is left out)",
              required=False),
        Field("changed", STRS, "the names rebound", required=False),
    ))

#: every request, by kind
REQUESTS: dict[str, Message] = {m.name: m for m in (CALL, OP, NAMES, SET, COUNT, PING,
                                                     MEMORY, SEEN)}

#: the kernel asks about a stand-in of the test's (an input request's prompt after `ASK`)
QUESTION = Message(
    "question", KERNEL,
    "The student's code used a function or object of the test's (a stand-in): the judge "
    "runs it and answers. Asked only while a request runs.", (
        Field("j", INT, "the stand-in's number (as the judge sent it: ``{\"$j\": n}``)"),
        Field("op", named(*STAND_IN_OPERATIONS), "what the student's code did (the judge "
              "answers another with a TypeError)"),
        Field("args", VALUES, "call: the positional arguments", required=False),
        Field("kwargs", NAMED_VALUES, "call: the keyword arguments", required=False),
        Field("arg", VALUE, "another operation's argument", required=False),
    ))
#: the kernel's reply to a nested request, as its next question
DONE = Message(
    "done", KERNEL, "The reply to a request nested in the judge's answer (``do``), "
    "checked as that request's reply.", (
        Field("done", Type("reply", lambda x: type(x) is dict), "the reply"),
    ))
#: the judge's answer to a question (the input reply's text)
ANSWER = Message(
    "answer", JUDGE, "The judge's answer to a question: what the test's function returned "
    "or raised, or first a request of its own (its reply comes as the next question).", (
        Field("value", VALUE, "what it returned", required=False),
        Field("error", shaped(SHORT_ERROR), "what it raised (raised again in the student's "
              "code)", required=False),
        Field("do", Type("request", lambda x: type(x) is dict), "a nested request (a "
              "kind marked nested)", required=False),
    ), choose=(("value", "error", "do"),))

#: the messages the reference page shows, in its order
MESSAGES: tuple[Message, ...] = (*REQUESTS.values(), FAULT, ERROR, FOUND, QUESTION, DONE,
                                 ANSWER, SHORT_ERROR)


# -- building and checking -----------------------------------------------------------

def request(kind: str, **fields: Any) -> dict[str, Any]:
    """A request of `kind` with `fields`, checked (`ProtocolError` if it does not fit)."""
    message = REQUESTS.get(kind)
    if message is None:
        raise ProtocolError(f"unknown request kind {kind[:40]!r}")
    return message.check({"kind": kind, **fields})


def check_request(data: Any, nested: bool = False) -> dict[str, Any]:
    """`data` when it is a request (one the judge may nest, if `nested`)."""
    kind = data.get("kind") if type(data) is dict else None
    message = REQUESTS.get(kind) if type(kind) is str else None
    if message is None:
        raise ProtocolError(f"unknown request kind {str(kind)[:40]!r}")
    if nested and not message.nested:
        raise ProtocolError(f"a {kind} request cannot be nested in an answer")
    return message.check(data)


def reply(kind: str, **fields: Any) -> dict[str, Any]:
    """The reply to a `kind` request with `fields` (``ok`` added), checked."""
    return check_reply(kind, {"ok": True, **fields})


def fault(why: str, **fields: Any) -> dict[str, Any]:
    """A fault reply (`FAULT`), checked."""
    return FAULT.check({"ok": False, "fault": why, **fields})


def check_reply(kind: str, data: Any) -> dict[str, Any]:
    """`data` when it is a reply to a `kind` request, or a fault; else `ProtocolError`."""
    if type(data) is dict and data.get("ok") is False:
        return FAULT.check(data)
    answer = REQUESTS[kind].reply
    assert answer is not None
    return answer.check(data)


def question(op: str, j: int, **fields: Any) -> dict[str, Any]:
    """A question about the stand-in `j`, checked."""
    return QUESTION.check({"j": j, "op": op, **fields})


def answer(**fields: Any) -> dict[str, Any]:
    """The judge's answer to a question, checked."""
    return ANSWER.check(fields)


def done_prompt(reply_text: str) -> str:
    """The question that carries the reply (JSON text) of a nested request."""
    return '{"done":' + reply_text + "}"


def is_done(prompt: str) -> bool:
    """Whether a question's prompt (with `ASK`) carries a nested request's reply."""
    return prompt.startswith(ASK + '{"done":')


def walk() -> Iterator[Message]:
    """Every message with the replies of the requests, as the reference shows them."""
    for message in MESSAGES:
        yield message
        if message.reply is not None:
            yield message.reply
