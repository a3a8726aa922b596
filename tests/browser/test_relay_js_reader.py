"""Lesson 10's JavaScript ``SSEReader`` (lesson_lib/net/relay_static/relay.js) in Chromium, beside lesson_lib.

The page's line and event rules must give the events ``SSEParser`` gives for the same text, whatever the
pieces, empty ones included (``decoder.decode(bytes, {stream: true})`` returns ``""`` for a read that holds
only part of a character, and the page feeds ``flush()`` at the end). And lesson 10's own settings for the
relay page (``?recut=1`` over lesson 10's first upstream, ``?variant=raw-rewrite`` over it with a delay)
must show what the lesson says they show.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from lesson_lib import SSEParser
from lesson_lib.captures import load
from lesson_lib.net.relay import RelayServer
from lesson_lib.net.replay import ReplayServer

pytestmark = pytest.mark.browser

TEXTS = [
    "data: 你好\r\ndata: Ångström\r\n\r\n",
    "data: a\rdata: b\r\rdata: 🙂\r\n\r\n",
    "event: x\ndata: café\n\n: ping\r\n\r\ndata: 完成\r\n\r\n",
]


def pieces_of(text: str) -> list[list[str]]:
    """Every two-piece split of ``text``, and each with an empty piece right after the cut."""
    out = []
    for cut in range(1, len(text)):
        out.append([text[:cut], text[cut:]])
        out.append([text[:cut], "", text[cut:]])
    for a, b in itertools.combinations(range(1, len(text)), 2):
        if text[a - 1] == "\r":  # three pieces around a CR: the cases a flag must survive
            out.append([text[:a], "", text[a:b], "", text[b:]])
    return out


def python_events(pieces: list[str]) -> list[list[str]]:
    parser = SSEParser()
    events = [e for piece in pieces for e in parser.feed(piece.encode())] + parser.close()
    return [[e.type, e.data] for e in events]


def _js_events(page: Any, cases: list[list[str]]) -> list[list[list[str]]]:
    return page.evaluate(
        """(cases) => cases.map((pieces) => {
            const seen = [];
            const reader = new SSEReader((type, data) => seen.push([type, data]));
            for (const piece of pieces) reader.feed(piece);
            reader.close();
            return seen;
        })""",
        cases,
    )


def test_the_page_reader_gives_lesson_lib_s_events_for_every_split_and_empty_feed(page: Any) -> None:
    body = b'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\ndata: [DONE]\n\n'
    with ReplayServer(body) as up, RelayServer(up.url, "openai-chat") as relay:
        page.goto(relay.url + "/")
        page.wait_for_function("() => typeof SSEReader === 'function'")
        cases = [pieces for text in TEXTS for pieces in pieces_of(text)]
        theirs = _js_events(page, cases)
    wrong = [(pieces, js) for pieces, js in zip(cases, theirs, strict=True) if js != python_events(pieces)]
    assert not wrong, json.dumps(wrong[:3], ensure_ascii=False)


def test_a_pending_cr_survives_an_empty_feed(page: Any) -> None:
    """The case that was wrong: ``data: a`` ended by a CR, an empty read, then the LF of that CRLF."""
    body = b"data: [DONE]\n\n"
    with ReplayServer(body) as up, RelayServer(up.url, "openai-chat") as relay:
        page.goto(relay.url + "/")
        page.wait_for_function("() => typeof SSEReader === 'function'")
        pieces = ["data: a\r", "", "\ndata: b\r\n\r\n"]
        assert _js_events(page, [pieces]) == [python_events(pieces)] == [[["message", "a\nb"]]]


def _naive_text(page: Any, url: str) -> str:
    page.goto(url)
    page.wait_for_function("() => window.relayReaders && window.relayReaders.finished === 3", timeout=20_000)
    return page.evaluate("() => document.getElementById('naive-text').textContent")


@pytest.mark.parametrize(("query", "delay"), [("?recut=1", 0.0), ("?variant=raw-rewrite", 0.15)])
def test_lesson_10_s_settings_corrupt_the_naive_reader(page: Any, query: str, delay: float) -> None:
    """Lesson 10, section 6: over the first section's upstream (a cut inside 你), ``?recut=1`` as it is, and
    ``?variant=raw-rewrite`` with ``delay=0.15`` between the upstream's pieces, make the naive reader show
    U+FFFD, three times out of three."""
    capture = load("openai-chat/completed")
    inside = capture.body.index("你".encode()) + 1
    for _ in range(3):
        upstream = ReplayServer(capture.body, [inside], delay=delay)
        with upstream as up, RelayServer(up.url, capture.contract) as relay:
            naive = _naive_text(page, relay.url + "/" + query)
        assert "\ufffd" in naive and naive != capture.text
