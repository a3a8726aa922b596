"""The catalogue's other entries: Gemini (SSE and the JSON array), Ollama (NDJSON) and MCP Streamable HTTP."""

from __future__ import annotations

from .entry import at_kind, at_piece, entry
from .fault import Fault
from .recipes import (
    between_cr_and_lf,
    control,
    cut_answer,
    ends_early,
    error_status,
    heartbeats,
    in_characters,
    invalid_utf8,
    read_cuts,
    resumable_mcp,
    whole,
)
from .wire_gemini import GeminiArrayWire, GeminiWire
from .wire_mcp import MCPWire
from .wire_ollama import OllamaWire

__all__ = ["GEMINI", "GEMINI_JSON_ARRAY", "MCP", "OLLAMA"]

gemini = GeminiWire()
array = GeminiArrayWire()
ollama = OllamaWire()
mcp = MCPWire()

FOUR_BYTES = in_characters("🙂", "🚀", "👩", "💻")

GEMINI: tuple[Fault, ...] = (
    entry("gemini-control", gemini, "04", "a whole stream, nothing wrong: the control", control(gemini)),
    entry("gemini-cut-in-4-byte-character", gemini, "01",
          "read boundaries inside 4-byte characters (🙂, 🚀, 👩, 💻); the stream is whole",
          read_cuts(gemini, FOUR_BYTES)),
    entry("gemini-cr-and-lf-in-different-reads", gemini, "02",
          "Gemini's CRLF line endings, each CR and its LF in different reads; the stream is whole",
          read_cuts(gemini, between_cr_and_lf)),
    entry("gemini-eof-mid-line", gemini, "03",
          "the body ends in the middle of a data line",
          ends_early(gemini, gemini.answer, at_piece(" Ångström fan."), "line")),
    entry("gemini-eof-before-finish-reason", gemini, "04",
          "a clean end of body after a chunk without finishReason: no chunk said the answer was done",
          ends_early(gemini, gemini.answer, at_kind("terminal"))),
    entry("gemini-error-chunk", gemini, "04",
          "after 200 OK and some text, a data line with an error object (503 UNAVAILABLE)",
          whole(gemini, lambda call: gemini.answer(call, error_after=6), "service_error")),
    entry("gemini-error-status", gemini, "04",
          "HTTP 503 with the API's JSON error body (UNAVAILABLE) instead of a stream",
          error_status(gemini)),
    entry("gemini-max-tokens", gemini, "04",
          'finishReason "MAX_TOKENS" on the last chunk: the service ended a cut answer',
          cut_answer(gemini)),
    entry("gemini-invalid-utf8", gemini, "01",
          "a byte 0xFF inside a chunk's text: not UTF-8",
          invalid_utf8(gemini, " for a naïve")),
    entry("gemini-thought-without-text", gemini, "09",
          'parts with "thought": true only, then finishReason "MAX_TOKENS": no answer text',
          whole(gemini, gemini.reasoning, "incomplete")),
)  # fmt: skip

GEMINI_JSON_ARRAY: tuple[Fault, ...] = (
    entry("gemini-json-array-control", array, "04", "a whole array, nothing wrong: the control",
          control(array)),
    entry("gemini-json-array-cut-in-4-byte-character", array, "01",
          "read boundaries inside 4-byte characters (🙂, 🚀, 👩, 💻); the array is whole",
          read_cuts(array, FOUR_BYTES)),
    entry("gemini-json-array-eof-mid-element", array, "03",
          "the body ends in the middle of an array element",
          ends_early(array, array.answer, at_piece(" Ångström fan."), "line")),
    entry("gemini-json-array-eof-before-bracket", array, "04",
          "every element, the last with finishReason STOP, but the body ends before the closing ]",
          ends_early(array, array.answer, at_kind("terminal"))),
    entry("gemini-json-array-error-element", array, "04",
          "after some text, an error object as the next array element (503 UNAVAILABLE)",
          whole(array, lambda call: array.answer(call, error_after=6), "service_error")),
)  # fmt: skip

OLLAMA: tuple[Fault, ...] = (
    entry("ollama-control", ollama, "04", "a whole stream, nothing wrong: the control", control(ollama)),
    entry("ollama-cut-in-4-byte-character", ollama, "01",
          "read boundaries inside 4-byte characters (🙂, 🚀, 👩, 💻); the stream is whole",
          read_cuts(ollama, FOUR_BYTES)),
    entry("ollama-eof-mid-line", ollama, "03",
          "the body ends in the middle of a line (half a JSON object)",
          ends_early(ollama, ollama.answer, at_piece(" Ångström fan."), "line")),
    entry("ollama-eof-before-done", ollama, "04",
          'a clean end of body at a line end, before the object with "done": true',
          ends_early(ollama, ollama.answer, at_kind("terminal"))),
    entry("ollama-events-after-done", ollama, "04",
          'a content line after the object with "done": true: not part of the answer',
          whole(ollama, lambda call: ollama.answer(call, after_terminal=(" 多余的尾巴",)), "completed")),
    entry("ollama-error-line", ollama, "04",
          'after 200 OK and some text, a line {"error": ...}',
          whole(ollama, lambda call: ollama.answer(call, error_after=6), "service_error")),
    entry("ollama-error-status", ollama, "04",
          'HTTP 500 with {"error": ...} instead of a stream',
          error_status(ollama)),
    entry("ollama-done-reason-length", ollama, "04",
          '"done": true with done_reason "length": the service ended a cut answer',
          cut_answer(ollama)),
    entry("ollama-invalid-utf8", ollama, "01",
          "a byte 0xFF inside a line's text: not UTF-8",
          invalid_utf8(ollama, " for a naïve")),
    entry("ollama-thinking-without-text", ollama, "09",
          'message.thinking only, then done_reason "length": no answer text',
          whole(ollama, ollama.reasoning, "incomplete")),
)  # fmt: skip

MCP: tuple[Fault, ...] = (
    entry("mcp-control", mcp, "04",
          "tools/call of the tool answer: priming event, progress, the response; nothing wrong",
          control(mcp)),
    entry("mcp-cut-in-4-byte-character", mcp, "01",
          "read boundaries inside 4-byte characters of the response (🙂, 🚀, 👩, 💻); the stream is whole",
          read_cuts(mcp, FOUR_BYTES)),
    entry("mcp-eof-mid-response", mcp, "03",
          "the body ends after the response event's lines, before its blank line; no resumption offered",
          ends_early(mcp, mcp.answer, at_kind("terminal"), "event")),
    entry("mcp-resumable-close-before-response", mcp, "08",
          "the server closes the stream before the response; GET with Last-Event-ID answers the rest",
          resumable_mcp(mcp, "clean")),
    entry("mcp-resumable-reset-mid-response", mcp, "08",
          "the connection is reset inside the response event; GET with Last-Event-ID answers the rest",
          resumable_mcp(mcp, "reset")),
    entry("mcp-json-rpc-error", mcp, "04",
          "the request is answered with a JSON-RPC error (-32603), not a result",
          whole(mcp, lambda call: mcp.answer(call, error_after=0), "service_error")),
    entry("mcp-tool-error", mcp, "09",
          "the tool failed: a result with isError true",
          whole(mcp, mcp.tool_error, "service_error")),
    entry("mcp-keepalive-only", mcp, "05",
          "the priming event, then SSE comments only for 2 s, then the server's cap ends the body",
          heartbeats(mcp, 1)),
)  # fmt: skip
