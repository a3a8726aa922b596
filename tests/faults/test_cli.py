"""``boundary-lab faults`` in a subprocess: it serves and prints its URLs, and Ctrl-C stops it (exit status
130); ``--list`` prints the catalogue; ``--score`` exits 0 for a right client and 1 for a wrong one; bad
arguments are one line on standard error, exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from benchmarks.harness import sigint_at_default
from lesson_lib.faults import CATALOGUE
from lesson_lib.faults.server import FaultServer

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = """
def right(entry):
    return {"outcome": entry["expected"]["outcome"], "text": entry["expected"]["text"]}

def wrong(entry):  # the expected outcome, with a text no entry expects
    return (entry["expected"]["outcome"], "not the text \ufffe")

not_a_function = 3
"""


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def run(*args: str, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lesson_lib", "faults", *args],
        cwd=cwd,
        env=env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def clients(tmp_path: Path) -> Path:
    (tmp_path / "my_clients.py").write_text(CLIENTS, encoding="utf-8")
    (tmp_path / "broken_client.py").write_text("raise RuntimeError('at import')\n", encoding="utf-8")
    return tmp_path


def test_it_serves_prints_its_urls_and_stops_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "lesson_lib", "faults", "--port", "0"],
        cwd=ROOT,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_at_default,  # as in a terminal, also when the tests run in the background
    )
    try:
        lines = []
        for line in process.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("Press Ctrl-C"):
                break
        printed = "".join(lines)
        url = lines[0].split(" on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        assert f"catalogue:  {url}/faults" in printed and f"scoreboard: {url}/scoreboard" in printed
        assert f'OpenAI(base_url="{url}/faults/openai-chat-control/v1"' in printed
        assert "Anthropic(base_url=" in printed
        with urllib.request.urlopen(f"{url}/faults", timeout=10) as response:
            assert [e["name"] for e in json.loads(response.read())] == [f.name for f in CATALOGUE]
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    assert err == "boundary-lab faults: interrupted\n"


def test_list_prints_the_catalogue_without_a_server() -> None:
    done = run("--list")
    assert done.returncode == 0 and done.stderr == ""
    for fault in CATALOGUE:
        line = next(line for line in done.stdout.splitlines() if line.startswith(fault.name + " "))
        assert fault.contract in line and fault.expected.outcome in line
    assert f"{len(CATALOGUE)} faults" in done.stdout


def test_score_exits_0_for_a_right_client_and_1_for_a_wrong_one(clients: Path) -> None:
    right = run("--score", "my_clients:right", cwd=clients)
    assert right.returncode == 0, right.stderr
    assert "client 'right'" in right.stdout and f"{len(CATALOGUE)} right, 0 wrong" in right.stdout
    wrong = run("--score", "my_clients:wrong", "--client", "mine", cwd=clients)
    assert wrong.returncode == 1, wrong.stderr
    assert "client 'mine'" in wrong.stdout and f"0 right, {len(CATALOGUE)} wrong" in wrong.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--score", "no_such_module:f"), "cannot import 'no_such_module' (ModuleNotFoundError"),
        (("--score", "broken_client:f"), "cannot import 'broken_client' (RuntimeError: at import)"),
        (("--score", "my_clients"), "--score takes MODULE:FUNCTION"),
        (("--score", "my_clients:missing"), "'my_clients' has no 'missing'"),
        (("--score", "my_clients:not_a_function"), "is not a function"),
        (("--score", "my_clients:right", "--client", ""), "client_name must be"),
        (("--client", "x"), "--client names the client of --score"),
        (("--list", "--score", "my_clients:right"), "do not go together"),
        (("--port", "99999"), "must be a port number"),
        (("--port", "http"), "must be a port number"),
        (("--frobnicate",), "unrecognized arguments"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(clients: Path, args: tuple[str, ...], says: str) -> None:
    done = run(*args, cwd=clients)
    assert done.returncode == 2, done
    assert says in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_taken_port_is_one_line_and_exit_2() -> None:
    with FaultServer() as taken:
        done = run("--port", str(taken.port))
    assert done.returncode == 2 and "cannot listen on 127.0.0.1" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
