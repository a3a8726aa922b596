"""提交的基准测试运行里各种流、解析器和判定的中文名称（lesson_lib.teach.bench_names）。"""

STRINGS = {
    "bench.stream.openai_chat": "OpenAI Chat Completions 流",
    "bench.stream.anthropic_messages": "Anthropic Messages 流",
    "bench.stream.heartbeats": "带心跳的流",
    "bench.stream.id_on_every_event": "每个事件都带 id 的流",
    "bench.stream.gemini_crlf": "Gemini CRLF 流",
    "bench.stream.long_tool_calls": "200 KiB 的工具调用",
    "bench.stream.event_id_and_data": "带 event、id 和 data 的流",
    "bench.stream.gemini_crlf_event_and_id": "Gemini CRLF，带 event 和 id",
    "bench.parser.feed_per_read": "lesson_lib（每次读取调用 feed）",
    "bench.parser.reference": "lesson_lib 参考实现",
    "bench.parser.naive_loop": "朴素循环",
    "bench.parser.lines_only_baseline": "只分行的基线",
    "bench.verdict.every_parser_agrees": "所有解析器得到的事件都相同",
}
