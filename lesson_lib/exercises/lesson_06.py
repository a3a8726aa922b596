"""Lesson 06's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.06.*`` in
``lesson_lib/locales/<language>/questions.py``; what is registered here is the same in every language."""

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
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "D"),
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
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
)
