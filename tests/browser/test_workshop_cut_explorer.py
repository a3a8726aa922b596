"""Lesson 01 as a workshop app: tools/workshop.py serves it with Voila; drag the cut, read it, Ctrl-C."""

from __future__ import annotations

import signal
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .widget_steps import (
    BOUNDARY,
    FIRST_CUT,
    INSIDE,
    drag_cut,
    expect_cut_shown,
    expect_live,
    explorer,
    shoot,
)
from .widget_steps import wait_until_picture_settles as settle

pytestmark = pytest.mark.browser

NOTEBOOK = "01_chunks_are_not_characters.ipynb"


def test_cut_explorer_in_the_voila_workshop(workshop, page, artifacts):
    started = time.monotonic()
    url = workshop.urls[NOTEBOOK]
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1" and parts.port == workshop.port, url
    assert parts.path == f"/voila/render/{NOTEBOOK}" and parts.query.startswith("token="), url
    assert {"00_start_here.ipynb", "tree"} <= set(workshop.urls), workshop.urls

    page.goto(url)
    box = explorer(page, timeout=90_000)  # Voila runs the cells before it shows their outputs
    rendered = time.monotonic()
    # A code-free app: outputs only, no cell sources.
    expect(page.locator(".jp-InputArea-editor, .jp-CodeMirrorEditor, .highlight")).to_have_count(0)
    expect(page.get_by_text("explorer = CutExplorer")).to_have_count(0)
    expect_cut_shown(box, FIRST_CUT)
    expect_live(box)  # Voila runs every cell: live widgets, never the stored-picture notice

    drag_cut(page, box, INSIDE)
    expect_cut_shown(box, INSIDE)
    settle(box)
    shoot(page, box, artifacts / "voila-01-cut-inside-character.png")

    drag_cut(page, box, BOUNDARY)
    expect_cut_shown(box, BOUNDARY)
    settle(box)
    shoot(page, box, artifacts / "voila-01-cut-on-boundary.png")

    # Ctrl-C (SIGINT to the workshop's process group) stops Voila and the lesson's kernel, which is still
    # running: the page stays open, so Voila, not the page's unload, has to shut the kernel down.
    workshop.server.remember_descendants()
    commands = list(workshop.server.commands.values())
    assert any("voila" in command for command in commands), commands
    assert any("ipykernel" in command for command in commands), commands
    workshop.server.signal_group(signal.SIGINT)
    assert workshop.server.process.wait(40) == 0, workshop.server.log()
    assert "stopped" in workshop.server.log()
    assert workshop.server.wait_descendants(10) == [], "left running after Ctrl-C"

    print(f"Voila: rendered {rendered - started:.1f} s, then {time.monotonic() - rendered:.1f} s")
