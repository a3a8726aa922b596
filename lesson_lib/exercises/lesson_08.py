"""Lesson 08's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.08.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "08.heartbeat_clock",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("B", "C"),
    aliases={
        "A": ("progress", "progress clock", "the progress timeout", "progress timeout"),
        "B": ("idle", "idle clock", "bytes clock", "the idle timeout", "idle timeout"),
        "C": ("neither", "forever", "none"),
    },
    zh_aliases={
        "A": ("进展", "进展时钟", "进度", "进度时钟"),
        "B": ("空闲", "空闲时钟", "字节时钟"),
        "C": ("都不会", "哪个都不会", "永远"),
    },
)
register(
    "08.aclosing",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
)
register(
    "08.cancel",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
    aliases={
        "A": ("a StreamResult", "StreamResult", "outcome cancelled", "cancelled"),
        "B": ("CancelledError", "asyncio.CancelledError", "a CancelledError", "CancelledError is raised"),
        "C": ("nothing", "it is swallowed", "swallowed"),
    },
    zh_aliases={"C": ("什么都看不到", "被吞掉")},
)
register(
    "08.mcp_eof",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hints=("A", "B"),
    aliases={
        "A": ("completed",),
        "B": ("lost", "a lost answer", "lost answer", "request it again"),
        "C": ("truncated", "truncated at completion", "resumable", "resume it", "resume"),
    },
    zh_aliases={
        "A": ("已完成",),
        "B": ("丢失的回答", "回答丢了", "重新请求"),
        "C": ("被截断", "截断", "可以续传"),
    },
)
register(
    "08.resumable",
    "choices",
    "9149d6c2b67bf6a8399a03e88f9a40f70cf11da3cf1abc7a70a7ad28f760e181",
    aliases={
        "A": ("Responses", "Responses background"),
        "B": ("Chat Completions",),
        "C": ("Messages",),
        "D": ("MCP",),
    },
)
