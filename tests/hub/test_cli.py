"""tools/hub.py's arguments and the learner list, passwords and hashes: no root, no hub needed.

A bad argument fails with one line naming it, exit 2, no traceback, before anything is written."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from classroom import learners

ROOT = Path(__file__).resolve().parents[2]


def hub(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "hub.py"), *args], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--learners", "0"], "--learners"),
        (["--learners", "Alice"], "--learners"),
        (["--learners", "ann,ann"], "--learners"),
        (["--learners", "2", "--port", "80"], "--port"),
        (["--learners", "2", "--port", "x"], "--port"),
        (["--learners", "2", "--memory-mib", "1"], "--memory-mib"),
        (["--learners", "2", "--cull-timeout", "-5"], "--cull-timeout"),
        (["--learners", "2", "--root", "relative/hub"], "--root"),
        (["--learners", "2", "--root", str(ROOT / "hubroot")], "--root"),
    ],
)
def test_a_bad_argument_fails_naming_it_before_any_io(args: list[str], named: str, tmp_path: Path) -> None:
    result = hub(*args, "--root", str(tmp_path / "never-made")) if "--root" not in args else hub(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"hub.py: {named}") or named in result.stderr, result.stderr
    assert not (tmp_path / "never-made").exists() and not (ROOT / "hubroot").exists()


def test_check_accepts_good_arguments_and_writes_nothing(tmp_path: Path) -> None:
    result = hub("--check", "--learners", "alice,bob", "--port", "8000", "--root", str(tmp_path / "hub"))
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "hub").exists()


def test_learners_from_a_count_or_names() -> None:
    assert learners.parse_learners("3") == ["learner1", "learner2", "learner3"]
    assert learners.parse_learners(" alice, bob ") == ["alice", "bob"]


def test_a_password_matches_its_hash_and_no_other() -> None:
    one, two = learners.new_password(), learners.new_password()
    assert one != two and len(one) >= 12
    stored = learners.hash_password(one)
    assert one not in stored
    assert learners.verify_password(one, stored)
    assert not learners.verify_password(two, stored)
    assert not learners.verify_password(one, "plain")
    assert learners.hash_password(one) != stored  # salted


def test_progress_is_off_unless_asked_for() -> None:
    spec = importlib.util.spec_from_file_location("hub_tool", ROOT / "tools" / "hub.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    off, _ = tool.check_arguments(["--learners", "2"])
    on, _ = tool.check_arguments(["--learners", "2", "--progress"])
    assert (off.progress, on.progress) == (False, True)
    assert hub("--check", "--learners", "2", "--progress").returncode == 0
