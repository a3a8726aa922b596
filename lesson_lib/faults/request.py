"""A request to a fault as the server read it (:class:`Request`), and what a service accepted (:class:`Call`).

The server turns each HTTP request under ``/faults/<name>`` into a :class:`Request`;
:mod:`lesson_lib.faults.services` checks it as the imitated service would and either refuses it (a
:class:`~lesson_lib.faults.plan.Plan` with the service's own error) or accepts it as a :class:`Call`: the
few facts of the request a fault's body depends on (the JSON-RPC id an MCP answer must carry, where a
resuming request starts, a Responses background flag).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Call", "Request", "header_value"]



def header_value(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    """The first value of header ``name`` among ``headers`` (names lower-case, as both the server and a
    :class:`Request` keep them), or ``None``."""
    for key, value in headers:
        if key == name:
            return value
    return None


@dataclass(frozen=True)
class Request:
    """One request to a fault: ``path`` is what follows ``/faults/<name>`` (``"/v1/chat/completions"``),
    ``query`` the raw query string without ``?``, header names lower-case, ``body`` the whole body."""

    method: str
    path: str
    query: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (lower-case), or ``None``."""
        return header_value(self.headers, name)

    def query_value(self, name: str) -> str | None:
        """The first value of query parameter ``name`` (percent-decoded), or ``None``. Never raises."""
        values = urllib.parse.parse_qs(self.query, keep_blank_values=True).get(name)
        return values[0] if values else None


_NO_BODY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Call:
    """A request the service accepted, as a fault's body needs it.

    ``body`` is the request's JSON object (empty for a ``GET``). ``request_id`` is the JSON-RPC id an MCP
    ``tools/call`` answer must carry. ``resume_after`` is set on a resuming request only: the event number
    (MCP's ``Last-Event-ID``) or the ``sequence_number`` (Responses' ``starting_after``) after which the
    stream continues; ``-1`` replays it from its start. ``background`` and ``response_id`` are an OpenAI
    Responses request's: whether it asked for a background response, and the id its stream announces.
    """

    request: Request
    body: Mapping[str, Any] = field(default_factory=lambda: _NO_BODY)
    request_id: str | int | None = None
    resume_after: int | None = None
    background: bool = False
    response_id: str | None = None
