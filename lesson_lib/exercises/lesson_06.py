"""Lesson 06's check-your-understanding questions."""

from . import register

register(
    "06.replace_count",
    "A server sends 'data: 你好' cut one byte into 你: the first read ends with e4, the second starts with bd a0. A client decodes each read on its own with errors='replace'. How many U+FFFD characters does it produce?",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hint="Count read by read: decode each read on its own with errors='replace' in a cell, or ask which "
    "invalid pieces each read holds. Python replaces each maximal invalid piece by one U+FFFD: can bytes "
    "that have lost their lead byte form one piece together?",
    explanation="3: one for e4 at the end of the first read, and one each for bd and a0 at the start of the second. One character became three wrong ones, and nobody was told.",
    hints={
        "1": "That counts the first read's lone lead byte. Now the second read: what do its first bytes "
        "become without the lead byte before them?",
        "2": "Look at the second read on its own. A continuation byte without its lead byte is invalid; can "
        "two of them make one invalid piece, or is each one its own?",
    },
)
register(
    "06.sdk_truncated",
    "Served whole, openai-chat/truncated_clean_boundary ends cleanly one event before [DONE]. What does iterating the openai SDK's stream do? A) raises APIConnectionError; B) ends without an exception, with a shorter text; C) raises a JSON error; D) waits for [DONE] until a timeout",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="The HTTP body ended properly: nothing at the transport level went wrong. Does the SDK check for [DONE] at the end?",
    explanation="B: the SDK stops iterating at the end of the body and raises nothing. Only a check for the terminal signal, as consume() makes, says truncated.",
    hints={
        "A": "APIConnectionError is what a dropped connection gives (no terminating chunk). Here the body ended properly.",
        "D": "The server finished the body; there is nothing left to wait for.",
    },
)
register(
    "06.heartbeat_inside",
    "A proxy injects the heartbeat ': ping' and its blank line inside one event, between its lines 'data: a' and 'data: b': the bytes are 'data: a\\n: ping\\n\\ndata: b\\n\\n'. How many events does a spec-conforming parser dispatch?",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hint="The comment line itself is ignored. What does the blank line after it do to the event being built?",
    explanation="2: the blank line dispatches 'a' early and 'b' becomes an event of its own. That is why the replay server puts heartbeats only at event boundaries.",
    hints={
        "1": "The comment line is ignored. Is the blank line after it ignored too? What does a blank line do "
        "to the event built so far?"
    },
)
register(
    "06.resume_without_ids",
    "An OpenAI Chat Completions stream drops mid-answer. What can the client do? A) reconnect with Last-Event-ID and receive the rest; B) nothing resumes it: its events carry no id, and sending the request again starts a new answer, with its cost and side effects; C) the SDK reconnects and resumes by itself",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Look at the capture's events: which field would a reconnecting client send back, and is it there?",
    explanation="B: no id field, so no Last-Event-ID to send. A retry is a new request: report the truncation and decide, never stitch two answers together.",
    hints={
        "A": "Last-Event-ID needs events with id fields. Parse the capture and look at each event's last_event_id.",
        "C": "The SDKs do not reconnect a stream that broke after its 200; they end or raise.",
    },
)
