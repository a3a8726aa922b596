"""``fault_server_process``: the scorer's fault server in a child process, and every way it can fail to start.

The child is the real one (this interpreter, ``lesson_lib.faults.server``) or, for the failures, a real
process that does what a broken start does: exits with a message, prints something else, or never speaks.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from lesson_lib.faults import server as fault_server  # noqa: F401  (ImportError: no fault server in this tree)
from lesson_lib.teach import fault_scores
from lesson_lib.teach.fault_scores import fault_server_process

ROOT = Path(__file__).resolve().parents[2]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/faults", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError):
        return False


def _gone_within(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _answers(url):
            return True
        time.sleep(0.1)
    return False


def test_the_real_child_serves_the_catalogue_during_the_block_and_is_gone_after_it():
    with fault_server_process() as url:
        assert url.startswith("http://127.0.0.1:")
        assert _answers(url)
    assert _gone_within(url, 5)


def test_the_child_ends_by_itself_when_its_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import os, signal, sys
            from lesson_lib.teach.fault_scores import fault_server_process
            with fault_server_process() as url:
                print(url, flush=True)
                os.kill(os.getpid(), signal.SIGKILL)  # no finally runs: only the closed pipe tells the child
        """)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    url = parent.stdout.readline().strip()
    parent.wait(30)
    parent.stdout.close()
    assert url.startswith("http://127.0.0.1:"), url
    assert _gone_within(url, 10), "the orphaned fault server still answers"


@pytest.mark.parametrize(
    ("program", "says"),
    [
        ("import sys; print('OSError: no free port, ünïcødé 端口 🚫', flush=True); sys.exit(3)",
         "it exited with status 3"),
        ("import time; print('Traceback (most recent call last):', flush=True); time.sleep(30)",
         "its first line was not its URL"),
        ("print('fault server on ftp://127.0.0.1:1', flush=True)", "it exited with status 0"),
    ],
    ids=["exits", "prints-something-else", "not-an-http-url"],
)
def test_a_child_that_does_not_start_is_a_runtime_error_with_what_it_printed(program, says):
    started = time.monotonic()
    command = [sys.executable, "-c", program]
    with pytest.raises(RuntimeError, match="the fault server did not start") as caught, fault_server_process(
        command=command
    ):
        pytest.fail("the block ran without a server")
    assert says in str(caught.value)
    assert program.split("'")[1] in str(caught.value)  # what it printed, to read the cause
    assert time.monotonic() - started < 20  # a child that lingers was killed, not waited for


def test_a_child_that_never_speaks_is_given_up_on_at_the_timeout():
    started = time.monotonic()
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(RuntimeError, match=r"no URL within 0\.5 s"), fault_server_process(0.5, silent):
        pytest.fail("the block ran without a server")
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), "60", True])
def test_a_bad_timeout_fails_before_any_process_starts(timeout, tmp_path):
    marker = tmp_path / "started"
    command = [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]
    with pytest.raises(ValueError, match=r"^timeout must be"), fault_server_process(timeout, command):
        pytest.fail("the block ran")
    time.sleep(0.5)
    assert not marker.exists()


def test_score_clients_says_in_one_line_that_the_server_did_not_start(monkeypatch, capsys):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import score_clients
    finally:
        sys.path.remove(str(ROOT / "tools"))
    monkeypatch.setattr(fault_scores, "_SERVE_UNTIL_STDIN_ENDS", "raise SystemExit('no port for 服务器')")
    assert score_clients.main(["--check"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("score_clients: cannot start the fault server (the fault server did not start: it")
    assert "no port for 服务器" in err
    assert "Traceback" not in err and err.count("\n") == 1
