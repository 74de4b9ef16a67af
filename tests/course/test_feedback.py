"""Feedback without hidden tests: the pieces of StripHiddenTests, on hand-made cells."""

import pytest

pytest.importorskip("nbgrader")

from nbformat.v4 import new_code_cell, new_output  # noqa: E402

from puzzlekit.course.feedback import (  # noqa: E402
    HIDDEN_FAILED,
    StripHiddenTests,
    failing_lines,
    shorten,
    split_hidden,
)
from puzzlekit.testcells.catalogue import HIDDEN_PLACEHOLDER  # noqa: E402

SOURCE = """assert_equal(findZero(start), (0, 1), "findZero(start)")
### BEGIN HIDDEN TESTS
assert_equal(findZero(((1, 2), (3, 0))), (1, 1), "secret corner case")
### END HIDDEN TESTS
assert True"""


def traceback_at(line, text):
    return ["\x1b[0;31m---------\x1b[0m\n\x1b[0;31mAssertionError\x1b[0m   Traceback",
            f"Cell \x1b[0;32mIn[7], line {line}\x1b[0m\n\x1b[1;32m----> {line}\x1b[0m {text}\n"
            f"      3 ### END HIDDEN TESTS\n      4 assert True",
            "File /x/grading.py:12, in assert_equal\n    raise AssertionError(message)"]


def run(cell):
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "points": 2,
                                 "grade_id": "findZero_tests"}
    out, _ = StripHiddenTests().preprocess_cell(cell, {}, 0)
    return out


def test_split_hidden_keeps_the_visible_lines_and_numbers_the_hidden_ones():
    visible, numbers, snippets = split_hidden(SOURCE)
    assert "secret corner case" not in visible and HIDDEN_PLACEHOLDER in visible
    assert visible.splitlines()[0] == SOURCE.splitlines()[0]
    assert numbers == {2, 3, 4}
    assert snippets == [SOURCE.splitlines()[2]]


def test_failing_lines_reads_ipython_tracebacks():
    assert failing_lines(traceback_at(3, "x")) == [3]
    assert failing_lines(traceback_at(3, "x"), count=7) == [3]
    assert failing_lines(traceback_at(3, "x"), count=8) == []
    assert failing_lines(["no cell here"]) == []


def chained(student_line, test_line):
    """A traceback through a student's cell (In[5]) and then the test cell (In[7])."""
    return ([f"Cell In[5], line {student_line}, in bfs(board)\n----> {student_line} loop()",
             "KeyboardInterrupt: ", "During handling of the above exception, another "
             "exception occurred:"] + traceback_at(test_line, SOURCE.splitlines()[test_line - 1]))


def test_the_test_cell_is_found_by_its_execution_count_in_chained_tracebacks():
    assert failing_lines(chained(3, 1), count=7) == [1]
    assert failing_lines(chained(1, 3), count=7) == [3]
    cell = new_code_cell(SOURCE, execution_count=7, outputs=[
        new_output("error", ename="AssertionError", evalue="x", traceback=chained(1, 3))])
    assert [o.evalue.splitlines()[0] for o in run(cell).outputs] == ["a hidden test failed: x"]
    cell = new_code_cell(SOURCE, execution_count=7, outputs=[
        new_output("error", ename="AssertionError", evalue="x", traceback=chained(3, 1))])
    out = run(cell).outputs[0]
    assert out.evalue == "x" and "HIDDEN" not in "\n".join(out.traceback)


def test_long_tracebacks_keep_their_ends():
    frames = [f"frame {i}" for i in range(100)]
    short = shorten(frames)
    assert short[0] == "frame 0" and short[-1] == "frame 99" and len(short) < 20
    assert shorten(frames[:5]) == frames[:5]


def failed_at(line, board_html, evalue):
    """The test cell after a failure at `line` that drew `board_html`."""
    return run(new_code_cell(SOURCE, outputs=[
        new_output("display_data", data={"text/html": board_html}),
        new_output("error", ename="AssertionError", evalue=evalue,
                   traceback=traceback_at(line, SOURCE.splitlines()[line - 1]))]))


def test_a_hidden_failure_names_its_property_and_keeps_its_boards():
    out = failed_at(3, "<table>the boards</table>", "blank in the last row:\n  expected: (2, 1)")
    assert out.outputs[0].data["text/html"] == "<table>the boards</table>"
    assert out.outputs[1].evalue.startswith("a hidden test failed: blank in the last row\n")
    assert "expected: (2, 1)" not in str(out) and "HIDDEN" not in str(out)


def test_a_hidden_failure_that_quotes_a_hidden_line_says_only_that_one_failed():
    quoting = SOURCE.splitlines()[2].strip()
    out = failed_at(3, "<table>the boards</table>", quoting)
    assert out.outputs[-1].evalue == HIDDEN_FAILED
    assert quoting not in "\n".join(out.outputs[-1].traceback)


def test_a_hidden_failure_keeps_its_diagnosis_but_not_the_hidden_input():
    quoting = SOURCE.splitlines()[2].strip()
    why = "the board itself is among its next states: every move changes the board"
    out = failed_at(3, "<table>the boards</table>", f"{quoting}: {why}\nexpected a set")
    evalue = out.outputs[-1].evalue
    assert " ".join(evalue.split()).startswith(f"a hidden test failed: {why}")
    assert quoting not in str(out)


def test_a_visible_failure_keeps_its_boards_but_loses_the_hidden_lines():
    out = failed_at(1, "<table>expected/got</table>", "findZero(start)")
    assert out.outputs[0].data["text/html"] == "<table>expected/got</table>"
    text = "\n".join(out.outputs[1].traceback)
    assert "findZero(start)" in text and "HIDDEN" not in text and "secret" not in str(out)


def test_cells_without_hidden_tests_are_left_alone():
    cell = new_code_cell("assert 1 == 2", outputs=[new_output("stream", text="hello")])
    assert run(cell).outputs[0].text == "hello" and run(cell).source == "assert 1 == 2"


def test_a_visible_checks_diagnosis_stays_beside_a_hidden_failure_in_the_feedback(tmp_path):
    """A visible check gave partial credit with a precise diagnosis, then a hidden case
    failed: the feedback says both (before, only "a hidden test failed")."""
    from test_judge import GIVEN, student
    source = ('from puzzlekit.testcells import partly, passed\n'
              'partly(2, "the path ucs returned costs 179, but the cheapest path costs 44")\n'
              '### BEGIN HIDDEN TESTS\n'
              'assert_equal(ucs(start, start, {"U": 1}), ([start], 0), "ucs(goal, goal)")\n'
              '### END HIDDEN TESTS\n'
              'passed("ucs")\n')
    judge, _ = student(tmp_path, "def ucs(start, goal, costs):\n    return None, None\n")
    judge.run_given(GIVEN, 1)
    outputs = [new_output(**o) if o["output_type"] == "error" else o
               for o in judge.run_test(source, 7) if o["output_type"] == "error"]
    out = run(new_code_cell(source, execution_count=7, outputs=outputs))
    words = out.outputs[-1].evalue.split("\n")
    assert words[:2] == ["a hidden test failed: ucs(goal, goal)",
                         "why (seen before this failure): the path ucs returned costs 179, but "
                         "the cheapest path costs 44"]
    assert "HIDDEN" not in str(out) and "{'U': 1}" not in str(out)
