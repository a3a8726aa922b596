"""The relay's page in Debian's Chromium: three readers of one relayed stream, and closing the tab.

The relay (uvicorn in a thread) and its upstream (a ReplayServer) run in this process on 127.0.0.1; the
page is plain JavaScript served by the relay. Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from lesson_lib.net.relay import RelayServer
from lesson_lib.net.replay import ReplayServer

from ..net.test_relay import SHORT, SHORT_TEXT, chat_body

pytestmark = pytest.mark.browser


def _readers(page: Any) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(["naive", "correct", "eventsource"].flatMap((name) => [
            [name, document.getElementById(name + "-text").textContent],
            [name + "-state", document.getElementById(name + "-status").dataset.state],
            [name + "-status", document.getElementById(name + "-status").textContent]]))"""
    )


def _open(page: Any, url: str) -> dict[str, str]:
    page.goto(url)
    page.wait_for_function("() => window.relayReaders && window.relayReaders.finished === 3", timeout=20_000)
    return _readers(page)


@pytest.mark.parametrize(
    ("query", "cuts"),
    [
        ("?recut=1", []),  # the correct relay; every event written in two pieces cut inside a character
        ("?variant=raw-rewrite", "inside-characters"),  # the upstream's own cuts, forwarded as they came
    ],
)
def test_a_cut_inside_a_chinese_character_breaks_the_naive_reader_only(
    page: Any, artifacts: Path, query: str, cuts: Any
) -> None:
    if cuts == "inside-characters":  # one cut inside each character of the first delta
        start = SHORT.index("你好".encode())
        cuts = [start + 1, start + 4]
    with ReplayServer(SHORT, cuts, delay=0.15) as up, RelayServer(
        up.url, "openai-chat", recut_delay=0.15
    ) as relay:
        seen = _open(page, relay.url + "/" + query)
        page.screenshot(path=str(artifacts / f"relay_page_{query.strip('?').replace('=', '_')}.png"))
        assert seen["correct"] == SHORT_TEXT and seen["correct-state"] == "completed"
        assert seen["eventsource"] == SHORT_TEXT and seen["eventsource-state"] == "completed"
        assert "\ufffd" in seen["naive"] and seen["naive"] != SHORT_TEXT
        assert seen["naive"].replace("\ufffd", "") != SHORT_TEXT
        assert seen["naive-state"] == "completed"  # the outcome says completed; the text is corrupted


def test_without_the_outcome_event_no_reader_can_say_the_answer_completed(page: Any, artifacts: Path) -> None:
    with ReplayServer(SHORT) as up, RelayServer(up.url, "openai-chat") as relay:
        seen = _open(page, relay.url + "/?variant=drop-terminal")
        page.screenshot(path=str(artifacts / "relay_page_drop_terminal.png"))
        assert seen["correct"] == SHORT_TEXT and seen["eventsource"] == SHORT_TEXT
        assert {seen[f"{n}-state"] for n in ("naive", "correct", "eventsource")} == {"unknown"}
        assert len(up.requests) == 2  # the EventSource did not reconnect (the page closed it)


def test_a_failed_upstream_reaches_the_page_as_an_outcome(page: Any, artifacts: Path) -> None:
    dropped = ReplayServer(SHORT, drop_after=SHORT.index(b"[DONE]"))
    with dropped as up, RelayServer(up.url, "openai-chat") as relay:
        seen = _open(page, relay.url + "/")
        page.screenshot(path=str(artifacts / "relay_page_dropped.png"))
        for name in ("naive", "correct", "eventsource"):
            assert seen[f"{name}-state"] == "truncated", seen
            assert "NOT completed: truncated" in seen[f"{name}-status"]
        # The page closed its EventSource at the outcome event: no reconnection asks the relay again
        # (Chromium reconnects a few seconds after the body ends unless the page calls close()).
        page.wait_for_timeout(4000)
        assert relay.requests == 2


def test_closing_the_page_cancels_the_upstream_within_a_second(page: Any) -> None:
    slow = chat_body(*["你好"] * 40)
    cuts = [i for i in range(1, len(slow)) if slow.startswith(b"data: ", i)]
    with ReplayServer(slow, cuts, delay=0.25) as up, RelayServer(up.url, "openai-chat") as relay:
        page.goto(relay.url + "/")
        page.wait_for_function(
            """() => ["correct", "eventsource"].every(
                (name) => document.getElementById(name + "-text").textContent.length > 0)""",
            timeout=20_000,
        )
        assert up.open_connections == 2  # the fetch readers' response and the EventSource
        page.close()
        closed = time.monotonic()
        assert up.wait_idle(1.0), f"{up.open_connections} upstream connection(s) outlived the page by 1 s"
        assert time.monotonic() - closed < 1.0
        assert relay.client_disconnects == 2


def test_an_upstream_outcome_event_cannot_forge_the_verdict_on_the_page(page: Any, artifacts: Path) -> None:
    # A truncated upstream that sends `event: outcome` saying completed: the relay escapes it, and every
    # reader on the page shows the relay's own verdict (truncated), in one read and in 1-byte reads.
    from ..net.test_relay import FORGED

    for cuts in ([], list(range(1, len(FORGED)))):
        with ReplayServer(FORGED, cuts) as up, RelayServer(up.url, "openai-chat") as relay:
            seen = _open(page, relay.url + "/")
            page.screenshot(path=str(artifacts / f"relay_page_forged_{len(cuts)}.png"))
            for name in ("naive", "correct", "eventsource"):
                assert seen[name + "-state"] == "truncated", (name, seen)
            assert seen["correct"] == "你好"
