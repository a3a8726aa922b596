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

import inspect
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lesson_lib.core.chunking import one_byte_chunks, random_cuts, split_at
from lesson_lib.core.decoding import incomplete_tail_length
from lesson_lib.core.framing import framing as framing_named

from ..i18n import text
from . import Result

#: The seeds of the random partitions every checker tries.
SEEDS = tuple(range(20))

#: The kinds of place a cut can fall, in the order a report names them; each is named in a report by the
#: catalogue string ``checkers.core.kind.<kind>`` (hyphens as underscores).
CUT_KINDS = (
    "character",
    "between-characters",
    "crlf",
    "line",
    "in-event",
    "inside-event",
    "between-events",
    "line-boundary",
    "empty",
)


def kind_phrase(kind: str) -> str:
    """How a report names the kind of cut ``kind`` (one of :data:`CUT_KINDS`), in the current language."""
    return text(f"checkers.core.kind.{kind.replace('-', '_')}")


def unit_name(unit: str) -> str:
    """The word for ``unit`` (``"byte"`` or ``"character"``) in the current language."""
    return text(f"checkers.core.unit.{unit}")


class NotAttempted(Exception):
    """The learner's code still raises ``NotImplementedError``: report "not attempted", not a failure."""


def not_attempted(key: str, what: str) -> Result:
    return Result(key, False, text("checkers.core.not_attempted", what=what))


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
            return text("checkers.core.raised", error=describe_error(self.error))
        return text("checkers.core.returned", value=short(self.value))


def observe(call: Callable[[], Any]) -> Observed:
    """Run ``call``; a ``NotImplementedError`` anywhere means the exercise is not attempted yet.

    Whatever else the learner's code raises is an observation, ``BaseException`` included
    (``SystemExit``, ``asyncio.CancelledError`` leaking out, ...): only ``KeyboardInterrupt`` goes on, so
    that a learner can still stop a checker that hangs.
    """
    try:
        return Observed(value=call())
    except NotImplementedError as exc:
        raise NotAttempted from exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the learner's code may raise anything; that is an observation
        return Observed(error=exc)


def as_list(value: Any) -> Any:
    """``value`` as a list when it is an iterator or generator the learner returned instead of a list (a
    right variant); anything else (a list, a str, None, ...) as it is, for the comparison to judge."""
    if isinstance(value, list | str | bytes | bytearray | dict | tuple) or value is None:
        return value
    if isinstance(value, Iterator) or inspect.isgenerator(value):
        return list(value)
    return value


def describe_error(error: BaseException) -> str:
    try:
        message = str(error)
    except Exception:  # a learner's exception class whose __str__ itself raises
        message = ""
    return f"{type(error).__name__}: {short_text(message)}" if message else type(error).__name__


def short_text(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def short(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit``; never raises (a learner's object may have a broken ``__repr__``)."""
    try:
        shown = repr(value)
    except Exception:
        shown = f"<{type(value).__name__} object>"
    return short_text(shown, limit)


def differs(got: Any, expected: Any) -> bool:
    """``got != expected``, where a learner's object whose comparison raises differs (never a crash)."""
    try:
        return bool(got != expected)
    except Exception:
        return True


def first_difference(got: Any, expected: Any) -> str:
    """Where ``got`` first differs from ``expected``: a position and both sides, briefly."""
    if isinstance(got, str) and isinstance(expected, str):
        for index, (a, b) in enumerate(itertools.zip_longest(got, expected)):
            if differs(a, b):
                return text(
                    "checkers.core.diff.text_at",
                    index=index,
                    got=short(got[index : index + 12]),
                    truth=short(expected[index : index + 12]),
                )
        return text("checkers.core.diff.texts")
    if isinstance(got, list | tuple) and isinstance(expected, list | tuple):
        for index, (a, b) in enumerate(itertools.zip_longest(got, expected, fillvalue=_MISSING)):
            if differs(a, b):
                mine = text("checkers.core.diff.nothing") if a is _MISSING else short(a, 60)
                truth = text("checkers.core.diff.nothing") if b is _MISSING else short(b, 60)
                return text("checkers.core.diff.item_at", index=index, got=mine, truth=truth)
        return text("checkers.core.diff.lists")
    return text("checkers.core.diff.value", got=short(got), truth=short(expected))


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
            return text("checkers.core.label.whole")
        if self.kind == "two-piece":
            return text("checkers.core.label.two_piece", unit=unit_name(unit), cut=self.cuts[0])
        if self.kind == "one-byte":
            return text("checkers.core.label.one_unit", unit=unit_name(unit))
        if self.kind == "random":
            return text("checkers.core.label.random", seed=self.seed, reads=len(self.pieces))
        return text("checkers.core.label.empty_reads", unit=unit_name(unit))


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
        parts.append(text("checkers.core.summary.whole"))
    if counts.get("two-piece"):
        parts.append(text("checkers.core.summary.two_piece", n=counts["two-piece"]))
    if counts.get("one-byte"):
        parts.append(text("checkers.core.summary.one_unit", unit=unit_name(unit)))
    if counts.get("random"):
        parts.append(text("checkers.core.summary.random", n=counts["random"]))
    if counts.get("empty-reads"):
        parts.append(text("checkers.core.summary.empty_reads"))
    return text("checkers.core.summary.separator").join(parts)


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
    """The kind of place ``cut`` falls in ``data``: see :data:`CUT_KINDS`.

    ``framing`` is ``"text"`` (only characters matter), ``"lines"``, or the name of a framing
    (:data:`lesson_lib.core.framing.FRAMINGS`, e.g. ``"sse"``: a line boundary is inside or between
    events); any other name is a ``ValueError``.
    """
    units = None if framing in ("text", "lines") else framing_named(framing)  # before any work
    head = data[:cut]
    if incomplete_tail_length(head):
        return "character"
    if framing == "text":
        return "between-characters"
    if head.endswith(b"\r") and data[cut : cut + 1] == b"\n":
        return "crlf"
    if not head.endswith((b"\r", b"\n")):
        return "line"
    if units is not None:
        parser = units.new_parser(
            errors="replace", max_line_chars=None, max_event_chars=None, max_element_chars=None
        )
        parser.feed(head)
        return "in-event" if units.cut_unit(parser) == "event" else "between-events"
    return "line-boundary"


def classify_text_cut(text: str, cut: int) -> str:
    """The kind of place ``cut`` (a character index) falls in ``text``."""
    if text[cut - 1] == "\r" and text[cut : cut + 1] == "\n":
        return "crlf"
    if text[cut - 1] not in "\r\n":
        return "line"
    return "line-boundary"


def kinds_of(cuts: Sequence[int], classify: Callable[[int], str]) -> list[str]:
    """The distinct kinds of ``cuts``, in the order of :data:`CUT_KINDS`."""
    found = {classify(cut) for cut in cuts}
    return [kind for kind in CUT_KINDS if kind in found]


def phrase(kinds: Sequence[str]) -> str:
    """The kinds of cut named in the current language, joined ("inside a line and between two events")."""
    return text("checkers.core.kinds_separator").join(kind_phrase(k) for k in kinds)


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
            return text("checkers.core.where.two_piece", label=c.label(unit), kinds=phrase(self.kinds))
        if c.kind == "empty-reads" and "empty" in self.kinds:
            return text("checkers.core.where.empty", label=c.label(unit))
        if self.shrunk:
            fields = {
                "label": c.label(unit),
                "n": len(self.shrunk),
                "unit": unit_name(unit),
                "offsets": ", ".join(str(x) for x in self.shrunk),
                "kinds": phrase(self.kinds),
            }
            if len(self.shrunk) == 1:
                return text("checkers.core.where.shrunk_one", **fields)
            return text("checkers.core.where.shrunk_many", **fields)
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
        return text("checkers.core.compare.raised", did=observed.describe())
    if differs(observed.value, truth):
        return text("checkers.core.compare.differs", difference=first_difference(observed.value, truth))
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
    message = text("checkers.core.failure", where=failure.where(unit), mismatch=failure.mismatch, hint=hint)
    return Result(key, False, message)
