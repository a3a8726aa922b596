"""The committed benchmark run's names in the learner's language (``lesson_lib.teach.bench_names``)."""

from __future__ import annotations

import pytest

from benchmarks.results import committed_peers
from lesson_lib import set_language
from lesson_lib.teach.bench_names import bench_name


def _names() -> set[str]:
    run, ratios, _, long_line = committed_peers()
    parsers = {name for table in ratios.values() for row in table.values() for name in row}
    return {run["verdict"], *ratios, *parsers, *long_line}


def test_every_name_of_the_committed_run_has_words_in_both_languages(restore_language):
    names = _names()
    assert "OpenAI chat" in names and "lines-only baseline" in names
    set_language("en")
    assert {name: bench_name(name) for name in names} == {name: name for name in names}  # the run's words
    set_language("zh-CN")
    chinese = {name: bench_name(name) for name in names}
    identifiers = {"lesson_lib", "httpx-sse", "openai", "sseclient-py"}
    assert all(chinese[name] != name for name in names - identifiers), chinese
    assert all(chinese[name] == name for name in names & identifiers)


def test_a_name_the_run_does_not_have_is_refused_by_name():
    with pytest.raises(KeyError, match="'a new stream'"):
        bench_name("a new stream")
