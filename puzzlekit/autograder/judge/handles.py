"""Handles: the student's objects as the judge holds them, living in the kernel.

A function the student defined is a `RemoteFunction` (calling it runs it in the kernel),
any other object a `Remote` (one handle per kernel object), an iterator a
`RemoteIterator` (stepped in the kernel one item per ``next``) and a class a
`RemoteClass` (``isinstance`` asks the kernel). Every operation on them is a request the
judge sends (`puzzlekit.autograder.judge.judge.Judge.call` and ``operate``); none runs
the student's code in the grader's process.

A handle keeps the `Terms` of the call that produced it: the references the test forbade
then, and the time budgets (`Budget`) of the ``run_with_timeout`` blocks it ran in. Every
later use of the handle (``next``, iteration, ``len``, a comparison, a call) runs under
those terms as well as under the test's terms at that moment: a search that returns a
generator, whose body runs only when the test steps it, still runs with the reference
forbidden and on the budget of the call that returned it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from ...testcells.catalogue import (
    CANNOT_STEP,
    HANDLE_NOT_HASHED,
    HASH_NOT_INT,
    ITER_NOT_ITERATOR,
    NOT_PLAIN_DATA,
)
from .. import wire


@dataclass(eq=False)
class Budget:
    """The time one ``run_with_timeout`` block gave the calls in it, as it is used up:
    seconds of the kernel's CPU time (None where it cannot be read) and seconds on the
    clock (the backstop). Shared by every handle the block's calls returned, so that the
    work the student's code does later, when the test uses one, counts as the call's."""

    cpu_left: float | None
    wall_left: float | None
    #: what the student reads when the budget runs out (the block's own words)
    message: str
    #: the block's function's name and its backstop, for the words of a call that waited
    name: str = "your function"
    backstop: float = 0.0

    def charge(self, cpu: float | None, wall: float) -> None:
        """Count `cpu` seconds of computing time and `wall` seconds on the clock."""
        if self.cpu_left is not None and cpu is not None:
            self.cpu_left -= max(cpu, 0.0)
        if self.wall_left is not None:
            self.wall_left -= max(wall, 0.0)

    @property
    def spent(self) -> bool:
        return (self.cpu_left is not None and self.cpu_left <= 0) or \
            (self.wall_left is not None and self.wall_left <= 0)


@dataclass(frozen=True)
class Terms:
    """What a handle carries from the call that produced it (see the module docstring)."""

    forbid: frozenset[str] = frozenset()
    budgets: tuple[Budget, ...] = ()

    def joined(self, other: Terms) -> Terms:
        """Both terms at once: every forbidden name, every budget (each once)."""
        if other is self or (not other.forbid and not other.budgets):
            return self
        budgets = self.budgets + tuple(b for b in other.budgets
                                       if all(b is not mine for mine in self.budgets))
        return Terms(self.forbid | other.forbid, budgets[-MAX_BUDGETS:])


#: no terms: a handle fetched by name, or one produced with nothing forbidden or timed
NO_TERMS = Terms()
#: the budgets a handle keeps at most (the innermost blocks, the latest)
MAX_BUDGETS = 16


def _plain_only() -> None:
    """While `wire` tallies the hashes of a value, a handle in it is not asked (the
    kernel is not called in the middle of decoding a reply)."""
    if wire.PLAIN_ONLY.get():
        raise TypeError(HANDLE_NOT_HASHED)


def terms_of(value: object) -> Terms:
    """The terms a handle carries (`NO_TERMS` for anything else)."""
    if isinstance(value, Remote):
        return object.__getattribute__(value, "_terms")  # type: ignore[no-any-return]
    return NO_TERMS


class Grader(Protocol):
    """What a handle asks of the judge."""

    def call(self, target: dict[str, Any], name: str, args: tuple[Any, ...],
             kwargs: dict[str, Any], handle: Remote | None = None) -> Any: ...

    def operate(self, remote: Remote, op: str, arg: object) -> Any: ...


class RemoteFunction:
    """A function the student defined, called in the student's kernel. `code_returns`:
    how its code returns, as the kernel read its source (`puzzlekit.testcells.messages.
    return_kind`: "no return", "returns a value", "returns None"), None if unread; it
    only chooses the words of a failure about a None it returned."""

    def __init__(self, judge: Grader, name: str, code_returns: str | None = None) -> None:
        self._judge, self.__name__ = judge, name
        self.code_returns = code_returns

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._judge.call({"name": self.__name__}, self.__name__, args, kwargs)

    def __repr__(self) -> str:
        return f"<your function {self.__name__}>"


class Remote:
    """A handle on an object that lives in the student's kernel (one per object: the
    same kernel object is the same handle, so ``is`` holds between handles)."""

    __slots__ = ("_judge", "_h", "_type", "_repr", "_terms", "__weakref__")

    def __init__(self, judge: Grader, tagged: dict[str, Any], terms: Terms = NO_TERMS) -> None:
        object.__setattr__(self, "_judge", judge)
        object.__setattr__(self, "_terms", terms)
        object.__setattr__(self, "_h", tagged["$h"])
        object.__setattr__(self, "_type", str(tagged.get("type", "object"))[:100])
        object.__setattr__(self, "_repr", str(tagged.get("repr", ""))[:300])

    def _op(self, op: str, arg: object = None) -> Any:
        return self._judge.operate(self, op, arg)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._op("getattr", name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._judge.call({"h": self._h}, self._type, args, kwargs, handle=self)

    def __eq__(self, other: object) -> bool:
        # the student's __eq__ decides only between the student's own objects
        _plain_only()
        if isinstance(other, Remote) or other is None:
            return self._op("eq", other) is True
        return False

    def __ne__(self, other: object) -> bool:
        _plain_only()
        if isinstance(other, Remote) or other is None:
            return self._op("ne", other) is True
        return True

    def __hash__(self) -> int:
        _plain_only()
        value = self._op("hash")
        if type(value) is not int:
            raise TypeError(HASH_NOT_INT.format(kind=self._type))
        return value

    def __iter__(self) -> Iterator[Any]:
        """The object's own iterator, stepped in the kernel as the test asks."""
        it = self._op("iterator")
        if isinstance(it, RemoteIterator):
            return it
        if isinstance(it, Remote):
            raise TypeError(ITER_NOT_ITERATOR.format(kind=self._type))
        return iter(it)

    def __len__(self) -> int:
        value = self._op("len")
        if type(value) is not int or value < 0:
            raise TypeError(f"len() of your {self._type} is not a whole number")
        return value

    def __contains__(self, item: object) -> bool:
        said = self._op("contains", item)
        if said is None:        # no __contains__: the items, compared here
            return any(x is item or x == item for x in self)
        return said is True

    def __getitem__(self, key: object) -> Any:
        return self._op("getitem", key)

    def __bool__(self) -> bool:
        return self._op("bool") is True

    def __str__(self) -> str:
        text = self._op("str")
        return text if type(text) is str else self._repr

    def __repr__(self) -> str:
        return self._repr or f"<your {self._type}>"


class RemoteIterator(Remote):
    """An iterator (a generator, ...) of the student's code, stepped in the kernel one
    item per ``next`` (a few at once only for iterators over plain containers, where
    stepping ahead cannot be seen), so that an endless generator works with islice."""

    __slots__ = ("_buffer", "_done", "_batch")

    def __init__(self, judge: Grader, tagged: dict[str, Any], terms: Terms = NO_TERMS) -> None:
        super().__init__(judge, tagged, terms)
        object.__setattr__(self, "_buffer", [])
        object.__setattr__(self, "_done", False)
        object.__setattr__(self, "_batch", 64 if tagged.get("batch") is True else 1)

    def __iter__(self) -> RemoteIterator:
        return self

    def __next__(self) -> Any:
        buffer = self._buffer
        if not buffer:
            if self._done:
                raise StopIteration
            step = self._judge.call({"next": self._h}, f"next() of your {self._type}",
                                    (self._batch,), {}, handle=self)
            if type(step) is not dict or type(step.get("items")) is not list:
                raise TypeError(CANNOT_STEP.format(kind=self._type))
            buffer.extend(step["items"])
            if step.get("done") is True:
                object.__setattr__(self, "_done", True)
                if not buffer:
                    raise StopIteration(step.get("result"))
        return buffer.pop(0)


class RemoteClass:
    """A class the student defined (not an exception): calling it makes an instance in
    the kernel; ``isinstance(x, C)`` and ``issubclass`` ask the kernel about the
    student's own objects (the judge's data is never an instance of it)."""

    def __init__(self, judge: Grader, name: str, handle: Remote) -> None:
        self._judge, self.__name__, self._handle = judge, name, handle

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._handle(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._handle, name)

    def __instancecheck__(self, obj: object) -> bool:
        if not isinstance(obj, Remote):
            return False
        return self._judge.operate(obj, "isinstance", self._handle) is True

    def __subclasscheck__(self, cls: object) -> bool:
        if not isinstance(cls, RemoteClass):
            return False
        return self._judge.operate(cls._handle, "issubclass", self._handle) is True

    def __repr__(self) -> str:
        return f"<your class {self.__name__}>"


def handle_only(value: object) -> dict[str, Any]:
    """How a value bound by a test names the student's own objects, sent back."""
    if isinstance(value, RemoteFunction):
        return {"$ref": value.__name__}
    if isinstance(value, Remote):
        return {"$h": object.__getattribute__(value, "_h")}
    raise wire.WireError(NOT_PLAIN_DATA)
