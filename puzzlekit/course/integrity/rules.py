"""What is flagged, by the dotted name student code reaches (the layout's own rules: the
engine, the grader's wings).
"""

from __future__ import annotations

import re

from ... import registry

#: every name of puzzlekit's front -> the module that defines it
FRONT = registry.EXPORTS

#: every module and package of the kit, relative (``"engine.solver"``), read from its folders
KIT_MODULES = frozenset(registry.modules_under())


def split_dotted(dotted: str) -> tuple[str, str] | None:
    """(the kit's module, the name after it) for ``puzzlekit.engine.solver.solve`` (the
    longest module that `dotted` names an attribute of), None outside the kit."""
    parts = dotted.split(".")
    if parts[0] != "puzzlekit" or len(parts) < 2:
        return None
    for i in range(len(parts) - 1, 1, -1):
        module = ".".join(parts[1:i])
        if module in KIT_MODULES:
            return module, parts[i]
    return "", parts[1]

_OS_EXEC = [f"os.{n}" for n in ("execl", "execle", "execlp", "execlpe", "execv", "execve",
                                "execvp", "execvpe", "spawnl", "spawnle", "spawnlp",
                                "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
                                "posix_spawn", "posix_spawnp", "system", "popen", "fork")]

#: dotted name (or a prefix of it) -> kind
_RULES: dict[str, str] = {
    **dict.fromkeys(["os._exit", "os.kill", "os.killpg", "os.abort", "sys.exit",
                     "builtins.exit", "builtins.quit", "ctypes", "_ctypes",
                     "signal.raise_signal", "signal.pthread_kill", "faulthandler._sigsegv",
                     "faulthandler._read_null", "faulthandler._fatal_error"], "kernel-exit"),
    **dict.fromkeys(["signal.signal", "signal.setitimer", "signal.alarm",
                     "signal.pthread_sigmask", "signal.siginterrupt", "signal.set_wakeup_fd",
                     "signal.SIG_IGN", "_thread.interrupt_main"], "interrupt-handler"),
    **dict.fromkeys(["sys.modules", "sys.excepthook", "sys.__excepthook__", "sys.displayhook",
                     "sys.__displayhook__", "sys.setprofile", "sys.settrace", "sys.addaudithook",
                     "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache",
                     "sys.breakpointhook", "sys.unraisablehook", "sys.monitoring",
                     "sys.call_tracing", "threading.settrace", "threading.setprofile",
                     "threading.settrace_all_threads", "threading.setprofile_all_threads",
                     "threading.excepthook"], "sys-hooks"),
    **dict.fromkeys(["sys._getframe", "sys._current_frames", "inspect.currentframe",
                     "inspect.stack", "inspect.trace", "inspect.getouterframes",
                     "inspect.getinnerframes", "gc.get_referrers", "gc.get_referents",
                     "gc.get_objects", "__main__"], "module-attributes"),
    **dict.fromkeys(["builtins.exec", "builtins.eval", "builtins.compile",
                     "builtins.__import__", "importlib", "runpy", "types.FunctionType",
                     "types.LambdaType", "types.CodeType", "marshal", "codeop",
                     "code.InteractiveInterpreter", "code.InteractiveConsole"], "dynamic-code"),
    **dict.fromkeys(["IPython.get_ipython", "IPython.core.getipython",
                     "IPython.core.interactiveshell", "IPython.InteractiveShell",
                     "IPython.core.magic", "IPython.core.ultratb", "ipykernel"],
                    "ipython-shell"),
    **dict.fromkeys(["subprocess", "pty", *_OS_EXEC], "shell-command"),
    **dict.fromkeys(["sqlite3.connect", "site.getsitepackages", "site.getusersitepackages",
                     "sysconfig.get_paths", "IPython.paths"], "file-access"),
    "nbgrader": "patches-grader",
    **dict.fromkeys(["unittest.mock.ANY", "unittest.mock.Mock", "unittest.mock.MagicMock",
                     "unittest.mock.NonCallableMock", "unittest.mock.NonCallableMagicMock",
                     "unittest.mock.create_autospec", "mock.ANY", "mock.Mock",
                     "mock.MagicMock"], "rigged-dunder"),
}
#: dotted names flagged only as themselves (their attributes are ordinary builtins)
_EXACT_RULES = {"builtins": "builtins"}

#: attribute names flagged whatever they are read from
ATTRIBUTE_RULES: dict[str, str] = {
    **dict.fromkeys(["__code__", "__globals__", "__closure__", "__defaults__",
                     "__kwdefaults__", "__subclasses__", "f_globals", "f_locals", "f_back",
                     "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame"],
                    "module-attributes"),
    "__builtins__": "builtins",
    **dict.fromkeys(["input_transformers_post", "input_transformers_cleanup",
                     "ast_transformers", "set_custom_exc", "showtraceback", "showsyntaxerror",
                     "custom_exceptions", "run_cell", "run_line_magic", "run_cell_magic",
                     "register_magic_function", "user_ns", "user_global_ns", "InteractiveTB",
                     "SyntaxTB"], "ipython-shell"),
}

#: special builtins that the resolver turns into values
IPYTHON_NAMES = {"get_ipython": "IPython.get_ipython"}

#: functions that only look at what they are given
INSPECTORS = frozenset(f"builtins.{n}" for n in (
    "help", "print", "repr", "str", "type", "id", "dir", "callable", "isinstance",
    "issubclass", "hasattr", "len"))

#: methods of a namespace dict that only read it
NAMESPACE_READERS = frozenset({"get", "keys", "items", "values", "copy", "__contains__",
                                "__getitem__", "__len__", "__iter__"})
NAMESPACE_READING_CALLS = frozenset({"builtins.len", "builtins.list", "builtins.sorted",
                                      "builtins.dict", "builtins.set", "builtins.print",
                                      "builtins.repr", "builtins.str", "builtins.iter",
                                      "builtins.tuple", "builtins.any", "builtins.all"})

#: dunders that compare with another object / that describe the object itself
OTHER_DUNDERS = frozenset({"__eq__", "__ne__", "__contains__", "__instancecheck__",
                            "__subclasscheck__"})
SELF_DUNDERS = frozenset({"__hash__", "__len__"})

PATCHERS = frozenset({"unittest.mock.patch", "unittest.mock.patch.object",
                       "unittest.mock.patch.dict", "unittest.mock.patch.multiple",
                       "mock.patch", "mock.patch.object", "mock.patch.dict"})


#: a path into the course (gradebook, other folders' notebooks), nbgrader, puzzlekit's
#: source, site-packages or IPython's and Python's start-up files
_SENSITIVE_PATH = re.compile(
    r"gradebook\.db|site-packages|dist-packages|\.ipython|\.jupyter|sitecustomize"
    r"|usercustomize|nbgrader|\.pth$|[/\\]puzzlekit([/\\]|$)|\.ipynb$"
    r"|(^|[/\\])(source|release|submitted|autograded|feedback)[/\\][^/\\]+[/\\]")


def sensitive_path(text: str) -> bool:
    """Whether a string handed to a function names files a student has no business with."""
    if "/" not in text and "\\" not in text and not text.endswith("gradebook.db"):
        return False
    return bool(_SENSITIVE_PATH.search(text.strip()))


def rule_for(dotted: str) -> str | None:
    """The kind of finding for reaching `dotted`, if any."""
    if dotted in _EXACT_RULES:
        return _EXACT_RULES[dotted]
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        kind = _RULES.get(".".join(parts[:i]))
        if kind is not None:
            return kind
    return None


def owner_kind(dotted: str) -> str:
    """The kind of finding for changing something of the module (or object) `dotted`."""
    parts = dotted.split(".")
    if parts[0] == "puzzlekit":
        grader = registry.in_grader(".".join(parts[1:]))    # a prefix: the grader's wings
        return "patches-grader" if grader else "patches-puzzlekit"
    return {"builtins": "builtins", "sys": "sys-hooks",
            "signal": "interrupt-handler"}.get(parts[0], "module-attributes")
