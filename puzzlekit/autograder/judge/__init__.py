"""The grader's side of the wall: code that runs in the grader's process (nbgrader's
autograde, a class-grading worker) and holds the verdicts. Everything that comes from the
kernel is untrusted data here."""
