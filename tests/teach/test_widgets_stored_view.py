"""How an explorer reads when it is restored from a notebook's stored state, without a kernel behind it.

ipywidgets marks every view that has no live comm with the class ``jupyter-widgets-disconnected`` and a red
broken-link icon (its ``::before``): a stored CutExplorer showed sixteen. Every explorer carries, as its
first child, one notice in the learner's language and the style rules that replace those icons with it
while the view is not live. What the browser then shows is checked in Chromium by
tests/browser/test_lab_widgets_on_open.py (on open: no mark, the notice, inert controls) and by the lab and
workshop CutExplorer tests (live: neither mark nor notice); here, the structure those rely on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import ipywidgets as W
import pytest

import lesson_lib
from lesson_lib import captures
from lesson_lib.i18n import catalogue
from lesson_lib.teach.widgets import (
    CompletionExplorer,
    CutExplorer,
    EventExplorer,
    LayerInspector,
    LineExplorer,
    ValueExplorer,
)

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
STREAM = "data: 你好🙂\r\n\r\ndata: café\n\n"
EXPLORER, NOTICE = "bl-explorer", "bl-stored-notice"


def explorers() -> dict[str, W.VBox]:
    manifest = json.loads((DATA_DIR / "manifest.json").read_text(encoding="utf-8"))
    completed = next(e for e in manifest["captures"] if e["outcome"] == "completed")
    tools = next(name for name in captures.names() if captures.load(name).tool_calls)
    return {
        "CutExplorer": CutExplorer("café 你好🙂", cuts=[4]),
        "LineExplorer": LineExplorer(STREAM, cuts=[9]),
        "EventExplorer": EventExplorer(STREAM, cuts=[9]),
        "LayerInspector": LayerInspector(STREAM, cuts=[9]),
        "CompletionExplorer": CompletionExplorer(completed["file"]),
        "ValueExplorer": ValueExplorer(tools),
    }


def rules(notice: W.HTML) -> list[tuple[str, str]]:
    """``(selector, declarations)`` of every rule in the notice's style element."""
    style = re.fullmatch(r"<style>(.*?)</style>.*", notice.value, re.DOTALL)
    assert style, "the notice starts with its style element"
    return re.findall(r"([^{}]+)\{([^{}]*)\}", style.group(1))


def selectors(selector_list: str) -> list[str]:
    """The selectors of a rule's selector list (commas inside ``:is(...)`` do not separate)."""
    return [s.strip() for s in re.split(r",(?![^()]*\))", selector_list)]


def shown_text(notice: W.HTML) -> str:
    return re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", notice.value, flags=re.DOTALL))


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_every_explorer_carries_the_stored_view_notice_in_the_learners_language(language):
    lesson_lib.set_language(language)
    try:
        built = explorers()
    finally:
        lesson_lib.set_language("en")
    expected = re.sub(r"<[^>]+>", "", catalogue(language)["widgets.stored_view.notice"])
    for name, explorer in built.items():
        assert EXPLORER in explorer._dom_classes, name
        first = explorer.children[0]
        assert isinstance(first, W.HTML) and NOTICE in first._dom_classes, name
        assert shown_text(first) == expected, name
        # Only the first child is the notice: the explorer's own children follow, unchanged.
        assert not any(NOTICE in child._dom_classes for child in explorer.children[1:]), name


def test_the_notice_text_says_the_controls_come_alive_when_the_cell_runs_in_both_languages():
    english = catalogue("en")["widgets.stored_view.notice"]
    chinese = catalogue("zh-CN")["widgets.stored_view.notice"]
    assert "this cell has run" in english and "cells above" in english
    assert "运行本单元格" in chinese and "上面的单元格" in chinese


def test_the_rules_hide_only_the_marks_of_explorers_and_show_the_notice_only_while_not_live():
    found = rules(CutExplorer("你好", cuts=[1]).children[0])
    every = [s for selector_list, _ in found for s in selectors(selector_list)]
    # Scoped: every selector starts at an explorer or at its notice, so nothing else on the page changes.
    assert all(s.startswith((f".{EXPLORER}", f".{NOTICE}")) for s in every), every
    declarations = {s: body for selector_list, body in found for s in selectors(selector_list)}
    # The red icon is drawn neither on the explorer's own view nor on any view inside it.
    for selector in (f".{EXPLORER}.jupyter-widgets-disconnected::before",
                     f".{EXPLORER} .jupyter-widgets-disconnected::before"):
        assert "display:none" in declarations[selector], selector
    # The notice is hidden exactly while the explorer is live (no disconnected class on it).
    assert "display:none" in declarations[f".{EXPLORER}:not(.jupyter-widgets-disconnected)>.{NOTICE}"]
    # While it is not live, everything but the notice takes no input: a picture.
    assert "pointer-events:none" in declarations[
        f".{EXPLORER}.jupyter-widgets-disconnected>:not(.{NOTICE})"
    ]
