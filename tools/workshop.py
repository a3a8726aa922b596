"""Serve the widget lessons as code-free apps with Voila, on this machine only (``make workshop``).

For a projector: every lesson that shows a widget runs top to bottom in its own kernel and appears without
its code, so the room sees the explorers and the instructor drags the cuts. Voila listens on 127.0.0.1
(never another address) and asks for a random token, which the printed URLs carry: other users and web
pages on the same machine cannot run code in the lessons' kernels. Ctrl-C stops Voila and its kernels.

Usage: ``python tools/workshop.py [--port 8866] [--notebooks DIR] [--theme light|dark] [--verbose]``
(``--port 0`` picks a free port).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import psutil  # installed with ipykernel (pinned in requirements.txt)

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # the only address the workshop listens on
DEFAULT_PORT = 8866
START_TIMEOUT = 90.0  # seconds for Voila to answer
STOP_TIMEOUT = 20.0  # seconds for Voila to shut its kernels down after SIGTERM


def lesson_title(notebook: dict, fallback: str) -> str:
    """The first Markdown heading (``# 01 · Chunks are not characters``) or the file name."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            match = re.search(r"^#\s+(.+)$", "".join(cell.get("source", "")), re.MULTILINE)
            if match:
                return match.group(1).strip()
    return fallback


def shows_widgets(notebook: dict) -> bool:
    """Whether a notebook displays widgets: it imports the explorers or stores widget state."""
    if "widgets" in notebook.get("metadata", {}):
        return True
    return any(
        "lesson_lib.teach.widgets" in "".join(cell.get("source", ""))
        for cell in notebook.get("cells", [])
        if cell.get("cell_type") == "code"
    )


def widget_lessons(folder: Path) -> list[tuple[str, str]]:
    """``(path relative to folder, title)`` of every numbered lesson with widgets, in lesson order."""
    lessons = []
    for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if shows_widgets(notebook):
            lessons.append((path.name, lesson_title(notebook, path.stem)))
    return lessons


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def voila_command(folder: Path, port: int, theme: str, verbose: bool) -> list[str]:
    return [
        sys.executable,
        "-m",
        "voila",
        str(folder),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        # The token comes from JUPYTER_TOKEN in the environment, so it never shows in a process list.
        "--Voila.auto_token=True",
        "--VoilaConfiguration.strip_sources=True",
        # Lessons raise on purpose (lesson 01's naive decode, a truncated character): the learner must see
        # the exception, not Voila's "There was an error when executing cell [4]".
        "--VoilaConfiguration.show_tracebacks=True",
        f"--VoilaConfiguration.theme={theme}",
        f"--Voila.log_level={'INFO' if verbose else 'WARN'}",
    ]


def wait_until_serving(process: subprocess.Popen, url: str, timeout: float) -> None:
    """Return once ``url`` answers 200; raise if Voila exits first or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"Voila exited with code {process.returncode} before it served the lessons")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"Voila did not answer on {url.split('?')[0]} within {timeout:.0f} s")
        time.sleep(0.25)


def stop(process: subprocess.Popen) -> None:
    """Stop Voila (its own process group) and the kernels it started, by process id."""
    if process.poll() is not None:
        return
    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        children = []
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)  # Voila shuts its kernels down on SIGTERM
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)
    # Kernels run in process groups of their own: end any that outlived Voila.
    _, alive = psutil.wait_procs(children, timeout=5)
    for child in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()
    psutil.wait_procs(alive, timeout=5)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument(
        "--notebooks", type=Path, default=ROOT / "notebooks", help="folder of lessons (default: notebooks/)"
    )
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument("--verbose", action="store_true", help="show Voila's own log")
    args = parser.parse_args(argv)

    folder = args.notebooks.resolve()
    lessons = widget_lessons(folder) if folder.is_dir() else []
    if not lessons:
        print(f"no lessons with widgets in {folder}", file=sys.stderr)
        return 2
    port = free_port() if args.port == 0 else args.port
    if not port_is_free(port):
        print(f"port {port} on {HOST} is in use; choose another: --port N (0: any free port)",
              file=sys.stderr)
        return 2

    token = secrets.token_urlsafe(24)
    env = {**os.environ, "JUPYTER_TOKEN": token}
    base = f"http://{HOST}:{port}"
    # Voila gets its own process group: Ctrl-C reaches this script only, which then stops Voila in order.
    signal.signal(signal.SIGTERM, _interrupt)  # stopped by a service manager: the same clean stop
    process = subprocess.Popen(
        voila_command(folder, port, args.theme, args.verbose), cwd=folder, env=env, start_new_session=True
    )
    try:
        wait_until_serving(process, f"{base}/?token={token}", START_TIMEOUT)
        width = max(len(title) for _, title in lessons)
        print(f"Boundary Lab workshop: Voila serves {folder} on {base} (this machine only)", flush=True)
        for name, title in lessons:
            print(f"  {title:<{width}}  {base}/voila/render/{quote(name)}?token={token}", flush=True)
        print(f"  {'every notebook':<{width}}  {base}/?token={token}", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
        code = process.wait()
        print(f"Voila exited with code {code}", file=sys.stderr)
        return code or 1
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the clean stop short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("\nstopping Voila ...", flush=True)
        stop(process)
        print("stopped", flush=True)
        return 0
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        stop(process)
        return 1
    finally:
        stop(process)  # nothing to do when already stopped; covers any other exit


if __name__ == "__main__":
    raise SystemExit(main())
