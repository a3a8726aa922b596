"""The hub root: everything the learners' servers run from, readable by them, none of it in the checkout.

Root's Python (``/root/.pyenv``) is 0700 and a checkout may sit in a folder other accounts cannot enter,
so the hub copies what learners need under one folder (``/srv/boundary-lab-hub`` by default)::

    python/   a copy of the Python that runs this tool (its standard library; no site-packages)
    venv/     a venv made from that copy: requirements.txt, then the course built as a wheel (pip install .)
    config/   the hub's configuration and the modules it imports (root only)
    state/    the hub's database and cookie secret (root only)

Each step is skipped when what it made is still current (a stamp holds the hash of its inputs), so a second
``make hub`` starts in seconds.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HUB_SIDE = ("cgroups.py", "hubside.py", "learners.py", "ports.py")  # copied into config/boundary_lab_hub/
PYTHON_IGNORE = shutil.ignore_patterns(
    "test", "tests", "__pycache__", "site-packages", "idlelib", "turtledemo"
)
STEP_TIMEOUT = 1800


class InstallError(RuntimeError):
    """A step that failed: the message names it (and the end of its output)."""


def digest(paths: list[Path]) -> str:
    """A sha256 over the files' relative names and contents (folders walked in sorted order)."""
    h = hashlib.sha256()
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts:
                continue
            h.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()


def _current(stamp: Path, value: str) -> bool:
    return stamp.is_file() and stamp.read_text(encoding="utf-8") == value


def _run(argv: list[str], what: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=STEP_TIMEOUT)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
        raise InstallError(f"{what} failed (exit {result.returncode}): " + " | ".join(tail))


def python_env(root: Path) -> dict[str, str]:
    """The environment for the copied Python: its shared library is found in the copy, not in /root."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = str(root / "python" / "lib")
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def copy_python(root: Path) -> Path:
    """``root/python``: a copy of this Python's installation (standard library, no site-packages)."""
    source = Path(sys.base_prefix)
    target = root / "python"
    version = f"{sys.version}\n{source}"
    stamp = root / ".python-stamp"
    if not _current(stamp, version):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, ignore=PYTHON_IGNORE, symlinks=True)
        minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
        (target / "lib" / minor / "site-packages").mkdir()
        stamp.write_text(version, encoding="utf-8")
    return target / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def make_venv(root: Path, checkout: Path) -> Path:
    """``root/venv`` with requirements.txt and the course (a wheel of ``checkout``); its python returned."""
    python = copy_python(root)
    venv = root / "venv"
    env = python_env(root)
    requirements = checkout / "requirements.txt"
    req_stamp, course_stamp = venv / ".requirements-stamp", venv / ".course-stamp"
    req_digest = digest([requirements]) + str(python)
    if not _current(req_stamp, req_digest):
        shutil.rmtree(venv, ignore_errors=True)
        _run([str(python), "-m", "venv", str(venv)], "creating the hub's venv", env)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        _run([*pip, "-r", str(requirements)], "pip install -r requirements.txt into the hub's venv", env)
        req_stamp.write_text(req_digest, encoding="utf-8")
    inputs = [checkout / "pyproject.toml", checkout / "README.md", checkout / "lesson_lib", checkout / "data"]
    course_digest = digest(inputs)
    if not _current(course_stamp, course_digest):
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
               "--force-reinstall"]
        what = "pip install . (the course, as a wheel) into the hub's venv"
        _run([*pip, str(checkout)], what, env, checkout)
        course_stamp.write_text(course_digest, encoding="utf-8")
    for path in [root, root / "python", venv]:
        os.chmod(path, 0o755)
    return venv / "bin" / "python"


def copy_hub_side(root: Path) -> Path:
    """``root/config/boundary_lab_hub``: the modules the hub's configuration imports (root only)."""
    package = root / "config" / "boundary_lab_hub"
    package.mkdir(parents=True, exist_ok=True)
    os.chmod(root / "config", 0o700)
    (package / "__init__.py").write_text('"""The hub side of make hub, copied from tools/classroom/."""\n')
    for name in HUB_SIDE:
        shutil.copy2(HERE / name, package / name)
    return package


def proxy_command(checkout: Path) -> Path:
    """configurable-http-proxy as ``npm ci`` installed it in ``checkout/hub`` (run by the hub, as root)."""
    path = checkout / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
    if not os.access(path, os.X_OK):
        raise InstallError(f"{path} is missing: run `npm ci` in {checkout / 'hub'} (make hub does)")
    return path
