"""A provisional parse of a tool call's unfinished arguments, for display only (lesson 09).

Lives in the teaching layer because it needs ``jiter`` (the partial-JSON parser that ships with the openai
SDK), and the core is standard library only. ``jiter`` is imported when a parse is asked for, so
``import lesson_lib`` works without it.
"""

from __future__ import annotations

from ..core.values import Provisional

__all__ = ["provisional"]


def provisional(text: str) -> Provisional:
    """The best parse of an unfinished arguments ``text``, marked provisional (see :class:`Provisional`).

    Uses ``jiter.from_json(..., partial_mode="trailing-strings")``: an unfinished string is shown as far as
    it goes. Text that is not even the start of JSON gives ``value=None``. Never stored as a result.
    """
    import jiter

    if not text.strip():
        return Provisional(None, len(text))
    try:
        value = jiter.from_json(text.encode("utf-8", "surrogatepass"), partial_mode="trailing-strings")
    except ValueError:
        value = None
    return Provisional(value, len(text))
