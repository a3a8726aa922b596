"""Measure the proxy matrix: ``docs/proxy_matrix.json`` and ``docs/proxy_matrix.md``.

Starts, for every row of ``lesson_lib.teach.proxy_matrix.ROWS``, a ``ReplayServer`` upstream and a real
proxy (nginx, Caddy, mitmproxy; or none, the ``direct`` baseline) on 127.0.0.1 at free ports, reads the
stream with one client (lesson_lib, the official ``openai`` SDK, the SDK behind lesson_lib's guard), and
writes what was seen as JSON and as a Markdown table, with the versions of the programs. Both files hold
classes only (``streamed`` / ``at once``, ``one`` / ``several`` reads...), no timings, ports or text: the
same programs on the same rows write the same bytes.

Usage: ``python tools/proxy_matrix.py [--out DIR] [--check]``. ``--out`` (default ``docs``) is where the
two files go; ``--check`` writes nothing and exits 1, naming the file and the rows, if what the proxies do
now differs from what is committed there. Bad arguments, or a missing proxy program, exit 2 with one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
JSON_NAME = "proxy_matrix.json"
MARKDOWN_NAME = "proxy_matrix.md"


def render(data: dict[str, Any]) -> dict[str, str]:
    """The two files' text, by name."""
    from lesson_lib.teach.proxy_matrix import matrix_markdown

    return {
        JSON_NAME: json.dumps(data, ensure_ascii=False, indent=1) + "\n",
        MARKDOWN_NAME: matrix_markdown(data),
    }


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _differences(old_text: str | None, new: dict[str, Any]) -> list[str]:
    try:
        old = json.loads(old_text) if old_text is not None else {}
    except ValueError:
        return ["the committed JSON does not parse"]
    old_rows = old.get("rows", []) if isinstance(old, dict) else []
    found = [
        f"row {i}: {o} -> {n}" for i, (o, n) in enumerate(zip(old_rows, new["rows"], strict=False)) if o != n
    ]
    if len(old_rows) != len(new["rows"]):
        found.append(f"{len(old_rows)} rows committed, {len(new['rows'])} measured")
    if isinstance(old, dict) and old.get("versions") != new["versions"]:
        found.append(f"versions: {old.get('versions')} -> {new['versions']}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the two files go (docs)")
    parser.add_argument("--check", action="store_true", help="compare with the files there, write nothing")
    args = parser.parse_args(argv)
    if not args.out.is_dir():
        print(f"proxy_matrix: --out {args.out} is not a directory", file=sys.stderr)
        return 2
    from lesson_lib.net.proxies import ProxyUnavailable, find_executable
    from lesson_lib.teach.proxy_matrix import matrix_json, measure

    try:
        for kind in ("nginx", "caddy", "mitmproxy"):  # before any row runs: one line, not a traceback
            find_executable(kind)
        data = matrix_json(measure())
    except ProxyUnavailable as exc:
        print(f"proxy_matrix: {exc}", file=sys.stderr)
        return 2
    files = render(data)
    if args.check:
        stale = [name for name, text in files.items() if _read(args.out / name) != text]
        for name in stale:
            print(f"proxy_matrix: {args.out / name} is not what the proxies do now", file=sys.stderr)
        for line in _differences(_read(args.out / JSON_NAME), data) if stale else []:
            print(f"  {line}", file=sys.stderr)
        return 1 if stale else 0
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"proxy_matrix: {len(data['rows'])} rows written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
