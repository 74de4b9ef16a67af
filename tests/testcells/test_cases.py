"""A test cell in cases (`puzzlekit.testcells.Cases`): each failing case costs its share, the
student reads every case that failed, and a size that fails after 3×3 boards passed is
named as such only when no diagnosis says more."""

import pytest

from puzzlekit.testcells import Cases, mistake
from puzzlekit.testcells.messages import take_partial


@pytest.fixture(autouse=True)
def _fresh():
    take_partial()
    yield
    take_partial()


def test_a_failing_case_costs_only_its_share_and_the_next_runs():
    cases = Cases(3)
    ran = []
    with cases.case(1, "a board already solved"):
        raise AssertionError("expected: '' got: None")
    with cases.case(1, "a 2×2 board"):
        ran.append("2×2")
    assert ran == ["2×2"] and cases.earned == 2
    points, why = take_partial()
    assert points == 2 and why == "a board already solved: expected: '' got: None"


def test_every_failed_case_is_said_and_the_lowest_award_counts():
    cases = Cases(4)
    with cases.case(1, "first"):
        raise AssertionError("one")
    with cases.case(1, "second"):
        raise ValueError("two")
    points, why = take_partial()
    assert points == 2 and why.splitlines() == ["first: one", "second: two"]


def test_when_the_cases_lose_every_point_the_cell_fails_with_all_of_them():
    cases = Cases(1)
    with pytest.raises(AssertionError) as e:
        with cases.case(1, "the only case"):
            raise AssertionError("wrong")
    assert str(e.value) == "the only case: wrong"


def test_another_size_after_3x3_boards_is_named_as_a_question():
    cases = Cases(3)
    with cases.case(0.5, "manhattan on 2×3 boards", new_size=(2, 3)):
        raise AssertionError("expected: 4 got: 3")
    points, why = take_partial()
    assert points == 2.5
    assert why.startswith("manhattan on 2×3 boards: right on the 3×3 boards before, but not "
                          "on this 2×3 board: does your code assume a square or a 3×3 board")
    assert why.endswith("expected: 4 got: 3")


def test_a_wrong_value_on_a_board_of_another_size_is_not_blamed_on_the_size():
    cases = Cases(2)
    with cases.case(1, "bfs of a 2×2 board that cannot reach the goal", size=(2, 2)):
        raise AssertionError("expected: None got: 'unsolvable'")
    assert "3×3" not in take_partial()[1]
    with cases.case(0.5, "bfs of a 2×2 board", size=(2, 2)):
        raise IndexError("list index out of range")
    assert "does your code assume a 3×3 board" in take_partial()[1]


def test_a_diagnosis_says_more_than_the_size():
    cases = Cases(3)
    said = mistake("move-missing", "4 boards are one move away here, yours has 2")
    with cases.case(0.5, "nextStates on a 4×4 board", new_size=(4, 4)):
        raise AssertionError(f"nextStates(S): {said}")
    why = take_partial()[1]
    assert "assume" not in why and said in why
