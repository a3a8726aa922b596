"""Lesson 09's check-your-understanding questions: values are not answers."""

from . import register

register(
    "09.naive_fragments",
    "In the capture openai-chat/tools_parallel, call 0's arguments arrive in six fragments. How many of them "
    "does json.loads accept on its own?",
    "int",
    "669b4c24c93570eb1df6701e382789cb22aeb1d5b23911779997f87e898dcb5c",
    hint="Look at where each fragment starts and ends: inside a key, a string, a number?",
    explanation="Zero: every fragment is a piece of JSON text cut anywhere; only the joined text, once the "
    "call is closed, is a value.",
    hints={
        "1": "Which one did you count? What does json.loads say when you run it on that fragment alone, in "
        "a cell?",
        "6": "Try one of them: '{\"ci' is the first.",
    },
)
register(
    "09.done_missing",
    "True or False: in openai-chat/tools_truncated_before_done every fragment arrived and the finish reason "
    "said tool_calls, so the calls are complete.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="Which event is the last word of a Chat Completions stream, and did it arrive?",
    explanation="False: in Chat Completions nothing closes one call; the stream's own end ([DONE] after a "
    "whole-answer finish reason) closes them all. Without it, more could have come.",
)
register(
    "09.anthropic_close",
    "Which Anthropic event closes a tool_use call? A) message_stop; B) content_block_stop; C) message_delta "
    "with stop_reason tool_use; D) the last input_json_delta",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Calls live in content blocks. What ends one block, before the message ends?",
    explanation="content_block_stop: the block, and with it the call, is whole. The message may still be cut "
    "after it, so the answer around the call is not final yet.",
    hints={
        "A": "message_stop ends the message: by then the call was closed long before.",
        "D": "How would the client know a delta was the last one, before something says so?",
    },
)
register(
    "09.reasoning_where",
    "Where does lesson_lib put delta.reasoning_content (DeepSeek)? A) in text; B) in reasoning_text; "
    "C) in tool_calls; D) nowhere, it is dropped",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Reasoning is not the answer, and nothing received is dropped.",
    explanation="reasoning_text: kept, and kept apart, so a UI can show it differently and never store it "
    "as the answer.",
    hints={
        "A": "Then a UI could not tell thinking from answering.",
        "D": "lesson_lib drops nothing it reads.",
    },
)
register(
    "09.surrogate",
    "One fragment ends with \\ud83d and the next starts with \\ude80. What does the closed call's parsed "
    "value hold there? A) two U+FFFD; B) 🚀; C) nothing: the call has an error; D) two lone surrogates",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="The escapes are JSON text: what does json.loads make of the two halves once they are side by side?",
    explanation="🚀: the fragments are joined as text first, so the pair is whole when the JSON is parsed.",
    hints={
        "D": "That is what decoding each fragment on its own would give. Is each fragment decoded on its own "
        "here, or what happens to the fragments before json.loads sees them?",
        "A": "Nothing is decoded per fragment, so nothing is replaced.",
    },
)
