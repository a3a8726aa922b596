"""One real hub for the module (tools/classroom), with two learner accounts, on 127.0.0.1.

It needs root (useradd, cgroups), npm (configurable-http-proxy from hub/package-lock.json) and, for the
page test, Debian's Chromium. Without them the tests are skipped, naming what is missing, except in CI
(``CI`` set), where that is a failure. The hub root (``BOUNDARY_LAB_HUB_TEST_ROOT``, default
/srv/boundary-lab-hub-tests) is kept between runs: the first run builds its venv (minutes), later runs reuse
it. The hub runs with the learners' progress records on (``--progress``). The accounts and their cgroups are
removed after the module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from classroom import learners  # noqa: E402
from classroom.cgroups import detect  # noqa: E402
from classroom.server import Classroom, Settings  # noqa: E402

LEARNERS = ["bltest1", "bltest2"]
MEMORY_MIB = 512  # lesson 01 needs about 231 MiB (server and kernel); the memory test asks for more
CULL_TIMEOUT = 30


def missing() -> str | None:
    """Why the hub cannot run here, or None."""
    if os.geteuid() != 0:
        return "the hub tests need root (useradd, cgroups): run them as root (.ci/run does)"
    for program in ("useradd", "npm", "node"):
        if shutil.which(program) is None:
            return f"the hub tests need {program}: `apt-get install passwd nodejs npm`"
    return None


def require_hub() -> None:
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI is set: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def classroom() -> Iterator[Classroom]:
    require_hub()
    if not (ROOT / "hub" / "node_modules" / ".bin" / "configurable-http-proxy").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT / "hub",
                       check=True, capture_output=True)
    root = Path(os.environ.get("BOUNDARY_LAB_HUB_TEST_ROOT", "/srv/boundary-lab-hub-tests"))
    settings = Settings(checkout=ROOT, learners=LEARNERS, root=root, memory_mib=MEMORY_MIB,
                        cull_timeout=CULL_TIMEOUT, cull_every=5, activity_interval=5, progress=True)
    room = Classroom(settings)
    try:
        room.prepare()
        room.start()
        yield room
    finally:
        room.stop()
        for name in LEARNERS:
            learners.remove_account(name)
        controller, _ = detect()
        if controller is not None:
            for name in LEARNERS:
                controller.remove(name)
