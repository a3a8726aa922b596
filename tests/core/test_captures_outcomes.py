"""Every capture in data/ gives its manifest's verdict, whatever the network did to the reads.

The central promise, checked on every capture: a strict prefix of a body (the same stream, cut short) is
never judged ``completed``, and the text it yields is always a prefix of the whole answer. The same for
values: a prefix's reasoning and each tool call's arguments text are prefixes of the whole stream's, and
no prefix yields a ``complete`` call whose arguments text is shorter than the final one. Two documented
exceptions, derived from the bytes rather than listed by name: a body whose last missing byte is only the
LF of a final CRLF (the CR already ended the line), and Gemini's older models, which put ``STOP`` on every
chunk, so a cut exactly at an event boundary cannot be told from the end (see CONTRACTS.md).
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from lesson_lib.core.chunking import one_byte_chunks, random_partition, two_piece_splits
from lesson_lib.core.completion import Outcome, StreamResult, consume
from lesson_lib.core.contracts import CONTRACTS
from lesson_lib.core.sse import Event, parse_sse

DATA = Path(__file__).resolve().parents[2] / "data"
CAPTURES = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))["captures"]
IDS = [capture["file"] for capture in CAPTURES]
COMPLETED = [c for c in CAPTURES if c["outcome"] == "completed"]

#: Bodies up to this size are checked at every prefix; bigger ones at sampled prefixes (below).
ALL_PREFIXES_UP_TO = 2500


@cache
def body_of(file: str) -> bytes:
    return (DATA / file).read_bytes()


def calls_of(result: StreamResult) -> list[dict]:
    """The tool calls as the manifest records them; a complete call must have parsed (no error)."""
    out = []
    for call in result.tool_calls:
        assert call.error is None, call.error
        assert (call.arguments is not None) == call.complete or call.arguments_text == "null"
        out.append(
            {
                "id": call.id,
                "name": call.name,
                "arguments_text": call.arguments_text,
                "arguments": call.arguments,
                "complete": call.complete,
            }
        )
    return out


def verdict(result: StreamResult) -> dict:
    return {
        "tool_calls": calls_of(result),
        "reasoning_text": result.reasoning_text,
        "outcome": str(result.outcome),
        "text": result.text,
        "finish_reason": result.finish_reason,
        "truncated_at": result.truncated_at,
        "end_verified": result.end_verified,
        "error_type": result.error.error_type if result.error is not None else None,
    }


def expected(capture: dict) -> dict:
    keys = ("outcome", "text", "finish_reason", "truncated_at", "end_verified", "error_type")
    keys += ("tool_calls", "reasoning_text")
    return {key: capture[key] for key in keys}


def test_manifest_covers_every_contract_and_every_file():
    # MCP answers one JSON-RPC request among many: it is tested in tests/test_async_resume.py instead.
    assert {c["contract"] for c in CAPTURES} == set(CONTRACTS) - {"mcp"}
    on_disk = {str(p.relative_to(DATA)) for p in DATA.glob("*/*") if p.suffix in {".sse", ".ndjson", ".json"}}
    assert on_disk == set(IDS)
    assert {c["outcome"] for c in CAPTURES} >= {"completed", "incomplete", "truncated", "service_error"}


@pytest.mark.parametrize("capture", CAPTURES, ids=IDS)
def test_whole_body_one_byte_reads_and_empty_reads(capture):
    body = body_of(capture["file"])
    whole = consume([body], capture["contract"])
    assert verdict(whole) == expected(capture)
    assert (whole.final_text is not None) == (capture["outcome"] == "completed" and capture["end_verified"])
    if whole.final_text is not None:
        assert whole.final_text == capture["text"]
    assert verdict(consume(one_byte_chunks(body), capture["contract"])) == expected(capture)
    with_empty = [piece for byte in one_byte_chunks(body[:64]) for piece in (b"", byte)] + [body[64:], b""]
    assert verdict(consume(with_empty, capture["contract"])) == expected(capture)


@pytest.mark.parametrize("capture", CAPTURES, ids=IDS)
def test_every_two_piece_split(capture):
    body, want = body_of(capture["file"]), expected(capture)
    for cut, pieces in two_piece_splits(body):
        assert verdict(consume(pieces, capture["contract"])) == want, f"cut at byte {cut}"


@pytest.mark.parametrize("capture", CAPTURES, ids=IDS)
def test_seeded_random_partitions(capture):
    body, want = body_of(capture["file"]), expected(capture)
    for seed in range(12):
        pieces = random_partition(body, seed, max_cuts=None if seed % 2 else 12)
        assert verdict(consume(pieces, capture["contract"])) == want, f"seed {seed}"


def unit_ends(body: bytes) -> list[int]:
    """Offsets just after every line ending, comma and bracket: where events and elements end."""
    return [m.end() for m in re.finditer(rb"\r\n|\r|\n|,|\]", body)]


def prefix_lengths(body: bytes, seed: int) -> list[int]:
    """All strict prefix lengths of a small body; for a big one, a seeded stride plus ±8 around unit ends."""
    if len(body) <= ALL_PREFIXES_UP_TO:
        return list(range(len(body)))
    rng = random.Random(seed)
    lengths = set(range(0, len(body), rng.randint(7, 17)))
    for end in unit_ends(body):
        lengths.update(range(max(0, end - 8), min(len(body), end + 9)))
    lengths.discard(len(body))
    return sorted(lengths)


def last_event_carried_a_finish_reason(prefix: bytes) -> bool:
    events = [e for e in parse_sse([prefix], errors="replace") if isinstance(e, Event)]
    if not events:
        return False
    candidates = json.loads(events[-1].data).get("candidates") or [{}]
    return candidates[0].get("finishReason") is not None


def completed_prefix_is_a_documented_exception(body: bytes, n: int, contract: str) -> bool:
    if body[n:] == b"\n" and body[n - 1 : n] == b"\r":
        return True  # the CR already ended the line; the LF would only have paired with it
    return contract == "gemini" and last_event_carried_a_finish_reason(body[:n])


def final_prefix_is_indistinguishable_from_an_end(body: bytes, n: int, contract: str) -> bool:
    """The only strict prefixes that may be called final: the LF of a final CRLF is missing (the CR ended
    the line already), or a Gemini stream whose FIRST chunk carried the finish reason stops after it (the
    same bytes as a one-chunk answer; from the second chunk on, a repeated reason is noticed)."""
    if body[n:] == b"\n" and body[n - 1 : n] == b"\r":
        return True
    events = [e for e in parse_sse([body[:n]], errors="replace") if isinstance(e, Event)]
    return contract == "gemini" and len(events) == 1 and last_event_carried_a_finish_reason(body[:n])


@pytest.mark.parametrize("capture", CAPTURES, ids=IDS)
def test_no_strict_prefix_is_completed_and_text_only_grows(capture):
    body, contract, final = body_of(capture["file"]), capture["contract"], capture["text"]
    lengths = prefix_lengths(body, seed=len(body))
    assert lengths[-1] == len(body) - 1 or len(body) > ALL_PREFIXES_UP_TO
    final_calls = capture["tool_calls"]
    for n in lengths:
        result = consume([body[:n]], contract)
        assert final.startswith(result.text), f"prefix of {n} bytes"
        assert capture["reasoning_text"].startswith(result.reasoning_text), f"prefix of {n} bytes"
        assert len(result.tool_calls) <= len(final_calls), f"prefix of {n} bytes"
        for call, whole in zip(result.tool_calls, final_calls, strict=False):
            assert whole["arguments_text"].startswith(call.arguments_text), f"prefix of {n} bytes"
            if call.complete:  # closed: nothing may ever be added to it
                assert call.arguments_text == whole["arguments_text"], f"prefix of {n} bytes"
                assert call.arguments == whole["arguments"], f"prefix of {n} bytes"
            else:
                assert call.arguments is None, f"prefix of {n} bytes"
        if result.outcome is Outcome.COMPLETED:
            assert completed_prefix_is_a_documented_exception(body, n, contract), f"prefix of {n} bytes"
        if result.final_text is not None:  # called final: the bytes must be indistinguishable from an end
            assert result.end_verified, f"prefix of {n} bytes"
            assert final_prefix_is_indistinguishable_from_an_end(body, n, contract), f"prefix of {n} bytes"


def test_gemini_stop_on_every_chunk_is_the_documented_blind_spot():
    """The exception above is real, and only where every chunk says STOP: a lesson, not a loophole."""
    for capture in CAPTURES:
        if capture["contract"] != "gemini" or capture["outcome"] != "completed":
            continue
        body = body_of(capture["file"])
        events = [e for e in parse_sse([body]) if isinstance(e, Event)]
        every_chunk_stops = all('"finishReason"' in e.data for e in events)
        first_end = re.search(rb"\r\n\r\n|\n\n|\r\r", body).end()
        early = consume([body[:first_end]], "gemini")
        assert (early.outcome is Outcome.COMPLETED) == every_chunk_stops, capture["file"]
