"""Lesson 07's check-your-understanding questions."""

from . import register

register(
    "07.splits",
    "How many two-piece splits does a 10-byte body have?",
    "int",
    "67cc70a50ac9561c11150a9a6ba65bc5d98dec45c8e379903b386b85342b6f43",
    hint="A cut sits between two bytes, with at least one byte on each side.",
    explanation="9: cut after byte 1, 2, ..., 9.",
    hints={
        "10": "Where can a cut go? Does a cut at 0, or at 10, leave two pieces with bytes in them?",
        "11": "Where can a cut go? Does a cut at 0, or at 10, leave two pieces with bytes in them?",
    },
)
register(
    "07.every_boundary",
    "Which chunking makes every byte boundary a read boundary at once? A) one whole read; B) a two-piece split; C) one-byte reads; D) a random partition",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hint="How many cuts does each chunking make?",
    explanation="One-byte reads cut everywhere at once: the harshest single chunking.",
)
register(
    "07.reference",
    "What should the results of a chunked parse be compared with? A) the parse of the same bytes in one read; B) a hand-written expected list only; C) another library's output",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hint="The property is 'the chunking does not matter'. What is the chunking-free answer?",
    explanation="The unfragmented parse: any difference is caused by the cuts alone.",
    hints={
        "C": "Other libraries differ from the spec in known ways; they are a second opinion, not the reference."
    },
)
register(
    "07.proof",
    "True or False: passing every two-piece split and one-byte reads proves the parser right for every chunking into three or more reads.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="Which combinations of cuts have these tests never tried?",
    explanation="False: they try each cut alone and all cuts at once, not every combination. Property tests sample more; none is a proof.",
)
