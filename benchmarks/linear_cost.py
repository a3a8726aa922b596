"""Issue 2: is lesson_lib's cost linear in the bytes, whatever the reads and the line lengths?

Four sections, each a function of a :class:`Config` returning a :class:`Section` (markdown + plot data):

``cost_per_byte``  ns/byte of each parser in :data:`PARSERS` on 1-16 MiB of chat SSE, 1-byte and 64 KiB reads
``long_line``      one 4 MiB ``data:`` line against the same bytes as many short lines, 1-byte reads
``naive``          the ``buffer += chunk; buffer.split(b"\\n", 1)`` loop against lesson_lib on one long line:
                   fitted exponent k in time ∝ size**k (lesson_lib ≈ 1, the naive loop ≈ 2)
``memory``         tracemalloc peak while parsing a lazily generated 10 MiB and 100 MiB stream

To compare another parser (issue 7), add a function ``(reads, **options) -> number of events`` to
:data:`PARSERS`; ``cost_per_byte`` and ``long_line`` measure every entry.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from lesson_lib import SSEParser

from . import workloads
from .harness import fit_exponent, human_bytes, measure_interleaved, ns_per_byte
from .harness import markdown_table as _table

KiB, MiB = 1024, 1024 * 1024
#: The ratio largest/smallest size's ns/byte that still counts as flat (linear cost).
FLAT_WITHIN = 1.5
BASELINE = "read loop alone (no parser), 1-byte reads"


def lesson_lib_sse(reads: Iterable[bytes], **options: object) -> int:
    """lesson_lib's strict SSEParser: feed every read, close, return how many events were dispatched."""
    parser = SSEParser(**options)  # type: ignore[arg-type]
    feed = parser.feed
    count = 0
    for read in reads:
        count += len(feed(read))
    count += len(parser.close())
    return count


def _no_events(read: bytes) -> tuple[()]:
    return ()


def read_loop_only(reads: Iterable[bytes], **options: object) -> int:
    """The benchmark's own share of a timing: :func:`lesson_lib_sse`'s loop with a feed that does nothing."""
    feed = _no_events
    count = 0
    for read in reads:
        count += len(feed(read))
    return count


def lesson_lib_sse_replace(reads: Iterable[bytes], **options: object) -> int:
    """:func:`lesson_lib_sse` in ``errors="replace"`` mode (what ``consume(errors="replace")``, the relay's
    client and the replay server's analysis use): its reads take another path through the parser."""
    return lesson_lib_sse(reads, errors="replace", **options)


#: Parsers measured by ``cost_per_byte`` and ``long_line``: name -> (reads, **options) -> event count.
#: ``long_line`` passes ``max_line_chars``; a peer parser without that option should accept and ignore it.
PARSERS: dict[str, Callable[..., int]] = {
    "lesson_lib SSEParser": lesson_lib_sse,
    "lesson_lib SSEParser replace": lesson_lib_sse_replace,
}
#: ``cost_per_byte`` also measures one line of each size in reads of this size (issue 23: a long line in
#: 1 KiB reads was quadratic in replace mode, 235x the cost per byte from 1 MiB to 16 MiB).
LINE_READ = 1024


def naive_lines(reads: Iterable[bytes]) -> Iterator[str]:
    """THE WRONG WAY, as people write it: re-scan and re-copy a growing buffer on every read.

    ``buffer += chunk`` copies the whole unfinished line and ``b"\\n" in buffer`` scans it again, once
    per read: quadratic in the length of a line. (It also ignores CR endings; fine for this contrast.)
    """
    buffer = b""
    for chunk in reads:
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line.decode("utf-8")


def naive_line_count(reads: Iterable[bytes]) -> int:
    return sum(1 for _ in naive_lines(reads))


@dataclass(frozen=True)
class Config:
    """Sizes and repeats of one run; :meth:`quick` is the smoke-run variant (about a minute)."""

    sizes: tuple[int, ...] = (1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB)
    read_sizes: tuple[int, ...] = (1, 64 * KiB)
    repeats: int = 5
    #: Runs of the fast measurements (64 KiB reads: milliseconds each, so more noise, and cheap to repeat).
    fast_repeats: int = 9
    long_line_size: int = 4 * MiB
    #: The naive loop's sizes; lesson_lib is measured at these and then on up to ``long_line_size``.
    naive_sizes: tuple[int, ...] = (64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB)
    memory_sizes: tuple[int, int] = (10 * MiB, 100 * MiB)

    @classmethod
    def quick(cls) -> Config:
        return cls(
            sizes=(1 * MiB, 2 * MiB, 4 * MiB),
            repeats=3,
            fast_repeats=5,
            long_line_size=1 * MiB,
            naive_sizes=(32 * KiB, 64 * KiB, 128 * KiB, 256 * KiB),
            memory_sizes=(5 * MiB, 50 * MiB),
        )

    @property
    def lesson_long_sizes(self) -> list[int]:
        sizes, size = list(self.naive_sizes), self.naive_sizes[-1] * 2
        while size <= self.long_line_size:
            sizes.append(size)
            size *= 2
        return sizes


@dataclass
class Section:
    name: str
    title: str
    lines: list[str] = field(default_factory=list)  # markdown
    data: dict[str, Any] = field(default_factory=dict)  # for the plot
    ok: bool = True  # the property this section checks held

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)


def _read_label(size: int) -> str:
    return "1-byte reads" if size == 1 else f"{human_bytes(size)} reads"


def _check(actual: int, expected: int, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected}, got {actual} (the benchmark measured wrong work)")


def _run(
    parse: Callable[..., int], data: bytes, read_size: int, expected: int, what: str, **options: object
) -> None:
    """The timed work: parse ``data`` in reads of ``read_size`` and check the count (so the work was real)."""
    _check(parse(workloads.reads(data, read_size), **options), expected, what)


# -- 1. cost per byte against stream size ------------------------------------------------------------
def cost_per_byte(config: Config) -> Section:
    section = Section(
        "cost_per_byte", "Cost per byte against stream size (OpenAI-chat SSE, and one line; both modes)"
    )
    chat = {size: b"".join(workloads.chat_stream(size)) for size in config.sizes}
    line = {size: workloads.long_line_stream(size) for size in config.sizes}
    expected = {size: workloads.expected_chat(size)[0] for size in config.sizes}
    unbounded = {"max_line_chars": None, "max_event_chars": None}
    series: dict[str, list[float]] = {}
    # (label, parser, streams, read size, events per size, options)
    measured: list[tuple[str, Callable[..., int], dict[int, bytes], int, dict[int, int], dict]] = [
        (f"{name}, {_read_label(read_size)}", parser, chat, read_size, expected, {})
        for name, parser in PARSERS.items()
        for read_size in config.read_sizes
    ]
    measured += [
        (
            f"{name}, one line, {_read_label(LINE_READ)}",
            parser,
            line,
            LINE_READ,
            dict.fromkeys(line, 1),
            unbounded,
        )
        for name, parser in PARSERS.items()
    ]
    measured.append((BASELINE, read_loop_only, chat, 1, dict.fromkeys(chat, 0), {}))
    for label, parser, streams, read_size, count, options in measured:
        timings = measure_interleaved(
            {
                str(size): partial(
                    _run, parser, data, read_size, count[size], f"{label}, {size} B", **options
                )
                for size, data in streams.items()
            },
            repeats=config.repeats if read_size == 1 else config.fast_repeats,
        )
        series[label] = [ns_per_byte(timings[str(s)].median, len(streams[s])) for s in config.sizes]
    header = ["stream", *series]
    rows = [
        [human_bytes(size)] + [f"{values[i]:.1f}" for values in series.values()]
        for i, size in enumerate(config.sizes)
    ]
    ratios = {label: values[-1] / values[0] for label, values in series.items()}
    rows.append(
        [f"**ratio {human_bytes(config.sizes[-1])} / {human_bytes(config.sizes[0])}**"]
        + [f"**{ratio:.2f}**" for ratio in ratios.values()]
    )
    rows.append(["max / min over all sizes"] + [f"{max(v) / min(v):.2f}" for v in series.values()])
    section.ok = all(1 / FLAT_WITHIN <= ratios[label] <= FLAT_WITHIN for label in ratios if label != BASELINE)
    section.say(
        f"Nanoseconds per byte, median of {config.repeats} interleaved runs in 1-byte reads and "
        f"{config.fast_repeats} in larger reads; flat means linear cost. Verdict: "
        f"**{'flat' if section.ok else 'NOT flat'}** (ratio largest / smallest within {FLAT_WITHIN}x). "
        '`replace` is `errors="replace"`; the `one line` columns are one `data:` line of the stream\'s '
        f"size in {human_bytes(LINE_READ)} reads, without limits. "
        f"The last column is the benchmark's own loop (slice the next read, call a `feed` that does "
        "nothing): part of every 1-byte figure, not the parser's cost.",
        "",
        *_table(header, rows),
    )
    section.data = {"sizes": config.sizes, "series": series}
    return section


# -- 2. one long line against many short lines -------------------------------------------------------
def long_line(config: Config) -> Section:
    size = config.long_line_size
    section = Section("long_line", f"One {human_bytes(size)} line against the same bytes as short lines")
    short = workloads.short_lines_stream(size)
    streams = {
        f"one {human_bytes(size)} data: line": (workloads.long_line_stream(size), 1),
        "80-byte data: lines, one event each": (short, short.count(b"\n\n")),
    }
    options = {"max_line_chars": 2 * size}
    series: dict[str, dict[str, float]] = {}
    for name, parser in PARSERS.items():
        timings = measure_interleaved(
            {
                label: partial(_run, parser, data, 1, events, f"{name}, {label}", **options)
                for label, (data, events) in streams.items()
            },
            repeats=config.repeats,
        )
        series[name] = {
            label: ns_per_byte(timings[label].median, len(data)) for label, (data, _) in streams.items()
        }
    labels = list(streams)
    rows = [
        [
            name,
            *(f"{values[label]:.1f}" for label in labels),
            f"**{values[labels[0]] / values[labels[1]]:.2f}**",
        ]
        for name, values in series.items()
    ]
    ratios = [values[labels[0]] / values[labels[1]] for values in series.values()]
    section.ok = all(ratio <= FLAT_WITHIN for ratio in ratios)
    section.say(
        f"ns/byte in 1-byte reads (median of {config.repeats} interleaved runs), "
        f"`max_line_chars={2 * size}`. Same characters, only the line structure differs. "
        f"Verdict: **{'no penalty for long lines' if section.ok else 'long lines cost MORE per byte'}**.",
        "",
        *_table(["parser", *labels, "ratio long / short"], rows),
    )
    section.data = {"series": series}
    return section


# -- 3. the naive loop: quadratic on a long line ------------------------------------------------------
def naive(config: Config) -> Section:
    section = Section("naive", "The naive `buffer += chunk; split` loop against lesson_lib on one long line")
    streams = {size: workloads.long_line_stream(size) for size in config.lesson_long_sizes}
    options = {"max_line_chars": 2 * max(streams)}
    # lesson_lib dispatches 1 event; the naive loop yields 2 lines (the data line, the blank line).
    works = {
        f"lesson {size}": partial(_run, lesson_lib_sse, data, 1, 1, f"lesson_lib, {size} B", **options)
        for size, data in streams.items()
    }
    works |= {
        f"naive {size}": partial(_run, naive_line_count, streams[size], 1, 2, f"naive, {size} B")
        for size in config.naive_sizes
    }
    timings = measure_interleaved(works, repeats=config.repeats)
    lesson = {s: timings[f"lesson {s}"].median for s in config.lesson_long_sizes}
    slow = {s: timings[f"naive {s}"].median for s in config.naive_sizes}
    k_lesson = fit_exponent([len(streams[s]) for s in lesson], list(lesson.values()))
    k_lesson_same = fit_exponent([len(streams[s]) for s in slow], [lesson[s] for s in slow])
    k_naive = fit_exponent([len(streams[s]) for s in slow], list(slow.values()))
    rows = []
    for size in config.lesson_long_sizes:
        n = len(streams[size])
        if size in slow:
            naive_cells = [
                f"{ns_per_byte(slow[size], n):.0f}",
                f"{slow[size]:.2f}",
                f"{slow[size] / lesson[size]:.1f}x",
            ]
        else:
            naive_cells = ["not run", "not run", ""]
        rows.append(
            [human_bytes(size), f"{ns_per_byte(lesson[size], n):.0f}", f"{lesson[size]:.2f}", *naive_cells]
        )
    section.ok = k_lesson < 1.2 and k_naive > 1.6
    section.say(
        f"One `data:` line of each size then a blank line, 1-byte reads, median of {config.repeats} "
        "interleaved runs. Fitted exponent k in time ∝ size^k: "
        f"**lesson_lib k = {k_lesson:.2f}** ({human_bytes(min(lesson))} to {human_bytes(max(lesson))}; "
        f"{k_lesson_same:.2f} over the naive loop's sizes), **naive loop k = {k_naive:.2f}** "
        f"({human_bytes(min(slow))} to {human_bytes(max(slow))}).",
        "",
        *_table(
            ["line", "lesson_lib ns/byte", "lesson_lib s", "naive ns/byte", "naive s", "naive / lesson_lib"],
            rows,
        ),
        "",
        f"The naive loop is not run past {human_bytes(max(slow))}: its cost per byte doubles with every "
        f"doubling of the line, so {human_bytes(max(lesson))} would take about "
        f"{slow[max(slow)] * (max(lesson) / max(slow)) ** k_naive:.0f} s (extrapolated from the fit).",
    )
    section.data = {
        "lesson": lesson,  # nominal line size -> median seconds
        "naive": slow,
        "k_lesson": k_lesson,
        "k_naive": k_naive,
    }
    return section


# -- 4. peak memory against stream size ---------------------------------------------------------------
def peak_memory(total_bytes: int, read_size: int = 64 * KiB) -> tuple[int, int, int]:
    """Parse a lazily generated chat stream, discarding events: ``(peak traced bytes, bytes, events)``."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        size = 0  # how many bytes went through, without keeping them

        def counting(stream: Iterable[bytes]) -> Iterator[bytes]:
            nonlocal size
            for read in stream:
                size += len(read)
                yield read

        events = lesson_lib_sse(counting(workloads.reads(workloads.chat_stream(total_bytes), read_size)))
        return tracemalloc.get_traced_memory()[1] - base, size, events
    finally:
        tracemalloc.stop()


def memory(config: Config) -> Section:
    small, large = config.memory_sizes
    section = Section("memory", "Peak memory against stream size (64 KiB reads, events discarded)")
    rows, peaks = [], {}
    for total in (small, large):
        peak, size, events = peak_memory(total)
        peaks[size] = peak
        rows.append([human_bytes(size), f"{events:,}", f"{peak / KiB:,.0f} KiB"])
    ratio = peaks[max(peaks)] / peaks[min(peaks)]
    section.ok = ratio <= FLAT_WITHIN
    rows.append([f"**ratio {human_bytes(large)} / {human_bytes(small)}**", "", f"**{ratio:.2f}**"])
    section.say(
        "tracemalloc peak of Python allocations above the starting point, while the stream is generated "
        "lazily, cut into reads and parsed (the generator and the reads included). "
        f"Verdict: **{'the peak does not grow' if section.ok else 'the peak GROWS with the stream'}**.",
        "",
        *_table(["stream", "events", "peak"], rows),
    )
    section.data = {"peaks": peaks}
    return section


SECTIONS: dict[str, Callable[[Config], Section]] = {
    "cost_per_byte": cost_per_byte,
    "long_line": long_line,
    "naive": naive,
    "memory": memory,
}


# -- report -------------------------------------------------------------------------------------------
def render(sections: list[Section], environment: dict[str, str], quick: bool) -> str:
    """The markdown report: the machine, then every section that ran."""
    out = ["# Linear cost of lesson_lib's SSE parser", ""]
    out += [f"- {key}: {value}" for key, value in environment.items()]
    out += [
        f"- Run: `python -m benchmarks{' --quick' if quick else ''}`; "
        "timings are medians of interleaved runs (each round in a new order, shuffled from a fixed seed) "
        "on a shared machine, compare ratios, not absolutes."
    ]
    for section in sections:
        out += ["", f"## {section.title}", "", *section.lines]
    return "\n".join(out) + "\n"


def plot(sections: list[Section], path: str, quick: bool) -> None:
    """One PNG, one panel per section (a section that did not run says so)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ran = {section.name: section for section in sections}
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), dpi=100)
    panels = dict(zip(SECTIONS, axes.flat, strict=True))
    for name, ax in panels.items():
        if name not in ran:
            ax.text(0.5, 0.5, f"{name}: not run", ha="center", va="center", transform=ax.transAxes)
            ax.set_axis_off()
    if "cost_per_byte" in ran:
        ax, data = panels["cost_per_byte"], ran["cost_per_byte"].data
        sizes = [s / MiB for s in data["sizes"]]
        for label, values in data["series"].items():
            style = {"linestyle": "--", "color": "grey"} if label == BASELINE else {}
            ax.plot(sizes, values, marker="o", label=label, **style)
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="stream size (MiB)",
            ylabel="ns per byte",
            title="1. Cost per byte against stream size (flat = linear)",
        )
        ax.minorticks_off()
        ax.set_xticks(sizes, [f"{s:g}" for s in sizes])
        ax.legend(fontsize=8)
    if "long_line" in ran:
        ax, series = panels["long_line"], ran["long_line"].data["series"]
        width = 0.8 / len(series)
        for number, (name, values) in enumerate(series.items()):
            xs = [i + (number - (len(series) - 1) / 2) * width for i in range(len(values))]
            bars = ax.bar(xs, list(values.values()), width=width, label=name)
            ax.bar_label(bars, fmt="%.0f", fontsize=8)
            ax.set_xticks(range(len(values)), list(values), fontsize=8)
        ax.set(ylabel="ns per byte (1-byte reads)", title="2. One long line against many short lines")
        ax.legend(fontsize=8)
    if "naive" in ran:
        ax, data = panels["naive"], ran["naive"].data
        for key, label, k in (
            ("lesson", "lesson_lib SSEParser", data["k_lesson"]),
            ("naive", "naive buffer += chunk; split", data["k_naive"]),
        ):
            points = data[key]
            ax.plot(
                [s / KiB for s in points], list(points.values()), marker="o", label=f"{label} (k = {k:.2f})"
            )
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="length of the one line (1-byte reads)",
            ylabel="seconds",
            title="3. Time against line length: time ∝ size^k",
        )
        ax.minorticks_off()
        ax.set_xticks([s / KiB for s in data["lesson"]], [human_bytes(s) for s in data["lesson"]], fontsize=8)
        ax.legend(fontsize=8)
    if "memory" in ran:
        ax, peaks = panels["memory"], ran["memory"].data["peaks"]
        labels = [human_bytes(size) for size in peaks]
        bars = ax.bar(labels, [peak / KiB for peak in peaks.values()], color="tab:green")
        ax.bar_label(bars, fmt="%.0f KiB", fontsize=8)
        ax.set(
            xlabel="stream size (64 KiB reads)",
            ylabel="tracemalloc peak (KiB)",
            title="4. Peak memory against stream size",
        )
    fig.suptitle("lesson_lib: cost linear in the bytes" + (" (quick run)" if quick else ""))
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
