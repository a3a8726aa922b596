"""benchmarks.results reads the committed peers report exactly as its tables say (lesson 07 prints it); the
instructor guide's sizing table and hub/z2jh-values.yaml agree with the committed hub load runs (issue 28)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

from benchmarks import hub_load
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


# -- the classroom load test (issue 28): the guide's sizing and the Zero-to-JupyterHub values file ---------
ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "docs" / "instructor.md", "zh-CN": ROOT / "docs" / "instructor.zh-CN.md"}
HUB_SECTION = {"en": "## A classroom hub", "zh-CN": "## 课堂用的 hub"}
PHRASES = {  # what the guide says each derived number is, in each edition
    "en": {"peak": r"peaked at ([\d.]+) MiB", "hub": r"hub's own processes at their peak\s+\(([\d.]+) MiB",
           "core_seconds": r"added\s+([\d.]+) core-seconds",
           "target": r"as soon as 10 did here \(([\d.]+) s\)"},
    "zh-CN": {"peak": r"峰值为 ([\d.]+) MiB", "hub": r"hub 自身进程的峰值（([\d.]+) MiB",
              "core_seconds": r"增加 ([\d.]+) 核·秒", "target": r"一样快地完成（([\d.]+) s）"},
}


def committed_hub_runs() -> dict:
    return json.loads((ROOT / "benchmarks" / "results" / "hub_load.json").read_text(encoding="utf-8"))["runs"]


def hub_section(lang: str) -> str:
    text = GUIDES[lang].read_text(encoding="utf-8")
    return text.split(HUB_SECTION[lang], 1)[1].split("\n## ", 1)[0]


def test_the_committed_load_runs_are_at_10_and_20_learners_with_no_failure():
    runs = committed_hub_runs()
    assert {"10", "20"} <= set(runs)
    for key in ("10", "20"):
        run = runs[key]
        assert run["learners"] == int(key) == len(run["per_learner"])
        assert run["failures"] == []
        assert all(not r["failures"] and r["cells"] > 10 for r in run["per_learner"])
        assert run["machine"]["cores"] == 2 and run["environment"]["CPU"]
        assert 0 < run["to_first_cell"]["p50"] <= run["to_first_cell"]["p95"] <= run["to_first_cell"]["max"]
        assert run["to_first_cell"]["max"] <= run["to_end"]["max"]


@pytest.mark.parametrize("lang", GUIDES)
def test_the_guides_sizing_table_and_its_numbers_agree_with_the_committed_runs(lang):
    runs, section = committed_hub_runs(), hub_section(lang)
    rows = re.findall(r"^\| (\d+) \| ([\d.]+) GiB \| (\d+) \|$", section, re.M)
    expected = hub_load.sizing_rows(runs)
    assert [(int(n), float(m), int(c)) for n, m, c in rows] == [
        (s.learners, s.memory_gib, s.cores) for s in expected]
    computed = {
        "peak": hub_load.per_learner_bytes(runs) / hub_load.MIB,
        "hub": hub_load.hub_overhead_bytes(runs) / hub_load.MIB,
        "core_seconds": hub_load.core_seconds_per_learner(runs),
        "target": float(runs["10"]["to_end"]["max"]),
    }
    for name, pattern in PHRASES[lang].items():
        found = re.findall(pattern, section)
        assert found, (lang, name, pattern)
        digits = len(found[0].partition(".")[2])
        assert all(float(f) == round(computed[name], digits) for f in found), (lang, name, found,
                                                                               computed[name])


def test_the_z2jh_values_take_memory_and_cpu_from_the_committed_runs_and_the_guides_say_them():
    values = yaml.safe_load((ROOT / "hub" / "z2jh-values.yaml").read_text(encoding="utf-8"))
    resources = hub_load.z2jh_resources(committed_hub_runs())
    assert {key: values["singleuser"][key] for key in ("memory", "cpu")} == resources
    for lang in GUIDES:
        section = hub_section(lang)
        for said in (resources["memory"]["guarantee"], resources["memory"]["limit"],
                     f"{resources['cpu']['guarantee']:g}"):
            assert said in section, (lang, said)


def test_the_files_repo2docker_reads_are_what_the_guides_say():
    assert (ROOT / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.11"
    post_build = ROOT / "postBuild"
    assert post_build.read_text(encoding="utf-8").startswith("#!/bin/bash\n")
    assert os.access(post_build, os.X_OK)
    assert (ROOT / "requirements.txt").is_file() and not (ROOT / "setup.py").exists()
    assert not (ROOT / "environment.yml").exists()  # it would make repo2docker ignore runtime.txt
    for lang in GUIDES:
        section = hub_section(lang).replace("`runtime.txt`（`python-3.11`）", "`runtime.txt` (`python-3.11`)")
        for name in ("`runtime.txt` (`python-3.11`)", "`requirements.txt`", "`postBuild`",
                     "hub/z2jh-values.yaml"):
            assert name in section, (lang, name)


@pytest.mark.parametrize(("argv", "named"), [
    (["--learners", "0"], "--learners 0"), (["--learners", "x"], "--learners x"),
    (["--learners", "2", "--root", "srv"], "--root srv"), (["--learners", "2", "--memory-mib", "10"],
                                                           "--memory-mib 10"),
    (["--learners", "2", "--cell-timeout", "-1"], "--cell-timeout -1"),
])
def test_hub_load_names_a_bad_argument_before_any_io_and_prints_no_traceback(argv, named, capsys):
    with pytest.raises(hub_load.UsageError, match=re.escape(named)):
        hub_load.check_arguments(argv)
    assert hub_load.main(argv) == 2
    err = capsys.readouterr().err
    assert named in err and "Traceback" not in err
