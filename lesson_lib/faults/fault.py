"""One entry of the catalogue (:class:`Fault`) and the verdict a correct client reaches on it
(:class:`Expected`).

A fault answers a request without I/O: :meth:`Fault.respond` has the imitated service check the request
(:mod:`lesson_lib.faults.services`: path, method, body, a streaming request), which either refuses it with
the service's own error or accepts it as a :class:`~lesson_lib.faults.request.Call`; the fault's ``plan``
turns that call into a :class:`~lesson_lib.faults.plan.Plan` (its bytes, pauses and ending), checked by
:func:`~lesson_lib.faults.plan.check_plan`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.completion import Outcome
from .plan import Plan, check_plan
from .request import Call, Request
from .services import SERVICES

__all__ = ["LESSONS", "NAME", "Expected", "Fault"]

#: What a fault's name may be: lower-case letters, digits and hyphens (it is a URL path segment).
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: The lessons a fault may point at: the notebooks ``00`` to ``11``.
LESSONS = tuple(f"{n:02d}" for n in range(12))
_OUTCOMES = frozenset(outcome.value for outcome in Outcome)


@dataclass(frozen=True)
class Expected:
    """The verdict a correct client reaches: ``outcome`` as :class:`lesson_lib.Outcome` names it and the
    answer ``text`` it keeps (for a cut stream: the text of the units that arrived whole).

    ``also`` holds other verdicts that are right too, each an ``(outcome, text)`` pair: a resumable stream
    dropped mid-way is ``completed`` with the whole text for a client that resumed and ``truncated`` with
    the text before the drop for one that did not; a client whose idle or progress clock is shorter than a
    stall is right to say ``timed_out`` with the text so far. Every outcome is one of :class:`Outcome`'s
    values (``ValueError`` otherwise)."""

    outcome: str
    text: str
    also: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for outcome, text in self.verdicts:
            if outcome not in _OUTCOMES:
                raise ValueError(f"unknown outcome {outcome!r}; known: {', '.join(sorted(_OUTCOMES))}")
            if not isinstance(text, str):
                raise TypeError(f"the text of {outcome!r} must be a str, got {type(text).__name__}")

    @property
    def verdicts(self) -> tuple[tuple[str, str], ...]:
        """Every right ``(outcome, text)``: the expected one first, then :attr:`also`."""
        return ((self.outcome, self.text), *self.also)

    def accepts(self, outcome: str, text: str | None) -> bool:
        """Whether a client's verdict is right: its outcome is one of the right verdicts' and, if it gave
        its text (``text`` not ``None``), the text is that verdict's text exactly. ``text=None`` (the client
        did not report its text) judges the outcome alone."""
        return any(outcome == want and (text is None or text == kept) for want, kept in self.verdicts)

    def as_json(self) -> dict[str, object]:
        """``{"outcome", "text", "also": [{"outcome", "text"}, ...]}``."""
        also = [{"outcome": outcome, "text": text} for outcome, text in self.also]
        return {"outcome": self.outcome, "text": self.text, "also": also}


@dataclass(frozen=True)
class Fault:
    """One entry of the catalogue: a fault of one contract.

    ``name`` is unique and URL-safe (:data:`NAME`); ``contract`` is named as :func:`lesson_lib.consume`
    names it (a key of :data:`~lesson_lib.faults.services.SERVICES`); ``lesson`` is the notebook that
    explains it (``"00"`` to ``"11"``); ``service_path`` is what a client appends to the entry's base URL
    (``.../faults/<name>``). ``timed``: the verdict depends on time (a stall, heartbeats, a trickle), so
    ``expected`` says what the bytes prove and ``expected.also`` what a client with a short clock may say
    instead. ``resumable``: the fault also answers the service's resuming request (MCP's ``GET`` with
    ``Last-Event-ID``, Responses' ``GET /v1/responses/{id}?stream=true&starting_after=N``) with the rest.
    """

    name: str
    contract: str
    lesson: str
    description: str
    expected: Expected
    service_path: str
    #: The fault's response to a call the service accepted.
    plan: Callable[[Call], Plan] = field(repr=False, compare=False)
    timed: bool = False
    resumable: bool = False

    def __post_init__(self) -> None:
        if NAME.fullmatch(self.name) is None:
            raise ValueError(f"fault name {self.name!r} is not URL-safe ([a-z0-9] words joined by '-')")
        if self.contract not in SERVICES:
            raise ValueError(f"fault {self.name!r}: unknown contract {self.contract!r}")
        if self.lesson not in LESSONS:
            raise ValueError(f"fault {self.name!r}: lesson must be one of 00-11, got {self.lesson!r}")

    def respond(self, request: Request) -> Plan:
        """The response to ``request``: the service's own error for a request it would refuse (a wrong path
        or method, a body it cannot read, no streaming asked), its answer to a protocol message (MCP), else
        the fault's plan. Never raises for a bad request; the plan passes :func:`check_plan`."""
        accepted = SERVICES[self.contract].accept(request, self.name, self.resumable)
        if isinstance(accepted, Plan):
            return check_plan(accepted)
        return check_plan(self.plan(accepted))

    def as_json(self) -> dict[str, object]:
        """The entry as ``GET /faults`` lists it."""
        return {
            "name": self.name,
            "contract": self.contract,
            "lesson": self.lesson,
            "description": self.description,
            "path": self.service_path,
            "expected": self.expected.as_json(),
            "timed": self.timed,
            "resumable": self.resumable,
        }
