"""The framings: how a body is cut into units (SSE events, NDJSON values, JSON array elements), by name.

A contract (:mod:`lesson_lib.core.contracts`) names its framing (``"sse"``, ``"ndjson"``, ``"json-array"``);
:func:`framing` turns that name into a :class:`Framing`, the one object that knows that framing's parser and
what its state means. Callers ask the framing; none compares its name (``tests/core/test_registries.py``).

A framing is stateless and shared: it builds one parser per stream (:meth:`Framing.new_parser`) and answers
questions about that parser's state, as h11's and wsproto's connection objects answer for theirs:

* :meth:`~Framing.cut_unit`: the innermost unit the body is inside right now (``"character"``, ``"line"``,
  ``"event"``), or ``None`` at a clean boundary;
* :meth:`~Framing.open_at_end`: after ``close()``, whether the framing's own end mark never came (a JSON
  array without its ``]``);
* :meth:`~Framing.resume_point` and :meth:`~Framing.dispatch_marks`: what a reconnection would send (SSE's
  last event ID and ``retry``), at the end and at each event's dispatch; ``("", None)`` for the others;
* :meth:`~Framing.flush`: decode what the parser holds undecoded when the body stops early (SSE only);
* :attr:`~Framing.units_are_events` and :meth:`~Framing.join_values`: how units are written back (SSE events
  as themselves; JSON values as their texts, one a line or as array elements).

Adding a framing is one subclass and one :func:`register_framing` call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .lines import DEFAULT_MAX_LINE_CHARS
from .ndjson import DEFAULT_MAX_ELEMENT_CHARS, JSONArrayParser, NDJSONParser
from .sse import DEFAULT_MAX_EVENT_CHARS, SSEParser

__all__ = [
    "FRAMINGS",
    "Framing",
    "FramingParser",
    "JSONArrayFraming",
    "NDJSONFraming",
    "SSEFraming",
    "framing",
    "register_framing",
    "unregister_framing",
]


class FramingParser(Protocol):
    """What every framing's parser offers the completion boundary (all of them are sans-IO)."""

    @property
    def bytes_in(self) -> int: ...

    @property
    def held_bytes(self) -> bytes: ...

    def feed(self, chunk: bytes) -> list[Any]: ...

    def close(self) -> list[Any]: ...

    def pending_sizes(self) -> tuple[int, int, int, bool]: ...


P = TypeVar("P", bound=FramingParser)

#: What :meth:`Framing.dispatch_marks` returns: ``(unit, events dispatched) -> (last event ID, retry)``.
DispatchMarks = Callable[[Any, int], tuple[str, int | None]]


class Framing(ABC, Generic[P]):
    """One framing: its parser, and what the parser's state says. Subclasses set :attr:`name`."""

    #: The name contracts give (``Contract.framing``) and :func:`framing` looks up.
    name: ClassVar[str]
    #: How this framing's unit would have ended, as a key (``completion.event_end.<key>``).
    unit_end: ClassVar[str]
    #: Its units are SSE events (a type, data, an ID); otherwise they are JSON values.
    units_are_events: ClassVar[bool] = False

    def new_parser(
        self,
        *,
        errors: str = "strict",
        max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS,
        max_event_chars: int | None = DEFAULT_MAX_EVENT_CHARS,
        max_element_chars: int | None = DEFAULT_MAX_ELEMENT_CHARS,
    ) -> P:
        """A fresh parser for one stream; each framing uses the limits that bound its buffers and ignores
        the others (all are checked by the parser or by ``consume``). ``ValueError`` names a bad one."""
        return self._parser(errors, max_line_chars, max_event_chars, max_element_chars)

    @abstractmethod
    def _parser(self, errors: str, line: int | None, event: int | None, element: int | None) -> P:
        """The parser, with ``errors`` and the limits on one line, one event's data, one element."""

    def cut_unit(self, parser: P) -> str | None:
        """The innermost unit the body is inside right now (``"character"``, ``"line"``, ``"event"``), or
        ``None`` at a clean unit boundary (what the body would have proved had it ended here)."""
        if parser.held_bytes:
            return "character"
        if self._in_line(parser):
            return "line"
        if self._in_event(parser):
            return "event"
        return None

    def _in_line(self, parser: P) -> bool:
        return False

    def _in_event(self, parser: P) -> bool:
        return False

    def open_at_end(self, parser: P) -> bool:
        """After ``close()``: ``True`` if the framing's own end mark never came (a JSON array's ``]``)."""
        return False

    def flush(self, parser: P) -> None:
        """The body stops early (the source failed): decode what the parser holds undecoded, so that invalid
        UTF-8 among it raises now, whatever the chunking. Raises what ``feed`` would."""

    def resume_point(self, parser: P) -> tuple[str, int | None]:
        """``(last event ID, retry)`` a reconnection would send, as the parser stands: ``("", None)`` for a
        framing without them."""
        return "", None

    def dispatch_marks(self, parser: P) -> DispatchMarks | None:
        """``None``, or a function giving ``(last event ID, retry)`` just after a unit's dispatch (``unit``,
        and how many events had been dispatched with it) for a framing whose units carry them."""
        return None

    def join_values(self, texts: Sequence[str]) -> bytes:
        """The body of this framing whose units are the JSON values ``texts`` (written as given)."""
        raise TypeError(f"the {self.name} framing's units are events, not JSON values")

    def __repr__(self) -> str:
        return f"<framing {self.name}>"


class SSEFraming(Framing[SSEParser]):
    """Server-Sent Events (:mod:`lesson_lib.core.sse`): comments are kept (they are heartbeats); an unfinished
    line, even a blank one, is a cut line; fields without their blank line are a cut event."""

    name = "sse"
    unit_end = "sse"
    units_are_events = True

    def _parser(self, errors: str, line: int | None, event: int | None, element: int | None) -> SSEParser:
        return SSEParser(errors=errors, max_line_chars=line, max_event_chars=event, comments=True)

    def _in_line(self, parser: SSEParser) -> bool:
        return bool(parser.pending_line)

    def _in_event(self, parser: SSEParser) -> bool:
        return parser.has_pending_event

    def flush(self, parser: SSEParser) -> None:
        parser.flush()

    def resume_point(self, parser: SSEParser) -> tuple[str, int | None]:
        return parser.last_event_id, parser.retry

    def dispatch_marks(self, parser: SSEParser) -> DispatchMarks:
        retry_after = parser.retry_after_event
        return lambda event, events: (event.last_event_id, retry_after(events))


class NDJSONFraming(Framing[NDJSONParser]):
    """Newline-delimited JSON (:class:`~lesson_lib.core.ndjson.NDJSONParser`): a value is one line, and an
    unfinished line of whitespace only is no cut (blank lines are skipped)."""

    name = "ndjson"
    unit_end = "ndjson"

    def _parser(self, errors: str, line: int | None, event: int | None, element: int | None) -> NDJSONParser:
        return NDJSONParser(errors=errors, max_line_chars=line)

    def _in_line(self, parser: NDJSONParser) -> bool:
        return bool(parser.pending_line.strip())

    def join_values(self, texts: Sequence[str]) -> bytes:
        return "".join(text + "\n" for text in texts).encode("utf-8")


class JSONArrayFraming(Framing[JSONArrayParser]):
    """One growing JSON array (:class:`~lesson_lib.core.ndjson.JSONArrayParser`): a unit is an element, and
    the body has an end mark of its own, the ``]``."""

    name = "json-array"
    unit_end = "json_array"

    def _parser(
        self, errors: str, line: int | None, event: int | None, element: int | None
    ) -> JSONArrayParser:
        return JSONArrayParser(errors=errors, max_element_chars=element)

    def _in_event(self, parser: JSONArrayParser) -> bool:
        return parser.in_element

    def open_at_end(self, parser: JSONArrayParser) -> bool:
        return not parser.closed

    def join_values(self, texts: Sequence[str]) -> bytes:
        return ("[" + ",".join(texts) + "]").encode("utf-8")


_FRAMINGS: dict[str, Framing[Any]] = {}

#: Every registered framing by name (read-only; :func:`register_framing` adds one).
FRAMINGS: Mapping[str, Framing[Any]] = MappingProxyType(_FRAMINGS)


def register_framing(new: Framing[Any]) -> Framing[Any]:
    """Add ``new`` to :data:`FRAMINGS` under its name; a name already taken is a ``ValueError``."""
    if not isinstance(new, Framing):
        raise TypeError(f"a framing must be a Framing, got {type(new).__name__}")
    if new.name in _FRAMINGS:
        raise ValueError(f"a framing named {new.name!r} is already registered")
    _FRAMINGS[new.name] = new
    return new


def unregister_framing(name: str) -> None:
    """Remove the framing registered as ``name`` (one registered for a while, by a test); ``ValueError``
    if there is none, and if a registered contract still names it (:mod:`lesson_lib.core.contracts`)."""
    framing(name)
    from .contracts import CONTRACTS  # (the contracts import this module: only here, at the call)

    users = sorted(contract for contract, cls in CONTRACTS.items() if cls.framing == name)
    if users:
        raise ValueError(f"the {name} framing is named by the contracts {', '.join(users)}")
    del _FRAMINGS[name]


def framing(name: str) -> Framing[Any]:
    """The framing registered as ``name``; ``ValueError`` naming the known ones if there is none."""
    try:
        return _FRAMINGS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_FRAMINGS))
        raise ValueError(f"unknown framing {name!r}; known framings: {known}") from None


for _framing in (SSEFraming(), NDJSONFraming(), JSONArrayFraming()):
    register_framing(_framing)
