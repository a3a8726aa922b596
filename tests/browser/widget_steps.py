"""What both browser tests do with lesson 01's CutExplorer: find it, drag its cut, read what it shows.

The expected texts are computed here with plain ``bytes.decode``, not with lesson_lib, so the browser's
page is checked against an independent oracle.
"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

TEXT = "café 你好🙂"  # the explorer in lesson 01: CutExplorer("café 你好🙂", cuts=[4])
DATA = TEXT.encode("utf-8")  # c a f é(3-4) SP 你(6-8) 好(9-11) 🙂(12-15): 16 bytes
FIRST_CUT = 4  # inside é
INSIDE = 7  # one byte into 你: the per-read decode breaks 你
BOUNDARY = 9  # between 你 and 好: both decodes agree

# The explorer: the widget box with the byte-strip picture as a direct child.
EXPLORER = ".widget-vbox:has(> .widget-image):has(.widget-slider)"


def per_read_decode(cut: int) -> str:
    return DATA[:cut].decode("utf-8", "replace") + DATA[cut:].decode("utf-8", "replace")


def first_difference(a: str, b: str) -> int | None:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def explorer(page: Page, timeout: float = 60_000) -> Locator:
    box = page.locator(EXPLORER)
    expect(box).to_have_count(1, timeout=timeout)
    box.scroll_into_view_if_needed()
    expect(box.locator(".widget-slider .noUi-handle")).to_be_visible()
    return box


# The red broken-link marks ipywidgets draws (``.jupyter-widgets-disconnected::before``) that are on screen
# inside ``root``: elements laid out whose ::before has content and is displayed.
VISIBLE_MARKS = """(root) => Array.from(root.querySelectorAll('.jupyter-widgets-disconnected'))
    .filter(e => e.getClientRects().length > 0).filter(e => {
        const before = getComputedStyle(e, '::before');
        return before.display !== 'none' && before.content !== 'none' && before.content !== 'normal';
    }).length"""
# The texts of the "stored picture" notices laid out inside ``root`` (an explorer shows one while it is not
# live: restored from the notebook's stored state, or after its kernel went away).
VISIBLE_NOTICES = """(root) => Array.from(root.querySelectorAll('.bl-stored-notice'))
    .filter(e => e.getClientRects().length > 0).map(e => e.innerText.trim())"""


# The explorer's one notice element and whether its words are on screen (``innerText`` leaves out what is
# not rendered); null when the explorer has no notice element with its class, or more than one.
NOTICE_SHOWN = """(box) => {
    const notices = box.querySelectorAll('.bl-stored-notice');
    if (notices.length !== 1) return null;
    const words = notices[0].querySelector('.bl-stored-text');
    if (!words) return null;
    return box.innerText.includes(words.textContent.trim().slice(0, 16));
}"""


def expect_live(box: Locator) -> None:
    """A live explorer (its cell has run): no disconnected mark; its "stored picture" notice is there (the
    element, with its class) but not shown."""
    assert box.evaluate(VISIBLE_MARKS) == 0, "a live explorer shows disconnected marks"
    assert box.evaluate(VISIBLE_NOTICES) == [], "a live explorer still shows the stored-picture notice"
    shown = box.evaluate(NOTICE_SHOWN)
    assert shown is not None, "the live explorer has no notice element with the class bl-stored-notice"
    assert shown is False, "a live explorer shows the words of the stored-picture notice"


def comparison_cells(box: Locator) -> tuple[Locator, Locator, Locator, Locator]:
    """(per-read text, incremental text, per-read U+FFFD count, incremental U+FFFD count)."""
    rows = box.locator("table tr")
    texts, counts = rows.nth(1).locator("td"), rows.nth(2).locator("td")
    return texts.nth(0), texts.nth(1), counts.nth(0), counts.nth(1)


def drag_cut(page: Page, box: Locator, value: int, attempts: int = 2) -> None:
    """Drag the cut's slider handle with the mouse to ``value`` (no keyboard, no model writes).

    The handle is grabbed at its centre and released over the track position of ``value``; the slider
    snaps to whole bytes. Should the page move under the mouse (a late layout change), the handle is
    dragged again from where it landed, once.
    """
    handle = box.locator(".widget-slider .noUi-handle").first
    track = box.locator(".widget-slider .noUi-base").first
    readout = box.locator(".widget-slider .widget-readout").first
    for attempt in range(attempts):
        handle.scroll_into_view_if_needed()
        low = float(handle.get_attribute("aria-valuemin") or 0)
        high = float(handle.get_attribute("aria-valuemax") or 0)
        assert high > low, f"slider range {low}..{high}"
        handle_box, track_box = handle.bounding_box(), track.bounding_box()
        assert handle_box and track_box, "the slider is not laid out"
        start_x = handle_box["x"] + handle_box["width"] / 2
        y = handle_box["y"] + handle_box["height"] / 2
        target_x = track_box["x"] + (value - low) / (high - low) * track_box["width"]
        page.mouse.move(start_x, y)
        page.mouse.down()
        page.mouse.move(target_x, y, steps=15)
        page.mouse.up()
        try:
            expect(readout).to_have_text(str(value), timeout=5_000)
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def expect_cut_shown(box: Locator, cut: int, timeout: float = 30_000) -> None:
    """The page shows what a cut at ``cut`` gives: both decodes, their U+FFFD counts, the verdict."""
    naive, incremental = per_read_decode(cut), TEXT
    naive_cell, incremental_cell, naive_count, incremental_count = comparison_cells(box)
    expect(box.locator("code").last).to_have_text(f"cuts=[{cut}]", timeout=timeout)
    expect(naive_cell).to_have_text(naive, timeout=timeout)
    expect(incremental_cell).to_have_text(incremental, timeout=timeout)
    expect(naive_count).to_have_text(f"{naive.count(chr(0xFFFD))} × U+FFFD", timeout=timeout)
    expect(incremental_count).to_have_text("0 × U+FFFD", timeout=timeout)
    difference = first_difference(naive, incremental)
    verdict = (
        "identical: no cut falls inside a character"
        if difference is None
        else f"first difference at character {difference} (marked)"
    )
    expect(box).to_contain_text(verdict, timeout=timeout)
    if difference is not None:
        expect(naive_cell.locator("mark")).to_have_text(naive[difference], timeout=timeout)
        expect(incremental_cell.locator("mark")).to_have_text(incremental[difference], timeout=timeout)


def wait_until_picture_settles(box: Locator, quiet: float = 0.6, timeout: float = 20.0) -> str:
    """Wait until the figure's image has not changed for ``quiet`` seconds and has loaded; return its src."""
    image = box.locator("img.widget-image").first
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while True:
        src = image.get_attribute("src")
        loaded = image.evaluate("img => img.complete && img.naturalWidth > 0")
        now = time.monotonic()
        if src != last or not loaded:
            last, since = src, now
        elif now - since >= quiet:
            return src or ""
        if now > deadline:
            raise TimeoutError(f"the explorer's picture kept changing for {timeout:.0f} s")
        time.sleep(0.1)


def shoot(page: Page, box: Locator, path: Path) -> None:
    """Two screenshots: the explorer alone (``path``) and the browser window around it (``*-page.png``)."""
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(path), animations="disabled")
    page.screenshot(path=str(path.with_name(path.stem + "-page.png")), animations="disabled")
