"""One catalogue of what students and instructors read from grading
(`puzzlekit.testcells.catalogue`).

* every message of the catalogue is used by the kit's code (read with `ast`), and every
  one a student reads is rendered by a test (its fixed words are in a test's text);
* a message refuses a missing or an unknown parameter, and no two say the same;
* the grading code (testcells/, autograder/judge/, autograder/kernel/, course/feedback*,
  course/integrity/) writes no sentence for a person outside the catalogue: a string
  that reads as one is either the catalogue's, or in `ALLOWED` with the reason it must
  stay where it is.

tests/testcells/test_message_catalogue.py holds the questions and the named mistakes.
"""

from __future__ import annotations

import ast
import re
import string
from collections import Counter
from pathlib import Path

import pytest

from puzzlekit.testcells import catalogue
from puzzlekit.testcells.catalogue import INSTRUCTOR, MESSAGES, Message

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "puzzlekit"
#: the catalogue: a package of one module per place a message is read
CATALOGUE = PACKAGE / "testcells" / "catalogue"
CATALOGUE_FILES = set(CATALOGUE.glob("*.py"))
#: the named mistakes' titles and lessons (docs/mistakes.md; tests/testcells/test_mistakes.py)
MISTAKES_FILE = PACKAGE / "testcells" / "mistakes.py"
#: the integrity report's kinds of finding: a name and what it covers, for the CSV's reader
KINDS_FILE = PACKAGE / "course" / "integrity" / "kinds.py"
GRADING_CODE = sorted({*(PACKAGE / "testcells").rglob("*.py"),
                       *(PACKAGE / "autograder" / "judge").glob("*.py"),
                       *(PACKAGE / "autograder" / "kernel").glob("*.py"),
                       *(PACKAGE / "course").glob("feedback*.py"),
                       *(PACKAGE / "course" / "integrity").glob("*.py")}
                      - CATALOGUE_FILES - {MISTAKES_FILE, KINDS_FILE})

#: strings of the grading code that read as a sentence and must stay where they are:
#: (file, text with "{}" for an f-string's fields) -> why
ALLOWED: dict[tuple[str, str], str] = {
    ("puzzlekit/testcells/checks/uninformed_search.py", "Iteration 1: 3 new states found."):
        "the line the exercise asks the student's code to print, compared with its output",
    ("puzzlekit/testcells/diagnose.py", "Iteration {}: {} new states found."):
        "the exercise's own report line, rebuilt to compare with what the code printed",
    ("puzzlekit/testcells/checks/informed_search.py", "Minimum number of moves = {}"):
        "the line the exercise asks the student's code to print, compared with its output",
    ("puzzlekit/testcells/__init__.py", "<puzzlekit's {}, switched off while this test runs>"):
        "the file name of a forbidden reference's stand-in in a traceback, not a sentence",
    ("puzzlekit/autograder/judge/verdict_words.py", "Network is unreachable"):
        "Python's own words for a network error, looked for in the error",
    ("puzzlekit/autograder/judge/verdict_words.py", "Name or service not known"):
        "Python's own words for a network error, looked for in the error",
    ("puzzlekit/autograder/judge/judge.py",
     "{}\n{}                            Traceback (most recent call last)"):
        "IPython's own traceback header, rebuilt as IPython writes it",
}

#: a sentence: three words of letters in a row
_WORDS = re.compile(r"[a-z'`]{2,} [a-z'`]{2,} [a-z'`]{2,}")
#: a regular expression, a format of the log module or a list of names, not a sentence
_NOT_WORDS = re.compile(r"\(\?|\?P<|\\[sdwb]|\[\^|^\^|%[sdr]|^[a-z0-9-]+( [a-z0-9-]+)+\n")


def _is_logging(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute)
            and func.attr in {"debug", "info", "warning", "error", "exception", "critical"}
            and "log" in ast.unparse(func.value).lower())


def _raises_puzzle_error(node: ast.AST) -> bool:
    return (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
            and ast.unparse(node.exc.func).endswith("PuzzleError"))


def sentences(path: Path) -> list[tuple[int, str]]:
    """The strings of `path` that read as a sentence for a person: its docstrings, the
    help of configuration options (docs/reference/config.md, also as the arguments of
    `relative_traits`), the log for whoever runs the grader, the `PuzzleError` of bad
    input to the kit's functions, and the words looked for in an error (compared, or a
    regular expression's) left out."""
    tree = ast.parse(path.read_text("utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr):
            skip.add(id(node.body[0].value))
        if isinstance(node, ast.keyword) and node.arg == "help":
            skip.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Call) and _is_logging(node):
            skip.update(id(n) for arg in node.args for n in ast.walk(arg))
        if _raises_puzzle_error(node):
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Compare):       # an error's own words, looked for
            skip.update(id(n) for part in (node.left, *node.comparators)
                        for n in ast.walk(part))
        if isinstance(node, ast.Call) and ast.unparse(node.func).startswith("re.") \
                and node.args:
            skip.update(id(n) for n in ast.walk(node.args[0]))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "relative_traits":
            skip.update(id(n) for arg in node.args for n in ast.walk(arg))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if _WORDS.search(text) and not _NOT_WORDS.search(text):
            found.append((node.lineno, text))
    return found


def _key(path: Path, text: str) -> str:
    return f"{path.relative_to(ROOT)}: {' '.join(text.split())}"


def test_the_grading_code_writes_no_sentence_outside_the_catalogue():
    found = {_key(path, text): f"{path.relative_to(ROOT)}:{line}"
             for path in GRADING_CODE for line, text in sentences(path)}
    allowed = {_key(ROOT / file, text) for file, text in ALLOWED}
    new = {where: key for key, where in found.items()
           if key not in allowed}
    assert new == {}, ("a sentence for a person outside the catalogue: add it to "
                       f"puzzlekit/testcells/catalogue/ and use it from there: {new}")


def test_every_allowed_sentence_is_still_in_the_code():
    found = {_key(path, text) for path in GRADING_CODE for _, text in sentences(path)}
    allowed = [(file, text) for file, text in ALLOWED
               if _key(ROOT / file, text) not in found]
    assert allowed == [], f"ALLOWED lists strings no longer in the code: {allowed}"


def _names_in(path: Path) -> set[str]:
    nodes = list(ast.walk(ast.parse(path.read_text("utf-8"))))
    return ({n.id for n in nodes if isinstance(n, ast.Name)}
            | {n.attr for n in nodes if isinstance(n, ast.Attribute)})


def test_every_message_is_used_by_the_code():
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path not in CATALOGUE_FILES:
            used |= _names_in(path)
    assert sorted(set(MESSAGES) - used) == []


def fixed_words(message: Message) -> list[str]:
    """The pieces of a message's template between its parameters, whitespace made one."""
    pieces = re.split(r"\{[^}]*\}", str(message))
    return [" ".join(p.split()) for p in pieces if len(" ".join(p.split())) >= 12]


def word_runs(message: Message, n: int = 3) -> set[str]:
    """Every run of `n` words in a row of the message's fixed words."""
    runs = set()
    for piece in fixed_words(message):
        words = piece.split()
        runs |= {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}
        if len(words) < n:
            runs.add(piece)
    return runs


def test_every_message_a_student_reads_is_rendered_by_a_test():
    """A test names the message, or reads three words in a row that only this message
    has (this file's own renderings do not count)."""
    texts = " ".join(" ".join(p.read_text("utf-8").split()) for p in (ROOT / "tests").rglob("*.py")
                     if p != Path(__file__))
    named = set(re.findall(r"\w+", texts))
    runs = {name: word_runs(m) for name, m in MESSAGES.items()}
    shared = Counter(run for r in runs.values() for run in r)
    unread = []
    for name, message in MESSAGES.items():
        if message.shown == INSTRUCTOR or name in named:
            continue
        if not any(shared[run] == 1 and run in texts for run in runs[name]):
            unread.append(name)
    assert unread == [], unread


def test_each_name_is_declared_by_one_module_of_the_catalogue():
    """The package's modules are star-imported into one namespace: a name declared twice
    would silently hide one of the messages."""
    declared = Counter(target.id for path in CATALOGUE_FILES
                       for node in ast.parse(path.read_text("utf-8")).body
                       if isinstance(node, (ast.Assign, ast.AnnAssign))
                       for target in (node.targets if isinstance(node, ast.Assign)
                                      else [node.target])
                       if isinstance(target, ast.Name) and target.id.isupper())
    assert [name for name, n in declared.items() if n > 1] == []
    # and every message a module declares is the catalogue's (its module star-imported)
    messages = {target.id for path in CATALOGUE_FILES
                for node in ast.parse(path.read_text("utf-8")).body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == "Message"
                for target in node.targets if isinstance(target, ast.Name)}
    assert messages == set(MESSAGES)


def test_a_message_takes_its_parameters_and_no_others():
    assert catalogue.NOT_WRITTEN.format(name="`bfs`").startswith("`bfs` is not written yet")
    with pytest.raises(TypeError, match="NOT_WRITTEN takes \\['name'\\]"):
        catalogue.NOT_WRITTEN.format()
    with pytest.raises(TypeError, match="got \\['name', 'seconds'\\]"):
        catalogue.NOT_WRITTEN.format(name="bfs", seconds=3)
    with pytest.raises(TypeError):
        catalogue.TOO_SLOW.format("bfs", "6 seconds")
    assert str(catalogue.NETWORK) == catalogue.NETWORK     # a message is its own text
    with pytest.raises(ValueError, match="parameters are"):
        Message("{a} and {b}", shown=INSTRUCTOR, example={"a": 1})


def test_a_copied_or_pickled_message_is_its_plain_text():
    """nbconvert copies a notebook's outputs, a class grader's workers pickle errors."""
    import copy
    import pickle
    for copied in (copy.copy(catalogue.KERNEL_HUNG), copy.deepcopy(catalogue.KERNEL_HUNG),
                   pickle.loads(pickle.dumps(catalogue.KERNEL_HUNG))):
        assert type(copied) is str and copied == catalogue.KERNEL_HUNG
    error = copy.deepcopy(RuntimeError(catalogue.NO_INPUT))
    assert type(error.args[0]) is str and error.args[0] == catalogue.NO_INPUT


@pytest.mark.parametrize("name", MESSAGES)
def test_every_example_renders_whole(name: str):
    message = MESSAGES[name]
    text = message.rendered()
    # no field left unfilled (a literal brace of the template, doubled there, may stay)
    literal = "".join(words for words, _, _, _ in string.Formatter().parse(str(message)))
    left = [f for f in re.findall(r"\{\w*(?::[^}]*)?\}", text) if f not in literal]
    assert message.name == name and left == [], text
    assert all(str(value) in text for value in message.example.values()
               if not isinstance(value, int)), text


def test_no_two_messages_say_the_same():
    texts = [" ".join(str(m).split()) for m in MESSAGES.values()]
    assert len(texts) == len(set(texts))
    # and no message is written again outside the catalogue
    code = {path: " ".join(" ".join(text.split()) for _, text in sentences(path))
            for path in GRADING_CODE}
    again = [(name, str(path.relative_to(ROOT))) for name, m in MESSAGES.items()
             for piece in fixed_words(m) if len(piece) >= 30 for path, text in code.items()
             if piece in text]
    assert again == []


def test_one_sentence_for_each_of_what_was_written_twice():
    """The kernel that stopped, the ready-made reference, the search that did not finish
    or asked again: one sentence each, whoever says it."""
    counts = {"the Python kernel stopped while running": 1, "ready-made": 1,
              "did not finish within": 1, "Keep a set of the boards already seen": 1}
    for words, most in counts.items():
        holders = [name for name, m in MESSAGES.items()
                   if words in str(m) and not any(str(o) in str(m) for o in MESSAGES.values()
                                                  if o is not m and words in str(o))]
        assert len(holders) == most, (words, holders)
