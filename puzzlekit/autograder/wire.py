"""Plain data on the wire between the grader and a student's kernel.

While a notebook is autograded, the verdict of every graded test is computed by the
grader (`puzzlekit.autograder.judge.judge`), and the student's code runs in its own kernel
(`puzzlekit.autograder.kernel.agent`). Values cross between them as JSON, so that the grader re-builds
them from primitive types only: a tuple of ints on the grader's side is a real tuple of
real ints, whatever object the student's code returned. Objects that are not plain data
(a student's class instance, a generator) stay in the kernel and cross as a *handle*
that the grader can only ask questions about.

Containers are JSON arrays whose first item says what they are (arrays parse several
times faster than objects, and a path of 20,000 boards is a common answer):

    None, bool, int, float, str   as themselves
    list, tuple                   ["l", ...], ["t", ...]
    set, frozenset                ["s", ...], ["f", ...]
    dict                          ["d", key, value, key, value, ...]
    bytes, inf/nan                ["b", "<base64>"], ["n", "inf"]
    complex                       ["c", real, imag] (each a float as above)
    numpy array, numpy scalar     ["a", dtype, shape, "<base64 of the data>"] (shape
                                  null for a scalar); bool, int, uint, float, complex
                                  and str dtypes only, little-endian; anything else is
                                  a handle
    anything else                 ["x", {...}]: a handle on a kernel object
                                  {"$h": 17, "type": ..., "repr": ...}, or a function
                                  sent to the kernel {"$ref": name}, {"$py": "mod:name"},
                                  {"$code": "<base64 marshal>", "name": ...}

`decode` is strict: anything else is a `WireError`, never an object of the sender's
choosing; an ``["x", ...]`` item reaches only the receiver's own `handle` function.
numpy is imported only to decode an array that is on the wire (``import puzzlekit``
never imports it), and only to encode one when the sender has imported numpy already.

Identity: `encode(..., seen=[])` lists the containers it encodes (lists, tuples, sets,
dicts, arrays) in the order they appear in the message, and `decode(..., made=[])` lists
the ones it builds in the same order, so both sides can number the objects of one
message alike; `encode(..., refs={id(obj): n})` sends ``["x", {"$arg": n}]`` for such an
object instead of its contents (the agent, for an object the grader passed in; the
grader maps it back to its own object, see `puzzlekit.autograder.judge.judge`).

`decode` is also bounded, so that what a kernel sends cannot make the grader's own work
slow in C code that no timer can interrupt: at most `MAX_ITEMS` items in all (and no
more than an `Allowance` has left: the items one notebook may still send), strings of
at most `MAX_STR` characters, bytes of at most `MAX_BYTES`, ints of at most `MAX_INT_BITS`
bits, and no value with items built to share one hash: more than `MAX_SAME_HASH`
different items with one hash anywhere in it (a set's, a dict's keys, or a list's or
tuple's items that a test may put in a set: ``set(path)``) make building a set of them
quadratic, in C code no timer stops (20,000 such tuples: a minute). The items are
counted, and their hashes tallied, before any set or dict is built. An array counts its
elements as items and its data as bytes. Each check is linear; anything over a bound is
a `TooBig` (a `WireError`).
"""

from __future__ import annotations

import base64
import contextvars
import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any

#: the deepest nesting accepted (a board is 3 deep; a path of boards 4)
MAX_DEPTH = 64
#: the largest message accepted from a kernel, in characters
MAX_CHARS = 256 * 1024 * 1024
#: the most items (containers and the values in them) one decoded value may hold: a DFS
#: path of 100,000 boards of the 8-puzzle is 1.3 million
MAX_ITEMS = 8_000_000
#: the longest string and bytes accepted in a value
MAX_STR = 16 * 1024 * 1024
MAX_BYTES = 16 * 1024 * 1024
#: the largest int accepted (ints from JSON are bounded anyway: 4,300 digits by default)
MAX_INT_BITS = 16_384
#: the most keys of one set or dict that may share one hash value (honest boards: 1)
MAX_SAME_HASH = 64
#: different items of one hash over all the values of one notebook (`Allowance`), and
#: such items in all: a test that builds one set of many calls' values meets at most these
MAX_SAME_HASH_NOTEBOOK = 256
MAX_ALIKE_NOTEBOOK = 4096

#: the most dimensions of an array
MAX_NDIM = 32

_PLAIN = (type(None), bool, int, float, str)
#: the dtypes an array may have on the wire (little-endian or byte-sized)
_DTYPE = re.compile(r"\|b1|\|[iu]1|<[iu][248]|<f[248]|<c(8|16)|<U[1-9][0-9]{0,5}")
_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})
_INT = frozenset({int})
_EXACT = frozenset({type(None), bool, int, float, str, list, tuple, set, frozenset, dict, bytes})


class WireError(ValueError):
    """A message that is not plain data as this module defines it."""


class TooBig(WireError):
    """A value over one of `decode`'s bounds (too many items, too long, built to collide)."""


class NotebookSpent(TooBig):
    """More items than the `Allowance` of the notebook had left; `limit`: its words."""

    def __init__(self, limit: str) -> None:
        super().__init__(f"more than {limit}")
        self.limit = limit


class Allowance:
    """The items one notebook may still send the grader, over all its values: each
    `decode` given it takes what it built, and refuses a value over what is left."""

    def __init__(self, items: int) -> None:
        self.total = items
        self.left = items
        #: the different items of one hash over the notebook's values, by hash: those of
        #: the hashes that had two or more in one value (a test may gather many calls'
        #: values into one set: each value under `MAX_SAME_HASH` is not enough)
        self.alike: dict[int, _Alike] = {}
        self.alike_items = 0

    def words(self) -> str:
        """The allowance in words ("16,000,000 items")."""
        return f"{self.total:,} items"

    def add_alike(self, alike: dict[int, Any]) -> None:
        """Add one value's items of shared hashes to the notebook's; past
        `MAX_SAME_HASH_NOTEBOOK` different items of one hash, or `MAX_ALIKE_NOTEBOOK` of
        such items in all, `TooBig`. Linear in what it keeps: an item is compared only
        with the (at most `MAX_SAME_HASH_NOTEBOOK`) items of its hash kept before."""
        for h, items in alike.items():
            if type(items) is not _Alike:
                continue
            kept = self.alike.setdefault(h, _Alike())
            for item in items:
                if any(other == item for other in kept):
                    continue
                kept.append(item)
                self.alike_items += 1
                if len(kept) > MAX_SAME_HASH_NOTEBOOK or self.alike_items > MAX_ALIKE_NOTEBOOK:
                    raise TooBig("over this notebook's values, more than "
                                 f"{MAX_SAME_HASH_NOTEBOOK} of their items have the same "
                                 "hash, which makes a set or dict of them very slow to build")


#: set while a value is decoded (its items hashed and compared): a handle of the kernel's
#: in one is not asked (`puzzlekit.autograder.judge.handles` raises TypeError instead of a request)
PLAIN_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("plain_only",
                                                                   default=False)
#: ints strictly inside this bound hash to themselves (two share a hash only as -1, -2):
#: never built to collide, not tallied
_SMALL_INT = 2 ** 60
#: the types whose hashes a sender can choose (numbers, and tuples and frozensets of
#: them); str and bytes hash with the process's own secret key, unless it is switched off
_TALLIED = frozenset({int, float, complex, tuple, frozenset}) | (
    frozenset() if sys.flags.hash_randomization else frozenset({str, bytes}))


class _Run:
    """One `decode`: the items it may still build, the hashes of what it built (each
    hash's different items, at most `MAX_SAME_HASH`), the containers made (identity)."""

    __slots__ = ("left", "allowance", "alike", "made")

    def __init__(self, allowance: Allowance | None, made: list[Any] | None) -> None:
        self.allowance = allowance if allowance is not None and \
            allowance.left < MAX_ITEMS else None
        self.left = MAX_ITEMS if self.allowance is None else max(self.allowance.left, 0)
        self.alike: dict[int, Any] = {}
        self.made = made

    def count(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            self.over()

    def over(self) -> None:
        if self.allowance is not None:
            raise NotebookSpent(self.allowance.words())
        raise TooBig(f"more than {MAX_ITEMS:,} items")

    def tally(self, items: list[Any]) -> None:
        """Note `items`' hashes; more than `MAX_SAME_HASH` different items with one hash
        in the whole value is `TooBig`. Linear: one hash per item, and an item is compared
        only with the (at most `MAX_SAME_HASH`) different ones of its hash seen before."""
        alike = self.alike
        for item in items:
            kind = type(item)
            if kind not in _TALLIED or (kind is int and -_SMALL_INT < item < _SMALL_INT):
                continue
            try:
                h = hash(item)
                seen = alike.setdefault(h, item)
                if seen is item or (type(seen) is not _Alike and seen == item):
                    continue
                if type(seen) is not _Alike:
                    seen = alike[h] = _Alike((seen,))
                elif any(other == item for other in seen):
                    continue
            except TypeError:
                continue    # a handle in it: not hashed or compared here (that asks the
                #             kernel, and a set of such items is no C-only work)
            seen.append(item)
            if len(seen) > MAX_SAME_HASH:
                raise TooBig(f"more than {MAX_SAME_HASH} of its items have the same "
                             "hash, which makes a set or dict of them very slow to build")


class _Alike(list):  # type: ignore[type-arg]
    """The different items of one hash (a list, told apart from an item that is one)."""


def _exact(value: object) -> object:
    """A subclass of a plain type as the plain value (its rigged methods left behind)."""
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, tuple):
        return tuple(tuple.__iter__(value))
    if isinstance(value, list):
        return list(list.__iter__(value))
    if isinstance(value, frozenset):
        return frozenset(frozenset.__iter__(value))
    if isinstance(value, set):
        return set(set.__iter__(value))
    if isinstance(value, dict):
        return dict(dict.items(value))
    return value


def _numpy(value: object) -> Any:
    """numpy, when `value` is one of its arrays or scalars (never imports it)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, (np.ndarray, np.generic)):
        return np
    return None


def _array(np: Any, value: Any) -> list[Any] | None:
    """An array or numpy scalar as ``["a", dtype, shape, data]``; None for dtypes that
    do not cross (objects, records, dates)."""
    scalar = not isinstance(value, np.ndarray)
    array = np.asarray(value)           # a subclass's data, its methods left behind
    dtype = array.dtype
    if dtype.byteorder == ">":
        dtype = dtype.newbyteorder("<")
        array = array.astype(dtype)
    if not _DTYPE.fullmatch(dtype.str):
        return None
    data = np.ascontiguousarray(array).tobytes()
    return ["a", dtype.str, None if scalar else list(array.shape),
            base64.b64encode(data).decode()]


def encode(value: object, other: Callable[[object], Any] | None = None,
           depth: int = 0, *, refs: dict[int, int] | None = None,
           seen: list[object] | None = None) -> Any:
    """`value` as JSON-ready plain data; `other(x)` gives the dict for what is not.

    `refs` and `seen`: see the module's docstring (identity)."""
    if depth > MAX_DEPTH:
        raise WireError("the value is nested too deeply")
    if refs and id(value) in refs:
        return ["x", {"$arg": refs[id(value)]}]
    kind = type(value)
    original = value
    if kind not in _EXACT:
        np = _numpy(value)
        if np is not None:
            encoded = _array(np, value)
            if encoded is not None:
                if seen is not None and encoded[2] is not None:
                    seen.append(value)
                return encoded
        elif kind is complex or isinstance(value, complex):
            z = complex(value.real, value.imag)  # type: ignore[attr-defined]
            return ["c", encode(z.real), encode(z.imag)]
        else:
            value = _exact(value)
            kind = type(value)
    if kind in _PLAIN:
        if kind is float and not math.isfinite(value):  # type: ignore[arg-type]
            return ["n", repr(value)]
        return value
    if seen is not None and kind in _CONTAINERS:
        seen.append(original)       # the sender's own object, a subclass's too
    if kind is tuple or kind is list:
        tag = "t" if kind is tuple else "l"
        if all(type(x) is int for x in value):  # type: ignore[attr-defined]
            return [tag, *value]  # type: ignore[misc]   # a row of a board: the common case
        return [tag] + [encode(x, other, depth + 1, refs=refs, seen=seen)
                        for x in value]  # type: ignore[attr-defined]
    if kind is set or kind is frozenset:
        return ["s" if kind is set else "f"] + [encode(x, other, depth + 1, refs=refs,
                                                       seen=seen)
                                                for x in value]  # type: ignore[attr-defined]
    if kind is dict:
        out: list[Any] = ["d"]
        for k, v in value.items():  # type: ignore[attr-defined]
            out += [encode(k, other, depth + 1, refs=refs, seen=seen),
                    encode(v, other, depth + 1, refs=refs, seen=seen)]
        return out
    if kind is bytes:
        return ["b", base64.b64encode(value).decode()]  # type: ignore[arg-type]
    if other is None:
        raise WireError(f"{kind.__name__} is not plain data")
    tagged = other(value)
    if type(tagged) is not dict:
        raise WireError("an extension must be a dict")
    return ["x", tagged]


def dumps(value: object, other: Callable[[object], Any] | None = None) -> str:
    """`value` encoded as a JSON string."""
    return json.dumps(encode(value, other), separators=(",", ":"))


def _extension(body: Any) -> dict[str, Any]:
    if type(body) is not dict or not all(type(k) is str and type(v) in _PLAIN
                                         for k, v in body.items()):
        raise WireError("an extension must be a flat dict of plain values")
    return body


def _from_array(x: list[Any], run: _Run) -> Any:
    """A numpy array (or scalar) from ``["a", dtype, shape, data]``, checked first."""
    if len(x) != 4 or type(x[1]) is not str or not _DTYPE.fullmatch(x[1]) \
            or type(x[3]) is not str:
        raise WireError("an array needs a known dtype, a shape and base64 data")
    shape = x[2]
    if shape is not None and (type(shape) is not list or len(shape) > MAX_NDIM or not all(
            type(n) is int and 0 <= n <= MAX_ITEMS for n in shape)):
        raise WireError("an array's shape must be a short list of sizes")
    if len(x[3]) > MAX_BYTES * 4 // 3 + 4:
        raise TooBig(f"an array of more than {MAX_BYTES:,} bytes")
    count = 1
    for n in shape or ():
        count *= n
    run.count(count)
    try:
        data = base64.b64decode(x[3], validate=True)
    except ValueError:
        raise WireError("an array's data must be base64 text") from None
    import numpy as np  # only now: an array is on the wire
    dtype = np.dtype(x[1])
    if len(data) != count * dtype.itemsize:
        raise WireError("an array's data does not match its shape")
    array = np.frombuffer(data, dtype=dtype).copy()
    if shape is None:
        return array[0]
    return array.reshape(shape)


def _decode(x: Any, handle: Callable[[dict], Any] | None, depth: int, run: _Run) -> Any:
    if depth > MAX_DEPTH:
        raise WireError("the value is nested too deeply")
    kind = type(x)
    if kind in _PLAIN:
        if kind is str:
            if len(x) > MAX_STR:
                raise TooBig(f"a string of {len(x):,} characters (at most {MAX_STR:,})")
        elif kind is int and x.bit_length() > MAX_INT_BITS:
            raise TooBig(f"an int of {x.bit_length():,} bits (at most {MAX_INT_BITS:,})")
        return x
    if kind is not list or not x or type(x[0]) is not str:
        raise WireError(f"unexpected {kind.__name__} on the wire")
    tag = x[0]
    number = -1
    made = run.made
    if made is not None and (tag in ("t", "l", "s", "f", "d")
                             or (tag == "a" and len(x) > 2 and x[2] is not None)):
        number = len(made)     # numbered as the sender met it, before its items
        made.append(None)
    value = _build(x, tag, handle, depth, run)
    if number >= 0:
        made[number] = value    # type: ignore[index]
    return value


def _build(x: list[Any], tag: str, handle: Callable[[dict], Any] | None, depth: int,
           run: _Run) -> Any:
    if tag == "t" or tag == "l":
        run.left -= len(x)      # counted before anything is built
        if run.left < 0:
            run.over()
        row = x[1:]
        if set(map(type, row)) <= _INT:       # a row of a board (its ints: linear)
            if row and not (-_SMALL_INT < min(row) and max(row) < _SMALL_INT):
                run.tally(row)
            return tuple(row) if tag == "t" else row
        items = [_decode(v, handle, depth + 1, run) for v in x[1:]]
        run.tally(items)
        return tuple(items) if tag == "t" else items
    run.count(len(x))
    if tag == "s" or tag == "f":
        items = [_decode(v, handle, depth + 1, run) for v in x[1:]]
        run.tally(items)
        try:
            return set(items) if tag == "s" else frozenset(items)
        except TypeError:
            raise WireError("an unhashable item in a set") from None
    if tag == "d":
        if len(x) % 2 != 1:
            raise WireError("a dict needs pairs")
        pairs = [_decode(v, handle, depth + 1, run) for v in x[1:]]  # in order
        keys = pairs[0::2]
        run.tally(keys)
        run.tally(pairs[1::2])
        out: dict[Any, Any] = {}
        for key, value in zip(keys, pairs[1::2]):
            try:
                out[key] = value
            except TypeError:
                raise WireError("an unhashable key in a dict") from None
        return out
    if tag == "n" and len(x) == 2 and x[1] in ("inf", "-inf", "nan"):
        return float(x[1])
    if tag == "c" and len(x) == 3:
        parts = [_decode(v, None, depth + 1, run) for v in x[1:]]
        if not all(type(p) is float for p in parts):
            raise WireError("a complex number needs two floats")
        return complex(parts[0], parts[1])
    if tag == "a":
        return _from_array(x, run)
    if tag == "b" and len(x) == 2 and type(x[1]) is str:
        if len(x[1]) > MAX_BYTES * 4 // 3 + 4:
            raise TooBig(f"bytes longer than {MAX_BYTES:,}")
        try:
            return base64.b64decode(x[1], validate=True)
        except ValueError:
            raise WireError("bytes need base64 text") from None
    if tag == "x" and len(x) == 2:
        if handle is None:
            raise WireError("no extension is accepted here")
        return handle(_extension(x[1]))
    raise WireError(f"an unknown tag {tag[:20]!r}")


def decode(x: Any, handle: Callable[[dict], Any] | None = None, *,
           made: list[Any] | None = None, allowance: Allowance | None = None) -> Any:
    """Plain data re-built from JSON-ready `x`; `handle(tagged)` builds the rest; `made`
    (a list) gets the containers built, in the order the sender's `seen` had them;
    `allowance`: the items the value may take from what its notebook has left (taken)."""
    run = _Run(allowance, made)
    token = PLAIN_ONLY.set(True)
    try:
        value = _decode(x, handle, 0, run)
    except RecursionError:
        raise WireError("the value is nested too deeply") from None
    finally:
        PLAIN_ONLY.reset(token)
    if allowance is not None:
        allowance.left -= (MAX_ITEMS if run.allowance is None else
                           max(allowance.left, 0)) - run.left
        allowance.add_alike(run.alike)
    return value


def loads(text: str, handle: Callable[[dict], Any] | None = None) -> Any:
    """Plain data re-built from the JSON string `text`."""
    if type(text) is not str or len(text) > MAX_CHARS:
        raise WireError("the message is not text or is too long")
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise WireError(f"the message is not JSON: {e}") from None
    return decode(raw, handle)
