"""The scoreboard: every verdict a client reports, graded and tallied by fault and client name, in memory.

A verdict (``POST /faults/<name>/verdict``) is JSON: ``client`` (a name the client chooses, 1-100 printable
characters), ``outcome`` (one of :class:`lesson_lib.Outcome`'s values) and optionally ``text`` (the answer
text the client kept; left out, only the outcome is judged). A client that could not reach a verdict
reports ``raised`` (what it raised, 1-100 printable characters) instead of ``outcome``: that verdict is
wrong. :func:`parse_verdict` checks the JSON and names the field at fault; :meth:`Scoreboard.record` grades
a verdict with the fault's own ``expected.accepts`` and counts it.

The board keeps counts only, never a verdict's text, and is bounded: at most ``max_clients`` client names
(then :class:`ScoreboardFull`). It renders as JSON (:meth:`Scoreboard.as_json`) and as an HTML page
(:meth:`Scoreboard.as_html`: a table of faults by clients, everything escaped). Thread-safe.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.completion import Outcome

__all__ = [
    "MAX_CLIENTS",
    "MAX_NAME_CHARS",
    "OUTCOMES",
    "Scoreboard",
    "ScoreboardFull",
    "Verdict",
    "VerdictError",
    "parse_verdict",
]

#: How many client names a scoreboard holds.
MAX_CLIENTS = 200
#: The longest client name (and ``raised`` label), in characters.
MAX_NAME_CHARS = 100
#: The outcomes a verdict may name: :class:`lesson_lib.Outcome`'s values.
OUTCOMES = tuple(str(outcome) for outcome in Outcome)
_FIELDS = ("client", "outcome", "text", "raised")


class Graded(Protocol):
    """What the board needs of a catalogue entry (:class:`~.catalogue.Fault` is one; the server's
    :class:`~.routes.FaultLike` needs this and more)."""

    @property
    def name(self) -> str: ...

    @property
    def contract(self) -> str: ...

    @property
    def lesson(self) -> str: ...

    @property
    def expected(self) -> Any: ...  # has accepts(outcome, text) -> bool


class VerdictError(ValueError):
    """A verdict the scoreboard cannot read; ``field`` names the field at fault (``None``: the body)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ScoreboardFull(Exception):
    """The scoreboard holds :data:`MAX_CLIENTS` client names already, and this verdict brings a new one."""


@dataclass(frozen=True)
class Verdict:
    """One client's verdict on one fault: ``outcome`` and ``text`` (``None``: not reported), or ``raised``
    (the client reached no verdict; ``outcome`` is then ``None``)."""

    client: str
    outcome: str | None
    text: str | None = None
    raised: str | None = None


def _label(payload: dict[str, object], name: str) -> str:
    value = payload[name]
    if not isinstance(value, str):
        raise VerdictError(f"{name!r} must be a string, got {type(value).__name__}", name)
    if not 1 <= len(value) <= MAX_NAME_CHARS or not value.isprintable():
        raise VerdictError(f"{name!r} must be 1-{MAX_NAME_CHARS} printable characters", name)
    return value


def parse_verdict(body: bytes) -> Verdict:
    """The verdict in a request body; :class:`VerdictError` naming the field for anything else (not JSON,
    not an object, a missing or unknown field, a wrong type, an outcome ``lesson_lib.Outcome`` lacks)."""
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise VerdictError("the body is not JSON") from None
    if not isinstance(payload, dict):
        raise VerdictError(f"the body must be a JSON object, got {type(payload).__name__}")
    unknown = sorted(key for key in payload if key not in _FIELDS)
    if unknown:
        raise VerdictError(f"unknown field {unknown[0]!r}: a verdict has {', '.join(_FIELDS)}", unknown[0])
    if "client" not in payload:
        raise VerdictError("missing field 'client'", "client")
    client = _label(payload, "client")
    if "raised" in payload:
        if "outcome" in payload or "text" in payload:
            message = "'raised' stands for a verdict: send it without 'outcome' and 'text'"
            raise VerdictError(message, "raised")
        return Verdict(client, None, None, _label(payload, "raised"))
    if "outcome" not in payload:
        raise VerdictError("missing field 'outcome'", "outcome")
    outcome = payload["outcome"]
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise VerdictError(f"'outcome' must be one of {', '.join(OUTCOMES)}", "outcome")
    text = payload.get("text")
    if text is not None and not isinstance(text, str):
        raise VerdictError(f"'text' must be a string or null, got {type(text).__name__}", "text")
    return Verdict(client, outcome, text)


class Scoreboard:
    """Right and wrong counts by fault and client name, for the faults given (the catalogue's, in order).

    :meth:`record` grades and counts; :meth:`as_json` and :meth:`as_html` show the counts. A ``raised``
    verdict counts as wrong, and also in ``raised``."""

    def __init__(self, faults: Iterable[Graded], *, max_clients: int = MAX_CLIENTS) -> None:
        if isinstance(max_clients, bool) or not isinstance(max_clients, int) or max_clients < 1:
            raise ValueError(f"max_clients must be an int of at least 1, got {max_clients!r}")
        self._faults = {fault.name: fault for fault in faults}
        self.max_clients = max_clients
        self._lock = threading.Lock()
        self._clients: dict[str, None] = {}  # in order of their first verdict
        self._tallies: dict[tuple[str, str], list[int]] = {}  # (fault, client) -> [right, wrong, raised]

    def record(self, fault_name: str, verdict: Verdict) -> bool:
        """Grade ``verdict`` on the fault (``KeyError`` for a fault not on the board), count it, and return
        whether it is right. :class:`ScoreboardFull` (nothing counted) for a new client past the bound."""
        fault = self._faults[fault_name]
        right = verdict.outcome is not None and bool(fault.expected.accepts(verdict.outcome, verdict.text))
        with self._lock:
            if verdict.client not in self._clients:
                if len(self._clients) >= self.max_clients:
                    raise ScoreboardFull(
                        f"the scoreboard holds {self.max_clients} client names; restart the server for more"
                    )
                self._clients[verdict.client] = None
            tally = self._tallies.setdefault((fault_name, verdict.client), [0, 0, 0])
            tally[0 if right else 1] += 1
            if verdict.raised is not None:
                tally[2] += 1
        return right

    @property
    def clients(self) -> list[str]:
        """The client names, in the order of their first verdict."""
        with self._lock:
            return list(self._clients)

    def as_json(self) -> dict[str, object]:
        """``{"clients": [...], "faults": [{"name", "contract", "lesson", "tallies": {client: {"right",
        "wrong", "raised"}}}], "totals": {client: {...}}, "max_clients": n}``: counts only, every fault of the
        board listed (those without a verdict with empty ``tallies``)."""
        with self._lock:
            clients = list(self._clients)
            tallies = {key: list(value) for key, value in self._tallies.items()}
        totals = {client: {"right": 0, "wrong": 0, "raised": 0} for client in clients}
        faults = []
        for name, fault in self._faults.items():
            row = {}
            for client in clients:
                if (name, client) in tallies:
                    right, wrong, raised = tallies[(name, client)]
                    row[client] = {"right": right, "wrong": wrong, "raised": raised}
                    for key, count in row[client].items():
                        totals[client][key] += count
            faults.append({"name": name, "contract": fault.contract, "lesson": fault.lesson, "tallies": row})
        return {"clients": clients, "faults": faults, "totals": totals, "max_clients": self.max_clients}

    def as_html(self) -> str:
        """A whole HTML page: one row per fault, one column per client, each cell its right and wrong
        counts (a cell with a wrong verdict is marked); every name escaped; no verdict text."""
        board = self.as_json()
        clients: list[str] = board["clients"]  # type: ignore[assignment]
        faults: list[dict[str, object]] = board["faults"]  # type: ignore[assignment]
        totals: dict[str, dict[str, int]] = board["totals"]  # type: ignore[assignment]
        esc = html.escape
        head = "".join(f'<th scope="col">{esc(client)}</th>' for client in clients)
        rows = []
        for fault in faults:
            tallies: dict[str, dict[str, int]] = fault["tallies"]  # type: ignore[assignment]
            cells = []
            for client in clients:
                cell = tallies.get(client)
                if cell is None:
                    cells.append('<td class="none">-</td>')
                    continue
                state = "wrong" if cell["wrong"] else "right"
                raised = f" ({cell['raised']} raised)" if cell["raised"] else ""
                cells.append(
                    f'<td class="{state}" data-right="{cell["right"]}" data-wrong="{cell["wrong"]}">'
                    f"{cell['right']} right / {cell['wrong']} wrong{raised}</td>"
                )
            rows.append(
                f'<tr data-fault="{esc(str(fault["name"]))}"><th scope="row">{esc(str(fault["name"]))}</th>'
                f"<td>{esc(str(fault['contract']))}</td><td>{esc(str(fault['lesson']))}</td>{''.join(cells)}</tr>"
            )
        total_cells = "".join(
            f'<td>{totals[c]["right"]} right / {totals[c]["wrong"]} wrong</td>' for c in clients
        )
        empty = "" if clients else '<p id="empty">No verdict yet: POST /faults/&lt;name&gt;/verdict.</p>'
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Boundary Lab: fault scoreboard</title><style>"
            "body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #999;"
            "padding:2px 6px;text-align:left}td.right{background:#dfd}td.wrong{background:#fdd}</style>"
            "</head><body><h1>Fault scoreboard</h1>"
            f"<p>{len(faults)} faults, {len(clients)} clients. Counts only: no verdict text is kept.</p>"
            f'{empty}<table id="scoreboard"><thead><tr><th scope="col">fault</th>'
            f'<th scope="col">contract</th><th scope="col">lesson</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody>"
            f"<tfoot><tr><th scope=\"row\">total</th><td></td><td></td>{total_cells}</tr></tfoot>"
            "</table></body></html>\n"
        )
