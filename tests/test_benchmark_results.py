"""benchmarks.results reads the committed peers report exactly as its tables say (lesson 07 prints it)."""

from __future__ import annotations

import re

from benchmarks.results import PEERS_MD, committed_peers, read_peers


def test_the_committed_report_is_read_cell_by_cell():
    text = PEERS_MD.read_text(encoding="utf-8")
    run = committed_peers()
    assert run.run["verdict"] and run.run["Python"].startswith("CPython")
    assert set(run.ratios) == set(run.per_event) and len(run.ratios) >= 6
    # Every ratio read is the number in the report's own row for that stream and read size.
    for stream, by_size in run.ratios.items():
        block = text.split(f"**{stream}**", 1)[1]
        ratio_table = block.split(" / lesson_lib |", 1)[1].split("\n\n", 1)[0]
        for size, by_parser in by_size.items():
            row = re.search(rf"^\| {re.escape(size)} \|(.*)\|$", ratio_table, re.M)
            assert row is not None, (stream, size)
            cells = [c.strip() for c in row.group(1).split("|")]
            assert sorted(by_parser.values()) == sorted(float(c) for c in cells if c != "not run")
    assert run.long_line["lesson_lib"][1] > 0


def test_a_report_of_another_shape_is_not_guessed():
    assert read_peers("# nothing here\n\n- Python: x\n") == ({"Python": "x"}, {}, {}, {})
    text = "## Throughput\n\n**S** (10 bytes per event): MB/s, then time ratio to lesson_lib\n\n"
    text += "| reads | a / lesson_lib | b / lesson_lib |\n|---:|---:|---:|\n| 1 B | 2.50 | not run |\n"
    assert read_peers(text).ratios == {"S": {"1 B": {"a": 2.5}}}
    assert read_peers(text).per_event == {"S": "10"}
