"""The visuals: coloured HTML boards, animations, the path player and the playable board.

Runs in the student's notebook (and, as pictures, in the grader's feedback). Imports the
puzzle and engine wings; matplotlib and ipywidgets only inside the modules that need them.
Guards no mark; what it draws meets WCAG 2.1 AA (docs/visuals.md).
"""
