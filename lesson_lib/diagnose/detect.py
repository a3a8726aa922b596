"""The contract boundary of a capture: which framing and which service a body is, with the evidence.

:func:`detect_contract` reads only the first bytes of the body (:data:`SAMPLE` at most):

1. the framing: every registered framing's parser (:data:`lesson_lib.core.framing.FRAMINGS`) is fed the
   sample; those that find complete units (events, values, elements) are the candidates, the one with the
   most units wins;
2. the service: every registered contract of that framing (:data:`lesson_lib.core.contracts.CONTRACTS`)
   interprets those units; a contract that raises on one is out, and the one that recognises the most
   units (signals other than ``Unknown``) wins;
3. the URL, when the input shows one, through :data:`URL_HINTS` (a registry of path patterns): it decides a
   tie, and it decides alone when no unit is complete in the sample (a stream cut before its first event).

No service's name is compared here: the registries say what each contract and framing is. When nothing
decides, :class:`~lesson_lib.diagnose.errors.InputError` names the candidates considered (exit status 2).
A contract that answers one JSON-RPC request among several (``needs_request_id``) takes the id of the first
response in the sample.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..core.contracts import CONTRACTS, Heartbeat, Unknown, contract_class, get_contract
from ..core.errors import BoundaryError
from ..core.framing import FRAMINGS
from ..core.sse import Comment
from .errors import InputError

__all__ = ["SAMPLE", "URL_HINTS", "Detection", "detect_contract", "register_url_hint"]

#: How many bytes of the body detection reads.
SAMPLE = 64 * 1024
#: How many units of the sample each contract is shown.
_MAX_UNITS = 200

#: URL path patterns and the contract each points to, tried in order (:func:`register_url_hint` adds one).
URL_HINTS: list[tuple[re.Pattern[str], str]] = []


def register_url_hint(pattern: str, contract: str) -> None:
    """Say that a URL matching ``pattern`` (a regular expression, searched) carries ``contract``'s stream;
    ``ValueError`` if no such contract is registered."""
    contract_class(contract)
    URL_HINTS.append((re.compile(pattern), contract))


for _pattern, _contract in (
    (r"/chat/completions\b", "openai-chat"),
    (r"/responses\b", "openai-responses"),
    (r"/messages\b", "anthropic-messages"),
    (r":streamGenerateContent\b.*\balt=sse\b", "gemini"),
    (r":streamGenerateContent\b", "gemini-json-array"),
    (r"/api/(chat|generate)\b", "ollama"),
    (r"/services/aigc/(text|multimodal)-generation/generation\b", "dashscope"),
):
    register_url_hint(_pattern, _contract)


@dataclass(frozen=True)
class Detection:
    """The contract to judge the stream by, its framing, and why (short strings, no content)."""

    contract: str
    framing: str
    evidence: tuple[str, ...]
    request_id: str | int | None = None


def _url_hint(url: str | None) -> str | None:
    if not url:
        return None
    for pattern, contract in URL_HINTS:
        if pattern.search(url) and contract in CONTRACTS:
            return contract
    return None


def _units(framing_name: str, sample: bytes) -> tuple[list[Any], int, bool]:
    """The complete units the framing's parser finds in ``sample``, the comments, and whether it failed."""
    parser = FRAMINGS[framing_name].new_parser(errors="replace")
    failed = False
    try:
        items = parser.feed(sample)
    except BoundaryError as exc:
        items, failed = list(exc.outputs), True
    comments = sum(isinstance(item, Comment) for item in items)
    return [item for item in items if not isinstance(item, Comment)], comments, failed


def _request_id(units: list[Any]) -> str | int | None:
    for unit in units:
        data = getattr(unit, "data", None)
        try:
            value = json.loads(data) if isinstance(data, str) else unit
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and "jsonrpc" in value and ("result" in value or "error" in value):
            found = value.get("id")
            if isinstance(found, (str, int)) and not isinstance(found, bool):
                return found
    return None


def _score(name: str, units: list[Any]) -> tuple[int, int, str | int | None] | str:
    """``(recognised, unknown, request_id)`` for contract ``name`` over ``units``, or why it is out."""
    cls = CONTRACTS[name]
    request_id = _request_id(units) if cls.needs_request_id else None
    if cls.needs_request_id and request_id is None:
        return "it needs a JSON-RPC id, and no response in the sample has one"
    contract = get_contract(name, request_id=request_id)
    recognised = unknown = 0
    for unit in units[:_MAX_UNITS]:
        try:
            signals = contract.interpret(unit)
        except (BoundaryError, TypeError, ValueError):
            return "a unit it cannot read"
        if any(not isinstance(s, (Unknown, Heartbeat)) for s in signals):
            recognised += 1
        elif signals:
            unknown += 1
    return recognised, unknown, request_id


def _count(units: int) -> str:
    return "1 unit" if units == 1 else f"{units} units"


def detect_contract(sample: bytes, url: str | None = None, forced: str | None = None) -> Detection:
    """The :class:`Detection` for a body beginning with ``sample`` (``forced``: ``--contract``)."""
    hint = _url_hint(url)
    if forced is not None:
        try:
            cls = contract_class(forced)
        except ValueError as exc:
            raise InputError(f"--contract: {exc}") from None
        evidence: list[str] = [f"--contract {forced}"]
        request_id = None
        if cls.needs_request_id:
            request_id = _request_id(_units(cls.framing, sample[:SAMPLE])[0])
            if request_id is None:
                raise InputError(
                    f"the {forced} contract needs the request's JSON-RPC id; none is in the sample"
                )
            evidence.append(f"JSON-RPC id of the first response: {request_id!r}")
        return Detection(forced, cls.framing, tuple(evidence), request_id)
    sample = sample[:SAMPLE]
    evidence = []
    found: dict[str, tuple[list[Any], int]] = {}
    for name in FRAMINGS:
        units, comments, failed = _units(name, sample)
        if units and any(cls.framing == name for cls in CONTRACTS.values()):
            found[name] = (units, comments)
            evidence.append(
                f"{name}: {len(units)} complete unit{'' if len(units) == 1 else 's'} "
                f"in the first {len(sample)} bytes"
                + (" (then a parse error)" if failed else "")
            )
    if hint is not None:
        evidence.append(f"the URL's path suggests {hint}")
    if not found:
        if hint is not None:
            evidence.append("no complete unit in the sample: the URL decides")
            return Detection(hint, CONTRACTS[hint].framing, tuple(evidence))
        raise InputError(
            f"cannot tell the contract: no complete event, line or element in the first {len(sample)} bytes "
            f"(framings considered: {', '.join(FRAMINGS)}); pass --contract NAME "
            f"({', '.join(CONTRACTS)})"
        )
    framing_name = max(found, key=lambda name: len(found[name][0]))
    units = found[framing_name][0]
    scores: dict[str, tuple[int, int, str | int | None]] = {}
    for name, cls in CONTRACTS.items():
        if cls.framing != framing_name:
            continue
        score = _score(name, units)
        if isinstance(score, str):
            evidence.append(f"{name}: out ({score})")
            continue
        scores[name] = score
        evidence.append(f"{name}: {score[0]} of {_count(min(len(units), _MAX_UNITS))} recognised")
    best = max((s[0] - s[1] for s in scores.values()), default=0)
    top = [name for name, s in scores.items() if s[0] - s[1] == best and s[0] > 0]
    if len(top) > 1 and hint in top:
        top = [hint]
        evidence.append(f"a tie, decided by the URL: {hint}")
    if len(top) != 1:
        considered = ", ".join(scores) or "none"
        why = f"{', '.join(top)} fit it equally" if top else "none recognises its units"
        raise InputError(
            f"cannot tell the contract of this {framing_name} stream: {why} "
            f"(candidates considered: {considered}); pass --contract NAME"
        )
    chosen = top[0]
    if hint is not None and hint != chosen:
        evidence.append(f"the events are {chosen}'s, not the URL's {hint}: the events decide")
    return Detection(chosen, framing_name, tuple(evidence), scores[chosen][2])
