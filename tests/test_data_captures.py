"""Checks on the fictional stream captures in data/ and their manifest.

These tests do not use lesson_lib: they read the bytes with a small, deliberately plain reference reader
(written here, separately from the generator) and check that the files say what the manifest claims, that
they follow each service's wire format, and that the generator reproduces them byte for byte.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
GENERATOR = DATA / "build_captures.py"

CONTRACT_EXT = {
    "openai-chat": "sse",
    "openai-responses": "sse",
    "anthropic-messages": "sse",
    "gemini": "sse",
    "gemini-json-array": "json",
    "ollama": "ndjson",
    "dashscope": "sse",
}
SSE_CONTRACTS = {c for c, ext in CONTRACT_EXT.items() if ext == "sse"}
KEYS = {"file", "contract", "outcome", "truncated_at", "end_verified", "text", "finish_reason", "error_type"}
KEYS |= {"description", "tool_calls", "reasoning_text"}
CALL_KEYS = {"id", "name", "arguments_text", "arguments", "complete"}
OUTCOMES = {"completed", "incomplete", "truncated", "service_error"}
TRUNCATED_AT = {"character", "line", "event", "completion"}
CUT_REASONS = {"length", "max_tokens", "MAX_TOKENS", "SAFETY", "max_output_tokens", "sensitive"}
FINISH_REASONS = {"stop", "end_turn", "STOP", "tool_calls", "tool_use", "network_error"} | CUT_REASONS
#: The complete capture of each family of tool-call and reasoning captures (first word of the name).
VALUE_FAMILIES = {
    ("openai-chat", "tools"): "tools_parallel",
    ("openai-chat", "reasoning"): "reasoning_deepseek",
    ("openai-responses", "tools"): "tools_completed",
    ("anthropic-messages", "tools"): "tools_thinking",
    ("anthropic-messages", "thinking"): "tools_thinking",
    ("gemini", "tools"): "tools_thought",
    ("gemini-json-array", "tools"): "tools_thought",
    ("ollama", "tools"): "tools_thinking",
    ("openai-chat", "zhipu"): "zhipu_completed",
}
REQUIRED = {"completed", "truncated_mid_character", "truncated_clean_boundary", "service_error", "incomplete"}
#: What a service's documentation does not show is not invented (docs/research/chinese_services.md):
#: DashScope's in-band error form, keep-alive comments, tool calls in its stream, and \u escapes in its JSON;
#: its reasoning arrives only with incremental_output true, which a capture (read with the default) is not.
UNDOCUMENTED = {"dashscope": {"service_error", "heartbeats", "tools", "reasoning", "escaped"}}
# NDJSON has no unit between the line and the value: Ollama's cut inside a value is a cut inside a line.
EXTRAS = {
    "openai-chat": {"completed_with_usage", "truncated_before_done", "truncated_mid_line", "heartbeats"},
    "openai-responses": {"failed", "service_error_nested", "truncated_mid_line", "heartbeats"},
    "anthropic-messages": {"completed_two_blocks", "truncated_mid_line", "heartbeats"},
    "gemini": {"completed_stop_every_chunk", "incomplete_safety", "truncated_mid_line", "heartbeats"},
    "gemini-json-array": set(),
    "ollama": {"truncated_mid_line"},
    "dashscope": {"truncated_mid_line"},
}
for _contract in EXTRAS:
    if _contract != "ollama":
        EXTRAS[_contract] = EXTRAS[_contract] | {"truncated_mid_event"}
SURROGATE_ESCAPE = re.compile(rb"\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}", re.IGNORECASE)
RAW_FOUR_BYTE = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")


def _manifest() -> list[dict]:
    return json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))["captures"]


ENTRIES = _manifest()
BY_CONTRACT: dict[str, dict[str, dict]] = defaultdict(dict)
for _entry in ENTRIES:
    BY_CONTRACT[_entry["contract"]][Path(_entry["file"]).stem] = _entry


def body(entry: dict) -> bytes:
    return (DATA / entry["file"]).read_bytes()


def each_entry(test):
    return pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])(test)


# ----------------------------------------------------------------------------------------------------------
# The generator: deterministic, and the committed files are its output
# ----------------------------------------------------------------------------------------------------------


def run_generator(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-B", str(GENERATOR), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_generator_is_deterministic_and_matches_the_committed_files(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for out in (first, second):
        result = run_generator("--out", str(out))
        assert result.returncode == 0, result.stderr
    generated = tree(first)
    assert generated == tree(second)
    committed = {
        name: data
        for name, data in tree(DATA).items()
        if name != "build_captures.py" and "__pycache__" not in name
    }
    assert committed.keys() == generated.keys(), "stale or missing files in data/"
    for name, data in generated.items():
        assert committed[name] == data, f"data/{name} is not what build_captures.py writes"
    assert set(generated) == {e["file"] for e in ENTRIES} | {"manifest.json"}


def test_check_flag_detects_a_changed_byte(tmp_path):
    out = tmp_path / "data"
    assert run_generator("--out", str(out)).returncode == 0
    assert run_generator("--out", str(out), "--check").returncode == 0
    target = out / "gemini" / "completed.sse"
    target.write_bytes(target.read_bytes().replace(b"\r\n", b"\n", 1))
    result = run_generator("--out", str(out), "--check")
    assert result.returncode == 1
    assert "gemini/completed.sse" in result.stderr


# ----------------------------------------------------------------------------------------------------------
# The manifest
# ----------------------------------------------------------------------------------------------------------


@each_entry
def test_manifest_entry_schema(entry):
    assert set(entry) == KEYS
    contract = entry["contract"]
    assert contract in CONTRACT_EXT
    assert re.fullmatch(rf"{re.escape(contract)}/[a-z0-9_]+\.{CONTRACT_EXT[contract]}", entry["file"])
    assert (DATA / entry["file"]).is_file()
    assert entry["outcome"] in OUTCOMES
    if entry["outcome"] == "truncated":
        assert entry["truncated_at"] in TRUNCATED_AT
    else:
        assert entry["truncated_at"] is None
    assert entry["finish_reason"] is None or entry["finish_reason"] in FINISH_REASONS
    if entry["outcome"] == "incomplete":
        assert entry["finish_reason"] in CUT_REASONS
    if entry["outcome"] == "completed":
        assert entry["finish_reason"] not in CUT_REASONS
    if entry["outcome"] != "service_error":
        assert entry["error_type"] is None
    assert isinstance(entry["text"], str) and isinstance(entry["reasoning_text"], str)
    assert entry["text"] or entry["tool_calls"] or entry["reasoning_text"], "the capture says something"
    assert isinstance(entry["description"], str) and entry["description"].endswith(".")
    for call in entry["tool_calls"]:
        assert set(call) == CALL_KEYS
        assert isinstance(call["name"], str) and call["name"]
        assert isinstance(call["arguments_text"], str)
        if call["complete"]:
            assert call["arguments"] == json.loads(call["arguments_text"])
        else:
            assert call["arguments"] is None


def test_manifest_files_are_unique():
    files = [e["file"] for e in ENTRIES]
    assert len(files) == len(set(files))


@pytest.mark.parametrize("contract", sorted(CONTRACT_EXT))
def test_each_contract_has_the_required_captures(contract):
    names = set(BY_CONTRACT[contract])
    assert names >= REQUIRED - UNDOCUMENTED.get(contract, set())
    assert names >= EXTRAS[contract]
    expected = {
        "completed": "completed",
        "incomplete": "incomplete",
        "service_error": "service_error",
        "truncated_mid_character": "character",
        "truncated_clean_boundary": "completion",
        "truncated_mid_line": "line",
        "truncated_mid_event": "event",
    }
    for name, want in expected.items():
        if name not in names:
            continue
        entry = BY_CONTRACT[contract][name]
        assert want in (entry["outcome"], entry["truncated_at"]), (name, entry)


def test_contract_specific_facts():
    chat = BY_CONTRACT["openai-chat"]
    assert chat["truncated_before_done"]["truncated_at"] == "completion"
    assert chat["truncated_before_done"]["finish_reason"] == "stop"
    assert chat["incomplete"]["finish_reason"] == "length"
    responses = BY_CONTRACT["openai-responses"]
    assert responses["failed"]["outcome"] == "service_error"
    assert responses["incomplete"]["finish_reason"] == "max_output_tokens"
    assert BY_CONTRACT["anthropic-messages"]["service_error"]["error_type"] == "overloaded_error"
    assert BY_CONTRACT["anthropic-messages"]["incomplete"]["finish_reason"] == "max_tokens"
    assert BY_CONTRACT["gemini"]["service_error"]["error_type"] == "UNAVAILABLE"
    assert BY_CONTRACT["gemini"]["incomplete_safety"]["finish_reason"] == "SAFETY"
    assert BY_CONTRACT["gemini-json-array"]["incomplete"]["finish_reason"] == "MAX_TOKENS"
    assert BY_CONTRACT["ollama"]["incomplete"]["finish_reason"] == "length"
    assert BY_CONTRACT["ollama"]["service_error"]["error_type"] is None
    # Truncated texts are strict prefixes of what the complete stream of the same answer says.
    for contract, captures in BY_CONTRACT.items():
        for name, entry in captures.items():
            family = VALUE_FAMILIES.get((contract, name.split("_")[0]))
            full = captures[family or "completed"]
            if entry["outcome"] not in ("truncated", "service_error"):
                continue
            assert full["text"].startswith(entry["text"]), (contract, name)
            assert full["reasoning_text"].startswith(entry["reasoning_text"]), (contract, name)
            assert len(entry["tool_calls"]) <= len(full["tool_calls"]), (contract, name)
            for call, whole in zip(entry["tool_calls"], full["tool_calls"], strict=False):
                assert whole["arguments_text"].startswith(call["arguments_text"]), (contract, name)
                if call["complete"]:  # a closed call in a cut stream is the whole call (ids differ per seed)
                    assert dict(call, id=None) == dict(whole, id=None), (contract, name)


def test_value_captures_cover_the_hard_cuts():
    """Interleaved calls, escapes and surrogate pairs cut between fragments, and every truncation place."""
    chat = BY_CONTRACT["openai-chat"]
    fragments = []
    for _, data in sse_events(decode(body(chat["tools_parallel"]))[0])[0]:
        if data != "[DONE]":
            for entry in json.loads(data)["choices"][0]["delta"].get("tool_calls") or []:
                fragments.append((entry["index"], entry["function"].get("arguments", "")))
    indexes = [index for index, text in fragments if text]
    assert any(a != b for a, b in itertools.pairwise(indexes)), "fragments interleave by index"
    texts = [text for _, text in fragments]
    assert any(re.search(r"\\u[0-9a-f]{0,3}$", t) for t in texts), "a fragment ends inside a \\u escape"
    assert any(t.endswith("\\ud83d") for t in texts) and any(t.startswith("\\ude80") for t in texts)
    assert any(re.search(r"[\u4e00-\u9fff]", t) for t in texts), "raw Chinese in a fragment"
    places = {
        (e["contract"], e["truncated_at"])
        for e in ENTRIES
        if e["tool_calls"] and e["outcome"] == "truncated"
    }
    assert {("openai-chat", "line"), ("openai-chat", "character"), ("openai-chat", "completion")} <= places
    anthropic = BY_CONTRACT["anthropic-messages"]
    after_stop = anthropic["tools_truncated_after_block_stop"]
    assert after_stop["tool_calls"][0]["complete"] and after_stop["outcome"] == "truncated"
    assert not anthropic["tools_truncated_between_fragments"]["tool_calls"][0]["complete"]
    for contract in CONTRACT_EXT:
        if "tools" not in UNDOCUMENTED.get(contract, set()):
            assert any(e["tool_calls"] for e in BY_CONTRACT[contract].values()), contract
        if "reasoning" not in UNDOCUMENTED.get(contract, set()):
            assert any(e["reasoning_text"] for e in BY_CONTRACT[contract].values()), contract


# ----------------------------------------------------------------------------------------------------------
# Bytes: UTF-8, line endings, [DONE]
# ----------------------------------------------------------------------------------------------------------


@each_entry
def test_utf8_and_mid_character_ends(entry):
    data = body(entry)
    if entry["truncated_at"] == "character":
        with pytest.raises(UnicodeDecodeError) as caught:
            data.decode("utf-8")
        assert caught.value.reason == "unexpected end of data"
        assert 1 <= len(data) - caught.value.start <= 3
        data[: caught.value.start].decode("utf-8")
        assert data[caught.value.start] >= 0xC2  # a lead byte, not a stray continuation byte
    else:
        data.decode("utf-8")


@each_entry
def test_line_endings(entry):
    data = body(entry)
    if entry["contract"] == "gemini":
        bare = data.replace(b"\r\n", b"")
        assert b"\n" not in bare and b"\r" not in bare, "Gemini SSE uses CRLF only"
        assert b"\r\n" in data
    elif entry["contract"] == "gemini-json-array":
        assert b"\r" not in data.replace(b"\n,\r\n", b"")
    else:
        assert b"\r" not in data, "LF only"


@each_entry
def test_done_belongs_to_openai_chat_alone(entry):
    data = body(entry)
    if entry["contract"] != "openai-chat":
        assert b"[DONE]" not in data
        return
    if entry["outcome"] in ("completed", "incomplete"):
        assert data.endswith(b"\n\ndata: [DONE]\n\n")
        assert data.count(b"[DONE]") == 1
    else:
        assert b"data: [DONE]" not in data


@each_entry
def test_sse_events_end_with_blank_lines(entry):
    if entry["contract"] not in SSE_CONTRACTS or entry["outcome"] == "truncated":
        return
    eol = b"\r\n" if entry["contract"] == "gemini" else b"\n"
    assert body(entry).endswith(eol + eol)


# ----------------------------------------------------------------------------------------------------------
# Text: the characters this package exists for
# ----------------------------------------------------------------------------------------------------------


def is_cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"


def is_accented_latin(char: str) -> bool:
    return (
        "LATIN" in unicodedata.name(char, "") and unicodedata.decomposition(char) != ""
    ) or char == "\u0301"


def said(entry: dict) -> str:
    """Everything a capture says: its answer text, its reasoning and its tool calls' arguments."""
    return entry["text"] + entry["reasoning_text"] + "".join(c["arguments_text"] for c in entry["tool_calls"])


@pytest.mark.parametrize("contract", sorted(CONTRACT_EXT))
def test_texts_mix_chinese_accents_and_emoji(contract):
    texts = [said(e) for e in BY_CONTRACT[contract].values()]
    joined = "".join(texts)
    assert any(is_cjk(c) for c in joined)
    assert any(is_accented_latin(c) for c in joined)
    assert any(ord(c) > 0xFFFF for c in joined)
    for text in texts:
        assert any(is_cjk(c) for c in text), text


@pytest.mark.parametrize("contract", sorted(CONTRACT_EXT))
def test_each_contract_has_escaped_and_raw_captures(contract):
    bodies = [body(e) for e in BY_CONTRACT[contract].values()]
    if "escaped" in UNDOCUMENTED.get(contract, set()):
        assert not any(SURROGATE_ESCAPE.search(b) for b in bodies)
    else:
        assert any(SURROGATE_ESCAPE.search(b) for b in bodies), "no \\ud83d\\ude42-style surrogate escapes"
    assert any(RAW_FOUR_BYTE.search(b) for b in bodies), "no raw 4-byte UTF-8"


def test_raw_line_separators_and_nel_occur_inside_json_strings():
    bodies = {e["file"]: body(e) for e in ENTRIES}
    assert any(b"\xe2\x80\xa8" in b or b"\xe2\x80\xa9" in b for b in bodies.values()), "raw U+2028/U+2029"
    assert any(b"\xc2\x85" in b for b in bodies.values()), "raw U+0085"
    # The hazard is real: str.splitlines() cuts some SSE capture where the SSE line rules do not.
    fooled = [
        name
        for name, data in bodies.items()
        if name.endswith(".sse")
        and len(data.decode("utf-8", "ignore").splitlines())
        != len(split_lines(data.decode("utf-8", "ignore"))[0])
    ]
    assert fooled


def test_awkward_deltas_exist():
    deltas = [d for e in ENTRIES if e["contract"] != "gemini-json-array" for d in _deltas(e)]
    assert "🙂" in deltas, "a delta that is a single emoji"
    assert any(d.endswith("\u0301") for d in deltas), "a delta that ends with a combining accent"
    assert any(d.startswith("\u200d") or d.endswith("\u200d") or d == "👩" for d in deltas), "a split ZWJ"


def _deltas(entry: dict) -> list[str]:
    return read(entry)["deltas"]


# ----------------------------------------------------------------------------------------------------------
# A plain reference reader: what do the bytes say?
# ----------------------------------------------------------------------------------------------------------

LINE_BREAK = re.compile(r"\r\n|\n|\r")


def split_lines(text: str) -> tuple[list[str], str]:
    """SSE/NDJSON lines end at CR, LF or CRLF only (never at U+2028, U+2029 or U+0085)."""
    lines, position = [], 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[position : match.start()])
        position = match.end()
    return lines, text[position:]


def decode(data: bytes) -> tuple[str, bool]:
    """The decodable text and whether bytes of an unfinished character were left over."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError as error:
        assert error.reason == "unexpected end of data"
        return data[: error.start].decode("utf-8"), True


def sse_events(text: str) -> tuple[list[tuple[str, str]], str, bool]:
    """Dispatched (event type, data) pairs, the unfinished line, and whether an event was left pending."""
    lines, rest = split_lines(text)
    events, event_type, data, pending = [], "", [], False
    for line in lines:
        if line == "":
            if data:
                events.append((event_type or "message", "\n".join(data)))
            event_type, data, pending = "", [], False
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        pending = True
        if name == "event":
            event_type = value
        elif name == "data":
            data.append(value)
    return events, rest, pending


def array_elements(text: str) -> tuple[list[str], bool, bool]:
    """Elements of a growing JSON array, whether the array was closed, whether an element was left open."""
    elements, depth, start, in_string, escape, closed, opened = [], 0, 0, False, False, False, False
    for i, char in enumerate(text):
        if in_string:
            if escape:
                escape = False
            elif char == "\\":
                escape = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            if depth == 0:
                assert char == "[" and not opened
                opened = True
            elif depth == 1:
                start = i
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 1:
                elements.append(text[start : i + 1])
            elif depth == 0:
                closed = True
        else:
            assert char in ", \r\n" or depth >= 2, repr(char)
    return elements, closed, depth >= 2


def read(entry: dict, data: bytes | None = None) -> dict:
    """Outcome, text, finish reason and error type as a careful client reads them from the bytes."""
    contract = entry["contract"]
    text, held = decode(body(entry) if data is None else data)
    deltas: list[str] = []
    finish = error_type = None
    terminal = errored = pending = False
    rest = ""
    if contract in SSE_CONTRACTS:
        events, rest, pending = sse_events(text)
        objects = []
        for event_type, data in events:
            if data == "[DONE]":
                assert contract == "openai-chat"
                objects.append((event_type, "[DONE]"))
            else:
                objects.append((event_type, json.loads(data)))
    elif contract == "gemini-json-array":
        elements, terminal, pending = array_elements(text)
        objects = [("element", json.loads(e)) for e in elements]
    else:
        lines, rest = split_lines(text)
        objects = [("line", json.loads(line)) for line in lines]
    sequence = -1
    cumulative = ""
    reasoning: list[str] = []
    calls: dict[str, dict] = {}  # key -> call, in start order

    def whole(call_id: str | None, name: str, args: object) -> None:
        text = json.dumps(args, ensure_ascii=False, separators=(",", ":"))
        calls[f"whole{len(calls)}"] = {"id": call_id, "name": name, "parts": [text], "complete": True}

    for event_type, obj in objects:
        if contract == "openai-chat":
            assert event_type == "message"
            if obj == "[DONE]":
                terminal = True
                for call in calls.values():  # [DONE] after a whole-answer reason closes every call
                    call["complete"] = finish in ("tool_calls", "stop")
                break
            if "error" in obj:
                errored, error_type = True, obj["error"]["type"]
                break
            if any(choice["finish_reason"] == "network_error" for choice in obj["choices"]):
                errored, error_type = True, "network_error"  # Zhipu: a failure
                finish = "network_error"
                break
            for choice in obj["choices"]:
                deltas.append(choice["delta"].get("content") or "")
                reasoning.append(choice["delta"].get("reasoning_content") or "")
                for entry in choice["delta"].get("tool_calls") or []:
                    key = str(entry["index"])
                    if key not in calls:
                        name = entry["function"]["name"]
                        calls[key] = {"id": entry["id"], "name": name, "parts": [], "complete": False}
                    calls[key]["parts"].append(entry["function"].get("arguments") or "")
                finish = choice["finish_reason"] or finish
        elif contract == "openai-responses":
            assert event_type == obj["type"]
            assert obj["sequence_number"] > sequence
            sequence = obj["sequence_number"]
            kind = obj["type"]
            if kind == "response.output_text.delta":
                deltas.append(obj["delta"])
            elif kind == "response.reasoning_summary_text.delta":
                reasoning.append(obj["delta"])
            elif kind == "response.output_item.added" and obj["item"]["type"] == "function_call":
                item = obj["item"]
                calls[item["id"]] = {"id": item["call_id"], "name": item["name"], "parts": []}
                calls[item["id"]]["complete"] = False
            elif kind == "response.function_call_arguments.delta":
                calls[obj["item_id"]]["parts"].append(obj["delta"])
            elif kind == "response.function_call_arguments.done":
                calls[obj["item_id"]]["complete"] = True
                assert "".join(calls[obj["item_id"]]["parts"]) == obj["arguments"]
            elif kind == "error":
                errored, error_type = True, obj.get("code") or obj["error"]["code"]
                break
            elif kind == "response.failed":
                errored, error_type = True, obj["response"]["error"]["code"]
                break
            elif kind in ("response.completed", "response.incomplete"):
                details = obj["response"]["incomplete_details"]
                finish = details["reason"] if details else None
                terminal = True
                break
        elif contract == "anthropic-messages":
            assert event_type == obj["type"]
            kind = obj["type"]
            if kind == "content_block_delta" and obj["delta"]["type"] == "text_delta":
                deltas.append(obj["delta"]["text"])
            elif kind == "content_block_delta" and obj["delta"]["type"] == "thinking_delta":
                reasoning.append(obj["delta"]["thinking"])
            elif kind == "content_block_delta" and obj["delta"]["type"] == "input_json_delta":
                calls[str(obj["index"])]["parts"].append(obj["delta"]["partial_json"])
            elif kind == "content_block_start" and obj["content_block"]["type"] == "tool_use":
                block = obj["content_block"]
                calls[str(obj["index"])] = {"id": block["id"], "name": block["name"], "parts": []}
                calls[str(obj["index"])]["complete"] = False
            elif kind == "content_block_stop" and str(obj["index"]) in calls:
                calls[str(obj["index"])]["complete"] = True
            elif kind == "message_delta":
                finish = obj["delta"]["stop_reason"]
            elif kind == "error":
                errored, error_type = True, obj["error"]["type"]
                break
            elif kind == "message_stop":
                terminal = True
                break
        elif contract == "dashscope":
            assert event_type == "result"
            choice = obj["output"]["choices"][0]
            whole_so_far = choice["message"]["content"]  # incremental_output false: the text so far
            assert whole_so_far.startswith(cumulative), "each event extends the text so far"
            deltas.append(whole_so_far[len(cumulative) :])
            cumulative = whole_so_far
            if choice["finish_reason"] != "null":
                finish = choice["finish_reason"]
                terminal = finish in ("stop", "length")
                break
        elif contract in ("gemini", "gemini-json-array"):
            if "error" in obj:
                errored, error_type = True, obj["error"]["status"]
                break
            candidate = obj["candidates"][0]
            for part in candidate.get("content", {}).get("parts", []):
                if part.get("thought"):
                    reasoning.append(part["text"])
                elif "functionCall" in part:
                    call = part["functionCall"]
                    whole(call.get("id"), call["name"], call["args"])
                else:
                    deltas.append(part["text"])
            finish = candidate.get("finishReason", finish)
            if contract == "gemini":
                terminal = "finishReason" in candidate  # the last chunk at a clean end decides
        else:
            if "error" in obj:
                errored = True
                break
            deltas.append(obj["message"]["content"])
            reasoning.append(obj["message"].get("thinking", ""))
            for call in obj["message"].get("tool_calls", []):
                whole(call.get("id"), call["function"]["name"], call["function"]["arguments"])
            if obj["done"]:
                finish, terminal = obj["done_reason"], True
                break
    clean = not held and not rest and not pending
    if errored:
        outcome, truncated_at = "service_error", None
    elif terminal and clean:
        outcome, truncated_at = ("incomplete" if finish in CUT_REASONS else "completed"), None
    else:
        outcome = "truncated"
        if held:
            truncated_at = "character"
        elif rest:
            truncated_at = "line"
        elif pending:
            truncated_at = "event"
        else:
            truncated_at = "completion"
    return {
        "outcome": outcome,
        "truncated_at": truncated_at,
        "text": "".join(deltas),
        "finish_reason": finish,
        "error_type": error_type,
        "deltas": [d for d in deltas if d],
        "reasoning_text": "".join(reasoning),
        "tool_calls": [
            {
                "id": call["id"],
                "name": call["name"],
                "arguments_text": "".join(call["parts"]),
                "arguments": json.loads("".join(call["parts"])) if call["complete"] else None,
                "complete": call["complete"],
            }
            for call in calls.values()
        ],
    }


@each_entry
def test_bytes_say_what_the_manifest_says(entry):
    seen = read(entry)
    keys = ("outcome", "truncated_at", "text", "finish_reason", "error_type", "reasoning_text", "tool_calls")
    for key in keys:
        assert seen[key] == entry[key], key


def test_reference_reader_notices_a_lost_terminal_signal():
    """The reader above is not a rubber stamp: drop the final blank line and the capture is truncated."""
    entry = BY_CONTRACT["anthropic-messages"]["completed"]
    data = body(entry)
    assert read(entry, data)["outcome"] == "completed"
    seen = read(entry, data[:-1])
    assert (seen["outcome"], seen["truncated_at"]) == ("truncated", "event")
    seen = read(entry, data[:-3])
    assert (seen["outcome"], seen["truncated_at"]) == ("truncated", "line")
    chat = BY_CONTRACT["openai-chat"]["completed"]
    swapped = body(chat).replace(b'"finish_reason":"stop"', b'"finish_reason":"length"')
    assert read(chat, swapped)["outcome"] == "incomplete"


# ----------------------------------------------------------------------------------------------------------
# Wire details per service
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BY_CONTRACT["gemini-json-array"]))
def test_gemini_array_is_pretty_printed_growing_json(name):
    entry = BY_CONTRACT["gemini-json-array"][name]
    data = body(entry)
    assert data.startswith(b'[{\n  "')
    if entry["outcome"] != "truncated":
        assert data.endswith(b"\n}\n]")
        parsed = json.loads(data)
        assert isinstance(parsed, list) and len(parsed) == data.count(b"\n,\r\n") + 1
    else:
        assert not data.rstrip().endswith(b"]")


@pytest.mark.parametrize("name", sorted(BY_CONTRACT["ollama"]))
def test_ollama_lines(name):
    entry = BY_CONTRACT["ollama"][name]
    text, _ = decode(body(entry))
    lines, rest = split_lines(text)
    assert (rest == "") == (entry["truncated_at"] not in ("line", "character"))
    for line in lines:
        obj = json.loads(line)
        assert set(obj) == {"error"} or {"model", "created_at", "message", "done"} <= set(obj)
        if obj.get("done"):
            assert obj["done_reason"] in ("stop", "length")
    assert "<" not in text and ">" not in text and "&" not in text, "Go escapes <, > and & as \\u003c..."


def test_responses_heartbeats_are_keepalive_events_and_comments():
    text = body(BY_CONTRACT["openai-responses"]["heartbeats"]).decode("utf-8")
    events, _, _ = sse_events(text)
    keepalives = [json.loads(d) for t, d in events if t == "keepalive"]
    assert keepalives and all(set(k) == {"type", "sequence_number"} for k in keepalives)
    assert "\n: ping\n" in text or "\n:keep-alive\n" in text


def test_anthropic_heartbeats_and_unknown_events():
    text = body(BY_CONTRACT["anthropic-messages"]["heartbeats"]).decode("utf-8")
    assert text.count('event: ping\ndata: {"type": "ping"}\n\n') >= 2
    assert re.search(r"^:", text, re.MULTILINE)
    two = body(BY_CONTRACT["anthropic-messages"]["completed_two_blocks"]).decode("utf-8")
    types = [t for t, _ in sse_events(two)[0]]
    assert "content_block_future" in types
    assert types.count("content_block_start") == 2


@pytest.mark.parametrize("contract", sorted(SSE_CONTRACTS - set(UNDOCUMENTED)))
def test_every_sse_contract_has_comment_heartbeats(contract):
    text = body(BY_CONTRACT[contract]["heartbeats"]).decode("utf-8")
    comments = [line for line in split_lines(text)[0] if line.startswith(":")]
    assert {": ping", ":keep-alive"} <= set(comments)


def test_gemini_stop_on_every_chunk():
    text = body(BY_CONTRACT["gemini"]["completed_stop_every_chunk"]).decode("utf-8")
    events = sse_events(text)[0]
    assert len(events) > 2
    assert all(json.loads(d)["candidates"][0]["finishReason"] == "STOP" for _, d in events)
