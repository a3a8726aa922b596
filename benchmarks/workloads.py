"""Deterministic streams to measure: generated lazily from a seed, the same bytes on every machine.

* :func:`chat_stream`: OpenAI-chat-style SSE, one ``data: {...}`` event per content delta, ending with a
  ``finish_reason`` chunk and ``data: [DONE]``. The deltas mix ASCII, accented Latin, Chinese and emoji,
  so multi-byte characters land on every read boundary.
* :func:`long_line_stream` / :func:`short_lines_stream`: the same mixed text as one huge ``data:`` line,
  or cut into many short events (same character mix, only the line structure differs).
* :func:`reads`: re-cut any lazily produced stream into fixed-size network reads.

Nothing here knows about the parser under test; :func:`expected_chat` recomputes what a correct parser
must find in a :func:`chat_stream`, so a benchmark can check it measured real work.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator

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
    count, size, content = 0, 0, []
    for delta, event in _chat_items(total_bytes, seed):
        count += 1
        size += len(event)
        if delta is not None:
            content.append(delta)
    return count, "".join(content), size


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
