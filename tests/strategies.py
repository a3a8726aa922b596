"""Hypothesis strategies shared by the property tests: the data this package is about.

English-only data hides every bug Boundary Lab teaches, so the alphabets always mix ASCII, accented
Latin (precomposed and combining), Chinese, 4-byte emoji, and the characters ``str.splitlines()``
wrongly treats as line breaks.
"""

from __future__ import annotations

from hypothesis import strategies as st

from lesson_lib.core.chunking import one_byte_chunks, random_partition, split_at, two_piece_splits
from lesson_lib.core.errors import BoundaryError

#: Characters that make streaming bugs visible: 1-, 2-, 3- and 4-byte UTF-8, a combining accent, a ZWJ
#: emoji sequence part, and FF, VT, NEL, U+2028, U+2029 (data, not line breaks, in SSE and JSON).
TRICKY = "aZ :é\u0301Å你好第二行完成🙂🚀👩\u200d💻\x0c\x0b\x85\u2028\u2029\x00\ufeff"

tricky_text = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(codec="utf-8"), max_size=12)
#: Text with no CR or LF in it: a field value.
line_text = tricky_text.map(lambda s: s.replace("\r", "").replace("\n", ""))
line_ending = st.sampled_from(["\n", "\r", "\r\n"])


@st.composite
def partitions(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """Any chunking of ``data``: a hypothesis-chosen set of cut offsets (empty reads included)."""
    if len(data) < 2:
        pieces = [data]
    else:
        cuts = draw(st.lists(st.integers(1, len(data) - 1), max_size=min(len(data) - 1, 40)))
        pieces = split_at(data, cuts)
    if draw(st.booleans()):
        pieces.insert(draw(st.integers(0, len(pieces))), b"")  # a read that returned nothing
    return pieces


@st.composite
def sse_lines(draw: st.DrawFn) -> str:
    """One SSE line (without its ending): a field, a comment or a blank line."""
    kinds = ["data", "data", "data", "event", "id", "retry", "comment", "blank", "blank", "other"]
    kind = draw(st.sampled_from(kinds))
    if kind == "blank":
        return ""
    if kind == "comment":
        return ":" + draw(line_text)
    if kind == "retry":
        value = draw(st.one_of(st.from_regex(r"\A[0-9]{1,6}\Z"), line_text))
    else:
        value = draw(line_text)
    name = kind if kind != "other" else draw(st.sampled_from(["Data", "dat", "data ", "ïd", "x"]))
    separator = draw(st.sampled_from([":", ": ", ":  ", ""]))
    if separator == "":
        return name
    return name + separator + value


@st.composite
def sse_streams(draw: st.DrawFn) -> bytes:
    """A whole SSE body: random lines, random endings (CR, LF, CRLF), maybe a BOM, maybe cut short."""
    lines = draw(st.lists(sse_lines(), max_size=25))
    text = "".join(line + draw(line_ending) for line in lines)
    if draw(st.booleans()):
        text = "\ufeff" + text
    if draw(st.booleans()):
        text += draw(line_text)  # an unterminated last line
    return text.encode("utf-8")


def all_chunkings(body: bytes, seeds: int = 5):
    """Named chunkings of ``body``: whole, one byte at a time, every two-piece split, seeded partitions."""
    yield "whole", [body]
    yield "one byte", one_byte_chunks(body)
    for cut, pieces in two_piece_splits(body):
        yield f"cut at {cut}", pieces
    for seed in range(seeds):
        yield f"seed {seed}", random_partition(body, seed)


def feed_all(parser, chunks: list[bytes]) -> tuple[list, BoundaryError | None]:
    """Feed every chunk and close; return what came out (what an error carried included) and the error."""
    out: list = []
    try:
        for chunk in chunks:
            out.extend(parser.feed(chunk))
        out.extend(parser.close())
    except BoundaryError as exc:
        out.extend(exc.outputs)
        return out, exc
    return out, None


def where(exc: BoundaryError | None) -> tuple[object, ...] | None:
    """Everything an error says about its place, for comparing errors across chunkings."""
    if exc is None:
        return None
    return (
        type(exc).__name__,
        exc.offset,
        exc.line_index,
        exc.event_index,
        getattr(exc, "unit", None),
        getattr(exc, "char_index", None),
    )
