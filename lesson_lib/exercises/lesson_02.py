"""Lesson 02's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.02.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "02.lines",
    "int",
    "fd5a1bd7edca9cbb011ef0f2f8eed1d61fe80c32d05e2c37759caa1d9cb396da",
    hints=("3", "5"),
)
register(
    "02.cr_lf_across",
    "int",
    "b47e22133c67168abb78cea1e14c4ed42df157dbb6b84980c9b1574697add07a",
    hints=("2",),
)
register(
    "02.splitlines",
    "choices",
    "92afaf6d39d77f2762620848e46105b2ebc0478ec06fccc1ad886cc291f490bc",
    aliases={"A": ("line feed",), "B": ("next line",), "C": ("line separator",), "D": ("carriage return",)},
    zh_aliases={"A": ("换行符",), "B": ("下一行符",), "C": ("行分隔符",), "D": ("回车符",)},
)
register(
    "02.pending",
    "literal",
    "e771f5d533b3f775c2024c496b5088901870cd99310853e9422e8c0cb5de8a0d",
    hints={"": "empty"},
    folded_digest="ed570c1e2d981a227ac0233c2624fc1047a57b9488b0d2d3d43c0d3189dc0b58",
)
