"""A corpus of plausible wrong solutions to the exercises, and of right ones written differently.

Each module holds, for the checkers of one exercise, ``WRONG``: ``(checker, name, solution, hint keys)``
where ``solution`` is what a learner would pass, written the way a real learner gets it wrong, and the hint
keys are the ``checkers.*`` catalogue entries whose text the checker's answer must contain (they name what
is wrong); and ``RIGHT``: ``(checker, name, solution)``, correct solutions that differ from the reference
(lesson_lib's own parsers, a generator instead of a list, ...) and must pass. ``checker`` is the argument
of :func:`tests.wrong_solutions.run`. ``tests/exercises/test_wrong_solutions.py`` runs them all.
"""

from __future__ import annotations

from typing import Any

from lesson_lib.exercises.checkers import (
    check_bug,
    check_cuts,
    check_event_assembler,
    check_line_splitter,
    check_pipeline,
)


def run(checker: str, solution: Any):
    """Check ``solution`` with ``checker``: ``bug:<name>``, ``cuts:<name>``, ``splitter``, ``assembler`` or
    ``pipeline`` (then ``solution`` is a pair of classes)."""
    kind, _, name = checker.partition(":")
    if kind == "bug":
        return check_bug(name, solution)
    if kind == "cuts":
        return check_cuts(name, solution)
    if kind == "splitter":
        return check_line_splitter(solution)
    if kind == "assembler":
        return check_event_assembler(solution)
    if kind == "pipeline":
        return check_pipeline(*solution)
    raise KeyError(checker)
