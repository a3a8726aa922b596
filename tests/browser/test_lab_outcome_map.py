"""The CompletionExplorer's outcome map in real JupyterLab: nothing clipped, every range reachable by mouse.

A notebook holding the explorer (as lesson 04 does, on the Gemini capture whose short "completed" ranges
were sub-pixel slivers) is run; then, with the mouse only: "map every cut-off" is clicked, the map must
appear inside the widget, every button must show its whole label inside the widget's box, and "next
range" and the range list must move the cut-off to the range they name.
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from playwright.sync_api import Locator, expect

pytestmark = pytest.mark.browser

NOTEBOOK = "outcome_map_check.ipynb"
CAPTURE = "gemini/completed_stop_every_chunk"
PANEL = "window.jupyterapp.shell.currentWidget"
OPENED = f"""() => {{
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!panel || !panel.sessionContext || !panel.context.path.endsWith({json.dumps(NOTEBOOK)})) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === 'connected'
        && panel.sessionContext.kernelDisplayStatus === 'idle';
}}"""
RAN = f"""() => {PANEL}.sessionContext.kernelDisplayStatus === 'idle'
    && {PANEL}.content.widgets.filter(c => c.model.type === 'code')
        .every(c => c.model.executionCount !== null)"""
EXPLORER = ".widget-vbox:has(> .widget-dropdown):has(> .widget-button)"
OPTION = re.compile(r"^(\d+) of (\d+): cut-offs? (\d+)(?:-(\d+))?: (.+)$")


def inside(inner: Locator, outer: Locator) -> None:
    """``inner`` is laid out within ``outer``'s box, and shows its whole text (nothing cut with "...")."""
    a, b = inner.bounding_box(), outer.bounding_box()
    assert a and b, "not laid out"
    assert a["x"] >= b["x"] - 0.5 and a["x"] + a["width"] <= b["x"] + b["width"] + 0.5, (a, b)
    assert a["y"] >= b["y"] - 0.5 and a["y"] + a["height"] <= b["y"] + b["height"] + 0.5, (a, b)
    clipped = inner.evaluate("e => e.scrollWidth > e.clientWidth + 1")
    assert not clipped, f"{inner.inner_text()!r} is cut off"


def test_outcome_map_in_jupyterlab(jupyter_lab, page, artifacts):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("from lesson_lib.teach.widgets import CompletionExplorer"),
        nbformat.v4.new_code_cell(f"CompletionExplorer({CAPTURE!r}, cutoff=0)"),
    ]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, jupyter_lab.root / "notebooks" / NOTEBOOK)

    page.goto(jupyter_lab.url(NOTEBOOK))
    page.wait_for_function(OPENED, timeout=90_000, polling=250)
    page.evaluate("() => window.jupyterapp.commands.execute('runmenu:run-all')")
    page.wait_for_function(RAN, timeout=90_000, polling=250)

    box = page.locator(EXPLORER)
    expect(box).to_have_count(1, timeout=60_000)
    box.scroll_into_view_if_needed()
    readout = box.locator(".widget-slider .widget-readout").first
    expect(readout).to_have_text("0")
    map_button = box.locator(":scope > .widget-button", has_text="map every cut-off")
    inside(map_button, box)

    map_button.click()
    picture = box.locator("img.widget-image")
    expect(picture).to_be_visible(timeout=30_000)
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=picture.element_handle(), timeout=30_000
    )
    inside(picture, box)
    # the picture is not scaled down so far that its 6 px ranges vanish
    assert picture.evaluate("img => img.getBoundingClientRect().width / img.naturalWidth") > 0.9

    controls = box.locator(".widget-hbox", has=page.locator("button", has_text="next range"))
    expect(controls).to_be_visible()
    previous_button = controls.locator("button", has_text="previous range")
    next_button = controls.locator("button", has_text="next range")
    select = controls.locator("select")
    for element in (previous_button, next_button, select):
        inside(element, box)
    # (the dropdown shows its options with no-break spaces)
    options = [OPTION.match(t.replace("\xa0", " ")) for t in select.locator("option").all_inner_texts()]
    assert options and all(options), select.locator("option").all_inner_texts()
    total = int(options[0].group(2))
    assert len(options) == total and any(o.group(4) is None for o in options)  # one-cut-off ranges too
    starts = [int(o.group(3)) for o in options]

    # with the mouse: "next range" steps range by range, the slider and the list follow
    for number in range(1, min(total, 8)):
        next_button.click()
        expect(readout).to_have_text(str(starts[number]), timeout=10_000)
        expect(select).to_have_js_property("selectedIndex", number, timeout=10_000)
    previous_button.click()
    expect(readout).to_have_text(str(starts[min(total, 8) - 2]), timeout=10_000)
    # the range list: choose the last range (a "completed" one here) and the summary says so
    select.select_option(index=total - 1)
    expect(readout).to_have_text(str(starts[-1]), timeout=10_000)
    last_label = options[-1].group(5)
    expect(box).to_contain_text(f"outcome {last_label.split(',')[0].split(' at ')[0]}", timeout=10_000)
    if last_label.endswith("end not verifiable"):  # the map's label and the summary say the same
        expect(box).to_contain_text("end_verified False", timeout=10_000)
    expect(next_button).to_be_disabled()
    box.screenshot(path=str(artifacts / "lab-outcome-map.png"), animations="disabled")
