"""The kernel side of the wall: code that runs inside the student's kernel, with the
student's code. It trusts nothing it is sent beyond `puzzlekit.autograder.wire`'s data,
and imports nothing of the grader's side."""
