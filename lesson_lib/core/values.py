"""The value boundary: a tool call is not finished when its event is.

A service streams a tool call's arguments as JSON *text* cut anywhere (inside a key, a number, a ``\\u4f60``
escape, between the two halves of a surrogate pair), and reasoning ("thinking") beside the answer. The
contracts (:mod:`lesson_lib.core.contracts`) turn each service's events into five small signals; this module
assembles them, the same way for every service:

=====================  ====================================================================================
``ToolCallStart``      a call opened: its assembly key (index, item id or block index), id and name
``ToolCallDelta``      a fragment of its arguments text (JSON text, NOT a JSON value)
``ToolCallEnd``        the service closed the call (block stop, ``.done``, or a whole-answer terminal)
``ToolCallWhole``      a call that arrived whole in one event (Gemini ``functionCall``, Ollama ``tool_calls``)
``ReasoningDelta``     a piece of reasoning text: never part of the answer text
=====================  ====================================================================================

Guarantees (:class:`ValueAssembler`):

* a call's ``arguments_text`` is every fragment received for it, joined, in order; nothing is dropped, and a
  fragment past ``max_tool_arguments_chars`` raises :class:`~lesson_lib.core.errors.LimitExceededError`;
* ``arguments`` is set only when the call is complete, by strict ``json.loads`` of the whole text
  (``NaN``/``Infinity`` refused); a complete call whose text does not parse gets ``error`` (a message with
  a character position, never content) and ``arguments`` stays ``None``: never a lenient guess;
* a fragment for a call that is already closed, or that never started, raises
  :class:`~lesson_lib.core.errors.FramingError`: a closed call's text never grows;
* :func:`provisional` gives a best-effort parse for display while a call streams (``jiter``'s partial
  mode); it is marked provisional and is never stored in a :class:`ToolCall`; its ``repr`` says so in the
  current language (the registered wording: :mod:`lesson_lib.core.wording`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .contracts import ReasoningDelta, ToolCallDelta, ToolCallEnd, ToolCallStart, ToolCallWhole
from .errors import FramingError, LimitExceededError
from .wording import wording

__all__ = [
    "VALUE_SIGNALS",
    "Provisional",
    "ToolCall",
    "ValueAssembler",
    "parse_arguments",
]

#: The signals this module assembles (``consume`` hands exactly these to a :class:`ValueAssembler`).
VALUE_SIGNALS = (ToolCallStart, ToolCallDelta, ToolCallEnd, ToolCallWhole, ReasoningDelta)


@dataclass(frozen=True)
class ToolCall:
    """One tool call, as far as the stream delivered it.

    ``id`` is the service's call id (``None`` when it sends none, as Gemini and Ollama may not); ``name``
    the function's name; ``arguments_text`` every arguments fragment received, joined (for services that
    send the arguments whole as an object, its compact JSON serialization); ``complete`` says the service
    closed this call; ``arguments`` is the parsed JSON value, set only when ``complete`` and the text
    parses; ``error`` says why a complete call has no ``arguments`` (its text is not valid JSON, or the
    service's own copy of the whole text differs from the joined fragments). ``error`` is ``None`` while
    the call is open: an open call's text is simply unfinished.
    """

    id: str | None
    name: str
    arguments_text: str
    arguments: object | None
    complete: bool
    error: str | None = None


class _Reject(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _Reject(f"{name} is not JSON")


def parse_arguments(text: str) -> tuple[object | None, str | None]:
    """Strictly parse a WHOLE arguments text: ``(value, None)``, or ``(None, reason)`` if it is not JSON.

    Strict means RFC 8259: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's ``json`` accepts by
    default) are refused. The reason names a character position, never the content.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant), None
    except json.JSONDecodeError as exc:
        return None, f"arguments text is not valid JSON: {exc.msg} (char {exc.pos})"
    except _Reject as exc:
        return None, f"arguments text is not valid JSON: {exc}"
    except (ValueError, RecursionError) as exc:  # a number too long for int(), nesting too deep
        return None, f"arguments text is not usable JSON ({type(exc).__name__})"


@dataclass(frozen=True)
class Provisional:
    """A best guess at what a still-streaming arguments text will mean. For display ONLY.

    ``value`` is what a partial-JSON parser makes of the text so far (``None`` when nothing parses yet);
    an unfinished string is shown as far as it goes, an unfinished number, literal or key is left out.
    It can differ from the final value (``1`` may become ``12``), which is why it is never a result, and
    why its ``repr`` says "provisional" in the current language (:mod:`lesson_lib.core.wording`).
    """

    value: object | None
    text_chars: int

    def __repr__(self) -> str:
        return wording().provisional(self)


class _Open:
    """A call being assembled: its parts are joined once, when asked (no quadratic re-joining)."""

    __slots__ = ("call_id", "chars", "complete", "error", "name", "parts")

    def __init__(self, call_id: str | None, name: str) -> None:
        self.call_id, self.name = call_id, name
        self.parts: list[str] = []
        self.chars = 0
        self.complete = False
        self.error: str | None = None


class ValueAssembler:
    """Assembles the value signals of ONE stream into tool calls and reasoning text.

    ``apply(signal, offset=..., event_index=...)`` takes a signal of :data:`VALUE_SIGNALS`; ``offset`` and
    ``event_index`` only locate an error it raises (the end of the read that carried the event).
    """

    def __init__(self, max_tool_arguments_chars: int | None = None) -> None:
        self.max_tool_arguments_chars = max_tool_arguments_chars
        self._calls: list[_Open] = []  # in the order the calls started
        self._by_key: dict[str, _Open] = {}
        self._reasoning: list[str] = []
        self.fragments = 0

    # -- feeding ---------------------------------------------------------------------------------------
    def apply(self, signal: object, *, offset: int | None = None, event_index: int | None = None) -> None:
        where = {"offset": offset, "event_index": event_index}
        if isinstance(signal, ReasoningDelta):
            self._reasoning.append(signal.text)
        elif isinstance(signal, ToolCallStart):
            if signal.key in self._by_key:
                raise _framing(f"tool call {signal.key!r} started twice", **where)
            self._start(signal.key, signal.call_id, signal.name)
        elif isinstance(signal, ToolCallDelta):
            call = self._by_key.get(signal.key)
            if call is None:
                raise _framing(
                    f"arguments fragment for tool call {signal.key!r}, which never started", **where
                )
            if call.complete:
                raise _framing(
                    f"arguments fragment for tool call {signal.key!r} after it was closed", **where
                )
            self._append(call, signal.fragment, **where)
        elif isinstance(signal, ToolCallEnd):
            call = self._by_key.get(signal.key)
            if call is None:
                raise _framing(f"end of tool call {signal.key!r}, which never started", **where)
            if not call.complete:  # a second end (Responses: .done, then output_item.done) changes nothing
                self._close(call, signal.whole_text)
            elif signal.whole_text is not None and signal.whole_text != "".join(call.parts):
                call.error = call.error or _MISMATCH
        elif isinstance(signal, ToolCallWhole):
            call = self._start(None, signal.call_id, signal.name)
            self._append(call, signal.arguments_text, **where)
            self._close(call, None)
        else:
            raise TypeError(f"not a value signal: {type(signal).__name__}")

    def _start(self, key: str | None, call_id: str | None, name: str) -> _Open:
        call = _Open(call_id, name)
        self._calls.append(call)
        if key is not None:
            self._by_key[key] = call
        return call

    def _append(self, call: _Open, fragment: str, **where: int | None) -> None:
        maximum = self.max_tool_arguments_chars
        if maximum is not None and call.chars + len(fragment) > maximum:
            error = LimitExceededError("max_tool_arguments_chars", maximum, char_index=maximum, **where)
            error.offset_exact = False  # the end of the read that carried the fragment
            raise error
        if fragment:
            call.parts.append(fragment)
            call.chars += len(fragment)
            self.fragments += 1

    @staticmethod
    def _close(call: _Open, whole_text: str | None) -> None:
        call.complete = True
        if len(call.parts) > 1:
            call.parts = ["".join(call.parts)]
        if whole_text is not None and whole_text != "".join(call.parts):
            call.error = _MISMATCH

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def reasoning_text(self) -> str:
        """Every reasoning delta, joined."""
        return "".join(self._reasoning)

    def tool_calls(self) -> list[ToolCall]:
        """The calls so far, in the order they started; ``arguments`` parsed only for complete ones."""
        out = []
        for call in self._calls:
            text = "".join(call.parts)
            value, error = None, call.error
            if call.complete and error is None:
                value, error = parse_arguments(text)
            out.append(ToolCall(call.call_id, call.name, text, value, call.complete, error))
        return out


_MISMATCH = "the service's whole arguments text differs from the joined fragments"


def _framing(message: str, *, offset: int | None, event_index: int | None) -> FramingError:
    error = FramingError(message, offset=offset, event_index=event_index)
    error.offset_exact = False
    return error
