"""Lesson 00's check-your-understanding questions."""

from . import register

register(
    "00.held_layer",
    "Which boundary's state is 'the 0-3 bytes of an unfinished character'? A) chunk; B) character; C) line; D) event; E) completion",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Which layer turns bytes into text, and what must it remember between reads?",
    explanation="The character layer: the UTF-8 decoder holds the start of a character until the rest arrives.",
    hints={"A": "The chunk boundary carries no state: a read is just some bytes."},
    aliases={"A": ("chunks",), "B": ("characters",), "C": ("lines",), "D": ("events",)},
)
register(
    "00.closed_socket",
    "True or False: when the connection closes cleanly, the answer is complete.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="Who decides that an answer is finished: the transport, or the service?",
    explanation="False: only the service's own terminal signal says the answer is finished; a clean close can come at any point.",
)
register(
    "00.openai_done",
    "What does an OpenAI Chat Completions stream send as its very last data line? (the literal, without 'data: ')",
    "literal",
    "6a5938c7a54e52a081cc9c3091d12ad86effc89128f46bcda6e95d4052b7eb5a",
    hint="It is not JSON. Look at the last lines of data/openai-chat/completed.sse.",
    explanation="The literal [DONE], exactly so: a client compares it byte for byte. It is the Chat Completions "
    "wire format's sentinel (OpenAI-compatible servers send it too); Anthropic, Gemini, Responses and Ollama "
    "end otherwise.",
    hints={
        "data: [DONE]": "That is the whole line, field name included. The question asks for what comes after "
        "the 'data: ' prefix: write only that.",
        "DONE": "Close. Look at the exact bytes of the last data line in data/openai-chat/completed.sse: is the "
        "word alone, or are there characters around it?",
    },
    folded_digest="1e0076deb50cd4a56f969a6220f111de4ea4412f3305b80986cacae9279724c2",
)
