"""``diagnose`` on the services of issue 29: DashScope's native stream is told from its events (and from its
URL when no event is whole); Zhipu's stream is an openai-chat stream."""

from __future__ import annotations

from pathlib import Path

from lesson_lib.captures import load, names
from lesson_lib.diagnose import detect_contract

from .helpers import run

DASHSCOPE_URL = "https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation"


def test_a_dashscope_body_is_told_by_its_events_and_openai_chat_recognises_none() -> None:
    found = detect_contract(load("dashscope/completed").body)
    assert found.contract == "dashscope" and found.framing == "sse"
    assert any(line.startswith("openai-chat: 0 of ") for line in found.evidence), found.evidence


def test_a_dashscope_body_cut_before_its_first_event_needs_the_url() -> None:
    sample = load("dashscope/completed").body[:60]
    assert detect_contract(sample, DASHSCOPE_URL).contract == "dashscope"
    multimodal = DASHSCOPE_URL.replace("text-generation", "multimodal-generation")
    assert detect_contract(sample, multimodal).contract == "dashscope"


def test_zhipu_streams_are_openai_chat() -> None:
    zhipu = [name for name in names("openai-chat") if name.startswith("openai-chat/zhipu_")]
    assert len(zhipu) == 4
    for name in zhipu:
        assert detect_contract(load(name).body).contract == "openai-chat", name


def test_diagnose_reports_cumulative_text_that_does_not_extend(tmp_path: Path) -> None:
    body = load("dashscope/completed").body
    rewritten = body.replace("你好".encode(), "您好".encode(), 1)  # the first event's text: not a prefix
    path = tmp_path / "rewritten.sse"
    path.write_bytes(rewritten)
    # A unit a contract cannot read puts it out of detection (as a malformed JSON event does for any
    # contract), so the contract is named.
    report = run(str(path), "--contract", "dashscope", "--json").json
    assert report["contract"] == "dashscope" and report["outcome"] == "decode_error"
    assert report["exit_status"] == 1
