"""The spec's SSE algorithm over a whole body at once, written for tests to compare the parsers with.

A module of its own (not a test module) so that test modules can import it at their top: a module that
defines ``@given`` tests, imported from inside a running ``@given`` test, fails hypothesis's health check.
"""

from __future__ import annotations

import re

from lesson_lib import Event
from lesson_lib.core.sse import MAX_RETRY_MS


def reference_parse(body: bytes, errors: str = "strict"):
    """The spec's algorithm over the whole body at once: (events, last event ID string, retry)."""
    text = body.decode("utf-8", errors)
    text = text.removeprefix("\ufeff")
    lines = re.split(r"\r\n|\r|\n", text)[:-1]  # the part after the last ending is never processed
    events, data, event_type, id_buffer, last_id, retry = [], "", "", "", "", None
    for line in lines:
        if line == "":
            last_id = id_buffer
            if data == "":
                event_type = ""
                continue
            events.append(Event(event_type or "message", data.removesuffix("\n"), last_id))
            data, event_type = "", ""
            continue
        if line.startswith(":"):
            continue
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            data += value + "\n"
        elif name == "event":
            event_type = value
        elif name == "id" and "\0" not in value:
            id_buffer = value
        elif name == "retry" and value and all(c in "0123456789" for c in value):
            # Read exactly up to MAX_RETRY_MS, clamped above (int() refuses more than 4,300 digits).
            digits = value.lstrip("0") or "0"
            retry = int(digits) if len(digits) <= len(str(MAX_RETRY_MS)) else MAX_RETRY_MS
    return events, last_id, retry
