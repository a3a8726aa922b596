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

from lesson_lib.core.chunking import split_at
from lesson_lib.core.completion import Outcome, consume
from lesson_lib.core.decoding import IncrementalUTF8Decoder, char_spans, incremental_decode
from lesson_lib.core.sse import parse_sse

from ..i18n import text
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
    """One challenge; ``name`` picks its title and rule from the catalogue of the current language."""

    name: str
    body: bytes
    naive: Callable[[list[bytes]], Any]
    right: Callable[[list[bytes]], Any]
    framing: str
    min_cuts: int = 1
    max_cuts: int = 1
    after_lf_only: bool = False

    @property
    def title(self) -> str:
        return text(f"checkers.adversarial.title.{self.name}")

    @property
    def rule(self) -> str:
        return text(f"checkers.adversarial.rule.{self.name}")


CHALLENGES = {
    "character": Challenge(
        "character",
        "Ångström, 日本, 🙂".encode(),
        naive_text,
        incremental_decode,
        "text",
    ),
    "line": Challenge(
        "line",
        b'event: delta\r\ndata: {"text":\r\ndata:  "\xe4\xbd\xa0\xe5\xa5\xbd"}\r\n\r\n',
        naive_events,
        _events,
        "sse",
    ),
    "event": Challenge(
        "event",
        'data: {"text": "你好，"}\n\ndata: {"text":\ndata:  "世界"}\n\ndata: {"text": "🙂"}\n\n'.encode(),
        naive_answer,
        _answer,
        "sse",
        max_cuts=2,
        after_lf_only=True,
    ),
    "completion": Challenge(
        "completion",
        chat_stream(["你好", "🙂"]),
        naive_finished,
        _finished,
        "sse",
    ),
}


def _hint(name: str, kinds: list[str]) -> str:
    if name == "character":
        return text("checkers.adversarial.hint.character")
    if name == "line":
        if "crlf" in kinds:
            return text("checkers.adversarial.hint.line_crlf")
        return text("checkers.adversarial.hint.line")
    if name == "event":
        if kinds == ["between-events"]:
            return text("checkers.adversarial.hint.event_between")
        return text("checkers.adversarial.hint.event")
    return text("checkers.adversarial.hint.completion")


def _invalid(challenge: Challenge, cuts: Any) -> str | None:
    """Why ``cuts`` breaks the challenge's rule, or None."""
    if isinstance(cuts, int) and not isinstance(cuts, bool):
        return text("checkers.adversarial.invalid.single_number", cut=cuts)
    whole_numbers = isinstance(cuts, list | tuple) and all(
        isinstance(c, int) and not isinstance(c, bool) for c in cuts
    )
    if not whole_numbers:
        return text("checkers.adversarial.invalid.not_whole_numbers", got=short(cuts))
    size = len(challenge.body)
    for cut in cuts:
        if not 0 < cut < size:
            return text("checkers.adversarial.invalid.outside", cut=cut, size=size)
    count = len(set(cuts))
    if not challenge.min_cuts <= count <= challenge.max_cuts:
        if count == 1:
            return text("checkers.adversarial.invalid.count_one", rule=challenge.rule, count=count)
        return text("checkers.adversarial.invalid.count_many", rule=challenge.rule, count=count)
    if challenge.after_lf_only:
        for cut in cuts:
            if challenge.body[cut - 1 : cut] != b"\n":
                before = challenge.body[cut - 1 : cut]
                return text(
                    "checkers.adversarial.invalid.not_after_lf", cut=cut, offset=cut - 1, before=repr(before)
                )
    return None


def check_cuts(name: str, cuts: Any) -> Result:
    """Cut challenge ``name``'s body at ``cuts``: pass if the naive client breaks and lesson_lib does not."""
    if name not in CHALLENGES:
        raise KeyError(f"no challenge {name!r}; known: {', '.join(CHALLENGES)}")
    key = f"adversarial.{name}"
    challenge = CHALLENGES[name]
    if cuts is ... or cuts is None:
        return Result(key, False, text("checkers.adversarial.not_attempted", rule=challenge.rule))
    problem = _invalid(challenge, cuts)
    if problem is not None:
        return Result(key, False, problem)
    cuts = sorted(set(cuts))
    body = challenge.body
    truth = challenge.right([body])
    pieces = split_at(body, cuts)
    naive, right = challenge.naive(pieces), challenge.right(pieces)
    kinds = kinds_of(cuts, lambda cut: classify_cut(body, cut, challenge.framing))
    where = text("checkers.adversarial.where", cuts=cuts, kinds=phrase(kinds))
    if right != truth:  # lesson_lib promises the same result for every chunking; this would be its bug
        message = text("checkers.adversarial.lesson_lib_bug", where=where, right=short(right))
        return Result(key, False, message)
    if naive == truth:
        hint = _hint(name, kinds)
        return Result(key, False, text("checkers.adversarial.still_the_truth", where=where, hint=hint))
    message = text("checkers.adversarial.broken", where=where, naive=short(naive), truth=short(truth))
    return Result(key, True, message)


def challenge_body(name: str) -> bytes:
    """The bytes of challenge ``name``, to compute offsets with (``body.index(...)``)."""
    return CHALLENGES[name].body


def show_challenge(name: str) -> None:
    """Print the challenge: its rule, the naive client's code, and the body with byte offsets."""
    challenge = CHALLENGES[name]
    body = challenge.body
    print(text("checkers.adversarial.show.header", title=challenge.title, rule=challenge.rule))
    print(text("checkers.adversarial.show.offsets"))
    print()
    print(inspect.getsource(challenge.naive))
    if name == "character":
        for start, end in char_spans(body):
            char = body[start:end].decode("utf-8")
            row = {"start": start, "end": end - 1, "char": repr(char), "hex": body[start:end].hex(" ")}
            print(text("checkers.adversarial.show.char_row", **row))
        return
    start = 0
    for match in re.finditer(rb"\r\n|\r|\n", body):
        line = body[start : match.end()]
        decoded = line.decode("utf-8")
        shown = decoded if len(decoded) <= 60 else decoded[:45] + "..." + decoded[-12:]
        print(text("checkers.adversarial.show.line_row", start=start, end=match.end() - 1, line=repr(shown)))
        start = match.end()
