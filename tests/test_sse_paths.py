"""The three SSE paths give the same answer: the permanent differential test.

``SSEParser`` reads bytes along three paths (see the docstring of :mod:`lesson_lib.sse`):

* the layers one by one: decoder, line splitter, field loop (``_feed_now``), the path that finds exact
  error offsets;
* the one-pass path for a read that ends lines (``_feed_lines``), with the no-line-ending shortcut;
* the run path inside it (:mod:`lesson_lib.sse_runs`), normally only for reads of 4 KiB and more.

The same bytes go through the layers only, the one-pass path (runs off), the one-pass path with runs
forced on for every read, and one whole read; the events (comments included), the errors with their
offsets, and the parser's state after the last read must be identical. A restructuring of these paths
(a reference parser and a fast parser) changes only the adapters at the top of this file.
"""

from __future__ import annotations

from collections.abc import Callable
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import SSEParser, sse
from lesson_lib.errors import BoundaryError
from tests.strategies import partitions, sse_streams, where
from tests.test_sse_runs import run_texts

# -- the adapters: how each path is forced -----------------------------------------------------------------


class _LayersOnly(SSEParser):
    """Every read through the layers one by one: the one-pass and run paths are never tried."""

    def feed(self, chunk: bytes):  # type: ignore[override]
        return self._feed_now(chunk)


def _run(make: Callable[[], SSEParser], chunks: list[bytes], run_gate: int | None) -> tuple:
    """Feed, close, and describe everything observable: outputs, error and where, state afterwards."""
    gate = sse._RUN_MIN_CHARS if run_gate is None else run_gate
    with patch.object(sse, "_RUN_MIN_CHARS", gate):
        parser = make()
        out: list = []
        error: BoundaryError | None = None
        try:
            for chunk in chunks:
                out.extend(parser.feed(chunk))
            state_before_close = _state(parser)
            out.extend(parser.close())
        except BoundaryError as exc:
            out.extend(exc.outputs)
            error, state_before_close = exc, None
    return (
        out,
        where(error),
        str(error) if error is not None else None,
        state_before_close,
        parser.last_event_id,
        parser.retry,
        parser.events_out,
        parser.ended_mid,
    )


def _state(parser: SSEParser) -> dict[str, object]:
    snapshot = parser.snapshot()
    held, line, event, inside = parser.pending_sizes()
    snapshot["pending_sizes"] = (held, event, inside)
    # The unfinished line's size is documented as approximate while bytes wait undecoded (each counts
    # one): between its characters and its bytes, and the same in both views.
    pending = parser.pending_line
    size_in_bytes = len(pending.encode("utf-8", "surrogatepass")) + held
    snapshot["line size within bounds"] = (
        len(pending) <= line == parser.pending_line_chars <= size_in_bytes
    )
    return snapshot


def all_paths(body: bytes, chunks: list[bytes], **options: object) -> dict[str, tuple]:
    return {
        "layers only": _run(lambda: _LayersOnly(**options), chunks, None),
        "one pass, runs off": _run(lambda: SSEParser(**options), chunks, 1 << 62),
        "one pass, runs forced on": _run(lambda: SSEParser(**options), chunks, 0),
        "one whole read": _run(lambda: SSEParser(**options), [body], None),
    }


# -- the bodies -------------------------------------------------------------------------------------------
_INSERTS = [b"\xff", b"\xc3", b"\xe4\xbd", b"\xf0\x9f\x99", b"\r", b"\n\n", b"\xef\xbb\xbf", b"\x00", b":\n"]


@st.composite
def fuzzed_bodies(draw: st.DrawFn) -> bytes:
    """Large SSE bodies: runs of one-shape events, random fields and endings, long values, stray bytes."""
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["runs", "runs", "fields", "long"]))
        if kind == "runs":
            text = draw(run_texts())
            if draw(st.booleans()):
                text = text.replace("\n", draw(st.sampled_from(["\r\n", "\r"])))
            parts.append(text.encode())
        elif kind == "fields":
            parts.append(draw(sse_streams()))
        else:
            name = draw(st.sampled_from(["data", "retry", "id", "event", ""]))
            value = draw(st.sampled_from(["你好" * 700, "9" * 4400, "é🙂" * 600, "x" * 5000]))
            parts.append(f"{name}: {value}\n\n".encode())
    body = b"".join(parts)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(body)))
        body = body[:at] + draw(st.sampled_from(_INSERTS)) + body[at:]
    return body


options = st.fixed_dictionaries({
    "errors": st.sampled_from(["strict", "replace"]),
    "comments": st.booleans(),
    "max_line_chars": st.sampled_from([None, 4 * 1024 * 1024, 12, 40, 300, 3000]),
    "max_event_chars": st.sampled_from([None, 16 * 1024 * 1024, 10, 64, 2000]),
})


@settings(deadline=None, max_examples=300)
@given(st.data(), fuzzed_bodies(), options)
def test_the_three_paths_and_one_whole_read_agree(data, body, parser_options):
    chunks = data.draw(partitions(body))
    results = all_paths(body, chunks, **parser_options)
    reference = results["layers only"]
    for name, result in results.items():
        assert result == reference, name


@settings(deadline=None, max_examples=60)
@given(st.data(), st.lists(run_texts(), min_size=20, max_size=40).map("".join))
def test_large_reads_agree_on_every_path(data, text):
    # Reads of 4 KiB and more take the run path by itself, without forcing.
    body = text.encode() * 4
    size = data.draw(st.sampled_from([4096, 8192, 65536]))
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    results = all_paths(body, chunks)
    assert len({repr(result) for result in results.values()}) == 1, results.keys()
