"""Verdicts and the scoreboard, over HTTP: each catalogue entry grades its own expected verdict right and
another wrong; bad verdicts are 400 naming the field; the board counts by fault and client, is bounded,
keeps no verdict text, and shows itself as JSON or as an escaped HTML page; ``GET /faults`` and ``GET /``.
"""

from __future__ import annotations

import json

import pytest

from lesson_lib import Outcome
from lesson_lib.faults import CATALOGUE, catalogue_json
from lesson_lib.faults.routes import prefers_html
from lesson_lib.faults.scoreboard import (
    OUTCOMES,
    Scoreboard,
    ScoreboardFull,
    Verdict,
    VerdictError,
    parse_verdict,
)
from lesson_lib.faults.server import FaultServer

from .helpers import exchange, get, post

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"


def verdict(port: int, name: str, payload: object) -> tuple[int, dict]:
    got = post(
        port, f"/faults/{name}/verdict", json.dumps(payload).encode(), (("Content-Type", "application/json"),)
    )
    return got.status, json.loads(got.body)


def _outcome_of(also: object) -> object:
    """An ``also`` item's outcome: a string, an (outcome, text) pair, or a dict with ``outcome``."""
    if isinstance(also, str):
        return also
    return also["outcome"] if isinstance(also, dict) else also[0]  # type: ignore[index]


def other_outcome(expected: str, also: list) -> str:
    right = {expected, *(_outcome_of(item) for item in also)}
    return next(outcome for outcome in OUTCOMES if outcome not in right)


def test_the_catalogue_lists_every_entry_with_its_base_url(server: FaultServer) -> None:
    got = get(server.port, "/faults")
    assert got.status == 200 and got.header("content-type") == "application/json"
    entries = json.loads(got.body)
    assert [e["name"] for e in entries] == [f.name for f in CATALOGUE]
    for entry, listed in zip(entries, catalogue_json(), strict=True):
        assert entry == {**listed, "base_url": f"{server.url}/faults/{listed['name']}"}
        assert {"name", "contract", "lesson", "description", "expected"} <= entry.keys()


def test_every_entry_grades_its_expected_verdict_right_and_another_wrong(server: FaultServer) -> None:
    for fault in CATALOGUE:
        expected = fault.as_json()["expected"]
        status, answer = verdict(
            server.port, fault.name, {"client": "oracle", **{k: expected[k] for k in ("outcome", "text")}}
        )
        assert status == 200 and answer == {"right": True, "expected": expected, "fault": fault.name}
        status, answer = verdict(
            server.port, fault.name, {"client": "oracle", "outcome": fault.expected.outcome}
        )
        assert answer["right"] is True  # without its text, only the outcome is judged
        wrong = other_outcome(fault.expected.outcome, expected.get("also", []))
        status, answer = verdict(
            server.port, fault.name, {"client": "wrong", "outcome": wrong, "text": expected["text"]}
        )
        assert status == 200 and answer["right"] is False
        status, answer = verdict(
            server.port,
            fault.name,
            {"client": "wrong", "outcome": fault.expected.outcome, "text": expected["text"] + "x"},
        )
        assert answer["right"] is False  # the right outcome with another text is wrong
        status, answer = verdict(server.port, fault.name, {"client": "crashy", "raised": "KeyError"})
        assert status == 200 and answer["right"] is False
    board = json.loads(get(server.port, "/scoreboard").body)
    assert board["clients"] == ["oracle", "wrong", "crashy"]
    for row in board["faults"]:
        assert row["tallies"] == {
            "oracle": {"right": 2, "wrong": 0, "raised": 0},
            "wrong": {"right": 0, "wrong": 2, "raised": 0},
            "crashy": {"right": 0, "wrong": 1, "raised": 1},
        }
    n = len(CATALOGUE)
    assert board["totals"]["oracle"] == {"right": 2 * n, "wrong": 0, "raised": 0}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"not json", None),
        (b"[1, 2]", None),
        (b'{"outcome": "completed"}', "client"),
        (b'{"client": "c"}', "outcome"),
        (b'{"client": "", "outcome": "completed"}', "client"),
        (b'{"client": "' + b"x" * 101 + b'", "outcome": "completed"}', "client"),
        (b'{"client": "tab\\there", "outcome": "completed"}', "client"),
        (b'{"client": 7, "outcome": "completed"}', "client"),
        (b'{"client": "c", "outcome": "fine"}', "outcome"),
        (b'{"client": "c", "outcome": "completed", "text": 3}', "text"),
        (b'{"client": "c", "outcome": "completed", "outcom": "x"}', "outcom"),
        (b'{"client": "c", "raised": "E", "outcome": "completed"}', "raised"),
    ],
)
def test_a_bad_verdict_is_400_naming_the_field(server: FaultServer, body: bytes, field: str | None) -> None:
    got = post(server.port, f"/faults/{CATALOGUE[0].name}/verdict", body)
    error = json.loads(got.body)["error"]
    assert got.status == 400 and error["status"] == 400 and error.get("field") == field
    if field is not None:
        assert repr(field) in error["message"]
    with pytest.raises(VerdictError) as raised:
        parse_verdict(body)
    assert raised.value.field == field
    assert json.loads(get(server.port, "/scoreboard").body)["clients"] == []  # nothing counted


def test_a_verdict_for_an_unknown_fault_is_404(server: FaultServer) -> None:
    status, answer = verdict(server.port, "no-such-fault", {"client": "c", "outcome": "completed"})
    assert status == 404 and "no-such-fault" in answer["error"]["message"]


def test_the_outcomes_are_lesson_libs() -> None:
    assert tuple(o.value for o in Outcome) == OUTCOMES
    assert parse_verdict(b'{"client": "c", "outcome": "timed_out", "text": null}') == Verdict(
        "c", "timed_out", None
    )


def test_the_board_is_bounded_in_client_names() -> None:
    with FaultServer(max_clients=3) as running:
        name = CATALOGUE[0].name
        for client in ("a", "b", "c"):
            assert verdict(running.port, name, {"client": client, "outcome": "completed"})[0] == 200
        status, answer = verdict(running.port, name, {"client": "d", "outcome": "completed"})
        assert (
            status == 507
            and answer["error"]["field"] == "client"
            and "3 client names" in answer["error"]["message"]
        )
        assert (
            verdict(running.port, name, {"client": "a", "outcome": "completed"})[0] == 200
        )  # known: counted
        board = json.loads(get(running.port, "/scoreboard").body)
        assert board["clients"] == ["a", "b", "c"] and board["max_clients"] == 3
    board = Scoreboard(CATALOGUE, max_clients=1)
    board.record(name, Verdict("x", "completed"))
    with pytest.raises(ScoreboardFull):
        board.record(name, Verdict("y", "completed"))
    with pytest.raises(KeyError):
        board.record("no-such-fault", Verdict("x", "completed"))


def test_no_verdict_text_is_kept_or_shown(server: FaultServer) -> None:
    name = CATALOGUE[0].name
    verdict(server.port, name, {"client": "c", "outcome": "completed", "text": "SECRET-VERDICT-TEXT"})
    for query in ("?format=json", "?format=html"):
        assert b"SECRET-VERDICT-TEXT" not in get(server.port, f"/scoreboard{query}").body


def test_the_scoreboard_negotiates_json_or_html(server: FaultServer) -> None:
    def kind(target: str, accept: str | None = None) -> str:
        got = get(server.port, target, (("Accept", accept),) if accept else ())
        assert got.status == 200
        return got.header("content-type").split(";")[0]

    assert kind("/scoreboard") == "application/json"
    assert kind("/scoreboard", "*/*") == "application/json"
    assert kind("/scoreboard", "application/json") == "application/json"
    assert kind("/scoreboard", "text/html") == "text/html"
    assert kind("/scoreboard", BROWSER_ACCEPT) == "text/html"
    assert kind("/scoreboard?format=json", BROWSER_ACCEPT) == "application/json"
    assert kind("/scoreboard?format=html") == "text/html"
    assert kind("/", BROWSER_ACCEPT) == "text/html" and kind("/") == "application/json"
    bad = get(server.port, "/scoreboard?format=xml")
    assert bad.status == 400 and json.loads(bad.body)["error"]["field"] == "format"
    assert not prefers_html("application/json, text/html;q=0.5")
    assert prefers_html("text/*;q=0.9, application/json;q=0.1")
    assert not prefers_html("*/*;q=0.9, text/*;q=0.1, application/json;q=0.5")  # the most specific range
    assert not prefers_html(None) and not prefers_html("")


def test_the_html_page_escapes_every_name(server: FaultServer) -> None:
    name = CATALOGUE[0].name
    evil = '<script>alert("x")</script>&amp;'
    verdict(server.port, name, {"client": evil, "outcome": "completed"})
    page = get(server.port, "/scoreboard?format=html").body.decode()
    assert "<script>" not in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;" in page
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    for fault in CATALOGUE:
        assert f'data-fault="{fault.name}"' in page


def test_the_index_names_the_routes(server: FaultServer) -> None:
    index = json.loads(get(server.port, "/").body)
    paths = [route["path"] for route in index["routes"]]
    assert paths == ["/faults", "/faults/<name>/<service path>", "/faults/<name>/verdict", "/scoreboard"]
    page = get(server.port, "/", (("Accept", "text/html"),)).body.decode()
    assert "&lt;name&gt;" in page and "<name>" not in page


def test_base_urls_follow_the_host_the_client_used(server: FaultServer) -> None:
    name = CATALOGUE[0].name
    named = json.loads(
        exchange(server.port, b"GET /faults HTTP/1.1\r\nHost: faults.example:8080\r\n\r\n").response.body
    )
    assert named[0]["base_url"] == f"http://faults.example:8080/faults/{name}"
    odd = exchange(server.port, b"GET /faults HTTP/1.1\r\nHost: a b<c>\r\n\r\n").response
    assert (
        json.loads(odd.body)[0]["base_url"] == f"{server.url}/faults/{name}"
    )  # not well-formed: the server's
