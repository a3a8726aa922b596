"""A deterministic measure of how much text a learner's line splitter touches: no clock.

A line splitter that keeps the unfinished line as one string and adds each piece to it (``buffer += text``),
then searches or splits the whole buffer again, does work proportional to the buffer on every feed: a line
of ``n`` characters fed one character at a time costs about ``n * n / 2``. A wall-clock threshold cannot
tell that from a slow machine; counting can.

The pieces fed to the splitter are :class:`MeteredStr`, a ``str`` subclass whose operations add the
number of characters they touch to a shared :class:`Meter` and return :class:`MeteredStr` again, so the
buffer built from them stays metered: concatenation (``+``, and ``plain + metered``, which Python hands to
the subclass's ``__radd__`` first), slicing and indexing, ``in``, ``find``/``index``/``rfind``/``rindex``,
``count``, ``split``/``rsplit``/``splitlines``/``partition``/``rpartition``, ``replace``, the ``strip``
family, ``startswith``/``endswith`` and iteration.

What it cannot see, said plainly: work done in C on a plain ``str`` that the learner made from the pieces
without a metered operation. ``"".join(all_pieces)`` on every feed, ``str(text)`` before adding, or
``re.split(pattern, buffer)`` / ``re.search`` (the ``re`` module reads the characters in C, unmetered) all
go unseen, so a splitter that joins every piece it has kept on every feed and re-splits the result with
``re`` is quadratic and passes this check. The common quadratic shape, a growing string buffer with
``+=``, is seen, whatever searches it afterwards, because each ``+=`` touches the whole buffer.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Meter", "MeteredStr", "metered"]


class Meter:
    """The shared count of characters touched."""

    def __init__(self) -> None:
        self.touched = 0


def metered(text: str, meter: Meter) -> MeteredStr:
    """``text`` as a :class:`MeteredStr` that counts into ``meter``."""
    return MeteredStr(text, meter)


def _wrap(result: Any, meter: Meter) -> Any:
    if isinstance(result, str):
        return metered(result, meter)
    if isinstance(result, list):
        return [metered(r, meter) if isinstance(r, str) else r for r in result]
    if isinstance(result, tuple):
        return tuple(metered(r, meter) if isinstance(r, str) else r for r in result)
    return result


_SEARCHES = frozenset({"find", "index", "rfind", "rindex", "count"})


def _metered_method(name: str) -> Any:
    method = getattr(str, name)

    def wrapper(self: MeteredStr, *args: Any, **kwargs: Any) -> Any:
        meter = self._meter
        if name in _SEARCHES and len(args) > 1:  # a search from a start index touches only that span
            end = args[2] if len(args) > 2 else None
            meter.touched += len(range(*slice(args[1], end).indices(len(self))))
        else:
            meter.touched += len(self)
        return _wrap(method(self, *args, **kwargs), meter)

    wrapper.__name__ = name
    return wrapper


def _longest(affix: Any) -> int:
    if isinstance(affix, tuple):
        return max((len(a) for a in affix), default=0)
    return len(affix) if isinstance(affix, str) else 0


class MeteredStr(str):
    """A ``str`` whose operations count the characters they touch into a shared :class:`Meter`."""

    _meter: Meter

    def __new__(cls, text: str, meter: Meter) -> MeteredStr:
        self = super().__new__(cls, text)
        self._meter = meter
        return self

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, str):
            return NotImplemented
        self._meter.touched += len(self) + len(other)
        return metered(str.__add__(self, other), self._meter)

    def __radd__(self, other: Any) -> Any:
        if not isinstance(other, str):
            return NotImplemented
        self._meter.touched += len(self) + len(other)
        return metered(str.__add__(other, self), self._meter)

    def __getitem__(self, key: Any) -> Any:
        result = str.__getitem__(self, key)
        self._meter.touched += len(result)
        return metered(result, self._meter)

    def __contains__(self, item: Any) -> bool:
        self._meter.touched += len(self)
        return str.__contains__(self, item)

    def __iter__(self) -> Any:
        self._meter.touched += len(self)
        return (metered(c, self._meter) for c in str.__iter__(self))

    def startswith(self, prefix: Any, *args: Any) -> bool:
        self._meter.touched += _longest(prefix)
        return str.startswith(self, prefix, *args)

    def endswith(self, suffix: Any, *args: Any) -> bool:
        self._meter.touched += _longest(suffix)
        return str.endswith(self, suffix, *args)

    def __reduce__(self) -> Any:
        return (str, (str.__str__(self),))


for _name in (
    "find",
    "index",
    "rfind",
    "rindex",
    "count",
    "split",
    "rsplit",
    "splitlines",
    "partition",
    "rpartition",
    "replace",
    "strip",
    "lstrip",
    "rstrip",
    "removeprefix",
    "removesuffix",
):
    setattr(MeteredStr, _name, _metered_method(_name))
del _name
