"""What one service's stream means: the completion boundary.

The layers below turn bytes into complete units: a Server-Sent :class:`~lesson_lib.core.sse.Event` (or
:class:`~lesson_lib.core.sse.Comment`), an NDJSON value, a JSON array element. A *contract* says what each
unit means for one service, as a list of small frozen *signals* (h11 style):

=================  ==========================================================================
``TextDelta``      a piece of the answer text
``Stage``          a business stage changed (a block started, a tool call grew, usage arrived)
``FinishReason``   the service named a finish reason, but the stream is not over yet
``Terminal``       the service's own "done"; ``complete`` says whether the answer is whole
``ServiceError``   the service reported an error in-band (after the 200 status)
``Heartbeat``      a keep-alive: proof that the connection lives, not that the answer grows
``Unknown``        a unit the contract does not know; tolerated and counted
``ToolCallStart``  a tool call opened (its assembly key, id and name); ``ToolCallDelta`` a fragment of
                   its arguments JSON *text*; ``ToolCallEnd`` the service closed it; ``ToolCallWhole``
                   a call that arrived whole (see :mod:`lesson_lib.core.values`, which assembles them)
``ReasoningDelta`` a piece of reasoning ("thinking"): never part of the answer text
=================  ==========================================================================

JSON is parsed here, from ``event.data``, and only once the event is complete: a data line cut in two
never reaches a contract. Malformed JSON raises :class:`~lesson_lib.core.errors.FramingError`; a JSON value of
an unexpected shape never raises (missing fields are simply absent).

Contracts are small stateful objects, one per stream: ``get_contract(name)`` returns a fresh one.

The package: :mod:`.signals` (the signals), :mod:`.base` (the :class:`Contract` base class and its JSON
helpers), :mod:`.registry` (:data:`CONTRACTS`, :func:`register`, :func:`get_contract`), and one module per
service, which registers its contract when imported (``openai_chat``, ``openai_responses``, ``anthropic``,
``gemini``, ``ollama``, ``mcp``, ``dashscope``). Every module of this package is imported here, so adding a
service is one module (plus its captures and tests); no other code names it.
"""

from __future__ import annotations

import importlib
import pkgutil

from .anthropic import AnthropicMessages
from .base import Contract
from .gemini import Gemini, GeminiJSONArray
from .mcp import MCP
from .ollama import Ollama
from .openai_chat import OpenAIChat
from .openai_responses import OpenAIResponses
from .registry import CONTRACTS, contract_class, get_contract, register
from .signals import (
    FinishReason,
    Heartbeat,
    ReasoningDelta,
    ServiceError,
    Signal,
    Stage,
    Terminal,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    ToolCallWhole,
    Unknown,
)

__all__ = [
    "CONTRACTS",
    "MCP",
    "NEEDS_REQUEST_ID",
    "AnthropicMessages",
    "Contract",
    "FinishReason",
    "Gemini",
    "GeminiJSONArray",
    "Heartbeat",
    "Ollama",
    "OpenAIChat",
    "OpenAIResponses",
    "ReasoningDelta",
    "ServiceError",
    "Signal",
    "Stage",
    "Terminal",
    "TextDelta",
    "ToolCallDelta",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolCallWhole",
    "Unknown",
    "contract_class",
    "get_contract",
    "register",
]

_NOT_SERVICES = frozenset({"base", "registry", "signals"})

# A service module added later registers itself here, without an import line of its own.
for _module in pkgutil.iter_modules(__path__):
    if _module.name not in _NOT_SERVICES:
        importlib.import_module(f"{__name__}.{_module.name}")

#: The contracts that answer one request among many on a stream, and so need its id (``request_id``).
NEEDS_REQUEST_ID = frozenset(name for name, cls in CONTRACTS.items() if cls.needs_request_id)
