"""The course: what an instructor runs from the course folder (nbgrader's config, the
shell, the formgrader): authoring checks, collect, feedback, late work, exports, the
integrity report and grading a whole class.

Runs in the instructor's processes, never in a student's kernel. Imports every wing before
it. Guards marks where submissions arrive and leave: collect refuses work filed under
another's name, feedback hides the hidden tests, the integrity report names tricks.
"""
