"""Lesson 03's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.03.*`` in
``lesson_lib/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "03.events",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hints=("1", "4"),
)
register(
    "03.space",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
)
register(
    "03.id",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
)
register(
    "03.json_when",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
)
register(
    "03.framing",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
)
