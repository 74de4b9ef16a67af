"""Plain data on the wire between the grader and a student's kernel.

While a notebook is autograded, the verdict of every graded test is computed by the
grader (`puzzlekit.autograder.grader.judge`), and the student's code runs in its own kernel
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
grader maps it back to its own object, see `puzzlekit.autograder.grader.judge`).

`decode` is also bounded, so that what a kernel sends cannot make the grader's own work
slow in C code that no timer can interrupt: at most `MAX_ITEMS` items in all, strings of
at most `MAX_STR` characters, bytes of at most `MAX_BYTES`, ints of at most `MAX_INT_BITS`
bits, and no set or dict whose keys were built to share one hash (more than
`MAX_SAME_HASH` keys with one hash make building it quadratic: a few MB of such keys cost
minutes). An array counts its elements as items and its data as bytes. Each check is
linear; anything over a bound is a `TooBig` (a `WireError`).
"""

from __future__ import annotations

import base64
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


def _check_hashes(items: list[Any]) -> None:
    """Refuse keys built to collide: more than `MAX_SAME_HASH` of them with one hash."""
    if len(items) <= MAX_SAME_HASH:
        return
    counts: dict[int, int] = {}
    for item in items:
        try:
            h = hash(item)
        except TypeError:
            return          # building the container says so
        n = counts.get(h, 0) + 1
        if n > MAX_SAME_HASH:
            raise TooBig(f"more than {MAX_SAME_HASH} of its items have the same hash, which "
                         "makes a set or dict of them very slow to build")
        counts[h] = n


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


def _count(left: list[int], n: int) -> None:
    left[0] -= n
    if left[0] < 0:
        raise TooBig(f"more than {MAX_ITEMS:,} items")


def _from_array(x: list[Any], left: list[int]) -> Any:
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
    _count(left, count)
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


def _decode(x: Any, handle: Callable[[dict], Any] | None, depth: int, left: list[int],
            made: list[Any] | None = None) -> Any:
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
    if made is not None and (tag in ("t", "l", "s", "f", "d")
                             or (tag == "a" and len(x) > 2 and x[2] is not None)):
        number = len(made)     # numbered as the sender met it, before its items
        made.append(None)
    value = _build(x, tag, handle, depth, left, made)
    if number >= 0:
        made[number] = value    # type: ignore[index]
    return value


def _build(x: list[Any], tag: str, handle: Callable[[dict], Any] | None, depth: int,
           left: list[int], made: list[Any] | None) -> Any:
    if tag == "t" or tag == "l":
        if set(map(type, x[1:])) <= _INT:       # a row of a board (its ints: linear)
            return tuple(x[1:]) if tag == "t" else x[1:]
        left[0] -= len(x)
        if left[0] < 0:
            raise TooBig(f"more than {MAX_ITEMS:,} items")
        items = [_decode(v, handle, depth + 1, left, made) for v in x[1:]]
        return tuple(items) if tag == "t" else items
    _count(left, len(x))
    if tag == "s" or tag == "f":
        items = [_decode(v, handle, depth + 1, left, made) for v in x[1:]]
        _check_hashes(items)
        try:
            return set(items) if tag == "s" else frozenset(items)
        except TypeError:
            raise WireError("an unhashable item in a set") from None
    if tag == "d":
        if len(x) % 2 != 1:
            raise WireError("a dict needs pairs")
        pairs = [_decode(v, handle, depth + 1, left, made) for v in x[1:]]  # in order
        keys = pairs[0::2]
        _check_hashes(keys)
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
        parts = [_decode(v, None, depth + 1, left) for v in x[1:]]
        if not all(type(p) is float for p in parts):
            raise WireError("a complex number needs two floats")
        return complex(parts[0], parts[1])
    if tag == "a":
        return _from_array(x, left)
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
           made: list[Any] | None = None) -> Any:
    """Plain data re-built from JSON-ready `x`; `handle(tagged)` builds the rest; `made`
    (a list) gets the containers built, in the order the sender's `seen` had them."""
    try:
        return _decode(x, handle, 0, [MAX_ITEMS], made)
    except RecursionError:
        raise WireError("the value is nested too deeply") from None


def loads(text: str, handle: Callable[[dict], Any] | None = None) -> Any:
    """Plain data re-built from the JSON string `text`."""
    if type(text) is not str or len(text) > MAX_CHARS:
        raise WireError("the message is not text or is too long")
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise WireError(f"the message is not JSON: {e}") from None
    return decode(raw, handle)
