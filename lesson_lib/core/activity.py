"""Three clocks and layered idle timeouts: alive is not progressing.

A stream can be silent (no bytes), busy but stuck (bytes, yet no complete event: a proxy trickling half a
line), alive but not progressing (complete events, but only heartbeats) or progressing (text or business
stages arrive). One socket read timeout sees only the first of these; a ping every few seconds hides a
hung generation from it. So three clocks are kept:

* last byte: any read that returned bytes;
* last complete event: an event or comment the framing layer completed (heartbeats included);
* last business progress: a text delta or a stage change (never a heartbeat).

The clock is injected (``time.monotonic`` by default), so tests drive it exactly and never sleep.

A stream's three timeouts are :class:`Clock` members (``error.kind`` of a ``timed_out`` result); a
:class:`Watchdog`'s limits are :class:`IdleLimit` members. Nothing here is worded for a learner: a
verdict's ``str()`` comes from the registered wording (:mod:`lesson_lib.core.wording`), and a timed_out
error's English message is built here from :data:`TIMEOUT_MESSAGE` and :data:`CLOCK_MEANINGS`, as every
exception's message is English (the English catalogue's ``completion.clock.*`` strings are these).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .enums import ValueEnum
from .options import check_number
from .wording import wording

__all__ = [
    "CLOCK_MEANINGS",
    "TIMEOUT_CAUSE",
    "TIMEOUT_KINDS",
    "TIMEOUT_MESSAGE",
    "ActivityClocks",
    "ActivityLog",
    "CallClock",
    "Clock",
    "IdleLimit",
    "IdleVerdict",
    "Liveness",
    "StreamTimeouts",
    "Watchdog",
    "check_timeouts",
    "timeout_message",
]

#: The longest idle limit a :class:`Watchdog` accepts, in seconds (a week): past it, pass ``None``.
MAX_IDLE_SECONDS = 7 * 24 * 3600.0


class ActivityClocks:
    """When the last byte, complete event and business progress happened.

    All three start at construction time (the request was sent: waiting begins now). Guarantees:
    ``on_bytes`` moves only the byte clock, ``on_event`` only the event clock, ``on_progress`` only the
    progress clock; a heartbeat is reported with ``on_bytes`` and ``on_event`` and so never counts as
    progress (``on_heartbeat`` does exactly that).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.last_byte = self.started
        self.last_event = self.started
        self.last_progress = self.started
        self.bytes = 0
        self.events = 0
        self.progress = 0

    def on_bytes(self, n: int) -> None:
        """A read returned ``n`` bytes (an empty read moves no clock)."""
        if n > 0:
            self.bytes += n
            self.last_byte = self.clock()

    def on_event(self) -> None:
        """The framing layer completed an event, comment or JSON value."""
        self.events += 1
        self.last_event = self.clock()

    def on_progress(self) -> None:
        """The answer moved: a text delta or a business stage."""
        self.progress += 1
        self.last_progress = self.clock()

    def on_heartbeat(self, n: int = 0) -> None:
        """A keep-alive of ``n`` bytes arrived: the connection lives, the answer did not move."""
        self.on_bytes(n)
        self.on_event()

    def idle(self) -> dict[str, float]:
        """Seconds since each clock last moved: ``{"byte": ..., "event": ..., "progress": ...}``."""
        now = self.clock()
        return {
            "byte": now - self.last_byte,
            "event": now - self.last_event,
            "progress": now - self.last_progress,
        }


class IdleLimit(ValueEnum):
    """A :class:`Watchdog`'s three idle limits, named as its arguments (one per clock: byte, event,
    progress), in the order they are judged."""

    BYTE = "byte_idle"
    EVENT = "event_idle"
    PROGRESS = "progress_idle"

    @property
    def clock(self) -> str:
        """The key of :meth:`ActivityClocks.idle` this limit bounds: ``"byte"``, ``"event"`` or
        ``"progress"``."""
        return self.value.removesuffix("_idle")


@dataclass(frozen=True)
class IdleVerdict:
    """An idle limit tripped: ``limit`` (an :class:`IdleLimit`), how long its clock was idle and the limit,
    in seconds. ``str(verdict)`` says so in the current language (:mod:`lesson_lib.core.wording`)."""

    limit: IdleLimit
    idle_for: float
    maximum: float

    def __str__(self) -> str:
        return wording().idle_verdict(self)


class Liveness(enum.StrEnum):
    """What the clocks say about a stream right now (:meth:`Watchdog.state`)."""

    PROGRESSING = "progressing"  # the latest complete event carried progress: the answer is moving now
    WAITING = "waiting"  # events (heartbeats) since the last progress, but the progress limit has not passed
    ALIVE = "alive"  # the progress limit passed: bytes and events within their limits, no progress
    STALLED = "stalled"  # no byte (or no complete event) within its limit


class Watchdog(ActivityClocks):
    """Activity clocks with one idle limit per layer (seconds; ``None`` disables one).

    ``check()`` returns ``None`` while every clock is within its limit, else an :class:`IdleVerdict` for
    the lowest layer that tripped (byte, then event, then progress): the most basic failure explains the
    others. A limit trips once a clock has been idle for at least ``limit`` seconds.

    Each limit is a finite number of seconds above 0 and at most :data:`MAX_IDLE_SECONDS` (``nan``, ``inf``
    and ``True`` are refused by name). Defaults: bytes 30 s, events 60 s, progress 120 s. Services that
    ping send a heartbeat every few seconds to a minute, so only the progress limit catches a generation
    that hangs behind pings.
    """

    def __init__(
        self,
        byte_idle: float | None = 30.0,
        event_idle: float | None = 60.0,
        progress_idle: float | None = 120.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        for name, value in (
            ("byte_idle", byte_idle),
            ("event_idle", event_idle),
            ("progress_idle", progress_idle),
        ):
            check_number(name, value, minimum=0, maximum=MAX_IDLE_SECONDS, low_open=True, none=True)
        super().__init__(clock)
        self.limits: dict[IdleLimit, float | None] = {
            IdleLimit.BYTE: byte_idle,
            IdleLimit.EVENT: event_idle,
            IdleLimit.PROGRESS: progress_idle,
        }
        self._events_at_progress = -1

    def _tripped(self, idle: dict[str, float], limits: tuple[IdleLimit, ...]) -> IdleVerdict | None:
        for limit in limits:
            maximum = self.limits[limit]
            spent = idle[limit.clock]
            if maximum is not None and spent >= maximum:
                return IdleVerdict(limit, spent, maximum)
        return None

    def check(self) -> IdleVerdict | None:
        """``None`` within every idle limit, else the limit that tripped (lowest layer first)."""
        return self._tripped(self.idle(), tuple(IdleLimit))

    def state(self) -> Liveness:
        """``stalled`` if the byte or event limit tripped; ``alive`` (alive, not progressing) if the progress
        limit did; else ``progressing`` if the latest complete event carried progress (nothing but progress
        since it), or ``waiting``: events came after the last progress (or none ever progressed), and the
        progress limit has not passed yet. ``waiting`` is what a long think and a hang behind heartbeats
        both look like until the limit decides."""
        idle = self.idle()
        if self._tripped(idle, (IdleLimit.BYTE, IdleLimit.EVENT)) is not None:
            return Liveness.STALLED
        if self._tripped(idle, (IdleLimit.PROGRESS,)) is not None:
            return Liveness.ALIVE
        if self.progress and self.events == self._events_at_progress:
            return Liveness.PROGRESSING
        return Liveness.WAITING

    def on_progress(self) -> None:
        super().on_progress()
        self._events_at_progress = self.events  # an event after this one means progress paused


class Clock(ValueEnum):
    """The three clocks a stream can time out on, named as the options that set them: what ``error.kind``
    of a ``timed_out`` result is. Declared in the order they are judged (the most basic first)."""

    IDLE = "idle_timeout"  # no byte at all
    PROGRESS = "progress_timeout"  # no text delta or business stage (bytes and heartbeats do not count)
    DEADLINE = "deadline"  # the whole answer


#: The three clocks, in the order they are judged (``tuple(Clock)``; each member equals its option's name).
TIMEOUT_KINDS: tuple[Clock, ...] = tuple(Clock)

#: What each clock running out means, in English (the words of a timed_out error's message).
CLOCK_MEANINGS: Mapping[Clock, str] = MappingProxyType(
    {
        Clock.IDLE: "no byte arrived for that long",
        Clock.PROGRESS: "no text or business stage arrived for that long (bytes and heartbeats do not count)",
        Clock.DEADLINE: "the whole answer took longer than that",
    }
)
#: A timed_out error's message (``str.format`` fields: clock, limit, meaning, cause), in English.
TIMEOUT_MESSAGE = "{clock}={limit} s ran out: {meaning}{cause}"
#: The ``cause`` part of :data:`TIMEOUT_MESSAGE` when an exception ended the read (field: cause).
TIMEOUT_CAUSE = " (the read was ended by {cause})"


def timeout_message(clock: str, limit: float, cause: str | None = None) -> str:
    """A timed_out error's message, in English whatever the language (as an exception's message is): which
    ``clock`` (a :class:`Clock` or its value; ``ValueError`` for another) ran out, its ``limit`` in
    seconds, what that means, and ``cause``, the name of the exception that ended the read, if one did."""
    return TIMEOUT_MESSAGE.format(
        clock=clock,
        limit=f"{limit:g}",
        meaning=CLOCK_MEANINGS[Clock(clock)],
        cause=TIMEOUT_CAUSE.format(cause=cause) if cause else "",
    )

#: The longest timeout a stream accepts, in seconds (a day): past it, pass ``None``.
MAX_TIMEOUT_SECONDS = 24 * 3600.0


def check_timeouts(
    idle_timeout: object = None, progress_timeout: object = None, deadline: object = None
) -> None:
    """Raise :class:`~lesson_lib.core.options.OptionError` (a ``ValueError``) naming the first timeout that
    is not ``None`` or a finite number of seconds above 0 (at most :data:`MAX_TIMEOUT_SECONDS`). No I/O."""
    for name, value in zip(TIMEOUT_KINDS, (idle_timeout, progress_timeout, deadline), strict=True):
        check_number(name, value, minimum=0, maximum=MAX_TIMEOUT_SECONDS, low_open=True, none=True)


class CallClock:
    """A clock (``time.monotonic`` by default) that remembers when a call began: :attr:`started`.

    :class:`StreamTimeouts` measured with it counts its ``deadline`` from :attr:`started` (the call,
    before connecting) instead of from its own construction (the start of the body), and makes itself
    known as :attr:`timeouts`, so whoever holds the clock can ask the stream's :meth:`StreamTimeouts.budget`
    (:mod:`lesson_lib.net.http` does, to bound each blocking read). Calling it reads the wrapped clock.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        if not callable(clock):
            raise TypeError("clock must be callable (-> seconds), e.g. time.monotonic")
        self.clock = clock
        self.started = clock()
        self.timeouts: StreamTimeouts | None = None

    def __call__(self) -> float:
        return self.clock()

    def attach(self, timeouts: StreamTimeouts) -> None:
        """Called by :class:`StreamTimeouts` when it is measured with this clock."""
        self.timeouts = timeouts


class StreamTimeouts(ActivityClocks):
    """The three clocks of one live stream, each with its own timeout (seconds; ``None`` disables one).

    * ``idle_timeout``: no byte at all for that long (the byte clock);
    * ``progress_timeout``: no business progress for that long, whatever else arrives: bytes, comments and
      heartbeats move other clocks, never this one (the progress clock);
    * ``deadline``: the whole answer, from construction (the start of the body), or, measured with a
      :class:`CallClock`, from that clock's ``started`` (the call: connecting and the headers included).

    ``expired()`` names the clock that has run out (judged in that order: the most basic failure explains
    the others), ``budget()`` says how long the next read may wait before the nearest one runs out. This
    is what calls :class:`Watchdog`'s model on a real socket: :mod:`lesson_lib.core.completion` asks
    ``expired()`` between reads and bounds each async read with ``budget()``.
    """

    def __init__(
        self,
        idle_timeout: float | None = None,
        progress_timeout: float | None = None,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        check_timeouts(idle_timeout, progress_timeout, deadline)
        super().__init__(clock)
        #: When the deadline clock started: the call (a CallClock's ``started``), else construction.
        self.deadline_started = clock.started if isinstance(clock, CallClock) else self.started
        if isinstance(clock, CallClock):
            clock.attach(self)
        #: Each clock's timeout in seconds (``None``: not set), keyed by :class:`Clock`.
        self.limits: dict[str, float | None] = {
            Clock.IDLE: idle_timeout,
            Clock.PROGRESS: progress_timeout,
            Clock.DEADLINE: deadline,
        }

    @property
    def active(self) -> bool:
        """Is any of the three timeouts set?"""
        return any(value is not None for value in self.limits.values())

    def _left(self, now: float) -> dict[Clock, float]:
        since = {
            Clock.IDLE: self.last_byte,
            Clock.PROGRESS: self.last_progress,
            Clock.DEADLINE: self.deadline_started,
        }
        return {
            clock: since[clock] + limit - now for clock in Clock if (limit := self.limits[clock]) is not None
        }

    def expired(self) -> Clock | None:
        """The first clock (idle, progress, deadline) that has been idle for at least its limit, else None."""
        left = self._left(self.clock())
        return next((clock for clock in Clock if clock in left and left[clock] <= 0), None)

    def budget(self) -> tuple[float, Clock] | None:
        """``(seconds, clock)``: how long until the nearest clock runs out, and which; None if none is set."""
        left = self._left(self.clock())
        if not left:
            return None
        clock = min(left, key=lambda key: (left[key], TIMEOUT_KINDS.index(key)))
        return max(left[clock], 0.0), clock


class ActivityLog(ActivityClocks):
    """Activity clocks that also remember every move, for a picture: ``marks`` is a list of
    ``(seconds since start, clock)`` with clock ``"byte"``, ``"event"`` or ``"progress"``.

    Pass it as ``activity=`` to :func:`~lesson_lib.core.completion.consume` with the same injected clock as
    the
    stream's timeouts, and :func:`lesson_lib.teach.viz.draw_clock_timeline` draws what each clock saw. It
    records
    times and clock names only, never content.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(clock)
        self.marks: list[tuple[float, str]] = []

    def _mark(self, name: str) -> None:
        self.marks.append((self.clock() - self.started, name))

    def on_bytes(self, n: int) -> None:
        super().on_bytes(n)
        if n > 0:
            self._mark("byte")

    def on_event(self) -> None:
        super().on_event()
        self._mark("event")

    def on_progress(self) -> None:
        super().on_progress()
        self._mark("progress")
