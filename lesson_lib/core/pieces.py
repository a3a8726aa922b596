"""Keeping a buffer of many short strings small: the trailing short ones are joined, in groups.

A parser that holds a line as the pieces of the reads that brought it, or an event's data as its lines,
keeps a list of ``str`` objects. Each costs about 50-80 bytes besides its characters (CPython's object
header, plus the list's pointer), so a buffer of short strings costs far more than its characters: an
event of 5.6 million ``data:ab`` lines (16 Mi counted characters) held 386 MiB, a line of 300,000 Chinese
characters in 1-byte reads 25 MiB (issue 23, measured in ``benchmarks/memory.py``).

:func:`compact_tail` joins the strings at the end of such a list into one, once there are enough of
them. The owner calls it after an append when the list's length is a multiple of :data:`CHECK_EVERY`
(``if not len(parts) % CHECK_EVERY``: one length test per append). It joins every string after the last
one of at least :data:`LONG` characters (a long string's header is negligible beside its characters).
Guarantees:

* ``sep.join(parts)`` is unchanged (the joined group takes the place of its members, with ``sep`` between
  them); for a list of lines joined with ``"\n"``, the lines are the joined text split at ``"\n"``, since a
  line never holds one;
* memory: the strings shorter than :data:`LONG` are at most the ``CHECK_EVERY - 1`` appended since the
  last check, one group before them, and one group before each long string; so the list costs its
  characters (at most 4 bytes each: a ``str`` holding a character above U+FFFF stores 4 bytes for every
  character) plus at most about ``(CHECK_EVERY + 1 + len(text) / LONG) * 90`` bytes, where ``len(text)``
  is ``len(sep.join(parts))``;
* linear cost: a string is copied into a group once, and the group again at each later check while it is
  shorter than :data:`LONG` and last: at most ``LONG`` characters copied per check, about 64 per append
  (a ``memcpy``).
"""

from __future__ import annotations

__all__ = ["CHECK_EVERY", "LONG", "compact_tail"]

#: The owner calls :func:`compact_tail` when its list's length is a multiple of this.
CHECK_EVERY = 64
#: A string of at least this many characters is never joined again: its header (about 60-80 bytes, and
#: the list's pointer) is under 2 % of its characters.
LONG = 4096


def compact_tail(parts: list[str], sep: str) -> None:
    """Join the strings after the last one of at least :data:`LONG` characters into one (in place);
    ``sep.join(parts)`` is the same before and after."""
    end = start = len(parts)
    while start and len(parts[start - 1]) < LONG:
        start -= 1
    if end - start > 1:
        parts[start:] = [sep.join(parts[start:])]
