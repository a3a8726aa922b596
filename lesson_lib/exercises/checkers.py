"""Checkers for the exercise notebooks in ``notebooks/exercises/``: code, not answers, is checked here.

Every checker runs the learner's code (a function, a class, or a list of cut points) against hidden,
adversarial chunkings of a hidden corpus and compares it with ``lesson_lib``. It returns the same
:class:`~lesson_lib.exercises.Result` as ``check()``: ``✓ correct`` with what was tried, or ``✗ not yet``
with the kind of cut or case that failed and a question to think about, never the fix. Code that still
raises ``NotImplementedError`` is reported as not attempted yet. Reports are deterministic: the chunkings
are seeded, nothing depends on time. A report is written in the current language (``set_language``), read
when the check runs: its strings are the ``checkers.*`` entries of ``lesson_lib/i18n/locales/<language>/``.

* :func:`check_bug` - the bug hunt (``decode``, ``splitlines``, ``blank_line``, ``eof``, ``cleanup``,
  ``bound``);
* :func:`check_cuts`, :func:`show_challenge`, :func:`challenge_body` - the adversarial cuts (``character``,
  ``line``, ``event``, ``completion``);
* :func:`check_line_splitter`, :func:`check_event_assembler`, :func:`check_pipeline` - build it yourself.

>>> from lesson_lib.exercises.checkers import check_cuts
>>> check_cuts("character", ...)
adversarial.character ✗ not yet: not attempted yet: put your cut offsets in place of ... (exactly one cut).
"""

from __future__ import annotations

from .checkers_adversarial import CHALLENGES, challenge_body, check_cuts, show_challenge
from .checkers_bugs import BUGS, FakeResponse, check_bug
from .checkers_build import check_event_assembler, check_line_splitter, check_pipeline

__all__ = [
    "BUGS",
    "CHALLENGES",
    "FakeResponse",
    "challenge_body",
    "check_bug",
    "check_cuts",
    "check_event_assembler",
    "check_line_splitter",
    "check_pipeline",
    "show_challenge",
]
