"""Score the clients people use over the whole fault catalogue: ``docs/fault_scores.json`` and ``.md``.

Starts a fault server in a process of its own (``fault_server_process``: 127.0.0.1, a free port), lists its
catalogue (``GET /faults``) and runs every client of ``lesson_lib.teach.fault_clients`` over it (the clients
at once, each in a process of its own, each one's faults in catalogue order), then writes the scores as JSON
and as the Markdown table (faults by lesson, clients as columns, a legend, totals). Both are deterministic: no
timings, addresses or answer text; the same clients on the same catalogue write the same bytes.

Usage: ``python tools/score_clients.py [--out DIR] [--check]``. ``--out`` (default ``docs``) is where the
two files go; ``--check`` writes nothing and exits 1, naming the file, if what the clients do now differs
from what is committed there. Bad arguments, or a tree without the fault server, exit 2 with one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
JSON_NAME = "fault_scores.json"
MARKDOWN_NAME = "fault_scores.md"


def render(data: dict[str, Any]) -> dict[str, str]:
    """The two files' text, by name."""
    from lesson_lib.teach.fault_scores import scores_markdown

    return {
        JSON_NAME: json.dumps(data, ensure_ascii=False, indent=1) + "\n",
        MARKDOWN_NAME: scores_markdown(data),
    }


def measure() -> dict[str, Any]:
    """Every client over the catalogue of a fault server started for the purpose, in a process of its own."""
    from lesson_lib.teach.fault_scores import fault_server_process, score_server

    with fault_server_process() as url:
        return score_server(url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the two files go (docs)")
    parser.add_argument("--check", action="store_true", help="compare with the files there, write nothing")
    args = parser.parse_args(argv)
    if not args.out.is_dir():
        print(f"score_clients: --out {args.out} is not a directory", file=sys.stderr)
        return 2
    try:
        data = measure()
    except (ImportError, RuntimeError) as exc:
        print(f"score_clients: cannot start the fault server ({exc})", file=sys.stderr)
        return 2
    files = render(data)
    if args.check:
        stale = [name for name, text in files.items() if _read(args.out / name) != text]
        for name in stale:
            print(f"score_clients: {args.out / name} is not what the clients do now", file=sys.stderr)
        return 1 if stale else 0
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    totals = data["totals"]
    for client in data["clients"]:
        counts = ", ".join(f"{cls} {count}" for cls, count in totals[client].items() if count)
        print(f"{client}: {counts}")
    return 0


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
