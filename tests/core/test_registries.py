"""The registries of framings and contracts (lesson_lib.core.framing, lesson_lib.core.contracts.registry).

What must hold:

* no code in lesson_lib outside the registries compares a framing's or a contract's name: what a call site
  needs is a property of the framing or of the contract's class (the grep below fails on any comparison);
* every registered contract names a registered framing, and registration refuses what would break that;
* adding a framing and a service is a subclass and a registration each, and ``consume`` and the relay then
  run them with no other change (the lenient framing below);
* what a parser's ``close()`` completed before it raised (``exc.outputs``) reaches the ``StreamResult`` and
  the relay's client, in every chunking.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from lesson_lib import Outcome, consume
from lesson_lib.core.contracts import (
    CONTRACTS,
    NEEDS_REQUEST_ID,
    OpenAIChat,
    contract_class,
    get_contract,
    register,
)
from lesson_lib.core.errors import BoundaryError
from lesson_lib.core.framing import (
    FRAMINGS,
    Framing,
    SSEFraming,
    framing,
    register_framing,
    unregister_framing,
)
from lesson_lib.core.sse import Event, SSEParser
from lesson_lib.net.relay_variants import OUTCOME_EVENT, Plan, relay_bytes
from tests.strategies import partitions

LIB = Path(__file__).resolve().parents[2] / "lesson_lib"
#: Where names may be compared: the registries themselves.
REGISTRIES = (LIB / "core" / "framing.py", LIB / "core" / "contracts")


# -- no name is compared outside the registries ----------------------------------------------------------


def _name_comparisons(source: str, names: set[str]) -> list[tuple[int, str]]:
    """``(line number, line)`` of every comparison of a quoted name of ``names`` in ``source``: ``==``,
    ``!=``, ``in``/``not in`` a literal tuple, list or set, ``case``. (``for x in ("a", ...)`` is a loop.)"""
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    quoted = rf"""(['"])(?:{alternatives})\1"""
    patterns = [
        re.compile(rf"(?:==|!=)\s*{quoted}"),
        re.compile(rf"{quoted}\s*(?:==|!=)"),
        re.compile(rf"\bcase\s+{quoted}"),
    ]
    member = re.compile(rf"""\bin\s*[(\[{{][^)\]}}]*?(['"])(?:{alternatives})\1""")
    loop = re.compile(r"\bfor\s+[\w, ]+\s+$")
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        hits = any(p.search(line) for p in patterns)
        hits = hits or any(not loop.search(line[: m.start()]) for m in member.finditer(line))
        if hits:
            found.append((number, line.strip()))
    return found


def test_no_framing_or_contract_name_is_compared_outside_the_registries():
    names = set(FRAMINGS) | set(CONTRACTS)
    offenders = []
    for path in sorted(LIB.rglob("*.py")):
        if any(path == place or place in path.parents for place in REGISTRIES):
            continue
        for number, line in _name_comparisons(path.read_text(encoding="utf-8"), names):
            offenders.append(f"{path.relative_to(LIB.parent)}:{number}: {line}")
    assert not offenders, "names compared outside the registries:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "line",
    [
        'if framing == "sse":',
        "if 'mcp' != contract:",
        'if contract in ("ndjson", "json-array"):',
        'if name not in {"gemini", "ollama"}:',
        'x = 0 if contract == "mcp" else None',
        'case "openai-chat":',
    ],
)
def test_the_grep_finds_each_kind_of_comparison(line):
    assert _name_comparisons(line, set(FRAMINGS) | set(CONTRACTS))


@pytest.mark.parametrize(
    "line",
    [
        '**{name: "sse" for name in ("openai-chat", "gemini")},',
        'consume(reads, "openai-chat")',
        'framing("sse")',
        'if framing in ("text", "lines"):',
    ],
)
def test_the_grep_leaves_uses_that_compare_nothing(line):
    assert not _name_comparisons(line, set(FRAMINGS) | set(CONTRACTS))


# -- the registries ----------------------------------------------------------------------------------------


def test_every_contract_names_a_registered_framing_and_is_built_by_name():
    assert set(FRAMINGS) == {"sse", "ndjson", "json-array"}
    for name, cls in CONTRACTS.items():
        assert cls.name == name and contract_class(name) is cls
        assert isinstance(framing(cls.framing), Framing)
        options = {"request_id": 1} if cls.needs_request_id else {}
        assert type(get_contract(name, **options)) is cls
    assert NEEDS_REQUEST_ID == {name for name, cls in CONTRACTS.items() if cls.needs_request_id} == {"mcp"}
    assert {name for name, cls in CONTRACTS.items() if cls.resumable_by_event_id} == {"mcp"}


def test_unknown_names_are_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown framing 'xml'; known framings: json-array, ndjson, sse"):
        framing("xml")
    with pytest.raises(ValueError, match=r"unknown contract 'nope'; known contracts: anthropic-messages"):
        contract_class("nope")
    with pytest.raises(ValueError, match=r"request_id is only for the mcp contract, not 'ollama'"):
        get_contract("ollama", request_id=1)
    with pytest.raises(ValueError, match=r"request_id must be the JSON-RPC id"):
        get_contract("mcp")


def test_registration_refuses_a_taken_name_an_unknown_framing_and_a_non_contract():
    with pytest.raises(ValueError, match="already registered"):
        register(type("Again", (OpenAIChat,), {}))  # name "openai-chat", inherited
    with pytest.raises(ValueError, match="unknown framing 'xml'"):
        register(type("Xml", (OpenAIChat,), {"name": "xml-service", "framing": "xml"}))
    with pytest.raises(TypeError, match="Contract subclass"):
        register(dict)  # type: ignore[type-var]
    with pytest.raises(ValueError, match="already registered"):
        register_framing(SSEFraming())
    assert "xml-service" not in CONTRACTS


# -- a new framing and service: what close() completed reaches the result ---------------------------------


class LenientEndSSEParser(SSEParser):
    """SSE whose ``close()`` dispatches the event its blank line never ended (as some clients do), then
    raises what the spec's ``close()`` raises: a parser whose close completes a unit before raising."""

    def close(self) -> list[Any]:
        pending = (
            [Event(self.pending_event_type or "message", "\n".join(self.pending_data), self.pending_id)]
            if self.has_pending_event
            else []
        )
        try:
            out = super().close()
        except BoundaryError as exc:
            exc.outputs = [*pending, *exc.outputs]
            raise
        return [*pending, *out]


class LenientEndSSE(SSEFraming):
    name = "test-sse-lenient-end"

    def _parser(self, errors: str, line: int | None, event: int | None, element: int | None) -> Any:
        return LenientEndSSEParser(errors=errors, max_line_chars=line, max_event_chars=event, comments=True)


class LenientChat(OpenAIChat):
    name = "test-lenient-chat"
    framing = LenientEndSSE.name


@contextmanager
def lenient_service() -> Iterator[str]:
    """Register the lenient framing and its service for the block (the registries as they were after)."""
    register_framing(LenientEndSSE())
    try:
        register(LenientChat)
        try:
            yield LenientChat.name
        finally:
            del CONTRACTS[LenientChat.name]
    finally:
        unregister_framing(LenientEndSSE.name)


def _data(payload: object) -> bytes:
    return b"data: " + json.dumps(payload, ensure_ascii=False).encode("utf-8") + b"\n"


HEAD = _data({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello, "}}]}) + b"\n"
#: An event whose blank line never comes, then the first byte of a two-byte character: strict close()
#: dispatches the event (this framing does), then raises TruncatedCharacterError.
BODY = HEAD + _data({"choices": [{"index": 0, "delta": {"content": "café"}}]}) + "é".encode()[:1]


@settings(max_examples=60, deadline=None)
@given(partitions(BODY))
def test_what_close_completed_before_raising_reaches_the_result(chunks):
    with lenient_service() as contract:
        result = consume(chunks, contract)
    assert result.outcome is Outcome.TRUNCATED and result.truncated_at == "character"
    assert result.text == "Hello, café"  # "café" came only from close(), in the error's outputs
    assert result.stats.events == 2 and result.stats.deltas == 2


@settings(max_examples=25, deadline=None)
@given(partitions(BODY))
def test_what_close_completed_before_raising_reaches_the_relays_client(chunks):
    with lenient_service() as contract:
        writes = relay_bytes("correct", chunks, Plan(contract))
    parser = SSEParser()
    events = [event for write in writes for event in parser.feed(write)] + parser.close()
    assert [json.loads(e.data)["choices"][0]["delta"]["content"] for e in events[:-1]] == ["Hello, ", "café"]
    assert events[-1].type == OUTCOME_EVENT
    verdict = json.loads(events[-1].data)
    assert (verdict["outcome"], verdict["truncated_at"]) == ("truncated", "character")


def test_the_registries_are_as_they_were_after_a_scoped_service():
    with lenient_service() as contract:
        assert contract in CONTRACTS and LenientEndSSE.name in FRAMINGS
        with pytest.raises(ValueError, match="named by the contracts test-lenient-chat"):
            unregister_framing(LenientEndSSE.name)
    assert contract not in CONTRACTS and LenientEndSSE.name not in FRAMINGS
    with pytest.raises(ValueError, match="unknown framing"):
        unregister_framing(LenientEndSSE.name)


def test_describe_offers_the_event_id_resume_only_for_a_contract_resumable_by_it():
    # MCP: a priming event (an id, empty data), then the stream stops before the response.
    cut = consume([b"id: ev-7\ndata:\n\n"], "mcp", request_id=1)
    assert cut.outcome is Outcome.TRUNCATED and cut.last_event_id == "ev-7"
    assert "Last-Event-ID: ev-7." in cut.describe()
    # The same cut on a contract that is not resumable by event ID: no such hint.
    chat = consume([b"id: ev-7\ndata: {}\n\n"], "openai-chat")
    assert chat.outcome is Outcome.TRUNCATED and chat.last_event_id == "ev-7"
    assert "Last-Event-ID" not in chat.describe()


def test_classify_cut_asks_the_named_framing_and_refuses_an_unknown_name():
    from lesson_lib.exercises.checkers_core import classify_cut

    body = b"data: a\n\ndata: b\n\n"
    kinds = [classify_cut(body, cut, "sse") for cut in (3, 8, 9, 17)]
    assert kinds == ["line", "in-event", "between-events", "in-event"]
    assert classify_cut(body, 9, "lines") == "line-boundary"
    with pytest.raises(ValueError, match="unknown framing 'xml'"):
        classify_cut(body, 9, "xml")


def test_mcp_drop_terminal_judges_with_the_streams_own_request_id():
    body = b'id: 1\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}\n\n'
    writes = relay_bytes("drop-terminal", [body], Plan("mcp", consume_options={"request_id": 7}))
    assert writes == []  # the response to request 7 is the terminal: dropped (and no outcome follows)
