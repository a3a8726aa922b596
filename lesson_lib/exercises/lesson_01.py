"""Lesson 01's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.01.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "01.bytes",
    "int",
    "3e1948798e02e919913cd1b069a9f1c270d1ec0e7c510b33a385807fe73e930f",
    hints=("3",),
)
register(
    "01.corrupting_cuts",
    "ints",
    "2e9e29e7ce88f8c3646b6669acc2395314182ce1cfd5a2e84e873ba713437876",
    hints=("3",),
)
register(
    "01.held_max",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hints=("4",),
)
register(
    "01.final",
    "word",
    "dace81a56c3a42335cd1bc83ed4deb915100cd04af865f6a06aeb482e1c4ebe4",
    broader=(
        "StreamDecodeError",
        "UnicodeDecodeError",
        "UnicodeError",
        "ValueError",
        "BoundaryError",
        "Exception",
        "BaseException",
    ),
)
register(
    "01.replace",
    "choice",
    "d75dece8339da5da3477a3fb79ddc5ec81eb7c6081cc7e07f77b351d2b40b7e8",
    hints=("B",),
    aliases={"D": ("silently wrong text", "silent corruption", "it silently corrupts the text")},
    zh_aliases={"D": ("悄无声息地变成错误的文本", "静默损坏")},
)
