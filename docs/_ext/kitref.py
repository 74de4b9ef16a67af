"""Write the reference pages from the code (a Sphinx extension; `docs/conf.py` loads it).

- `reference/config.md`: every configurable trait of the kit's classes (nbgrader's
  `c.Class.trait` options), with its type, default and help, as nbgrader documents its own;
- `reference/cli.md`: every verb of `python -m puzzlekit`, with its usage and options;
- `reference/messages.md`: every sentence grading shows a student or an instructor (the
  catalogue, `puzzlekit.testcells.catalogue`), with its name, parameters, where it is
  shown, the modules that use it and an example rendering.
- `reference/protocol.md`: every message between the judge and the student's kernel
  (`puzzlekit.autograder.protocol`), a table of fields for each.

All are written before the build reads the sources, so they always match the code.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any

HEADER = "<!-- written by docs/_ext/kitref.py at each build: edit the code, not this page -->\n"


def kit_classes() -> list[type]:
    """The kit's classes with configurable traits, by module then name."""
    from traitlets.config import Configurable

    import puzzlekit

    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(puzzlekit.__path__, "puzzlekit."):
        if info.name.endswith("__main__"):     # a command, run on import
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:   # a module for another machine (the wall off Linux, ...)
            continue
        # nbgrader's classes the kit builds on first use are listed in __all__ only
        names = set(vars(module)) | set(getattr(module, "__all__", ()))
        for cls in (getattr(module, name, None) for name in sorted(names)):
            if (inspect.isclass(cls) and issubclass(cls, Configurable) and cls.__module__ == module.__name__
                    and own_traits(cls)):
                found[f"{cls.__module__}.{cls.__name__}"] = cls
    return [found[k] for k in sorted(found)]


def own_traits(cls: type) -> dict[str, Any]:
    """The configurable traits the kit declares on `cls` or a base of its own (those of
    nbgrader's classes are nbgrader's to document)."""
    traits = cls.class_traits(config=True)  # type: ignore[attr-defined]
    return {name: trait for name, trait in sorted(traits.items())
            if _declared_by(cls, name).__module__.startswith("puzzlekit.")}


def _declared_by(cls: type, name: str) -> type:
    return next(k for k in cls.__mro__ if name in vars(k))


def _default(trait: Any) -> str:
    try:
        value = trait.default_value_repr()
    except Exception:
        value = repr(trait.default_value)
    return value.replace("|", "\\|")


def _help(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|") or "(no help text)"


def config_page() -> str:
    out = [HEADER, "# Configuration options\n",
           "Every option the kit adds to nbgrader's configuration, read from the code. Set "
           "them in the course's `nbgrader_config.py` (`notebooks/nbgrader_config.py`), as "
           "`c.Class.option = value`. nbgrader's own options are in "
           "[nbgrader's reference](https://nbgrader.readthedocs.io/en/stable/configuration/config_options.html).\n"]
    for cls in kit_classes():
        doc = inspect.getdoc(cls) or ""
        out.append(f"## `{cls.__name__}`\n")
        out.append(f"`{cls.__module__}.{cls.__name__}`: {doc.splitlines()[0] if doc else ''}\n")
        for name, trait in own_traits(cls).items():
            kind = type(trait).__name__
            out.append(f"`c.{cls.__name__}.{name}`\n: {kind}, default `{_default(trait)}`. "
                       f"{_help(trait.help)}\n")
    return "\n".join(out)


def _verbs(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_page() -> str:
    from puzzlekit.cli import build_parser

    parser = build_parser()
    out = [HEADER, "# The `python -m puzzlekit` verbs\n",
           "Every verb of the kit's command line, with its own `--help`, read from the code. "
           "Run them from the course folder (`notebooks/`), where nbgrader finds its "
           "config; `make` targets call the same verbs.\n"]
    helps = {a.dest: a.help for a in parser._actions
             if isinstance(a, argparse._SubParsersAction) for a in a._choices_actions}
    for verb, sub in _verbs(parser).items():
        sub.prog = f"python -m puzzlekit {verb}"
        out.append(f"## `{verb}`\n\n{helps.get(verb) or ''}\n\n```text\n"
                   f"{sub.format_help().rstrip()}\n```\n")
    return "\n".join(out)


def message_users() -> dict[str, list[str]]:
    """Message name -> the kit's modules whose code names it (the catalogue left out)."""
    import ast

    import puzzlekit
    from puzzlekit.testcells.catalogue import MESSAGES

    package = Path(puzzlekit.__file__).parent
    users: dict[str, list[str]] = {name: [] for name in MESSAGES}
    for path in sorted(package.rglob("*.py")):
        if path.parent.name == "catalogue" and path.parent.parent.name == "testcells":
            continue
        module = ".".join(("puzzlekit", *path.relative_to(package).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        nodes = list(ast.walk(ast.parse(path.read_text("utf-8"))))
        names = {n.id for n in nodes if isinstance(n, ast.Name)}
        names |= {n.attr for n in nodes if isinstance(n, ast.Attribute)}
        for name in MESSAGES:
            if name in names:
                users[name].append(module)
    return users


def catalogue_sections() -> list[tuple[Any, list[str]]]:
    """The catalogue's modules in the order its `__init__` imports them (the order a student
    meets them), each with the names of the messages it declares."""
    import ast
    import importlib

    from puzzlekit.testcells import catalogue

    init = ast.parse(Path(catalogue.__file__).read_text("utf-8"))
    order = [node.module for node in init.body if isinstance(node, ast.ImportFrom)
             and node.level == 1 and node.module and node.names[0].name == "*"]
    sections = []
    for name in order:
        module = importlib.import_module(f"{catalogue.__name__}.{name}")
        tree = ast.parse(Path(module.__file__ or "").read_text("utf-8"))
        declared = [target.id for node in tree.body if isinstance(node, ast.Assign)
                    for target in node.targets if isinstance(target, ast.Name)
                    and target.id in catalogue.MESSAGES]
        if declared:
            sections.append((module, declared))
    return sections


def messages_page() -> str:
    from puzzlekit.testcells import catalogue

    users = message_users()
    out = [HEADER, "# The messages grading shows\n",
           "Every sentence a student or an instructor reads from grading, read from the "
           "kit's one catalogue of them (`puzzlekit.testcells.catalogue`): a test cell's "
           "verdict and diagnoses, the limits of a graded notebook, the grader's own words "
           "and the feedback page's. Each has a name, the parameters it is filled with "
           "(`{name}` in its template), the place it is shown and the modules that use "
           "it; the example renders it with made-up parameters. To change a wording, "
           "change it there: every place that shows it follows. The named mistakes a "
           "diagnosis carries for the class report are on [their own page](../mistakes.md).\n"]
    for module, names in catalogue_sections():
        doc = " ".join((inspect.getdoc(module) or "").split("\n\n")[0].split())
        out.append(f"## {doc.removesuffix('.')}\n")
        for name in names:
            message = catalogue.MESSAGES[name]
            params = ", ".join(f"`{p}`" for p in sorted(message.params)) or "none"
            used = ", ".join(f"`{m}`" for m in users[message.name]) or "no module"
            example = message.rendered().rstrip("\n")
            out.append(f"### `{message.name}`\n\nShown in {message.shown}. Parameters: "
                       f"{params}. Used by {used}.\n\n```text\n{example}\n```\n")
    return "\n".join(out)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _anchor(name: str) -> str:
    return "msg-" + "-".join(name.replace("'", "").split())


def _fields_table(message: Any) -> list[str]:
    if not message.fields:
        return ["No fields.\n"]
    rows = ["| field | type | | meaning |", "|---|---|---|---|"]
    for field in message.fields:
        need = "required" if field.required else "optional"
        rows.append(f"| `{field.name}` | {_cell(field.type.words)} | {need} | "
                    f"{_cell(field.doc)} |")
    notes = [f"Exactly one of {', '.join(f'`{n}`' for n in group)}." for group in message.choose]
    return ["\n".join(rows) + "\n"] + ([" ".join(notes) + "\n"] if notes else [])


def protocol_page() -> str:
    from puzzlekit.autograder import protocol

    doc = inspect.getdoc(protocol) or ""
    routes = [p for p in doc.split("\n\n")[2:] if p.strip()]     # the routes, the checks
    out = [HEADER, "# The judge's messages to the student's kernel\n",
           "While a notebook is autograded, the judge (in the grader's process) and its "
           "agent (in the student's kernel) talk only in the messages below, read from "
           "`puzzlekit/autograder/protocol.py`, which both sides build and check their "
           "messages with. [The wall](../explanation/wall.md) explains why the judge runs "
           "the tests.\n"]
    out += [" ".join(p.split()) + "\n" for p in routes]
    out.append("## Routes and nesting\n")
    out.append(f"- Requests go as a shell message `{protocol.REQUEST}`; the reply comes as "
               f"`{protocol.REPLY}`, its JSON in the message's one buffer.\n"
               f"- Questions come as input requests whose prompt starts with "
               f"`{protocol.ASK!r}`; the answer is the input reply's text.\n"
               f"- At most {protocol.MAX_NESTING} questions are answered inside one "
               f"another; deeper, the student's code gets a `RecursionError`.\n"
               f"- Only these requests may be nested in an answer (`do`): "
               + ", ".join(f"`{m.name}`" for m in protocol.REQUESTS.values() if m.nested)
               + ". The others are the executor's own, between cells.\n")
    out.append("| message | sent by | route |\n|---|---|---|")
    for message in protocol.walk():
        route = ("request" if message.name in protocol.REQUESTS else
                 "reply" if message.name.startswith("reply to ") or message is protocol.FAULT
                 else "question" if message.sender == "kernel" and message.name in
                 ("question", "done") else "answer" if message is protocol.ANSWER else
                 "part of a message")
        out.append(f"| [{message.name}](#{_anchor(message.name)}) | {message.sender} | "
                   f"{route} |")
    out.append("")
    for message in protocol.walk():
        out.append(f"(" + _anchor(message.name) + ")=\n## " + message.name + "\n")
        nested = " May be nested in an answer." if message.nested else ""
        out.append(f"Sent by the {message.sender}. {_cell(message.doc)}{nested}\n")
        out += _fields_table(message)
    return "\n".join(out)


def write_pages(docs: Path) -> list[Path]:
    """Write the pages into `docs/reference/`; return their paths."""
    written = []
    for name, make in (("config.md", config_page), ("cli.md", cli_page),
                       ("messages.md", messages_page), ("protocol.md", protocol_page)):
        path = docs / "reference" / name
        text = make()
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        written.append(path)
    return written


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", lambda app: write_pages(Path(app.srcdir)))
    return {"parallel_read_safe": True, "version": "1"}
