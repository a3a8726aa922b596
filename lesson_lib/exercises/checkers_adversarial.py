"""The adversarial exercise: the learner chooses where the reads end, to break a naive client.

Each challenge is a body of bytes, a naive client with one boundary bug, and a rule for the cuts. The
checker cuts the body where the learner said, and confirms two things: the naive client's output differs
from the truth, and ``lesson_lib`` on the very same reads gives the truth.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lesson_lib.chunking import split_at
from lesson_lib.completion import Outcome, consume
from lesson_lib.decoding import IncrementalUTF8Decoder, char_spans, incremental_decode
from lesson_lib.sse import parse_sse

from . import Result
from .checkers_bugs import chat_stream
from .checkers_core import classify_cut, kinds_of, phrase, short

# -- the naive clients (shown to the learner by show_challenge) ----------------------------------------


def naive_text(reads):
    """Decodes every read on its own, replacing whatever does not decode."""
    return "".join(read.decode("utf-8", errors="replace") for read in reads)


def naive_events(reads):
    """Decodes correctly and keeps the unfinished line, but forgets a CR that ends a read."""
    decoder = IncrementalUTF8Decoder()
    events, data, event_type, tail = [], [], "", ""
    for read in reads:
        *lines, tail = re.split(r"\r\n|\r|\n", tail + decoder.feed(read))
        for line in lines:
            if line == "":  # a blank line dispatches the event
                if data:
                    events.append((event_type or "message", "\n".join(data)))
                data, event_type = [], ""
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif line.startswith("event:"):
                event_type = line[6:].removeprefix(" ")
    return events


def naive_answer(reads):
    """Believes that every read ends at an event boundary, so it splits each read into events alone."""
    text = ""
    for read in reads:
        for block in read.decode("utf-8", errors="replace").split("\n\n"):
            data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
            try:
                text += json.loads("\n".join(data))["text"] if data else ""
            except ValueError:
                continue  # "a broken event: skip it"
    return text


def naive_finished(reads):
    """Says the stream finished if one of the reads contains the terminal marker."""
    return any(b"[DONE]" in read for read in reads)


# -- what lesson_lib says about the same reads ---------------------------------------------------------


def _events(reads: list[bytes]) -> list[tuple[str, str]]:
    return [(event.type, event.data) for event in parse_sse(reads)]


def _answer(reads: list[bytes]) -> str:
    return "".join(json.loads(event.data)["text"] for event in parse_sse(reads))


def _finished(reads: list[bytes]) -> bool:
    return consume(reads, "openai-chat").outcome is Outcome.COMPLETED


@dataclass(frozen=True)
class Challenge:
    title: str
    body: bytes
    naive: Callable[[list[bytes]], Any]
    right: Callable[[list[bytes]], Any]
    rule: str
    framing: str
    min_cuts: int = 1
    max_cuts: int = 1
    after_lf_only: bool = False


CHALLENGES = {
    "character": Challenge(
        "Make the per-read decoder corrupt the text",
        "Ångström, 日本, 🙂".encode(),
        naive_text,
        incremental_decode,
        "exactly one cut",
        "text",
    ),
    "line": Challenge(
        "Make the client split one event in two, or lose its type",
        b'event: delta\r\ndata: {"text":\r\ndata:  "\xe4\xbd\xa0\xe5\xa5\xbd"}\r\n\r\n',
        naive_events,
        _events,
        "exactly one cut",
        "sse",
    ),
    "event": Challenge(
        "Make the client lose text, cutting only at line endings",
        'data: {"text": "你好，"}\n\ndata: {"text":\ndata:  "世界"}\n\ndata: {"text": "🙂"}\n\n'.encode(),
        naive_answer,
        _answer,
        "one or two cuts, each just after an LF",
        "sse",
        max_cuts=2,
        after_lf_only=True,
    ),
    "completion": Challenge(
        "Make the client call a finished stream unfinished",
        chat_stream(["你好", "🙂"]),
        naive_finished,
        _finished,
        "exactly one cut",
        "sse",
    ),
}


def _hint(name: str, kinds: list[str]) -> str:
    if name == "character":
        return "this client decodes each read alone. Where must a read end for it to hold part of something?"
    if name == "line":
        if "crlf" in kinds:
            return (
                "your cut is between a CR and its LF, the right kind of place, but here the empty line the "
                "client invents lands where an empty line changes nothing. Try another CRLF."
            )
        return (
            "this client keeps unfinished lines and decodes correctly; what it forgets is at the very end "
            "of a read. Which line ending is two characters long?"
        )
    if name == "event":
        if kinds == ["between-events"]:
            return (
                "your cuts fall between two events, and this client handles that. A cut just after an LF "
                "can also fall inside an event."
            )
        return (
            "this client survives that: each event's data lines still arrive together in one read. Where "
            "could a cut at a line ending separate lines that belong together?"
        )
    return "this client looks for the terminal marker inside each read. How could a read boundary hide it?"


def _invalid(challenge: Challenge, cuts: Any) -> str | None:
    """Why ``cuts`` breaks the challenge's rule, or None."""
    if isinstance(cuts, int) and not isinstance(cuts, bool):
        return f"give a list of byte offsets, e.g. [{cuts}], not a single number."
    whole_numbers = isinstance(cuts, list | tuple) and all(
        isinstance(c, int) and not isinstance(c, bool) for c in cuts
    )
    if not whole_numbers:
        return f"give a list of byte offsets (whole numbers), e.g. [5]; got {short(cuts)}."
    size = len(challenge.body)
    for cut in cuts:
        if not 0 < cut < size:
            return f"cut {cut} is outside 0 < cut < {size}: a cut must leave bytes on both sides."
    count = len(set(cuts))
    if not challenge.min_cuts <= count <= challenge.max_cuts:
        cuts_given = f"{count} distinct cut" + ("" if count == 1 else "s")
        return f"this challenge allows {challenge.rule}; you gave {cuts_given}."
    if challenge.after_lf_only:
        for cut in cuts:
            if challenge.body[cut - 1 : cut] != b"\n":
                before = challenge.body[cut - 1 : cut]
                return f"cut {cut} does not fall just after an LF: byte {cut - 1} is {before!r}."
    return None


def check_cuts(name: str, cuts: Any) -> Result:
    """Cut challenge ``name``'s body at ``cuts``: pass if the naive client breaks and lesson_lib does not."""
    if name not in CHALLENGES:
        raise KeyError(f"no challenge {name!r}; known: {', '.join(CHALLENGES)}")
    key = f"adversarial.{name}"
    challenge = CHALLENGES[name]
    if cuts is ... or cuts is None:
        wanted = f"put your cut offsets in place of ... ({challenge.rule})"
        return Result(key, False, f"not attempted yet: {wanted}.")
    problem = _invalid(challenge, cuts)
    if problem is not None:
        return Result(key, False, problem)
    cuts = sorted(set(cuts))
    body = challenge.body
    truth = challenge.right([body])
    pieces = split_at(body, cuts)
    naive, right = challenge.naive(pieces), challenge.right(pieces)
    kinds = kinds_of(cuts, lambda cut: classify_cut(body, cut, challenge.framing))
    where = f"with cuts {cuts} ({phrase(kinds)})"
    if right != truth:  # lesson_lib promises the same result for every chunking; this would be its bug
        return Result(key, False, f"{where}, lesson_lib gives {short(right)}, not the truth: a bug.")
    if naive == truth:
        hint = _hint(name, kinds)
        return Result(key, False, f"{where}, the naive client still gives the truth. Hint: {hint}")
    return Result(
        key,
        True,
        f"{where}, the naive client gives {short(naive)}; the truth, and lesson_lib on the same reads, "
        f"give {short(truth)}.",
    )


def challenge_body(name: str) -> bytes:
    """The bytes of challenge ``name``, to compute offsets with (``body.index(...)``)."""
    return CHALLENGES[name].body


def show_challenge(name: str) -> None:
    """Print the challenge: its rule, the naive client's code, and the body with byte offsets."""
    challenge = CHALLENGES[name]
    body = challenge.body
    print(f"{challenge.title}. Rule: {challenge.rule}.")
    print("A cut at offset n ends the first read after byte n - 1.")
    print()
    print(inspect.getsource(challenge.naive))
    if name == "character":
        for start, end in char_spans(body):
            char = body[start:end].decode("utf-8")
            print(f"  bytes {start:2}-{end - 1:<2}  {char!r:6} {body[start:end].hex(' ')}")
        return
    start = 0
    for match in re.finditer(rb"\r\n|\r|\n", body):
        line = body[start : match.end()]
        text = line.decode("utf-8")
        shown = text if len(text) <= 60 else text[:45] + "..." + text[-12:]
        print(f"  bytes {start:3}-{match.end() - 1:<3}  {shown!r}")
        start = match.end()
