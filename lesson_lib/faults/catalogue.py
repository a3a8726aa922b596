"""The named faults: what each sends, for which service, and the verdict a correct client reaches.

A :class:`Fault` is one entry of the catalogue: a name (unique, URL-safe), the contract it imitates (as
:func:`lesson_lib.consume` names it), the lesson that explains it, a one-line description, the expected
verdict (:class:`Expected`), the service's path, and :meth:`Fault.respond`, which turns a
:class:`Request` into a :class:`~lesson_lib.faults.plan.Plan` without I/O: the imitated service checks the
request (:mod:`lesson_lib.faults.services`), then the fault answers with its bytes and pacing.

Where things are:

* :mod:`~lesson_lib.faults.services`: each service's path, method, body checks and error shapes;
* :mod:`~lesson_lib.faults.wire` and ``wire_*``: each service's events, written as the captures are,
  each unit declaring the text it delivers;
* :mod:`~lesson_lib.faults.recipes`: the kinds of fault (cuts, early ends, errors, time, resuming), each
  making a plan and declaring its verdict from the course's rules;
* ``faults_openai``, ``faults_anthropic``, ``faults_others``: the entries, contract by contract.

``tests/faults/test_catalogue.py`` checks every entry: its plan, its refusals, and that
:func:`lesson_lib.consume` on its pieces reaches the declared verdict in every chunking that applies.
"""

from __future__ import annotations

from .fault import Expected, Fault
from .faults_anthropic import ANTHROPIC
from .faults_openai import OPENAI_CHAT, OPENAI_RESPONSES
from .faults_others import GEMINI, GEMINI_JSON_ARRAY, MCP, OLLAMA
from .request import Call, Request

__all__ = ["CATALOGUE", "Call", "Expected", "Fault", "Request", "catalogue_json", "get_fault"]

#: Every entry, the SDK-pointable contracts first (openai-chat, anthropic-messages, openai-responses).
CATALOGUE: tuple[Fault, ...] = (
    *OPENAI_CHAT,
    *ANTHROPIC,
    *OPENAI_RESPONSES,
    *GEMINI,
    *GEMINI_JSON_ARRAY,
    *OLLAMA,
    *MCP,
)

_BY_NAME = {fault.name: fault for fault in CATALOGUE}
if len(_BY_NAME) != len(CATALOGUE):  # a bug in the tables: every name must be unique
    raise RuntimeError("two catalogue entries share a name")


def get_fault(name: str) -> Fault:
    """The entry called ``name``; ``KeyError`` if there is none."""
    return _BY_NAME[name]


def catalogue_json() -> list[dict[str, object]]:
    """Every entry as ``GET /faults`` lists it, in catalogue order."""
    return [fault.as_json() for fault in CATALOGUE]
