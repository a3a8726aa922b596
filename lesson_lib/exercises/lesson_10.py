"""Lesson 10's check-your-understanding questions: the last mile, a gateway and a browser.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.10.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "10.eventsource",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C", "D"),
    aliases={
        "A": ("POST", "send a POST body", "a POST body"),
        "B": ("decode a cut character", "decode a character cut across reads", "decoding"),
        "C": ("an Authorization header", "Authorization header", "Authorization"),
    },
    zh_aliases={"B": ("解码被切开的字符", "正确解码被切开的字符")},
)
register(
    "10.cancel",
    "choice",
    "d75dece8339da5da3477a3fb79ddc5ec81eb7c6081cc7e07f77b351d2b40b7e8",
    hints=("A", "C", "B"),
    aliases={
        "A": ("the upstream", "the upstream notices"),
        "B": ("garbage collector", "the GC", "GC", "garbage collection"),
        "C": ("idle timeout", "the idle timeout", "the upstream idle timeout"),
        "D": ("the relay cancels the task", "http.disconnect", "task cancellation"),
    },
    zh_aliases={"B": ("垃圾回收",), "C": ("空闲超时",), "D": ("中继取消任务", "任务取消")},
)
register(
    "10.invented",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("B", "C"),
    zh_aliases={
        "A": ("已完成",),
        "B": ("被截断", "已截断", "截断"),
        "C": ("未完成", "不完整", "回答不完整"),
        "D": ("服务端错误", "服务错误"),
    },
)
register(
    "10.header_hop",
    "int",
    "b47e22133c67168abb78cea1e14c4ed42df157dbb6b84980c9b1574697add07a",
    hints=("126", "2"),
)
register(
    "10.caddy_drop",
    "choice",
    "d75dece8339da5da3477a3fb79ddc5ec81eb7c6081cc7e07f77b351d2b40b7e8",
    hints=("A", "B"),
    aliases={
        "A": ("a transport error", "an error"),
        "B": ("a 502", "502"),
        "C": ("the whole answer",),
        "D": ("a clean end", "a clean end of the body", "clean end"),
    },
    zh_aliases={"A": ("传输错误",), "B": ("502",), "C": ("完整回答",), "D": ("干净结束", "正文干净结束", "正常结束", "响应体正常结束")},
)
