"""Timing, fitting and the machine description: the small tools every benchmark shares.

The machine running the benchmark is shared (other jobs, 2 cores), so a measurement is the median of
several runs, and conclusions are drawn from ratios measured in the same run, never from one timing.
Timings are the CPU time of this process (:data:`CLOCK`), not wall-clock time: the work measured is pure
computation in one thread, and time spent waiting while another job had the CPU is then not counted.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The benchmarks' clock: CPU time of this process. On a loaded 2-core machine, wall-clock runs of the same
#: work spread by +-30 % or more; CPU-time runs by a few percent.
CLOCK = time.process_time


@dataclass(frozen=True)
class Timing:
    """``repeats`` timings (CPU seconds, :data:`CLOCK`) of the same work."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def spread(self) -> float:
        """(max - min) / median: how noisy this measurement was."""
        return (max(self.runs) - min(self.runs)) / self.median if self.median else 0.0


def measure(work: Callable[[], object], repeats: int = 5, warmup: int = 0) -> Timing:
    """Run ``work()`` ``warmup`` times untimed, then ``repeats`` times timed with :data:`CLOCK`.

    The garbage collector is collected before and disabled during each run, so a collection triggered by
    earlier allocations is not charged to this one.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    for _ in range(warmup):
        work()
    runs = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start = CLOCK()
            work()
            runs.append(CLOCK() - start)
        finally:
            gc.enable()
    return Timing(tuple(runs))


def ns_per_byte(seconds: float, size: int) -> float:
    return seconds * 1e9 / size


def fit_exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(time) against log(size): ``k`` in ``time ∝ size**k``."""
    if len(sizes) != len(seconds) or len(sizes) < 2:
        raise ValueError("need at least two (size, time) points")
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def cpu_model() -> str:
    """The CPU's marketing name, from /proc/cpuinfo on Linux, else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def lesson_lib_version() -> str:
    """The commit measured, and whether lesson_lib had uncommitted changes (other people edit it)."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "lesson_lib"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"git {commit}" + (" with uncommitted changes in lesson_lib/" if dirty else "")


def environment() -> dict[str, str]:
    """What the numbers depend on, printed at the top of every result."""
    env = {
        "Python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "Platform": platform.platform(),
        "CPU": f"{cpu_model()} ({os.cpu_count()} logical cores)",
    }
    env["lesson_lib"] = lesson_lib_version()
    if hasattr(os, "getloadavg"):  # how busy the machine was when the run started
        env["Load average"] = " / ".join(f"{load:.2f}" for load in os.getloadavg()) + " (1 / 5 / 15 min)"
    return env


def sigint_at_default() -> None:
    """A ``preexec_fn`` for a child that is stopped with Ctrl-C (SIGINT): SIGINT back at its default action.

    A program started in the background by a non-interactive shell (``make bench &``, a CI step, a
    ``nohup``'d script) inherits SIGINT ignored, and a child it starts inherits that too: the child's
    Python then never installs its Ctrl-C handler, and SIGINT does nothing. Measured: ``faults_load``'s
    server, started from a backgrounded ``make bench``, was killed after 30 s in two full runs, and stopped at
    once (130) in the foreground."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def human_bytes(size: float) -> str:
    """``65536`` -> ``64 KiB``; ``4194304`` -> ``4 MiB`` (binary units, as the sizes are chosen)."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024 or unit == "GiB":
            return f"{size:g} {unit}" if unit == "B" else f"{size:.3g} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def markdown_table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    """A markdown table as a list of lines. ``align`` has one letter per column, ``l`` or ``r``; columns
    it does not cover are right-aligned (they hold numbers)."""
    rules = ["---" if align[i : i + 1] == "l" else "---:" for i in range(len(header))]
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(rules) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def package_versions(names: Sequence[str]) -> dict[str, str]:
    """The installed version of each distribution (``"not installed"`` if it is not)."""
    from importlib import metadata

    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


#: Seed of the order in which :func:`measure_interleaved` runs the pieces of work in each round.
ORDER_SEED = 13


def measure_interleaved(works: dict[str, Callable[[], object]], repeats: int = 5) -> dict[str, Timing]:
    """Time several pieces of work in rounds: run 1 of each, then run 2 of each, and so on.

    When the machine slows down or speeds up halfway (another job starts), every piece of work sees
    the same conditions, so the ratios between them stay meaningful. Each round runs the pieces in a new
    order (a shuffle seeded with :data:`ORDER_SEED`, the same on every run of the benchmark): in one fixed
    order a piece always follows the same neighbour (its garbage, its caches) and always sits at the same
    point of the round, which can bias ratios by 10-20 % on this shared machine.
    """
    names = list(works)
    order = random.Random(ORDER_SEED)
    runs: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(repeats):
        order.shuffle(names)
        for name in names:
            runs[name].extend(measure(works[name], repeats=1).runs)
    return {name: Timing(tuple(times)) for name, times in runs.items()}


@dataclass(frozen=True)
class Bracketed:
    """One round of :func:`measure_bracketed`: the base's runs, and each work's time and ratio."""

    base_runs: tuple[float, ...]
    times: dict[str, float]
    ratios: dict[str, float]
    """Each work's time / the mean of the base's two runs just before and just after it."""


def measure_bracketed(
    base: Callable[[], object], works: dict[str, Callable[[], object]], order: random.Random
) -> Bracketed:
    """One round: ``base``, then each work (in an order shuffled with ``order``) followed by ``base`` again.

    Each work's ratio is taken to the base runs on either side of it, seconds apart, so a machine whose
    speed drifts (this one is a shared virtual machine: the CPU time of the same work moves by tens of
    percent within a minute) changes both sides of the ratio alike, and a steady drift cancels out. In
    rounds of every work of every stream (:func:`measure_interleaved`), a work and the base could run a
    minute apart: the same ratio then spread from 0.6 to 2.1 over five rounds, where bracketed it spread
    by 0.1 to 0.4 (``benchmarks/README.md``).
    """
    names = list(works)
    order.shuffle(names)
    before = measure(base, repeats=1).runs[0]
    base_runs = [before]
    times, ratios = {}, {}
    for name in names:
        times[name] = measure(works[name], repeats=1).runs[0]
        after = measure(base, repeats=1).runs[0]
        base_runs.append(after)
        ratios[name] = times[name] / ((before + after) / 2)
        before = after
    return Bracketed(tuple(base_runs), times, ratios)
