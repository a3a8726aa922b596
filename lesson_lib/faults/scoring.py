"""Score a client over the catalogue: run a user's function on every fault, report each verdict to the
server's scoreboard, and return the table.

``client(entry)`` gets one ``GET /faults`` entry (a dict: ``name``, ``contract``, ``path``, ``base_url``,
``expected`` ...), makes its own request to ``entry["base_url"] + entry["path"]`` with whatever it wants to
test (an SDK, a wrapper, lesson_lib's ``consume``), and returns its verdict: a dict ``{"outcome": ...,
"text": ...}`` (``text`` optional), a tuple ``(outcome, text)``, or any object with ``outcome`` and
``text`` attributes (a :class:`lesson_lib.StreamResult`). :func:`score` posts each verdict to
``/faults/<name>/verdict``, so the grading is the server's, and a client that raises, returns something
else or does not return within ``timeout`` is recorded (wrong, never a crash of the run).
"""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.options import check_number
from .catalogue import CATALOGUE
from .plan import MAX_PLAN_SECONDS
from .scoreboard import MAX_NAME_CHARS, OUTCOMES
from .server import FaultServer

__all__ = ["DEFAULT_TIMEOUT", "NoVerdict", "NotAVerdict", "Row", "ScoreError", "ScoreTable", "score"]

#: How long one fault may take the client, in seconds: the longest plan, and a margin.
DEFAULT_TIMEOUT = MAX_PLAN_SECONDS + 15.0
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy


class ScoreError(RuntimeError):
    """The fault server could not be asked (not reachable, or an answer that is not the server's)."""


class NotAVerdict(Exception):
    """The client returned something that is not a verdict (its row: ``raised NotAVerdict``)."""


class NoVerdict(TimeoutError):
    """The client did not return within the run's ``timeout`` (its row: ``raised NoVerdict``)."""


@dataclass(frozen=True)
class Row:
    """One fault's line: what was expected, what the client said (``outcome``, its text's length, or what
    it ``raised``), and the ``result``: ``right``, ``wrong`` or ``raised``."""

    fault: str
    contract: str
    expected: Mapping[str, Any]
    outcome: str | None
    text_chars: int | None
    raised: str | None
    result: str

    @property
    def got(self) -> str:
        """The verdict in a few words, without its text."""
        if self.raised is not None:
            return f"raised {self.raised}"
        if self.text_chars is None:
            return f"{self.outcome} (no text)"
        return f"{self.outcome}, text of {self.text_chars} chars"

    def as_json(self) -> dict[str, Any]:
        got = {"outcome": self.outcome, "text_chars": self.text_chars, "raised": self.raised}
        return {
            "fault": self.fault,
            "contract": self.contract,
            "expected": dict(self.expected),
            "got": got,
            "result": self.result,
        }


def _expected_words(expected: Mapping[str, Any]) -> str:
    words = [str(expected.get("outcome"))]
    for other in expected.get("also") or ():
        if isinstance(other, Mapping):
            other = other.get("outcome")
        elif isinstance(other, list | tuple) and other:
            other = other[0]
        if str(other) not in words:
            words.append(str(other))
    return " or ".join(words)


@dataclass(frozen=True)
class ScoreTable:
    """The run's result: its rows, in catalogue order, and their totals. ``str()`` is the text table,
    :meth:`as_json` the same as a dict; :attr:`all_right` says whether every verdict was right."""

    client: str
    base_url: str
    rows: tuple[Row, ...]

    @property
    def totals(self) -> dict[str, int]:
        counts = {"right": 0, "wrong": 0, "raised": 0}
        for row in self.rows:
            counts[row.result] += 1
        return {**counts, "total": len(self.rows)}

    @property
    def all_right(self) -> bool:
        return bool(self.rows) and all(row.result == "right" for row in self.rows)

    def as_json(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "base_url": self.base_url,
            "rows": [row.as_json() for row in self.rows],
            "totals": self.totals,
        }

    def render_text(self) -> str:
        header = ("fault", "expected", "got", "result")
        lines = [(row.fault, _expected_words(row.expected), row.got, row.result) for row in self.rows]
        widths = [max(len(cell) for cell in column) for column in zip(header, *lines, strict=False)]
        out = [f"client {self.client!r} against {self.base_url}", ""]
        for cells in (header, tuple("-" * w for w in widths), *lines):
            padded = (cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
            out.append("  ".join(padded).rstrip())
        totals = self.totals
        counts = f"{totals['right']} right, {totals['wrong']} wrong, {totals['raised']} raised"
        out += ["", f"{counts}, of {totals['total']}"]
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        return self.render_text()


def _request(url: str, payload: object = None, timeout: float = 30.0) -> Any:
    data = None if payload is None else json.dumps(payload).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        with contextlib.suppress(Exception):
            message = json.loads(exc.read())["error"]["message"]
            raise ScoreError(f"{url}: HTTP {exc.code}: {message}") from None
        raise ScoreError(f"{url}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ScoreError(f"{url}: cannot ask the fault server ({type(exc).__name__})") from None


def _verdict(answer: object) -> tuple[str, str | None]:
    """``(outcome, text)`` from what a client returned; :class:`NotAVerdict` for anything else."""
    if isinstance(answer, Mapping):
        if "outcome" not in answer:
            raise NotAVerdict("a dict without 'outcome'")
        outcome, text = answer["outcome"], answer.get("text")
    elif isinstance(answer, tuple) and len(answer) == 2:
        outcome, text = answer
    elif hasattr(answer, "outcome") and hasattr(answer, "text"):
        outcome, text = answer.outcome, answer.text
    else:
        raise NotAVerdict(f"not a verdict: {type(answer).__name__}")
    if not isinstance(outcome, str) or str(outcome) not in OUTCOMES:
        raise NotAVerdict("an outcome lesson_lib.Outcome does not name")
    if text is not None and not isinstance(text, str):
        raise NotAVerdict("a text that is not a string")
    return str(outcome), text


def _call(client: Callable[[dict[str, Any]], object], entry: dict[str, Any], timeout: float) -> object:
    """``client(entry)`` in a thread of its own, waited for ``timeout`` seconds; its exception re-raised,
    ``TimeoutError`` if it has not returned (the thread is left to end with its connection)."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = client(entry)
        except BaseException as exc:  # a client that raises anything (SystemExit too) is recorded, not fatal
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"score {entry.get('name')}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise NoVerdict(f"no verdict within {timeout:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


@contextlib.contextmanager
def _server(base_url: str | None) -> Iterator[str]:
    if base_url is not None:
        yield base_url.rstrip("/")
        return
    with FaultServer() as server:
        yield server.url


def score(
    client: Callable[[dict[str, Any]], object],
    *,
    base_url: str | None = None,
    names: Iterable[str] | None = None,
    client_name: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> ScoreTable:
    """Run ``client`` on every fault of the catalogue (or those in ``names``, in catalogue order) and
    return the :class:`ScoreTable`. With ``base_url=None`` a :class:`FaultServer` of its own serves the
    run and stops after it; else the server at ``base_url`` is used and keeps the verdicts on its
    scoreboard under ``client_name`` (default: the function's name).

    The client's own failures are rows, never exceptions: an exception is ``raised <Type>``, a value that
    is not a verdict ``raised NotAVerdict``, no answer within ``timeout`` seconds ``raised
    NoVerdict``. Bad arguments raise ``TypeError`` / ``ValueError`` before any I/O; a server that
    cannot be asked raises :class:`ScoreError`."""
    if not callable(client):
        raise TypeError(f"client must be a function of one entry, got {type(client).__name__}")
    name = client_name if client_name is not None else getattr(client, "__name__", "client")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_CHARS or not name.isprintable():
        raise ValueError(f"client_name must be 1-{MAX_NAME_CHARS} printable characters, got {name!r}")
    check_number("timeout", timeout, minimum=0, maximum=3600, low_open=True)
    if base_url is not None and (not isinstance(base_url, str) or not base_url.startswith(("http://", "https://"))):
        raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
    wanted = None
    if names is not None:
        if isinstance(names, str):
            raise TypeError("names must be a list of fault names, not one string")
        wanted = list(names)
        if base_url is None:
            unknown = [n for n in wanted if n not in {fault.name for fault in CATALOGUE}]
            if unknown:
                raise ValueError(f"names: no fault named {unknown[0]!r} in the catalogue")
    with _server(base_url) as url:
        entries = _request(f"{url}/faults")
        if not isinstance(entries, list):
            raise ScoreError(f"{url}/faults: not a list of faults")
        if wanted is not None:
            known = {entry.get("name") for entry in entries}
            unknown = [n for n in wanted if n not in known]
            if unknown:
                raise ValueError(f"names: no fault named {unknown[0]!r} at {url}/faults")
            entries = [entry for entry in entries if entry.get("name") in wanted]
        rows = [_score_one(client, entry, name, url, timeout) for entry in entries]
    return ScoreTable(name, url, tuple(rows))


def _score_one(
    client: Callable[[dict[str, Any]], object], entry: dict[str, Any], name: str, url: str, timeout: float
) -> Row:
    fault = str(entry["name"])
    outcome: str | None = None
    text: str | None = None
    raised: str | None = None
    try:
        outcome, text = _verdict(_call(client, json.loads(json.dumps(entry)), timeout))
        payload: dict[str, object] = {"client": name, "outcome": outcome, "text": text}
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raised = type(exc).__name__
        payload = {"client": name, "raised": raised}
    answer = _request(f"{url}/faults/{fault}/verdict", payload)
    right = answer.get("right") if isinstance(answer, dict) else None
    if not isinstance(right, bool):
        raise ScoreError(f"{url}/faults/{fault}/verdict: no 'right' in the answer")
    result = "raised" if raised is not None else "right" if right else "wrong"
    expected = answer.get("expected") or entry.get("expected") or {}
    return Row(
        fault,
        str(entry.get("contract")),
        expected,
        outcome,
        None if text is None else len(text),
        raised,
        result,
    )
