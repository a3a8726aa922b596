"""Lesson 10's check-your-understanding questions: the last mile, a gateway and a browser.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.10.*`` in
``lesson_lib/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "10.fffd_count",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hints=("1", "2"),
)
register(
    "10.regex_whole",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
)
register(
    "10.eventsource",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hints=("A", "B", "D"),
)
register(
    "10.cancel",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "D", "C"),
)
register(
    "10.invented",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("B", "C"),
)
