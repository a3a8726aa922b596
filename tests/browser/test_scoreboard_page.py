"""The fault server's scoreboard in Debian's Chromium: the page a browser gets for ``GET /scoreboard`` (its
own ``Accept`` header asks for HTML) is a table of faults by clients with each cell's counts, and a client
name made of markup is shown as text, never run. Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from lesson_lib.faults import CATALOGUE
from lesson_lib.faults.server import FaultServer

pytestmark = pytest.mark.browser

EVIL = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


def _verdict(url: str, name: str, payload: dict[str, object]) -> bool:
    request = urllib.request.Request(
        f"{url}/faults/{name}/verdict", json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=10) as response:
        return json.loads(response.read())["right"]


def test_the_scoreboard_page_shows_counts_by_fault_and_client(page: Any, artifacts: Path) -> None:
    with FaultServer() as server:
        first = CATALOGUE[0]
        right = {"outcome": first.expected.outcome, "text": first.expected.text}
        assert _verdict(server.url, first.name, {"client": "good", **right})
        assert _verdict(server.url, first.name, {"client": "good", **right})
        assert not _verdict(server.url, first.name, {"client": EVIL, "raised": "KeyError"})
        page.goto(f"{server.url}/scoreboard")
        page.screenshot(path=str(artifacts / "fault_scoreboard.png"))
        seen = page.evaluate(
            """() => ({
                title: document.title,
                clients: [...document.querySelectorAll("thead th")].slice(3).map((th) => th.textContent),
                faults: [...document.querySelectorAll("tbody tr")].map((tr) => tr.dataset.fault),
                first: [...document.querySelectorAll("tbody tr")[0].querySelectorAll("td")].slice(2)
                    .map((td) => [td.className, td.textContent]),
                pwned: window.pwned === undefined ? null : window.pwned,
                images: document.querySelectorAll("img").length,
            })"""
        )
    assert seen["title"] == "Boundary Lab: fault scoreboard"
    assert seen["clients"] == ["good", EVIL]  # the markup is the name's text
    assert seen["faults"] == [fault.name for fault in CATALOGUE]
    assert seen["first"] == [["right", "2 right / 0 wrong"], ["wrong", "0 right / 1 wrong (1 raised)"]]
    assert seen["pwned"] is None and seen["images"] == 0
