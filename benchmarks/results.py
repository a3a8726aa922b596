"""The committed run of ``python -m benchmarks``, read back from ``results/peers.md`` (lesson 07 prints it).

The report is markdown written by :func:`benchmarks.peers.render`; :func:`read_peers` reads the parts a
lesson quotes. A report whose shape changed (a caption or a heading renamed) gives a ``KeyError`` in the
reader's use of it, never a wrong figure: nothing is guessed.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

PEERS_MD = Path(__file__).resolve().parent / "results" / "peers.md"


class PeersRun(NamedTuple):
    """What the peers report says."""

    run: dict[str, str]
    """Its header lines (``Python``, ``CPU``, ...) and ``verdict``: the same-events check before timing."""
    ratios: dict[str, dict[str, dict[str, float]]]
    """stream -> read size (``"1 B"``) -> parser -> its time / ``SSEParser``'s (not-run cells left out)."""
    per_event: dict[str, str]
    """stream -> its bytes per event, as written."""
    long_line: dict[str, tuple[float, float]]
    """parser -> ns per byte on one 64 KiB line and on one 1 MiB line, in 64-byte reads."""


def read_peers(text: str) -> PeersRun:
    """Read a peers report (the text of ``results/peers.md``)."""
    run: dict[str, str] = {}
    ratios: dict[str, dict[str, dict[str, float]]] = {}
    per_event: dict[str, str] = {}
    long_line: dict[str, tuple[float, float]] = {}
    section, stream, table = "", None, []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if table:  # a table just ended: its header, its |---| rule, its rows
            header, rows = table[0], table[2:]
            if stream and header[1].endswith(" / lesson_lib"):
                names = [title.removesuffix(" / lesson_lib") for title in header[1:]]
                ratios[stream] = {
                    row[0]: {
                        n: float(cell) for n, cell in zip(names, row[1:], strict=True) if cell != "not run"
                    }
                    for row in rows
                }
            if section.startswith("## One long") and header[:3] == ["parser", "64 KiB line", "1 MiB line"]:
                long_line = {row[0]: (float(row[1]), float(row[2])) for row in rows}
            table = []
        if line.startswith("## "):
            section, stream = line, None
        elif line.startswith("**") and "ratio to lesson_lib" in line:
            stream = line[2 : line.index("**", 2)]
            per_event[stream] = line.split("(", 1)[1].split(" bytes per event")[0]
        elif "Verdict: **" in line and section.startswith("## Same events"):
            run["verdict"] = line.split("Verdict: **", 1)[1].split("**", 1)[0]
        elif line.startswith("- ") and ": " in line and not section:
            key, value = line[2:].split(": ", 1)
            run[key] = value
    return PeersRun(run, ratios, per_event, long_line)


def committed_peers() -> PeersRun:
    """The committed run: :data:`PEERS_MD`, read."""
    return read_peers(PEERS_MD.read_text(encoding="utf-8"))
