"""Numeric options: the one place where every number a caller passes to lesson_lib is checked.

Every limit, count, offset, delay and timeout in the library goes through :func:`check_int` or
:func:`check_number`, before any state is built and before any I/O. A rejected value raises
:class:`OptionError`, whose message names the option, the allowed range and the value given, e.g.
``max_line_chars must be an int >= 1, or None; got 1.5``.

Rules, the same everywhere:

* ``bool`` is not a number here (``True`` is an ``int`` to Python, but ``max_line_chars=True`` is a
  mistake, not a limit of 1);
* an int option takes only ``int`` (``2.0`` and ``"2"`` are refused, not rounded or parsed);
* a number option (seconds) takes ``int`` or ``float``, finite: ``nan`` and ``inf`` are refused, and so
  is anything outside the documented range (a ``delay=1e10`` would hang a server thread for 300 years).

:class:`OptionError` is both a ``ValueError`` and a ``TypeError``: a wrong type and a wrong value are the
same mistake (a bad option), and code written against either exception keeps working.
"""

from __future__ import annotations

import math

__all__ = ["OptionError", "check_int", "check_number"]


class OptionError(ValueError, TypeError):
    """A bad option: wrong type or out of range. The message names the option and the allowed range."""


def _show(bound: float) -> str:
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


def _range(minimum: float | None, maximum: float | None, low_open: bool, unit: str) -> str:
    low = "" if minimum is None else f"{'>' if low_open else '>='} {_show(minimum)}"
    high = "" if maximum is None else f"<= {_show(maximum)}"
    return " and ".join(part for part in (low, high) if part) + unit


def check_int(
    name: str,
    value: object,
    *,
    minimum: int | None = 1,
    maximum: int | None = None,
    none: bool = False,
) -> int | None:
    """Return ``value`` if it is an ``int`` (not ``bool``) with ``minimum <= value <= maximum`` (a bound
    that is ``None`` is open), or ``None`` when ``none`` allows it; else raise :class:`OptionError`."""
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(_message(name, "an int", minimum, maximum, False, "", none, value))
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise OptionError(_message(name, "an int", minimum, maximum, False, "", none, value))
    return value


def check_number(
    name: str,
    value: object,
    *,
    minimum: float,
    maximum: float,
    low_open: bool = False,
    none: bool = False,
    unit: str = " seconds",
) -> float | None:
    """Return ``value`` if it is a finite ``int`` or ``float`` (not ``bool``) in the range ``minimum``
    (exclusive when ``low_open``) to ``maximum`` (inclusive), or ``None`` when ``none`` allows it; else
    raise :class:`OptionError`. Both bounds are required: every duration in the library is bounded."""
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionError(_message(name, "a number", minimum, maximum, low_open, unit, none, value))
    if (
        not math.isfinite(value)
        or value > maximum
        or value < minimum
        or (low_open and value == minimum)
    ):
        raise OptionError(_message(name, "a number", minimum, maximum, low_open, unit, none, value))
    return value


def _message(
    name: str,
    kind: str,
    minimum: float | None,
    maximum: float | None,
    low_open: bool,
    unit: str,
    none: bool,
    value: object,
) -> str:
    allowed = f"{kind} {_range(minimum, maximum, low_open, unit)}"
    if none:
        allowed += ", or None"
    return f"{name} must be {allowed}; got {value!r}"
