"""Deterministic streams to measure: generated lazily from a seed, the same bytes on every machine.

* :func:`chat_stream`: OpenAI-chat-style SSE, one ``data: {...}`` event per content delta, ending with a
  ``finish_reason`` chunk and ``data: [DONE]``. The deltas mix ASCII, accented Latin, Chinese and emoji,
  so multi-byte characters land on every read boundary.
* :func:`anthropic_stream`: Anthropic-Messages-style SSE, an ``event:`` line and a ``data:`` line per
  event (``message_start``, ``content_block_start``, a ``ping``, one ``content_block_delta`` per delta,
  then ``content_block_stop``, ``message_delta``, ``message_stop``); the same deltas as the chat stream.
* :func:`long_line_stream` / :func:`short_lines_stream`: the same mixed text as one huge ``data:`` line,
  or cut into many short events (same character mix, only the line structure differs).
* :func:`heartbeat_stream`, :func:`id_stream`, :func:`gemini_stream`, :func:`long_event_stream`: shapes real
  streams have beyond those two: a heartbeat comment every few events; an ``id:`` line on every event
  (MCP, some gateways); CRLF line endings (Gemini); a tool call's arguments, 200 KiB, in one event.
* :func:`event_id_stream`, :func:`gemini_event_id_stream` (issue 24): an ``event:``, an ``id:`` and a
  ``data:`` line in every event (MCP, gateways that name and number events), with LF and with CRLF
  endings.
* :func:`reads`: re-cut any lazily produced stream into fixed-size network reads.

Nothing here knows about the parser under test; :func:`expected_chat` and :func:`expected_anthropic`
recompute what a correct parser must find in each stream, so a benchmark can check it measured real work.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator

SEED = 2026

#: Pieces of model output. Tokens rather than characters, as services send them; the mix puts 1, 2, 3 and
#: 4-byte UTF-8 characters (and a JSON-escaped quote and newline) on the wire.
TOKENS: tuple[str, ...] = (
    "The",
    " stream",
    " is",
    " not",
    " a",
    " line",
    ",",
    " and",
    " a",
    " read",
    " is",
    " not",
    " a",
    " character",
    ".",
    " Hello",
    " world",
    "!",
    "\n",
    "\n\n",
    ' "quoted"',
    " 42",
    " x",
    " =",
    " {",
    " café",
    " naïve",
    " façade",
    " Ångström",
    " über",
    " señor",
    " déjà",
    " vu",
    " Łódź",
    " crème",
    "你好",
    "世界",
    "流式",
    "响应",
    "字符",
    "边界",
    "。",
    "，",
    "数据",
    "事件",
    " 🙂",
    " 🚀",
    "👍🏽",
    " 🇫🇷",
    " 👩‍💻",
    "✨",
    " 🎉",
)

_PREFIX = '{"id":"chatcmpl-%s","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4o-mini",'
_DELTA = '"choices":[{"index":0,"delta":{"content":%s},"logprobs":null,"finish_reason":null}]}'
_STOP = '"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}'


def deltas(seed: int = SEED) -> Iterator[str]:
    """An endless, seeded sequence of content deltas of 1 to 4 tokens."""
    rng = random.Random(seed)
    choice, randint = rng.choice, rng.randint
    while True:
        yield "".join(choice(TOKENS) for _ in range(randint(1, 4)))


def _chat_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    """``(delta, event bytes)`` until at least ``total_bytes`` were produced, then the two closing events."""
    completion_id = f"{random.Random(seed).getrandbits(96):024x}"
    prefix = "data: " + _PREFIX % completion_id
    produced = 0
    for delta in deltas(seed):
        if produced >= total_bytes:
            break
        event = (prefix + _DELTA % json.dumps(delta, ensure_ascii=False) + "\n\n").encode()
        produced += len(event)
        yield delta, event
    yield None, (prefix + _STOP + "\n\n").encode()
    yield None, b"data: [DONE]\n\n"


def chat_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """OpenAI-chat-style SSE of about ``total_bytes`` bytes (a few hundred more), one event per item."""
    for _, event in _chat_items(total_bytes, seed):
        yield event


def expected_chat(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    """What :func:`chat_stream` contains: ``(number of events, concatenated content, number of bytes)``."""
    return _expected(_chat_items(total_bytes, seed))


_MESSAGE_START = (
    '{"type":"message_start","message":{"id":"msg_%s","type":"message","role":"assistant",'
    '"model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,'
    '"usage":{"input_tokens":27,"output_tokens":1}}}'
)
_BLOCK_START = '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'
_ANTHROPIC_DELTA = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}'
_MESSAGE_DELTA = (
    '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},'
    '"usage":{"output_tokens":COUNT}}'
)


def _anthropic_event(kind: str, data: str) -> bytes:
    return f"event: {kind}\ndata: {data}\n\n".encode()


def _anthropic_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    """``(delta or None, event bytes)``: the opening events, deltas until at least ``total_bytes`` were
    produced, then the closing events, as the Messages API streams them."""
    message_id = f"{random.Random(seed).getrandbits(96):024x}"
    head = [
        ("message_start", _MESSAGE_START % message_id),
        ("content_block_start", _BLOCK_START),
        ("ping", '{"type": "ping"}'),
    ]
    produced, count = 0, 0
    for kind, data in head:
        event = _anthropic_event(kind, data)
        produced += len(event)
        yield None, event
    for delta in deltas(seed):
        if produced >= total_bytes:
            break
        text = json.dumps(delta, ensure_ascii=False)
        event = _anthropic_event("content_block_delta", _ANTHROPIC_DELTA % text)
        produced += len(event)
        count += 1
        yield delta, event
    yield None, _anthropic_event("content_block_stop", '{"type":"content_block_stop","index":0}')
    yield None, _anthropic_event("message_delta", _MESSAGE_DELTA.replace("COUNT", str(count)))
    yield None, _anthropic_event("message_stop", '{"type":"message_stop"}')


def anthropic_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """Anthropic-Messages-style SSE of about ``total_bytes`` bytes (a few hundred more), one event a time."""
    for _, event in _anthropic_items(total_bytes, seed):
        yield event


def expected_anthropic(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    """What :func:`anthropic_stream` contains: ``(number of events, concatenated text, number of bytes)``."""
    return _expected(_anthropic_items(total_bytes, seed))


def _expected(items: Iterable[tuple[str | None, bytes]]) -> tuple[int, str, int]:
    count, size, content = 0, 0, []
    for delta, event in items:
        count += 1
        size += len(event)
        if delta is not None:
            content.append(delta)
    return count, "".join(content), size


# -- the shapes real streams have beyond those two (issue 13) -------------------------------------------
#: How many events between two heartbeat comments in :func:`heartbeat_stream`.
HEARTBEAT_EVERY = 5
_HEARTBEAT = b": ping\n\n"


def _heartbeat_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    for number, (delta, event) in enumerate(_chat_items(total_bytes, seed)):
        if number and number % HEARTBEAT_EVERY == 0:
            yield None, _HEARTBEAT  # a comment and a blank line: not an event (the count below skips it)
        yield delta, event


def heartbeat_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """The OpenAI-chat stream with a heartbeat comment (``: ping``, then a blank line) every
    :data:`HEARTBEAT_EVERY` events, as proxies and servers send to keep a connection open."""
    for _, piece in _heartbeat_items(total_bytes, seed):
        yield piece


def expected_heartbeat(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    count, text, size = _expected(_heartbeat_items(total_bytes, seed))
    pings = sum(1 for _, piece in _heartbeat_items(total_bytes, seed) if piece == _HEARTBEAT)
    return count - pings, text, size


def _id_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    for number, (delta, event) in enumerate(_chat_items(total_bytes, seed), start=1):
        yield delta, b"id: %d\n" % number + event


def id_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """The OpenAI-chat stream with an ``id:`` line on every event (``id: 1``, ``id: 2``...), as MCP's
    Streamable HTTP transport and some gateways send, so that a client can resume with Last-Event-ID."""
    for _, event in _id_items(total_bytes, seed):
        yield event


def expected_id(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    return _expected(_id_items(total_bytes, seed))


_GEMINI = (
    '{"candidates": [{"content": {"parts": [{"text": %s}],"role": "model"},"index": 0}],'
    '"usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": %d,"totalTokenCount": %d},'
    '"modelVersion": "gemini-2.5-flash","responseId": "%s"}'
)


def _gemini_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    response_id = f"{random.Random(seed).getrandbits(96):024x}"
    produced = 0
    for count, delta in enumerate(deltas(seed), start=1):
        if produced >= total_bytes:
            break
        text = json.dumps(delta, ensure_ascii=False)
        event = ("data: " + _GEMINI % (text, count, 9 + count, response_id) + "\r\n\r\n").encode()
        produced += len(event)
        yield delta, event


def gemini_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """Gemini-style SSE (``streamGenerateContent?alt=sse``): one ``data:`` line per response chunk, every
    line ended with CRLF, as Gemini sends it."""
    for _, event in _gemini_items(total_bytes, seed):
        yield event


def expected_gemini(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    return _expected(_gemini_items(total_bytes, seed))


def _event_id_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    for number, (delta, event) in enumerate(_chat_items(total_bytes, seed), start=1):
        yield delta, b"event: message\nid: %d\n" % number + event


def event_id_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """The OpenAI-chat stream with an ``event:`` and an ``id:`` line before every ``data:`` line
    (``event: message``, ``id: 1``...), as MCP's Streamable HTTP transport sends its messages and as
    gateways that name and number every event relay a stream."""
    for _, event in _event_id_items(total_bytes, seed):
        yield event


def expected_event_id(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    return _expected(_event_id_items(total_bytes, seed))


def _gemini_event_id_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    for number, (delta, event) in enumerate(_gemini_items(total_bytes, seed), start=1):
        yield delta, b"event: message\r\nid: %d\r\n" % number + event


def gemini_event_id_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """Gemini's CRLF stream with an ``event:`` and an ``id:`` line before every ``data:`` line, every line
    ended with CRLF: Gemini's chunks as a gateway that names and numbers its events relays them."""
    for _, event in _gemini_event_id_items(total_bytes, seed):
        yield event


def expected_gemini_event_id(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    return _expected(_gemini_event_id_items(total_bytes, seed))


#: Size of the arguments of each tool call in :func:`long_event_stream`.
LONG_EVENT_BYTES = 200 * 1024
_TOOL_CALL = (
    '"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_%d","type":"function",'
    '"function":{"name":"write_file","arguments":%s}}]},"logprobs":null,"finish_reason":null}]}'
)


def _long_event_items(total_bytes: int, seed: int) -> Iterator[tuple[str | None, bytes]]:
    """A few content deltas, then a tool call whose arguments (a JSON object with the file's text, about
    :data:`LONG_EVENT_BYTES` on the wire) come in one event; again until ``total_bytes``."""
    completion_id = f"{random.Random(seed).getrandbits(96):024x}"
    prefix = "data: " + _PREFIX % completion_id
    text = deltas(seed)
    produced, call = 0, 0
    while produced < total_bytes:
        for _ in range(3):
            delta = next(text)
            event = (prefix + _DELTA % json.dumps(delta, ensure_ascii=False) + "\n\n").encode()
            produced += len(event)
            yield delta, event
        call += 1
        content, size = [], 0
        while size < LONG_EVENT_BYTES:
            piece = next(text)
            content.append(piece)
            size += len(piece.encode())
        arguments = json.dumps({"path": f"notes/{call}.md", "content": "".join(content)}, ensure_ascii=False)
        event = (prefix + _TOOL_CALL % (call, json.dumps(arguments, ensure_ascii=False)) + "\n\n").encode()
        produced += len(event)
        yield None, event
    yield None, b"data: [DONE]\n\n"


def long_event_stream(total_bytes: int, seed: int = SEED) -> Iterator[bytes]:
    """OpenAI-chat-style SSE where a tool call's arguments (about 200 KiB) arrive in one event: one
    ``data:`` line of 200 KiB, every few events."""
    for _, event in _long_event_items(total_bytes, seed):
        yield event


def expected_long_event(total_bytes: int, seed: int = SEED) -> tuple[int, str, int]:
    return _expected(_long_event_items(total_bytes, seed))


#: The SSE streams the peer benchmarks run on: name -> (lazy stream, expected (events, text, bytes)).
STREAMS: dict[str, tuple[Callable[[int], Iterator[bytes]], Callable[[int], tuple[int, str, int]]]] = {
    "OpenAI chat": (chat_stream, expected_chat),
    "Anthropic messages": (anthropic_stream, expected_anthropic),
    "heartbeats": (heartbeat_stream, expected_heartbeat),
    "id on every event": (id_stream, expected_id),
    "Gemini CRLF": (gemini_stream, expected_gemini),
    "200 KiB tool calls": (long_event_stream, expected_long_event),
    "event, id and data": (event_id_stream, expected_event_id),
    "Gemini CRLF, event and id": (gemini_event_id_stream, expected_gemini_event_id),
}
#: Streams whose events are long enough that a parser quadratic in an event's length takes minutes in
#: reads of a few bytes: the throughput section does not run those parsers there, and says so.
LONG_EVENT_STREAMS = ("200 KiB tool calls",)
#: Streams whose lines end with CRLF.
CRLF_STREAMS = ("Gemini CRLF", "Gemini CRLF, event and id")


def mixed_text(total_bytes: int, seed: int = SEED) -> Iterator[str]:
    """Tokens without line endings (a line ending would split a line), about ``total_bytes`` of UTF-8."""
    produced = 0
    for delta in deltas(seed):
        if produced >= total_bytes:
            return
        piece = delta.replace("\n", " ")
        produced += len(piece.encode())
        yield piece


def long_line_stream(total_bytes: int, seed: int = SEED) -> bytes:
    """One event whose single ``data:`` line carries about ``total_bytes`` bytes, then the blank line."""
    return b"data: " + "".join(mixed_text(total_bytes, seed)).encode() + b"\n\n"


def short_lines_stream(total_bytes: int, seed: int = SEED, line_bytes: int = 80) -> bytes:
    """The same text as :func:`long_line_stream`, cut into ``data:`` lines of about ``line_bytes`` bytes,
    each its own event."""
    out: list[bytes] = []
    line: list[str] = []
    size = 0
    for piece in mixed_text(total_bytes, seed):
        line.append(piece)
        size += len(piece.encode())
        if size >= line_bytes:
            out.append(b"data: " + "".join(line).encode() + b"\n\n")
            line, size = [], 0
    if line:
        out.append(b"data: " + "".join(line).encode() + b"\n\n")
    return b"".join(out)


def reads(stream: bytes | Iterable[bytes], size: int) -> Iterator[bytes]:
    """Cut a byte string, or a lazy sequence of byte strings, into reads of exactly ``size`` bytes (the
    last may be shorter). Lazy: holds at most one read plus one input piece."""
    if size < 1:
        raise ValueError(f"read size must be at least 1, got {size}")
    if isinstance(stream, bytes | bytearray | memoryview):
        data = bytes(stream)
        for start in range(0, len(data), size):
            yield data[start : start + size]
        return
    buffer = bytearray()
    for piece in stream:
        buffer += piece
        if len(buffer) < size:
            continue
        view = memoryview(buffer)
        end = len(buffer) - len(buffer) % size
        for start in range(0, end, size):
            yield bytes(view[start : start + size])
        view.release()
        del buffer[:end]
    if buffer:
        yield bytes(buffer)
