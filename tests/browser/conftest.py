"""Real-browser tests: JupyterLab and the Voila workshop, driven by Playwright in Debian's Chromium.

Every server runs on 127.0.0.1, on a free port, in its own process group, on a copy of the repository in
a temporary folder (running the cells never touches the committed notebooks); each test stops what it
started, by process id. Without /usr/bin/chromium the tests are skipped, saying how to enable them,
except in CI (``CI`` set), where that is an error: .ci/run installs Chromium, and a skip would hide it.
Screenshots go to test-artifacts/browser/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .servers import HOST, Server, free_port, http_get, isolated_env, wait_for

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
BIN = Path(sys.executable).parent
SKIP_REASON = (
    f"real-browser tests need Debian's Chromium at {CHROMIUM}: "
    "run `sudo apt-get install chromium fonts-noto-cjk` (or .ci/run as root) to enable them"
)
# Everything of the checkout a lesson needs; caches, the venv and git stay behind.
COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", ".hypothesis", ".pytest_cache", ".ruff_cache", "__pycache__", ".ipynb_checkpoints",
    "test-artifacts", "*.egg-info", "build", "dist",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives JupyterLab or Voila in Debian's Chromium (needs /usr/bin/chromium)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.access(CHROMIUM, os.X_OK):
        return
    if os.environ.get("CI") and any(item.get_closest_marker("browser") for item in items):
        # In CI these tests must run: .ci/run installs Chromium, so its absence is a failure, not a skip.
        raise pytest.UsageError(f"CI is set but {CHROMIUM} is missing: {SKIP_REASON}")
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


@pytest.fixture
def repo_copy(tmp_path: Path) -> Path:
    """A copy of the checkout in a temporary folder, for servers to run lessons in."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT, copy, ignore=COPY_IGNORE, symlinks=True)
    return copy


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# -- JupyterLab ------------------------------------------------------------------------------------------
@dataclass
class Lab:
    server: Server
    port: int
    token: str
    root: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def url(self, notebook: str) -> str:
        """The page of ``notebook``, a path under notebooks/ (the server's root folder, as with
        ``make lab``: JupyterLab serves the folder of the notebook it is started on), with the token."""
        return f"{self.base}/lab/tree/{notebook}?token={self.token}"

    def api(self, path: str) -> tuple[int, bytes]:
        return http_get(f"{self.base}{path}?token={self.token}")


def _test_folders(tmp: Path) -> tuple[Path, Path]:
    """A fresh user-settings folder (autosave off, so running cells never writes the copy's notebooks;
    nothing else: what a newcomer sees comes from the project's own files) and a workspaces folder."""
    settings = tmp / "lab-user-settings"
    autosave = settings / "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings"
    autosave.parent.mkdir(parents=True, exist_ok=True)
    autosave.write_text('{"autosave": false}', encoding="utf-8")
    workspaces = tmp / "lab-workspaces"
    workspaces.mkdir(exist_ok=True)
    return settings, workspaces


@pytest.fixture
def jupyter_lab(repo_copy: Path, tmp_path: Path) -> Iterator[Lab]:
    """JupyterLab on 127.0.0.1 with a token, started as ``make lab`` starts it: through the copy's
    ``tools/lab.py`` (which trusts the course's notebooks and puts tools/lab_config/ on the config path),
    serving the copy's notebooks/, with fresh Jupyter config, data and user-settings folders; stopped
    afterwards. Only the server's address, token and test folders are given here."""
    token = os.urandom(24).hex()
    env = isolated_env(tmp_path / "jupyter", token)
    settings, workspaces = _test_folders(tmp_path)
    lab: Lab | None = None
    try:
        for attempt in range(3):  # a free port can be taken between choosing it and binding it
            port = free_port()
            argv = [
                sys.executable,
                str(repo_copy / "tools" / "lab.py"),
                "--no-browser",
                f"--ServerApp.ip={HOST}",
                f"--ServerApp.port={port}",
                "--ServerApp.port_retries=0",
                "--ServerApp.open_browser=False",
                "--LabApp.expose_app_in_browser=True",
                f"--LabApp.user_settings_dir={settings}",
                f"--LabApp.workspaces_dir={workspaces}",
            ]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                argv.append("--allow-root")
            server = Server(argv, repo_copy, env, tmp_path / f"jupyter-lab-{attempt}.log").start()
            candidate = Lab(server, port, token, repo_copy)
            try:
                wait_for(
                    lambda c=candidate: c.server.check_alive("JupyterLab") and c.api("/api/status")[0] == 200,
                    timeout=60,
                    what="JupyterLab to answer /api/status",
                )
            except AssertionError:
                server.stop()
                if "already in use" not in server.log():
                    raise
                continue  # the port was taken meanwhile: try another
            except TimeoutError:
                server.stop()
                raise AssertionError(f"JupyterLab did not answer:\n{server.log()}") from None
            lab = candidate
            break
        assert lab is not None, "JupyterLab found no free port in three attempts"
        yield lab
    finally:
        if lab is not None:
            code = lab.server.stop()
            print(f"JupyterLab (pid {lab.server.pid}) stopped with code {code}")


# -- the Voila workshop ----------------------------------------------------------------------------------
@dataclass
class Workshop:
    server: Server
    port: int
    urls: dict[str, str]


@pytest.fixture
def workshop(repo_copy: Path, tmp_path: Path) -> Iterator[Workshop]:
    """``tools/workshop.py`` serving the copy's lessons; stopped with Ctrl-C (SIGINT to its group)."""
    env = isolated_env(tmp_path / "jupyter", token="unused")  # workshop.py makes its own token
    env.pop("JUPYTER_TOKEN")
    shop: Workshop | None = None
    try:
        for attempt in range(3):
            port = free_port()
            argv = [
                sys.executable,
                str(ROOT / "tools" / "workshop.py"),
                f"--port={port}",
                f"--notebooks={repo_copy / 'notebooks'}",
            ]
            server = Server(argv, repo_copy, env, tmp_path / f"workshop-{attempt}.log").start()

            def printed_urls(server: Server = server) -> dict[str, str] | None:
                lines = server.log().splitlines()
                if not any("Press Ctrl-C" in line for line in lines):
                    server.check_alive("workshop.py")
                    return None
                urls = {}
                for line in lines:
                    for word in line.split():
                        if word.startswith("http://"):
                            urls[word.split("?")[0].rsplit("/", 1)[-1] or "tree"] = word
                return urls

            try:
                urls = wait_for(printed_urls, timeout=90, what="workshop.py to print the lesson URLs")
            except AssertionError:
                server.stop()
                if "in use" not in server.log():
                    raise
                continue  # the port was taken meanwhile: try another
            except TimeoutError:
                server.stop(signal.SIGINT)
                raise AssertionError(f"workshop.py printed no URLs:\n{server.log()}") from None
            shop = Workshop(server, port, urls)
            break
        assert shop is not None, "the workshop found no free port in three attempts"
        yield shop
    finally:
        if shop is not None:
            shop.server.stop(signal.SIGINT, timeout=40)


# -- the browser -----------------------------------------------------------------------------------------
@pytest.fixture
def page() -> Iterator[Any]:
    """A Chromium page (Playwright, sync API), 1400 x 1000, with bounded default timeouts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=30_000
        )
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
            context.set_default_timeout(30_000)
            context.set_default_navigation_timeout(60_000)
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.dismiss())
            yield page
            context.close()
        finally:
            browser.close()
