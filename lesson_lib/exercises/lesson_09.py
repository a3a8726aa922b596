"""Lesson 09's check-your-understanding questions: values are not answers.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.09.*`` in
``lesson_lib/locales/<language>/questions.py``; what is registered here is the same in every language."""

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
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
)
register(
    "09.anthropic_close",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "D"),
)
register(
    "09.reasoning_where",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "D"),
)
register(
    "09.surrogate",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("D", "A"),
)
