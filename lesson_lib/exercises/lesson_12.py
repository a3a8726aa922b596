"""Lesson 12's check-your-understanding questions: your own client, on the fault server.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.12.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "12.sdk_after_finish",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("B", "C", "D"),
    aliases={
        "A": ("the whole text and no exception", "the text, no exception", "completed"),
        "B": ("openai.APIError", "APIError"),
        "C": ("UnicodeDecodeError",),
        "D": ("an empty string", "nothing"),
    },
    zh_aliases={
        "A": ("全部文本", "完整的文本", "文本，没有异常", "没有异常", "不抛异常", "已完成"),
        "B": ("抛出 APIError", "APIError 异常"),
        "C": ("抛出 UnicodeDecodeError", "UnicodeDecodeError 异常"),
        "D": ("空串", "什么都没有"),
    },
)
register(
    "12.verdict_without_text",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
)
register(
    "12.stall",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hints=("A", "B", "D"),
    aliases={
        "A": ("completed only", "only completed"),
        "B": ("timed_out only", "only timed_out"),
        "C": ("either", "both", "either of them"),
        "D": ("neither", "truncated"),
    },
    zh_aliases={
        "A": ("只有 completed", "只算 completed"),
        "B": ("只有 timed_out", "只算 timed_out"),
        "C": ("两者都对", "两个都对", "都对", "两者都可以", "两个都算对", "都算对"),
        "D": ("都不算", "都不对", "两个都不对", "被截断"),
    },
)
register(
    "12.other_language",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C", "D"),
    aliases={
        "A": ("it cannot", "only Python"),
        "B": ("POST /faults/<name>/verdict", "POST its verdict", "a POST to the verdict route"),
        "C": ("it prints it", "stdout"),
        "D": ("GET /scoreboard", "GET /scoreboard?verdict="),
    },
    zh_aliases={
        "A": ("做不到", "不能", "只能用 Python"),
        "B": ("用 POST 发送判定", "POST 判定", "发 POST 请求", "POST 到 verdict 路由"),
        "C": ("打印判定", "打印出来", "打印到标准输出"),
        "D": ("查询计分板", "用 GET /scoreboard"),
    },
)
