"""tools/run_notebooks.py answers --help and a wrong path with a message, not a traceback, before any
kernel starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "run_notebooks.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=60)


def test_help_prints_usage() -> None:
    done = _run("--help")
    assert done.returncode == 0 and "usage:" in done.stdout and "Traceback" not in done.stderr


def test_a_path_that_is_not_a_notebook_is_refused_by_name(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a notebook")
    for wrong in [str(tmp_path / "missing.ipynb"), str(other)]:
        done = _run(wrong)
        assert done.returncode == 2
        assert "notebooks: not a notebook file" in done.stderr and wrong in done.stderr
        assert "Traceback" not in done.stderr and "executing" not in done.stdout
