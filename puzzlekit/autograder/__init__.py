"""The autograder: both sides of the wall that a student's code runs behind.

- `kernel/` runs **in the student's kernel**, behind the wall: the agent that calls the
  student's functions for the judge. It imports `wire` and the testcells wing, never
  `judge/` (tests/test_layers.py).
- `judge/` runs **in the grader's process** (nbgrader's autograde, the class grader's
  workers): the judge that runs the hidden tests, the execute step that starts the kernel,
  the sanitiser of outputs, the copying of submissions as plain files.
- `wall/` is **the launcher**: it starts the kernel in its own namespaces, Landlock and
  cgroup (``python -m puzzlekit.autograder.wall``).
- `wire.py` is what crosses between the two sides: plain data, bounded, on both sides.

Every file here guards marks: a student's code reaches only its own notebook and changes
no verdict (docs/CONTRACTS.md).
"""
