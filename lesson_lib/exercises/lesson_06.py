"""Lesson 06's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.06.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "06.replace_count",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hints=("1", "2"),
)
register(
    "06.sdk_truncated",
    "choice",
    "d75dece8339da5da3477a3fb79ddc5ec81eb7c6081cc7e07f77b351d2b40b7e8",
    hints=("A", "C"),
    aliases={
        "A": ("APIConnectionError", "openai.APIConnectionError"),
        "B": ("JSON error", "JSONDecodeError"),
        "C": ("waits", "waits for [DONE]", "a timeout", "timeout"),
        "D": (
            "ends without an exception",
            "ends normally",
            "it ends normally",
            "ends quietly",
            "no exception",
            "a shorter text",
            "shorter text",
        ),
    },
    zh_aliases={"D": ("不抛异常", "文本更短"), "C": ("一直等待", "超时")},
)
register(
    "06.heartbeat_inside",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hints=("1",),
)
register(
    "06.resume_without_ids",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hints=("A", "B"),
    aliases={
        "A": ("reconnect with Last-Event-ID", "Last-Event-ID", "reconnect"),
        "B": ("the SDK reconnects", "the SDK resumes", "the SDK"),
        "C": (
            "nothing",
            "nothing resumes it",
            "it cannot resume",
            "cannot resume",
            "no resume",
            "send it again",
        ),
    },
    zh_aliases={"C": ("没有办法续传", "无法续传", "不能续传", "没有办法"), "B": ("SDK 会自己重连",)},
)
register(
    "06.requests_crlf",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hints=("1",),
)
