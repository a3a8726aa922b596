"""What the fault server answers to one whole request, decided without I/O: a :class:`~.plan.Plan`.

The routes:

* ``GET /``: a short index of the routes (JSON, or HTML when the ``Accept`` header prefers it);
* ``GET /faults``: the catalogue (``catalogue_json()``), each entry with its ``base_url``: the server's URL
  + ``/faults/<name>``, to which a client appends the service's own path;
* ``/faults/<name>/<the service's path>`` (any method): ``get_fault(name).respond(...)``, the fault's plan or
  the service's own kind of error for a request the service would refuse;
* ``POST /faults/<name>/verdict``: a client's verdict, graded and counted (:mod:`~.scoreboard`); the answer
  is ``{"right", "expected", "fault"}``;
* ``GET /scoreboard``: the tallies, JSON by default or with ``?format=json``, HTML with ``?format=html``
  or when the ``Accept`` header prefers ``text/html``.

Anything else gets a JSON error naming the problem: an unknown fault or route (404), a method the route
does not take (405, with ``Allow``), a verdict that cannot be read (400, naming the field), a full
scoreboard (507). The server's own refusals (oversized or malformed requests, too many connections) are
made with :func:`error_plan` too. A route never raises for what a request holds.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html import escape as esc
from typing import Protocol

from .catalogue import CATALOGUE, catalogue_json, get_fault
from .catalogue import Request as FaultRequest
from .plan import Plan, Send, check_plan
from .request import header_value
from .scoreboard import Graded, Scoreboard, ScoreboardFull, VerdictError, parse_verdict

__all__ = [
    "ROUTES",
    "FaultLike",
    "Faults",
    "Incoming",
    "Routed",
    "error_plan",
    "json_plan",
    "prefers_html",
    "route",
]

#: The routes, as ``GET /`` lists them.
ROUTES = (
    ("GET", "/faults", "the catalogue: one entry per fault, each with its base_url"),
    ("*", "/faults/<name>/<service path>", "the fault's stream, for the service's own request"),
    ("POST", "/faults/<name>/verdict", "a verdict: {client, outcome, text?}; answers {right, expected}"),
    ("GET", "/scoreboard", "the tallies by fault and client (JSON, or HTML for a browser)"),
)
_JSON = (("Content-Type", "application/json"),)
_HOST = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


class Faults:
    """The faults a server serves: the catalogue (``get_fault``, ``catalogue_json()``), or the entries
    given (a test's own plans)."""

    def __init__(self, given: Iterable[FaultLike] | None = None) -> None:
        self._given = None if given is None else {fault.name: fault for fault in given}

    def get(self, name: str) -> FaultLike:
        """The entry called ``name``; ``KeyError`` if there is none."""
        return get_fault(name) if self._given is None else self._given[name]

    def entries(self) -> list[dict[str, object]]:
        """Every entry as ``GET /faults`` lists it (without ``base_url``), in order."""
        if self._given is None:
            return catalogue_json()
        return [fault.as_json() for fault in self._given.values()]

    def __iter__(self) -> Iterator[FaultLike]:
        return iter(CATALOGUE if self._given is None else tuple(self._given.values()))



class FaultLike(Graded, Protocol):
    """What the server needs of a catalogue entry (:class:`~.catalogue.Fault` is one): what the board
    grades with, and the response and the listing."""

    def respond(self, request: FaultRequest) -> Plan: ...

    def as_json(self) -> dict[str, object]: ...


@dataclass(frozen=True)
class Incoming:
    """One whole request as the server read it: header names lower-case, values decoded as Latin-1."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (lower-case), or ``None``."""
        return header_value(self.headers, name)


@dataclass(frozen=True)
class Routed:
    """The answer: the route's ``kind`` (``index``, ``catalogue``, ``fault``, ``verdict``, ``scoreboard``,
    ``error``), the fault's name where there is one, and the plan to carry out."""

    kind: str
    fault: str | None
    plan: Plan


def json_plan(status: int, payload: object, headers: tuple[tuple[str, str], ...] = ()) -> Plan:
    """A ``Content-Length`` response of ``payload`` as JSON."""
    body = json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    return Plan(status, (*_JSON, *headers), (Send(body),), framing="length")


def error_plan(
    status: int, message: str, *, field: str | None = None, headers: tuple[tuple[str, str], ...] = ()
) -> Plan:
    """The JSON error ``{"error": {"status", "message"[, "field"]}}``."""
    error: dict[str, object] = {"status": status, "message": message}
    if field is not None:
        error["field"] = field
    return json_plan(status, {"error": error}, headers)


def _q(accept: str, media: str) -> float:
    """The quality ``accept`` gives ``media`` (the most specific matching range wins)."""
    kind = media.split("/", 1)[0]
    best, rank = 0.0, -1
    for item in accept.split(","):
        parts = [part.strip() for part in item.split(";")]
        name, q = parts[0].lower(), 1.0
        for param in parts[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        specificity = 2 if name == media else 1 if name == f"{kind}/*" else 0 if name == "*/*" else -1
        if specificity > rank:
            best, rank = q, specificity
    return best


def prefers_html(accept: str | None) -> bool:
    """Whether an ``Accept`` header prefers ``text/html`` to ``application/json`` (ties: JSON)."""
    return bool(accept) and _q(accept or "", "text/html") > _q(accept or "", "application/json")


def _base(incoming: Incoming, server_url: str) -> str:
    """Where the client reached the server: its ``Host`` header when well-formed, else ``server_url``."""
    host = incoming.header("host")
    return f"http://{host}" if host and _HOST.match(host) else server_url


def route(incoming: Incoming, *, server_url: str, scoreboard: Scoreboard, faults: Faults) -> Routed:
    """The answer to ``incoming`` (see the module docstring). A fault whose plan breaks :func:`check_plan`
    raises :class:`~.plan.PlanError` (a bug in the catalogue: the server answers 500)."""
    target = incoming.target
    if target.startswith(("http://", "https://")):  # absolute form: take its path and query
        split = urllib.parse.urlsplit(target)
        target = (split.path or "/") + (f"?{split.query}" if split.query else "")
    path, _, query = target.partition("?")
    if path == "/":
        return _index(incoming)
    if path in ("/faults", "/faults/"):
        return _catalogue(incoming, _base(incoming, server_url), faults)
    if path == "/scoreboard":
        return _scoreboard(incoming, query, scoreboard)
    if path.startswith("/faults/"):
        name, slash, rest = path[len("/faults/") :].partition("/")
        try:
            fault = faults.get(name)
        except KeyError:
            message = f"no fault named {name[:100]!r}: GET /faults lists them"
            return Routed("error", None, error_plan(404, message))
        if slash and rest == "verdict":
            return _verdict(incoming, fault, scoreboard)
        request = FaultRequest(incoming.method, slash + rest, query, incoming.headers, incoming.body)
        return Routed("fault", fault.name, check_plan(fault.respond(request)))
    return Routed("error", None, error_plan(404, f"no route {path[:100]!r}: GET / lists the routes"))


def _only(incoming: Incoming, method: str, kind: str) -> Routed | None:
    if incoming.method == method:
        return None
    message = f"{kind} takes {method}, not {incoming.method[:20]}"
    return Routed("error", None, error_plan(405, message, headers=(("Allow", method),)))


def _index(incoming: Incoming) -> Routed:
    refused = _only(incoming, "GET", "/")
    if refused:
        return refused
    if prefers_html(incoming.header("accept")):
        items = "".join(f"<li><code>{esc(m)} {esc(p)}</code>: {esc(d)}</li>" for m, p, d in ROUTES)
        page = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            "<title>Boundary Lab: fault server</title></head><body><h1>Boundary Lab: fault server</h1>"
            f'<ul>{items}</ul><p><a href="/faults">the catalogue</a>, '
            '<a href="/scoreboard">the scoreboard</a></p></body></html>\n'
        )
        return Routed("index", None, _html_plan(page))
    routes = [{"method": m, "path": p, "description": d} for m, p, d in ROUTES]
    return Routed("index", None, json_plan(200, {"server": "boundary-lab faults", "routes": routes}))


def _html_plan(page: str) -> Plan:
    body = (Send(page.encode("utf-8")),)
    return Plan(200, (("Content-Type", "text/html; charset=utf-8"),), body, framing="length")


def _catalogue(incoming: Incoming, base: str, faults: Faults) -> Routed:
    refused = _only(incoming, "GET", "/faults")
    if refused:
        return refused
    entries = [{**entry, "base_url": f"{base}/faults/{entry['name']}"} for entry in faults.entries()]
    return Routed("catalogue", None, json_plan(200, entries))


def _scoreboard(incoming: Incoming, query: str, scoreboard: Scoreboard) -> Routed:
    refused = _only(incoming, "GET", "/scoreboard")
    if refused:
        return refused
    formats = urllib.parse.parse_qs(query).get("format")
    chosen = formats[-1] if formats else None
    if chosen not in (None, "json", "html"):
        return Routed("error", None, error_plan(400, "format must be json or html", field="format"))
    if chosen == "html" or (chosen is None and prefers_html(incoming.header("accept"))):
        return Routed("scoreboard", None, _html_plan(scoreboard.as_html()))
    return Routed("scoreboard", None, json_plan(200, scoreboard.as_json()))


def _verdict(incoming: Incoming, fault: FaultLike, scoreboard: Scoreboard) -> Routed:
    name = fault.name
    refused = _only(incoming, "POST", "/faults/<name>/verdict")
    if refused:
        return Routed(refused.kind, name, refused.plan)
    try:
        verdict = parse_verdict(incoming.body)
        right = scoreboard.record(name, verdict)
    except VerdictError as exc:
        return Routed("error", name, error_plan(400, str(exc), field=exc.field))
    except ScoreboardFull as exc:
        return Routed("error", name, error_plan(507, str(exc), field="client"))
    expected = fault.as_json()["expected"]
    return Routed("verdict", name, json_plan(200, {"right": right, "expected": expected, "fault": name}))
