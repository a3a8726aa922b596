"""Lesson 03's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.03.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "03.events",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hints=("1", "4"),
)
register(
    "03.space",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
    aliases={"A": ("no space",), "B": ("one space and x", "a space and x"), "C": ("two spaces and x",)},
    zh_aliases={"A": ("没有空格",), "C": ("两个空格",)},
)
register(
    "03.id",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("C", "B"),
    aliases={"A": ("empty string", "the empty string", "''")},
    zh_aliases={"A": ("空串",)},
)
register(
    "03.json_when",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    aliases={
        "A": ("each data line", "on a data line", "per data line"),
        "B": ("each read", "per read"),
        "C": (
            "on dispatch",
            "at dispatch",
            "dispatch",
            "when the event is dispatched",
            "when it is dispatched",
            "on the blank line",
            "at the blank line",
        ),
    },
    zh_aliases={"C": ("派发时", "派发事件时", "事件派发时", "空行到达时")},
)
register(
    "03.framing",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    aliases={
        "A": ("SSE", "server sent events", "text/event-stream", "event stream"),
        "B": (
            "newline-delimited JSON",
            "newline delimited JSON",
            "new-line delimited JSON",
            "JSON lines",
            "JSONL",
            "x-ndjson",
            "application/x-ndjson",
            "one JSON object per line",
        ),
        "C": ("JSON array", "a JSON array", "growing JSON array"),
    },
    zh_aliases={"B": ("换行分隔的 JSON", "每行一个 JSON 对象"), "C": ("JSON 数组",)},
)
