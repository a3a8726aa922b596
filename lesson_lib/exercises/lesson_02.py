"""Lesson 02's check-your-understanding questions."""

from . import register

register(
    "02.lines",
    "Under the SSE rules, how many complete lines does 'a\\r\\nb\\rc\\n\\nd' contain (the d has no line ending yet)?",
    "int",
    "fd5a1bd7edca9cbb011ef0f2f8eed1d61fe80c32d05e2c37759caa1d9cb396da",
    hint="CRLF, a lone CR and a lone LF each end one line. Find every ending: what is before each one? And "
    "does the text after the last ending have one?",
    explanation="a, b, c and one empty line: 4. 'd' waits in the line buffer for its ending.",
    hints={
        "3": "Look between the two LFs of '\\n\\n': is there a line there, and does an empty line count?",
        "5": "Which line endings did you count, and does every piece you counted end with one?",
    },
)
register(
    "02.cr_lf_across",
    "A read ends with CR and the next read starts with LF. How many line endings is that?",
    "int",
    "b47e22133c67168abb78cea1e14c4ed42df157dbb6b84980c9b1574697add07a",
    hint="What would it be if both bytes had arrived in the same read? The reads must not change the answer.",
    explanation="One: the CR ends the line at once, and the LF that follows it is part of the same ending.",
    hints={
        "2": "If there were two endings, what would sit between them, and what does that do in SSE? Would the "
        "same two bytes, arriving together, give that?"
    },
)
register(
    "02.splitlines",
    "Which characters does str.splitlines() treat as line breaks although SSE and JSON treat them as data? A) LF; B) U+0085 (NEL); C) U+2028; D) CR. Give a list of letters.",
    "choices",
    "92afaf6d39d77f2762620848e46105b2ebc0478ec06fccc1ad886cc291f490bc",
    hint="Try 'x\\x85y\\u2028z'.splitlines() in a cell, then look up which characters end a line in SSE.",
    aliases={"A": ("line feed",), "B": ("next line",), "C": ("line separator",), "D": ("carriage return",)},
    explanation="NEL and U+2028 (and FF, VT, U+2029 ...) split under splitlines() but are ordinary characters inside an event.",
)
register(
    "02.pending",
    "After LineSplitter().feed('data: 你') and then .feed('好'), what is its pending_text?",
    "literal",
    "e771f5d533b3f775c2024c496b5088901870cd99310853e9422e8c0cb5de8a0d",
    hint="No line ending has arrived yet. What does the splitter do with text until one does?",
    explanation="'data: 你好': the unfinished line waits, in pieces joined once, until its ending arrives.",
    hints={"": "Has anything been thrown away? Where does text that has no line ending yet go?"},
    folded_digest="ed570c1e2d981a227ac0233c2624fc1047a57b9488b0d2d3d43c0d3189dc0b58",
)
