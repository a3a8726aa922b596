"""The score runner and its table (lesson_lib.teach.fault_scores) on the catalogue served by ReplayServer.

Every client of fault_clients and four made-up ones (one per wrong class) run over the catalogue's entries,
each fault's plan played by its own ReplayServer; the classes, the JSON (deterministic: no port, no text,
no timings) and the Markdown table (grouped by lesson, a legend, totals) are checked. The same runner on the
real fault server is tests/faults/test_client_scores.py.
"""

from __future__ import annotations

import json

import pytest

from lesson_lib.faults import CATALOGUE, Expected, get_fault
from lesson_lib.teach.fault_clients import CLIENTS, Adapter
from lesson_lib.teach.fault_scores import (
    CLASSES,
    MARK,
    fault_rows,
    judge,
    score_all,
    scores_json,
    scores_markdown,
)
from lesson_lib.teach.fault_verdicts import Verdict

from .fault_streams import WHOLE, listed, plan_server

EVERY = frozenset({fault.contract for fault in CATALOGUE})


def _says(outcome: str, text: str | None = None) -> Adapter:
    def read(entry, parts, idle):
        return Verdict(outcome, get_fault(entry["name"]).expected.text if text is None else text)

    return Adapter(f"says-{outcome}{'' if text is None else '-' + text}", EVERY, read)


def _crashes(entry, parts, idle):
    raise KeyError("choices")


MADE_UP = (
    _says("completed", "other"),  # wrong-silent
    _says("truncated"),  # wrong-other
    Adapter("crashes", EVERY, _crashes),  # raised
    Adapter("speaks-nothing", frozenset(), _crashes),  # not scored
)


@pytest.fixture(scope="module")
def scored():
    servers = [plan_server(fault) for fault in WHOLE]
    try:
        entries = [listed(fault, server.start().url) for fault, server in zip(WHOLE, servers, strict=True)]
        scores = score_all(entries, (*CLIENTS, *MADE_UP))
    finally:
        for server in servers:
            server.stop()
    return entries, scores


def test_each_verdict_is_judged_in_its_class(scored):
    entries, scores = scored
    assert list(scores) == [a.name for a in (*CLIENTS, *MADE_UP)]  # the adapters' order, not the finishing
    for adapter in CLIENTS:
        classes = [score.cls for score in scores[adapter.name]]
        assert classes == [("right" if adapter.speaks(e) else "not scored") for e in entries], adapter.name
    by_name = {name: [s.cls for s in found] for name, found in scores.items()}
    assert set(by_name["says-completed-other"]) == {"wrong-silent"}
    assert set(by_name["says-truncated"]) == {"wrong-other"}
    assert set(by_name["crashes"]) == {"raised"}
    assert set(by_name["speaks-nothing"]) == {"not scored"}
    assert [s.fault for s in scores["openai"]] == [e["name"] for e in entries]  # faults in order
    crash = scores["crashes"][0]
    assert (crash.got, crash.raised, crash.text_matched) == ("raised KeyError", None, None)
    silent = scores["says-completed-other"][0]
    assert (silent.got, silent.text_matched) == ("completed", False)


def test_a_verdict_is_right_only_with_the_expected_outcome_and_text():
    fault = CATALOGUE[0]
    item = {**fault.as_json(), "base_url": "http://127.0.0.1:9/faults/x"}
    expected = Expected("truncated", "ab")
    cases = {  # (outcome, text): (class, outcome right, text matched)
        ("truncated", "ab"): ("right", True, True),
        ("truncated", "a"): ("wrong-other", True, False),
        ("completed", "ab"): ("wrong-silent", False, True),
        ("completed", "abc"): ("wrong-silent", False, False),
        ("service_error", ""): ("wrong-other", False, False),
    }
    for (outcome, text), wanted in cases.items():
        adapter = Adapter("fixed", EVERY, lambda entry, parts, idle, o=outcome, t=text: Verdict(o, t))
        score = judge(adapter, item, expected)
        assert (score.cls, score.outcome_right, score.text_matched) == wanted, (outcome, text)
        assert score.expected == "truncated"
    # the guard's "completed, but its end is not verified" is an exception: not silent
    said = Adapter("fixed", EVERY, lambda *_: Verdict("completed", "abc", "UnprovenStreamError"))
    assert judge(said, item, expected).cls == "wrong-other"


def test_another_right_verdict_is_judged_with_its_own_text():
    """Where the catalogue lists other right verdicts (``Expected.also``), each is judged with its text."""
    alternatives = [
        f
        for f in CATALOGUE
        if f.expected.also
        and isinstance(f.expected.also[0], tuple)
        and f.expected.also[0][1] != f.expected.text  # a text of its own
    ]
    if not alternatives:
        pytest.skip("this catalogue (the skeleton) lists no other right verdict with a text of its own")
    fault = alternatives[0]
    outcome, text = fault.expected.also[0]
    item = {**fault.as_json(), "base_url": "http://127.0.0.1:9/faults/x"}
    wrong = "wrong-silent" if outcome == "completed" else "wrong-other"
    for given, cls, matched in ((text, "right", True), (text + "x", wrong, False)):
        adapter = Adapter("fixed", EVERY, lambda entry, parts, idle, t=given: Verdict(outcome, t))
        score = judge(adapter, item)
        assert (score.cls, score.outcome_right, score.text_matched) == (cls, True, matched)


def test_the_json_is_deterministic_and_holds_no_port_text_or_time(scored):
    entries, scores = scored
    data = scores_json(entries, scores)
    text = json.dumps(data, ensure_ascii=False)
    assert "127.0.0.1" not in text and "base_url" not in text
    assert json.loads(text) == data == scores_json(entries, scores)
    assert data["faults"] == fault_rows(entries) == [fault.as_json() for fault in WHOLE]
    assert data["clients"] == list(scores) and list(data["classes"]) == list(CLASSES)
    assert data["idle_timeout_seconds"] == 1.0 and data["untimed_timeout_seconds"] == 30.0
    assert data["versions"]["openai"]
    for client, totals in data["totals"].items():
        assert sum(totals.values()) == len(entries)
        found = data["scores"][client].values()
        assert totals == {cls: sum(s["class"] == cls for s in found) for cls in CLASSES}
    for answer in {fault.expected.text for fault in WHOLE}:
        assert answer not in json.dumps(data["scores"], ensure_ascii=False)  # the text is never kept


def test_the_table_groups_faults_by_lesson_with_a_legend_and_totals(scored):
    entries, scores = scored
    table = scores_markdown(scores_json(entries, scores))
    assert table == scores_markdown(json.loads(json.dumps(scores_json(entries, scores))))
    lines = table.splitlines()
    header = next(line for line in lines if line.startswith("| fault |"))
    assert header.count("|") == 4 + len(scores) and "`guard+anthropic`" in header
    lessons = [line for line in lines if line.startswith("| **lesson ")]
    assert lessons == sorted(lessons) and len(lessons) == len({e["lesson"] for e in entries})
    for item in entries:
        row = next(line for line in lines if line.startswith(f"| `{item['name']}` |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1:3] == [item["contract"], item["expected"]["outcome"]]
        for adapter in CLIENTS:
            assert cells[3 + list(scores).index(adapter.name)] == ("✅" if adapter.speaks(item) else "—")
        assert cells[3 + list(scores).index("crashes")] == "💥 KeyError"
        assert cells[3 + list(scores).index("says-completed-other")] == "🔇 completed, other text"
        assert cells[3 + list(scores).index("says-truncated")] == "❌ truncated"
        assert cells[3 + list(scores).index("speaks-nothing")] == "—"
    first = min(str(e["lesson"]) for e in entries)
    assert lessons[0] == f"| **lesson {first}** |  |  |" + "  |" * len(scores)  # by number: 01 before 03
    assert "Legend: ✅ right: " in table and "🔇 wrong-silent: said completed without a word" in table
    totals = lines[lines.index("Totals per client:") + 2 :][2:7]
    counts = scores_json(entries, scores)["totals"]
    for cls, row in zip(CLASSES, totals, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells == [f"{MARK[cls]} {cls}", *(str(counts[client][cls]) for client in scores)]


def test_a_description_s_bar_is_escaped_in_the_table():
    data = {
        "clients": [],
        "faults": [{"name": "x", "contract": "c", "lesson": "02", "description": "a | b", "expected": {}}],
        "scores": {},
        "totals": {},
        "versions": {},
        "classes": {cls: cls for cls in CLASSES},
        "idle_timeout_seconds": 1.0,
        "untimed_timeout_seconds": 30.0,
    }
    data["faults"][0]["expected"] = {"outcome": "completed", "text": ""}
    assert "a \\| b" in scores_markdown(data)


def test_two_adapters_of_one_name_are_refused():
    with pytest.raises(ValueError, match="distinct names"):
        score_all([], (CLIENTS[0], CLIENTS[0]))


def test_isolated_adapters_that_cannot_be_sent_to_a_process_are_refused_by_name_before_any_runs():
    with pytest.raises(ValueError, match=r"picklable; 'says-completed-other' is not"):
        score_all([{"name": "never-read"}], (CLIENTS[0], *MADE_UP), isolated=True)


def _times_out_unless_alone(entry, parts, idle):
    """A client whose reads time out while every client runs at once (in the spawned processes), and who
    reads the whole stream when measured alone (in the scorer's process)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return Verdict("timed_out", "")
    return Verdict("completed", get_fault(entry["name"]).expected.text)


LOADED = Adapter("times-out-unless-alone", EVERY, _times_out_unless_alone)


def test_isolated_a_timeout_on_a_timed_entry_is_measured_again_alone_and_only_there():
    entries = [get_fault(name).as_json() for name in ("openai-chat-trickle", "openai-chat-control")]
    assert [entry["timed"] for entry in entries] == [True, False]
    timed, untimed = score_all(entries, (LOADED,), isolated=True)[LOADED.name]
    assert (timed.got, timed.cls) == ("completed", "right")  # the second measurement, alone, stands
    assert (untimed.got, untimed.cls) == ("timed_out", "wrong-other")  # not timed: the first one stands
