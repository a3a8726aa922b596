"""What the fault server sends for one request, as data: a :class:`Plan` of steps, decided without I/O.

The catalogue (:mod:`lesson_lib.faults.catalogue`) turns a request into a plan; the server
(:mod:`lesson_lib.faults.server`) carries it out on a socket and does nothing the plan does not say. So
every fault can be read, tested and counted without a socket, and the server holds no fault of its own.

A plan is a status line, headers, how the body is framed on the wire, the body's steps in order, and how
the response ends:

* :class:`Send` writes bytes and flushes them at once (``TCP_NODELAY``): in a chunked body each ``Send`` is
  one chunk of the chunked transfer encoding. A client may split a ``Send`` into several reads; with the
  :class:`Pause` between two of them it never joins them into one read on a loopback socket (the tests
  measure it rather than assume it);
* :class:`Pause` waits, sending nothing; the server notices a client that leaves meanwhile;
* :class:`End` says how the response ends: ``"clean"`` (the chunked terminator, or the last byte of a
  ``Content-Length`` body), ``"no_terminator"`` (the socket is shut down after the last byte: a chunked body
  without its zero-length chunk, a body shorter than its ``Content-Length``: ``Plan.declared_length`` says
  the longer length), ``"reset"`` (the connection is reset, ``SO_LINGER`` 0: the client's next read fails).

Every plan is bounded: :func:`check_plan` refuses one whose pauses add up to more than
:data:`MAX_PLAN_SECONDS` or whose bytes exceed :data:`MAX_PLAN_BYTES`, so every fault ends by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "MAX_PLAN_BYTES",
    "MAX_PLAN_SECONDS",
    "Pause",
    "Plan",
    "PlanError",
    "Send",
    "Step",
    "check_plan",
]

#: The longest a plan may keep a response open, adding its pauses, in seconds.
MAX_PLAN_SECONDS = 30.0
#: The most body bytes a plan may send.
MAX_PLAN_BYTES = 4 * 1024 * 1024


class PlanError(ValueError):
    """A plan the server must not carry out (unbounded, or malformed): a bug in the catalogue."""


@dataclass(frozen=True)
class Send:
    """Write these bytes and flush them (one chunk, in a chunked body). Never empty: an empty chunk would
    end a chunked body."""

    data: bytes


@dataclass(frozen=True)
class Pause:
    """Send nothing for this many seconds (more than 0)."""

    seconds: float


Step = Send | Pause
Framing = Literal["chunked", "length"]
Ending = Literal["clean", "no_terminator", "reset"]


@dataclass(frozen=True)
class Plan:
    """One response. ``headers`` are sent as given, in order, after the status line; the server adds only
    ``Transfer-Encoding: chunked`` or ``Content-Length`` (from ``framing``) and ``Connection: close``."""

    status: int
    headers: tuple[tuple[str, str], ...]
    steps: tuple[Step, ...]
    framing: Framing = "chunked"
    end: Ending = "clean"
    #: ``framing="length"`` only: the ``Content-Length`` sent, when it is not the body's length (a body cut
    #: short: more than the body, with an ``end`` other than ``"clean"``). ``None``: the body's length.
    declared_length: int | None = None

    @property
    def body(self) -> bytes:
        """Every byte the steps send, joined (what a client that reads everything would get, decoded of its
        transfer encoding but not of any ``Content-Encoding``)."""
        return b"".join(step.data for step in self.steps if isinstance(step, Send))

    @property
    def pieces(self) -> list[bytes]:
        """The bytes of each :class:`Send`, in order: the read boundaries a paced client sees at most."""
        return [step.data for step in self.steps if isinstance(step, Send)]

    @property
    def seconds(self) -> float:
        """The pauses' total: how long the response takes at least."""
        return sum(step.seconds for step in self.steps if isinstance(step, Pause))


def check_plan(plan: Plan) -> Plan:
    """Return ``plan`` if the server may carry it out; :class:`PlanError` naming the problem otherwise."""
    if not 100 <= plan.status <= 599:
        raise PlanError(f"status must be 100-599, got {plan.status}")
    for name, value in plan.headers:
        if not name or any(c in name + value for c in "\r\n\x00"):
            raise PlanError(f"header {name!r} holds a line ending or is empty")
        if name.lower() in ("transfer-encoding", "content-length", "connection"):
            raise PlanError(f"header {name!r} is the server's to send (framing={plan.framing!r})")
    for index, step in enumerate(plan.steps):
        if isinstance(step, Send):
            if not step.data:
                raise PlanError(f"step {index}: an empty Send")
        elif isinstance(step, Pause):
            if not step.seconds > 0:
                raise PlanError(f"step {index}: a pause must be more than 0 seconds, got {step.seconds}")
        else:
            raise PlanError(f"step {index}: not a Send or a Pause: {type(step).__name__}")
    if plan.seconds > MAX_PLAN_SECONDS:
        raise PlanError(f"the plan pauses {plan.seconds:.1f} s in all, more than {MAX_PLAN_SECONDS} s")
    if len(plan.body) > MAX_PLAN_BYTES:
        raise PlanError(f"the plan sends {len(plan.body)} bytes, more than {MAX_PLAN_BYTES}")
    if plan.framing not in ("chunked", "length") or plan.end not in ("clean", "no_terminator", "reset"):
        raise PlanError(f"unknown framing {plan.framing!r} or end {plan.end!r}")
    if plan.declared_length is not None:
        if plan.framing != "length":
            raise PlanError(f"declared_length is for framing='length', not {plan.framing!r}")
        if isinstance(plan.declared_length, bool) or not isinstance(plan.declared_length, int):
            raise PlanError(f"declared_length must be an int, got {type(plan.declared_length).__name__}")
        size = len(plan.body)
        if plan.declared_length < size or (plan.declared_length > size and plan.end == "clean"):
            raise PlanError(
                f"declared_length {plan.declared_length} against a body of {size} bytes: it may only exceed "
                "the body, and only when the response does not end clean"
            )
    return plan
