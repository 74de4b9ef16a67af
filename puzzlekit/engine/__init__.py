"""The engine: every search of the kit (the lecture's `search`, BFS, DFS, UCS, IDDFS, A*,
IDA*, pattern databases, the large-board solver) and the progress of a long search.

Runs wherever a search is asked for: the student's notebook, the grader, the shell.
Imports the puzzle wing only. Guards marks by its extent: forbidding ``"solve"``,
``"search"`` or ``"bfs_layers"`` in a graded test forbids every function defined under
this folder (`puzzlekit.testcells.forbidding`, `puzzlekit.course.integrity`), so a new
search module added here is covered without a list to update.
"""
