"""A stream's result does not depend on how its bytes were cut into reads (issue 23, items 5 and 6).

Over every capture of every contract, with ``id:``/``retry:`` fields and an invalid byte added here and
there, and every way a stream can end: completion, an in-band service error (the captures that hold one),
a limit (``max_events``, ``max_line_chars``, ``max_event_chars``), a source that fails after any byte, the
``StreamResult`` of one read, of 1-byte reads and of a random cutting must be the same in every field but
these, which describe the reads themselves or are documented as the end of a read:

* the timing and the read-shape statistics (``reads``, ``read_sizes``, the ``max_*`` pending sizes, the
  ``reads_ending_mid_*`` counts, ``bytes_after_terminal``), and ``bytes`` (how much was read before the
  stream was decided: a read carries more than the event that decided it);
* an error offset that is not exact (``offset_exact=False``: "the end of the read").

``last_event_id`` and ``retry`` are those of the last event the application was given: a resume from them
skips nothing it did not handle.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import consume
from lesson_lib.captures import load, names
from lesson_lib.core.contracts import CONTRACTS, get_contract

_READ_SHAPE = {
    "reads",
    "read_sizes",
    "max_held_bytes",
    "max_pending_line_chars",
    "max_pending_event_chars",
    "reads_ending_mid_character",
    "reads_ending_mid_line",
    "reads_ending_mid_event",
    "bytes_after_terminal",
    "bytes",
}


def _mcp(*messages: dict) -> bytes:
    """An MCP Streamable HTTP answer (no capture has one): a priming event, then the messages, with ids."""
    events = [b"id: 0\ndata: \n\n"]
    events += [
        b"id: %d\ndata: %s\n\n" % (n, json.dumps(m, ensure_ascii=False).encode())
        for n, m in enumerate(messages, 1)
    ]
    return b"".join(events)


_PROGRESS = {
    "jsonrpc": "2.0",
    "method": "notifications/progress",
    "params": {"progress": 1, "message": "进度 é"},
}
_TEXT = [{"type": "text", "text": "天气 🙂 café"}, {"type": "text", "text": "完成"}]
#: (contract, body, the options it needs): every capture, and MCP answers (completed, a tool error).
SOURCES = [(load(name).contract, load(name).body, {}) for name in sorted(names())] + [
    ("mcp", _mcp(_PROGRESS, {"jsonrpc": "2.0", "id": 1, "result": {"content": _TEXT}}), {"request_id": 1}),
    (
        "mcp",
        _mcp(
            _PROGRESS, {"jsonrpc": "2.0", "id": 1, "result": {"content": _TEXT, "isError": True}}, _PROGRESS
        ),
        {"request_id": 1},
    ),
]


def _source(chunks: list[bytes], fail: bool) -> Iterator[bytes]:
    yield from chunks
    if fail:
        raise ConnectionResetError("the connection was reset")


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True) if b > a]


def describe(result) -> dict:  # type: ignore[no-untyped-def]
    """Every field of a StreamResult that must not depend on the cutting."""
    stats = {k: v for k, v in result.stats.as_dict().items() if k not in _READ_SHAPE}
    error = None
    if result.error is not None:
        error = dict(vars(result.error))
        if not result.error.offset_exact:
            error.pop("offset")
            stats.pop("error_offset")
    return {
        "outcome": result.outcome,
        "text": result.text,
        "final_text": result.final_text,
        "finish_reason": result.finish_reason,
        "truncated_at": result.truncated_at,
        "error": error,
        "contract": result.contract,
        "end_verified": result.end_verified,
        "tool_calls": result.tool_calls,
        "reasoning_text": result.reasoning_text,
        "last_event_id": result.last_event_id,
        "retry": result.retry,
        "stats": stats,
    }


def _with_fields(body: bytes, where: list[int], ids: list[str], retries: list[int]) -> bytes:
    """``retry:`` and ``id:`` lines (an empty id resets it) after some of the events' blank lines."""
    ending = b"\r\n" if b"\r\n\r\n" in body else b"\n"
    blank = ending * 2
    events = body.split(blank)
    for spot, event_id, retry in zip(where, ids, retries, strict=False):
        i = spot % len(events)
        fields = b"retry: %d%sid: %s%s" % (retry, ending, event_id.encode(), ending)
        events[i] = fields + events[i]
    return blank.join(events)


@st.composite
def streams(draw: st.DrawFn) -> tuple[str, bytes, dict, int | None]:
    contract, body, needs = draw(st.sampled_from(SOURCES))
    if get_contract(contract, **needs).framing == "sse" and draw(st.booleans()):
        count = draw(st.integers(1, 4))
        body = _with_fields(
            body,
            draw(st.lists(st.integers(0, 50), min_size=count, max_size=count)),
            draw(st.lists(st.sampled_from(["", "7", "标识-é", "🙂9"]), min_size=count, max_size=count)),
            draw(st.lists(st.integers(0, 99999), min_size=count, max_size=count)),
        )
    if draw(st.integers(0, 4)) == 0:  # an invalid byte somewhere
        at = draw(st.integers(0, len(body)))
        body = body[:at] + b"\xff" + body[at:]
    ending = draw(st.sampled_from(["completion", "source fails", "max_events", "max_line", "max_event"]))
    options: dict = {"errors": draw(st.sampled_from(["strict", "replace"])), **needs}
    options["max_bytes_without_progress"] = None  # checked per read by design (documented)
    fail_at = None
    if ending == "source fails":
        fail_at = draw(st.integers(0, len(body)))
    elif ending == "max_events":
        options["max_events"] = draw(st.integers(1, 12))
    elif ending == "max_line":
        options["max_line_chars"] = draw(st.integers(1, 200))
    elif ending == "max_event":
        options["max_event_chars"] = draw(st.integers(1, 200))
    return contract, body, options, fail_at


@settings(max_examples=40, deadline=None)
@given(streams(), st.lists(st.integers(0, 10**6), max_size=12))
def test_every_field_but_the_reads_is_the_same_in_every_cutting(stream, cuts):
    contract, body, options, fail_at = stream
    fail = fail_at is not None
    data = body[:fail_at] if fail else body
    cuttings = [[data] if data else [], [data[i : i + 1] for i in range(len(data))], _cut(data, cuts)]
    results = [describe(consume(_source(chunks, fail), contract, **options)) for chunks in cuttings]
    assert results[1] == results[0]
    assert results[2] == results[0]


def test_every_contract_has_a_stream_here():
    assert {contract for contract, _, _ in SOURCES} == set(CONTRACTS)


# -- the reproductions of the issue ---------------------------------------------------------------------


def _reads(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def test_a_service_error_keeps_the_id_and_retry_of_the_error_event_not_of_what_followed_it():
    body = b'id: 3\nretry: 5\ndata: {"error":{"message":"x"}}\n\nretry: 10\nid: 7\ndata: {}\n\n'
    for size in (len(body), 1, 7, 40):
        result = consume(_reads(body, size), "openai-chat")
        assert (result.outcome, result.last_event_id, result.retry) == ("service_error", "3", 5), size


def test_max_events_keeps_the_id_and_retry_of_the_last_event_given():
    event = b'data: {"choices":[{"index":0,"delta":{"content":"\xe4\xbd\xa0"}}]}\n\n'
    body = b"id: 1\n" + event + b"retry: 10\nid: 2\n" + event + b"retry: 20\nid: 3\n" + event
    for size in (len(body), 1, 3, 64):
        result = consume(_reads(body, size), "openai-chat", max_events=2)
        assert (result.outcome, result.text) == ("limit_exceeded", "你你"), size
        assert (result.last_event_id, result.retry) == ("2", 10), size


def test_invalid_utf8_before_a_failing_source_is_a_decode_error_however_the_reads_were_cut():
    body = b'data: {"choices":[]}\n\nevent: x\ndata: \xff'

    def source(parts: list[bytes]) -> Iterator[bytes]:
        yield from parts
        raise ConnectionResetError("reset")

    for parts in ([body], [body[:31], body[31:]], _reads(body, 1)):
        result = consume(source(parts), "openai-chat")
        assert (result.outcome, result.error.kind, result.error.offset) == (
            "decode_error",
            "StreamDecodeError",
            len(body) - 1,
        )
