"""Shared pytest set-up."""

from hypothesis import settings

# No timed assertions: Hypothesis' per-example deadline would fail examples that merely ran
# while the machine was busy. Performance is measured in benchmarks/ instead.
settings.register_profile("puzzlekit", deadline=None)
settings.load_profile("puzzlekit")
