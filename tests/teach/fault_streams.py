"""Catalogue entries pointing at a ReplayServer: how the client adapters are run before the fault server.

An entry is built exactly as the fault server's ``GET /faults`` lists one (``base_url`` = the server's URL +
``/faults/<name>``, then the service's ``path``); ReplayServer answers every path, so pointing the same
adapters at the real server changes the URL only.
"""

from __future__ import annotations

import json
import re
from typing import Any

from lesson_lib.faults import CATALOGUE, Fault, Request
from lesson_lib.net import ReplayServer
from lesson_lib.teach.fault_clients import request_headers, request_json

#: Each contract's streaming path, as a catalogue entry gives it (after /faults/<name>).
PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic-messages": "/v1/messages",
    "gemini": "/v1beta/models/fault:streamGenerateContent?alt=sse",
    "ollama": "/api/chat",
    "mcp": "/mcp",
}
SSE = "text/event-stream; charset=utf-8"
#: The catalogue's whole answers (each contract's control, and reads cut inside a character), which
#: ReplayServer plays as their plans say: the skeleton's two entries, and more in the full catalogue.
WHOLE = [
    fault
    for fault in CATALOGUE
    if fault.name.endswith("-control") or re.search(r"-cut-in-\d-byte-character$", fault.name)
]


def entry(url: str, contract: str, name: str = "replayed") -> dict[str, Any]:
    """A catalogue entry as GET /faults lists it, pointing at a server on ``url``."""
    return {"name": name, "contract": contract, "path": PATHS[contract], "base_url": f"{url}/faults/{name}"}


def listed(fault: Fault, url: str) -> dict[str, Any]:
    """The catalogue's own entry for ``fault`` as GET /faults lists it, pointing at a server on ``url``."""
    return {**fault.as_json(), "base_url": f"{url}/faults/{fault.name}"}


def plan_server(fault: Fault) -> ReplayServer:
    """A ReplayServer (not started) sending the fault's plan for a proper request, its pieces as the cuts,
    20 ms apart. Only for a plan ReplayServer can send: status 200, ended cleanly."""
    body = json.dumps(request_json(fault.contract)).encode()
    sent = {"content-type": "application/json", **request_headers(fault.contract)}
    headers = tuple((name.lower(), value) for name, value in sent.items())
    path, _, query = fault.service_path.partition("?")
    plan = fault.respond(Request("POST", path, query, headers, body))
    assert plan.status == 200 and plan.end == "clean", f"{fault.name}: not a plan ReplayServer can send"
    cuts, offset = [], 0
    for piece in plan.pieces[:-1]:
        offset += len(piece)
        cuts.append(offset)
    content_type = {k.lower(): v for k, v in plan.headers}.get("content-type", SSE)
    return ReplayServer(plan.body, cuts, delay=0.02, content_type=content_type)
