"""Lesson 07's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.07.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "07.splits",
    "int",
    "67cc70a50ac9561c11150a9a6ba65bc5d98dec45c8e379903b386b85342b6f43",
    hints=("10", "11"),
)
register(
    "07.every_boundary",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    aliases={
        "A": ("one read", "whole read", "the whole body"),
        "B": ("two-piece split", "two-piece splits"),
        "C": ("one-byte read", "one byte reads", "one byte at a time", "1-byte reads", "byte by byte"),
        "D": ("random partition", "random partitions", "random"),
    },
    zh_aliases={"C": ("逐字节读取", "一次一个字节", "每次一个字节")},
)
register(
    "07.reference",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("C",),
    aliases={
        "A": (
            "one read",
            "the one-read parse",
            "the whole-body parse",
            "the unfragmented parse",
            "the whole read",
        ),
        "B": ("a hand-written list", "hand-written expected list", "expected list"),
        "C": ("another library", "another library's output"),
    },
    zh_aliases={"A": ("一次读完", "一次读完的解析结果", "不切分的解析结果"), "C": ("另一个库",)},
)
register(
    "07.proof",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
)
