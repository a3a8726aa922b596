"""Every lesson with widgets, in both editions, opened in JupyterLab as ``make lab`` opens it, WITHOUT
running a cell.

The widgets must draw the state stored in the notebook (tools/run_notebooks.py writes it into the
notebook's metadata), not their text repr: for every widget output of every lesson, the page shows the
rendered widget (no ``text/plain`` fallback), each picture the stored state holds is on the page with the
very bytes stored, and each slider shows its stored value. And the stored view must read as a picture, not
as a page of errors: no red "disconnected" mark of ipywidgets is visible on it (a view restored without a
kernel gets one on every control), its one notice (stored with it, in the lesson's language) says that the
controls come alive once the cell has run, and its controls take no input until then. The oracle is the
notebook file itself, read here with ``json``: nothing is computed with lesson_lib.

The server is started by the copy's ``tools/lab.py`` (the conftest's ``jupyter_lab``), so this checks
what ``make lab`` does for a newcomer: a fresh Jupyter data folder (untrusted notebooks until lab.py
trusts them) and fresh user settings. It also checks that nothing pops up over the first lesson.
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .servers import wait_for
from .widget_steps import VISIBLE_MARKS, VISIBLE_NOTICES

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"


@dataclass
class StoredWidget:
    """One widget output of a notebook, as the file stores it."""

    cell: int  # the cell's index in the notebook
    model_id: str
    repr: str  # its text/plain repr (what an untrusted notebook shows instead)
    images: list[bytes]  # the PNGs the widget shows on open (non-empty Image values, not display:none)
    sliders: list[int]  # the values of its IntSliders, in tree order
    notices: list[str]  # the texts of its "stored picture" notices (HTML with the class bl-stored-notice)


NOTICE_CLASS = "bl-stored-notice"


def html_text(value: str) -> str:
    """What a browser shows of an HTML value: no style element, no tags, entities decoded, spaces merged."""
    value = re.sub(r"<style>.*?</style>", "", value, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", value)).split())


def _shown(models: dict, model_id: str, images: list[bytes], sliders: list[int], notices: list[str],
           visible: bool = True):
    """Collect, depth first, the pictures, slider values and notices that ``model_id``'s view shows."""
    model = models[model_id]
    state = model["state"]
    layout = models.get(str(state.get("layout", "")).removeprefix("IPY_MODEL_"), {})
    visible = visible and layout.get("state", {}).get("display") != "none"
    if model["model_name"] == "HTMLModel" and NOTICE_CLASS in state.get("_dom_classes", []):
        notices.append(html_text(state["value"]))
    if model["model_name"] == "ImageModel" and visible:
        for buffer in model.get("buffers", []):
            if buffer["path"] == ["value"] and buffer["data"]:
                images.append(base64.b64decode(buffer["data"]))
    if model["model_name"] == "IntSliderModel" and visible:
        sliders.append(state["value"])
    for child in state.get("children", []):
        _shown(models, child.removeprefix("IPY_MODEL_"), images, sliders, notices, visible)


def stored_widgets(path: Path) -> list[StoredWidget]:
    """Every widget view among the notebook's outputs, with what its stored state shows."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    models = notebook["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    found = []
    for index, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if VIEW not in data:
                continue
            images: list[bytes] = []
            sliders: list[int] = []
            notices: list[str] = []
            model_id = data[VIEW]["model_id"]
            _shown(models, model_id, images, sliders, notices)
            text = data.get("text/plain", "")
            text = "".join(text) if isinstance(text, list) else text
            found.append(StoredWidget(index, model_id, text, images, sliders, notices))
    return found


EDITIONS = {"en": "", "zh-CN": "zh-CN/"}  # edition -> its folder under notebooks/


def lessons_with_widgets(edition: str = "en") -> list[str]:
    """The lessons of ``edition`` that store widget views, as paths under notebooks/."""
    folder = ROOT / "notebooks" / EDITIONS[edition]
    return [EDITIONS[edition] + p.name for p in sorted(folder.glob("*.ipynb")) if stored_widgets(p)]


def in_language(text: str, edition: str) -> bool:
    """Whether a notice reads in the edition's language (the Chinese one in Chinese characters)."""
    chinese = re.search(r"[\u4e00-\u9fff]", text) is not None
    return chinese if edition == "zh-CN" else not chinese and "run" in text


OPENED = """(name) => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!panel || !panel.sessionContext || !panel.context.path.endsWith(name)) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === 'connected'
        && panel.sessionContext.kernelDisplayStatus === 'idle' && panel.context.isReady;
}"""
SCROLL_TO = """(index) => window.jupyterapp.shell.currentWidget.content.scrollToItem(index, 'center')"""
# What a cell's output area shows: the rendered widget views and the text fallbacks.
CELL_OUTPUTS = """(index) => {
    const panel = window.jupyterapp.shell.currentWidget;
    const cell = panel.content.widgets[index];
    const node = cell.node;
    const views = node.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets');
    const texts = node.querySelectorAll('.jp-OutputArea-output[data-mime-type="text/plain"]');
    const errors = Array.from(node.querySelectorAll('.jp-OutputArea-output'))
        .map(o => o.innerText).filter(t => t.includes('Error displaying widget'));
    return {
        views: views.length,
        errors: errors,
        texts: Array.from(texts).map(t => t.innerText),
    };
}"""
# The bytes of every visible <img> in a cell's widget views, base64, in document order.
CELL_IMAGES = """async (index) => {
    const panel = window.jupyterapp.shell.currentWidget;
    const node = panel.content.widgets[index].node;
    const images = Array.from(
        node.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets img.widget-image'))
        .filter(img => img.offsetParent !== null && img.getAttribute('src'));
    const out = [];
    for (const img of images) {
        if (!img.complete || img.naturalWidth === 0) return null;  // not drawn yet
        const buffer = await (await fetch(img.src)).arrayBuffer();
        let binary = '';
        for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
        out.push(btoa(binary));
    }
    return {images: out};
}"""
CELL_SLIDERS = """(index) => {
    const panel = window.jupyterapp.shell.currentWidget;
    const node = panel.content.widgets[index].node;
    return Array.from(node.querySelectorAll(
        '.jp-OutputArea-output > .jupyter-widgets .widget-slider .widget-readout'))
        .filter(r => r.offsetParent !== null).map(r => r.innerText.trim());
}"""
# What floats over the lesson: toasts (notifications) and dialogs.
POP_UPS = """() => Array.from(document.querySelectorAll('.Toastify__toast, .jp-toast-message, .jp-Dialog'))
    .filter(e => e.offsetParent !== null || e.getClientRects().length > 0).map(e => e.innerText)"""


def shut_down_kernels(lab) -> None:
    """End the kernels of the lessons opened so far (through the server's API), to spare the CPU."""
    for kernel in json.loads(lab.api("/api/kernels")[1]):
        request = urllib.request.Request(
            f"{lab.base}/api/kernels/{kernel['id']}?token={lab.token}", method="DELETE"
        )
        with urllib.request.urlopen(request, timeout=10):
            pass
    wait_for(lambda: json.loads(lab.api("/api/kernels")[1]) == [], timeout=30, what="the kernels to end")


# Whether every control of the view at the cell's output takes no input (pointer-events none): a picture.
CONTROLS_INERT = """(node) => {
    const controls = node.querySelectorAll(
        '.jp-OutputArea-output > .jupyter-widgets :is(.widget-slider, button, input, select, textarea)');
    return controls.length > 0
        && Array.from(controls).every(c => getComputedStyle(c).pointerEvents === 'none');
}"""


def check_lesson(page: Page, lab, name: str, edition: str, artifacts: Path) -> list[str]:
    """Open ``name`` (a path under notebooks/) untouched and compare what the page shows with the stored
    widgets; the problems."""
    path = lab.root / "notebooks" / name
    stem = f"{edition}-{path.stem}"
    widgets = stored_widgets(path)
    page.goto(lab.url(name).replace("?token=", "?reset&token="))
    page.wait_for_function(OPENED, arg=name, timeout=90_000, polling=250)
    problems = []

    def rendered(widget: StoredWidget):
        shown = page.evaluate(CELL_OUTPUTS, widget.cell)
        assert not shown["errors"], f"{name} cell {widget.cell}: {shown['errors']}"
        return shown if shown["views"] == 1 else None

    for widget in widgets:
        page.evaluate(SCROLL_TO, widget.cell)
        try:
            shown = wait_for(lambda w=widget: rendered(w), timeout=60, what=f"{name} cell {widget.cell}")
        except (TimeoutError, AssertionError) as exc:
            shown = page.evaluate(CELL_OUTPUTS, widget.cell)
            problems.append(
                f"{name} cell {widget.cell}: the widget is not drawn on open ({exc}); the page shows "
                f"{shown['texts'] or 'no text'}"
            )
            continue
        if any(widget.repr.split(":")[0] in text for text in shown["texts"]):
            problems.append(f"{name} cell {widget.cell}: the text repr is shown: {shown['texts']}")
        try:
            images = wait_for(
                lambda w=widget: page.evaluate(CELL_IMAGES, w.cell), timeout=30, what="the pictures to load"
            )
        except TimeoutError as exc:
            problems.append(f"{name} cell {widget.cell}: {exc}")
            continue
        shown_images = [base64.b64decode(image) for image in images["images"]]
        if shown_images != widget.images:
            problems.append(
                f"{name} cell {widget.cell}: pictures on the page {[len(i) for i in shown_images]} bytes, "
                f"stored {[len(i) for i in widget.images]} bytes (or other bytes)"
            )
        # A slider's readout is filled in a moment after its view is attached (CI once read '' there):
        # wait for the stored values, and report what the page last showed if they never come.
        expected = [str(value) for value in widget.sliders]
        seen: list[list[str]] = []

        # The view must be on screen while it is read: JupyterLab does not lay out cells out of view
        # (their text reads as ''), and a tall cell above can push it out again after the first scroll.
        output = page.locator(".jp-Notebook .jp-Cell").nth(widget.cell).locator(
            ".jp-OutputArea-output:has(> .jupyter-widgets)"
        )

        def sliders_match(w=widget, seen=seen, expected=expected, output=output) -> bool:
            output.scroll_into_view_if_needed()
            seen.append(page.evaluate(CELL_SLIDERS, w.cell))
            return seen[-1] == expected

        try:
            wait_for(sliders_match, timeout=15, what="the sliders' readouts")
        except TimeoutError:
            last = seen[-1] if seen else "nothing"
            problems.append(f"{name} cell {widget.cell}: sliders show {last}, stored {widget.sliders}")
        # A picture, not a page of errors: no red mark, the notice that was stored with the view, inert
        # controls.
        cell = page.locator(".jp-Notebook .jp-Cell").nth(widget.cell)
        marks = cell.evaluate(VISIBLE_MARKS)
        if marks:
            problems.append(f"{name} cell {widget.cell}: {marks} red 'disconnected' marks on the widget")
        if not widget.notices or not all(in_language(text, edition) for text in widget.notices):
            problems.append(
                f"{name} cell {widget.cell}: the stored widget carries no notice in the lesson's language "
                f"that it comes alive when its cell runs (stored: {widget.notices})"
            )
        output.scroll_into_view_if_needed()
        shown_notices = [" ".join(text.split()) for text in cell.evaluate(VISIBLE_NOTICES)]
        if shown_notices != widget.notices:
            problems.append(f"{name} cell {widget.cell}: notices {shown_notices}, stored {widget.notices}")
        if not cell.evaluate(CONTROLS_INERT):
            problems.append(f"{name} cell {widget.cell}: the stored widget's controls take input")
        view = cell.locator(".jp-OutputArea-output:has(> .jupyter-widgets)")
        view.scroll_into_view_if_needed()
        view.screenshot(path=str(artifacts / f"lab-on-open-{stem}-cell{widget.cell}.png"))
    marks = page.locator(".jp-Notebook").evaluate(VISIBLE_MARKS)
    if marks:
        problems.append(f"{name}: {marks} red 'disconnected' marks on the page")
    page.screenshot(path=str(artifacts / f"lab-on-open-{stem}-page.png"))
    return problems


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_stored_widgets_render_on_open_in_every_lesson(edition, jupyter_lab, page, artifacts):
    lessons = lessons_with_widgets(edition)
    assert len(lessons) >= 5, f"the lessons with stored widgets changed: {lessons}"
    problems: list[str] = []
    for lesson in lessons:
        problems += check_lesson(page, jupyter_lab, lesson, edition, artifacts)
        shut_down_kernels(jupyter_lab)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_lesson_01_opens_as_a_picture_not_a_page_of_error_marks(edition, jupyter_lab, page, artifacts):
    """The first explorer a newcomer meets in full (lesson 01's CutExplorer, a slider, three buttons and a
    text field): before the course hid them, it showed sixteen red "disconnected" marks on open."""
    lesson = EDITIONS[edition] + "01_chunks_are_not_characters.ipynb"
    assert len(stored_widgets(ROOT / "notebooks" / lesson)) == 1
    problems = check_lesson(page, jupyter_lab, lesson, edition, artifacts)
    assert not problems, "\n".join(problems)


def test_nothing_pops_up_over_the_first_lesson(jupyter_lab, page, artifacts):
    """``make lab`` opens lesson 00: no news question, update notice or dialog covers it, even after
    the few seconds JupyterLab takes to ask."""
    page.goto(jupyter_lab.url("00_start_here.ipynb"))  # where `make lab` points the browser
    page.wait_for_function(OPENED, arg="00_start_here.ipynb", timeout=90_000, polling=250)
    time.sleep(5)  # the announcements plugin asks a moment after the layout is restored
    expect(page.locator(".jp-Notebook")).to_be_visible()
    page.screenshot(path=str(artifacts / "lab-first-open-page.png"))
    assert page.evaluate(POP_UPS) == []
