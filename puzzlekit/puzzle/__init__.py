"""The puzzle: the model the notebooks teach (boards, moves, file formats, solvability,
scrambles, exact distances, heuristics, text).

Runs wherever the kit is imported: the student's notebook, the grader, the shell. Imports
nothing of the kit but `puzzlekit.errors`; every other wing builds on it. Guards no mark,
but graded tests compare students' answers with these references, so each one that a
notebook teaches says where (`puzzlekit.references`).
"""
