"""What every contract shares: the :class:`Contract` base class and the JSON helpers of the service modules.

JSON is parsed here, from ``event.data``, and only once the event is complete. Malformed JSON raises
:class:`~lesson_lib.core.errors.FramingError`; a JSON value of an unexpected shape never raises (missing
fields are simply absent): the helpers return empty objects and ``None`` instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ..errors import FramingError
from ..sse import Comment, Event
from .signals import Heartbeat, ServiceError, Signal, Terminal

__all__ = ["Contract", "SSEContract"]


def _loads(data: str) -> Any:
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:  # its msg and pos name a place, never content
        raise FramingError(f"event data is not valid JSON: {exc.msg} (char {exc.pos})") from None
    except (ValueError, RecursionError) as exc:  # a number too long for int(), nesting too deep
        raise FramingError(f"event data is not usable JSON ({type(exc).__name__})") from None


_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _obj(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else an empty one: shape surprises never raise."""
    return value if type(value) is dict else _EMPTY


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _arguments_json(value: Any) -> str:
    """The arguments a service sent as a JSON value, as compact JSON text (a string is kept as sent)."""
    if isinstance(value, str):
        return value
    return json.dumps({} if value is None else value, ensure_ascii=False, separators=(",", ":"))


def _error_signal(error: Any, *type_keys: str) -> ServiceError:
    """A ServiceError from an error object (first present key of ``type_keys``) or a bare string."""
    if type(error) is not dict:
        return ServiceError(None, _str_or_none(error) or "")
    error_type = next((_str_or_none(error[k]) for k in type_keys if error.get(k) is not None), None)
    return ServiceError(error_type, _str_or_none(error.get("message")) or "")


class Contract:
    """Base class. Subclasses set ``name``, ``framing``, ``complete_reasons`` and implement ``interpret``.

    ``counters`` holds per-stream anomaly counts (never content) that ``consume`` copies into its stats.
    """

    name: ClassVar[str]
    #: The name of its framing, a key of :data:`lesson_lib.core.framing.FRAMINGS`.
    framing: ClassVar[str]
    complete_reasons: ClassVar[frozenset[str]]
    #: The stream answers one request among several (JSON-RPC): :func:`get_contract` needs its id,
    #: ``request_id``, and every other contract refuses one.
    needs_request_id: ClassVar[bool] = False
    #: A cut stream can be taken up again from its last event ID (a ``GET`` with ``Last-Event-ID``, as MCP
    #: Streamable HTTP allows): :meth:`StreamResult.describe` says so.
    resumable_by_event_id: ClassVar[bool] = False
    #: The stream's text mode is chosen by the request and cannot be read from the stream (DashScope's
    #: ``incremental_output``): :func:`get_contract` takes ``incremental_output`` for it, and every other
    #: contract refuses one.
    takes_incremental_output: ClassVar[bool] = False
    #: Finish reasons after which the service's documentation asks the client to consider withdrawing the
    #: text it has already shown (a moderation stop: Zhipu's ``sensitive``): the answer is not only cut,
    #: what was shown may have to go. :attr:`StreamResult.withdraw_shown_text` says so.
    withdraw_reasons: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def for_stream(
        cls, request_id: str | int | None = None, incremental_output: bool | None = None
    ) -> Contract:
        """A fresh contract for one stream; ``request_id`` and ``incremental_output`` were checked by
        :func:`get_contract` (``None`` unless :attr:`needs_request_id`, :attr:`takes_incremental_output`)."""
        return cls()

    def __init__(self) -> None:
        self.counters: dict[str, int] = {}
        #: The signal this contract ends on has been seen on a unit that more units followed, so it can no
        #: longer prove where the stream ends (Gemini models that put ``STOP`` on every chunk).
        self.end_signal_repeated = False

    def _count(self, key: str) -> None:
        self.counters[key] = self.counters.get(key, 0) + 1

    def terminal(self, reason: str | None) -> Terminal:
        """The Terminal signal for ``reason``: complete only for this service's whole-answer reasons."""
        return Terminal(reason, reason in self.complete_reasons)

    def interpret(self, item: Any) -> list[Signal]:
        """The signals carried by one complete unit (an Event, a Comment or a parsed JSON value)."""
        raise NotImplementedError

    def end(self) -> list[Signal]:
        """Signals implied by a clean end of the framing; only Gemini, which has no terminal event, has any.

        ``consume`` calls this only when the body ended cleanly (no held bytes, no unfinished line or event,
        and for a JSON array its closing ``]``).
        """
        return []


class SSEContract(Contract):
    """A contract over the SSE framing: a comment is a heartbeat; each event goes to ``interpret_event``."""

    framing = "sse"

    def interpret(self, item: Any) -> list[Signal]:
        if isinstance(item, Comment):
            return [Heartbeat("comment")]
        if not isinstance(item, Event):
            raise TypeError(f"{self.name} expects sse.Event or sse.Comment, got {type(item).__name__}")
        return self.interpret_event(item)

    def interpret_event(self, event: Event) -> list[Signal]:
        raise NotImplementedError
