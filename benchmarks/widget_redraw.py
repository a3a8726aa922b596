"""How long CutExplorer takes to redraw when the learner moves a cut (a script, not a test).

A 200-byte text (ASCII, accented Latin, CJK, emoji) is shown in a CutExplorer; the cuts are then changed
through the ``cuts`` property (what dragging a slider does, via the same update path) to seeded random
sets of 1 to 4 cuts, and each full update is timed: both decodes, the U+FFFD count, the HTML, and the
PNG of the byte strip. Target: median under 50 ms.

    .venv/bin/python benchmarks/widget_redraw.py [--repeats N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lesson_lib.teach.widgets import CutExplorer

TARGET_MS = 50.0


def sample_text(length: int = 200) -> bytes:
    """Exactly ``length`` bytes of mixed text, cut at a character boundary (padded with ASCII)."""
    base = 'Streaming 你好世界, café naïve Ångström 🙂🚀 第二行 — data: {"delta": "é"}\n'
    data = b""
    for ch in base * 10:
        encoded = ch.encode("utf-8")
        if len(data) + len(encoded) > length:
            break
        data += encoded
    return data + b"." * (length - len(data))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()

    data = sample_text()
    assert len(data) == 200
    rng = random.Random(2026)
    cut_sets = [sorted(rng.sample(range(1, len(data)), rng.randint(1, 4))) for _ in range(args.repeats)]

    start = time.perf_counter()
    explorer = CutExplorer(data, cuts=[100])
    first_ms = (time.perf_counter() - start) * 1000
    for cuts in cut_sets[:3]:  # warm up caches (fonts, text layout)
        explorer.cuts = cuts

    times = []
    for cuts in cut_sets:
        start = time.perf_counter()
        explorer.cuts = cuts
        times.append((time.perf_counter() - start) * 1000)

    slider_times = []
    slider = explorer.controls.sliders[0]
    for position in range(1, 1 + args.repeats):
        start = time.perf_counter()
        slider.value = position  # a drag step
        slider_times.append((time.perf_counter() - start) * 1000)

    median = statistics.median(times)
    print(f"CutExplorer on {len(data)} bytes: first draw (builds the cached strip) {first_ms:.1f} ms")
    print(
        f"redraw when the cuts change: median {median:.1f} ms, "
        f"p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, max {max(times):.1f} ms ({len(times)} runs)"
    )
    print(f"redraw per slider drag step: median {statistics.median(slider_times):.1f} ms")
    print(f"target median < {TARGET_MS:.0f} ms: {'met' if median < TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
