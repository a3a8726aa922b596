#!/usr/bin/env python3
"""Build the fictional stream captures in ``data/`` and their manifest.

Every file written here is the exact body (the bytes after the HTTP headers) that one streaming service would
send, in that service's real wire format (see ``/work/shared/CONTRACTS.md``), with fictional content: ids,
timestamps, token counts and texts are made up, the framing is not.

Layout::

    data/<contract>/<name>.<ext>     .sse for Server-Sent Events, .json for Gemini's growing JSON array,
                                     .ndjson for Ollama's newline-delimited JSON
    data/manifest.json               one entry per file: what a correct consumer must conclude from it

How the expected results are computed (independently of any parser):
a stream body is built as a list of *units*, each the bytes of one event (SSE), one element or piece of
framing (JSON array) or one line (NDJSON), together with what that unit means once it has arrived complete:
the text it delivers, the finish reason it reports, the error it carries, whether it is the terminal signal.
A capture is either the whole list, or a prefix of it that is then cut inside one unit (or right between
two). The manifest's ``text`` is the concatenation of the texts of the units that are complete in the body;
the outcome follows from whether the terminal unit (or an error unit) is among them.

Run ``python data/build_captures.py`` to (re)write the files next to this script, ``--out DIR`` to write
elsewhere and ``--check`` to verify that the files on disk are exactly what this script produces. The output
is deterministic: no clocks, no randomness, sorted and fixed orders everywhere. The data files must be stored
byte for byte (see ``.gitattributes``): Gemini's CRLF line endings and files that end in the middle of a UTF-8
character are the point of the exercise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

CONTRACTS: dict[str, str] = {
    "openai-chat": "sse",
    "openai-responses": "sse",
    "anthropic-messages": "sse",
    "gemini": "sse",
    "gemini-json-array": "json",
    "ollama": "ndjson",
    "dashscope": "sse",
}
OUTCOMES = ("completed", "incomplete", "truncated", "service_error")
TRUNCATED_AT = ("character", "line", "event", "completion")
# Finish reasons that end a stream with a cut answer (outcome "incomplete" rather than "completed").
INCOMPLETE_REASONS = frozenset(
    {"length", "max_tokens", "MAX_TOKENS", "SAFETY", "max_output_tokens", "sensitive"}
)
MANIFEST_KEYS = (
    "file",
    "contract",
    "outcome",
    "truncated_at",
    "text",
    "finish_reason",
    "error_type",
    "description",
)

RAW = False  # ensure_ascii=False: non-ASCII characters written as raw UTF-8
ESCAPED = True  # ensure_ascii=True: \uXXXX escapes, 4-byte characters as surrogate pairs (\ud83d\ude42)


# ----------------------------------------------------------------------------------------------------------
# Units and cuts
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One event, line or array element (or piece of framing) and what it means once it arrived complete."""

    data: bytes
    kind: str = "meta"  # "delta", "meta", "heartbeat", "finish", "terminal", "error", "framing"
    text: str = ""  # the answer text this unit delivers
    finish: str | None = None  # the service's own finish word, when this unit reports one
    error: str | None = None  # the service's error type or code, when this unit is an in-band error
    terminal: bool = False  # this unit is the service's "I am done" signal
    error_message: bool = False  # an in-band error whose type is not given (Ollama): outcome service_error
    reasoning: str = ""  # the reasoning (thinking) text this unit delivers: never answer text
    # What this unit does to tool calls, in order: ("start", key, id, name), ("delta", key, fragment),
    # ("end", key) (the service closed the call), ("whole", id, name, arguments_text).
    calls: tuple[tuple, ...] = ()


@dataclass(frozen=True)
class Cut:
    """Where a capture stops: ``units[:index]`` complete, then ``partial`` bytes of ``units[index]``."""

    index: int
    partial: int  # 0 means the body ends exactly between two units
    truncated_at: str | None


def nth(units: Sequence[Unit], kind: str, n: int) -> int:
    """Index in ``units`` of the ``n``-th unit of ``kind`` (negative ``n`` counts from the end)."""
    positions = [i for i, u in enumerate(units) if u.kind == kind]
    return positions[n]


def cut_between(units: Sequence[Unit], index: int) -> Cut:
    """End the body exactly at a unit boundary, before ``units[index]``."""
    assert 0 < index < len(units)
    return Cut(index, 0, "completion")


def cut_in_character(units: Sequence[Unit], char: str, nbytes: int) -> Cut:
    """End inside raw ``char`` after ``nbytes`` of its UTF-8 bytes, in the first unit carrying it."""
    encoded = char.encode("utf-8")
    assert 0 < nbytes < len(encoded), (char, nbytes)
    for i, unit in enumerate(units):
        if char in unit.text and encoded in unit.data:
            return Cut(i, unit.data.index(encoded) + nbytes, "character")
    raise AssertionError(f"no unit carries {char!r} raw")


def cut_in_bytes(units: Sequence[Unit], index: int, char: str, nbytes: int) -> Cut:
    """End inside raw ``char`` after ``nbytes`` of its UTF-8 bytes, in ``units[index]`` (any field)."""
    encoded = char.encode("utf-8")
    assert 0 < nbytes < len(encoded), (char, nbytes)
    return Cut(index, units[index].data.index(encoded) + nbytes, "character")


def cut_before(units: Sequence[Unit], index: int, marker: bytes, truncated_at: str) -> Cut:
    """End just before the first ``marker`` (ASCII) inside ``units[index]``: a cut in the middle of a line."""
    data = units[index].data
    position = data.index(marker)
    assert 0 < position < len(data)
    if truncated_at == "line":
        rest = data[position:].rstrip(b"\r\n")
        assert b"\n" not in rest and b"\r" not in rest, "a line cut must fall inside the unit's last line"
    return Cut(index, position, truncated_at)


def cut_before_blank_line(units: Sequence[Unit], index: int, eol: str) -> Cut:
    """End an SSE event after its complete field lines, before the blank line that would dispatch it."""
    data = units[index].data
    blank = eol.encode("ascii")
    assert data.endswith(blank * 2)
    return Cut(index, len(data) - len(blank), "event")


# ----------------------------------------------------------------------------------------------------------
# Serialisation helpers
# ----------------------------------------------------------------------------------------------------------


def fake_id(seed: str, length: int, alphabet: str = "0123456789abcdef") -> str:
    """A deterministic fictional identifier derived from ``seed``."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    while len(digest) < length:
        digest += hashlib.sha256(digest).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:length])


BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def compact(obj: object, escaped: bool) -> str:
    """Compact JSON as the OpenAI and Anthropic APIs send it."""
    return json.dumps(obj, ensure_ascii=escaped, separators=(",", ":"))


def gemini_line(obj: object, escaped: bool) -> str:
    """Gemini's one-line JSON for ``alt=sse``: ``", "``-free commas, ``": "`` after keys."""
    return json.dumps(obj, ensure_ascii=escaped, separators=(",", ": "))


def gemini_pretty(obj: object, escaped: bool) -> str:
    """Gemini's pretty-printed JSON for the array stream (two-space indent)."""
    return json.dumps(obj, ensure_ascii=escaped, indent=2)


GO_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def go_json(obj: object, escaped: bool) -> str:
    """JSON as Go's encoding/json writes it (Ollama): compact, and <, >, &, U+2028, U+2029 always escaped.

    Those characters can only occur inside JSON strings, so replacing them in the text is safe.
    """
    text = compact(obj, escaped)
    for char, escape in GO_ESCAPES:
        text = text.replace(char, escape)
    return text


def sse_event(fields: Sequence[tuple[str, str]], eol: str = "\n") -> bytes:
    """One SSE event: ``name: value`` lines, then the blank line that dispatches it."""
    for _, value in fields:
        assert "\r" not in value and "\n" not in value, "an SSE field value cannot hold CR or LF"
    return ("".join(f"{name}: {value}{eol}" for name, value in fields) + eol).encode("utf-8")


def sse_comment(comment: str, eol: str = "\n") -> bytes:
    """An SSE comment line (``comment`` starts with the space, if any) followed by a blank line."""
    return f":{comment}{eol}{eol}".encode()


HEARTBEAT_COMMENTS = (" ping", "keep-alive")


# ----------------------------------------------------------------------------------------------------------
# The answers (every one mixes Chinese, accented Latin and 4-byte emoji, split at awkward places)
# ----------------------------------------------------------------------------------------------------------

# "Cafe\u0301" ends with a combining acute accent; "🙂" is a delta of one 4-byte character; the woman
# technologist 👩‍💻 (U+1F469 U+200D U+1F4BB) is split across deltas; U+2028, U+2029 and U+0085 appear raw
# in the captures written with RAW.
CHAT_ANSWER = (
    "你好", "！", "Cafe\u0301", " au lait", " for a naïve", " Ångström fan.", "\u2028",
    "第二行：", "🙂", " ", "🚀", " ", "👩", "\u200d💻", " 完成。",
)  # fmt: skip
RESPONSES_ANSWER = (
    "你好", "，naïve", " café", "\u0085", "第二行", "：Ångstro\u0308", "m", "？", "🚀", "🙂",
    " 👩\u200d", "💻", " 完成。",
)  # fmt: skip
ANTHROPIC_ANSWER = (
    "你好", "！", " Ångström", " and crème brûle\u0301", "e", "\u2029", "第二行", " 🙂", "🚀",
    " naïve ", "👩\u200d💻", " 完成",
)  # fmt: skip
ANTHROPIC_SECOND_BLOCK = ("第二块：", "🙂", " café ", "naïve", " 完成。")
# A Gemini chunk may carry several parts: a tuple is one chunk, its items the parts' texts.
GEMINI_ANSWER = (
    ("你好，",), ("résume\u0301", " of a naïve"), (" Ångström\u2029",), ("第二行 ",), ("🙂",),
    ("🚀", " 👩\u200d💻"), (" 完成。",),
)  # fmt: skip
GEMINI_ARRAY_ANSWER = (
    ("你好！",), ("Cafe\u0301",), (" naïve Ångström", "\n第二行："), ("🙂",), ("🚀 👩",),
    ("\u200d💻 完成。",),
)  # fmt: skip
OLLAMA_ANSWER = (
    "你好", "！", " Café", " & naïve", " <Ångström>", "\u0085", "第二行", "：", "🙂", "🚀", " 👩",
    "\u200d💻", " 完成。",
)  # fmt: skip
# Answers the service cut short (max tokens, length, safety): they stop mid-sentence.
CUT_ANSWER = ("你好，这是一个", "很长的回答：café", " naïve", " Ångström ", "🚀", " 第二")
GEMINI_CUT_ANSWER = (("你好，这是一个",), ("很长的回答：café",), (" naïve Ångström ",), ("🚀 第二",))


# ----------------------------------------------------------------------------------------------------------
# OpenAI Chat Completions: data-only SSE, LF, ends with the literal `data: [DONE]`
# ----------------------------------------------------------------------------------------------------------


def openai_chat_units(
    seed: str,
    deltas: Sequence[str],
    *,
    escaped: bool,
    finish: str = "stop",
    include_usage: bool = False,
    error_after: int | None = None,
    heartbeats: bool = False,
) -> list[Unit]:
    created = 1767225600 + int(fake_id(seed, 5, "0123456789"))
    base = {
        "id": "chatcmpl-" + fake_id(seed, 29, BASE62),
        "object": "chat.completion.chunk",
        "created": created,
        "model": "gpt-4o-mini-2024-07-18",
        "service_tier": "default",
        "system_fingerprint": "fp_" + fake_id(seed + "fp", 10),
    }

    def chunk(delta: dict, finish_reason: str | None = None) -> bytes:
        obj = dict(base)
        obj["choices"] = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
        if include_usage:
            obj["usage"] = None
        return sse_event([("data", compact(obj, escaped))])

    units = []
    if heartbeats:
        units.append(Unit(sse_comment(" ping"), "heartbeat"))
    units.append(Unit(chunk({"role": "assistant", "content": "", "refusal": None})))
    for i, delta in enumerate(deltas):
        if error_after is not None and i == error_after:
            error = {
                "error": {
                    "message": "The server had an error while processing your request. Sorry about that!",
                    "type": "server_error",
                    "param": None,
                    "code": None,
                }
            }
            units.append(Unit(sse_event([("data", compact(error, escaped))]), "error", error="server_error"))
            return units  # no [DONE] follows an error
        if heartbeats and i % 4 == 3:
            units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[i // 4 % 2]), "heartbeat"))
        units.append(Unit(chunk({"content": delta}), "delta", text=delta))
    units.append(Unit(chunk({}, finish), "finish", finish=finish))
    if include_usage:
        obj = dict(base)
        obj["choices"] = []
        completion_tokens = len(deltas) + 1
        obj["usage"] = {
            "prompt_tokens": 19,
            "completion_tokens": completion_tokens,
            "total_tokens": 19 + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
                "reasoning_tokens": 0,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        }
        units.append(Unit(sse_event([("data", compact(obj, escaped))])))
    if heartbeats:
        units.append(Unit(sse_comment("keep-alive"), "heartbeat"))
    units.append(Unit(b"data: [DONE]\n\n", "terminal", terminal=True))
    return units


# ----------------------------------------------------------------------------------------------------------
# OpenAI Responses: `event:` + `data:` SSE, LF, increasing sequence_number, ends with a terminal event
# ----------------------------------------------------------------------------------------------------------


def openai_responses_units(
    seed: str,
    deltas: Sequence[str],
    *,
    escaped: bool,
    ending: str = "completed",  # "completed", "incomplete", "failed", "error_flat", "error_nested"
    heartbeats: bool = False,
) -> list[Unit]:
    response_id = "resp_" + fake_id(seed, 48)
    item_id = "msg_" + fake_id(seed + "item", 48)
    created_at = 1767225600 + int(fake_id(seed, 5, "0123456789"))
    max_output_tokens = 64 if ending == "incomplete" else None
    units: list[Unit] = []
    sequence = iter(range(10_000))

    def event(payload: dict, kind: str = "meta", **meaning) -> None:
        payload = {"type": payload["type"], "sequence_number": next(sequence), **payload}
        data = sse_event([("event", payload["type"]), ("data", compact(payload, escaped))])
        units.append(Unit(data, kind, **meaning))

    def response(status: str, output: list, **extra) -> dict:
        obj = {
            "id": response_id,
            "object": "response",
            "created_at": created_at,
            "status": status,
            "background": False,
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "max_output_tokens": max_output_tokens,
            "model": "gpt-4.1-mini-2025-04-14",
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": None, "summary": None},
            "service_tier": "default",
            "store": True,
            "temperature": 1.0,
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tool_choice": "auto",
            "tools": [],
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": None,
            "user": None,
            "metadata": {},
        }
        obj.update(extra)
        return obj

    def keepalive() -> None:
        event({"type": "keepalive"}, "heartbeat")

    def part(text: str) -> dict:
        return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}

    where = {"item_id": item_id, "output_index": 0, "content_index": 0}
    event({"type": "response.created", "response": response("in_progress", [])})
    if heartbeats:
        keepalive()
    event({"type": "response.in_progress", "response": response("in_progress", [])})
    item = {"id": item_id, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    event({"type": "response.output_item.added", "output_index": 0, "item": item})
    event({"type": "response.content_part.added", **where, "part": part("")})
    for i, delta in enumerate(deltas):
        if heartbeats and i % 4 == 2:
            if i % 8 == 2:
                units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[0]), "heartbeat"))
            else:
                keepalive()
        payload = {"type": "response.output_text.delta", **where, "delta": delta, "logprobs": []}
        event(payload, "delta", text=delta)
        if ending.startswith("error") and i == len(deltas) - 1:
            message = "An error occurred while processing your request. Please retry."
            if ending == "error_flat":
                payload = {"type": "error", "code": "server_error", "message": message, "param": None}
            else:
                payload = {
                    "type": "error",
                    "error": {
                        "type": "server_error",
                        "code": "server_error",
                        "message": message,
                        "param": None,
                    },
                }
            event(payload, "error", error="server_error")
            return units
    text = "".join(deltas)
    usage = {
        "input_tokens": 23,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": len(deltas),
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 23 + len(deltas),
    }
    if ending == "failed":
        error = {"code": "server_error", "message": "The model failed to generate a response. Please retry."}
        failed = response("failed", [], error=error)
        event(
            {"type": "response.failed", "response": failed}, "terminal", error="server_error", terminal=True
        )
        return units
    status = "incomplete" if ending == "incomplete" else "completed"
    event({"type": "response.output_text.done", **where, "text": text, "logprobs": []})
    event({"type": "response.content_part.done", **where, "part": part(text)})
    done_item = dict(item, status=status, content=[part(text)])
    event({"type": "response.output_item.done", "output_index": 0, "item": done_item})
    if heartbeats:
        units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[1]), "heartbeat"))
        keepalive()
    if ending == "incomplete":
        final = response(
            "incomplete", [done_item], incomplete_details={"reason": "max_output_tokens"}, usage=usage
        )
        payload = {"type": "response.incomplete", "response": final}
        event(payload, "terminal", finish="max_output_tokens", terminal=True)
    else:
        payload = {"type": "response.completed", "response": response("completed", [done_item], usage=usage)}
        event(payload, "terminal", terminal=True)
    return units


# ----------------------------------------------------------------------------------------------------------
# Anthropic Messages: `event:` + `data:` SSE, LF, ends with message_stop
# ----------------------------------------------------------------------------------------------------------

ANTHROPIC_PING = '{"type": "ping"}'  # the API writes this one with spaces


def anthropic_units(
    seed: str,
    blocks: Sequence[Sequence[str]],
    *,
    escaped: bool,
    stop_reason: str = "end_turn",
    error_after: int | None = None,
    heartbeats: bool = False,
    unknown_event: bool = False,
) -> list[Unit]:
    units: list[Unit] = []

    def event(payload: dict, kind: str = "meta", **meaning) -> None:
        data = sse_event([("event", payload["type"]), ("data", compact(payload, escaped))])
        units.append(Unit(data, kind, **meaning))

    def ping() -> None:
        units.append(Unit(sse_event([("event", "ping"), ("data", ANTHROPIC_PING)]), "heartbeat"))

    message = {
        "id": "msg_01" + fake_id(seed, 22, BASE62),
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 27,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 1,
            "service_tier": "standard",
        },
    }
    if heartbeats:
        units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[0]), "heartbeat"))
    event({"type": "message_start", "message": message})
    delta_count = 0
    for index, block in enumerate(blocks):
        event({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})
        if index == 0:
            ping()  # the API sends one right after the first content_block_start
        for delta in block:
            if error_after is not None and delta_count == error_after:
                error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
                event(error, "error", error="overloaded_error")
                return units
            if heartbeats and delta_count % 4 == 3:
                if delta_count % 8 == 3:
                    ping()
                else:
                    units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[1]), "heartbeat"))
            event(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": delta},
                },
                "delta",
                text=delta,
            )
            delta_count += 1
        event({"type": "content_block_stop", "index": index})
        if unknown_event and index == 0:
            # A type this client does not know yet: the contract says to tolerate (skip) it.
            event({"type": "content_block_future", "index": 0, "hint": "reserved for a future block kind"})
    if heartbeats:
        ping()
    event(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": delta_count + 2},
        },
        "finish",
        finish=stop_reason,
    )
    event({"type": "message_stop"}, "terminal", terminal=True)
    return units


# ----------------------------------------------------------------------------------------------------------
# Gemini: the same chunk objects, as SSE (`alt=sse`, CRLF) or as one pretty-printed growing JSON array
# ----------------------------------------------------------------------------------------------------------

SAFETY_CATEGORIES = (
    "HARM_CATEGORY_SEXUALLY_EXPLICIT",
    "HARM_CATEGORY_HATE_SPEECH",
    "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_DANGEROUS_CONTENT",
)


@dataclass(frozen=True)
class GeminiChunk:
    """One GenerateContentResponse: its object, its text, its finish reason, whether it is the last."""

    obj: dict
    text: str
    finish: str | None
    last: bool
    error: str | None = None


def gemini_chunks(
    seed: str,
    chunks: Sequence[Sequence[str]],
    *,
    finish: str = "STOP",
    stop_every_chunk: bool = False,
    error_after: int | None = None,
) -> list[GeminiChunk]:
    """The chunk objects of one answer; with ``finish="SAFETY"`` a last chunk without content is added."""
    model = "gemini-1.0-pro-002" if stop_every_chunk else "gemini-2.5-flash"
    response_id = fake_id(seed, 22, BASE62 + "-_")
    prompt_tokens = 9
    out: list[GeminiChunk] = []
    total = 0

    def ratings(blocked: str | None = None) -> list[dict]:
        result = []
        for category in SAFETY_CATEGORIES:
            rating: dict = {"category": category, "probability": "NEGLIGIBLE"}
            if category == blocked:
                rating = {"category": category, "probability": "HIGH", "blocked": True}
            result.append(rating)
        return result

    def make(candidate: dict, usage: dict, text: str, finish_reason: str | None, last: bool) -> None:
        obj = {
            "candidates": [candidate],
            "usageMetadata": usage,
            "modelVersion": model,
            "responseId": response_id,
        }
        out.append(GeminiChunk(obj, text, finish_reason, last))

    for i, parts in enumerate(chunks):
        if error_after is not None and i == error_after:
            error = {"error": {"code": 503, "message": "The model is overloaded. Please try again later.",
                               "status": "UNAVAILABLE"}}  # fmt: skip
            out.append(GeminiChunk(error, "", None, False, error="UNAVAILABLE"))
            return out
        total += len(parts)
        last = i == len(chunks) - 1 and finish != "SAFETY"
        candidate: dict = {"content": {"parts": [{"text": t} for t in parts], "role": "model"}}
        finish_reason = finish if last or stop_every_chunk else None
        if stop_every_chunk:
            candidate["finishReason"] = "STOP"
            candidate["index"] = 0
            candidate["safetyRatings"] = ratings()
        elif last:
            candidate["finishReason"] = finish
            candidate["index"] = 0
        usage: dict = {"promptTokenCount": prompt_tokens, "totalTokenCount": prompt_tokens + total}
        if last or stop_every_chunk:
            usage = {
                "promptTokenCount": prompt_tokens,
                "candidatesTokenCount": total,
                "totalTokenCount": prompt_tokens + total,
                "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt_tokens}],
            }
        make(candidate, usage, "".join(parts), finish_reason, last)
    if finish == "SAFETY":
        candidate = {
            "finishReason": "SAFETY",
            "index": 0,
            "safetyRatings": ratings("HARM_CATEGORY_HARASSMENT"),
        }
        usage = {"promptTokenCount": prompt_tokens, "candidatesTokenCount": total,
                 "totalTokenCount": prompt_tokens + total}  # fmt: skip
        make(candidate, usage, "", "SAFETY", True)
    return out


def gemini_sse_units(chunks: Sequence[GeminiChunk], *, escaped: bool, heartbeats: bool = False) -> list[Unit]:
    units = []
    for i, chunk in enumerate(chunks):
        if heartbeats and i % 2 == 1:
            units.append(Unit(sse_comment(HEARTBEAT_COMMENTS[i // 2 % 2], "\r\n"), "heartbeat"))
        data = sse_event([("data", gemini_line(chunk.obj, escaped))], "\r\n")
        units.append(_gemini_unit(data, chunk))
    return units


def gemini_array_units(chunks: Sequence[GeminiChunk], *, escaped: bool) -> list[Unit]:
    """``[`` + element + (``\\n,\\r\\n`` + element)* + ``\\n]``: the closing bracket proves the end."""
    units = [Unit(b"[", "framing")]
    for i, chunk in enumerate(chunks):
        if i:
            units.append(Unit(b"\n,\r\n", "framing"))
        element = _gemini_unit(gemini_pretty(chunk.obj, escaped).encode("utf-8"), chunk)
        units.append(replace(element, terminal=False))  # in the array, only the closing bracket ends it
    ends_answer = chunks[-1].last or chunks[-1].error is not None
    units.append(Unit(b"\n]", "terminal", terminal=ends_answer))
    return units


def _gemini_unit(data: bytes, chunk: GeminiChunk) -> Unit:
    if chunk.error:
        return Unit(data, "error", error=chunk.error)
    # With alt=sse the chunk that carries the final finish reason is the terminal signal; in the array
    # stream the closing bracket is (gemini_array_units clears `terminal` on the elements).
    kind = "finish" if chunk.last else "delta"
    return Unit(data, kind, text=chunk.text, finish=chunk.finish, terminal=chunk.last)


# ----------------------------------------------------------------------------------------------------------
# Ollama /api/chat: NDJSON, one LF-terminated JSON object per line, the last one has "done": true
# ----------------------------------------------------------------------------------------------------------


def ollama_units(
    seed: str,
    deltas: Sequence[str],
    *,
    escaped: bool,
    done_reason: str = "stop",
    error_after: int | None = None,
) -> list[Unit]:
    model = "llama3.2:3b"
    start = int(fake_id(seed, 11, "0123456789")) % 30_000_000_000  # nanoseconds into the minute

    def created_at(i: int) -> str:
        seconds, nanos = divmod(start + i * 23_456_789, 1_000_000_000)
        return f"2026-03-14T09:26:{seconds:02d}.{nanos:09d}Z"

    def line(obj: dict) -> bytes:
        return (go_json(obj, escaped) + "\n").encode("utf-8")

    units = []
    for i, delta in enumerate(deltas):
        if error_after is not None and i == error_after:
            error = {"error": "an error was encountered while running the model: unexpected EOF"}
            units.append(Unit(line(error), "error", error_message=True))
            return units
        obj = {
            "model": model,
            "created_at": created_at(i),
            "message": {"role": "assistant", "content": delta},
            "done": False,
        }
        units.append(Unit(line(obj), "delta", text=delta))
    final = {
        "model": model,
        "created_at": created_at(len(deltas)),
        "message": {"role": "assistant", "content": ""},
        "done_reason": done_reason,
        "done": True,
        "total_duration": 1_874_326_209,
        "load_duration": 21_458_334,
        "prompt_eval_count": 31,
        "prompt_eval_duration": 96_137_000,
        "eval_count": len(deltas) + 1,
        "eval_duration": 1_702_584_000,
    }
    units.append(Unit(line(final), "terminal", finish=done_reason, terminal=True))
    return units


# ----------------------------------------------------------------------------------------------------------
# Tool calls and reasoning: arguments arrive as JSON TEXT fragments (cut inside keys, numbers, \uXXXX escapes,
# between the halves of a surrogate pair); reasoning arrives beside the answer and is not the answer
# ----------------------------------------------------------------------------------------------------------

# Raw UTF-8 inside the arguments text; the number 14 is cut into 1 and 4.
WEATHER_FRAGMENTS = ('{"ci', 'ty": "北', '京", "da', 'ys": 1', '4, "unit": "cel', 'sius"}')
# \uXXXX escapes INSIDE the arguments text (the model wrote ASCII-only JSON): escapes cut in the middle,
# and 🚀 as the surrogate pair \ud83d\ude80 whose halves arrive in two fragments.
MESSAGE_FRAGMENTS = (
    '{"to": "Zo\\u00',
    'eb", "text": "\\u4f',
    "60\\u597d \\ud83d",
    '\\ude80 caf\\u00e9"}',
)
TOOL_ANSWER = ("好的，", "我来查一下北京的天气。")
ANTHROPIC_THINKING = ("用户想知道", "苏黎世的天气：", " I should call get_weather 🌦️.")
ANTHROPIC_TOOL_TEXT = ("好的，", "我查一下 Zürich", " 的天气。")
# The first partial_json is empty, as the API sends it; 🌧 arrives as an escaped surrogate pair.
ANTHROPIC_TOOL_FRAGMENTS = (
    "",
    '{"city": "苏黎',
    '世 Zürich", "days": ',
    '3, "note": "\\ud83c',
    '\\udf27 带伞"}',
)
RESPONSES_SUMMARY = ("**查询天气**\n\n", "用户问北京的天气，", "我需要调用 get_weather。")
REASONING_CHAT = ("嗯，", "用户问 9.11 和 9.8", " 哪个大。比较小数部分：", "0.8 > 0.11 🙂")
REASONING_ANSWER = ("9.8 ", "更大。", " (naïve 的字符串比较会答错。)")
GEMINI_THOUGHT = "**思考** 用户想知道北京的天气，调用 get_weather。"
OLLAMA_THINKING = ("用户问天气，", "需要调用工具 get_weather。", " Zürich? 不，是北京。")
WEATHER_ARGS = {"city": "北京", "days": 14, "unit": "celsius"}


def openai_chat_tool_units(
    seed: str,
    calls: Sequence[tuple[str, Sequence[str]]],
    *,
    escaped: bool,
    finish: str = "tool_calls",
) -> list[Unit]:
    """Parallel tool calls whose fragments interleave by ``index``; [DONE] closes them all."""
    base = {
        "id": "chatcmpl-" + fake_id(seed, 29, BASE62),
        "object": "chat.completion.chunk",
        "created": 1767225600 + int(fake_id(seed, 5, "0123456789")),
        "model": "gpt-4.1-mini-2025-04-14",
        "service_tier": "default",
        "system_fingerprint": "fp_" + fake_id(seed + "fp", 10),
    }

    def chunk(delta: dict, finish_reason: str | None = None) -> bytes:
        obj = dict(
            base, choices=[{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
        )
        return sse_event([("data", compact(obj, escaped))])

    units = [Unit(chunk({"role": "assistant", "content": None, "refusal": None}))]
    keys = []
    for index, (name, _) in enumerate(calls):
        call_id = "call_" + fake_id(f"{seed}{index}", 24, BASE62)
        start = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        units.append(
            Unit(chunk({"tool_calls": [start]}), "call", calls=(("start", str(index), call_id, name),))
        )
        keys.append(str(index))
    longest = max(len(fragments) for _, fragments in calls)
    for position in range(longest):
        for index, (_, fragments) in enumerate(calls):
            if position < len(fragments):
                fragment = fragments[position]
                delta = {"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}
                units.append(Unit(chunk(delta), "call", calls=(("delta", str(index), fragment),)))
    units.append(Unit(chunk({}, finish), "finish", finish=finish))
    closes = tuple(("end", key) for key in keys) if finish in ("tool_calls", "stop") else ()
    units.append(Unit(b"data: [DONE]\n\n", "terminal", terminal=True, calls=closes))
    return units


def openai_chat_reasoning_units(seed: str, *, escaped: bool) -> list[Unit]:
    """A DeepSeek-style OpenAI-compatible stream: delta.reasoning_content first, then delta.content, with
    ': keep-alive' SSE comments (as DeepSeek is reported to send while a request waits)."""
    base = {
        "id": fake_id(seed, 8) + "-" + fake_id(seed + "b", 4) + "-" + fake_id(seed + "c", 4),
        "object": "chat.completion.chunk",
        "created": 1767225600 + int(fake_id(seed, 5, "0123456789")),
        "model": "deepseek-reasoner",
        "system_fingerprint": "fp_" + fake_id(seed + "fp", 10) + "_prod0820_fp8_kvcache",
    }

    def chunk(delta: dict, finish_reason: str | None = None) -> bytes:
        obj = dict(
            base, choices=[{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
        )
        return sse_event([("data", compact(obj, escaped))])

    units = [Unit(sse_comment(" keep-alive"), "heartbeat"), Unit(sse_comment(" keep-alive"), "heartbeat")]
    units.append(Unit(chunk({"role": "assistant", "content": None, "reasoning_content": ""})))
    for piece in REASONING_CHAT:
        units.append(Unit(chunk({"content": None, "reasoning_content": piece}), "reasoning", reasoning=piece))
    for piece in REASONING_ANSWER:
        units.append(Unit(chunk({"content": piece, "reasoning_content": None}), "delta", text=piece))
    units.append(Unit(chunk({"content": "", "reasoning_content": None}, "stop"), "finish", finish="stop"))
    units.append(Unit(b"data: [DONE]\n\n", "terminal", terminal=True))
    return units


def openai_responses_tool_units(seed: str, *, escaped: bool) -> list[Unit]:
    """A reasoning item with a summary, then one function_call item, then response.completed."""
    response_id = "resp_" + fake_id(seed, 48)
    reasoning_id = "rs_" + fake_id(seed + "rs", 48)
    item_id = "fc_" + fake_id(seed + "fc", 48)
    call_id = "call_" + fake_id(seed + "call", 24, BASE62)
    units: list[Unit] = []
    sequence = iter(range(10_000))

    def event(payload: dict, kind: str = "meta", **meaning) -> None:
        payload = {"type": payload["type"], "sequence_number": next(sequence), **payload}
        data = sse_event([("event", payload["type"]), ("data", compact(payload, escaped))])
        units.append(Unit(data, kind, **meaning))

    def response(status: str, output: list) -> dict:
        return {
            "id": response_id,
            "object": "response",
            "created_at": 1767225600 + int(fake_id(seed, 5, "0123456789")),
            "status": status,
            "error": None,
            "incomplete_details": None,
            "model": "o4-mini-2025-04-16",
            "output": output,
            "parallel_tool_calls": True,
            "reasoning": {"effort": "medium", "summary": "auto"},
            "tool_choice": "auto",
            "usage": None,
        }

    summary = "".join(RESPONSES_SUMMARY)
    arguments = "".join(WEATHER_FRAGMENTS)
    event({"type": "response.created", "response": response("in_progress", [])})
    event({"type": "response.in_progress", "response": response("in_progress", [])})
    reasoning = {"id": reasoning_id, "type": "reasoning", "summary": []}
    event({"type": "response.output_item.added", "output_index": 0, "item": reasoning})
    where = {"item_id": reasoning_id, "output_index": 0, "summary_index": 0}
    event(
        {
            "type": "response.reasoning_summary_part.added",
            **where,
            "part": {"type": "summary_text", "text": ""},
        }
    )
    for piece in RESPONSES_SUMMARY:
        event(
            {"type": "response.reasoning_summary_text.delta", **where, "delta": piece},
            "reasoning",
            reasoning=piece,
        )
    event({"type": "response.reasoning_summary_text.done", **where, "text": summary})
    event(
        {
            "type": "response.reasoning_summary_part.done",
            **where,
            "part": {"type": "summary_text", "text": summary},
        }
    )
    reasoning_done = dict(reasoning, summary=[{"type": "summary_text", "text": summary}])
    event({"type": "response.output_item.done", "output_index": 0, "item": reasoning_done})
    item = {"id": item_id, "type": "function_call", "status": "in_progress", "arguments": ""}
    item.update(call_id=call_id, name="get_weather")
    event({"type": "response.output_item.added", "output_index": 1, "item": item}, "call",
          calls=(("start", item_id, call_id, "get_weather"),))  # fmt: skip
    for fragment in WEATHER_FRAGMENTS:
        payload = {"type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": 1,
                   "delta": fragment}  # fmt: skip
        event(payload, "call", calls=(("delta", item_id, fragment),))
    payload = {"type": "response.function_call_arguments.done", "item_id": item_id, "output_index": 1,
               "arguments": arguments}  # fmt: skip
    event(payload, "call", calls=(("end", item_id),))
    item_done = dict(item, status="completed", arguments=arguments)
    event({"type": "response.output_item.done", "output_index": 1, "item": item_done}, "call")
    final = response("completed", [reasoning_done, item_done])
    event({"type": "response.completed", "response": final}, "terminal", terminal=True)
    return units


def anthropic_tool_units(seed: str, *, escaped: bool) -> list[Unit]:
    """A thinking block (thinking_delta, then signature_delta), a text block, then a tool_use block."""
    units: list[Unit] = []
    tool_id = "toolu_01" + fake_id(seed + "tool", 22, BASE62)

    def event(payload: dict, kind: str = "meta", **meaning) -> None:
        data = sse_event([("event", payload["type"]), ("data", compact(payload, escaped))])
        units.append(Unit(data, kind, **meaning))

    message = {
        "id": "msg_01" + fake_id(seed, 22, BASE62),
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 412, "output_tokens": 4},
    }
    event({"type": "message_start", "message": message})
    event({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "",
                                                                        "signature": ""}})  # fmt: skip
    units.append(Unit(sse_event([("event", "ping"), ("data", ANTHROPIC_PING)]), "heartbeat"))
    for piece in ANTHROPIC_THINKING:
        delta = {"type": "thinking_delta", "thinking": piece}
        event({"type": "content_block_delta", "index": 0, "delta": delta}, "reasoning", reasoning=piece)
    signature = fake_id(seed + "sig", 88, BASE62 + "+/")
    event(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": signature},
        }
    )
    event({"type": "content_block_stop", "index": 0})
    event({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}})
    for piece in ANTHROPIC_TOOL_TEXT:
        delta = {"type": "text_delta", "text": piece}
        event({"type": "content_block_delta", "index": 1, "delta": delta}, "delta", text=piece)
    event({"type": "content_block_stop", "index": 1})
    block = {"type": "tool_use", "id": tool_id, "name": "get_weather", "input": {}}
    event({"type": "content_block_start", "index": 2, "content_block": block}, "call",
          calls=(("start", "2", tool_id, "get_weather"),))  # fmt: skip
    for fragment in ANTHROPIC_TOOL_FRAGMENTS:
        delta = {"type": "input_json_delta", "partial_json": fragment}
        ops = (("delta", "2", fragment),) if fragment else ()
        event({"type": "content_block_delta", "index": 2, "delta": delta}, "call", calls=ops)
    event({"type": "content_block_stop", "index": 2}, "call", calls=(("end", "2"),))
    event({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
           "usage": {"output_tokens": 96}}, "finish", finish="tool_use")  # fmt: skip
    event({"type": "message_stop"}, "terminal", terminal=True)
    return units


def gemini_tool_chunks(seed: str) -> list[tuple[GeminiChunk, str, tuple]]:
    """A thought part (thought summaries on), a text part, then a functionCall part with STOP.

    Each chunk comes with the reasoning it delivers and its tool-call operations."""
    response_id = fake_id(seed, 22, BASE62 + "-_")
    out = []

    def make(parts: list, finish: str | None, text: str, reasoning: str, ops: tuple) -> None:
        candidate: dict = {"content": {"parts": parts, "role": "model"}}
        if finish:
            candidate["finishReason"] = finish
            candidate["index"] = 0
        usage = {"promptTokenCount": 57, "totalTokenCount": 57 + len(out)}
        obj = {"candidates": [candidate], "usageMetadata": usage}
        obj.update(modelVersion="gemini-2.5-flash", responseId=response_id)
        out.append((GeminiChunk(obj, text, finish, finish is not None), reasoning, ops))

    make([{"text": GEMINI_THOUGHT, "thought": True}], None, "", GEMINI_THOUGHT, ())
    make([{"text": TOOL_ANSWER[0]}], None, TOOL_ANSWER[0], "", ())
    text = json.dumps(WEATHER_ARGS, ensure_ascii=False, separators=(",", ":"))
    call = {"functionCall": {"name": "get_weather", "args": WEATHER_ARGS}}
    make([call], "STOP", "", "", (("whole", None, "get_weather", text),))
    return out


def with_meanings(units: list[Unit], meanings: Sequence[tuple[str, tuple]]) -> list[Unit]:
    """Attach reasoning and tool-call operations to the chunk units, in order (framing units skipped)."""
    pending = iter(meanings)
    out = []
    for unit in units:
        if unit.kind in ("framing", "heartbeat") or (unit.kind == "terminal" and unit.data == b"\n]"):
            out.append(unit)
            continue
        reasoning, ops = next(pending)
        out.append(replace(unit, reasoning=reasoning, calls=ops))
    assert next(pending, None) is None
    return out


def gemini_tool_units(seed: str, *, escaped: bool, array: bool) -> list[Unit]:
    chunks = gemini_tool_chunks(seed)
    plain = [c for c, _, _ in chunks]
    units = gemini_array_units(plain, escaped=escaped) if array else gemini_sse_units(plain, escaped=escaped)
    return with_meanings(units, [(r, ops) for _, r, ops in chunks])


def ollama_tool_units(seed: str, *, escaped: bool) -> list[Unit]:
    """message.thinking lines, one line with message.tool_calls (arguments an object), then done."""
    model = "qwen3:8b"
    start = int(fake_id(seed, 11, "0123456789")) % 30_000_000_000

    def created_at(i: int) -> str:
        seconds, nanos = divmod(start + i * 23_456_789, 1_000_000_000)
        return f"2026-03-14T09:26:{seconds:02d}.{nanos:09d}Z"

    def line(obj: dict) -> bytes:
        return (go_json(obj, escaped) + "\n").encode("utf-8")

    units = []
    for i, piece in enumerate(OLLAMA_THINKING):
        obj = {"model": model, "created_at": created_at(i),
               "message": {"role": "assistant", "content": "", "thinking": piece}, "done": False}  # fmt: skip
        units.append(Unit(line(obj), "reasoning", reasoning=piece))
    text = json.dumps(WEATHER_ARGS, ensure_ascii=False, separators=(",", ":"))
    call = {"function": {"name": "get_weather", "arguments": WEATHER_ARGS}}
    obj = {"model": model, "created_at": created_at(3),
           "message": {"role": "assistant", "content": "", "tool_calls": [call]}, "done": False}  # fmt: skip
    units.append(Unit(line(obj), "call", calls=(("whole", None, "get_weather", text),)))
    final = {"model": model, "created_at": created_at(4), "message": {"role": "assistant", "content": ""}}
    final.update(done_reason="stop", done=True, total_duration=2_311_402_917, eval_count=61)
    units.append(Unit(line(final), "terminal", finish="stop", terminal=True))
    return units


# ----------------------------------------------------------------------------------------------------------
# DashScope native (Qwen): `id:` / `event:result` / `:HTTP_STATUS/200` / `data:` with no space after the
# colons, LF; finish_reason the string "null" until "stop" or "length"; no [DONE]. With incremental_output
# false (the documented default) every event carries the whole text so far: what it adds is the unit's text.
# Zhipu GLM: Chat Completions chunks without "object", usage in the last chunk, then `data: [DONE]`.
# (docs/research/chinese_services.md)
# ----------------------------------------------------------------------------------------------------------

DASHSCOPE_ANSWER = (
    "你好", "，我是通义", "。Café", " au lait", " 与 naïve", " Ångström", "：第二行", "🙂", " 🚀", " 👩",
    "\u200d💻", " 完成。",
)  # fmt: skip
GLM_ANSWER = ("春天", "来了：", "Crème", " brûlée", " 与 naïve", " 的 Ångström", "🌸", " 👩\u200d🔬", " 完。")


def dashscope_units(seed: str, deltas: Sequence[str], *, finish: str = "stop") -> list[Unit]:
    """A cumulative stream (incremental_output false): event n carries the first n deltas joined; the last
    event, with the finish reason, repeats the whole answer ("the last output is the complete result")."""
    request_id = "-".join(fake_id(seed + part, n) for part, n in (("a", 8), ("b", 4), ("c", 4), ("d", 4)))
    request_id += "-" + fake_id(seed + "e", 12)

    def event(number: int, content: str, finish_reason: str, output_tokens: int) -> bytes:
        obj = {
            "output": {
                "choices": [
                    {"message": {"content": content, "role": "assistant"}, "finish_reason": finish_reason}
                ]
            },
            "usage": {
                "total_tokens": 11 + output_tokens,
                "output_tokens": output_tokens,
                "input_tokens": 11,
            },
            "request_id": request_id,
        }
        data = compact(obj, RAW)
        return f"id:{number}\nevent:result\n:HTTP_STATUS/200\ndata:{data}\n\n".encode()

    units, so_far = [], ""
    for number, delta in enumerate(deltas, 1):
        so_far += delta
        units.append(Unit(event(number, so_far, "null", number), "delta", text=delta))
    last = event(len(deltas) + 1, so_far, finish, len(deltas))
    units.append(Unit(last, "terminal", finish=finish, terminal=True))
    return units


def zhipu_units(seed: str, deltas: Sequence[str], *, finish: str = "stop") -> list[Unit]:
    """Zhipu's chunks: ``id``, ``created``, ``model``, ``choices`` (no ``object``); the last chunk has the
    finish reason and usage, then ``data: [DONE]``. ``network_error`` is a failure: no [DONE] is written
    after it (whether one follows is not documented; the verdict is the same either way)."""
    base = {"id": fake_id(seed, 20, "0123456789"), "created": 1767225600, "model": "glm-4.6"}

    def chunk(delta: dict, finish_reason: str | None = None, usage: dict | None = None) -> bytes:
        obj = dict(base)
        obj["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish_reason}]
        if usage is not None:
            obj["usage"] = usage
        return sse_event([("data", compact(obj, RAW))])

    units = [Unit(chunk({"content": delta}), "delta", text=delta) for delta in deltas]
    usage = {"prompt_tokens": 8, "completion_tokens": len(deltas), "total_tokens": 8 + len(deltas)}
    last = chunk({"role": "assistant", "content": ""}, finish, usage)
    if finish == "network_error":
        return [*units, Unit(last, "error", finish=finish, error=finish)]
    return [*units, Unit(last, "finish", finish=finish), Unit(b"data: [DONE]\n\n", "terminal", terminal=True)]


def add_chinese_service_captures(add: Callable[..., None]) -> None:
    """DashScope native (cumulative, the default) and Zhipu GLM (judged by openai-chat)."""
    c = "dashscope"
    add(
        c,
        "completed",
        dashscope_units("ds1", DASHSCOPE_ANSWER),
        "completed",
        "incremental_output false (the default): each event carries the whole text so far, the last one "
        "with finish_reason stop; a client that appends the events repeats the answer many times.",
    )
    add(
        c,
        "truncated_mid_character",
        dashscope_units("ds2", DASHSCOPE_ANSWER),
        "truncated",
        "The body stops after two of the four bytes of 🚀, in the event that first carries it.",
        lambda u: cut_in_character(u, "🚀", 2),
    )
    add(
        c,
        "truncated_mid_line",
        dashscope_units("ds3", DASHSCOPE_ANSWER),
        "truncated",
        "The body stops in the middle of a data line, before its usage object.",
        lambda u: cut_before(u, nth(u, "delta", 5), b'"usage"', "line"),
    )
    add(
        c,
        "truncated_mid_event",
        dashscope_units("ds4", DASHSCOPE_ANSWER),
        "truncated",
        "The data line of an event arrived, the blank line that would dispatch it did not.",
        lambda u: cut_before_blank_line(u, nth(u, "delta", 8), "\n"),
    )
    add(
        c,
        "truncated_clean_boundary",
        dashscope_units("ds5", DASHSCOPE_ANSWER),
        "truncated",
        'The body ends between two events while finish_reason is still the string "null": not an end.',
        lambda u: cut_between(u, nth(u, "delta", 7)),
    )
    add(
        c,
        "incomplete",
        dashscope_units("ds6", CUT_ANSWER, finish="length"),
        "incomplete",
        "The last event says finish_reason length (max_tokens reached) and carries the cut answer whole.",
    )
    c = "openai-chat"
    add(
        c,
        "zhipu_completed",
        zhipu_units("zp1", GLM_ANSWER),
        "completed",
        "Zhipu GLM: content deltas, a last chunk with finish_reason stop and usage, then data: [DONE].",
    )
    add(
        c,
        "zhipu_sensitive",
        zhipu_units("zp2", GLM_ANSWER, finish="sensitive"),
        "incomplete",
        "Zhipu GLM: the safety review stopped the answer (finish_reason sensitive), then data: [DONE]; the "
        "documentation asks the client to decide whether to withdraw the text it already showed.",
    )
    add(
        c,
        "zhipu_network_error",
        zhipu_units("zp3", GLM_ANSWER, finish="network_error"),
        "service_error",
        "Zhipu GLM: the last chunk says finish_reason network_error (the model's inference failed): a "
        "failure, not an end of the answer.",
    )
    add(
        c,
        "zhipu_truncated_mid_character",
        zhipu_units("zp4", GLM_ANSWER),
        "truncated",
        "Zhipu GLM: the body stops after three of the four bytes of 🌸.",
        lambda u: cut_in_character(u, "🌸", 3),
    )


# ----------------------------------------------------------------------------------------------------------
# Captures
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One capture to write: its units, where it is cut, and the outcome it is declared to have."""

    contract: str
    name: str
    units: list[Unit]
    outcome: str  # declared; checked against what the units and the cut imply
    description: str
    cut: Callable[[list[Unit]], Cut] | None = None


def result_of(spec: Spec) -> tuple[bytes, dict]:
    """The capture's bytes and its manifest entry, computed from the units alone."""
    units = spec.units
    if spec.cut is None:
        body = b"".join(u.data for u in units)
        complete, tail, truncated_at = list(units), b"", None
    else:
        cut = spec.cut(units)
        complete = list(units[: cut.index])
        tail = units[cut.index].data[: cut.partial]
        body = b"".join(u.data for u in complete) + tail
        truncated_at = cut.truncated_at
        assert not any(u.terminal or u.error or u.error_message for u in complete), "cut after the end"
    # Everything before an error counts; the error ends the answer.
    text_parts, finish, error_type, errored, terminal = [], None, None, False, False
    reasoning_parts: list[str] = []
    calls: list[dict] = []
    for unit in complete:
        if unit.error or unit.error_message:
            errored, error_type = True, unit.error
            finish = unit.finish or finish  # an error told as a finish reason (Zhipu's network_error)
            break
        text_parts.append(unit.text)
        reasoning_parts.append(unit.reasoning)
        apply_call_ops(calls, unit.calls)
        finish = unit.finish or finish
        terminal = terminal or unit.terminal
    if errored:
        outcome, truncated_at = "service_error", None
    elif terminal:
        outcome = "incomplete" if finish in INCOMPLETE_REASONS else "completed"
    else:
        outcome = "truncated"
    assert outcome == spec.outcome, (spec.contract, spec.name, outcome, spec.outcome)
    # In Gemini's SSE framing a finish reason is the only end signal; once one came on a chunk that more
    # chunks followed (older models: STOP on every chunk), a cut between two chunks looks like the end.
    chunk_kinds = ("delta", "finish", "error")
    reason_then_more = spec.contract == "gemini" and any(
        unit.finish and any(later.kind in chunk_kinds for later in complete[i + 1 :])
        for i, unit in enumerate(complete)
    )
    end_verified = outcome in ("completed", "incomplete") and not reason_then_more
    assert (outcome == "truncated") == (truncated_at is not None), (spec.name, truncated_at)
    extension = CONTRACTS[spec.contract]
    entry = {
        "file": f"{spec.contract}/{spec.name}.{extension}",
        "contract": spec.contract,
        "outcome": outcome,
        "truncated_at": truncated_at,
        "end_verified": end_verified,
        "text": "".join(text_parts),
        "finish_reason": finish,
        "error_type": error_type,
        "description": spec.description,
        "tool_calls": expected_tool_calls(calls),
        "reasoning_text": "".join(reasoning_parts),
    }
    _check(body, entry)
    return body, entry


def apply_call_ops(calls: list[dict], ops: Sequence[tuple]) -> None:
    """Apply one unit's tool-call operations to ``calls`` (in start order; each keeps its fragments)."""
    for op in ops:
        if op[0] == "start":
            calls.append({"key": op[1], "id": op[2], "name": op[3], "parts": [], "complete": False})
        elif op[0] == "whole":
            calls.append({"key": None, "id": op[1], "name": op[2], "parts": [op[3]], "complete": True})
        else:
            call = next(c for c in calls if c["key"] == op[1])
            assert not call["complete"], f"{op[0]} after the end of call {op[1]}"
            if op[0] == "delta":
                call["parts"].append(op[2])
            else:
                call["complete"] = True


def expected_tool_calls(calls: Sequence[dict]) -> list[dict]:
    """The manifest's account of each call: arguments only when the service closed it (the text parses)."""
    out = []
    for call in calls:
        text = "".join(call["parts"])
        arguments = json.loads(text) if call["complete"] else None
        out.append(
            {
                "id": call["id"],
                "name": call["name"],
                "arguments_text": text,
                "arguments": arguments,
                "complete": call["complete"],
            }
        )
    return out


def _check(body: bytes, entry: dict) -> None:
    """Sanity checks on the written bytes that do not need a stream parser."""
    name = entry["file"]
    if entry["truncated_at"] == "character":
        for held in (1, 2, 3):
            try:
                body[:-held].decode("utf-8")
            except UnicodeDecodeError:
                continue
            break
        else:
            raise AssertionError(f"{name}: no valid prefix")
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            raise AssertionError(f"{name}: does not end inside a character")
    else:
        body.decode("utf-8")
    if entry["contract"] == "gemini":
        bare = body.replace(b"\r\n", b"")
        assert b"\n" not in bare and b"\r" not in bare, f"{name}: bare LF or CR in a CRLF stream"
    elif name.endswith((".sse", ".ndjson")):
        assert b"\r" not in body, f"{name}: CR in an LF stream"
    if entry["contract"] != "openai-chat":
        # [DONE] is the Chat Completions wire format's sentinel; none of the other services here sends it.
        assert b"[DONE]" not in body, f"{name}: [DONE] in a stream of a service that does not send it"


def specs() -> list[Spec]:
    """Every capture, in manifest order."""
    out: list[Spec] = []

    def add(contract: str, name: str, units: list[Unit], outcome: str, description: str, cut=None) -> None:
        out.append(Spec(contract, name, units, outcome, description, cut))

    # --- openai-chat -------------------------------------------------------------------------------------
    c = "openai-chat"
    add(
        c,
        "completed",
        openai_chat_units("oc1", CHAT_ANSWER, escaped=RAW),
        "completed",
        "A normal answer: content deltas, a chunk with finish_reason stop, then data: [DONE].",
    )
    add(
        c,
        "completed_with_usage",
        openai_chat_units("oc2", CHAT_ANSWER, escaped=ESCAPED, include_usage=True),
        "completed",
        "With include_usage: after the finish_reason chunk a chunk with empty choices carries usage, then "
        "[DONE]; non-ASCII is written as \\u escapes.",
    )
    add(
        c,
        "truncated_mid_character",
        openai_chat_units("oc3", CHAT_ANSWER, escaped=RAW),
        "truncated",
        "The body stops after two of the three bytes of 第.",
        lambda u: cut_in_character(u, "第", 2),
    )
    add(
        c,
        "truncated_mid_line",
        openai_chat_units("oc4", CHAT_ANSWER, escaped=RAW),
        "truncated",
        "The body stops in the middle of a data line.",
        lambda u: cut_before(u, nth(u, "delta", 6), b'"logprobs"', "line"),
    )
    add(
        c,
        "truncated_mid_event",
        openai_chat_units("oc5", CHAT_ANSWER, escaped=ESCAPED),
        "truncated",
        "The last data line is complete but the blank line that would dispatch its event never came.",
        lambda u: cut_before_blank_line(u, nth(u, "delta", 9), "\n"),
    )
    add(
        c,
        "truncated_clean_boundary",
        openai_chat_units("oc6", CHAT_ANSWER, escaped=RAW),
        "truncated",
        "The body ends cleanly between two events, before any finish_reason: a clean EOF is not completion.",
        lambda u: cut_between(u, nth(u, "delta", 8)),
    )
    add(
        c,
        "truncated_before_done",
        openai_chat_units("oc7", CHAT_ANSWER, escaped=ESCAPED),
        "truncated",
        "The finish_reason chunk arrived but data: [DONE] did not: the stream is still truncated.",
        lambda u: cut_between(u, nth(u, "terminal", 0)),
    )
    add(
        c,
        "service_error",
        openai_chat_units("oc8", CHAT_ANSWER, escaped=RAW, error_after=6),
        "service_error",
        "After some output a data line carries a top-level error object, and no [DONE] follows.",
    )
    add(
        c,
        "heartbeats",
        openai_chat_units("oc9", CHAT_ANSWER, escaped=ESCAPED, heartbeats=True),
        "completed",
        "A complete answer with SSE comment lines (: ping, :keep-alive) between events.",
    )
    add(
        c,
        "incomplete",
        openai_chat_units("oc10", CUT_ANSWER, escaped=RAW, finish="length"),
        "incomplete",
        "The service stopped at its token limit: finish_reason length, then [DONE].",
    )

    # --- openai-responses --------------------------------------------------------------------------------
    c = "openai-responses"
    add(
        c,
        "completed",
        openai_responses_units("or1", RESPONSES_ANSWER, escaped=RAW),
        "completed",
        "A normal answer: output_text deltas, the done events, then response.completed.",
    )
    add(
        c,
        "truncated_mid_character",
        openai_responses_units("or2", RESPONSES_ANSWER, escaped=RAW),
        "truncated",
        "The body stops after three of the four bytes of 🚀.",
        lambda u: cut_in_character(u, "🚀", 3),
    )
    add(
        c,
        "truncated_mid_line",
        openai_responses_units("or3", RESPONSES_ANSWER, escaped=RAW),
        "truncated",
        "The body stops in the middle of the data line of a delta event.",
        lambda u: cut_before(u, nth(u, "delta", 5), b'"logprobs"', "line"),
    )
    add(
        c,
        "truncated_mid_event",
        openai_responses_units("or4", RESPONSES_ANSWER, escaped=ESCAPED),
        "truncated",
        "The event and data lines of a delta arrived, but not the blank line that ends the event.",
        lambda u: cut_before_blank_line(u, nth(u, "delta", 8), "\n"),
    )
    add(
        c,
        "truncated_clean_boundary",
        openai_responses_units("or5", RESPONSES_ANSWER, escaped=RAW),
        "truncated",
        "The body ends cleanly after response.output_text.done, before response.completed.",
        lambda u: cut_between(u, nth(u, "terminal", 0) - 2),
    )
    add(
        c,
        "service_error",
        openai_responses_units("or6", RESPONSES_ANSWER[:7], escaped=RAW, ending="error_flat"),
        "service_error",
        "After some output an error event arrives in the documented flat shape.",
    )
    add(
        c,
        "service_error_nested",
        openai_responses_units("or7", RESPONSES_ANSWER[:7], escaped=ESCAPED, ending="error_nested"),
        "service_error",
        "After some output an error event arrives in the observed nested shape.",
    )
    add(
        c,
        "failed",
        openai_responses_units("or8", RESPONSES_ANSWER[:6], escaped=ESCAPED, ending="failed"),
        "service_error",
        "The terminal event is response.failed, whose response.error says what went wrong.",
    )
    add(
        c,
        "heartbeats",
        openai_responses_units("or9", RESPONSES_ANSWER, escaped=ESCAPED, heartbeats=True),
        "completed",
        "A complete answer with undocumented keepalive events and SSE comments mixed in.",
    )
    add(
        c,
        "incomplete",
        openai_responses_units("or10", CUT_ANSWER, escaped=RAW, ending="incomplete"),
        "incomplete",
        "The terminal event is response.incomplete with reason max_output_tokens.",
    )

    # --- anthropic-messages ------------------------------------------------------------------------------
    c = "anthropic-messages"
    add(
        c,
        "completed",
        anthropic_units("am1", [ANTHROPIC_ANSWER], escaped=RAW),
        "completed",
        "A normal answer: one text block, message_delta with stop_reason end_turn, then message_stop.",
    )
    add(
        c,
        "completed_two_blocks",
        anthropic_units(
            "am2", [ANTHROPIC_ANSWER, ANTHROPIC_SECOND_BLOCK], escaped=ESCAPED, unknown_event=True
        ),
        "completed",
        "Two text blocks whose texts join into the answer, and an unknown event type to skip.",
    )
    add(
        c,
        "truncated_mid_character",
        anthropic_units("am3", [ANTHROPIC_ANSWER], escaped=RAW),
        "truncated",
        "The body stops after two of the four bytes of 🙂.",
        lambda u: cut_in_character(u, "🙂", 2),
    )
    add(
        c,
        "truncated_mid_line",
        anthropic_units("am4", [ANTHROPIC_ANSWER], escaped=RAW),
        "truncated",
        "The body stops in the middle of the data line of a content_block_delta.",
        lambda u: cut_before(u, nth(u, "delta", 4), b'"delta"', "line"),
    )
    add(
        c,
        "truncated_mid_event",
        anthropic_units("am5", [ANTHROPIC_ANSWER], escaped=RAW),
        "truncated",
        "The event and data lines of a delta arrived, but not the blank line that ends the event.",
        lambda u: cut_before_blank_line(u, nth(u, "delta", 7), "\n"),
    )
    add(
        c,
        "truncated_clean_boundary",
        anthropic_units("am6", [ANTHROPIC_ANSWER], escaped=ESCAPED),
        "truncated",
        "The body ends cleanly after content_block_stop: no message_delta, no message_stop.",
        lambda u: cut_between(u, nth(u, "finish", 0)),
    )
    add(
        c,
        "service_error",
        anthropic_units("am7", [ANTHROPIC_ANSWER], escaped=RAW, error_after=6),
        "service_error",
        "After some output an error event says overloaded_error.",
    )
    add(
        c,
        "heartbeats",
        anthropic_units("am8", [ANTHROPIC_ANSWER], escaped=ESCAPED, heartbeats=True),
        "completed",
        "A complete answer with ping events and SSE comment lines mixed in.",
    )
    add(
        c,
        "incomplete",
        anthropic_units("am9", [CUT_ANSWER], escaped=RAW, stop_reason="max_tokens"),
        "incomplete",
        "message_delta says stop_reason max_tokens, then message_stop: the answer was cut.",
    )

    # --- gemini (alt=sse) --------------------------------------------------------------------------------
    c = "gemini"
    add(
        c,
        "completed",
        gemini_sse_units(gemini_chunks("gs1", GEMINI_ANSWER), escaped=RAW),
        "completed",
        "A normal answer over alt=sse with CRLF line endings; the last chunk carries finishReason STOP.",
    )
    add(
        c,
        "completed_stop_every_chunk",
        gemini_sse_units(gemini_chunks("gs2", GEMINI_ANSWER, stop_every_chunk=True), escaped=ESCAPED),
        "completed",
        "An older model puts finishReason STOP on every chunk; the answer is every chunk's text.",
    )
    add(
        c,
        "truncated_mid_character",
        gemini_sse_units(gemini_chunks("gs3", GEMINI_ANSWER), escaped=RAW),
        "truncated",
        "The body stops after one of the three bytes of 行.",
        lambda u: cut_in_character(u, "行", 1),
    )
    add(
        c,
        "truncated_mid_line",
        gemini_sse_units(gemini_chunks("gs4", GEMINI_ANSWER), escaped=ESCAPED),
        "truncated",
        "The body stops in the middle of a data line.",
        lambda u: cut_before(u, nth(u, "delta", 3), b'"role"', "line"),
    )
    add(
        c,
        "truncated_mid_event",
        gemini_sse_units(gemini_chunks("gs5", GEMINI_ANSWER), escaped=RAW),
        "truncated",
        "A data line ends with CRLF but the blank line that would dispatch its event never came.",
        lambda u: cut_before_blank_line(u, nth(u, "delta", 4), "\r\n"),
    )
    add(
        c,
        "truncated_clean_boundary",
        gemini_sse_units(gemini_chunks("gs6", GEMINI_ANSWER), escaped=RAW),
        "truncated",
        "The body ends cleanly between events, before a chunk with a finishReason.",
        lambda u: cut_between(u, nth(u, "delta", 5)),
    )
    add(
        c,
        "service_error",
        gemini_sse_units(gemini_chunks("gs7", GEMINI_ANSWER, error_after=4), escaped=RAW),
        "service_error",
        "After some output a data line carries an error object with status UNAVAILABLE.",
    )
    add(
        c,
        "heartbeats",
        gemini_sse_units(gemini_chunks("gs8", GEMINI_ANSWER), escaped=ESCAPED, heartbeats=True),
        "completed",
        "A complete answer with SSE comment lines (as a proxy might add) between events.",
    )
    add(
        c,
        "incomplete",
        gemini_sse_units(gemini_chunks("gs9", GEMINI_CUT_ANSWER, finish="MAX_TOKENS"), escaped=RAW),
        "incomplete",
        "The last chunk says finishReason MAX_TOKENS: the answer was cut.",
    )
    add(
        c,
        "incomplete_safety",
        gemini_sse_units(gemini_chunks("gs10", GEMINI_CUT_ANSWER, finish="SAFETY"), escaped=ESCAPED),
        "incomplete",
        "A last chunk without content says finishReason SAFETY: the answer was blocked midway.",
    )

    # --- gemini-json-array -------------------------------------------------------------------------------
    c = "gemini-json-array"
    add(
        c,
        "completed",
        gemini_array_units(gemini_chunks("ga1", GEMINI_ARRAY_ANSWER), escaped=RAW),
        "completed",
        "A normal answer as one growing pretty-printed JSON array, closed by ].",
    )
    add(
        c,
        "truncated_mid_character",
        gemini_array_units(gemini_chunks("ga2", GEMINI_ARRAY_ANSWER), escaped=RAW),
        "truncated",
        "The body stops after three of the four bytes of 💻.",
        lambda u: cut_in_character(u, "💻", 3),
    )
    add(
        c,
        "truncated_mid_event",
        gemini_array_units(gemini_chunks("ga3", GEMINI_ARRAY_ANSWER), escaped=RAW),
        "truncated",
        "The body stops inside an array element.",
        lambda u: cut_before(u, nth(u, "delta", 3), b'"role"', "event"),
    )
    add(
        c,
        "truncated_clean_boundary",
        gemini_array_units(gemini_chunks("ga4", GEMINI_ARRAY_ANSWER), escaped=ESCAPED),
        "truncated",
        "The body ends right after a complete element, with the array still open and no finishReason.",
        lambda u: cut_between(u, nth(u, "delta", 4) + 1),
    )
    add(
        c,
        "service_error",
        gemini_array_units(gemini_chunks("ga5", GEMINI_ARRAY_ANSWER, error_after=3), escaped=RAW),
        "service_error",
        "After some output the error object arrives as an array element, then ].",
    )
    add(
        c,
        "incomplete",
        gemini_array_units(gemini_chunks("ga6", GEMINI_CUT_ANSWER, finish="MAX_TOKENS"), escaped=ESCAPED),
        "incomplete",
        "The last element says finishReason MAX_TOKENS and the array is closed.",
    )

    # --- ollama ------------------------------------------------------------------------------------------
    c = "ollama"
    add(
        c,
        "completed",
        ollama_units("ol1", OLLAMA_ANSWER, escaped=RAW),
        "completed",
        "A normal /api/chat answer, one JSON object per line, the last with done true and done_reason stop.",
    )
    add(
        c,
        "truncated_mid_character",
        ollama_units("ol2", OLLAMA_ANSWER, escaped=RAW),
        "truncated",
        "The body stops after two of the three bytes of 行.",
        lambda u: cut_in_character(u, "行", 2),
    )
    add(
        c,
        "truncated_mid_line",
        ollama_units("ol3", OLLAMA_ANSWER, escaped=RAW),
        "truncated",
        "The body stops in the middle of a JSON line: half a line is not an object (in NDJSON the line is "
        "the event, so the innermost unfinished unit is the line).",
        lambda u: cut_before(u, nth(u, "delta", 9), b'"done"', "line"),
    )
    add(
        c,
        "truncated_clean_boundary",
        ollama_units("ol4", OLLAMA_ANSWER, escaped=ESCAPED),
        "truncated",
        "The body ends after a complete line, before any line with done true; non-ASCII as \\u escapes, as "
        "a re-encoding proxy would send it.",
        lambda u: cut_between(u, nth(u, "delta", 10)),
    )
    add(
        c,
        "service_error",
        ollama_units("ol5", OLLAMA_ANSWER, escaped=ESCAPED, error_after=9),
        "service_error",
        'After some output a line {"error": ...} arrives while the HTTP status stays 200.',
    )
    add(
        c,
        "incomplete",
        ollama_units("ol6", CUT_ANSWER, escaped=RAW, done_reason="length"),
        "incomplete",
        "The last line says done true with done_reason length: the answer was cut.",
    )
    add_value_captures(add)
    add_chinese_service_captures(add)
    return out


def call_unit(units: Sequence[Unit], needle: str) -> int:
    """Index of the first unit that carries an arguments fragment containing ``needle``."""
    for i, unit in enumerate(units):
        if any(op[0] == "delta" and needle in op[2] for op in unit.calls):
            return i
    raise AssertionError(f"no fragment carries {needle!r}")


def reasoning_unit(units: Sequence[Unit], needle: str) -> int:
    """Index of the first unit whose reasoning text contains ``needle``."""
    return next(i for i, unit in enumerate(units) if needle in unit.reasoning)


def add_value_captures(add: Callable[..., None]) -> None:
    """Tool calls and reasoning, per service, each with truncated variants (cut inside a fragment, between
    fragments, after the call closed but before the stream did)."""
    parallel = [("get_weather", WEATHER_FRAGMENTS), ("send_message", MESSAGE_FRAGMENTS)]
    c = "openai-chat"
    add(
        c,
        "tools_parallel",
        openai_chat_tool_units("ot1", parallel, escaped=RAW),
        "completed",
        "Two parallel tool calls whose arguments fragments interleave by index; one carries raw Chinese, the "
        "other \\u escapes cut mid-escape and a surrogate pair split between two fragments; [DONE] closes "
        "both.",
    )
    add(
        c,
        "tools_parallel_escaped",
        openai_chat_tool_units("ot2", parallel, escaped=ESCAPED),
        "completed",
        "The same two calls with the event JSON written with \\u escapes: arguments text that is JSON "
        "inside a JSON string.",
    )
    add(
        c,
        "tools_truncated_mid_fragment",
        openai_chat_tool_units("ot3", parallel, escaped=RAW),
        "truncated",
        "The body stops inside the data line of an arguments fragment, in the middle of the escape \\u597d.",
        lambda u: cut_before(u, call_unit(u, "597d"), b"597d", "line"),
    )
    add(
        c,
        "tools_truncated_mid_character",
        openai_chat_tool_units("ot4", parallel, escaped=RAW),
        "truncated",
        "The body stops after two of the three bytes of 京 inside an arguments fragment.",
        lambda u: cut_in_bytes(u, call_unit(u, "京"), "京", 2),
    )
    add(
        c,
        "tools_truncated_between_fragments",
        openai_chat_tool_units("ot5", parallel, escaped=ESCAPED),
        "truncated",
        "The body ends cleanly between two fragments: the high half of a surrogate pair arrived, the low "
        "half did not; both calls stay open.",
        lambda u: cut_between(u, call_unit(u, "ude80")),
    )
    add(
        c,
        "tools_truncated_before_done",
        openai_chat_tool_units("ot6", parallel, escaped=RAW),
        "truncated",
        "finish_reason tool_calls arrived but data: [DONE] did not: every fragment is there, yet no call is "
        "closed.",
        lambda u: cut_between(u, nth(u, "terminal", 0)),
    )
    add(
        c,
        "reasoning_deepseek",
        openai_chat_reasoning_units("ot7", escaped=RAW),
        "completed",
        "A DeepSeek-style OpenAI-compatible stream: delta.reasoning_content, then delta.content, after "
        ": keep-alive comments; the reasoning is not the answer.",
    )
    add(
        c,
        "reasoning_truncated",
        openai_chat_reasoning_units("ot8", escaped=ESCAPED),
        "truncated",
        "The body ends after the reasoning, before any answer text: reasoning is no answer.",
        lambda u: cut_between(u, nth(u, "delta", 0)),
    )

    c = "openai-responses"
    add(
        c,
        "tools_completed",
        openai_responses_tool_units("rt1", escaped=RAW),
        "completed",
        "A reasoning item with summary text deltas, then a function_call item: output_item.added, "
        "function_call_arguments.delta, .done, output_item.done, then response.completed.",
    )
    add(
        c,
        "tools_truncated_mid_character",
        openai_responses_tool_units("rt2", escaped=RAW),
        "truncated",
        "The body stops after one of the three bytes of 北 inside an arguments delta.",
        lambda u: cut_in_bytes(u, call_unit(u, "北"), "北", 1),
    )
    add(
        c,
        "tools_truncated_mid_fragment",
        openai_responses_tool_units("rt3", escaped=ESCAPED),
        "truncated",
        "The body stops inside the data line of the last arguments delta.",
        lambda u: cut_before(u, call_unit(u, "sius"), b"sius", "line"),
    )
    add(
        c,
        "tools_truncated_after_arguments_done",
        openai_responses_tool_units("rt4", escaped=RAW),
        "truncated",
        "The call was closed (function_call_arguments.done, output_item.done), but response.completed never "
        "came.",
        lambda u: cut_between(u, nth(u, "terminal", 0)),
    )

    c = "anthropic-messages"
    add(
        c,
        "tools_thinking",
        anthropic_tool_units("at1", escaped=RAW),
        "completed",
        "A thinking block (thinking_delta, then signature_delta), a text block, then a tool_use block whose "
        "input_json_delta fragments cut Chinese and a surrogate pair; stop_reason tool_use.",
    )
    add(
        c,
        "tools_thinking_escaped",
        anthropic_tool_units("at2", escaped=ESCAPED),
        "completed",
        "The same stream with the event JSON written with \\u escapes.",
    )
    add(
        c,
        "tools_truncated_mid_fragment",
        anthropic_tool_units("at3", escaped=RAW),
        "truncated",
        "The body stops inside the data line of an input_json_delta, in the middle of its partial_json.",
        lambda u: cut_before(u, call_unit(u, "Zürich"), b"rich", "line"),
    )
    add(
        c,
        "tools_truncated_mid_character",
        anthropic_tool_units("at4", escaped=RAW),
        "truncated",
        "The body stops after two of the three bytes of 黎 inside a partial_json fragment.",
        lambda u: cut_in_bytes(u, call_unit(u, "苏黎"), "黎", 2),
    )
    add(
        c,
        "tools_truncated_between_fragments",
        anthropic_tool_units("at5", escaped=ESCAPED),
        "truncated",
        "The body ends cleanly between two input_json_delta events, between the halves of a surrogate pair.",
        lambda u: cut_between(u, call_unit(u, "udf27")),
    )
    add(
        c,
        "tools_truncated_after_block_stop",
        anthropic_tool_units("at6", escaped=RAW),
        "truncated",
        "content_block_stop closed the tool_use block, then the body ended: the call is whole, the message "
        "is not.",
        lambda u: cut_between(u, nth(u, "finish", 0)),
    )
    add(
        c,
        "tools_truncated_before_message_stop",
        anthropic_tool_units("at7", escaped=ESCAPED),
        "truncated",
        "message_delta said stop_reason tool_use, but message_stop never came.",
        lambda u: cut_between(u, nth(u, "terminal", 0)),
    )
    add(
        c,
        "thinking_truncated_mid_character",
        anthropic_tool_units("at8", escaped=RAW),
        "truncated",
        "The body stops after one of the three bytes of 黎 inside a thinking_delta: no answer text yet.",
        lambda u: cut_in_bytes(u, reasoning_unit(u, "苏黎世"), "黎", 1),
    )

    c = "gemini"
    add(
        c,
        "tools_thought",
        gemini_tool_units("gt1", escaped=RAW, array=False),
        "completed",
        "A thought part (thought summaries on), a text part, then a whole functionCall part with "
        "finishReason STOP.",
    )
    add(
        c,
        "tools_truncated_mid_line",
        gemini_tool_units("gt2", escaped=RAW, array=False),
        "truncated",
        "The body stops inside the data line of the chunk carrying the functionCall.",
        lambda u: cut_before(u, nth(u, "finish", 0), b'"args"', "line"),
    )
    add(
        c,
        "tools_truncated_after_thought",
        gemini_tool_units("gt3", escaped=ESCAPED, array=False),
        "truncated",
        "The body ends cleanly after the thought chunk: reasoning arrived, no answer and no call.",
        lambda u: cut_between(u, 1),
    )

    c = "gemini-json-array"
    add(
        c,
        "tools_thought",
        gemini_tool_units("gat1", escaped=ESCAPED, array=True),
        "completed",
        "The thought, text and functionCall chunks as one growing JSON array, closed by ].",
    )
    add(
        c,
        "tools_truncated_mid_event",
        gemini_tool_units("gat2", escaped=RAW, array=True),
        "truncated",
        "The body stops inside the array element carrying the functionCall.",
        lambda u: cut_before(u, nth(u, "finish", 0), b'"args"', "event"),
    )

    c = "ollama"
    add(
        c,
        "tools_thinking",
        ollama_tool_units("olt1", escaped=RAW),
        "completed",
        "message.thinking lines, a line whose message.tool_calls carries a whole call (arguments an object), "
        "then done true.",
    )
    add(
        c,
        "tools_truncated_mid_line",
        ollama_tool_units("olt2", escaped=RAW),
        "truncated",
        "The body stops in the middle of the line carrying message.tool_calls.",
        lambda u: cut_before(u, nth(u, "call", 0), b'"arguments"', "line"),
    )
    add(
        c,
        "tools_truncated_before_done",
        ollama_tool_units("olt3", escaped=ESCAPED),
        "truncated",
        "The tool_calls line arrived whole, the done line did not: the call is whole, the answer is not.",
        lambda u: cut_between(u, nth(u, "terminal", 0)),
    )


# ----------------------------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------------------------


def manifest_bytes(entries: Sequence[dict]) -> bytes:
    """The manifest as JSON: readable UTF-8, but the invisible line separators escaped."""
    text = json.dumps({"captures": list(entries)}, ensure_ascii=False, indent=2) + "\n"
    for char in ("\u2028", "\u2029", "\u0085"):
        text = text.replace(char, f"\\u{ord(char):04x}")  # these only occur inside JSON strings
    return text.encode("utf-8")


def render() -> dict[str, bytes]:
    """Every output file (path relative to data/, forward slashes) and its exact bytes."""
    files: dict[str, bytes] = {}
    entries = []
    for spec in specs():
        body, entry = result_of(spec)
        assert entry["file"] not in files, entry["file"]
        files[entry["file"]] = body
        entries.append(entry)
    files["manifest.json"] = manifest_bytes(entries)
    return files


def build(out_dir: str | Path) -> list[dict]:
    """Write every capture and ``manifest.json`` under ``out_dir``; return the manifest entries."""
    out = Path(out_dir)
    files = render()
    for relative, data in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return json.loads(files["manifest.json"])["captures"]


def check(out_dir: str | Path) -> list[str]:
    """Names of files under ``out_dir`` that are missing or differ from what ``build`` would write."""
    out = Path(out_dir)
    return [
        rel for rel, data in render().items() if not (out / rel).is_file() or (out / rel).read_bytes() != data
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent), help="output directory")
    parser.add_argument("--check", action="store_true", help="verify the files instead of writing them")
    args = parser.parse_args(argv)
    if args.check:
        stale = check(args.out)
        for name in stale:
            print(f"differs or missing: {name}", file=sys.stderr)
        return 1 if stale else 0
    entries = build(args.out)
    print(f"wrote {len(entries)} captures and manifest.json to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
