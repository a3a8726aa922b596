"""Lesson 08's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.08.*`` in
``lesson_lib/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "08.heartbeat_clock",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
    aliases={
        "A": ("idle", "idle clock", "bytes clock"),
        "B": ("progress", "progress clock"),
        "C": ("neither", "forever", "none"),
    },
    zh_aliases={
        "A": ("空闲", "空闲时钟", "字节时钟"),
        "B": ("进展", "进展时钟", "进度", "进度时钟"),
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
)
register(
    "08.mcp_eof",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
)
register(
    "08.resumable",
    "choices",
    "92afaf6d39d77f2762620848e46105b2ebc0478ec06fccc1ad886cc291f490bc",
)
