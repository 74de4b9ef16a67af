"""How a kernel ended, said from what the grader saw (`kernel_end`): a kill for memory
only when the memory cgroup counted one, a signal by its name, an exit status as such."""

from __future__ import annotations

from puzzlekit.autograder.judge.kernel_end import clause, ended_words, oom_kills, signal_of


def test_a_memory_kill_is_said_only_when_the_cgroup_counted_one(tmp_path):
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n")
    assert oom_kills({"unified": str(v2)}) == 0
    assert "memory" not in ended_words(137, {"unified": str(v2)}, "2G")
    (v2 / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert ended_words(137, {"unified": str(v2)}, "2G") == (
        "it used more memory than a graded notebook may (2G), and the system stopped it")
    v1 = tmp_path / "v1"
    v1.mkdir()
    (v1 / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert oom_kills({"memory": str(v1)}) == 2
    assert oom_kills({"memory": str(tmp_path / "gone")}) == 0     # removed, or none


def test_a_signal_or_an_exit_status_is_named_and_nothing_else():
    assert signal_of(137) == 9 and signal_of(-11) == 11 and signal_of(3) is None
    assert ended_words(137) == "it was stopped by signal 9 (SIGKILL)"
    assert ended_words(-9) == "it was stopped by signal 9 (SIGKILL)"
    assert ended_words(139) == "it crashed inside Python (signal 11, SIGSEGV)"
    assert ended_words(3) == "it ended with exit status 3, as a call of os._exit(3) would"
    assert ended_words(None) == "" and clause("") == ""
    assert clause("it was stopped") == ": it was stopped"
