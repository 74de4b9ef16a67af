import puzzlekit as pk


def test_lecture_example_path_has_32_states():
    start = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    goal = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    path = pk.search(pk.nextStates, start, goal)
    assert len(path) == 32
    assert pk.check_solution(start, goal, list(path)).ok
