"""Lesson 01 in real JupyterLab: run every cell, drag the CutExplorer's cut with the mouse, read the page."""

from __future__ import annotations

import json
import time

import pytest

from .servers import wait_for
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

# The notebook panel JupyterLab shows, through window.jupyterapp (--LabApp.expose_app_in_browser).
PANEL = "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget; " \
        "return w && w.sessionContext ? w : null; }"
KERNEL_READY = f"""() => {{
    const panel = ({PANEL})();
    const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === 'connected'
        && panel.sessionContext.kernelDisplayStatus === 'idle'
        && panel.context.path.endsWith({json.dumps(NOTEBOOK)});
}}"""
EXECUTION_COUNTS = f"""() => ({PANEL})().content.widgets
    .filter(cell => cell.model.type === 'code').map(cell => cell.model.executionCount)"""
IDLE = f"() => ({PANEL})().sessionContext.kernelDisplayStatus === 'idle'"


def test_cut_explorer_in_jupyterlab(jupyter_lab, page, artifacts):
    started = time.monotonic()
    page.goto(jupyter_lab.url(NOTEBOOK))
    page.wait_for_function(KERNEL_READY, timeout=90_000, polling=250)

    def one_idle_kernel():
        kernels = json.loads(jupyter_lab.api("/api/kernels")[1])
        assert len(kernels) <= 1, kernels
        return len(kernels) == 1 and kernels[0]["execution_state"] == "idle"

    wait_for(one_idle_kernel, timeout=30, what="the notebook's kernel to be idle in /api/kernels")

    # A fresh start: no stored outputs (so the explorer found later is the live one), then Run All.
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.wait_for_function(f"() => ({EXECUTION_COUNTS})().every(count => count === null)", timeout=10_000)
    page.evaluate("() => window.jupyterapp.commands.execute('runmenu:run-all')")
    page.wait_for_function(
        f"() => ({IDLE})() && ({EXECUTION_COUNTS})().every(count => count !== null)",
        timeout=90_000,
        polling=250,
    )
    counts = page.evaluate(EXECUTION_COUNTS)
    assert counts == list(range(1, len(counts) + 1)), f"not every cell ran in order: {counts}"
    ran = time.monotonic()

    box = explorer(page)
    expect_cut_shown(box, FIRST_CUT)
    expect_live(box)  # the cell ran: the explorer is live, not the stored picture

    # Drag the cut one byte into 你: the per-read decode now breaks 你 instead of é.
    drag_cut(page, box, INSIDE)
    expect_cut_shown(box, INSIDE)
    settle(box)
    shoot(page, box, artifacts / "lab-01-cut-inside-character.png")

    # Drag it on to the boundary between 你 and 好: the two decodes agree, no U+FFFD anywhere.
    drag_cut(page, box, BOUNDARY)
    expect_cut_shown(box, BOUNDARY)
    settle(box)
    shoot(page, box, artifacts / "lab-01-cut-on-boundary.png")

    print(f"JupyterLab: run all {ran - started:.1f} s, drags and checks {time.monotonic() - ran:.1f} s")
