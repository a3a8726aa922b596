"""The words the core's types carry: string enums that read as their value.

A field that names one thing of a small set (the unit a stream was cut in, the clock that ran out, what a
byte is in UTF-8) is a member of an enum, not a bare string: code compares members (``is Unit.LINE``) and
a type checker knows the set. Each is a :class:`ValueEnum`, a ``str`` enum that reads as its value
everywhere it is printed, so the values stay the wire and notebook vocabulary they were:

* ``member == "line"`` holds, and a member is a dict key equal to its string (same hash);
* ``str()``, ``format()`` (``f"{unit:10}"``) and ``json.dumps`` give the value;
* ``repr()`` is the value's repr (``'line'``), not ``<Unit.LINE: 'line'>``: a result, a dict or a view
  that shows ``repr(result.truncated_at)`` reads as it did when the field was a plain string.

:class:`~lesson_lib.core.completion.Outcome` predates this module and keeps the enum repr
(``<Outcome.COMPLETED: 'completed'>``).
"""

from __future__ import annotations

import enum

__all__ = ["ValueEnum"]


class ValueEnum(enum.StrEnum):
    """A ``str`` enum whose ``str``, ``format`` and ``repr`` are those of its value (see the module)."""

    def __repr__(self) -> str:
        return repr(self.value)
