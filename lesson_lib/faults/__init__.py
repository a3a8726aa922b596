"""The fault server (issue 26): each service's streaming endpoint imitated with one named fault per URL,
and a scoreboard that grades the verdict a client reports. :mod:`~lesson_lib.faults.plan` (what a response
sends, as data), :mod:`~lesson_lib.faults.catalogue` (the faults and their expected verdicts, built from
:mod:`~lesson_lib.faults.services`, the ``wire_*`` writers and :mod:`~lesson_lib.faults.recipes`)."""

from .catalogue import CATALOGUE, Call, Expected, Fault, Request, catalogue_json, get_fault
from .plan import Pause, Plan, PlanError, Send, check_plan

__all__ = [
    "CATALOGUE",
    "Call",
    "Expected",
    "Fault",
    "Pause",
    "Plan",
    "PlanError",
    "Request",
    "Send",
    "catalogue_json",
    "check_plan",
    "get_fault",
]
