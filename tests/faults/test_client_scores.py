"""The catalogue, the expected verdicts and the committed table agree (issue 26, "Measured, in the repo").

Every client of lesson_lib.teach.fault_clients runs again over the whole catalogue against the real fault
server (in a process of its own, on 127.0.0.1 at a free port; the clients at once, each in a process of its
own, each one's faults in order), and what they do now must be exactly ``docs/fault_scores.json``, whose fault
list and expected verdicts must be the catalogue's; ``docs/fault_scores.md`` must be that JSON's table. After
a change to a client, the catalogue or a package version: ``python tools/score_clients.py`` writes both again.
And lesson_lib's own client (sync and async) gets the expected verdict on every entry.

Needs the fault server's ``FaultServer`` (``lesson_lib/faults/server.py``): in a tree without it this module
fails to import, naming it (the client adapters are tested without it in tests/teach/test_fault_clients.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lesson_lib.faults import CATALOGUE, catalogue_json
from lesson_lib.faults import server as fault_server  # noqa: F401  (ImportError: no fault server in this tree)
from lesson_lib.teach.fault_scores import (
    fault_rows,
    fault_server_process,
    fetch_entries,
    score_all,
    scores_json,
    scores_markdown,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
OWN = ("lesson_lib", "lesson_lib-async")


@pytest.fixture(scope="module")
def measured():
    with fault_server_process() as url:  # not in this process: the clients' threads would slow the server
        entries = fetch_entries(url)
        scores = score_all(entries, isolated=True)  # each client in a process of its own, for the same reason
    return entries, scores


def _differences(now: dict, committed: dict) -> list[str]:
    """What differs, client by client and fault by fault (never the answer text: none is kept)."""
    found = [f"{key}: committed {committed.get(key)!r}, now {now[key]!r}"
             for key in now if key != "scores" and now[key] != committed.get(key)]
    for client, faults in now["scores"].items():
        for fault, score in faults.items():
            before = committed.get("scores", {}).get(client, {}).get(fault)
            if score != before:
                found.append(f"{client} on {fault}: committed {before}, now {score}")
    return found


def test_the_catalogue_the_expected_verdicts_and_the_committed_table_agree(measured):
    entries, scores = measured
    assert [entry["name"] for entry in entries] == [fault.name for fault in CATALOGUE]  # all, in order
    committed = json.loads((DOCS / "fault_scores.json").read_text(encoding="utf-8"))
    assert committed["faults"] == catalogue_json() == fault_rows(entries), "run tools/score_clients.py"
    now = scores_json(entries, scores)
    differences = _differences(now, committed)
    assert not differences, "the clients do otherwise now (tools/score_clients.py):\n" + "\n".join(
        differences
    )
    assert now == committed
    assert (DOCS / "fault_scores.md").read_text(encoding="utf-8") == scores_markdown(committed)


@pytest.mark.parametrize("client", OWN)
def test_lesson_lib_s_own_client_gets_the_expected_verdict_on_every_entry(measured, client):
    _, scores = measured
    wrong = [f"{s.fault}: expected {s.expected}, got {s.got} (text matched: {s.text_matched})"
             for s in scores[client] if s.cls != "right"]
    assert not wrong, "\n".join(wrong)
    assert len(scores[client]) == len(CATALOGUE)
