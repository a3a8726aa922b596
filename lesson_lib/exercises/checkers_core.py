"""What every exercise checker shares: adversarial chunkings, names for kinds of cut, and reports.

A checker runs the learner's code on a hidden corpus cut in many ways and compares what comes out with
``lesson_lib`` on the same cuts. The order is fixed, so a report never changes between runs:

1. the whole stream in one read (no cut at all);
2. every two-piece split (each cut position alone);
3. one-byte reads (every position at once);
4. seeded random partitions (``random.Random(seed)``: the same cuts on every machine);
5. for the build-it checks, the one-byte reads again with an empty read before each.

The first failure is reported by the *kind* of place the cut fell (inside a multi-byte character,
between a CR and its LF, inside a line, between two lines of one event, between two events), never by
the fix. A failure found with many cuts at once is first shrunk, greedily and deterministically, to a
small set of cuts that still fails, so that the kinds it names are the ones that matter.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lesson_lib.chunking import one_byte_chunks, random_cuts, split_at
from lesson_lib.decoding import incomplete_tail_length
from lesson_lib.sse import SSEParser

from . import Result

#: The seeds of the random partitions every checker tries.
SEEDS = tuple(range(20))

#: How each kind of cut is named in a report.
KIND_PHRASES = {
    "character": "inside a multi-byte UTF-8 character",
    "between-characters": "between two characters",
    "crlf": "between a CR and the LF after it",
    "line": "inside a line",
    "in-event": "between two lines of one event",
    "inside-event": "inside an event",
    "between-events": "between two events",
    "line-boundary": "just after a line ending",
    "empty": "with an empty read",
}


class NotAttempted(Exception):
    """The learner's code still raises ``NotImplementedError``: report "not attempted", not a failure."""


def not_attempted(key: str, what: str) -> Result:
    return Result(
        key,
        False,
        f"not attempted yet: {what} still raises NotImplementedError. Write your code in its place and "
        "run this cell again.",
    )


# -- running the learner's code ------------------------------------------------------------------------


@dataclass(frozen=True)
class Observed:
    """What one call of the learner's code did: returned ``value``, or raised ``error``."""

    value: Any = None
    error: BaseException | None = None

    @property
    def raised(self) -> bool:
        return self.error is not None

    def describe(self) -> str:
        if self.error is not None:
            return f"raised {describe_error(self.error)}"
        return f"returned {short(self.value)}"


def observe(call: Callable[[], Any]) -> Observed:
    """Run ``call``; a ``NotImplementedError`` anywhere means the exercise is not attempted yet."""
    try:
        return Observed(value=call())
    except NotImplementedError as exc:
        raise NotAttempted from exc
    except Exception as exc:  # the learner's code may raise anything; that is an observation
        return Observed(error=exc)


def describe_error(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {short_text(text)}" if text else type(error).__name__


def short_text(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def short(value: Any, limit: int = 80) -> str:
    return short_text(repr(value), limit)


def first_difference(got: Any, expected: Any) -> str:
    """Where ``got`` first differs from ``expected``: a position and both sides, briefly."""
    if isinstance(got, str) and isinstance(expected, str):
        for index, (a, b) in enumerate(itertools.zip_longest(got, expected)):
            if a != b:
                return (
                    f"at character {index}: got {short(got[index : index + 12])} where the truth has "
                    f"{short(expected[index : index + 12])}"
                )
        return "the texts differ"
    if isinstance(got, list | tuple) and isinstance(expected, list | tuple):
        for index, (a, b) in enumerate(itertools.zip_longest(got, expected, fillvalue=_MISSING)):
            if a != b:
                mine = "nothing" if a is _MISSING else short(a, 60)
                truth = "nothing" if b is _MISSING else short(b, 60)
                return f"at item {index}: got {mine} where the truth has {truth}"
        return "the lists differ"
    return f"got {short(got)} where the truth is {short(expected)}"


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


_MISSING = _Missing()


# -- chunkings -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunking:
    """One way to cut the corpus: ``kind`` is ``whole``, ``two-piece``, ``one-byte``, ``random`` or
    ``empty-reads``; ``cuts`` are the offsets (for ``empty-reads``, those of the one-byte reads)."""

    kind: str
    pieces: list
    cuts: tuple[int, ...]
    seed: int | None = None

    def label(self, unit: str = "byte") -> str:
        if self.kind == "whole":
            return "with the whole stream in one read"
        if self.kind == "two-piece":
            return f"with two reads cut at {unit} {self.cuts[0]}"
        if self.kind == "one-byte":
            return f"with one-{unit} reads"
        if self.kind == "random":
            return f"with the seeded random partition #{self.seed} ({len(self.pieces)} reads)"
        return f"with one-{unit} reads and an empty read before each"


def chunkings(data: Any, *, seeds: Sequence[int] = SEEDS, empty_reads: bool = False) -> Iterator[Chunking]:
    """The adversarial chunkings of ``data`` (bytes, or str cut at character positions), in order."""
    yield Chunking("whole", [data], ())
    for cut in range(1, len(data)):
        yield Chunking("two-piece", [data[:cut], data[cut:]], (cut,))
    yield Chunking("one-byte", one_byte_chunks(data), tuple(range(1, len(data))))
    for seed in seeds:
        cuts = random_cuts(len(data), seed)
        yield Chunking("random", split_at(data, cuts), tuple(cuts), seed)
    if empty_reads:
        empty = data[:0]
        pieces = [p for piece in one_byte_chunks(data) for p in (empty, piece)]
        yield Chunking("empty-reads", pieces, tuple(range(1, len(data))))


def count_summary(counts: dict[str, int], unit: str = "byte") -> str:
    """``{"whole": 1, "two-piece": 130, ...}`` as prose, e.g. for a success message."""
    parts = []
    if counts.get("whole"):
        parts.append("one whole read")
    if counts.get("two-piece"):
        parts.append(f"{counts['two-piece']} two-piece splits")
    if counts.get("one-byte"):
        parts.append(f"one-{unit} reads")
    if counts.get("random"):
        parts.append(f"{counts['random']} seeded random partitions")
    if counts.get("empty-reads"):
        parts.append("empty reads")
    return ", ".join(parts)


def shrink(cuts: Sequence[int], fails: Callable[[tuple[int, ...]], bool]) -> tuple[int, ...]:
    """Drop cuts one at a time, in order, keeping each drop that still fails. Deterministic."""
    kept = list(cuts)
    for cut in list(kept):
        trial = tuple(c for c in kept if c != cut)
        if trial and fails(trial):
            kept = list(trial)
    return tuple(kept)


# -- kinds of cut --------------------------------------------------------------------------------------


def classify_cut(data: bytes, cut: int, framing: str = "lines") -> str:
    """The kind of place ``cut`` falls in ``data``: see :data:`KIND_PHRASES`.

    ``framing`` is ``"text"`` (only characters matter), ``"sse"`` (a line boundary is inside or between
    events), or ``"lines"``.
    """
    head = data[:cut]
    if incomplete_tail_length(head):
        return "character"
    if framing == "text":
        return "between-characters"
    if head.endswith(b"\r") and data[cut : cut + 1] == b"\n":
        return "crlf"
    if not head.endswith((b"\r", b"\n")):
        return "line"
    if framing == "sse":
        parser = SSEParser(errors="replace", max_line_chars=None, max_event_chars=None)
        parser.feed(head)
        return "in-event" if parser.has_pending_event else "between-events"
    return "line-boundary"


def classify_text_cut(text: str, cut: int) -> str:
    """The kind of place ``cut`` (a character index) falls in ``text``."""
    if text[cut - 1] == "\r" and text[cut : cut + 1] == "\n":
        return "crlf"
    if text[cut - 1] not in "\r\n":
        return "line"
    return "line-boundary"


def kinds_of(cuts: Sequence[int], classify: Callable[[int], str]) -> list[str]:
    """The distinct kinds of ``cuts``, in the order of :data:`KIND_PHRASES`."""
    found = {classify(cut) for cut in cuts}
    return [kind for kind in KIND_PHRASES if kind in found]


def phrase(kinds: Sequence[str]) -> str:
    return " and ".join(KIND_PHRASES[k] for k in kinds)


# -- sweeping a corpus ---------------------------------------------------------------------------------


@dataclass
class Failure:
    """The first chunking that failed: where (``label``), what (``mismatch``), and the kinds of cut."""

    chunking: Chunking
    mismatch: str
    kinds: list[str] = field(default_factory=list)
    shrunk: tuple[int, ...] = ()

    def where(self, unit: str = "byte") -> str:
        c = self.chunking
        if c.kind == "whole":
            return c.label(unit)
        if c.kind == "two-piece":
            return f"{c.label(unit)}, {phrase(self.kinds)}"
        if c.kind == "empty-reads" and "empty" in self.kinds:
            return f"{c.label(unit)} (the same reads without the empty ones pass)"
        if self.shrunk:
            plural = "cut" if len(self.shrunk) == 1 else "cuts"
            offsets = ", ".join(str(x) for x in self.shrunk)
            return (
                f"{c.label(unit)}; it still fails with only {len(self.shrunk)} of those {plural}, at {unit} "
                f"{offsets}: {phrase(self.kinds)}"
            )
        return c.label(unit)


def sweep(
    data: Any,
    run: Callable[[list], Observed],
    expect: Callable[[list], Any],
    compare: Callable[[Observed, Any], str | None],
    classify: Callable[[int], str],
    *,
    empty_reads: bool = False,
) -> tuple[Failure | None, dict[str, int]]:
    """Run every chunking of ``data``; stop at the first whose observation ``compare`` rejects.

    ``run(pieces)`` calls the learner's code; ``expect(pieces)`` is the truth for those pieces;
    ``compare(observed, truth)`` returns ``None`` when they agree, else a short description.
    """
    counts: dict[str, int] = {}

    def mismatch_for(pieces: list) -> str | None:
        return compare(run(pieces), expect(pieces))

    for chunking in chunkings(data, empty_reads=empty_reads):
        mismatch = mismatch_for(chunking.pieces)
        if mismatch is None:
            counts[chunking.kind] = counts.get(chunking.kind, 0) + 1
            continue
        failure = Failure(chunking, mismatch)
        if chunking.kind == "two-piece":
            failure.kinds = kinds_of(chunking.cuts, classify)
        elif chunking.kind == "empty-reads":
            if mismatch_for(one_byte_chunks(data)) is None:
                failure.kinds = ["empty"]
        elif chunking.kind in ("one-byte", "random"):

            def fails(cuts: tuple[int, ...]) -> bool:
                return mismatch_for(split_at(data, cuts)) is not None

            failure.shrunk = shrink(chunking.cuts, fails)
            failure.kinds = kinds_of(failure.shrunk, classify)
        return failure, counts
    return None, counts


def compare_value(observed: Observed, truth: Any) -> str | None:
    """The usual comparison: the learner's code must return exactly the truth."""
    if observed.raised:
        return f"your code {observed.describe()}"
    if observed.value != truth:
        return f"the result differs from the truth {first_difference(observed.value, truth)}"
    return None


def hint_for(kinds: Sequence[str], chunking_kind: str, hints: dict[str, str], default: str) -> str:
    """The hint for the first kind that has one (``whole`` for a failure without any cut)."""
    if chunking_kind == "whole" and "whole" in hints:
        return hints["whole"]
    for kind in kinds:
        if kind in hints:
            return hints[kind]
    return default


def failure_result(
    key: str, failure: Failure, hints: dict[str, str], default: str, unit: str = "byte"
) -> Result:
    hint = hint_for(failure.kinds, failure.chunking.kind, hints, default)
    return Result(key, False, f"{failure.where(unit)}: {failure.mismatch}. Hint: {hint}")
