"""Fair marks for answers written as real students write them, on a busy machine.

Each corpus module (corpus_01 to corpus_04: 54 answers in the styles of students'
work found elsewhere) says what a fair grader takes from each answer, test cell by test
cell, and what the first sentence of each losing cell must name. They are graded as the
course grades (`harness.py`: the course's execute step, the shipped settings, nbgrader's
score rule) in three processes that run in turns, each a third of the time, as on a
machine with two busy processes per core (`throttle.py`): a right answer must keep its
points whatever the machine's load. The three, each a third of the answers, together
keep one core busy.
"""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from throttle import throttled

pytest.importorskip("nbgrader")
pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
CORPORA = ("corpus_01", "corpus_02", "corpus_03", "corpus_04")


def _corpus(name: str):
    import importlib
    return importlib.import_module(name)


ANSWERS = [(c, a) for c in CORPORA for a in _corpus(c).ANSWERS]
#: three shares of about the same work: every third answer of each assignment
SHARES = [ANSWERS[k::3] for k in range(3)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """corpus -> answer -> grade id -> [score, max score, first sentence, named]."""
    out = tmp_path_factory.mktemp("fair-marks")
    procs = [subprocess.Popen([sys.executable, str(HERE / "harness.py"), ",".join(CORPORA),
                               str(out / f"share{k}.json"),
                               ",".join(f"{c}:{a}" for c, a in share)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for k, share in enumerate(SHARES)]
    logs = []
    with ExitStack() as stack:
        for k, proc in enumerate(procs):
            stack.enter_context(throttled(proc.pid, share=1 / 3, phase=k / 3))
        for proc in procs:
            logs.append(proc.communicate(timeout=1500)[0].decode("utf-8", "replace"))
    results: dict = {c: {} for c in CORPORA}
    for k, proc in enumerate(procs):
        assert proc.returncode == 0, logs[k][-3000:]
        for c, answers in json.loads((out / f"share{k}.json").read_text("utf-8")).items():
            results[c].update(answers)
    return results


def test_the_corpus_has_forty_answers_in_every_style():
    assert len(ANSWERS) >= 40
    for c in CORPORA:
        corpus = _corpus(c)
        assert set(corpus.LOSES) == set(corpus.ANSWERS), c
        assert set(corpus.CAUSE) <= set(corpus.ANSWERS), c
        for answer, loses in corpus.LOSES.items():
            # every loss has its cause written down, and every cause a loss
            assert set(loses) == set(corpus.CAUSE.get(answer, {})), (c, answer)


@pytest.mark.parametrize("corpus,answer", ANSWERS, ids=[f"{c[-2:]}-{a}" for c, a in ANSWERS])
def test_every_answer_gets_its_fair_marks_and_the_cause_it_planted(graded, corpus, answer):
    module = _corpus(corpus)
    cells = graded[corpus][answer]
    loses = module.LOSES[answer]
    causes = module.CAUSE.get(answer, {})
    lost = {gid: round(most - score, 2) for gid, (score, most, *_) in cells.items()
            if score != most}
    assert lost == loses, {gid: cells[gid] for gid in set(lost) | set(loses)}
    for gid, words in causes.items():
        said = cells[gid][2]
        assert words in said, f"{gid}: {said!r} does not name {words!r}"
    for gid, (score, most, said, *named) in cells.items():
        assert "visited set" not in said or "asked for the next states" in said \
            or "expands boards it has already expanded" in said, said
    # the mistakes the grader named, cell by cell: the planted ones and no others (a right
    # answer: none at all)
    recorded = {gid: rest[0] for gid, (_, _, _, *rest) in cells.items() if rest and rest[0]}
    assert recorded == getattr(module, "NAMED", {}).get(answer, {}), recorded
