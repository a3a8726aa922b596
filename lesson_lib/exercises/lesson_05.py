"""Lesson 05's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.05.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "05.ping_progress",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
)
register(
    "05.which_clock",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
    aliases={
        "A": ("byte", "bytes", "byte clock"),
        "B": ("event", "events", "event clock"),
        "C": ("progress", "progress clock", "business progress"),
    },
    zh_aliases={
        "A": ("字节", "字节时钟"),
        "B": ("事件", "事件时钟"),
        "C": ("进展", "进展时钟", "业务进展", "进度", "进度时钟", "业务进度"),
    },
)
register(
    "05.limit",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    aliases={
        "A": ("cut the line", "cut it"),
        "B": ("drop the event", "drop it"),
        "C": ("limit_exceeded", "limit exceeded", "stop", "it stops", "stops", "raise", "it raises"),
    },
    zh_aliases={"C": ("停止", "超出上限", "报错")},
)
register(
    "05.closes",
    "int",
    "b47e22133c67168abb78cea1e14c4ed42df157dbb6b84980c9b1574697add07a",
    hints=("0", "2"),
)
