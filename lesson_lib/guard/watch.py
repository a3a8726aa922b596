"""The guard's decision half, no I/O: one response's reads into a :class:`~lesson_lib.StreamJudge`, the
times and counts of its :class:`GuardReport`, and when to raise :class:`UnprovenStreamError`.

The byte streams of :mod:`lesson_lib.guard.streams` (sync and async) are the same few lines around these
verbs, so the two cannot disagree:

* ``read(chunk)``: a read arrived (the raw bytes, as the transport gave them); raises when this read
  proved the answer broken (an in-band error, invalid bytes, a limit, the service's terminal signal with a
  cut reason such as ``length``): nothing later can mend it, and the reader is told before it can stop;
* ``eof()``: the body ended; raises unless the answer is proven whole (``is_final``);
* ``failed(exc)``: the transport raised; raises (from ``exc``) unless the answer was already proven whole,
  in which case the caller ends the body quietly: the bytes of the answer were all there;
* ``closed()``: the reader closed the response first; never raises (a ``break``, or an SDK that stops
  reading after the terminal signal), records what the bytes read so far prove.

Each verb after the first that ends the watch does nothing. The report is made once, when it ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.completion import StreamJudge, StreamResult
from ..core.contracts import Terminal, TextDelta
from ..core.errors import IncompleteStreamError, InflateError, LimitExceededError
from ..core.inflate import CODINGS, Inflater
from .errors import GuardReport, UnprovenStreamError

__all__ = ["UnjudgedEncodingError", "Watch"]


class UnjudgedEncodingError(Exception):
    """The body's ``Content-Encoding`` is one the guard cannot undo (only gzip and deflate): unproven."""


class Watch:
    """One judged response. ``started`` is when the request was sent (``clock()`` seconds)."""

    def __init__(
        self,
        contract: str,
        *,
        method: str,
        path: str,
        status: int,
        content_encoding: str,
        started: float,
        on_report: Callable[[GuardReport], None],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.judge = StreamJudge(contract)
        self.contract = contract
        self.method, self.path, self.status = method, path, status
        self.clock = clock
        self.started = started
        self.headers_at = clock()
        self.last_read_at = self.headers_at
        self.first_byte_at: float | None = None
        self.first_text_at: float | None = None
        self.max_gap: float | None = None
        self.raw_bytes = 0
        self.on_report = on_report
        self.report: GuardReport | None = None
        encoding = content_encoding.strip().lower()
        self.unjudged: str | None = None
        #: gzip or deflate undone for the judge's eyes only (the SDK gets the body as sent), by the core's
        #: inflater: the judge sees the inflated bytes, and a body cut inside a member is a cut.
        self.inflate: Inflater | None = None
        if encoding in CODINGS:
            self.inflate = Inflater(encoding)
        elif encoding not in ("", "identity"):
            self.unjudged = encoding

    @property
    def ended(self) -> bool:
        return self.report is not None

    # -- the verbs ------------------------------------------------------------------------------------
    def read(self, chunk: bytes) -> None:
        """A read: timed, counted, judged. Raises :class:`UnprovenStreamError` if it proved the answer
        broken (the caller then does not pass it on)."""
        if self.ended:
            return
        now = self.clock()
        gap = now - self.last_read_at
        self.max_gap = gap if self.max_gap is None or gap > self.max_gap else self.max_gap
        self.last_read_at = now
        if chunk and self.first_byte_at is None:
            self.first_byte_at = now
        self.raw_bytes += len(chunk)
        if self.unjudged is not None:
            self._end(self.judge.fail(UnjudgedEncodingError(self.unjudged)), "decided", raise_=True)
            return
        try:
            data = chunk if self.inflate is None else self.inflate.feed(chunk)
        except (InflateError, LimitExceededError) as exc:  # corrupt data, or a read that inflates too much
            for inflated in exc.outputs:  # what the read inflated before bad data: the same in every cut
                self.judge.feed(inflated)
            self._end(self.judge.fail(exc), "decided", raise_=True)
            return
        signals = self.judge.feed(data)
        if self.first_text_at is None and any(isinstance(s, TextDelta) and s.text for s in signals):
            self.first_text_at = now
        if self.judge.done:  # a read decided it: an in-band error, invalid bytes, a limit
            result = self.judge.result
            assert result is not None
            self._end(result, "decided", raise_=not result.is_final)
        elif any(isinstance(s, Terminal) and not s.complete for s in signals):
            # The service ended the answer cut (length, max tokens, safety): nothing after can make it
            # whole, and a reader may stop at this signal (openai's Stream stops at [DONE]) and close.
            self._end(self.judge.close(), "decided", raise_=True)

    def eof(self) -> None:
        """The body ended. Raises unless the answer is proven whole."""
        if self.ended:
            return
        if self.inflate is not None and self.unjudged is None:
            try:
                rest = self.inflate.close()
            except IncompleteStreamError as exc:  # the body ended inside a member: a cut, as a transport's
                for inflated in exc.outputs:
                    self.judge.feed(inflated)
                result = self.judge.fail(exc)
                self._end(result, "error", raise_=not result.is_final)
                return
            if rest:
                self.judge.feed(rest)
        result = self.judge.close()
        self._end(result, "eof", raise_=not result.is_final)

    def failed(self, exc: Exception) -> None:
        """The transport raised ``exc``. Raises (``from exc``) unless the answer was already proven whole;
        returns quietly if it was (the caller then ends the body as at EOF)."""
        if self.ended:
            return
        result = self.judge.fail(exc)
        self._end(result, "error", raise_=not result.is_final, cause=exc)

    def closed(self) -> None:
        """The reader closed the response before its end: recorded, never raised."""
        if self.ended:
            return
        self._end(self.judge.close(), "closed", raise_=False)

    # -- the end ---------------------------------------------------------------------------------------
    def _end(self, result: StreamResult, ended: str, *, raise_: bool, cause: Exception | None = None) -> None:
        report = self._report(result, ended, raise_)
        self.report = report
        self.on_report(report)
        if raise_:
            raise UnprovenStreamError(result, report) from cause

    def _report(self, result: StreamResult, ended: str, raised: bool) -> GuardReport:
        stats = result.stats
        since = self.started
        error = result.error
        last_event = stats.events - 1 if stats.events else None
        return GuardReport(
            method=self.method,
            path=self.path,
            contract=self.contract,
            status=self.status,
            ended=ended,
            outcome=str(result.outcome),
            truncated_at=None if result.truncated_at is None else str(result.truncated_at),
            end_verified=result.end_verified,
            is_final=result.is_final,
            raised=raised,
            bytes=self.raw_bytes,
            reads=stats.reads,
            events=stats.events,
            heartbeats=stats.heartbeats,
            last_event_index=last_event,
            error_kind=None if error is None else error.kind,
            time_to_headers=self.headers_at - since,
            time_to_first_byte=None if self.first_byte_at is None else self.first_byte_at - since,
            time_to_first_text=None if self.first_text_at is None else self.first_text_at - since,
            max_gap=self.max_gap,
            duration=self.clock() - since,
        )
