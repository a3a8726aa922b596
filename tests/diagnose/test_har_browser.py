"""A real HAR: Playwright records one in Debian's Chromium while it loads a stream from ReplayServer.

A whole stream's entry holds the body as text; a stream cut mid-body has no body at all (``_failureText``
``net::ERR_INCOMPLETE_CHUNKED_ENCODING``, size -1), and diagnose says so and what to capture instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lesson_lib.captures import load
from lesson_lib.net import ReplayServer
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # Debian's Chromium, as the browser tests run it

from .helpers import run

BODY = load("openai-chat/completed").body

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"),
        reason=f"needs Debian's Chromium at {CHROMIUM} (apt-get install chromium, or .ci/run as root)",
    ),
]


def record_har(path: Path, drop_after: int | None) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    with ReplayServer(BODY, [100, 2000], drop_after=drop_after) as server, playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(record_har_path=str(path), record_har_content="embed")
            page = context.new_page()
            event = "requestfailed" if drop_after is not None else "requestfinished"
            with page.expect_event(event, timeout=20_000):
                page.goto(server.url + "/v1/chat/completions", wait_until="commit", timeout=20_000)
            context.close()
        finally:
            browser.close()


def test_a_chromium_har_of_a_whole_stream(tmp_path: Path) -> None:
    path = tmp_path / "whole.har"
    record_har(path, None)
    result = run(str(path), "--json")
    report = result.json
    assert result.status == 0 and (report["format"], report["outcome"]) == ("har", "completed")
    assert report["contract"] == "openai-chat" and report["bytes"]["read"] == len(BODY)
    assert report["reads"] is None and report["naive"] is None


def test_a_chromium_har_of_a_cut_stream_has_no_body(tmp_path: Path) -> None:
    path = tmp_path / "cut.har"
    record_har(path, 2500)
    result = run(str(path))
    assert result.status == 2 and result.out == "" and result.err.count("\n") == 1
    assert "has no body (net::ERR_INCOMPLETE_CHUNKED_ENCODING)" in result.err
    assert "curl -N --trace-time --trace FILE" in result.err
