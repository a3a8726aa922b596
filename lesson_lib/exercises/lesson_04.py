"""Lesson 04's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.04.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "04.done_owner",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hints=("B",),
    aliases={"A": ("Chat Completions", "OpenAI"), "B": ("Responses", "OpenAI"), "C": ("Anthropic",)},
)
register(
    "04.clean_eof",
    "word",
    "f672b083ea6781e771dbbdefd0b249e50cb99199a357e92ceddee581d4ad8e2b",
    hints=("completed", "incomplete"),
)
register(
    "04.length",
    "word",
    "2b97b2b15a01558a115386f157ee6ebd91a46d41748cca5860d299a46d3c4334",
    hints=("completed",),
)
register(
    "04.anthropic_terminal",
    "literal",
    "cc6d2e55b3ca89234ddf0e254be9f8a2fa243d0fb541e145bb7d2c5c7aa8437c",
    hints=("message_delta",),
    folded_digest="c1a2544bbbcded8bfdc62595d54891d8759a89282894123a4729d6db76efb5d2",
    field="event",
)
register(
    "04.gemini_cut",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
)
