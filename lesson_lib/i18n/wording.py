"""The core's results in the learner's language: the wording :mod:`lesson_lib.i18n` registers.

:class:`CatalogueWording` is the :class:`lesson_lib.core.wording.Wording` of the course: every sentence is
a catalogue string (``completion.*``, ``activity.*``, ``values.*`` in ``locales/<language>/``), looked up
when a result is described, so the language is the current one at that moment, not at import.
``lesson_lib.i18n`` registers it on import (the core imports no catalogue: it asks the registered wording).

What it writes: ``describe()`` names the outcome, why, where it stopped and counts (bytes, reads, events,
characters, tool calls), never the answer text; a timed_out error's clock is explained in the current
language here, while ``error.message`` stays English (built by the core, as exceptions' messages are).
"""

from __future__ import annotations

import json

from ..core.activity import Clock, IdleVerdict
from ..core.completion import Outcome, StreamError, StreamResult, Unit
from ..core.contracts import CONTRACTS, Contract
from ..core.decoding import ByteRole
from ..core.errors import BoundaryError, LimitExceededError
from ..core.framing import framing
from ..core.options import OptionError
from ..core.values import Provisional, ToolCall
from . import text

__all__ = ["CatalogueWording"]



def _contract_class(name: str | None) -> type[Contract] | None:
    """The registered contract of that name, or ``None`` (a result made without one, or an unknown name)."""
    return CONTRACTS.get(name) if name else None


def _event_end(name: str | None) -> str:
    """How the contract's framing would have ended an event (the key of ``completion.event_end.*``)."""
    cls = _contract_class(name)
    return framing(cls.framing).unit_end if cls is not None else "unknown"


class CatalogueWording:
    """Words from the current language's catalogue (:func:`lesson_lib.i18n.text`)."""

    def describe(self, result: StreamResult, /) -> str:
        """``StreamResult.describe()``: one paragraph, counts only, never the answer text."""
        return _describe(result)

    def idle_verdict(self, verdict: IdleVerdict, /) -> str:
        """``str(verdict)``: ``progress_idle: idle for 139 s, limit 120 s``."""
        return text(
            "activity.idle_verdict",
            limit=verdict.limit,
            idle_for=f"{verdict.idle_for:g}",
            maximum=f"{verdict.maximum:g}",
        )

    def provisional(self, guess: Provisional, /) -> str:
        """``repr(guess)``: the guess as JSON, marked provisional, with how many characters it rests on."""
        shown = (
            json.dumps(guess.value, ensure_ascii=False)
            if guess.value is not None
            else text("values.provisional.nothing")
        )
        return text("values.provisional.repr", chars=guess.text_chars, shown=shown)

    def byte_role(self, role: ByteRole, /) -> str:
        """``role.label()``: the role's name in the current language (the glossary's terms)."""
        return text(f"decoding.byte_role.{role.value}")

    def error(self, error: Exception | StreamError, /) -> str:
        """``error.describe()``: a limit, a bad option and a clock that ran out in the current language, with
        where the error is; any other exception's ``str()`` (English, for programmers) and any other
        ``StreamError``'s ``message`` (a service's own words, or an exception's)."""
        if isinstance(error, StreamError):
            if error.kind in {clock.value for clock in Clock} and error.maximum is not None:
                return _timeout_message(error)
            return error.message
        if isinstance(error, LimitExceededError):
            return text("completion.error.limit_exceeded", limit=error.limit, maximum=error.maximum) + (
                _error_where(error)
            )
        if isinstance(error, OptionError) and error.option is not None:
            return _option_message(error)
        return str(error)


def _describe(r: StreamResult) -> str:
    s, err = r.stats, r.error
    name = (
        text("completion.name.contract", contract=r.contract) if r.contract else text("completion.name.plain")
    )
    reason = (
        text("completion.reason.given", reason=r.finish_reason)
        if r.finish_reason is not None
        else text("completion.reason.none")
    )
    out = _verdict(r, name, reason, err)
    if r.withdraw_shown_text:
        out += text("completion.withdraw", reason=r.finish_reason)
    cls = _contract_class(r.contract)
    if r.outcome is Outcome.TRUNCATED and cls is not None and cls.resumable_by_event_id and r.last_event_id:
        out += text("completion.mcp_resume", last_event_id=r.last_event_id)
    if err is not None and r.outcome in (Outcome.COMPLETED, Outcome.INCOMPLETE):
        out += text("completion.source_after_end", kind=err.kind)
    out += text(
        "completion.stats",
        bytes=_plural(s.bytes, "byte"),
        reads=_plural(s.reads, "read"),
        events=_plural(s.events, "event"),
        deltas=_plural(s.deltas, "text_delta"),
        heartbeats=_plural(s.heartbeats, "heartbeat"),
        unknown=s.unknown_events,
        characters=_plural(s.text_chars, "character"),
    )
    out += _values_sentence(r.tool_calls, r.reasoning_text)
    if s.events_after_terminal or s.bytes_after_terminal:
        out += text(
            "completion.after_terminal",
            events=_plural(s.events_after_terminal, "more_event"),
            bytes=_plural(s.bytes_after_terminal, "more_byte"),
        )
    return out


def _verdict(r: StreamResult, name: str, reason: str, err: StreamError | None) -> str:
    """The first sentence: the outcome and why (one branch per :class:`Outcome`)."""
    where = _where(err)
    if r.outcome is Outcome.COMPLETED and r.end_verified:
        return text("completion.completed", name=name, reason=reason)
    if r.outcome is Outcome.COMPLETED:
        return text("completion.completed_unverified", name=name, reason=reason, why=_unverified_why(r))
    if r.outcome is Outcome.INCOMPLETE:
        if r.finish_reason is None:
            out = text("completion.incomplete_no_reason", name=name)
        else:
            out = text("completion.incomplete", name=name, reason=reason)
        if not r.end_verified:
            out += text("completion.unverified_either", why=_unverified_why(r))
        return out
    if r.outcome is Outcome.TRUNCATED:
        unit = r.truncated_at or Unit.COMPLETION
        cut = text(f"completion.cut.{unit}")
        if unit == Unit.EVENT:
            cut += text(f"completion.event_end.{_event_end(r.contract)}")
        if err is not None:
            return text(
                "completion.truncated_source", name=name, cut=cut, reason=reason, kind=err.kind, where=where
            )
        return text("completion.truncated", name=name, cut=cut, reason=reason)
    if r.outcome is Outcome.SERVICE_ERROR:
        kind = (
            text("completion.service_error.type", type=err.error_type)
            if err is not None and err.error_type
            else ""
        )
        message = (
            text("completion.service_error.message", message=repr(err.message))
            if err is not None and err.message
            else ""
        )
        return text("completion.service_error", name=name, kind=kind, message=message, where=where)
    if r.outcome is Outcome.DECODE_ERROR:
        return text("completion.decode_error", name=name, kind=err.kind if err else "unknown", where=where)
    if r.outcome is Outcome.LIMIT_EXCEEDED:
        if err is None:
            return text("completion.limit_exceeded_unknown", name=name, where=where)
        return text("completion.limit_exceeded", name=name, limit=f"{err.limit}={err.maximum}", where=where)
    if r.outcome is Outcome.TIMED_OUT:
        if err is None:
            return text("completion.timed_out_unknown", name=name, where=where)
        return text("completion.timed_out", name=name, message=_timeout_message(err), where=where)
    return text("completion.cancelled", name=name)


def _unverified_why(r: StreamResult) -> str:
    if r.stats.events_after_terminal:
        events = _plural(r.stats.events_after_terminal, "more_event")
        return text("completion.why.events_after", events=events)
    return text("completion.why.signal_repeated")


def _values_sentence(calls: list[ToolCall], reasoning: str) -> str:
    """Counts only: how many tool calls, how many closed, how many unparseable; reasoning length."""
    if not calls and not reasoning:
        return ""
    part_calls = part_reasoning = ""
    if calls:
        closed = sum(call.complete for call in calls)
        bad = sum(call.complete and call.error is not None for call in calls)
        counts: dict[str, object] = {
            "calls": _plural(len(calls), "tool_call"),
            "closed": closed,
            "open": len(calls) - closed,
        }
        part_calls = (
            text("completion.values.calls_bad", bad=bad, **counts)
            if bad
            else text("completion.values.calls", **counts)
        )
    if reasoning:
        part_reasoning = text("completion.values.reasoning", characters=_plural(len(reasoning), "character"))
    if part_calls and part_reasoning:
        return text("completion.values.both", calls=part_calls, reasoning=part_reasoning)
    return text("completion.values.one", part=part_calls or part_reasoning)


def _plural(count: int, noun: str) -> str:
    """``count`` and its noun in the current language (``"1 byte"``, ``"2 bytes"``, ``"2 字节"``)."""
    return text(f"completion.count.{noun}.{'one' if count == 1 else 'other'}", n=count)


def _timeout_message(err: StreamError) -> str:
    """A timed_out error's message in the current language: which clock ran out, its limit, what that
    means, and the exception that ended the read if one did (in English it is ``error.message``)."""
    return text(
        "completion.timeout_message",
        clock=err.kind,
        limit=f"{err.maximum:g}",
        meaning=text(f"completion.clock.{err.kind}"),
        cause=text("completion.timeout_cause", cause=err.cause) if err.cause else "",
    )


def _where(err: StreamError | None) -> str:
    if err is None:
        return ""
    parts = []
    if err.offset is not None:
        # Never an exact-looking offset that is only where the read ended.
        parts.append(
            text("completion.where.offset", offset=err.offset)
            if err.offset_exact
            else text("completion.where.read_end", offset=err.offset)
        )
    if err.event_index is not None:
        parts.append(text("completion.where.event", index=err.event_index))
    return "".join(parts)


def _error_where(error: BoundaryError) -> str:
    """``error.where()`` in the current language, with its leading separator (``""`` if nowhere)."""
    out = ""
    if error.offset is not None and not error.offset_exact:
        out = text("completion.error.where.read_end", offset=error.offset)
    elif error.offset is not None:
        out = text("completion.error.where.offset", offset=error.offset)
    elif error.char_index is not None:
        out = text("completion.error.where.char", index=error.char_index)
    extra = []
    if error.line_index is not None:
        extra.append(text("completion.error.where.line", index=error.line_index))
    if error.event_index is not None:
        extra.append(text("completion.error.where.event", index=error.event_index))
    if extra:
        out += text("completion.error.where.extra", parts=text("completion.error.where.joiner").join(extra))
    return out


def _option_message(error: OptionError) -> str:
    """An :class:`OptionError`'s message in the current language: the option, the allowed range, the value."""

    def show(bound: float) -> str:
        return f"{bound:g}" if isinstance(bound, float) else str(bound)

    bounds = []
    if error.minimum is not None:
        bound = show(error.minimum)
        bounds.append(
            text("completion.error.option.above", bound=bound)
            if error.low_open
            else text("completion.error.option.at_least", bound=bound)
        )
    if error.maximum is not None:
        bounds.append(text("completion.error.option.at_most", bound=show(error.maximum)))
    return text(
        "completion.error.option",
        name=error.option,
        kind=text(f"completion.error.option.kind.{error.kind}"),
        range=text("completion.error.option.and").join(bounds),
        unit=text("completion.error.option.seconds") if error.seconds else "",
        none=text("completion.error.option.none") if error.none else "",
        got=repr(error.value),
    )

