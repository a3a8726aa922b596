"""make hub's hub, driven as learners drive it: log in, the learner's copy, lesson 01 through the kernel,
the memory limit, lesson 10's page and lesson 01 as a Voila app in Chromium through the hub, the progress
view, and the idle culler.

The tests run in file order on one hub (conftest.py); each starts the server it needs (the culler may have
stopped it: its timeout is short here on purpose).
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from classroom.cgroups import detect
from classroom.client import Learner, LoginFailed
from classroom.server import Classroom

from ..exercises.test_progress import _final_error_name
from ..net.test_relay import SHORT, SHORT_TEXT

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"),
    reason=f"needs Debian's Chromium at {CHROMIUM}: `apt-get install chromium`",
)
LESSON_01 = "notebooks/01_chunks_are_not_characters.ipynb"
ROOT = Path(__file__).resolve().parents[2]
PROGRESS_VIEW = ROOT / "tools" / "progress_view.py"
WRONG = ["ZebraDecodeFailure", "PangolinFault", "OkapiCutError"]  # wrong names of 01.final's error


def learner(room: Classroom, name: str) -> Learner:
    """``name`` logged in with the password the hub printed, its server started."""
    client = Learner(room.url, name)
    client.login(room.passwords[name])
    client.start_server()
    return client


def test_the_printed_password_logs_in_and_no_other_does(classroom: Classroom) -> None:
    one, two = classroom.settings.learners
    Learner(classroom.url, one).login(classroom.passwords[one])  # raises if refused
    for name, password in ((one, "wrong-password"), (one, classroom.passwords[two]), ("nobody", "x"),
                           (one, "")):
        with pytest.raises(LoginFailed):
            Learner(classroom.url, name).login(password)
    listing = (classroom.settings.root / "learners.txt")
    assert listing.stat().st_mode & 0o777 == 0o600
    assert listing.read_text().split() == [w for n in (one, two) for w in (n, classroom.passwords[n])]
    assert classroom.passwords[one] not in (classroom.settings.root / "secrets.json").read_text()


def test_the_home_has_the_learner_notebooks_no_solutions_and_is_closed_to_others(
    classroom: Classroom,
) -> None:
    one, two = classroom.settings.learners
    home = Path("/home") / one
    assert home.stat().st_mode & 0o777 == 0o700
    copies = {p.relative_to(home / "boundary-lab" / "notebooks").as_posix()
              for p in (home / "boundary-lab").rglob("*.ipynb")}
    assert {LESSON_01.removeprefix("notebooks/"), "exercises/bug_hunt.ipynb",
            "zh-CN/10_the_last_mile.ipynb", "zh-CN/exercises/bug_hunt.ipynb"} <= copies
    assert not [p for p in copies if "solutions" in p]
    other = learner(classroom, two)
    kernel = other.kernel()
    try:
        error = kernel.execute(f"import os; os.listdir({str(home)!r})")
        assert error is not None and error.startswith("PermissionError"), error
        error = kernel.execute(f"open({str(home / 'boundary-lab' / LESSON_01)!r}).read()")
        assert error is not None and error.startswith("PermissionError"), error
    finally:
        kernel.shutdown()


def test_lesson_01_runs_through_the_kernel_with_no_error(classroom: Classroom) -> None:
    one = classroom.settings.learners[0]
    client = learner(classroom, one)
    report = client.run_notebook(LESSON_01)
    assert report.cells > 10 and report.failures == [], report.failures
    assert report.to_first_cell is not None and report.to_end is not None
    assert 0 < report.to_first_cell <= report.to_end


def test_a_kernel_beyond_the_memory_limit_is_killed_and_the_hub_survives(classroom: Classroom) -> None:
    controller, why = detect()
    if controller is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and no memory limit can be enforced: {why}")
        pytest.skip(f"no memory limit can be enforced here: {why}")
    two = classroom.settings.learners[1]
    client = learner(classroom, two)
    assert controller.limit(two) == classroom.settings.memory_mib * 1024 * 1024
    before = controller.oom_kills(two)
    kernel = client.kernel()
    try:
        assert kernel.execute("small = b'x' * (50 << 20)") is None  # well below the limit: fine
        error = kernel.execute(f"big = b'x' * ({classroom.settings.memory_mib} << 20)", timeout=60)
        assert error is not None, "a kernel allocating more than the limit kept running"
    finally:
        with contextlib.suppress(Exception):
            kernel.shutdown()
    assert controller.oom_kills(two) > before
    assert classroom.alive()
    assert client.server_ready()
    assert client.server("GET", "/api/status").status_code == 200


def browser_login(browser: Browser, room: Classroom, name: str) -> Page:
    """A page of a new browser context (its own cookies) where ``name`` has logged in with the hub's form."""
    page = browser.new_context().new_page()
    page.goto(room.url + "/hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", room.passwords[name])
    page.click("#login_submit")
    page.wait_for_url("**/user/**", timeout=60_000)
    return page


@needs_chromium
def test_lesson_10s_relay_page_through_the_hub_shows_both_readers(classroom: Classroom) -> None:
    from playwright.sync_api import sync_playwright

    one = classroom.settings.learners[0]
    client = learner(classroom, one)
    kernel = client.kernel()
    try:
        error = kernel.execute(
            "from lesson_lib.net.relay import RelayServer\n"
            "from lesson_lib.net.replay import ReplayServer\n"
            f"body = {SHORT!r}\n"
            "up = ReplayServer(body, delay=0.15).start()\n"
            "relay = RelayServer(up.url, 'openai-chat', recut_delay=0.15).start()\n"
            "page_url = relay.page_url\n"
        )
        assert error is None, error
        page_path = kernel.evaluate("page_url")
        assert page_path.startswith(f"/user/{one}/proxy/"), page_path
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser_login(browser, classroom, one)
                page.goto(classroom.url + page_path + "?recut=1")
                page.wait_for_function("() => window.relayReaders && window.relayReaders.finished === 3",
                                       timeout=30_000)
                seen = page.evaluate(
                    """() => Object.fromEntries(["naive", "correct", "eventsource"].flatMap((name) => [
                        [name, document.getElementById(name + "-text").textContent],
                        [name + "-state", document.getElementById(name + "-status").dataset.state]]))"""
                )
            finally:
                browser.close()
        assert seen["correct"] == SHORT_TEXT and seen["correct-state"] == "completed", seen
        assert seen["eventsource"] == SHORT_TEXT and seen["eventsource-state"] == "completed", seen
        assert "\ufffd" in seen["naive"] and seen["naive-state"] == "completed", seen
        kernel.execute("relay.stop(); up.stop()")
    finally:
        kernel.shutdown()


@needs_chromium
def test_lesson_01_as_a_voila_app_through_the_hub_is_live_and_closed_to_another_learner(
    classroom: Classroom,
) -> None:
    """The learner's copy of lesson 01 at /user/<name>/voila/render/<path> (Voila's server extension in the
    learner's own server): outputs without code, CutExplorer live (dragging its cut changes what the kernel
    computes); every request of the page answered through the hub; another learner gets 403, no app."""
    from playwright.sync_api import expect, sync_playwright

    from ..browser.widget_steps import BOUNDARY, FIRST_CUT, INSIDE, drag_cut, expect_cut_shown, expect_live
    from ..browser.widget_steps import explorer as find_explorer

    one, two = classroom.settings.learners
    learner(classroom, one)
    learner(classroom, two)
    app = f"/user/{one}/voila/render/{LESSON_01}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser_login(browser, classroom, one)
            failed: list[str] = []
            page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            log_start = classroom.log_path.stat().st_size
            response = page.goto(classroom.url + app, timeout=180_000)  # Voila runs every cell first
            assert response is not None and response.status == 200, response and response.status
            box = find_explorer(page, timeout=120_000)
            expect(page.locator(".jp-InputArea-editor, .jp-CodeMirrorEditor, .highlight")).to_have_count(0)
            expect(page.get_by_text("explorer = CutExplorer")).to_have_count(0)
            expect_cut_shown(box, FIRST_CUT)
            expect_live(box)
            for cut in (INSIDE, BOUNDARY):
                drag_cut(page, box, cut)
                expect_cut_shown(box, cut)
            assert failed == [], (failed, _errors_logged_since(classroom, log_start))

            other = browser_login(browser, classroom, two)
            refused = other.goto(classroom.url + app, timeout=60_000)
            assert refused is not None and refused.status == 403, (refused and refused.status, other.url)
            # the first learner's server sends the second to the hub's OAuth, which refuses them
            assert other.url.startswith(classroom.url + "/hub/api/oauth2/authorize?"), other.url
            expect(other.locator(".widget-slider")).to_have_count(0)
        finally:
            browser.close()


def test_the_chinese_lesson_01_as_a_voila_app_through_the_hub_is_run_in_chinese(classroom: Classroom) -> None:
    """The zh-CN copy of lesson 01 at /user/<name>/voila/render/notebooks/zh-CN/...: Voila runs its cells in
    the learner's kernel and the page carries their Chinese outputs (as stored in the lesson) and a widget
    view, no code and no error. The page's live widgets are the English test's, in Chromium, above."""
    import requests

    one, _ = classroom.settings.learners
    client = learner(classroom, one)
    lesson = LESSON_01.replace("notebooks/", "notebooks/zh-CN/", 1)
    stored = json.loads((ROOT / lesson).read_text(encoding="utf-8"))
    heading = stored["cells"][0]["source"][0].removeprefix("# ").strip()
    printed = [line for cell in stored["cells"] if cell["cell_type"] == "code" for out in cell["outputs"]
               if out["output_type"] == "stream" for line in "".join(out["text"]).splitlines()
               if re.search(r"[\u4e00-\u9fff]", line)][:3]
    assert heading.startswith("01 ·") and len(printed) == 3, (heading, printed)
    log_start = classroom.log_path.stat().st_size
    response = requests.get(f"{classroom.url}{client.server_path}/voila/render/{lesson}",
                            headers=client.headers, timeout=240)  # Voila runs every cell first
    page = html.unescape(response.content.decode("utf-8"))  # the page is UTF-8; requests would guess Latin-1
    assert response.status_code == 200, (response.status_code, _errors_logged_since(classroom, log_start))
    assert heading in page
    assert [line for line in printed if line not in page] == []
    assert "application/vnd.jupyter.widget-view+json" in page
    assert 'set_language("zh-CN")' not in page  # no code
    # the two exceptions the lesson raises on purpose are shown as they are, and nothing else failed
    raised = [out["ename"] for cell in stored["cells"] if cell["cell_type"] == "code"
              for out in cell["outputs"] if out["output_type"] == "error"]
    assert raised == ["UnicodeDecodeError", "TruncatedCharacterError"], raised
    assert [name for name in raised if name not in page] == []
    assert "There was an error when executing cell" not in page
    assert page.count("application/vnd.jupyter.stderr") == len(raised)


def _errors_logged_since(room: Classroom, offset: int) -> list[str]:
    """The hub log's error lines (the hub's, the proxy's and the learners' servers', which write there) from
    byte ``offset`` on, with the lines of any traceback: what answered a request with an error, and why."""
    with room.log_path.open("rb") as log:
        log.seek(offset)
        lines = log.read().decode("utf-8", "replace").splitlines()
    error = re.compile(r"\[E |\b5\d\d (GET|POST|PUT|DELETE) |Traceback")  # jupyter's logs: [E date name]
    marks = [i for i, line in enumerate(lines) if error.search(line)]
    shown = sorted({j for i in marks for j in range(i, min(i + 25, len(lines)))})
    return [lines[j][:300] for j in shown][:120]


def _view_cells(page: str) -> dict[str, list[tuple[str, str]]]:
    """Each learner's row of the view's HTML table: (status class, label) of each cell, in column order."""
    rows = re.findall(r"<tr><th>([^<]*)</th>(.*?)</tr>", page)[1:]  # the first is the heading
    return {html.unescape(name): [(status, html.unescape(label)) for status, label in
                                  re.findall(r'<td class="(\w+)"[^>]*>([^<]*)</td>', cells)]
            for name, cells in rows}


def test_the_progress_view_shows_who_solved_and_who_is_stuck_from_the_learners_kernels(
    classroom: Classroom,
) -> None:
    """With --progress, each learner's kernel records check() in ~/.boundary-lab without being told to; one
    learner answers 01.final right, the other wrong three times; root's progress_view over the two homes says
    solved and stuck; neither kernel can read the other's records; no answer is in the files."""
    one, two = classroom.settings.learners
    right = _final_error_name()
    answers = {one: [right], two: WRONG}
    homes = {name: Path(os.path.expanduser(f"~{name}")) for name in (one, two)}
    files = {name: homes[name] / ".boundary-lab" / "progress.jsonl" for name in (one, two)}
    kernels = {name: learner(classroom, name).kernel() for name in (one, two)}
    try:
        for name, kernel in kernels.items():
            error = kernel.execute("from lesson_lib.exercises import check, progress\nprogress.forget()")
            assert error is None, error
            assert kernel.evaluate("progress.enabled()") == "True"  # the hub's environment, no enable()
            assert kernel.evaluate("progress.path()") == str(files[name])
            for answer in answers[name]:
                assert kernel.execute(f"print(bool(check('01.final', {answer!r})))") is None
                assert kernel.stdout.strip() == str(answer == right)
            assert kernel.evaluate("[(r.outcome, r.attempt) for r in progress.recorded().records]") == str(
                [("right" if a == right else "wrong", n) for n, a in enumerate(answers[name], 1)])
        for name, other in ((one, two), (two, one)):
            error = kernels[name].execute(f"progress.read({str(files[other])!r})")
            assert error is not None and error.startswith("PermissionError"), (name, error)
    finally:
        for kernel in kernels.values():
            kernel.shutdown()
    for name, file in files.items():
        assert file.stat().st_uid == file.parent.stat().st_uid == homes[name].stat().st_uid
        assert (file.stat().st_mode & 0o777, file.parent.stat().st_mode & 0o777) == (0o600, 0o700)
        raw = file.read_text(encoding="utf-8").replace("01.final", "")
        assert len(raw.splitlines()) == len(answers[name])
        assert not [a for a in [right, *WRONG] if a in raw], raw
    done = subprocess.run([sys.executable, str(PROGRESS_VIEW), str(homes[one]), str(homes[two]), "--html"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"<th>([^<]*)</th>", done.stdout)[:2] == ["learner", "01.final"], done.stdout
    assert _view_cells(done.stdout) == {one: [("solved", "✓ 1")], two: [("stuck", "✗ 3 stuck")]}, done.stdout


def test_the_idle_culler_stops_an_idle_server(classroom: Classroom) -> None:
    two = classroom.settings.learners[1]
    by_culler = f"DELETE /hub/api/users/{two}/server (idle-culler@"  # the hub's log line for its request
    before = classroom.log_path.read_text(encoding="utf-8", errors="replace").count(by_culler)
    client = learner(classroom, two)
    deadline = time.monotonic() + CULL_WAIT
    while client.server_state() != "stopped":
        assert time.monotonic() < deadline, f"the server was still running {CULL_WAIT} s after it went idle"
        time.sleep(1)
    assert classroom.alive()

    def culled() -> bool:  # the hub logs a request once it has answered it
        return classroom.log_path.read_text(encoding="utf-8", errors="replace").count(by_culler) > before

    while not culled():
        assert time.monotonic() < deadline, "the server stopped, but not at the culler's request"
        time.sleep(0.5)


CULL_WAIT = 90  # the timeout (30 s) + the culler's and activity reports' intervals (5 s each), with margin
