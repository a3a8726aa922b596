"""English names of the committed benchmark run's streams, parsers and verdict (lesson_lib.teach.bench_names):
the run's own words."""

STRINGS = {
    "bench.stream.openai_chat": "OpenAI chat",
    "bench.stream.anthropic_messages": "Anthropic messages",
    "bench.stream.heartbeats": "heartbeats",
    "bench.stream.id_on_every_event": "id on every event",
    "bench.stream.gemini_crlf": "Gemini CRLF",
    "bench.stream.long_tool_calls": "200 KiB tool calls",
    "bench.stream.event_id_and_data": "event, id and data",
    "bench.stream.gemini_crlf_event_and_id": "Gemini CRLF, event and id",
    "bench.parser.feed_per_read": "lesson_lib, feed per read",
    "bench.parser.reference": "lesson_lib reference",
    "bench.parser.naive_loop": "naive loop",
    "bench.parser.lines_only_baseline": "lines-only baseline",
    "bench.verdict.every_parser_agrees": "every parser agrees",
}
