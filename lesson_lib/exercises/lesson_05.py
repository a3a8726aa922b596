"""Lesson 05's check-your-understanding questions."""

from . import register

register(
    "05.ping_progress",
    "True or False: an Anthropic ping event moves the business-progress clock.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="What does a ping prove: that the connection is alive, or that the answer is advancing?",
    explanation="False: a ping moves the byte and event clocks only. A stream that only pings is alive, not progressing.",
)
register(
    "05.which_clock",
    "A proxy trickles one byte a second and no event ever completes. With limits of 30 s (bytes), 60 s (events) and 120 s (progress), which trips first? A) byte_idle; B) event_idle; C) progress_idle",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Bytes keep arriving, so one clock keeps moving. Which two do not, and which of them has the smaller limit?",
    explanation="event_idle: bytes arrive, so the byte clock is fresh, but no event completes for 60 s.",
    hints={
        "A": "A byte arrives every second: the byte clock never gets old.",
        "C": "The progress clock is stuck, but is it the only one? Find every clock that stops moving, then "
        "compare their limits.",
    },
    aliases={
        "A": ("byte", "bytes", "byte clock"),
        "B": ("event", "events", "event clock"),
        "C": ("progress", "progress clock", "business progress"),
    },
)
register(
    "05.limit",
    "A line exceeds max_line_chars. What does consume() do? A) cut the line and go on; B) drop the event and go on; C) stop with outcome limit_exceeded, naming the limit and the byte offset",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hint="A limit that drops bytes and carries on turns a resource problem into silently wrong data.",
    explanation="It stops: limit_exceeded, which limit, where, and the source is closed. Nothing is dropped silently.",
)
register(
    "05.closes",
    "The caller breaks out of a stream_updates loop early and closes the generator. How many times is the chunk source closed?",
    "int",
    "b47e22133c67168abb78cea1e14c4ed42df157dbb6b84980c9b1574697add07a",
    hint="Follow this path: closing the generator raises GeneratorExit at its yield. Which code runs then, "
    "and does any other code close the source as well?",
    explanation="Exactly once, in the generator's finally, whatever the path.",
    hints={
        "0": "Closing the generator raises GeneratorExit at its yield. Which block of the generator runs then, "
        "and what does it do with the source?",
        "2": "Closing a source twice would be a bug of its own. Which code closes it, and can that code run "
        "twice on this path?",
    },
)
