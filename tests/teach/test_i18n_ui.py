"""Widgets, pictures and describe() in Chinese: real Chinese output, drawn without tofu, and English again
after switching back (every string is looked up when it is shown, never at import)."""

from __future__ import annotations

import logging
import re
import unicodedata
import warnings

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

import lesson_lib
from lesson_lib import Outcome, captures, consume, provisional
from lesson_lib.core.activity import ActivityLog, IdleVerdict
from lesson_lib.teach import viz
from lesson_lib.teach.viz import glyphs
from lesson_lib.teach.viz.outcome_map import legend_text
from lesson_lib.teach.widgets import (
    CompletionExplorer,
    CutExplorer,
    EventExplorer,
    LayerInspector,
    LineExplorer,
    ValueExplorer,
)
from tests.net.test_timeouts import PING, START, FakeClock, TimedSource

STREAM = "data: 你好🙂\r\n\r\nid: 7\ndata: 第二行\n\ndata: x".encode()
TOOLS = next(name for name in captures.names() if captures.load(name).tool_calls)
CJK = re.compile(r"[\u4e00-\u9fff]")
DATA_CJK = "你好第二行挂起"  # the Chinese in the pictures' own data and titles below






def noto_installed() -> bool:
    return glyphs.glyph_font("你") is not None and glyphs.glyph_font("你").startswith("Noto Sans CJK")


# -- pictures --------------------------------------------------------------------------------------------
def _log_and_timed_out():
    clock = FakeClock()
    log = ActivityLog(clock)
    limits = {"idle_timeout": 0.5, "progress_timeout": 0.35, "deadline": None}
    source = TimedSource(clock, [(0.1, piece) for piece in START] + [(0.1, PING)] * 10)
    result = consume(source, "anthropic-messages", activity=log, clock=clock, **limits)
    return log, limits, result


def _outcome_labels() -> list[str]:
    body = captures.load("openai-chat/completed").body
    return [viz.outcome_label(consume([body[:c]] if c else [], "openai-chat")) for c in range(len(body) + 1)]


def _value_tracks():
    from lesson_lib.teach.widgets import value_timeline

    entry = captures.load(TOOLS)
    tracks, _ = value_timeline(entry.body, entry.contract)
    return len(entry.body), tracks


PICTURES = {
    "course map": lambda: viz.draw_boundaries(),
    "byte strip": lambda: viz.draw_byte_strip("café 你好🙂", [4, 9], corrupting=[4, 7]),
    "byte strip, no cut": lambda: viz.draw_byte_strip("ab"),
    "layers": lambda: viz.draw_layers(viz.sse_layer_rows(STREAM, [3, 9, 15]), step=2),
    "lines": lambda: viz.draw_layers(viz.line_layer_rows("a\rb\r\nc", [2]), step=1),
    "outcome map": lambda: viz.draw_outcome_map(_outcome_labels(), 100, title="openai-chat/completed"),
    "clock timeline": lambda: (
        lambda log, limits, result: viz.draw_clock_timeline(
            log.marks, limits, result.error.kind, title="挂起"
        )
    )(*_log_and_timed_out()),
    "value timeline": lambda: viz.draw_value_timeline(*_value_tracks(), 500, title=TOOLS),
}


def _render(make) -> tuple[bytes, Figure, list[str], list[str]]:
    """The PNG, the figure, matplotlib's missing-glyph warnings and its font log messages."""
    logger = logging.getLogger("matplotlib")
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig = make()
            png = viz.figure_png(fig)
    finally:
        logger.removeHandler(handler)
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    fonts = [r.getMessage() for r in records if "font" in r.getMessage().lower()]
    return png, fig, missing, fonts


def _texts(fig: Figure) -> list[Text]:
    return [t for t in fig.findobj(Text) if t.get_text()]


def _uncovered(fig: Figure) -> list[str]:
    """Characters of drawn texts that none of their text's font families covers: a tofu box each."""
    bad = []
    for artist in _texts(fig):
        families = artist.get_fontfamily()
        families = [families] if isinstance(families, str) else list(families)
        maps = [glyphs._family_charmap(f) for f in families]
        for ch in artist.get_text():
            if ch in "\n " or unicodedata.category(ch) == "Cc":
                continue
            if not any(ord(ch) in m for m in maps):
                bad.append(f"{ch!r} in {artist.get_text()!r} ({families})")
    return bad


@pytest.mark.parametrize("name", list(PICTURES))
def test_every_picture_draws_chinese_with_a_cjk_font_and_no_missing_glyph(name, chinese):
    png, fig, missing, fonts = _render(PICTURES[name])
    assert missing == [] and fonts == []
    chinese_texts = [t for t in _texts(fig) if CJK.search(t.get_text())]
    assert chinese_texts, f"{name}: no Chinese label drawn"
    if noto_installed():
        assert _uncovered(fig) == []
        for artist in chinese_texts:
            assert any(f.startswith("Noto Sans CJK") for f in artist.get_fontfamily()), artist.get_text()
    lesson_lib.set_language("en")
    english_png, english_fig, missing, fonts = _render(PICTURES[name])
    assert missing == [] and fonts == []
    drawn = "".join(t.get_text() for t in _texts(english_fig))
    assert set(CJK.findall(drawn)) <= set(DATA_CJK)  # in English only the data itself is Chinese
    assert png != english_png


@pytest.mark.parametrize("name", list(PICTURES))
def test_without_a_cjk_font_chinese_labels_become_code_points_not_tofu(name, chinese, dejavu_only):
    _, fig, missing, fonts = _render(PICTURES[name])
    assert missing == [] and fonts == []
    assert _uncovered(fig) == []
    assert any("<U+" in t.get_text() for t in _texts(fig))


def test_the_chinese_labels_say_what_the_english_ones_say(chinese):
    texts = {t.get_text() for t in _texts(viz.draw_boundaries())}
    names = {"分块（chunk）", "字符", "行", "事件", "值", "业务完成"}
    assert names | {"到达的内容", "跨读取保留的状态"} <= texts
    strip = {t.get_text() for t in _texts(viz.draw_byte_strip("café", [4], corrupting=[4]))}
    assert "5 字节 · 在偏移 4 处切开 -> 2 次读取（灰条）；其中 1 个切点落在字符内部" in strip
    assert any("▲ 1 处只切一刀就会破坏逐块解码" in t for t in strip)
    layers = {t.get_text() for t in _texts(viz.draw_layers(viz.sse_layer_rows(STREAM, [3])))}
    assert {"读取（字节）", "暂存的字节", "未完成的行", "目前的事件", "已派发"} <= layers
    assert (
        legend_text("truncated at line", 1, 2) == "truncated（断在行中间）：1 个截断点，分布在 2 个区间"
    )
    assert viz.outcome_text("completed, end not verifiable") == "completed（结尾无法验证）"
    assert viz.outcome_text("my own label") == "my own label"  # a caller's own label is shown as it is
    log, limits, result = _log_and_timed_out()
    timeline = {t.get_text() for t in _texts(viz.draw_clock_timeline(log.marks, limits, result.error.kind))}
    assert {
        "字节",
        "事件（含心跳）",
        "业务进展",
        "响应体开始到达后的秒数",
        " progress_timeout=0.35 s 已到期",
    } <= timeline


def test_the_outcome_map_keeps_every_chinese_text_inside_the_picture(chinese):
    labels = _outcome_labels()
    picture = viz.OutcomeMapPicture(labels, "openai-chat/completed：响应体在每个字节之后停止时的判定结果")
    width, height = picture.layout.size_px
    for cutoff in (0, len(labels) // 2, len(labels) - 1):
        fig = picture.figure(cutoff)
        renderer = FigureCanvasAgg(fig).get_renderer()
        for text in _texts(fig):
            box = text.get_window_extent(renderer)
            assert box.x0 >= -0.5 and box.x1 <= width + 0.5, text.get_text()
            assert box.y0 >= -0.5 and box.y1 <= height + 0.5, text.get_text()


# -- widgets ---------------------------------------------------------------------------------------------
def test_cut_explorer_speaks_chinese_in_its_repr_labels_and_html(chinese):
    explorer = CutExplorer("你好🙂", cuts=[4])
    expected = (
        "CutExplorer: '你好🙂'（10 字节），在偏移 4 处切开 -> 逐块 replace 解码 '你\\ufffd\\ufffd\\ufffd🙂'"
        "（3 个 U+FFFD，第一处差异在字符下标 1 处）；增量解码 '你好🙂'"
    )
    assert repr(explorer) == expected
    assert explorer._repr_mimebundle_()["text/plain"] == expected  # what a static reader sees
    assert "把字节切成多次读取" in explorer.title.value
    assert explorer.sweep_button.description == "逐一尝试每个切分"
    assert explorer.controls.add_button.description == "添加切分"
    assert "第一处差异在字符下标 1 处（已标出）" in explorer.comparison.value
    assert "代码：<code>cuts=[4]</code>" in explorer.comparison.value
    explorer.sweep()
    assert explorer.sweep_result.value.startswith(
        "在 9 个切点位置中，只切一刀就会破坏逐块解码的有 7 个（图中的 ▲）：1, 2, 4, 5, 7, 8, 9"
    )
    assert repr(explorer).endswith("；有 7 个切点位置只切一刀就会破坏 replace 解码")


def test_a_repr_follows_the_language_of_the_moment_it_is_shown(chinese):
    explorer = CutExplorer("你好🙂", cuts=[4])
    assert repr(explorer).startswith("CutExplorer: '你好🙂'（10 字节）")
    lesson_lib.set_language("en")
    assert repr(explorer).startswith("CutExplorer: '你好🙂' (10 bytes) cut at 4 -> replace decode")


def test_the_reads_explorers_speak_chinese(chinese):
    inspector = LayerInspector(STREAM, cuts=[3, 9, 15], step=2)
    assert repr(inspector) == (
        "LayerInspector: 50 字节，在偏移 3,9,15 处切开 -> 4 次读取，派发了 2 个事件；"
        "第 2 次读取后（共 4 次）："
        "暂存字节 无，未完成的行 'data: 你'，目前的事件 —，本次读取派发 —"
    )
    assert "逐次读取，看每一层" in inspector.title.value
    assert "<th" in inspector.table.value and "暂存的字节" in inspector.table.value
    assert "然后 close()：流在一行的中间结束；尚未完成的部分被丢弃" in inspector.table.value
    assert inspector.step_slider.description == "已读取次数"
    events = EventExplorer("data: 你好\n\nid: 9\ndata: x\n\n")
    assert repr(events) == (
        "EventExplorer: 29 字节，在偏移 13,14,20,28 处切开 -> 5 次读取，派发了 2 个事件；"
        "第 5 次读取后（共 5 次）：目前的事件 —，本次读取派发 message: 'x'，最后事件 ID 为 '9'"
    )
    assert "空行触发派发" in events.title.value
    lines = LineExplorer("a\rb\r\nc", cuts=[2])
    assert repr(lines) == (
        "LineExplorer: 'a\\rb\\r\\nc'（6 字节），在偏移 2 处切开 -> 2 次读取，2 行；"
        "第 2 次读取后（共 2 次）："
        "未完成的行 'c'，after_cr 否，已完成的行 'b'"
    )
    broken = LayerInspector(b"data: \xff\n\n", cuts=[3])
    assert "，错误：" in repr(broken)  # the message itself is the parser's (English, as exceptions are)


def test_completion_explorer_speaks_chinese(chinese):
    explorer = CompletionExplorer("openai-chat/completed", cutoff=100, map_outcomes=True)
    text = repr(explorer)
    assert text.startswith(
        "CompletionExplorer: openai-chat/completed（openai-chat，5032 字节）只取前 100 字节"
    )
    assert "所有截断点上：truncated（断在业务完成之前）：18 个" in text
    assert explorer.map_button.description == "画出所有截断点的结果"
    assert explorer.range_picker.options[1][0] == "区间 2/95：截断点 1-320，truncated（断在行中间）"
    assert "这条 openai-chat 流被截断了：断在一行的中间" in explorer.summary.value
    assert "目前的文本：" in explorer.summary.value


def test_the_hidden_end_note_is_chinese(chinese):
    explorer = CompletionExplorer("gemini/completed_stop_every_chunk", cutoff=1369)
    assert "但它的结尾无法验证：同样的信号在更早的某个事件里就已出现过" in explorer.summary.value
    explorer.cutoff = 671  # the first chunk, whole: the bytes of a one-chunk answer
    note = "但这份抓包样本后面还有 4095 字节（文本还多 42 个字符）：consume 只看到这些字节，"
    assert note in repr(explorer)
    assert note in explorer.summary.value and "一模一样。</div>" in explorer.summary.value


def test_value_explorer_speaks_chinese(chinese):
    explorer = ValueExplorer(TOOLS)
    explorer.cutoff = len(explorer.body) // 2
    text = repr(explorer)
    assert "未关闭：服务端还没有关闭它，还没有值" in text
    assert "暂定解析（仅供显示，基于前 " in text
    assert "逐片段 json.loads：" in text and "个失败" in text
    assert explorer.call_picker.options[0][0].startswith("调用 0：")
    assert "对每个片段单独调用 json.loads" in explorer.naive.value and "失败：" in explorer.naive.value
    assert "推理内容" in explorer.beside.value and "回答文本" in explorer.beside.value


# -- describe() and the small reprs ----------------------------------------------------------------------
def _results() -> list:
    """One result of every outcome (and every place a stream can be truncated)."""
    body = captures.load("openai-chat/completed").body
    clock = FakeClock()
    slow = TimedSource(clock, [(0.1, piece) for piece in START] + [(0.1, PING)] * 10)
    results = [consume([body[:c]] if c else [], "openai-chat") for c in range(len(body) + 1)]
    results += [
        consume([captures.load(name).body], captures.load(name).contract) for name in captures.names()
    ]
    results += [
        consume(slow, "anthropic-messages", clock=clock, progress_timeout=0.35),
        consume([body], "openai-chat", max_line_chars=40),
        consume([body], "openai-chat", cancel=lambda: True),
        consume([b"data: \xff\n\n"], "openai-chat"),
    ]

    def failing():
        yield body[:300]
        clock.now += 5
        raise TimeoutError("read timed out")

    clock.now = 0.0
    results.append(consume(failing(), "openai-chat", clock=clock, idle_timeout=1.0))

    def reset():
        yield body[:300]
        raise ConnectionResetError("peer reset")

    results.append(consume(reset(), "openai-chat"))
    return results


def _allowed_words(result) -> set[str]:
    """The identifiers and data a Chinese describe() may show as they are (code, wire values, messages)."""
    words = {result.contract, str(result.finish_reason), "UTF-8", "finish_reason", "JSON", "MCP", "GET"}
    words |= {"Last-Event-ID", result.last_event_id, "unknown"}
    if result.error is not None:
        words |= {
            result.error.kind,
            str(result.error.limit),
            str(result.error.error_type),
            str(result.error.cause),
        }
        words |= set(re.findall(r"[A-Za-z][A-Za-z_\-]+", result.error.message))
    return {w for word in words for w in re.findall(r"[A-Za-z][A-Za-z_\-0-9]+", word)}


def test_describe_speaks_chinese_for_every_outcome(chinese):
    results = _results()
    seen = set()
    for result in results:
        text = result.describe()
        seen.add(str(result.outcome))
        assert CJK.search(text), text
        english = set(re.findall(r"[A-Za-z][A-Za-z_\-0-9]+", text)) - _allowed_words(result)
        assert english == set(), f"{result.outcome}: English left in {text!r}"
        assert text.endswith("。"), text
    assert seen == {str(outcome) for outcome in Outcome}


def test_describe_in_chinese_names_the_clock_its_limit_and_the_read_that_ended(chinese):
    body = captures.load("openai-chat/completed").body
    clock = FakeClock()

    def failing():
        yield body[:300]
        clock.now += 5
        raise TimeoutError("read timed out")

    result = consume(failing(), "openai-chat", clock=clock, idle_timeout=1.0)
    assert result.outcome is Outcome.TIMED_OUT
    assert result.describe().startswith(
        "这条 openai-chat 流超时：idle_timeout=1 s 已到期：这么长时间里一个字节也没有收到"
        "（这次读取因 TimeoutError 而结束）"
    )
    # the error's message stays English, as an exception's does, in every language
    assert result.error.message == (
        "idle_timeout=1 s ran out: no byte arrived for that long (the read was ended by TimeoutError)"
    )
    lesson_lib.set_language("en")
    assert result.describe().startswith(f"The openai-chat stream timed out: {result.error.message}")


def test_describe_of_a_completed_stream_in_chinese(chinese):
    entry = captures.load("openai-chat/completed")
    text = consume([entry.body], entry.contract).describe()
    assert text == (
        '这条 openai-chat 流已完成：服务端的终止信号已经到达（已收到 finish_reason "stop"），'
        "响应体也正常结束了，所以文本是最终结果。共 5032 字节，分 1 次读取到达，携带 18 个事件"
        "（15 个文本增量、0 个心跳、0 个未知事件），文本共 58 个字符。"
    )


def test_the_small_reprs_speak_chinese(chinese):
    assert repr(provisional('{"city": "北')) == '暂定解析（仅供显示，基于前 11 个字符）：{"city": "北"}'
    assert repr(provisional("")) == "暂定解析（仅供显示，基于前 0 个字符）：暂无"
    assert str(IdleVerdict("progress_idle", 139, 120.0)) == "progress_idle：已空闲 139 s，上限 120 s"
    entry = captures.load("openai-chat/completed")
    assert (
        repr(entry)
        == f"Capture('openai-chat/completed': {len(entry.body)} 字节, openai-chat, 预期 completed)"
    )


def test_english_is_the_default_and_unchanged():
    assert lesson_lib.get_language() == "en"
    assert repr(provisional("")) == "provisional (display only, after 0 chars): nothing yet"
    assert str(IdleVerdict("progress_idle", 139, 120.0)) == "progress_idle: idle for 139 s, limit 120 s"
    explorer = CutExplorer("你好🙂", cuts=[4])
    assert repr(explorer) == (
        "CutExplorer: '你好🙂' (10 bytes) cut at 4 -> replace decode '你\\ufffd\\ufffd\\ufffd🙂' "
        "(3 x U+FFFD, first difference at character 1); incremental decode '你好🙂'"
    )


def test_the_server_and_reads_reprs_speak_chinese(chinese):
    from lesson_lib.net.http import open_reads
    from lesson_lib.net.relay import RelayServer
    from lesson_lib.net.replay import ReplayServer

    body = captures.load("openai-chat/completed").body
    server = ReplayServer(body, [100])
    assert repr(server) == f"ReplayServer({len(body)} 字节, 分 2 段, 未启动)"
    with server:
        assert repr(server) == f"ReplayServer({len(body)} 字节, 分 2 段, 运行中)"
        reads = open_reads(server.url)
        assert repr(reads) == "HTTPReads(200, 目前 0 次读取, 未关闭)"
        reads.close()
        assert repr(reads).endswith(", 已关闭)")
        relay = RelayServer(server.url, "openai-chat")
        assert repr(relay) == "RelayServer(openai-chat, variant='correct', 未启动)"
    assert repr(server) == f"ReplayServer({len(body)} 字节, 分 2 段, 已停止)"
    lesson_lib.set_language("en")
    assert repr(server) == f"ReplayServer({len(body)} bytes in 2 pieces, stopped)"
