"""The self-checks: every question accepts its true answer, rejects wrong ones, and never leaks the answer.

The answers here are computed with lesson_lib wherever the library can compute them, so a question whose
stored answer disagrees with the library fails.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import (
    LineSplitter,
    Outcome,
    SSEParser,
    aconsume,
    astream_updates,
    consume,
    parse_sse,
    stream_updates,
)
from lesson_lib.captures import load
from lesson_lib.core.activity import Watchdog
from lesson_lib.core.chunking import two_piece_splits
from lesson_lib.core.decoding import IncrementalUTF8Decoder, naive_decode
from lesson_lib.core.lines import _ANY_ENDING
from lesson_lib.exercises import QUESTIONS, _load_all, check, question, questions
from lesson_lib.exercises.proxy_cases import OBSERVED
from lesson_lib.i18n import LANGUAGES, get_language, set_language


@pytest.fixture(params=LANGUAGES)
def language(request):
    """Runs a test in each language the course is written in, and restores the language afterwards."""
    before = get_language()
    set_language(request.param)
    yield request.param
    set_language(before)


def _close_error_name(data: bytes) -> str:
    decoder = IncrementalUTF8Decoder()
    decoder.feed(data)
    try:
        decoder.close()
    except Exception as error:  # we want the class name, whatever it is
        return type(error).__name__
    return "none"


def _last_event_id(body: bytes) -> str:
    parser = SSEParser()
    parser.feed(body)
    return parser.last_event_id


def _gemini_cut_between_events_passes() -> bool:
    capture = load("gemini/completed_stop_every_chunk")
    boundary = capture.body.rindex(b"\r\n\r\n", 0, len(capture.body) - 4) + 4  # before the last event
    return consume([capture.body[:boundary]], "gemini").outcome is Outcome.COMPLETED


def _first_idle_limit_with_a_byte_per_second() -> str:
    now = [0.0]
    dog = Watchdog(byte_idle=30, event_idle=60, progress_idle=120, clock=lambda: now[0])
    while dog.check() is None:
        now[0] += 1
        dog.on_bytes(1)
    return dog.check().limit


def _ping_moves_bytes_and_events_only() -> bool:
    now = [0.0]
    dog = Watchdog(clock=lambda: now[0])
    now[0] = 5.0
    dog.on_heartbeat(16)
    return dog.last_byte == dog.last_event == 5.0 and dog.last_progress == 0.0


def _closes_after_early_break() -> int:
    class Source:
        closes = 0

        def __iter__(self):
            yield from [b"data: {}\n\n"] * 3

        def close(self):
            Source.closes += 1

    updates = stream_updates(Source(), "openai-chat")
    next(updates)
    updates.close()
    return Source.closes


def _pending_after(*pieces: str) -> str:
    splitter = LineSplitter()
    for piece in pieces:
        splitter.feed(piece)
    return splitter.pending_text


def _clock_behind_pings() -> str:
    """Which clock runs out for a stream that pings every 5 s after its first delta (fake clock)."""
    now = [0.0]

    def reads():
        yield b'data: {"choices":[{"index":0,"delta":{"content":"\xe4\xbd\xa0"}}]}\n\n'
        for _ in range(100):
            now[0] += 5
            yield b": ping\n\n"

    result = consume(reads(), "openai-chat", idle_timeout=30, progress_timeout=60, clock=lambda: now[0])
    return result.error.kind


def _closed_at_an_abandoned_break() -> bool:
    async def main() -> bool:
        closes = []

        async def source():
            try:
                yield chat_body()
            finally:
                closes.append(1)

        updates = astream_updates(source(), "openai-chat")
        async for _ in updates:
            break
        await asyncio.sleep(0)
        return bool(closes)

    return asyncio.run(main())


def chat_body() -> bytes:
    return load("openai-chat/completed").body


def _what_a_cancelled_aconsume_shows() -> str:
    async def main() -> str:
        closes = []

        async def source():
            try:
                yield chat_body()[:50]
                await asyncio.sleep(10)
            finally:
                closes.append(1)

        task = asyncio.create_task(aconsume(source(), "openai-chat"))
        await asyncio.sleep(0.01)
        task.cancel()
        try:
            result = await task
        except asyncio.CancelledError:
            return "B" if closes == [1] else "wrong"
        return "A" if result.outcome is Outcome.CANCELLED else "C"

    return asyncio.run(main())


def _mcp_eof_outcome() -> tuple[str, str | None, bool]:
    body = (
        b"id: 1\ndata:\n\nid: 2\ndata: "
        + json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}
        ).encode()
        + b"\n\n"
    )
    result = consume([body], "mcp", request_id=7)
    return str(result.outcome), result.truncated_at, bool(result.last_event_id)


def _fragments_json_loads_accepts(name: str) -> int:
    """How many of call 0's fragments parse alone (the fragments as the contract delivers them)."""
    from lesson_lib.teach.widgets import naive_parse, value_timeline

    _, fragments = value_timeline(load(name).body, load(name).contract)
    return sum(naive_parse(f).startswith("ok") for f in fragments[0])


def _what_consume_says_after_an_invented_finish() -> str:
    from lesson_lib.net.relay_variants import Plan, relay_bytes

    body = load("openai-chat/truncated_before_done").body
    events = parse_sse(relay_bytes("invent-finish", [body], Plan("openai-chat")))
    relayed = "".join(f"data: {e.data}\n\n" for e in events if e.type != "outcome").encode()
    outcome = str(consume([relayed], "openai-chat").outcome)
    return {"completed": "A", "truncated": "B", "incomplete": "C", "service_error": "D"}[outcome]


def _diagnose_exit_status(name: str, *options: str) -> tuple[int, str]:
    """``python -m lesson_lib diagnose`` on a capture's raw body, as lesson 11 runs it: (status, stdout)."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "body.sse"
        path.write_bytes(load(name).body)
        command = [sys.executable, "-m", "lesson_lib", "diagnose", str(path), *options]
        done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout


def _raw_body_reports_the_naive_view() -> bool:
    import json

    out = _diagnose_exit_status("openai-chat/truncated_mid_character", "--json")[1]
    return json.loads(out)["naive"] is not None


def _requests_iter_lines_on_a_cr_lf_cut() -> int:
    """The events a client dispatches that takes requests' iter_lines() items as SSE lines, on one CRLF event
    cut by the server between the CR and the LF of its first line (measured, not assumed)."""
    import requests

    from lesson_lib.net import ReplayServer

    body = "data: 你好\r\ndata: 第二行\r\n\r\n".encode()
    cut = body.index(b"\r\n") + 1
    server = ReplayServer(body, cuts=[cut], content_type="text/event-stream")
    with server, requests.get(server.url, stream=True, timeout=10) as response:
        lines = list(response.iter_lines())
    return len(parse_sse([b"".join(line + b"\n" for line in lines)]))


def _guarded_sdk_on_a_length_cut() -> str:
    import openai

    from lesson_lib.guard import Client, UnprovenStreamError
    from lesson_lib.net import ReplayServer

    with ReplayServer(load("openai-chat/incomplete").body) as server:
        sdk = openai.OpenAI(api_key="k", base_url=server.url, max_retries=0, http_client=Client(timeout=10))
        messages = [{"role": "user", "content": "hi"}]
        stream = sdk.chat.completions.create(model="m", messages=messages, stream=True)
        try:
            "".join(c.delta.content or "" for chunk in stream for c in chunk.choices)
        except UnprovenStreamError as exc:
            return "B" if exc.outcome == "incomplete" else "?"
    return "A"


def _sdk_on_a_body_cut_after_the_finish_reason() -> str:
    # The committed scores (checked against the clients by tests/faults/test_client_scores.py).
    from lesson_lib.teach.fault_scores import committed_scores

    verdict = committed_scores()["scores"]["openai"]["openai-chat-eof-after-finish-reason"]
    if verdict["raised"]:
        return "C" if verdict["raised"] == "UnicodeDecodeError" else "?"
    return {"completed": "A", "service_error": "B"}.get(verdict["got"], "?")


def _right_verdicts_of_a_stall() -> str:
    from lesson_lib.faults import get_fault

    expected = get_fault("openai-chat-stall").expected
    completed = expected.accepts("completed", expected.text)
    timed_out = expected.accepts("timed_out", None)
    letters = {(True, False): "A", (False, True): "B", (True, True): "C", (False, False): "D"}
    return letters[completed, timed_out]


ANSWERS = {
    "01.bytes": len("你好🙂".encode()),
    "01.corrupting_cuts": [c for c, p in two_piece_splits("café".encode()) if naive_decode(p) != "café"],
    "01.held_max": 3,
    "01.final": _close_error_name("🙂".encode()[:3]),
    "01.replace": "D",
    "02.lines": len(_ANY_ENDING.split("a\r\nb\rc\n\nd")) - 1,
    "02.cr_lf_across": 1,
    "02.splitlines": [
        letter
        for letter, ch in zip("ABCD", "\n\x85\u2028\r", strict=True)
        if len(f"x{ch}y".splitlines()) == 2 and len(_ANY_ENDING.split(f"x{ch}y")) == 1
    ],
    "02.pending": _pending_after("data: 你", "好"),
    "03.events": len(parse_sse([b"data: a\n\ndata\n\n: ping\n\nevent: x\n\n"])),
    "03.space": {"x": "A", " x": "B", "  x": "C"}[parse_sse([b"data:  x\n\n"])[0].data],
    "03.id": {"": "A", "7": "C"}[_last_event_id(b"id: 7\ndata: a\n\nid\ndata: b\n\n")],
    "03.json_when": "C",
    "03.framing": "B",
    "00.held_layer": "B",
    "00.closed_socket": consume([load("openai-chat/truncated_clean_boundary").body], "openai-chat").outcome
    is not Outcome.COMPLETED,
    "00.openai_done": parse_sse([load("openai-chat/completed").body])[-1].data,
    "04.done_owner": {"openai-chat": "A", "openai-responses": "B", "anthropic-messages": "C", "gemini": "D"}[
        next(
            c
            for c in ("openai-chat", "openai-responses", "anthropic-messages", "gemini")
            if b"[DONE]" in load(f"{c}/completed").body
        )
    ],
    "04.clean_eof": str(
        consume([load("anthropic-messages/truncated_clean_boundary").body], "anthropic-messages").outcome
    ),
    "04.length": str(consume([load("openai-chat/incomplete").body], "openai-chat").outcome),
    "04.anthropic_terminal": parse_sse([load("anthropic-messages/completed").body])[-1].type,
    "04.gemini_cut": not _gemini_cut_between_events_passes(),
    "05.ping_progress": _ping_moves_bytes_and_events_only(),
    "05.which_clock": {"byte_idle": "A", "event_idle": "B", "progress_idle": "C"}[
        _first_idle_limit_with_a_byte_per_second()
    ],
    "05.limit": "C"
    if consume([load("openai-chat/completed").body], "openai-chat", max_line_chars=10).outcome
    is Outcome.LIMIT_EXCEEDED
    else "A",
    "05.closes": _closes_after_early_break(),
    "09.naive_fragments": _fragments_json_loads_accepts("openai-chat/tools_parallel"),
    "09.done_missing": not any(
        c.complete
        for c in consume([load("openai-chat/tools_truncated_before_done").body], "openai-chat").tool_calls
    ),
    "09.anthropic_close": "D"
    if consume([load("anthropic-messages/tools_truncated_after_block_stop").body], "anthropic-messages")
    .tool_calls[0]
    .complete
    else "B",
    "09.reasoning_where": "C"
    if consume([load("openai-chat/reasoning_deepseek").body], "openai-chat").reasoning_text
    else "D",
    "09.surrogate": "A"
    if "🚀" in str(consume([load("openai-chat/tools_parallel").body], "openai-chat").tool_calls[1].arguments)
    else "D",
    "07.splits": len(list(two_piece_splits(b"0123456789"))),
    "07.every_boundary": "C",
    "07.reference": "A",
    "07.proof": False,
    "06.replace_count": naive_decode(dict(two_piece_splits("data: 你好".encode()))[7]).count("\ufffd"),
    "06.sdk_truncated": "D",
    "06.heartbeat_inside": len(parse_sse([b"data: a\n: ping\n\ndata: b\n\n"])),
    "08.heartbeat_clock": {"progress_timeout": "A", "idle_timeout": "B"}[_clock_behind_pings()],
    "08.aclosing": _closed_at_an_abandoned_break(),
    "08.cancel": _what_a_cancelled_aconsume_shows(),
    "08.mcp_eof": "C" if _mcp_eof_outcome() == ("truncated", "completion", True) else "A",
    "08.resumable": ["A", "D"],
    "10.eventsource": "B",
    "10.cancel": "D",
    "10.invented": _what_consume_says_after_an_invented_finish(),
    "10.header_hop": OBSERVED[("nginx", "two_hops_gzip", "completes", "no")]["reads"],
    "10.caddy_drop": "D"
    if OBSERVED[("caddy", "defaults", "drops", "no")]["transport"] == "clean end"
    else "A",
    "11.exit_status": "ABC"[_diagnose_exit_status("openai-chat/truncated_before_done")[0]],
    "11.raw_reads": _raw_body_reports_the_naive_view(),
    "11.capture": "B",
    "11.guarded_length": _guarded_sdk_on_a_length_cut(),
    "12.sdk_after_finish": _sdk_on_a_body_cut_after_the_finish_reason(),
    "12.verdict_without_text": __import__("lesson_lib.faults", fromlist=["get_fault"])
    .get_fault("openai-chat-reset-mid-event")
    .expected.accepts("truncated", None),
    "12.stall": _right_verdicts_of_a_stall(),
    "12.other_language": "B",
    "06.resume_without_ids": "A"
    if any(e.last_event_id for e in parse_sse([load("openai-chat/completed").body]))
    else "C",
    "06.requests_crlf": _requests_iter_lines_on_a_cr_lf_cut(),
}


def test_every_question_has_an_answer_here():
    _load_all()
    assert set(QUESTIONS) >= set(ANSWERS)
    missing = set(QUESTIONS) - set(ANSWERS)
    assert not missing, f"questions without an answer in the test: {missing}"


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_the_true_answer_is_accepted(key, language):
    result = check(key, ANSWERS[key])
    assert result.correct, result
    assert repr(result).startswith(f"{key} ✓ correct" if language == "en" else f"{key} ✓ 正确：")


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_wrong_answers_get_a_hint_not_the_answer(key, language):
    q = question(key)
    wrong = {"int": 999, "word": "no idea", "literal": "no idea", "choice": "Z", "choices": ["Z"]}
    wrong.update({"ints": [999], "bool": "maybe"})
    if q.kind == "bool":
        assert not check(key, "maybe").correct  # not a yes/no answer: told so, never taken as False
        wrong["bool"] = not ANSWERS[key]
    for answer in (wrong[q.kind], *q.hints):
        if q.kind in {"ints", "choices"} and isinstance(answer, str):
            answer = answer.split(",") if answer else []
        result = check(key, answer)
        assert not result.correct
        assert str(ANSWERS[key]) not in result.message or str(ANSWERS[key]) in q.prompt


def test_an_unanswered_question_says_what_to_do():
    result = check("01.bytes", ...)
    assert not result and "write your answer" in result.message


def test_lessons_have_three_to_five_questions():
    _load_all()
    lessons = {key.split(".")[0] for key in QUESTIONS}
    assert lessons >= {"00", "01", "02", "03", "04", "05", "07", "08", "09", "10"}
    for lesson in lessons:
        assert 3 <= len(questions(lesson)) <= 5


def test_unknown_question():
    with pytest.raises(KeyError):
        check("99.nothing", 1)


# -- a hint never contains an accepted answer ------------------------------------------------------------

#: Words for numbers that a hint could say: check() reads them only where a question counts times, and the
#: leak test looks for them in every hint.
_MULTIPLES = {"once": "1", "twice": "2", "thrice": "3"}
_PUNCTUATION = ".,;:!?()'\"`"
#: Chinese prose punctuation, stripped from the ends of a candidate like the English above.
_CHINESE_PUNCTUATION = "，。；：！？（）、“”‘’《》「」……"
#: One token of Chinese text: a run of Latin letters, digits and code characters (a word, an identifier,
#: U+FFFD, [DONE]), a run of whitespace, or one other character (a Chinese character, a punctuation mark).
_TOKEN = re.compile(r"[A-Za-z0-9_+\-.\[\]/=]+|\s+|\S")
#: Yes/no words of a True/False question that are ordinary words in a Chinese hint (as "yes" and "no" are in
#: an English one): 是 is "is", 否 as in 是否. 对/错 and 正确/错误 count, as True/False do.
_CHINESE_YES_NO = {"是", "否"}


def candidate_answers(text: str, kind: str) -> set[str]:
    """Every piece of ``text`` a learner could type as an answer: each run of 1 to 6 words (with and
    without the punctuation around it), each quoted piece (an empty one, '', too), and once/twice/thrice
    as numbers.

    Normalising (case, spacing, quotes, number words, the words of an option) is left to check() itself,
    so a hint is caught in every form check() accepts. Two things are left out, on purpose: a lowercase
    one-letter word (the article "a" is not the option A; an uppercase standalone letter does count), and,
    for a True/False question, "yes" and "no" (they are ordinary words in a hint; "True"/"False" count).
    """
    found = {m.group(2) for m in re.finditer(r"""(['"`])(.*?)\1""", text)}
    tokens = text.split()
    for start in range(len(tokens)):
        for end in range(start + 1, min(start + 6, len(tokens)) + 1):
            span = " ".join(tokens[start:end])
            found.update(c for c in (span, span.strip(_PUNCTUATION), span.rstrip(_PUNCTUATION)) if c)
    for word in re.findall(r"[A-Za-z]+", text):
        if word.casefold() in _MULTIPLES:
            found.add(_MULTIPLES[word.casefold()])
    found = {c for c in found if not (len(c) == 1 and c.isalpha() and c.islower())}
    if kind == "bool":
        found = {c for c in found if c.strip(_PUNCTUATION).casefold() not in {"yes", "no"}}
    return found


def chinese_candidate_answers(text: str, kind: str) -> set[str]:
    """Every piece of Chinese ``text`` a learner could type as an answer: what :func:`candidate_answers`
    finds, and, since Chinese puts no spaces between words, every run of 1 to 12 tokens (see ``_TOKEN``: a
    Chinese character is a token, a Latin word or number is one) with and without the punctuation around
    it, and each piece inside Chinese quotes. So 三, 三个, 两次 and 一 inside 一起 all count: a hint must
    say neither the number nor its Chinese word anywhere. Left out, as in English: a lowercase one-letter
    word, and for a True/False question the ordinary words 是 and 否."""
    found = candidate_answers(text, kind)
    found |= {m.group(1) for m in re.finditer(r"[“‘「《](.*?)[”’」》]", text)}
    tokens = [(m.start(), m.end(), m.group().isspace()) for m in _TOKEN.finditer(text)]
    for i, (start, _, space) in enumerate(tokens):
        if space:
            continue
        for _, end, last_space in tokens[i : i + 12]:
            if last_space:
                continue
            span = text[start:end]
            stripped = span.strip(_PUNCTUATION + _CHINESE_PUNCTUATION)
            found.update(c for c in (span, stripped) if c)
    found = {c for c in found if not (len(c) == 1 and c.isalpha() and c.islower() and c.isascii())}
    if kind == "bool":
        found = {c for c in found if c.strip(_PUNCTUATION + _CHINESE_PUNCTUATION) not in _CHINESE_YES_NO}
    return found


def hint_texts(key: str) -> list[str]:
    """Every hint question ``key`` can show: its hint, its targeted hints, and what check() says to wrong,
    unreadable, too general or ambiguous answers."""
    q = question(key)
    texts = [q.hint, *q.hints.values()]
    tries = [*q.hints, *q.broader, "Z", "no idea", 999, [999], "maybe", "OpenAI", None, "不知道", "也许"]
    if q.kind == "literal":
        tries += [str(ANSWERS[key]).lower(), str(ANSWERS[key]).upper()]
    for answer in tries:
        if q.kind in {"ints", "choices"} and isinstance(answer, str) and "," in answer:
            answer = answer.split(",")
        result = check(key, answer)
        if not result.correct:
            texts.append(_without_what_the_learner_already_sees(q, result.message))
    return texts


def _without_what_the_learner_already_sees(q, message: str) -> str:
    """A message without the question itself, the form it wants (options and "True or False" name every
    possible answer, the right one among them) and the options the learner's own words fit."""
    message = message.replace(q.prompt, "").replace(q.wants(), "")
    message = re.sub(r"fits more than one option \([A-Z and]+\)", "fits more than one option", message)
    return re.sub(r"同时符合多个选项（[A-Z、]+）", "同时符合多个选项", message)


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_no_hint_contains_an_accepted_answer(key, language):
    """In every language: each hint, and every message a wrong answer gets, read as answers piece by piece."""
    q = question(key)
    candidates = candidate_answers if language == "en" else chinese_candidate_answers
    leaks = sorted(
        {
            (candidate, text)
            for text in hint_texts(key)
            for candidate in candidates(text, q.kind)
            if check(key, candidate).correct
        }
    )
    assert not leaks, leaks


@pytest.mark.parametrize(
    ("text", "kind", "answer", "caught"),
    [
        ("Once is right for every path.", "int", "1", True),
        ("The event limit trips at 60 s.", "int", "60", True),
        ("It holds three bytes at most.", "int", "three", True),  # check() reads the word
        ("A byte arrives every second.", "choice", "A", True),  # a standalone capital letter counts
        ("Look at a bare 'data' line.", "choice", "A", False),  # the article is not the option
        ("Try 'B' here.", "choice", "B", True),
        ("The answer is [DONE].", "literal", "[DONE]", True),
        ("There is no signal.", "bool", "no", False),
    ],
)
def test_candidate_answers_find_what_a_hint_gives_away(text, kind, answer, caught):
    assert (answer in candidate_answers(text, kind)) is caught


@pytest.mark.parametrize(
    ("text", "kind", "answer", "caught"),
    [
        ("它最多暂存三个字节。", "int", "三个字节", True),
        ("它最多暂存三个字节。", "int", "三", True),  # check() reads the word, wherever it stands
        ("两个结束符之间夹着什么？", "int", "两", True),
        ("把它们放在一起看。", "int", "一", True),  # 一 inside 一起: the leak test asks for other words
        ("上限分别是 30 s 和 60 s。", "int", "60", True),
        ("选 B 试试。", "choice", "B", True),
        ("API 的事件", "choice", "A", False),  # a letter inside a Latin word is not the option
        ("看看“事件时钟”。", "choice", "事件时钟", True),
        ("这是否成立？", "bool", "否", False),  # an ordinary word, as "no" is in English
        ("这里出错了吗？", "bool", "错", True),
    ],
)
def test_chinese_candidate_answers_find_what_a_hint_gives_away(text, kind, answer, caught):
    assert (answer in chinese_candidate_answers(text, kind)) is caught


def test_the_leak_test_catches_chinese_hints_that_give_the_answer_away(monkeypatch):
    """Hints written the first way that comes to mind in Chinese, each giving its answer away (the leak
    test is what made the catalogue's hints ask instead)."""
    leaky = {
        "02.cr_lf_across": "如果这两个字节是一起到达的，答案是多少？",  # 一 in 一起: the answer is 1
        "05.closes": "每条路径上都只关闭一次；数一数有几条路径。",
        "03.events": "看第二块，一个光秃秃的 'data' 行。",  # 二 in 第二: the answer is 2
        "01.held_max": "最长的未完成开头有三个字节。",
        "05.which_clock": "进度时钟卡住了，但事件的上限是 60 s。",
        "09.naive_fragments": "没有一个片段能单独解析。",
        "07.proof": "这种说法是错的：组合没有试全。",
    }
    for key, text in leaky.items():
        kind = question(key).kind
        monkeypatch.setattr("lesson_lib.i18n._language", "zh-CN")
        assert any(check(key, c).correct for c in chinese_candidate_answers(text, kind)), key


def test_the_leak_test_catches_the_old_hints():
    """The hints this file's leak test was written against, as they were: each gives its answer away."""
    old = {
        "05.closes": "Once is right for every path; count how many paths there are, and how many closes "
        "each makes.",
        "05.which_clock": "The progress clock is stuck too, but its limit is 120 s; the event limit trips at "
        "60 s.",
        "03.space": "Only one space is removed, not all leading whitespace.",
        "03.id": "The second event has a bare 'id' line: an id field with an empty value, which resets it.",
    }
    for key, text in old.items():
        kind = question(key).kind
        assert any(check(key, c).correct for c in candidate_answers(text, kind)), key


# -- equivalent forms pass -----------------------------------------------------------------------------------


def equivalent_forms(key: str) -> list:
    """Other ways a learner may write the true answer of ``key``, by kind."""
    q, answer = question(key), ANSWERS[key]
    if q.kind == "int":
        words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        word = words[answer]
        return [str(answer), f" {answer} ", float(answer), f"'{answer}'", word, word.upper()]
    if q.kind == "ints":
        return [tuple(answer), set(answer), ", ".join(map(str, answer)), str(answer), *answer[:1]]
    if q.kind == "choice":
        options = q.options.texts
        forms = [answer.lower(), f"({answer})", f"{answer})", [answer], f" {answer} ", full_width(answer)]
        text = options[answer]
        forms += [f"{answer}) {text}", f"({answer}) {text}"]  # the option exactly as printed
        if not text.startswith(("'", '"')):
            forms += [text, text.upper()]
        return forms
    if q.kind == "choices":
        return [",".join(answer), ", ".join(answer), "".join(answer), " and ".join(answer), tuple(answer)]
    if q.kind == "bool":
        forms = [str(answer), str(answer).lower(), "yes" if answer else "no", str(answer).upper()]
        return [*forms, full_width(str(answer))]
    if q.kind == "word":
        return [answer.upper(), f"  {answer}  ", f"'{answer}'", answer.title(), full_width(answer)]
    if q.kind == "literal":
        # exactly as sent, or inside one pair of quotes (string syntax); never with whitespace around it,
        # never full-width (test_full_width_wire_text_is_other_bytes_and_is_told_so)
        return [answer, f"'{answer}'", f'"{answer}"', f"“{answer}”", f"「{answer}」"]
    raise AssertionError(q.kind)


def full_width(text: str) -> str:
    """``text`` with its ASCII letters, digits and punctuation in their full-width forms (what a Chinese
    input method types: Ｂ, ３, ［DONE］), spaces left as they are."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def chinese_equivalent_forms(key: str) -> list:
    """Ways a Chinese learner may write the true answer of ``key``, beyond :func:`equivalent_forms`."""
    q, answer = question(key), ANSWERS[key]
    if q.kind == "int":
        digits = "零一二三四五六七八九十"
        return [digits[answer], f"{digits[answer]}个", f"{answer} 个", f" {digits[answer]} "]
    if q.kind == "ints":
        return ["、".join(map(str, answer)), "，".join(map(str, answer))]
    if q.kind == "choice":
        text = q.options.texts[answer]
        return [f"（{answer}）", f"{answer}）", *([text] if not text.startswith(("'", '"')) else [])]
    if q.kind == "choices":
        return ["、".join(answer), " 和 ".join(answer), "，".join(answer)]
    if q.kind == "bool":
        return ["对" if answer else "错", "正确" if answer else "错误", "是" if answer else "否"]
    return []


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_equivalent_forms_of_the_true_answer_pass(key, language):
    forms = equivalent_forms(key) + (chinese_equivalent_forms(key) if language == "zh-CN" else [])
    for form in forms:
        result = check(key, form)
        assert result.correct, (form, result)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("02.splitlines", "B,C"),
        ("02.splitlines", "B, C"),
        ("02.splitlines", "BC"),
        ("02.splitlines", "bc"),
        ("02.splitlines", ["B", "C"]),
        ("02.splitlines", ["c", "b"]),
        ("02.splitlines", "B and C"),
        ("02.splitlines", "[B, C]"),
        ("02.splitlines", ["U+0085", "U+2028"]),
        ("02.splitlines", "NEL, U+2028"),
        ("03.space", " x"),  # the value itself, exactly as quoted in the option
        ("03.space", "one space"),
        ("03.id", ""),
        ("03.id", "empty"),
        ("03.id", "the empty string"),
        ("03.framing", "NDJSON"),
        ("03.framing", "ndjson"),
        ("04.done_owner", "OpenAI Chat Completions"),
        ("04.done_owner", "chat completions"),
        ("05.which_clock", "event_idle"),
        ("05.which_clock", "event idle"),
        ("05.which_clock", "event"),
        ("00.held_layer", "character"),
        ("01.corrupting_cuts", 4),
        ("01.corrupting_cuts", "[4]"),
        ("01.final", "TruncatedCharacterError"),
        ("01.final", "truncatedcharactererror"),
        ("04.clean_eof", "Truncated"),
        ("04.clean_eof", Outcome.TRUNCATED),
        ("00.openai_done", "[DONE]"),
        ("07.splits", "nine"),
    ],
)
def test_named_equivalent_forms_pass(key, answer):
    assert check(key, answer).correct, check(key, answer)


def test_an_exception_class_reads_as_its_name():
    from lesson_lib.core.errors import TruncatedCharacterError

    assert check("01.final", TruncatedCharacterError).correct


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("03.space", "x"),  # A's value, not B's: spaces inside a quoted value are exact
        ("03.space", "  x"),
        ("03.id", "7"),
        ("03.id", "None"),
        ("02.splitlines", "B"),
        ("02.splitlines", "A, B, C"),
        ("01.corrupting_cuts", "3, 4"),
        ("05.which_clock", "byte_idle"),
    ],
)
def test_near_but_wrong_forms_fail(key, answer):
    assert not check(key, answer).correct


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.openai_done", "[done]"),
        ("00.openai_done", "[Done]"),
        ("02.pending", "DATA: 你好"),
        ("04.anthropic_terminal", "MESSAGE_STOP"),
    ],
)
def test_case_is_the_point_on_the_wire(key, answer):
    result = check(key, answer)
    assert not result.correct
    assert "wrong case" in result.message and "on the wire case matters" in result.message


def test_case_is_not_the_point_in_a_word():
    assert check("04.length", "INCOMPLETE").correct
    assert check("04.anthropic_terminal", "message_stop").correct


def test_a_literal_is_exact_inside():
    assert not check("02.pending", "data:  你好").correct  # two spaces are another pending text
    assert not check("02.pending", "data:你好").correct


@pytest.mark.parametrize(
    "answer",
    ["UnicodeDecodeError", "unicodedecodeerror", UnicodeDecodeError, "ValueError", "StreamDecodeError"],
)
def test_a_true_but_too_general_answer_is_told_to_be_more_specific(answer):
    result = check("01.final", answer)
    assert not result.correct
    assert result.message.startswith("right family, be more specific")


def test_an_unrelated_exception_is_not_the_right_family():
    result = check("01.final", "KeyError")
    assert not result.correct and "right family" not in result.message


def test_words_that_fit_two_options_are_not_guessed():
    result = check("04.done_owner", "OpenAI")
    assert not result.correct
    assert "fits more than one option (A and B)" in result.message and "be more specific" in result.message


@pytest.mark.parametrize("answer", [True, False, 3.5, "3.5", "three and a half"])
def test_an_int_question_does_not_round_or_take_a_bool(answer):
    result = check("05.closes", answer)
    assert not result.correct and "wants a whole number (an int)" in result.message


def test_none_is_an_answer_only_where_an_option_says_none():
    assert not check("03.id", None).correct
    assert "write your answer" not in check("03.id", None).message  # C) None is an option: a wrong answer
    assert "write your answer" in check("01.bytes", None).message


# -- the grammar of messages built from a kind ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "unreadable", "phrase"),
    [
        ("01.bytes", "lots", "wants a whole number (an int)."),
        ("01.corrupting_cuts", "some", "wants a list of whole numbers (a list of ints)."),
        ("03.framing", "Z", "wants one option, A to C (its letter, or its words)."),
        ("02.splitlines", ["Z"], "wants a list of options from A to D"),
        ("07.proof", "maybe", "wants True or False."),
    ],
)
def test_what_a_question_wants_reads_as_english(key, unreadable, phrase):
    message = check(key, unreadable).message
    assert phrase in message, message


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_no_message_puts_a_before_a_vowel_kind(key):
    for answer in ("Z", "no idea", [999], "maybe", "lots"):
        message = check(key, answer).message
        assert not re.search(r"\ba (int|ints|choice answer|word answer|bool)\b", message), message


# -- every way of writing a set of letters reads the same ----------------------------------------------------

_CHOICE_KEYS = sorted(k for k in ANSWERS if question(k).kind == "choices")


@settings(deadline=None, max_examples=200)
@given(data=st.data())
def test_letters_in_any_order_case_and_separator_read_the_same(data):
    key = data.draw(st.sampled_from(_CHOICE_KEYS))
    letters = question(key).options.letters
    chosen = data.draw(st.lists(st.sampled_from(letters), min_size=1, unique=True))
    written = [data.draw(st.sampled_from([x, x.lower()])) for x in data.draw(st.permutations(chosen))]
    separator = data.draw(st.sampled_from([",", ", ", " ", ";", " and ", "/", ""]))
    text = data.draw(st.sampled_from(["{}", "[{}]", " {} "])).format(separator.join(written))
    right = sorted(chosen) == sorted(ANSWERS[key])
    assert check(key, text).correct is right, text
    assert check(key, written).correct is right, written


# -- counts: "none", and a number with the question's unit ---------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("09.naive_fragments", "none"),
        ("09.naive_fragments", "No"),
        ("09.naive_fragments", "none of them"),
        ("09.naive_fragments", "0 of them"),
        ("07.splits", "nine splits"),
        ("07.splits", "9 splits"),
        ("07.splits", "9 two-piece splits"),
        ("01.bytes", "10 bytes"),
        ("02.cr_lf_across", "one line ending"),
        ("05.closes", "1 time"),
    ],
)
def test_a_count_reads_none_and_a_number_with_its_unit(key, answer):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("07.splits", "9 bytes"),  # not the unit the question counts in
        ("07.splits", "nine or ten splits"),
        ("07.splits", "not 9 splits"),
        ("07.splits", "9 splits or more"),
        ("01.bytes", "10 characters"),
        ("09.naive_fragments", "none yet"),
    ],
)
def test_a_number_with_other_words_is_not_read(key, answer):
    result = check(key, answer)
    assert not result.correct and "wants a whole number (an int)" in result.message, result


def test_none_is_a_count_only_where_a_count_is_asked():
    assert check("05.closes", "none").message == check("05.closes", 0).message  # read as 0, a wrong count
    assert not check("04.gemini_cut", "none").correct  # a True/False question does not read it as 0


def test_count_units_come_from_how_many():
    from lesson_lib.exercises.answers import count_units

    assert count_units("How many two-piece splits does a 10-byte body have?") == {
        "two-piece",
        "two-piece splits",
        "splits",
        "two-piece split",
        "split",
    }
    assert count_units("At most how many bytes can it hold?") == {"bytes", "byte"}
    assert count_units("How many of them does json.loads accept?") == {"of them"}
    assert count_units("What is 3 + 4?") == frozenset()


def test_openai_done_near_misses_get_targeted_hints():
    whole_line = check("00.openai_done", "data: [DONE]")
    bare_word = check("00.openai_done", "DONE")
    assert not whole_line.correct and not bare_word.correct
    assert "'data: ' prefix" in whole_line.message
    assert "exact bytes" in bare_word.message and "around it" in bare_word.message
    assert whole_line.message != bare_word.message != question("00.openai_done").hint


@pytest.mark.parametrize(
    ("key", "wrong", "gives_away"),
    [
        ("04.length", "completed", "not a whole answer"),  # named the outcome
        ("03.events", 1, "is dispatched"),  # handed over the second event
        ("08.heartbeat_clock", "C", "not reset by a ping"),  # said one clock runs out
        ("09.naive_fragments", 1, "does not start one"),  # said the last fragment fails too
        ("02.lines", 3, "counts"),  # said the empty line is one more
        ("06.heartbeat_inside", 1, "dispatches the event built so far"),
        ("07.splits", 10, "that is not a split"),
    ],
)
def test_a_targeted_hint_asks_rather_than_tells(key, wrong, gives_away):
    """These hints once stated their answer indirectly (the leak test cannot see that): now they ask."""
    message = check(key, wrong).message
    assert not check(key, wrong).correct
    assert gives_away not in message and message.rstrip().endswith("?"), message


# -- a literal is compared exactly ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("02.pending", "data: 你好\r"),  # a line ending: the line would no longer be pending
        ("02.pending", "data: 你好\n"),
        ("02.pending", "data: 你好\r\n"),
        ("02.pending", " data: 你好"),
        ("02.pending", "data:  你好"),  # two spaces are another pending text
        ("02.pending", "data:\u3000你好"),  # an ideographic space is another byte, NFKC or not
        ("00.openai_done", " [DONE] "),
        ("00.openai_done", "[DONE]\n"),
        ("00.openai_done", " '[DONE]' "),  # quotes are string syntax; the spaces outside them are bytes
        ("04.anthropic_terminal", "message_stop "),
        ("04.anthropic_terminal", "event: message_stop\n"),
    ],
)
def test_a_literal_is_compared_exactly_and_whitespace_is_named(key, answer, language):
    result = check(key, answer)
    assert not result.correct, result
    said = "on the wire that byte matters" if language == "en" else "这个字节是有区别的"
    assert said in result.message, result.message


def test_other_literal_mistakes_are_not_called_whitespace():
    assert (
        "that byte matters" not in check("02.pending", "data:你好").message
    )  # a missing byte, not whitespace
    assert "wrong case" in check("00.openai_done", " [done] ").message


# -- every right answer a learner would type passes, in both editions ----------------------------------------

#: The natural ways of writing each question's right answer, beyond the forms every question of its kind
#: accepts (equivalent_forms): the option as printed, an option's own words, number words, qualified names,
#: an event line, full-width input, the glossary's Chinese terms. Read in both languages.
NATURAL_FORMS = {
    "00.held_layer": [
        "B) character",
        "b) character",
        "(B) character",
        "B. character",
        "the character layer",
        "character boundary",
        "characters",
        "the UTF-8 decoder",
        "Ｂ",
        "Ｂ) character",
    ],
    "00.closed_socket": [True, "true", "ＴＲＵＥ"],
    "00.openai_done": ["[DONE]", "'[DONE]'", "“[DONE]”", "‘[DONE]’"],
    "01.bytes": ["ten", "10 bytes", "１０", "exactly 10"],
    "01.corrupting_cuts": [[4], "4", "[4]"],
    "01.held_max": ["three", "3 bytes", "３"],
    "01.final": [
        "TruncatedCharacterError",
        "lesson_lib.core.errors.TruncatedCharacterError",
        "lesson_lib.TruncatedCharacterError",
        "'TruncatedCharacterError'",
    ],
    "01.replace": [
        "D) it turns a cut in the transport into silently wrong text",
        "silently wrong text",
        "Ｄ",
    ],
    "02.lines": ["four", "4 lines", "4 complete lines"],
    "02.cr_lf_across": ["one", "one line ending", "1 ending"],
    "02.splitlines": ["B, C", "NEL and U+2028", "U+0085, U+2028", "B) U+0085 (NEL), C) U+2028", "Ｂ，Ｃ"],
    "02.pending": ["data: 你好", "'data: 你好'", '"data: 你好"', "“data: 你好”", "「data: 你好」"],
    "03.events": ["two", "2 events", "２"],
    "03.space": [" x", "' x'", "one space", "B) ' x' (one space)"],
    "03.id": ["", "''", "empty", "the empty string", "an empty string", "empty string", "A) '' (empty)"],
    "03.json_when": [
        "on dispatch",
        "at dispatch",
        "when the event is dispatched",
        "when the blank line dispatches the event",
        "C) when the blank line dispatches the event",
    ],
    "03.framing": [
        "NDJSON",
        "ndjson",
        "newline-delimited JSON",
        "newline delimited json",
        "JSON Lines",
        "application/x-ndjson",
        "B) NDJSON",
    ],
    "04.done_owner": ["OpenAI Chat Completions", "Chat Completions", "A) OpenAI Chat Completions"],
    "04.clean_eof": [
        "truncated",
        "TRUNCATED",
        "Outcome.TRUNCATED",
        Outcome.TRUNCATED,
        "被截断",
        "'truncated'",
    ],
    "04.length": ["incomplete", "Outcome.INCOMPLETE", "未完成", "不完整", "ｉｎｃｏｍｐｌｅｔｅ"],
    "04.anthropic_terminal": [
        "message_stop",
        "event: message_stop",
        "event:message_stop",
        "'message_stop'",
        "'event: message_stop'",
        "“message_stop”",
    ],
    "04.gemini_cut": [False, "false", "no"],
    "05.ping_progress": [True, "yes"],
    "05.which_clock": ["event_idle", "event idle", "the event clock", "event", "B) event_idle"],
    "05.limit": [
        "limit_exceeded",
        "limit exceeded",
        "Outcome.LIMIT_EXCEEDED",
        "it stops",
        "stop",
        "C) stop: outcome limit_exceeded, with the limit and the offset",
    ],
    "05.closes": ["once", "Once", "exactly once", "one time", "1 time", "one"],
    "06.replace_count": ["three", "3 U+FFFD", "three U+FFFD characters", "3 characters"],
    "06.sdk_truncated": [
        "ends without an exception",
        "it ends normally",
        "no exception",
        "D) ends without an exception, with a shorter text",
    ],
    "06.heartbeat_inside": ["two", "2 events"],
    "06.resume_without_ids": ["nothing resumes it", "it cannot resume", "nothing", "Ｃ"],
    "06.requests_crlf": ["two", "2 events", "two events"],
    "07.splits": ["nine", "9 splits", "nine two-piece splits"],
    "07.every_boundary": ["one-byte reads", "1-byte reads", "byte by byte", "C) one-byte reads"],
    "07.reference": ["the parse of the same bytes in one read", "one read", "the unfragmented parse"],
    "07.proof": [False, "no"],
    "08.heartbeat_clock": [
        "progress_timeout",
        "progress timeout",
        "the progress clock",
        "progress",
        "A) progress_timeout",
    ],
    "08.aclosing": [False, "False"],
    "08.cancel": [
        "CancelledError",
        "asyncio.CancelledError",
        "a CancelledError",
        "B) CancelledError, after the source was closed",
    ],
    "08.mcp_eof": ["truncated", "truncated at completion", "resumable"],
    "08.resumable": [
        "A, D",
        "Responses and MCP",
        "A) OpenAI Responses started with background: true, D) MCP",
    ],
    "09.naive_fragments": ["none", "zero", "none of them", "0 of them"],
    "09.done_missing": [True, "true"],
    "09.anthropic_close": [
        "content_block_stop",
        "D) content_block_stop",
        "ｃｏｎｔｅｎｔ_block_stop",
        "event: content_block_stop",
    ],
    "09.reasoning_where": [
        "reasoning_text",
        "in reasoning_text",
        "result.reasoning_text",
        "C) in reasoning_text",
    ],
    "09.surrogate": ["🚀", "the rocket emoji", "U+1F680", "A) 🚀"],
    "10.eventsource": [
        "decode a character cut across two reads",
        "decode a cut character",
        "B) decode a character cut across two reads",
    ],
    "10.cancel": [
        "http.disconnect",
        "D) the relay, told by http.disconnect, cancels its task, which closes the upstream response",
    ],
    "10.invented": ["completed", "Outcome.COMPLETED", "A) completed"],
    "10.header_hop": ["one", "1 read"],
    "10.caddy_drop": ["a clean end of the body", "D) a clean end of the body after the partial answer"],
    "11.exit_status": ["1", "exit status 1", "B) 1"],
    "11.raw_reads": [False, "no"],
    "11.capture": ["curl --trace", "B) the same request with curl -N --trace-time --trace FILE"],
    "11.guarded_length": ["UnprovenStreamError", "B) UnprovenStreamError whose outcome is incomplete"],
    "12.sdk_after_finish": [
        "all the text, and no exception",
        "A) all the text, and no exception",
        "completed",
    ],
    "12.verdict_without_text": [True, "yes"],
    "12.stall": ["either", "C) either of them"],
    "12.other_language": [
        "POST /faults/<name>/verdict",
        "B) POST /faults/<name>/verdict with JSON {client, outcome, text}",
    ],
}

#: Natural right forms read in the Chinese edition (a Chinese option's words, Chinese aliases).
CHINESE_NATURAL_FORMS = {
    "00.closed_socket": ["对的", "是的"],
    "07.proof": ["不对", "错的"],
    "00.held_layer": ["B) 字符", "B）字符", "字符层", "Ｂ）字符"],
    "03.id": ["空字符串", "空串"],
    "03.json_when": ["派发时", "C) 空行派发事件时"],
    "03.framing": ["换行分隔的 JSON"],
    "05.closes": ["一次", "恰好一次", "１次"],
    "05.limit": ["超出上限", "停止"],
    "06.resume_without_ids": ["没有办法续传", "无法续传"],
    "06.requests_crlf": ["两个", "2 个事件", "两个事件"],
    "07.every_boundary": ["单字节读取", "逐字节读取"],
    "07.reference": ["一次读完"],
    "08.heartbeat_clock": ["进展时钟", "A）progress_timeout"],
    "08.mcp_eof": ["被截断", "可以续传"],
    "09.surrogate": ["火箭"],
    "10.invented": ["已完成"],
    "10.caddy_drop": ["正文干净结束"],
    "12.sdk_after_finish": ["全部文本，没有异常", "A) 全部文本，没有异常", "没有异常", "A）全部文本"],
    "12.verdict_without_text": ["对的", "正确"],
    "12.stall": ["两者都算对", "C) 两者都算对", "都对", "两者都可以"],
    "12.other_language": [
        "用 POST 发送判定",
        "B) 用 POST /faults/<name>/verdict 发送 JSON {client, outcome, text}",
        "POST /faults/<name>/verdict",
    ],
}


def test_natural_forms_name_real_questions():
    _load_all()
    assert set(NATURAL_FORMS) == set(QUESTIONS)
    assert set(CHINESE_NATURAL_FORMS) <= set(QUESTIONS)


@pytest.mark.parametrize("key", sorted(NATURAL_FORMS))
def test_every_natural_right_form_passes(key, language):
    forms = NATURAL_FORMS[key] + (CHINESE_NATURAL_FORMS.get(key, []) if language == "zh-CN" else [])
    failing = [(form, check(key, form).message) for form in forms if not check(key, form).correct]
    assert not failing, failing


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.held_layer", "A) character"),  # the letter and the words disagree
        ("00.held_layer", "value"),
        ("01.bytes", "once"),  # "once" counts times, not bytes
        ("02.cr_lf_across", "once"),  # the answer is 1, but "once" does not count line endings
        ("05.closes", "twice"),
        ("01.final", "builtins.UnicodeDecodeError"),  # right family, not the class
        ("01.final", "mymodule.TruncatedCharacterError"),  # not a path this course has
        ("03.id", "None"),
        ("04.clean_eof", "不完整"),  # incomplete, not truncated
        ("04.clean_eof", "未完成（truncated）"),  # the value and its gloss disagree
        ("04.done_owner", "OpenAI"),  # fits A and B
        ("04.anthropic_terminal", "data: message_stop"),  # not the event field
        ("08.mcp_eof", "completed"),
        ("09.surrogate", "U+FFFD"),
        ("10.invented", "Outcome.TRUNCATED"),
    ],
)
def test_ambiguous_or_wrong_forms_are_still_refused(key, answer, language):
    assert not check(key, answer).correct


def test_letter_and_words_that_disagree_are_told_they_fit_two_options():
    assert "fits more than one option (A and B)" in check("00.held_layer", "A) character").message


# -- answer positions are balanced across the course ---------------------------------------------------------


def test_answer_positions_are_balanced():
    """No letter is the answer of more than a third of the single-choice questions (rounded up), and
    True/False answers are near half and half. Computed from the registry with the true answers above,
    which are checked against the digests (the same in both languages) by test_the_true_answer_is_accepted."""
    _load_all()
    letters = [ANSWERS[k] for k, q in QUESTIONS.items() if q.kind == "choice"]
    bools = [ANSWERS[k] for k, q in QUESTIONS.items() if q.kind == "bool"]
    most = max(letters.count(x) for x in set(letters))
    assert most <= -(-len(letters) // 3), {x: letters.count(x) for x in sorted(set(letters))}
    assert abs(bools.count(True) - bools.count(False)) <= 1, bools
    assert all(check(k, ANSWERS[k]).correct for k, q in QUESTIONS.items() if q.kind in ("choice", "bool"))


def test_the_last_letter_of_the_four_option_questions_is_an_answer_too():
    """Among the questions with four or more options, D (the last letter they all have) is an answer too:
    a learner cannot learn that the last option is never right."""
    _load_all()
    wide = [ANSWERS[k] for k, q in QUESTIONS.items() if q.kind == "choice" and len(q.options.texts) >= 4]
    assert "D" in wide and max(wide.count(x) for x in set(wide)) <= -(-len(wide) // 2), wide


# -- hints point at the idea, not at the answer --------------------------------------------------------------


#: Three hints that once nearly gave the answer, and what each said: 02.splitlines named the very characters
#: that are the answer; 08.heartbeat_clock's hint for C pointed at B (the clock nothing resets);
#: 06.replace_count's hint for 2 stated the counting rule.
_GIVEAWAYS = {
    ("02.splitlines", None): ("\\x85", "\x85", "U+0085", "NEL", "2028", "下一行符"),
    ("08.heartbeat_clock", "C"): ("progress", "nothing resets", "进展", "进度", "没有任何东西"),
    ("06.replace_count", "2"): ("each one its own", "two of them", "各算各", "两个后续字节能组成"),
}


@pytest.mark.parametrize(("key", "wrong"), sorted(_GIVEAWAYS, key=str))
def test_three_hints_that_nearly_gave_the_answer_now_point_at_the_idea(key, wrong, language):
    hint = question(key).hint if wrong is None else question(key).hints[wrong]
    said = [x for x in _GIVEAWAYS[key, wrong] if x.casefold() in hint.casefold()]
    assert not said, (said, hint)
    assert wrong is None or hint.rstrip().endswith(("?", "？")), hint  # a targeted hint asks


#: What 10.header_hop's hints once said of the outcome (the outer hop "holds the compressed bytes back": the
#: answer arrived in a single read), in both languages.
_HEADER_HOP_OUTCOME = (
    *("holds", "held", "back", "whole", "at once", "single", "end"),
    *("扣", "整个", "一次", "最后"),
)


@pytest.mark.parametrize("wrong", [2, 3, 999])
def test_header_hop_hints_name_the_mistake_not_the_outcome(wrong, language):
    """A wrong count gets a hint that says nothing of how the answer arrived; 2 (the number of hops) is
    told it counted servers, with a fact the committed matrix shows: lesson_lib's client made several
    reads through the same two hops."""
    from lesson_lib.teach.proxy_matrix import committed_matrix

    result = check("10.header_hop", wrong)
    assert not result.correct
    hint = result.message.replace(question("10.header_hop").prompt, "")
    said = [x for x in _HEADER_HOP_OUTCOME if x.casefold() in hint.casefold()]
    assert not said, (said, hint)
    if wrong == 2:
        assert hint.rstrip().endswith(("?", "？")), hint
        assert ("not the reads" if language == "en" else "不是读取次数") in hint, hint
        assert ("several reads" if language == "en" else "读了好几次") in hint, hint
        (row,) = [
            r for r in committed_matrix()["rows"]
            if (r["kind"], r["setting"], r["upstream"], r["x_accel_buffering"], r["client"])
            == ("nginx", "two_hops_gzip", "whole", "no", "lesson_lib")
        ]
        assert row["reads"] == "several", row


# -- what the digests do, and what they do not -------------------------------------------------------------


def test_the_digests_keep_answers_out_of_sight_not_out_of_reach():
    """As the package docstring says: hashing each question's few candidates recovers its answer, so the
    digests are no secret. Every single-choice and True/False answer falls to a loop over its letters."""
    from lesson_lib.exercises import digest

    _load_all()
    recovered = {}
    for key, q in QUESTIONS.items():
        if q.kind in ("choice", "bool"):
            candidates = list(q.options.letters) if q.kind == "choice" else [True, False]
            found = [c for c in candidates if digest(q.kind, c) == q.answer_digest]
            recovered[key] = found[0] if len(found) == 1 else None
    assert recovered == {k: ANSWERS[k] for k in recovered}


# -- a value with its gloss, a letter with its words, curly quotes, full-width wire text ---------------------

#: A value and its gloss in parentheses (either order, ASCII or full-width parentheses), and a letter followed
#: by a space and its option's words: both parts agree, so the answer is that value (issue 22, a native
#: reader of the Chinese edition). The glossary writes a term with its English value in full-width
#: parentheses ("未完成（incomplete）"); the lessons call incomplete 回答不完整.
GLOSSED = [
    ("04.length", "回答不完整"),
    ("04.length", "未完成（incomplete）"),
    ("04.length", "incomplete（未完成）"),
    ("04.length", "incomplete (回答不完整)"),
    ("04.length", "未完成(incomplete)"),
    ("04.clean_eof", "截断"),
    ("04.clean_eof", "被截断（truncated）"),
    ("04.clean_eof", "truncated (被截断)"),
    ("04.clean_eof", "truncated (Outcome.TRUNCATED)"),
    ("00.held_layer", "B character"),
    ("00.held_layer", "b character"),
    ("00.held_layer", "Ｂ character"),
    ("00.held_layer", "B (character)"),
    ("10.invented", "completed (Outcome.COMPLETED)"),
    ("10.invented", "A) completed (Outcome.COMPLETED)"),
    ("01.bytes", "10 (ten)"),
    ("00.closed_socket", "True (yes)"),
]

#: The same in the Chinese edition, where a Chinese option's words are read.
CHINESE_GLOSSED = [
    ("10.invented", "completed（已完成）"),
    ("10.invented", "已完成（completed）"),
    ("10.invented", "A 已完成"),
    ("00.held_layer", "B 字符"),
    ("00.held_layer", "b 字符"),
    ("00.held_layer", "Ｂ 字符"),
    ("00.held_layer", "B　字符"),  # an ideographic space after the letter
    ("00.held_layer", "字符（character）"),
    ("00.held_layer", "B（字符）"),
    ("08.mcp_eof", "截断"),
    ("00.closed_socket", "对（True）"),
]


@pytest.mark.parametrize(("key", "answer"), GLOSSED)
def test_a_value_with_its_gloss_reads_as_the_value(key, answer, language):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(("key", "answer"), CHINESE_GLOSSED)
def test_a_value_with_its_chinese_gloss_reads_as_the_value(key, answer, zh):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(
    ("key", "answer", "language_code"),
    [
        ("04.length", "未完成（truncated）", "en"),
        ("04.length", "incomplete (completed)", "en"),
        ("04.clean_eof", "truncated（未完成）", "zh-CN"),
        ("01.bytes", "10 (three)", "en"),
        ("00.closed_socket", "True (错)", "zh-CN"),
    ],
)
def test_a_value_and_a_gloss_that_disagree_are_refused_and_told_so(key, answer, language_code):
    before = get_language()
    set_language(language_code)
    try:
        result = check(key, answer)
        said = "two answers that disagree" if language_code == "en" else "两个不一致的答案"
        assert not result.correct and said in result.message, result
    finally:
        set_language(before)


@pytest.mark.parametrize(
    ("key", "answer", "letters"),
    [
        ("00.held_layer", "C character", "B and C"),
        ("00.held_layer", "B (line)", "B and C"),
        ("10.invented", "completed (truncated)", "A and B"),
        ("10.invented", "B completed", "A and B"),
    ],
)
def test_a_letter_or_gloss_that_disagrees_with_the_words_fits_two_options(key, answer, letters):
    result = check(key, answer)
    assert not result.correct and f"fits more than one option ({letters})" in result.message, result


def test_a_chinese_letter_that_disagrees_with_the_words_fits_two_options(zh):
    result = check("00.held_layer", "A 字符")
    assert not result.correct and "同时符合多个选项（A、B）" in result.message, result
    result = check("10.invented", "已完成（被截断）")
    assert not result.correct and "同时符合多个选项（A、B）" in result.message, result
    assert "'已完成（被截断）'" in result.message  # quoted as typed, not in its NFKC form
    result = check("04.length", "未完成（truncated）")
    assert "'未完成（truncated）' 给出了两个不一致的答案" in result.message, result


def test_a_bare_term_read_as_an_outcome_is_in_no_hint_of_a_question_it_answers():
    """截断 inside 截断原因 once was the reason it was not read (see the leak test, which reads every piece
    of every hint): now that it is, no hint of 04.clean_eof or 08.mcp_eof says it."""
    before = get_language()
    set_language("zh-CN")
    try:
        for key in ("04.clean_eof", "08.mcp_eof"):
            assert all("截断" not in text for text in hint_texts(key)), key
    finally:
        set_language(before)


#: One pair of matching quotes around the whole answer is string syntax, whatever the quotes: ASCII, the
#: Chinese curly ones, corner brackets.
_QUOTE_PAIRS = [("“", "”"), ("‘", "’"), ("「", "」"), ("『", "』"), ("＂", "＂"), ("'", "'"), ('"', '"')]


@pytest.mark.parametrize(("opening", "closing"), _QUOTE_PAIRS)
@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("02.pending", "data: 你好"),
        ("00.openai_done", "[DONE]"),
        ("04.anthropic_terminal", "message_stop"),
        ("04.clean_eof", "truncated"),
        ("04.clean_eof", "被截断"),
        ("00.held_layer", "B"),
        ("00.held_layer", "character"),
        ("01.bytes", "10"),
        ("00.closed_socket", "True"),
        ("02.splitlines", "B, C"),
        ("01.corrupting_cuts", "4"),
        ("01.corrupting_cuts", "[4]"),
        ("01.corrupting_cuts", "［４］"),
    ],
)
def test_one_pair_of_quotes_of_any_kind_around_the_answer_is_string_syntax(
    key, answer, opening, closing, language
):
    result = check(key, f"{opening}{answer}{closing}")
    assert result.correct, result


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.openai_done", "“[DONE]」"),  # not a pair
        ("00.openai_done", "”[DONE]“"),  # the wrong way round
        ("02.pending", "“data: 你好"),
        ("04.anthropic_terminal", "「message_stop」\n"),  # the line ending is outside the quotes
    ],
)
def test_quotes_that_are_not_one_pair_around_the_whole_answer_are_text(key, answer, language):
    assert not check(key, answer).correct


@pytest.mark.parametrize(
    ("key", "answer", "shown"),
    [
        ("00.openai_done", "［DONE］", "［ U+FF3B"),
        ("00.openai_done", "“［DONE］”", "［ U+FF3B"),
        ("00.openai_done", "［done］", "［ U+FF3B"),  # the width first: the case is told when it is the rest
        ("02.pending", "ｄａｔａ: 你好", "ｄ U+FF44"),
        ("02.pending", "data： 你好", "： U+FF1A"),  # a Chinese colon
        ("04.anthropic_terminal", "ｍｅｓｓａｇｅ_stop", "ｍ U+FF4D"),
    ],
)
def test_full_width_wire_text_is_other_bytes_and_is_told_so(key, answer, shown, language):
    result = check(key, answer)
    said = "full-width characters" if language == "en" else "全角字符"
    assert not result.correct and said in result.message and shown in result.message, result


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.held_layer", "Ｂ"),
        ("01.bytes", "１０"),
        ("00.closed_socket", "ＴＲＵＥ"),
        ("04.clean_eof", "ｔｒｕｎｃａｔｅｄ"),
        ("09.anthropic_close", "ｃｏｎｔｅｎｔ_block_stop"),
    ],
)
def test_full_width_input_still_reads_in_the_other_kinds(key, answer, language):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(
    ("key", "answer", "ending"),
    [
        ("04.anthropic_terminal", "message_stop\n", r"'\n'"),
        ("00.openai_done", "[DONE]\r\n", r"'\r\n'"),
        ("02.pending", "data: 你好\r", r"'\r'"),
        ("02.pending", "'data: 你好'\n", r"'\n'"),
    ],
)
def test_a_trailing_line_ending_on_wire_text_is_named(key, answer, ending, language):
    result = check(key, answer)
    said = "followed by a line ending" if language == "en" else "末尾多了行结束符"
    assert not result.correct and said in result.message and ending in result.message, result


def test_a_trailing_line_ending_is_not_named_where_it_is_not_the_difference(language):
    near = [("00.openai_done", " [DONE]"), ("00.openai_done", "[DONE] \n"), ("02.pending", "data:  你好")]
    for key, answer in near:
        message = check(key, answer).message
        assert "followed by a line ending" not in message and "末尾多了行结束符" not in message, message


def test_a_word_reads_past_a_trailing_line_ending_and_a_literal_does_not(language):
    """The difference between the two kinds that the instructor guide states: a word is words, a literal
    is bytes."""
    assert check("04.clean_eof", "truncated\n").correct
    assert not check("04.anthropic_terminal", "message_stop\n").correct


@pytest.mark.parametrize("key", [k for k in sorted(ANSWERS) if question(k).kind == "literal"])
def test_every_literal_typed_in_full_width_is_refused_and_told_so(key, language):
    wide = full_width(str(ANSWERS[key]))
    result = check(key, wide)
    said = "full-width characters" if language == "en" else "全角字符"
    assert not result.correct and said in result.message, result
    assert check(key, ANSWERS[key]).correct


def test_another_compatibility_form_on_the_wire_is_named_as_such(language):
    """A character NFKC reads as another that is not full-width (a superscript ᵈ, U+1D48) is named for
    what it is, not called full-width."""
    result = check("02.pending", "ᵈata: 你好")
    said = "compatibility form" if language == "en" else "兼容形式"
    assert not result.correct and said in result.message and "ᵈ U+1D48" in result.message, result
    assert "full-width" not in result.message and "全角" not in result.message


def test_an_article_before_english_words_is_an_article_not_the_letter_a(language):
    """ "a character" is the words of B with an article; only before words that are not English (a 字符) is
    a lone a the letter A, and there it disagrees with the words."""
    assert check("00.held_layer", "a character").correct
    assert check("00.held_layer", "A character").correct
    assert not check("00.held_layer", "a value").correct  # E's words, read as E: a wrong option, not A
    message = check("00.held_layer", "a value").message
    assert "(A" not in message and "（A" not in message, message


@pytest.mark.parametrize("language_code", ["en", "zh-CN"])
def test_requests_crlf_wrong_count_is_told_its_mistake(language_code):
    """06.requests_crlf: 1 (the spec parser's count) is asked whether iter_lines() sees the CR and the LF
    together, as a spec parser does; another count gets the question's hint about where the pieces end."""
    from lesson_lib import set_language

    set_language(language_code)
    try:
        spec_count, other = check("06.requests_crlf", 1), check("06.requests_crlf", 3)
        assert not spec_count.correct and not other.correct
        named = "sees the CR and the LF together" if language_code == "en" else "同时看到了 CR 和 LF"
        assert named in spec_count.message
        assert "CR" in other.message and other.message != spec_count.message
        for message in (spec_count.message, other.message):  # the hints do not give the count away
            assert "2" not in message and "two" not in message.lower() and "两" not in message
    finally:
        set_language("en")
