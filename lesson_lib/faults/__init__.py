"""The fault server (issue 26): each service's streaming endpoint imitated with one named fault per URL,
and a scoreboard that grades the verdict a client reports. :mod:`~lesson_lib.faults.plan` (what a response
sends, as data), :mod:`~lesson_lib.faults.catalogue` (the faults and their expected verdicts, built from
:mod:`~lesson_lib.faults.services`, the ``wire_*`` writers and :mod:`~lesson_lib.faults.recipes`),
:mod:`~lesson_lib.faults.server` (:class:`FaultServer`, asyncio and h11), :mod:`~lesson_lib.faults.scoreboard`
and :mod:`~lesson_lib.faults.scoring` (:func:`score`: a client run over the catalogue). The server's names are
loaded on first use, so the catalogue imports without h11."""

from typing import Any

from .catalogue import CATALOGUE, Call, Expected, Fault, Request, catalogue_json, get_fault
from .plan import Pause, Plan, PlanError, Send, check_plan

__all__ = [
    "CATALOGUE",
    "Call",
    "Expected",
    "Fault",
    "FaultServer",
    "Pause",
    "Plan",
    "PlanError",
    "Request",
    "ScoreTable",
    "Scoreboard",
    "Send",
    "catalogue_json",
    "check_plan",
    "get_fault",
    "score",
]

_LAZY = {"FaultServer": "server", "Scoreboard": "scoreboard", "ScoreTable": "scoring", "score": "scoring"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
