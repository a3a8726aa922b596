"""lesson_lib's SSEParser against the SSE decoders people use, on the same bytes in the same chunkings.

lesson_lib's ReferenceSSEParser runs on every case and chunking too, and must give the fast parser's answer.

The decoders: httpx-sse (through a real ``httpx.Response``, so httpx's text decoding is included), and the
decoders the official ``openai`` and ``anthropic`` SDKs make for their streams. The corpus: every SSE capture
in data/ plus the spec's edge cases. lesson_lib, with ``errors="replace"``, is the WHATWG reference here
(its conformance is tested in test_sse.py).

Every difference found is listed in DEVIATIONS with its explanation. A difference not listed fails, and so
does a listed one that no longer happens: the list is exactly what was observed.
"""

from __future__ import annotations

from functools import cache

import anthropic
import httpx
import openai
import pytest
from httpx_sse import EventSource

from lesson_lib import ReferenceSSEParser, SSEParser
from lesson_lib.captures import load, manifest
from lesson_lib.core.chunking import one_byte_chunks, random_partition, split_at, two_piece_splits

UTF8 = "text/event-stream; charset=utf-8"

# --- the decoders, reduced to (events as (type, data, last event ID), last retry seen) --------------------


def _lesson_lib(parser_class: type, chunks: list[bytes]) -> object:
    parser = parser_class(errors="replace", max_line_chars=None, max_event_chars=None)
    events = [event for chunk in chunks for event in parser.feed(chunk)]
    parser.close()
    return [(e.type, e.data, e.last_event_id) for e in events], parser.retry


def reference(chunks: list[bytes], content_type: str) -> object:
    """lesson_lib's answer; the reference parser and the fast one must give the same."""
    fast = _lesson_lib(SSEParser, chunks)
    assert _lesson_lib(ReferenceSSEParser, chunks) == fast
    return fast


def _reduce(events) -> object:
    out, retry = [], None
    for event in events:
        out.append((event.event or "message", event.data, event.id or ""))
        retry = event.retry if event.retry is not None else retry
    return out, retry


def httpx_sse(chunks: list[bytes], content_type: str) -> object:
    response = httpx.Response(200, headers={"content-type": content_type}, content=iter(chunks))
    return _reduce(EventSource(response).iter_sse())


@cache
def _clients() -> tuple[openai.OpenAI, anthropic.Anthropic]:  # never sends a request
    return (
        openai.OpenAI(api_key="k", base_url="http://127.0.0.1:9"),
        anthropic.Anthropic(api_key="k", base_url="http://127.0.0.1:9"),
    )


def openai_sdk(chunks: list[bytes], content_type: str) -> object:
    return _reduce(_clients()[0]._make_sse_decoder().iter_bytes(iter(chunks)))


def anthropic_sdk(chunks: list[bytes], content_type: str) -> object:
    return _reduce(_clients()[1]._make_sse_decoder().iter_bytes(iter(chunks)))


DECODERS = {"httpx-sse": httpx_sse, "openai": openai_sdk, "anthropic": anthropic_sdk}


def run(decoder, chunks: list[bytes], content_type: str) -> object:
    try:
        return decoder(chunks, content_type)
    except Exception as exc:  # a decoder that raises is a difference like any other
        return f"raises {type(exc).__name__}"


# --- the corpus ---------------------------------------------------------------------------------------------

EDGE_CASES: dict[str, tuple[bytes, str]] = {
    "bom": (b"\xef\xbb\xbfdata: \xe4\xbd\xa0\xe5\xa5\xbd\n\ndata: b\n\n", UTF8),
    "bom_twice": (b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n", UTF8),
    "cr_only": ("data: 你\rdata: é\r\rdata: 🙂\r\r".encode(), UTF8),
    "crlf": ("data: Ångström\r\n\r\ndata: b\r\n\r\n".encode(), UTF8),
    "lf_then_cr": (b"data: a\n\rdata: b\n\r", UTF8),
    "cr_blank_then_lf": (b"data: a\r\rdata: b\n\n", UTF8),
    "empty_data": (b"data\n\ndata:\n\ndata: \n\n", UTF8),
    "event_only_block": (b"event: x\n\ndata: a\n\n", UTF8),
    "id_only_block": (b"id: 7\n\ndata: a\n\n", UTF8),
    "retry_only_block": (b"retry: 5\n\ndata: a\n\n", UTF8),
    "id_with_nul": (b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", UTF8),
    "id_empty_resets": (b"id: 1\ndata: a\n\nid\ndata: b\n\n", UTF8),
    "id_persists": (b"id: 1\ndata: a\n\ndata: b\n\n", UTF8),
    "retry_digits": (b"retry: 1500\ndata: a\n\n", UTF8),
    "retry_letters": (b"retry: 10a\ndata: a\n\nretry: ten\ndata: b\n\n", UTF8),
    "retry_space": (b"retry:  100\ndata: a\n\n", UTF8),
    "retry_signs": (b"retry: -5\ndata: a\n\nretry: +7\ndata: b\n\n", UTF8),
    "retry_underscore": (b"retry: 1_000\ndata: a\n\n", UTF8),
    "retry_non_ascii_digits": ("retry: ١٢\ndata: a\n\n".encode(), UTF8),
    "comments": (b": ping\ndata: a\n: mid-event\ndata: b\n\n:\n\n: only a comment\n\n", UTF8),
    "multi_line_data": ("data: 第一行\ndata: second\ndata\ndata: 🙂\n\n".encode(), UTF8),
    "splitlines_characters": ("data: a\u2028b\u2029c\x85d\x0be\x0cf\x1cg\n\n".encode(), UTF8),
    "space_after_colon": (b"data:  two\ndata:none\nevent:x\n\n", UTF8),
    "unknown_and_uppercase_fields": (b"foo: bar\nDATA: x\nData: y\ndata: a\n\n", UTF8),
    "colon_in_value": (b'data: {"a": "b: c"}\n\n', UTF8),
    "event_type_resets": (b"event: x\ndata: a\n\ndata: b\n\n", UTF8),
    "no_blank_line_at_end": (b"data: a\n\ndata: b", UTF8),
    "no_blank_line_after_last_line": (b"data: a\n\ndata: b\n", UTF8),
    "invalid_utf8": (b"data: a\xffb\n\n", UTF8),
    "charset_latin1_header": ("data: Ångström café\n\n".encode(), "text/event-stream; charset=iso-8859-1"),
    "no_charset": ("data: Ångström café\n\n".encode(), "text/event-stream"),
}

CAPTURES: dict[str, tuple[bytes, str]] = {
    entry["file"].rsplit(".", 1)[0]: (load(entry["file"].rsplit(".", 1)[0]).body, UTF8)
    for entry in manifest()
    if entry["file"].endswith(".sse")
}

CORPUS = {**EDGE_CASES, **CAPTURES}


def chunkings(case: str) -> dict[str, list[bytes]]:
    body = CORPUS[case][0]
    out = {"whole": [body], "one byte": one_byte_chunks(body)}
    if case in EDGE_CASES:
        out.update((f"cut at {cut}", pieces) for cut, pieces in two_piece_splits(body))
    else:
        out.update((f"seed {seed}", random_partition(body, seed, max_cuts=300)) for seed in range(3))
    if b"\r\n" in body:  # a CR at the end of one read, its LF at the start of the next
        cut = body.index(b"\r\n") + 1
        out["CRLF across reads"] = split_at(body, [cut])
    return out


# --- what differs, and why ------------------------------------------------------------------------------

ALL = tuple(DECODERS)
BOM = (
    "A leading U+FEFF is not skipped: it becomes part of the first field name ('\\ufeffdata'), an unknown "
    "field, so the first event is lost. The spec skips one BOM at the start of the stream."
)
EMPTY_DISPATCH = (
    "A block with no data line is dispatched as an event with empty data (its event type, id or retry is "
    "enough). The spec: if the data buffer is empty, nothing is dispatched."
)
LENIENT_RETRY = (
    "retry is read with int(), which accepts {what}. The spec ignores a retry value that is not only ASCII "
    "digits."
)
STRICT_UTF8 = (
    "Each line is decoded with strict UTF-8, so invalid bytes raise UnicodeDecodeError out of the iterator. "
    "The spec decodes with replacement (U+FFFD), as browsers do."
)
UNFINISHED_CHARACTER = (
    "The body ends inside a character, in a line that never ended. The spec discards an unfinished line; "
    "this decoder decodes it strictly and raises UnicodeDecodeError at the end of the stream."
)

DEVIATIONS: dict[tuple[str, str], str] = {
    **{(d, "bom"): BOM for d in ALL},
    **{(d, "event_only_block"): EMPTY_DISPATCH for d in ALL},
    **{(d, "id_only_block"): EMPTY_DISPATCH for d in ALL},
    **{(d, "retry_only_block"): EMPTY_DISPATCH for d in ALL},
    **{(d, "retry_space"): LENIENT_RETRY.format(what="surrounding whitespace (' 100')") for d in ALL},
    **{(d, "retry_signs"): LENIENT_RETRY.format(what="a sign ('-5', '+7')") for d in ALL},
    **{(d, "retry_underscore"): LENIENT_RETRY.format(what="digit grouping ('1_000')") for d in ALL},
    **{(d, "retry_non_ascii_digits"): LENIENT_RETRY.format(what="non-ASCII digits ('١٢')") for d in ALL},
    ("openai", "invalid_utf8"): STRICT_UTF8,
    ("anthropic", "invalid_utf8"): STRICT_UTF8,
    ("httpx-sse", "charset_latin1_header"): (
        "httpx-sse reads the body through httpx's iter_text(), which decodes with the charset of the "
        "Content-Type header: UTF-8 bytes labelled ISO-8859-1 become 'Ã\\x85ngstrÃ¶m cafÃ©'. The spec: an "
        "event stream is always UTF-8, whatever the header says. (The SDKs decode bytes as UTF-8.)"
    ),
    **{  # every SSE capture whose body ends inside a UTF-8 character (the manifest says which)
        (d, entry["file"].rsplit(".", 1)[0]): UNFINISHED_CHARACTER
        for d in ("openai", "anthropic")
        for entry in manifest()
        if entry["truncated_at"] == "character" and entry["file"].endswith(".sse")
    },
}

MATRIX = [(decoder, case) for case in CORPUS for decoder in DECODERS]


def differences(decoder: str, case: str) -> dict[str, object]:
    body, content_type = CORPUS[case]
    expected = reference([body], content_type)
    found = {}
    for name, chunks in chunkings(case).items():
        assert reference(chunks, content_type) == expected  # the reference itself never depends on reads
        got = run(DECODERS[decoder], chunks, content_type)
        if got != expected:
            found[name] = got
    return found


@pytest.mark.parametrize(("decoder", "case"), MATRIX, ids=[f"{d}-{c}" for d, c in MATRIX])
def test_every_difference_is_known_and_explained(decoder, case):
    found = differences(decoder, case)
    if (decoder, case) in DEVIATIONS:
        assert found, f"listed deviation no longer happens: {DEVIATIONS[decoder, case]}"
        # every listed deviation shows in every chunking: none of these decoders depends on the reads
        assert set(found) == set(chunkings(case)), f"depends on the chunking: {sorted(found)}"
    else:
        example = next(iter(found.items()), None)
        assert not found, f"new difference from the spec in {len(found)} chunkings, e.g. {example}"


def test_the_deviation_list_names_only_real_cases():
    assert set(DEVIATIONS) <= set(MATRIX)
    assert all(len(text) > 40 for text in DEVIATIONS.values())


def test_what_the_deviations_look_like():
    """The observations the lesson quotes, stated once as plain values."""
    assert run(httpx_sse, [EDGE_CASES["bom"][0]], UTF8) == ([("message", "b", "")], None)
    assert run(openai_sdk, [b"event: x\n\ndata: a\n\n"], UTF8) == (
        [("x", "", ""), ("message", "a", "")],
        None,
    )
    assert run(anthropic_sdk, [b"retry: 1_000\ndata: a\n\n"], UTF8) == ([("message", "a", "")], 1000)
    latin1 = run(httpx_sse, [EDGE_CASES["charset_latin1_header"][0]], "text/event-stream; charset=iso-8859-1")
    assert latin1 == ([("message", "Ã\x85ngstrÃ¶m cafÃ©", "")], None)
