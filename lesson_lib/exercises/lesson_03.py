"""Lesson 03's check-your-understanding questions."""

from . import register

register(
    "03.events",
    "How many events does parse_sse dispatch for 'data: a\\n\\ndata\\n\\n: ping\\n\\nevent: x\\n\\n'?",
    "int",
    "cbe0b0618736b2cbebe43f4918d9b7c490ccc60c5f0544fbcf21ff69fa813e1e",
    hint="An event is dispatched on a blank line only if its data buffer is not empty. A field name with no colon is a field with an empty value.",
    explanation="Two: 'a', and '' from the bare 'data' line. The comment block and the event with only a type have no data.",
    hints={
        "1": "Look at the second block, a bare 'data' line: which field is it, and what is in the data buffer "
        "when its blank line arrives?",
        "4": "Does every blank line dispatch? What is in the data buffer when the blank line after ': ping' "
        "arrives, and after 'event: x'?",
    },
)
register(
    "03.space",
    "What is the data of the event 'data:  x' followed by a blank line (two spaces after the colon)? A) 'x'; B) ' x' (one space); C) '  x' (two spaces)",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Read the field rule in WHATWG 'Interpreting an event stream': what, exactly, may be removed from "
    "the value after the colon? Or ask parse_sse([b'data:  x\\n\\n']) in a cell.",
    explanation="Exactly one space is removed, so one remains.",
    hints={
        "A": "The rule does not strip leading whitespace in general. Read it again: what, exactly, does it remove?",
        "C": "The value is not kept as it is: the rule removes something from its start. What, and how much?",
    },
)
register(
    "03.id",
    "After 'id: 7\\ndata: a\\n\\nid\\ndata: b\\n\\n', what is the parser's last_event_id? A) '7'; B) '' (empty); C) None",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Take the second event line by line: a line without a colon is a field too. Which field, with "
    "what value, and what does the id field do with the value it gets?",
    explanation="An empty id resets the last event ID: a reconnecting client would send no Last-Event-ID.",
    hints={
        "A": "The first event set it to '7'. Look at the second event's first line: which field is it, and "
        "what value does it carry?",
        "C": "last_event_id is a string from the start, never None. What string does the second event leave?",
    },
)
register(
    "03.json_when",
    "When may a client call json.loads on the data of an SSE stream? A) on each data line; B) on each read; C) when the blank line dispatches the event",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hint="Can one JSON value span several data lines? Several reads? At which moment is it sure to be whole?",
    explanation="Only the dispatched event holds the whole value; a data line or a read may hold part of it.",
)
register(
    "03.framing",
    "Which framing does Ollama's /api/chat stream use? A) Server-Sent Events; B) NDJSON; C) one growing JSON array",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Look at its Content-Type, or at the capture in data/ollama.",
    explanation="application/x-ndjson: one JSON object per LF-terminated line.",
)
