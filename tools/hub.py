"""``make hub``: the course on a JupyterHub on 127.0.0.1, for N learners, each with an OS account.

Usage: ``python tools/hub.py --learners 3`` (or ``--learners alice,bob``) ``[--port P] [--root DIR]
[--memory-mib M] [--cull-timeout S] [--progress]``; ``make hub LEARNERS=3 PORT=8000
HUB_ROOT=/srv/boundary-lab-hub PROGRESS=1``.

Needs root (it creates one OS account per learner with useradd, and a memory cgroup per learner). It
makes the hub root current (``tools/classroom/install.py``), creates the accounts and their notebook
copies, gives each learner a new random password, prints the hub's URL and each learner's login (also
kept, mode 0600, in ``<root>/learners.txt``), and runs the hub until Ctrl-C, which stops the hub and every
learner's server. ``--progress`` turns on the learners' progress records (``BOUNDARY_LAB_PROGRESS`` set
to ``~/.boundary-lab`` for their kernels; off without it), which ``tools/progress_view.py`` shows. A bad
argument fails before anything is written, naming the argument; a failed step prints one line, never a
traceback, and exits 2.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import install, learners
from classroom.server import DEFAULT_ROOT, PASSWORDS, Classroom, Settings

ROOT = Path(__file__).resolve().parent.parent


class UsageError(ValueError):
    pass


def check_arguments(argv: list[str] | None = None) -> tuple[Settings, bool]:
    """The settings, or UsageError naming the bad argument; nothing is read or written before this."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", required=True, help="a count (3) or names (alice,bob)")
    parser.add_argument("--port", default="0", help="the hub's port on 127.0.0.1 (default: a free port)")
    parser.add_argument("--root", default=str(DEFAULT_ROOT), help=f"the hub root (default {DEFAULT_ROOT})")
    parser.add_argument("--memory-mib", default="1024", help="memory limit per learner in MiB (default 1024)")
    parser.add_argument("--cull-timeout", default="3600", help="seconds idle before a server is stopped")
    parser.add_argument("--progress", action="store_true",
                        help="record each learner's check() calls in ~/.boundary-lab (off by default)")
    parser.add_argument("--check", action="store_true", help="check the arguments only, then exit")
    args = parser.parse_args(argv)
    try:
        names = learners.parse_learners(args.learners)
    except learners.LearnerError as exc:
        raise UsageError(f"--learners: {exc}") from None
    settings = Settings(checkout=ROOT, learners=names)
    for option, value, low, high in (("--port", args.port, 0, 65535), ("--memory-mib", args.memory_mib, 64,
                                      1 << 20), ("--cull-timeout", args.cull_timeout, 10, 7 * 86400)):
        if not value.isdigit() or not low <= int(value) <= high:
            raise UsageError(f"{option} {value}: a whole number from {low} to {high}")
    if 0 < int(args.port) < 1024:
        raise UsageError(f"--port {args.port}: choose a port from 1024 up (or 0 for a free one)")
    settings.port, settings.memory_mib = int(args.port), int(args.memory_mib)
    settings.cull_timeout = int(args.cull_timeout)
    settings.progress = args.progress
    settings.cull_every = max(5, min(300, settings.cull_timeout // 4))
    settings.activity_interval = max(5, min(300, settings.cull_timeout // 4))
    root = Path(args.root)
    if not root.is_absolute() or root == Path("/") or len(root.parts) < 3:
        raise UsageError(f"--root {args.root}: an absolute path at least two folders deep (/srv/x)")
    if root.resolve().is_relative_to(ROOT) or ROOT.is_relative_to(root.resolve()):
        raise UsageError(f"--root {args.root}: outside the checkout (learners may not be able to enter it)")
    settings.root = root
    return settings, args.check


def main(argv: list[str] | None = None) -> int:
    try:
        settings, check_only = check_arguments(argv)
    except UsageError as exc:
        print(f"hub.py: {exc}", file=sys.stderr)
        return 2
    if check_only:
        return 0
    if os.geteuid() != 0:
        print("hub.py: needs root (useradd for one account per learner, a memory cgroup each): "
              "run `sudo make hub ...`", file=sys.stderr)
        return 2
    classroom = Classroom(settings)
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        print(f"Preparing the hub root {settings.root} (the first time: a few minutes) ...", flush=True)
        classroom.prepare()
        classroom.start()
    except (learners.LearnerError, install.InstallError, RuntimeError, OSError,
            subprocess.SubprocessError) as exc:
        classroom.stop()
        print(f"hub.py: {exc}", file=sys.stderr)
        return 2
    print(f"The hub: {classroom.url}/  (its log: {classroom.log_path})")
    print(classroom.memory_note)
    print(f"Idle servers stopped after {settings.cull_timeout} s (jupyterhub-idle-culler).")
    if settings.progress:
        homes = " ".join(os.path.expanduser(f"~{name}") for name in settings.learners)
        print("Progress records on, in each learner's ~/.boundary-lab; to see them, as root:")
        print(f"  python tools/progress_view.py {homes}")
    print(f"Logins (also in {settings.root / PASSWORDS}, mode 0600):")
    for name, password in classroom.passwords.items():
        print(f"  {name}  {password}")
    print("Ctrl-C stops the hub and every learner's server.", flush=True)
    while not stop.wait(1.0):
        if not classroom.alive():
            print(f"hub.py: the hub exited: see {classroom.log_path}", file=sys.stderr)
            classroom.stop()
            return 2
    print("Stopping the hub and the learners' servers ...", flush=True)
    classroom.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
