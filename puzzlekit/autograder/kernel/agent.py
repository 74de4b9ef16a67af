"""The grader's agent inside a student's kernel, used only while autograding.

The grader (`puzzlekit.autograder.judge.judge`) runs the graded tests itself. When a test calls a
function the student wrote, the grader asks this agent (a shell message of its own,
``puzzlekit_request``, whose handler `install` adds to the kernel before any student
code runs) to call it here, in the student's kernel, with plain-data arguments
(`puzzlekit.autograder.wire`). The agent answers with plain data: the value returned,
what was printed, the arguments as the call left them (a test may check that a list was
not changed), the state of `random`, and which forbidden puzzlekit references were
called. Objects that are not plain data stay here; the grader gets a numbered handle
(one number per object, so the same object is the same handle on the grader's side).

For the duration of one call the agent remembers the objects it built from the call's
arguments (`_given`): one of them in what the call returns, prints into a mutated
argument or leaves in an argument crosses back as a reference (``{"$arg": n}``) that
the grader maps to its own object, so ``path[0] is start`` holds as in plain Python; and
every list, dict, set and array among them is sent back as the call left it (the
grader updates its own in place). An exception crosses as its class chain (names, by
MRO) and its arguments when they are plain data; a class as its chain and a handle.

A function or object of the test (a closure that records calls, a lambda, a
``functools.partial``, a bound method, an object whose methods the student's code calls)
stays in the grader: it arrives here as a stand-in (`_Callback`, `_TestObject`) that asks
the grader over the kernel's stdin channel each time the student's code uses it, so that
it runs where the test's own names live, as it would under plain nbgrader. While the
grader answers, it may ask this kernel something first (the test's function calls the
student's): the reply is then ``{"do": request}``, and the agent answers it with the next
question (``{"done": answer}``). A stand-in works only while the grader is asking this
kernel something.

Every message is one of `puzzlekit.autograder.protocol`'s: the agent checks each request
and builds its replies and questions through it (a sealed copy of its own, `install`).
Nothing the agent says is trusted: the grader checks every reply's shape, re-builds every
value from primitives and checks it itself. A student's code can make the agent lie, but
only about what its own code returned, which is what the tests check anyway.
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import importlib
import io
import itertools
import json
import marshal
import random
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...testcells import Forbidden, forbidding, sealed_forbidding
from ...testcells.catalogue import (GRADER_ANSWER_UNREADABLE, NOT_NOW, TEST_FUNCTION,
                                     TEST_FUNCTION_FAILED)
from ...testcells.instrument import Recorder
from ...testcells.messages import raised_before, return_kind
from .. import protocol, wire
from . import guard

_handles: dict[int, object] = {}
_numbers = itertools.count(1)
#: the number of the handle of each object sent as one, by its id (kept alive by _handles)
_numbered: dict[int, int] = {}
#: the objects built from the arguments of the call running now, and their numbers by id
_given: list[Any] = []
_refs: dict[int, int] = {}
#: iterators that may be stepped ahead without running the student's code
_EMPTY: tuple[Any, ...] = ([], (), "", {}, set(), frozenset(), range(0), b"", {}.values(),
                           {}.items())
_PLAIN_ITERATORS: frozenset[type] = frozenset(type(iter(x)) for x in _EMPTY)
#: The recorders the grader sent with the call running now, by their number.
_recorders: dict[str, Recorder] = {}
#: the grader's requests being answered now, innermost last: (idents, message), so that a
#: stand-in can ask the grader over the stdin channel (routed by the request's idents)
_asking: list[tuple[Any, Any]] = []



class _Callback:
    """Stands in for a function of the test: calling it runs the test's function in the
    grader and returns (or raises) what it did."""

    __slots__ = ("_j", "__name__", "__qualname__")

    def __init__(self, number: int, name: str) -> None:
        self._j, self.__name__, self.__qualname__ = number, name, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _ask(protocol.question("call", self._j, args=[_out(a) for a in args],
                                      kwargs={str(k): _out(v) for k, v in kwargs.items()}))

    def __repr__(self) -> str:
        return TEST_FUNCTION.format(name=self.__name__)


class _TestObject:
    """Stands in for an object of the test: its public attributes and methods, and the
    operations a student's code commonly uses, are answered by the grader."""

    __slots__ = ("_j", "_type")

    def __init__(self, number: int, kind: str) -> None:
        object.__setattr__(self, "_j", number)
        object.__setattr__(self, "_type", kind)

    def _op(self, op: str, arg: Any = None) -> Any:
        return _ask(protocol.question(op, object.__getattribute__(self, "_j"), arg=_out(arg)))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):        # the grader answers only public names
            raise AttributeError(name)
        return self._op("getattr", name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _ask(protocol.question("call", object.__getattribute__(self, "_j"),
                                      args=[_out(a) for a in args],
                                      kwargs={str(k): _out(v) for k, v in kwargs.items()}))

    def __len__(self) -> int:
        return self._op("len")  # type: ignore[no-any-return]

    def __iter__(self) -> Any:
        return iter(self._op("iter"))

    def __getitem__(self, key: Any) -> Any:
        return self._op("getitem", key)

    def __contains__(self, item: Any) -> bool:
        return self._op("contains", item) is True

    def __eq__(self, other: object) -> bool:
        return self._op("eq", other) is True

    def __ne__(self, other: object) -> bool:
        return self._op("eq", other) is not True

    def __hash__(self) -> int:
        return self._op("hash")  # type: ignore[no-any-return]

    def __bool__(self) -> bool:
        return self._op("bool") is True

    def __str__(self) -> str:
        return str(self._op("str"))

    def __repr__(self) -> str:
        return str(self._op("repr"))


def _ask(question: dict[str, Any]) -> Any:
    """Ask the grader about the test's function or object (see the module docstring)."""
    if not _asking:
        raise RuntimeError(NOT_NOW)
    idents, parent = _asking[-1]
    kernel = _shell().kernel
    prompt = json.dumps(question, separators=(",", ":"))
    while True:
        text = kernel._input_request(protocol.ASK + prompt, idents, parent, password=False)
        try:
            reply = protocol.answer(**json.loads(text))
        except (ValueError, TypeError):
            raise RuntimeError(GRADER_ANSWER_UNREADABLE) from None
        if "do" in reply:       # the grader asks this kernel something first
            prompt = protocol.done_prompt(answer(reply["do"], nested=True))
            continue
        if "error" in reply:
            raise _twin(reply["error"])
        return wire.decode(reply.get("value"), _resolve)


def _twin(error: Any) -> BaseException:
    """The exception a function of the test raised, raised again here (its builtin class
    where it has one, so a student's ``except ValueError`` works as under plain nbgrader)."""
    if type(error) is not dict:
        return RuntimeError(TEST_FUNCTION_FAILED)
    ename, evalue = str(error.get("ename", "Exception")), str(error.get("evalue", ""))
    cls = getattr(builtins, ename, None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = type(ename if ename.isidentifier() else "TestError", (Exception,), {})
    try:
        return cls(evalue)
    except Exception:
        return RuntimeError(f"{ename}: {evalue}")


def _shell() -> Any:
    from IPython import get_ipython
    return get_ipython()


def _namespace() -> dict[str, Any]:
    shell = _shell()
    return shell.user_ns if shell is not None else vars(sys.modules["__main__"])


def _as_handle(value: object) -> dict[str, Any]:
    number = _numbered.get(id(value))
    if number is None or _handles.get(number) is not value:
        number = next(_numbers)
        _handles[number] = value
        _numbered[id(value)] = number
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    tagged = {"$h": number, "type": type(value).__name__, "repr": text[:300]}
    if hasattr(type(value), "__next__"):
        tagged["iter"] = True
        tagged["batch"] = type(value) in _PLAIN_ITERATORS
    return tagged


def _chain(cls: Any) -> list[list[str]]:
    """A class's chain as [module, qualname] pairs, by its MRO (object left out)."""
    chain = []
    for c in getattr(cls, "__mro__", (cls,))[:30]:
        if c is object:
            continue
        try:
            chain.append([str(c.__module__)[:200], str(c.__qualname__)[:200]])
        except Exception:
            chain.append(["", "?"])
    return chain


def _resolve(tagged: dict) -> Any:
    """A tagged argument from the grader: a handle, or a function to run here."""
    if "$h" in tagged:
        return _handles[tagged["$h"]]
    if "$ref" in tagged:
        name = tagged["$ref"]
        space = _namespace()
        return space[name] if name in space else getattr(builtins, name)
    if "$py" in tagged:
        module, _, qualname = tagged["$py"].partition(":")
        value: Any = importlib.import_module(module)
        for part in qualname.split(".") if qualname else ():
            value = getattr(value, part)
        return value
    if "$j" in tagged:      # a function or object of the test, answered by the grader
        number, name = tagged["$j"], str(tagged.get("name", "function"))[:100]
        if type(number) is not int:
            raise wire.WireError("a stand-in without a number")
        return _Callback(number, name) if tagged.get("kind") == "callable" \
            else _TestObject(number, name)
    if "$code" in tagged:   # a function of the test that needs nothing of the test's
        code = marshal.loads(base64.b64decode(tagged["$code"]))
        own: dict[str, Any] = {"__builtins__": builtins, "__name__": "__main__"}
        if tagged.get("globals"):
            own.update(wire.loads(tagged["globals"], _resolve))
        defaults = tagged.get("defaults")
        return types.FunctionType(code, own, tagged.get("name", "<lambda>"),
                                  tuple(wire.loads(defaults, _resolve)) if defaults else None)
    if "$rec" in tagged:        # a recording wrapper around the function tagged "of:..."
        inner = {k[3:]: v for k, v in tagged.items() if k.startswith("of:")}
        limit = tagged.get("limit")
        recorder = Recorder(_resolve(inner), limit=limit if type(limit) is int else None,
                            name=str(tagged.get("name") or "") or None)
        _recorders[str(tagged["$rec"])] = recorder
        return recorder
    raise wire.WireError("unknown tag")


def _other(value: object) -> Any:
    if type(value) in (_Callback, _TestObject):      # the grader's own, back to it
        return {"$j": object.__getattribute__(value, "_j")}
    return _as_handle(value)


def _out(value: object) -> Any:
    return wire.encode(value, _other, refs=_refs)


def _contents(value: object) -> Any:
    """One of the call's own arguments as the call left it (its items may be refs)."""
    number = _refs.pop(id(value))
    try:
        return _out(value)
    finally:
        _refs[id(value)] = number


def _mutable(value: object) -> bool:
    if type(value) in (list, dict, set):
        return True
    np = sys.modules.get("numpy")
    return np is not None and type(value) is np.ndarray


def _mutated() -> dict[str, Any]:
    """Every list, dict, set and array built from the call's arguments, as left."""
    return {str(i): _contents(x) for i, x in enumerate(_given) if _mutable(x)}


def _target(req: dict) -> Any:
    if "name" in req:
        return _namespace()[req["name"]]
    if "next" in req:   # stepping an iterator is a call: forbidden names, random, output
        iterator = _handles[req["next"]]
        return lambda n=1: _step(iterator, n)
    return _handles[req["h"]]


def _error(e: BaseException) -> dict[str, Any]:
    """A student's exception as data: its name, message and the notebook's traceback.

    After a MemoryError the frames of the failed call still hold what filled the memory;
    they are cleared first, or writing the report itself runs out of memory (a search
    that kept every board stopped the kernel so, 2 runs in 2) and the grader hears only
    that the kernel stopped, not that the student's code ran out of memory."""
    if isinstance(e, MemoryError):
        traceback.clear_frames(e.__traceback__)
        try:
            return _report(e)
        except MemoryError:
            return {"ename": "MemoryError", "evalue": "", "traceback": []}
    return _report(e)


#: The frames of a traceback the report formats: the first few and the last ones. A
#: recursion thousands deep has thousands of frames, and IPython takes about 3 ms for
#: each (9.5 s for 3,000): the call's time ran out while its error was being written,
#: and the student read "did not finish" where the error was "recursion too deep".
FIRST_FRAMES, LAST_FRAMES = 3, 30


def _ends(tb: types.TracebackType | None) -> types.TracebackType | None:
    """`tb` with only its first `FIRST_FRAMES` and last `LAST_FRAMES` frames."""
    frames: list[types.TracebackType] = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if len(frames) > FIRST_FRAMES + LAST_FRAMES:
        frames = frames[:FIRST_FRAMES] + frames[-LAST_FRAMES:]
    new: types.TracebackType | None = None
    for old in reversed(frames):
        new = types.TracebackType(new, old.tb_frame, old.tb_lasti, old.tb_lineno)
    return new


def _report(e: BaseException) -> dict[str, Any]:
    lines: list[str]
    tb = e.__traceback__        # from the student's code on: no frame of the agent's own
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    tb = _ends(tb)
    try:
        if tb is None:      # raised in the agent's own operation (hash, len, ==): no frame
            lines = []      # of the student's to show; the judge says the error's line
        else:
            lines = _shell().InteractiveTB.structured_traceback(type(e), e, tb, tb_offset=0)
    except Exception:
        lines = traceback.format_exception(type(e), e, tb)
    report = {"ename": type(e).__name__, "evalue": str(e)[:5000],
              "traceback": [str(line)[:5000] for line in lines[-40:]],
              "chain": _chain(type(e))}
    try:        # its arguments, when they are small plain data
        args = wire.encode(tuple(e.args))
        if len(json.dumps(args)) <= 100_000:
            report["args"] = args
    except Exception:
        pass
    return report


@contextlib.contextmanager
def _recording(wanted: Any) -> Any:
    """While the call runs, the notebook's functions named in `wanted` (name -> limit)
    are recorders around themselves; yields those recorders by name."""
    space = _namespace()
    made: dict[str, Recorder] = {}
    if type(wanted) is dict:
        for name, limit in wanted.items():
            if type(name) is str and callable(space.get(name)):
                made[name] = Recorder(space[name], name=name,
                                      limit=limit if type(limit) is int else None)
                space[name] = made[name]
    try:
        yield made
    finally:
        for name, recorder in made.items():
            if space.get(name) is recorder:
                space[name] = recorder.func


def _call(req: dict) -> dict[str, Any]:
    _note_changes()
    outer = dict(_recorders)    # a call the grader makes while answering a stand-in
    try:
        return _call_here(req)
    finally:
        _recorders.clear()
        _recorders.update(outer)


def _call_here(req: dict) -> dict[str, Any]:
    func = _target(req)
    _recorders.clear()
    made: list[Any] = []
    args = [wire.decode(a, _resolve, made=made) for a in req.get("args", [])]
    kwargs = {k: wire.decode(v, _resolve, made=made) for k, v in req.get("kwargs", {}).items()}
    outer = list(_given), dict(_refs)       # a call made while another runs
    _given[:] = made            # kept alive, so that their ids stay theirs
    _refs.clear()
    _refs.update((id(x), i) for i, x in enumerate(made))
    try:
        return _run(req, func, args, kwargs)
    finally:
        _given[:] = outer[0]
        _refs.clear()
        _refs.update(outer[1])


def _run(req: dict, func: Any, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    if req.get("random") is not None:        # None: the kernel's state is the judge's
        random.setstate(wire.decode(req["random"]))
    before = random.getstate()
    out, err = io.StringIO(), io.StringIO()
    reply: dict[str, Any] = {}
    with forbidding(*req.get("forbid", [])) as calls, \
            _recording(req.get("record")) as by_name:
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                value = func(*args, **kwargs)
            reply["value"] = _out(value)
        except BaseException as e:   # the grader decides what it means
            reply["error"] = _error(e)
    if _recorders or by_name:
        reply["recorded"] = _out({**{k: r.record.as_data() for k, r in _recorders.items()},
                                  **{f"name:{k}": r.record.as_data()
                                     for k, r in by_name.items()}})
        _recorders.clear()
    reply["violations"] = list(dict.fromkeys(calls))    # the first call first
    reply["stdout"], reply["stderr"] = out.getvalue()[:10_000_000], err.getvalue()[:1_000_000]
    reply["mutated"] = _mutated()
    after = random.getstate()
    reply["random"] = None if after == before else wire.encode(after)
    return protocol.reply("call", **reply)


def _step(x: Any, n: Any) -> dict[str, Any]:
    """Up to `n` items of the iterator `x` (1 unless stepping ahead is not observable);
    ``done`` once it is exhausted, with the value its StopIteration carried."""
    items: list[Any] = []
    n = n if type(n) is int and 1 <= n <= 1000 else 1
    if n > 1 and type(x) not in _PLAIN_ITERATORS:
        n = 1
    try:
        while len(items) < n:
            items.append(next(x))
    except StopIteration as stop:
        return {"items": items, "done": True, "result": stop.value}
    return {"items": items, "done": False}


def _contains(x: Any, y: Any) -> Any:
    """``y in x`` when x's class says (its own __contains__); else None: the grader
    iterates x itself, so that no rigged __eq__ of an item decides about its data."""
    if getattr(type(x), "__contains__", None) is None:
        return None
    return y in x


_OPERATIONS = {
    "eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "hash": lambda x, _: hash(x),
    "len": lambda x, _: len(x), "iter": lambda x, _: list(x), "bool": lambda x, _: bool(x),
    "getitem": lambda x, y: x[y],
    "repr": lambda x, _: repr(x), "str": lambda x, _: str(x),
    "iterator": lambda x, _: iter(x), "contains": _contains,
    "isinstance": lambda x, y: isinstance(x, y) if isinstance(y, type) else False,
    "issubclass": lambda x, y: (isinstance(x, type) and isinstance(y, type)
                                and issubclass(x, y)),
}


def _operate(req: dict) -> dict[str, Any]:
    """One operation on a student's object: its own methods run the student's code, so
    the references the grader names are forbidden while it runs, as in a call."""
    obj = _target(req)
    arg = wire.decode(req.get("arg"), _resolve)
    names = req.get("forbid") or []
    guard: contextlib.AbstractContextManager[list[str]] = \
        forbidding(*names) if names else contextlib.nullcontext([])
    with guard as calls:
        try:
            if req["op"] == "getattr":
                value = getattr(obj, arg)
            else:
                value = _OPERATIONS[req["op"]](obj, arg)
            reply = {"value": _out(value)}
        except BaseException as e:
            reply = {"error": _error(e)}
    if calls:
        reply["violations"] = list(dict.fromkeys(calls))
    return protocol.reply("op", **reply)


def _return_kind(value: object) -> str | None:
    try:
        return return_kind(value)
    except Exception:       # a source that cannot be read: nothing said of it
        return None


def _names(req: dict) -> dict[str, Any]:
    space = _namespace()
    found: dict[str, Any] = {}
    for name in req["names"]:
        if name not in space:
            # the error of the cell that would have bound it, if it raised one
            found[name] = {"kind": "missing", "raised": raised_before(name)}
            continue
        value = space[name]
        try:
            found[name] = {"kind": "data", "value": wire.encode(value)}
        except wire.WireError:
            if isinstance(value, types.ModuleType):
                found[name] = {"kind": "module", "module": str(value.__name__)[:200],
                               "value": ["x", _as_handle(value)]}
            elif isinstance(value, type):
                found[name] = {"kind": "class", "chain": _chain(value),
                               "value": ["x", _as_handle(value)]}
            else:
                kind = "callable" if callable(value) else "object"
                found[name] = {"kind": kind, "value": ["x", _as_handle(value)]}
                if kind == "callable":      # its source is here: how its code returns
                    found[name]["returns"] = _return_kind(value)
    return protocol.reply("names", names=found)


def _read_by_functions(space: dict[str, Any]) -> set[str]:
    """The global names the notebook's functions and its classes' methods refer to."""
    codes: list[types.CodeType] = []
    for value in list(space.values()):
        value = getattr(value, "__wrapped__", value)    # functools.cache and the like
        if isinstance(value, types.FunctionType) and value.__globals__ is space:
            codes.append(value.__code__)
        elif isinstance(value, type) and value.__module__ == space.get("__name__"):
            for member in vars(value).values():
                member = getattr(member, "__func__", member)     # static, class methods
                if isinstance(member, types.FunctionType):
                    codes.append(member.__code__)
    names: set[str] = set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return names


def _assign(req: dict) -> dict[str, Any]:
    """Bind the values a test cell gave the student's names (only names the student's
    code has: a test's own names stay the grader's)."""
    space = _namespace()
    if type(req.get("has")) is list:        # which of these the student's functions read
        read = _read_by_functions(space)
        return protocol.reply("set", has=[n for n in req["has"] if type(n) is str
                                         and n in space and n in read])
    done, missing = [], []
    values = req.get("values", {})
    for name, encoded in values.items() if type(values) is dict else ():
        if type(name) is str and name in space and not name.startswith("__"):
            space[name] = wire.decode(encoded, _resolve)
            done.append(name)
        else:
            missing.append(name)
    return protocol.reply("set", set=done, missing=missing)


def _count(req: dict) -> dict[str, Any]:
    shell = _shell()
    if shell is not None:
        shell.execution_count = int(req["n"])
    return protocol.reply("count")


_DISPATCH = {"call": _call, "op": _operate, "names": _names, "count": _count, "set": _assign,
             "ping": lambda req: protocol.reply("ping"), "memory": lambda req: _memory(),
             "seen": lambda req: _seen(req)}


def _memory() -> dict[str, Any]:
    """The kernel's address space now, in bytes (what its memory limit counts)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        import resource
        return protocol.reply("memory", vm=pages * resource.getpagesize())
    except (OSError, ValueError, IndexError, ImportError):
        return protocol.reply("memory", vm=None)


def answer(req: dict[str, Any], nested: bool = False) -> str:
    """The reply to one request from the grader (`nested`: one the grader made in its
    answer to a question of this kernel's), as JSON text."""
    try:
        req = protocol.check_request(req, nested)
        return json.dumps(_DISPATCH[req["kind"]](req), separators=(",", ":"))
    except BaseException as e:
        return json.dumps(protocol.fault(f"{type(e).__name__}: {e}"[:2000]))


def _handle(stream: Any, idents: Any, msg: dict[str, Any]) -> None:
    """The kernel's handler of the grader's requests (a shell message of our own type,
    so that no student's input transformer or cell hook sits in the way)."""
    _asking.append((idents, msg))
    try:
        text = answer(msg.get("content", {}))
    finally:
        _asking.pop()
    kernel = _shell().kernel
    kernel.session.send(stream, protocol.REPLY, {"buffered": True}, msg, idents,
                        buffers=[text.encode("utf-8")])


#: what the guard saw: its refusals, and the names of puzzlekit rebound (on the sealed copy)
_changed: list[str] = []


def _seen(req: dict) -> dict[str, Any]:
    """What the guard refused and which of puzzlekit's names were rebound, so far."""
    _note_changes()
    return protocol.reply("seen", seen=_guard_seen(), changed=list(_changed))


def _note_changes() -> None:
    for name in _drift.changed():
        if name not in _changed and len(_changed) < guard.KEEP:
            _changed.append(name)


def _guard_seen() -> list[dict[str, Any]]:
    return []       # the agent's sealed copy reads the guard's own record


_drift = guard.Drift((), Forbidden)


def _remade(space: dict[str, Any], filename: str) -> Callable[[Any], Any]:
    """What re-makes a function of the file `filename` over `space` (other values as
    they are)."""
    def remade(value: Any) -> Any:
        if isinstance(value, types.FunctionType) and value.__code__.co_filename == filename:
            copy = types.FunctionType(value.__code__, space, value.__name__,
                                      value.__defaults__, value.__closure__)
            copy.__kwdefaults__ = value.__kwdefaults__
            return copy
        return value
    return remade


def _sealed_protocol() -> types.SimpleNamespace:
    """`protocol`'s names on a copy of their own, its functions re-made over it."""
    space = dict(vars(protocol))
    remade = _remade(space, protocol.__file__)
    for key, value in list(space.items()):
        space[key] = remade(value)
    return types.SimpleNamespace(**space)


def _sealed() -> dict[str, Any]:
    """The agent's names on a copy of their own, its functions re-made over it, with a
    `forbidding` whose references were looked up now, the guard's record, the names
    of puzzlekit as they are now, and a copy of `protocol` of its own: rebinding
    anything of this module, of `protocol`, of `puzzlekit.testcells` or of `sys.modules`
    later changes nothing the agent does."""
    space = dict(globals())
    remade = _remade(space, __file__)
    for key, value in list(space.items()):
        space[key] = remade(value)
    space["_DISPATCH"] = {kind: remade(f) for kind, f in _DISPATCH.items()}
    space["protocol"] = _sealed_protocol()
    space["forbidding"] = sealed_forbidding()
    space["_changed"] = []
    space["_drift"] = guard.Drift((m for name, m in sorted(sys.modules.items())
                                   if (name == "puzzlekit" or name.startswith("puzzlekit."))
                                   and isinstance(m, types.ModuleType)), Forbidden)
    return space


def install() -> str:
    """Make the kernel answer the grader's requests directly (called once per kernel),
    through a sealed copy of this module, behind the guard (`guard`)."""
    space = _sealed()
    kit = str(Path(__file__).resolve().parents[2])
    space["_guard_seen"] = guard.install(kit, [n for n in sys.modules
                                               if n == "puzzlekit" or n.startswith("puzzlekit.")])
    _shell().kernel.shell_handlers[protocol.REQUEST] = space["_handle"]
    return "ok"
