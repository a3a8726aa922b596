"""The names the committed benchmark run gives its streams, parsers and same-events verdict, in the
learner's language (lesson 07 prints them from ``benchmarks/results/peers.md``).

The run writes its names in English; a library's own name (``httpx-sse``, ``sseclient-py``, ...) is an
identifier and stays as it is; every other name must be one this module knows, so a renamed stream or a new
verdict fails here (``KeyError``) instead of reaching a Chinese lesson in English.
"""

from __future__ import annotations

from ..i18n import text

__all__ = ["bench_name"]

#: The names that are identifiers (a package's or this library's name), the same in every language.
_IDENTIFIERS = frozenset({"lesson_lib", "httpx-sse", "openai", "sseclient-py"})
#: Each other name the run writes -> the key of its words in the catalogue (``bench.*``).
_KEYS = {
    "OpenAI chat": "stream.openai_chat",
    "Anthropic messages": "stream.anthropic_messages",
    "heartbeats": "stream.heartbeats",
    "id on every event": "stream.id_on_every_event",
    "Gemini CRLF": "stream.gemini_crlf",
    "200 KiB tool calls": "stream.long_tool_calls",
    "event, id and data": "stream.event_id_and_data",
    "Gemini CRLF, event and id": "stream.gemini_crlf_event_and_id",
    "lesson_lib, feed per read": "parser.feed_per_read",
    "lesson_lib reference": "parser.reference",
    "naive loop": "parser.naive_loop",
    "lines-only baseline": "parser.lines_only_baseline",
    "every parser agrees": "verdict.every_parser_agrees",
}


def bench_name(name: str) -> str:
    """``name`` (a stream, a parser or the verdict of the committed run) in the current language. Raises
    ``KeyError`` naming it if it is neither an identifier nor a name this module knows."""
    if name in _IDENTIFIERS:
        return name
    if name not in _KEYS:
        raise KeyError(f"bench_name: {name!r} is not a name of the committed benchmark run")
    return text(f"bench.{_KEYS[name]}")
