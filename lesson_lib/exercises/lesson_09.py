"""Lesson 09's check-your-understanding questions: values are not answers.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.09.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "09.naive_fragments",
    "int",
    "669b4c24c93570eb1df6701e382789cb22aeb1d5b23911779997f87e898dcb5c",
    hints=("1", "6"),
)
register(
    "09.done_missing",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
)
register(
    "09.anthropic_close",
    "choice",
    "d75dece8339da5da3477a3fb79ddc5ec81eb7c6081cc7e07f77b351d2b40b7e8",
    hints=("A", "C"),
    aliases={"B": ("message_delta",), "C": ("input_json_delta", "the last delta")},
)
register(
    "09.reasoning_where",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hints=("A", "D"),
    aliases={
        "A": ("text", "result.text"),
        "B": ("tool_calls", "result.tool_calls"),
        "C": ("reasoning_text", "result.reasoning_text"),
        "D": ("nowhere", "dropped", "it is dropped"),
    },
    zh_aliases={"D": ("直接丢弃", "丢弃", "哪里都不放")},
)
register(
    "09.surrogate",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("D", "B"),
    aliases={
        "A": ("rocket", "the rocket", "the rocket emoji", "U+1F680"),
        "B": ("U+FFFD", "two replacement characters", "replacement characters"),
        "C": ("an error", "error"),
        "D": ("lone surrogates", "two surrogates", "surrogates"),
    },
    zh_aliases={
        "A": ("火箭", "火箭表情"),
        "B": ("两个替换字符", "替换字符"),
        "C": ("出错",),
        "D": ("孤立代理项",),
    },
)
