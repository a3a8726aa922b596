"""The catalogue's Anthropic Messages entries (``anthropic-messages``), for the official ``anthropic`` SDK
(``Anthropic(base_url=".../faults/<name>")``)."""

from __future__ import annotations

from .entry import at_kind, at_piece, entry, index_of
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
    mid_line_and_event,
    read_cuts,
    stall,
    whole,
)
from .wire_anthropic import AnthropicWire

__all__ = ["ANTHROPIC"]

anthropic = AnthropicWire()
#: Text sent after the terminal signal.
EXTRA = (" 多余的尾巴",)

ANTHROPIC: tuple[Fault, ...] = (
    entry("anthropic-control", anthropic, "04", "a whole stream, nothing wrong: the control",
          control(anthropic)),
    entry("anthropic-cut-inside-characters", anthropic, "01",
          "read boundaries inside a 2-, a 3- and a 4-byte character (ï, 你, 🙂); the stream is whole",
          read_cuts(anthropic, in_characters("ï", "你", "🙂"))),
    entry("anthropic-reads-cut-mid-line-and-event", anthropic, "03",
          "every text event read in three pieces: mid-line, then before its blank line; the stream is whole",
          read_cuts(anthropic, mid_line_and_event(anthropic))),
    entry("anthropic-cr-and-lf-in-different-reads", anthropic, "02",
          "CRLF line endings, each CR and its LF in different reads; the stream is whole",
          read_cuts(anthropic, between_cr_and_lf, eol="\r\n")),
    entry("anthropic-eof-mid-event", anthropic, "03",
          "the body ends after an event's lines, before the blank line that would dispatch it",
          ends_early(anthropic, anthropic.answer, at_piece(" Ångström fan."), "event")),
    entry("anthropic-eof-before-message-stop", anthropic, "04",
          'message_delta with stop_reason "end_turn" came, then the body ended before message_stop',
          ends_early(anthropic, anthropic.answer, at_kind("terminal"))),
    entry("anthropic-duplicated-message-stop", anthropic, "04",
          "message_stop sent twice",
          whole(anthropic, lambda call: anthropic.answer(call, repeat_terminal=True), "completed")),
    entry("anthropic-events-after-message-stop", anthropic, "04",
          "a text_delta after message_stop: not part of the answer",
          whole(anthropic, lambda call: anthropic.answer(call, after_terminal=EXTRA), "completed")),
    entry("anthropic-overloaded-error", anthropic, "04",
          "after 200 OK and some text, event: error with overloaded_error",
          whole(anthropic, lambda call: anthropic.answer(call, error_after=5), "service_error")),
    entry("anthropic-error-status", anthropic, "04",
          "HTTP 529 with the API's JSON error body (overloaded_error) instead of a stream",
          error_status(anthropic)),
    entry("anthropic-max-tokens", anthropic, "04",
          'stop_reason "max_tokens", then message_stop: the service ended a cut answer',
          cut_answer(anthropic)),
    entry("anthropic-invalid-utf8", anthropic, "01",
          "a byte 0xFF inside a text_delta: not UTF-8",
          invalid_utf8(anthropic, " Ångström fan.")),
    entry("anthropic-gzip", anthropic, "10",
          "Content-Encoding: gzip, each read compressed with a sync flush, whatever Accept-Encoding says",
          whole(anthropic, anthropic.answer, "completed", gzip=True)),
    entry("anthropic-reset-mid-event", anthropic, "06",
          "the connection is reset (RST) in the middle of an event's data line",
          ends_early(anthropic, anthropic.answer, at_piece(" 🚀"), "line", end="reset")),
    entry("anthropic-tool-input-cut-mid-fragment", anthropic, "09",
          "a tool_use block's input_json_delta: the body ends inside the event of a fragment",
          ends_early(anthropic, anthropic.tool_call, at_kind("call", 3), "line")),
    entry("anthropic-tool-input-cut-between-fragments", anthropic, "09",
          "a tool_use block: the body ends cleanly between two input_json_delta fragments",
          ends_early(anthropic, anthropic.tool_call, at_kind("call", 3))),
    entry("anthropic-thinking-without-text", anthropic, "09",
          'a thinking block only, then stop_reason "max_tokens": no answer text',
          whole(anthropic, anthropic.reasoning, "incomplete")),
    entry("anthropic-pings-only", anthropic, "05",
          "ping events only, every 0.2 s for 2 s, then the server's cap ends the body",
          heartbeats(anthropic)),
    entry("anthropic-pings-while-stalled", anthropic, "05",
          "half an answer, then only ping events for 2 s, then the body ends",
          heartbeats(anthropic, index_of(anthropic, at_piece(" 第二行：")))),
    entry("anthropic-stall", anthropic, "08",
          "1.5 s of silence mid-answer (longer than a 1 s idle timeout), then the rest",
          stall(anthropic, index_of(anthropic, at_piece(" 第二行：")))),
)  # fmt: skip
