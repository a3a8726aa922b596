"""score(): a user's function run over the catalogue, each verdict posted to the server's scoreboard; a
right client, a wrong one, one that raises, one that returns nonsense or hangs; the table as text and JSON;
bad arguments before any I/O."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse

import pytest

from lesson_lib import StreamResult, consume
from lesson_lib.faults import CATALOGUE
from lesson_lib.faults.examples import example_request
from lesson_lib.faults.scoring import NotAVerdict, ScoreError, ScoreTable, score
from lesson_lib.faults.server import FaultServer

from .helpers import get


def oracle(entry: dict) -> dict:
    """Says exactly what the catalogue expects (right by construction)."""
    return {"outcome": entry["expected"]["outcome"], "text": entry["expected"]["text"]}


def wrong(entry: dict) -> tuple[str, str]:
    """The expected outcome with a text no entry expects (wrong whatever else is right too)."""
    return (entry["expected"]["outcome"], "not the text \ufffe")


def raising(entry: dict) -> dict:
    raise ValueError("SECRET in an exception message")


def lesson_lib_client(entry: dict) -> StreamResult:
    """A real client: http.client to the entry's base URL + path, lesson_lib's consume on the reads."""
    request = example_request(entry["contract"], entry["path"])
    url = urllib.parse.urlsplit(entry["base_url"])
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
    try:
        connection.request(request.method, url.path + request.target, request.body, dict(request.headers))
        response = connection.getresponse()
        return consume(iter(lambda: response.read1(65536), b""), entry["contract"])
    finally:
        connection.close()


def test_a_right_client_is_right_on_every_fault_and_the_board_has_it(server: FaultServer) -> None:
    table = score(oracle, base_url=server.url, client_name="oracle")
    assert isinstance(table, ScoreTable) and table.all_right
    assert [row.fault for row in table.rows] == [fault.name for fault in CATALOGUE]
    assert table.totals == {"right": len(CATALOGUE), "wrong": 0, "raised": 0, "total": len(CATALOGUE)}
    board = json.loads(get(server.port, "/scoreboard").body)
    assert board["clients"] == ["oracle"]
    assert all(row["tallies"] == {"oracle": {"right": 1, "wrong": 0, "raised": 0}} for row in board["faults"])


def test_a_wrong_client_and_a_raising_one_are_rows_not_crashes(server: FaultServer) -> None:
    bad = score(wrong, base_url=server.url)
    assert not bad.all_right and {row.result for row in bad.rows} == {"wrong"}
    assert bad.client == "wrong"  # the function's name by default
    raised = score(raising, base_url=server.url, client_name="raiser")
    assert {row.result for row in raised.rows} == {"raised"}
    assert {row.got for row in raised.rows} == {"raised ValueError"}
    text = raised.render_text()
    assert "SECRET" not in text and "raised ValueError" in text
    assert f"0 right, 0 wrong, {len(CATALOGUE)} raised, of {len(CATALOGUE)}" in text
    board = json.loads(get(server.port, "/scoreboard").body)
    assert board["totals"]["raiser"] == {"right": 0, "wrong": len(CATALOGUE), "raised": len(CATALOGUE)}
    assert board["totals"]["wrong"]["wrong"] == len(CATALOGUE)


def test_lesson_libs_own_client_is_right_on_the_control() -> None:
    table = score(lesson_lib_client, names=["openai-chat-control"])
    (row,) = table.rows
    assert row.result == "right" and row.outcome == "completed"
    assert row.text_chars == len(row.expected["text"]) > 0


def test_what_a_client_may_return(server: FaultServer) -> None:
    name = CATALOGUE[0].name
    expected = CATALOGUE[0].expected
    shapes = {
        "dict": lambda e: {"outcome": expected.outcome, "text": expected.text},
        "dict without text": lambda e: {"outcome": expected.outcome},
        "tuple": lambda e: (expected.outcome, expected.text),
        "object": lambda e: type("R", (), {"outcome": expected.outcome, "text": expected.text})(),
    }
    for label, client in shapes.items():
        (row,) = score(client, base_url=server.url, names=[name], client_name=label).rows
        assert row.result == "right", label
    for nonsense in (
        None,
        42,
        {"text": "x"},
        ("completed",),
        {"outcome": "fine"},
        {"outcome": "completed", "text": 1},
    ):
        (row,) = score(lambda e, n=nonsense: n, base_url=server.url, names=[name], client_name="n").rows
        assert (row.result, row.raised) == ("raised", NotAVerdict.__name__), nonsense


def test_a_client_that_hangs_is_cut_off_by_the_timeout(server: FaultServer) -> None:
    release = threading.Event()

    def hangs(entry: dict) -> dict:
        release.wait(30)
        return oracle(entry)

    try:
        (row,) = score(hangs, base_url=server.url, names=[CATALOGUE[0].name], timeout=0.2).rows
    finally:
        release.set()
    assert (row.result, row.raised) == ("raised", "NoVerdict")


def test_the_table_as_text_and_as_json(server: FaultServer) -> None:
    table = score(oracle, base_url=server.url)
    text = str(table)
    assert text == repr(table) == table.render_text()
    for fault in CATALOGUE:
        assert fault.name in text
    lines = text.splitlines()
    assert lines[2].split() == ["fault", "expected", "got", "result"]
    data = json.loads(json.dumps(table.as_json()))
    assert data["totals"]["right"] == len(CATALOGUE) and data["client"] == "oracle"
    assert [row["fault"] for row in data["rows"]] == [fault.name for fault in CATALOGUE]
    assert all(set(row["got"]) == {"outcome", "text_chars", "raised"} for row in data["rows"])
    assert all("text" not in row["got"] for row in data["rows"])  # counts, not the client's text


def test_its_own_server_when_no_base_url_is_given() -> None:
    table = score(oracle)
    assert table.all_right and table.base_url.startswith("http://127.0.0.1:")


@pytest.mark.parametrize(
    ("args", "error", "names_the"),
    [
        ((42,), TypeError, "client"),
        ((oracle,), ValueError, "client_name"),
        ((oracle,), ValueError, "names"),
        ((oracle,), TypeError, "names"),
        ((oracle,), ValueError, "base_url"),
        ((oracle,), ValueError, "timeout"),
    ],
)
def test_bad_arguments_raise_before_any_io(args, error, names_the) -> None:
    kwargs = {
        "client": {},
        "client_name": {"client_name": ""},
        "base_url": {"base_url": "ftp://x"},
        "timeout": {"timeout": 0},
    }.get(names_the, {})
    if names_the == "names":
        kwargs = {"names": ["no-such-fault"]} if error is ValueError else {"names": "openai-chat-control"}
    with pytest.raises(error) as raised:
        score(*args, **kwargs)
    assert names_the in str(raised.value)


def test_a_server_that_cannot_be_reached_is_a_score_error() -> None:
    with FaultServer() as gone:
        url = gone.url
    with pytest.raises(ScoreError) as raised:
        score(oracle, base_url=url)
    assert url in str(raised.value)


def test_the_package_s_score_is_the_function_whatever_was_imported_first() -> None:
    # A submodule named like the function would replace it on the package once imported (it was score.py).
    import lesson_lib.faults as faults
    from lesson_lib.faults import FaultServer, score  # noqa: F401  (FaultServer imports the server first)

    assert callable(score) and score.__module__ == "lesson_lib.faults.scoring"
    assert faults.score is score
