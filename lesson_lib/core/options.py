"""Options: the keyword options of a stream (:class:`ConsumeOptions`), and the one place where every number
a caller passes to lesson_lib is checked.

:class:`ConsumeOptions` is the ``TypedDict`` of the options :func:`~lesson_lib.core.completion.consume`,
:func:`~lesson_lib.core.completion.stream_updates` and their async twins take (``**options:
Unpack[ConsumeOptions]``), so an editor and a type checker know each name and type. It only types them: the
functions still check every value when called, before any I/O (an unknown name is a ``TypeError``, a bad
value an :class:`OptionError`, each naming the option), since a caller need not run a type checker.

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
from collections.abc import Callable
from typing import Literal, Protocol, TypedDict

__all__ = [
    "ActivityReporter",
    "CancelFlag",
    "ConsumeOptions",
    "OptionError",
    "check_int",
    "check_number",
    "stream_buffer_bound",
]


class CancelFlag(Protocol):
    """What ``cancel=`` may be besides a callable: an object with ``is_set()`` (``threading.Event``,
    ``asyncio.Event``)."""

    def is_set(self) -> bool: ...


class ActivityReporter(Protocol):
    """What ``activity=`` is told (e.g. :class:`lesson_lib.core.activity.ActivityLog`): ``on_bytes(n)`` per
    read, ``on_event()`` per event or comment, ``on_progress()`` per text delta, stage, finish reason or
    terminal."""

    def on_bytes(self, n: int) -> None: ...
    def on_event(self) -> None: ...
    def on_progress(self) -> None: ...


class ConsumeOptions(TypedDict, total=False):
    """The keyword options of :func:`~lesson_lib.core.completion.stream_updates` and the functions that take
    its options (``consume``, ``astream_updates``, ``aconsume``, ``check_options``, and the network layer's
    that pass them on). Every key is optional; what each means, its default and its range are written in
    :func:`~lesson_lib.core.completion.stream_updates`'s docstring."""

    cancel: Callable[[], bool] | CancelFlag | None
    activity: ActivityReporter | None
    errors: Literal["strict", "replace"]
    max_line_chars: int | None
    max_event_chars: int | None
    max_element_chars: int | None
    max_events: int | None
    max_bytes_without_progress: int | None
    max_tool_arguments_chars: int | None
    idle_timeout: float | None
    progress_timeout: float | None
    deadline: float | None
    clock: Callable[[], float]
    request_id: str | int | None
    incremental_output: bool | None
    keep_text: bool
    think_tags: bool


class OptionError(ValueError, TypeError):
    """A bad option: wrong type or out of range. The message (English, for programmers and logs) names the
    option and the allowed range. An error of :func:`check_int` or :func:`check_number` also says it as data
    (``option``; ``kind`` ``"int"`` or ``"number"``; ``minimum``, ``maximum``, ``low_open``, ``seconds``,
    ``none``; ``value``; ``option`` is ``None`` on any other), and :meth:`describe` says it in the learner's
    language."""

    option: str | None = None
    kind: str = ""
    minimum: float | None = None
    maximum: float | None = None
    low_open: bool = False
    seconds: bool = False
    none: bool = False
    value: object = None

    def describe(self) -> str:
        """The message in the current language (the registered wording, :mod:`lesson_lib.core.wording`)."""
        from .wording import wording

        return wording().error(self)


def _range_error(
    option: str,
    kind: str,
    minimum: float | None,
    maximum: float | None,
    low_open: bool,
    unit: str,
    none: bool,
    value: object,
) -> OptionError:
    """The :class:`OptionError` of a value outside what :func:`check_int` or :func:`check_number` allow."""
    article = "a" if kind == "number" else "an"
    error = OptionError(_message(option, f"{article} {kind}", minimum, maximum, low_open, unit, none, value))
    error.option, error.kind, error.value = option, kind, value
    error.minimum, error.maximum, error.low_open, error.none = minimum, maximum, low_open, none
    error.seconds = unit == " seconds"
    return error


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
        raise _range_error(name, "int", minimum, maximum, False, "", none, value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise _range_error(name, "int", minimum, maximum, False, "", none, value)
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
        raise _range_error(name, "number", minimum, maximum, low_open, unit, none, value)
    if not math.isfinite(value) or value > maximum or value < minimum or (low_open and value == minimum):
        raise _range_error(name, "number", minimum, maximum, low_open, unit, none, value)
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


# -- the memory one stream's buffers may take ---------------------------------------------------------
#: Bytes a buffered character may take: a Python ``str`` stores every character in the width its widest
#: one needs, 4 bytes once a character above U+FFFF (an emoji) is in it.
BYTES_PER_CHAR = 4
#: Bytes a read may cost while it is being handled, per byte read: its text (up to 4 bytes per byte) and
#: the lines it completes (a short line is a ``str`` of about 50-80 bytes: up to about 21 per byte read in
#: 3-byte lines of one Chinese character). Measured in ``benchmarks/memory.py``.
BYTES_PER_READ_BYTE = 32
#: What a parser holds whatever its limits (its objects, a group of short pieces: ``lesson_lib.core.pieces``).
BASE_BYTES = 1024 * 1024


#: Copies of an event's data that may be alive at once: its lines and the joined data (strict); in
#: ``errors="replace"`` mode also the bytes and the text of turning escapes into U+FFFD, which for text
#: outside ASCII measured up to 9 copies' worth (``benchmarks/memory.py``, ``tests/core/test_memory.py``).
EVENT_COPIES = {"strict": 2, "replace": 10}
#: Copies of a JSON array element that may be alive at once: its pieces, the joined text, and on a limit
#: error the text it reports (measured: up to about 4).
ELEMENT_COPIES = 4


def stream_buffer_bound(
    *,
    max_line_chars: int,
    max_event_chars: int,
    max_element_chars: int = 0,
    read_bytes: int = 64 * 1024,
    errors: str = "strict",
) -> int:
    """The most memory, in bytes, that one stream's buffers take in lesson_lib's parsers with these limits
    (in characters, as the parsers take them; ``0`` for a parser not used) and reads of at most
    ``read_bytes``::

        BYTES_PER_CHAR * (3 * max_line_chars + EVENT_COPIES[errors] * max_event_chars
                          + ELEMENT_COPIES * max_element_chars)
        + BYTES_PER_READ_BYTE * read_bytes + BASE_BYTES

    Where it comes from: an unfinished line is held in pieces and joined when it ends, then its value cut
    out (three copies at most, briefly); an event's data is held as its lines (many short ones joined in
    groups: :mod:`lesson_lib.core.pieces`) and joined once when it is dispatched; a JSON array element is held
    in pieces and joined once. Pass the limits of the parser used: :class:`~lesson_lib.SSEParser` and
    :func:`~lesson_lib.consume` on SSE, ``max_line_chars`` and ``max_event_chars``; NDJSON,
    ``max_line_chars`` only; a JSON array, ``max_element_chars`` only. The dispatched events, and the
    values :func:`lesson_lib.consume` decodes from them, are the caller's, not buffers: they are not
    counted (``json.loads`` of one event can take several times its characters; ``benchmarks/memory.py``
    measures it). A limit of ``None`` has no bound.

    At the defaults (4 Mi characters per line, 16 Mi per event, 64 KiB reads) the bound is 179 MiB in
    strict mode (SSE), reached only when every buffered string holds a character above U+FFFF (a Python
    ``str`` then stores 4 bytes per character); ASCII text takes about a quarter of it. Checked against
    tracemalloc peaks in ``benchmarks/memory.py`` (at the defaults) and ``tests/core/test_memory.py``.
    """
    for name, value in (
        ("max_line_chars", max_line_chars),
        ("max_event_chars", max_event_chars),
        ("max_element_chars", max_element_chars),
    ):
        check_int(name, value, minimum=0)
    check_int("read_bytes", read_bytes, minimum=1)
    if errors not in EVENT_COPIES:
        raise OptionError(f"errors must be 'strict' or 'replace'; got {errors!r}")
    chars = 3 * max_line_chars + EVENT_COPIES[errors] * max_event_chars + ELEMENT_COPIES * max_element_chars
    return BYTES_PER_CHAR * chars + BYTES_PER_READ_BYTE * read_bytes + BASE_BYTES
