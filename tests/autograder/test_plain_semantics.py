"""Plain nbgrader semantics behind the wall (issue 22, item 1), kind by kind.

Every kind of tests/plain_corpus.py is graded by plain nbgrader and by the course's
config, a right and a wrong answer each (one assignment, two submissions per pipeline,
about 30 s in all). The kit must give the same score as plain nbgrader, or its generate
step must have refused the test, naming the cell and saying it is a limit of the kit's
grader, which only a kind that truly cannot cross the wall may need (`MAY_BE_REFUSED`).

A kind the kit does not honour yet is an expected failure (strict): when the feature
lands, it passes, and its mark must go.
"""

from __future__ import annotations

import pytest
from plain_corpus import KINDS, MAY_BE_REFUSED, Kind, grade_kit, grade_plain, table

NOT_YET: dict[str, str] = {}


def _param(kind: Kind) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=NOT_YET[kind.name])] \
        if kind.name in NOT_YET else []
    return pytest.param(kind, id=kind.name, marks=marks)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    pytest.importorskip("nbgrader")
    pytest.importorskip("numpy")
    root = tmp_path_factory.mktemp("plain-semantics")
    plain = grade_plain(root / "plain")
    kit, refused = grade_kit(root / "kit")
    print(table(plain, kit, refused))
    return plain, kit, refused


@pytest.mark.nbgrader
@pytest.mark.slow
def test_plain_nbgrader_tells_the_right_answers_from_the_wrong_ones(graded):
    plain, _, _ = graded
    assert {k.name: plain[k.name][0] for k in KINDS} == {k.name: k.points for k in KINDS}
    assert [k.name for k in KINDS if plain[k.name][1] >= k.points] == []


@pytest.mark.nbgrader
@pytest.mark.slow
@pytest.mark.parametrize("kind", [_param(k) for k in KINDS])
def test_the_kit_grades_as_plain_nbgrader_or_refuses_first(graded, kind):
    plain, kit, refused = graded
    if kind.name in refused:
        said = refused[kind.name]
        assert kind.name in MAY_BE_REFUSED, f"refused: {said}"
        assert f"test cell {kind.name}_tests (line " in said
        assert "the kit's grader cannot honour" in said, said
        assert MAY_BE_REFUSED[kind.name] in said
    else:
        assert kit[kind.name] == plain[kind.name]


def test_what_the_grader_cannot_send_is_its_limit_not_the_students_mistake(
        tmp_path, monkeypatch, caplog):
    """Should a test still reach a student with something the grader cannot send, the
    student reads that it is the grader's limit, and the instructor gets a warning."""
    from test_judge import HONEST, outcome, student

    from puzzlekit.autograder import wire
    from puzzlekit.autograder.judge.judge import Judge
    from puzzlekit.testcells.catalogue import GRADER_LIMIT

    def cannot(self: Judge, value: object) -> object:
        raise wire.WireError(f"the grader cannot pass {type(value).__name__} to your code")
    monkeypatch.setattr(Judge, "_outbound", cannot)
    judge, _ = student(tmp_path, HONEST)
    with caplog.at_level("WARNING", logger="puzzlekit.autograder.judge.judge"):
        said = outcome(judge, "class Gizmo:\n    pass\nfindZero(Gizmo())")
    assert said is not None and said.startswith("AssertionError: the grader cannot pass Gizmo")
    assert " ".join(GRADER_LIMIT.split()) in " ".join(said.split())
    warned = " ".join(r.getMessage() for r in caplog.records if r.levelname == "WARNING")
    assert "calls findZero with something the kit's grader cannot send" in warned
    assert "check-tests" in warned


def test_a_hidden_test_that_meets_the_graders_limit_does_not_blame_the_student():
    from puzzlekit.autograder.judge.judge import GRADER_CANNOT
    from puzzlekit.course.feedback import hidden_failure_words

    said = hidden_failure_words(GRADER_CANNOT.format(
        why="the grader cannot pass Gizmo to your code"), ["_S = state_at_depth(20)"])
    assert said.startswith("the grader cannot pass Gizmo to your code.")
    assert "a limit of the grader, not a mistake in your code" in " ".join(said.split())
    assert "check that your code" not in said
