"""The grader's machinery out of the student's reach while graded (issue 33, part 3).

Installed by the agent (`puzzlekit.autograder.kernel.agent.install`) in a graded kernel
before any student code runs, as a Python audit hook: a hook cannot be removed or
listed from Python, and the state it keeps (what it refused, what it saw) lives in its
closure only. It refuses, when the code asking is the student's (the nearest frame
outside Python's standard library is neither puzzlekit's nor an installed package's),
the primitives that reach inside the grader or around what a test forbids:

- changing a function or class of puzzlekit (``__code__``, defaults, attributes), or
  making a new function or code object from puzzlekit's code (an unswitched copy of a
  reference), or running one of its modules' code again (a private re-import);
- walking the heap (``gc.get_objects``/``get_referrers``/``get_referents``) and the
  stack (``sys._getframe``, ``inspect.currentframe``, a traceback's or a generator's
  frame): the grader's frames hold what it is doing;
- ctypes, another audit hook, compiling code that pretends to be a library's file.

What the hook refused is kept; the agent reports it with whatever else it saw change
(`Drift`: the names of the grader's own modules rebound, as walking the package and
replacing ``forbidding`` does) when the grader asks at the end of the notebook, and the
grader writes it into the graded notebook (``metadata.puzzlekit.tampering``), where the
integrity report reads it.

It is a wall within one Python process, not a sandbox: a student's code that replaces
the kernel's own message handling (``get_ipython().kernel``) is outside its sight; the
integrity report names that from the notebook's text (``ipython-shell``).
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
import types
from collections.abc import Callable, Iterable
from typing import Any

from ...testcells.catalogue import COMPILED_AS, COPY_OF_KIT_FUNCTION, REACHED_IN

#: the events refused from a student's code, whatever their arguments
ALWAYS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents",
                    "sys.addaudithook", "code.__new__", "sys.setprofile", "sys.settrace"})
#: the events that hand out a frame, refused when the student's code asks for one
FRAMES = frozenset({"sys._getframe", "sys._current_frames"})
#: attributes whose reading hands out a frame (``object.__getattr__`` events)
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
#: the standard library's functions that give their caller frames
HANDS_OUT_FRAMES = frozenset({"currentframe", "stack", "trace", "getouterframes",
                              "getinnerframes", "walk_stack", "walk_tb"})
#: at most this many refusals are kept (a loop of attempts is one finding)
KEEP = 50

#: a plain str: the hook formats it with str.format, no code of the kit's in between
MESSAGE = str(REACHED_IN)


def _trusted_roots(kit: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the standard library's folders, the folders of trusted code: puzzlekit and the
    installed packages)."""
    paths = sysconfig.get_paths()
    stdlib = tuple(sorted({os.path.realpath(paths[k]) + os.sep
                           for k in ("stdlib", "platstdlib") if k in paths}))
    packages = {os.path.realpath(paths[k]) + os.sep for k in ("purelib", "platlib")
                if k in paths}
    try:
        packages.update(os.path.realpath(p) + os.sep for p in site.getsitepackages())
    except AttributeError:
        pass
    return stdlib, (os.path.realpath(kit) + os.sep, *sorted(packages))


class Drift:
    """The functions, classes and modules the kit's modules held when the kernel
    started: which of those names were rebound or removed since (a `stand_in` of a
    forbidden reference, put there by the forbid itself while a call runs, is no
    change)."""

    def __init__(self, modules: Iterable[types.ModuleType], stand_in: type) -> None:
        kinds = (types.FunctionType, type, types.ModuleType)
        self.stand_in = stand_in
        self.held = [(m.__name__, vars(m), {k: v for k, v in vars(m).items()
                                            if isinstance(v, kinds)})
                     for m in modules]

    def changed(self) -> list[str]:
        """The dotted names rebound, in the modules' order."""
        out = []
        for name, space, before in self.held:
            for key, value in before.items():
                now = space.get(key, _GONE)
                if now is not value and type(now) is not self.stand_in:
                    out.append(f"{name}.{key}")
        return out


_GONE = object()


def install(kit: str, executed: Iterable[str]) -> Callable[[], list[dict[str, Any]]]:
    """Add the audit hook; the function that reads what it refused (its own copy).

    `kit` is puzzlekit's folder; `executed` the names of puzzlekit's modules already
    imported (running their code again is a private copy of them)."""
    stdlib, trusted = _trusted_roots(kit)
    kit_root = trusted[0]
    done = set(executed)
    refused: list[dict[str, Any]] = []
    busy = [False]
    getframe, realpath, modules = sys._getframe, os.path.realpath, sys.modules

    def students(depth: int) -> bool:
        """Whether the nearest frame outside the standard library is the student's."""
        frame: types.FrameType | None = getframe(depth)
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(trusted):
                return False
            if not (name.startswith("<frozen ") or name.startswith(stdlib)):
                return True
            frame = frame.f_back
        return False

    def asks_for_a_frame(depth: int) -> bool:
        """Whether the student's code asks for a frame: itself, or through the standard
        library's functions that hand frames out (`inspect.stack`, `traceback.walk_stack`);
        not `collections.namedtuple`, `logging` or `traceback.format_exc`, which read the
        caller's frame for a name or a text."""
        frame = getframe(depth)
        name = frame.f_code.co_filename
        if name.startswith(trusted):
            return False
        if not (name.startswith("<frozen ") or name.startswith(stdlib)):
            return True
        return frame.f_code.co_name in HANDS_OUT_FRAMES and frame.f_back is not None \
            and not frame.f_back.f_code.co_filename.startswith((*trusted, *stdlib))

    def kits(code: Any) -> bool:
        return isinstance(code, types.CodeType) and code.co_filename.startswith(
            (kit_root, "<puzzlekit's "))   # the kit's, or a forbidden reference's stand-in

    def kit_module(code: types.CodeType) -> str:
        relative = code.co_filename[len(kit_root):].removesuffix(".py")
        parts = ["puzzlekit", *relative.split(os.sep)]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def first_run(code: types.CodeType) -> bool:
        """The import system running a module of the kit's for the first time."""
        name = kit_module(code)
        spec = getattr(modules.get(name), "__spec__", None)
        if name in done or not getattr(spec, "_initializing", False):
            return False
        done.add(name)
        return True

    def reaches(event: str, args: tuple[Any, ...]) -> str | None:
        """What the event reaches, if it is one the hook refuses from a student."""
        if event in ALWAYS or event.startswith("ctypes."):
            return event
        if event == "object.__setattr__":
            target = args[0]
            if isinstance(target, types.FunctionType) and (
                    kits(target.__code__) or kits(args[2])):
                return f"puzzlekit's {target.__qualname__}.{args[1]}"
            if isinstance(target, type) and str(target.__module__).startswith("puzzlekit"):
                return f"puzzlekit's class {target.__qualname__}"
            return None
        if event == "function.__new__":
            return COPY_OF_KIT_FUNCTION if kits(args[0]) else None
        if event == "exec":
            if kits(args[0]) and args[0].co_name == "<module>" and not first_run(args[0]):
                return f"puzzlekit's module {kit_module(args[0])} run again"
            return None
        if event == "compile" and isinstance(args[1], str):
            path = realpath(args[1]) if args[1].startswith(os.sep) else ""
            if not path.startswith(trusted + stdlib) or being_imported(path):
                return None
            return COMPILED_AS.format(path=args[1])
        return None

    def being_imported(path: str) -> bool:
        """Whether the import system is loading the module of this file for the first
        time (its source compiled where no cached bytecode could be read or written)."""
        for module in list(modules.values()):
            spec = getattr(module, "__spec__", None)
            origin = getattr(spec, "origin", None)
            if getattr(spec, "_initializing", False) and isinstance(origin, str) \
                    and realpath(origin) == path:
                return True
        return False

    def frame_asked(event: str, args: tuple[Any, ...]) -> str | None:
        if event in FRAMES:
            return event
        if event == "object.__getattr__" and args[1] in FRAME_ATTRIBUTES:
            return f"a frame ({args[1]})"
        return None

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if busy[0]:
            return
        busy[0] = True
        try:
            what = frame_asked(event, args)
            if what is not None:
                what = what if asks_for_a_frame(2) else None
            else:
                what = reaches(event, args)
                what = what if what is not None and students(2) else None
            if what is None:
                return
            if len(refused) < KEEP:
                refused.append({"event": event, "what": what[:200],
                                "cell": _cell_number(modules)})
        finally:
            busy[0] = False
        raise PermissionError(MESSAGE.format(what=what))

    def seen() -> list[dict[str, Any]]:
        return [dict(r) for r in refused]

    sys.addaudithook(hook)
    return seen


def _cell_number(modules: dict[str, Any]) -> int | None:
    """The execution count of the cell running now (None outside IPython)."""
    ipython = modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    count = getattr(shell, "execution_count", None)
    return count if type(count) is int else None
