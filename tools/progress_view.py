"""Print who is stuck where: the instructor's view of learners' progress records (lesson_lib.exercises).

Usage: ``python tools/progress_view.py PATH... [--html] [--wrong-limit 3] [--minutes 10] [--watch SECONDS]``

Each PATH is a learner's progress file, a learner's folder or home, or a folder of one ``*.jsonl`` file per
learner (see :mod:`lesson_lib.exercises.progress_view`, which also defines "stuck"). Prints the table
(plain text, or HTML with ``--html``) and exits 0; ``--watch`` prints it again every SECONDS until Ctrl-C.
A bad argument or an unreadable path prints one line naming it on stderr and exits 2, never a traceback.
Reads only: nothing is written and nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: the lesson_lib beside this tools/ folder

from lesson_lib.exercises.progress_view import MINUTES, WRONG_LIMIT, table  # noqa: E402


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Who is stuck where, from learners' progress records.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a progress file or a folder")
    parser.add_argument("--html", action="store_true", help="print an HTML table")
    parser.add_argument("--wrong-limit", type=int, default=WRONG_LIMIT, help="attempts that make it stuck")
    parser.add_argument("--minutes", type=float, default=MINUTES, help="minutes open that make it stuck")
    parser.add_argument("--watch", type=float, metavar="SECONDS", help="print it again every SECONDS")
    return parser.parse_args(argv)


def _render(options: argparse.Namespace) -> str:
    view = table(options.paths, wrong_limit=options.wrong_limit, minutes=options.minutes)
    return view.html() if options.html else view.text()


def main(argv: list[str] | None = None) -> int:
    """Print the view; 0 when it was printed, 2 for a bad argument or path (one line on stderr)."""
    options = _arguments(sys.argv[1:] if argv is None else argv)
    if options.watch is not None and not options.watch > 0:
        print("progress_view: --watch must be a number of seconds above 0", file=sys.stderr)
        return 2
    try:
        print(_render(options), flush=True)
        while options.watch is not None:
            time.sleep(options.watch)
            print("\n" + _render(options), flush=True)
    except (OSError, ValueError) as exc:
        print(f"progress_view: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
