"""What the guard raises, and what it records: :class:`UnprovenStreamError` and :class:`GuardReport`.

Neither carries stream content: outcomes, units, offsets, counts, times, the service's error code. Both are
safe to log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..core.completion import Outcome, StreamResult, Unit
from ..core.errors import IncompleteStreamError

__all__ = ["GuardReport", "UnprovenStreamError"]


@dataclass(frozen=True)
class GuardReport:
    """One judged response, counts and times only (no content).

    ``ended`` says how the guard saw the body end: ``"eof"`` (the whole body was read), ``"error"`` (the
    transport raised: ``error_kind`` names it), ``"decided"`` (a read proved the answer broken: an in-band
    error, invalid bytes, a limit) or ``"closed"`` (the reader closed the response before its end, as the
    openai SDK does after ``data: [DONE]``, or a ``break``). ``outcome``, ``truncated_at``,
    ``end_verified`` and ``is_final`` are those of the :class:`~lesson_lib.StreamResult` of the bytes read
    (for ``"closed"``: as if the body had ended there). ``raised`` says whether the guard raised
    :class:`UnprovenStreamError`. Times are in seconds from the request being sent:
    ``time_to_first_byte`` (the first body byte), ``time_to_first_text`` (the first text delta),
    ``max_gap`` the longest wait between two reads (from the headers to the first read included); each
    ``None`` when it did not happen.
    """

    method: str
    path: str
    contract: str
    status: int
    ended: str
    outcome: str
    truncated_at: str | None
    end_verified: bool
    is_final: bool
    raised: bool
    bytes: int
    reads: int
    events: int
    heartbeats: int
    last_event_index: int | None
    error_kind: str | None
    time_to_headers: float
    time_to_first_byte: float | None
    time_to_first_text: float | None
    max_gap: float | None
    duration: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class UnprovenStreamError(IncompleteStreamError):
    """The streamed answer the SDK was reading is not proven whole: raised into the code iterating it.

    Raised by :class:`lesson_lib.guard.Client` and :class:`~lesson_lib.guard.AsyncClient` at the end of
    the body (EOF), when the transport fails, or at the read that proved the answer broken, whenever the
    :class:`~lesson_lib.StreamResult` of the bytes is not ``is_final``. Attributes (no content):
    ``outcome`` (an :class:`~lesson_lib.Outcome`: ``truncated``, ``incomplete``, ``service_error``,
    ``decode_error``, ``limit_exceeded``, or ``completed`` without ``end_verified``), ``truncated_at``
    (the :class:`~lesson_lib.Unit` a truncated body stopped in, else ``None``), ``offset`` (the bytes
    received: where the body stopped, or the error's offset), ``event_index`` (0-based: the event it stopped
    in or at), ``contract``, ``finish_reason``, ``error_kind`` (the transport's exception class name, or
    ``"ServiceError"``...), ``error_type`` (the service's own error code, for an in-band error), ``report``
    (the :class:`GuardReport`). ``unit`` (from :class:`~lesson_lib.IncompleteStreamError`) is the
    ``truncated_at`` value, else the outcome's. A transport exception is the ``__cause__``.
    """

    def __init__(self, result: StreamResult, report: GuardReport) -> None:
        self.outcome: Outcome = result.outcome
        self.truncated_at: Unit | None = result.truncated_at
        self.contract = result.contract
        self.finish_reason = result.finish_reason
        error = result.error
        self.error_kind = None if error is None else error.kind
        self.error_type = None if error is None else error.error_type
        offset = result.stats.bytes if error is None or error.offset is None else error.offset
        if result.outcome is Outcome.TRUNCATED or error is None or error.event_index is None:
            event_index = result.stats.events
        else:
            event_index = error.event_index
        self.report = report
        where = f"truncated at the {result.truncated_at} layer" if result.truncated_at else "ended"
        if result.outcome is Outcome.COMPLETED:
            why = "completed, but its end is not verified (events after the terminal signal)"
        elif result.outcome is Outcome.INCOMPLETE:
            why = f"cut by the service (finish reason {result.finish_reason!r})"
        elif error is not None and error.kind == "UnjudgedEncodingError":  # (watch.py: nothing was judged)
            why = f"its Content-Encoding {error.message!r} is not one the guard reads (gzip, deflate)"
        elif result.outcome is Outcome.TRUNCATED:
            why = f"{where}, without the service's terminal signal"
            if error is not None:
                why += f" (the transport raised {error.kind})"
        else:
            why = str(result.outcome) + ("" if self.error_kind is None else f" ({self.error_kind})")
        message = f"{result.contract} stream not proven whole: {why}"
        unit = str(result.truncated_at or result.outcome)
        super().__init__(unit, message, offset=offset, event_index=event_index)
