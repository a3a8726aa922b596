"""Lesson 04's check-your-understanding questions."""

from . import register

register(
    "04.done_owner",
    "Which service ends its stream with data: [DONE]? A) OpenAI Chat Completions; B) OpenAI Responses; C) Anthropic Messages; D) Gemini",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hint="Look at the last event of each completed capture in section 2.",
    aliases={"A": ("Chat Completions", "OpenAI"), "B": ("Responses", "OpenAI"), "C": ("Anthropic",)},
    explanation="Of these four, only Chat Completions (OpenAI-compatible servers copy its wire format). Responses ends with response.completed, Anthropic with message_stop, Gemini with a finishReason.",
    hints={"B": "Responses has its own terminal event type, and no [DONE]."},
)
register(
    "04.clean_eof",
    "The body ends cleanly right after a complete event, but no terminal signal came. What outcome does consume() report? (one word)",
    "word",
    "f672b083ea6781e771dbbdefd0b249e50cb99199a357e92ceddee581d4ad8e2b",
    hint="The framing is whole; what is missing is the service saying it finished.",
    explanation="truncated, with truncated_at='completion': every unit was whole, and the service never said done.",
    hints={
        "completed": "Nothing in the bytes says the service finished: a closed socket is not a finished answer.",
        "incomplete": "incomplete needs the service's own terminal signal, with a cut reason. Here there is none.",
    },
)
register(
    "04.length",
    "The terminal signal arrives and the finish reason is 'length'. What outcome? (one word)",
    "word",
    "2b97b2b15a01558a115386f157ee6ebd91a46d41748cca5860d299a46d3c4334",
    hint="The service did say it stopped. Did it say the answer was whole?",
    explanation="incomplete: the service ended the stream, but the answer was cut at the token limit.",
    hints={
        "completed": "The service ended the stream, yes. What does a finish reason of 'length' say about the "
        "answer: did the model finish it, or did something stop it?"
    },
)
register(
    "04.anthropic_terminal",
    "What is the type of Anthropic's terminal event? (its name)",
    "literal",
    "cc6d2e55b3ca89234ddf0e254be9f8a2fa243d0fb541e145bb7d2c5c7aa8437c",
    hint="Look at the last event of data/anthropic-messages/completed.sse.",
    explanation="message_stop, after the message_delta that carries stop_reason.",
    hints={"message_delta": "message_delta carries the stop_reason; one more event follows it."},
    folded_digest="c1a2544bbbcded8bfdc62595d54891d8759a89282894123a4729d6db76efb5d2",
)
register(
    "04.gemini_cut",
    "True or False: with a Gemini model that puts finishReason STOP on every chunk, a client can tell a stream cut exactly between two events from a finished one.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="Try it in section 7: what does the last complete event say, in both cases?",
    explanation="False: every event looks like the last one. The framing proves nothing more; only the JSON array form's closing ] would.",
)
