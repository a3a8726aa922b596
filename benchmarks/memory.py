"""Issue 23, item 7: peak memory of one stream against its limits, lesson_lib beside the peers.

Two sections, each a function of a :class:`Config` returning a :class:`Section`:

``sse``       the SSE parsers (lesson_lib's two, httpx-sse, sseclient-py) on the inputs that cost the most
              memory per counted character: one event of many short data lines, one very long line (in
              large and in small reads), and many ordinary events; lesson_lib at its limits, which trip
``pipeline``  ``consume()`` (SSE, JSON, contract), the NDJSON parser and the JSON array parser, the same way

Every run is a fresh process (``python -m benchmarks.memory CASE``), which reports two peaks above its
starting point: tracemalloc's (Python allocations: what the parser holds) and the resident set's high-water
mark (``ru_maxrss``: what the operating system gave, allocator slack included). The inputs are generated
lazily, in reads, so neither holds the stream. Each lesson_lib row is checked against the documented bound,
:func:`lesson_lib.core.options.stream_buffer_bound` for the limits the run used; the section fails if a
tracemalloc peak is over it.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lesson_lib.core.lines import DEFAULT_MAX_LINE_CHARS
from lesson_lib.core.ndjson import DEFAULT_MAX_ELEMENT_CHARS
from lesson_lib.core.options import stream_buffer_bound
from lesson_lib.core.sse_common import DEFAULT_MAX_EVENT_CHARS

from . import workloads
from .harness import markdown_table as _table
from .linear_cost import Section

KiB, MiB = 1024, 1024 * 1024
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Config:
    """The limits of a run (a full run: lesson_lib's defaults) and the sizes of its inputs."""

    max_line_chars: int = DEFAULT_MAX_LINE_CHARS
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS
    max_element_chars: int = DEFAULT_MAX_ELEMENT_CHARS
    #: The line limit of the small-reads rows (3-byte reads of a line of Chinese: millions of reads).
    small_read_line_chars: int = 256 * KiB
    many_events_bytes: int = 8 * MiB
    #: Run the peers too (the smoke test leaves them out).
    peers: bool = True

    @classmethod
    def quick(cls) -> Config:
        return cls(
            max_line_chars=256 * KiB,
            max_event_chars=1 * MiB,
            max_element_chars=1 * MiB,
            small_read_line_chars=128 * KiB,
            many_events_bytes=1 * MiB,
        )


# -- inputs: lazy, in pieces of about 64 KiB ----------------------------------------------------------
def _repeat(unit: bytes, count: int, tail: bytes = b"") -> Iterator[bytes]:
    per = max(1, 65536 // len(unit))
    block = unit * per
    full, rest = divmod(count, per)
    for _ in range(full):
        yield block
    yield unit * rest + tail


def short_lines(value: str, over_chars: int) -> Iterator[bytes]:
    """One event of ``data:<value>`` lines whose data (each value and its LF) is just over ``over_chars``
    counted characters, then its blank line."""
    per_line = len(value) + 1
    return _repeat(f"data:{value}\n".encode(), over_chars // per_line + 1, b"\n")


def long_line(char: str, chars: int, prefix: str = "data: ", suffix: str = "\n\n") -> Iterator[bytes]:
    """One line of ``chars`` copies of ``char`` after ``prefix``."""
    yield prefix.encode()
    yield from _repeat(char.encode(), chars)
    yield suffix.encode()


def json_objects_line(chars: int) -> Iterator[bytes]:
    """One ``data:`` line whose value is the JSON array ``[{},{},...]`` of about ``chars`` characters:
    what ``json.loads`` turns into the most objects per character (a dict per 3)."""
    yield b"data: [{}"
    yield from _repeat(b",{}", max(0, (chars - 4) // 3))
    yield b"]\n\n"


WORKLOADS: dict[str, Callable[[Config], Iterator[bytes]]] = {
    "one event of `data:ab` lines, over max_event_chars": lambda c: short_lines("ab", c.max_event_chars),
    "one event of `data:中` lines, over max_event_chars": lambda c: short_lines("中", c.max_event_chars),
    "one `data:` line of emoji, over max_line_chars": lambda c: long_line("🙂", c.max_line_chars + 1),
    "one `data:` line of Chinese, over the line limit, 3-byte reads": lambda c: long_line(
        "中", c.small_read_line_chars + 1
    ),
    "many events (the chat stream)": lambda c: workloads.chat_stream(c.many_events_bytes),
    "one event: a JSON array of `{}` under max_line_chars": lambda c: json_objects_line(
        c.max_line_chars - 16
    ),
    "NDJSON: one line (a JSON string of emoji), over max_line_chars": lambda c: long_line(
        "🙂", c.max_line_chars + 1, '"', '"\n'
    ),
    "NDJSON: the same line of Chinese, 3-byte reads": lambda c: long_line(
        "中", c.small_read_line_chars + 1, '"', '"\n'
    ),
    "JSON array: one element (a string of emoji), over max_element_chars": lambda c: long_line(
        "🙂", c.max_element_chars + 1, '["', '"]'
    ),
}
SMALL_READS = 3
SSE_WORKLOADS = list(WORKLOADS)[:5]


def _read_size(workload: str) -> int:
    return SMALL_READS if "3-byte reads" in workload else 64 * KiB


# -- the parsers, each driven to the end of the input or to its limit ---------------------------------
def _limits(config: Config, workload: str) -> dict[str, int]:
    line = config.small_read_line_chars if "3-byte reads" in workload else config.max_line_chars
    return {"max_line_chars": line, "max_event_chars": config.max_event_chars}


def _lesson_sse(parser_class: Any, reads: Iterable[bytes], limits: dict[str, int]) -> str:
    from lesson_lib.core.errors import LimitExceededError

    parser = parser_class(**limits)
    events = 0
    try:
        for read in reads:
            events += len(parser.feed(read))
        events += len(parser.close())
    except LimitExceededError as error:
        return f"{error.limit} at byte {error.offset:,}"
    return f"{events:,} events"


def _peer(iterate: Callable[[Iterable[bytes]], Iterable[Any]], reads: Iterable[bytes]) -> str:
    events = sum(1 for _ in iterate(reads))
    return f"{events:,} events"


def run_parser(name: str, reads: Iterable[bytes], config: Config, workload: str) -> str:
    """Run parser ``name`` on the reads; return what it did (``"N events"`` or the limit it hit)."""
    from lesson_lib import SSEParser, consume
    from lesson_lib.core.ndjson import JSONArrayParser, NDJSONParser
    from lesson_lib.core.sse_reference import ReferenceSSEParser

    from . import peers

    limits = _limits(config, workload)
    if name == "lesson_lib":
        return _lesson_sse(SSEParser, reads, limits)
    if name == "lesson_lib reference":
        return _lesson_sse(ReferenceSSEParser, reads, limits)
    if name == "httpx-sse":
        return _peer(peers.httpx_sse_iter, reads)
    if name == "sseclient-py":
        return _peer(peers.sseclient_iter, reads)
    if name == "consume":
        result = consume(reads, "openai-chat", **limits)
        return (
            f"{result.outcome} ({result.error.limit})"
            if result.error is not None and getattr(result.error, "limit", None)
            else str(result.outcome)
        )
    if name in ("NDJSONParser", "JSONArrayParser"):
        from lesson_lib.core.errors import BoundaryError

        parser: Any = (
            NDJSONParser(max_line_chars=limits["max_line_chars"])
            if name == "NDJSONParser"
            else JSONArrayParser(max_element_chars=config.max_element_chars)
        )
        values = 0
        try:
            for read in reads:
                values += len(parser.feed(read))
            values += len(parser.close())
        except BoundaryError as error:
            return f"{getattr(error, 'limit', type(error).__name__)} at byte {error.offset:,}"
        return f"{values:,} values"
    raise KeyError(name)


def measure_case(name: str, workload: str, config: Config) -> dict[str, Any]:
    """In this process: the RSS high-water growth of one run, then the tracemalloc peak of a second."""

    def reads() -> Iterator[bytes]:
        return workloads.reads(WORKLOADS[workload](config), _read_size(workload))

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KiB
    outcome = run_parser(name, reads(), config, workload)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KiB - before
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        again = run_parser(name, reads(), config, workload)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    if again != outcome:
        raise AssertionError(f"{name} on {workload}: {outcome!r} then {again!r}")
    return {"outcome": outcome, "traced": peak, "rss": rss}


def measure(name: str, workload: str, config: Config) -> dict[str, Any]:
    """:func:`measure_case` in a fresh interpreter (so one run's high-water mark is not another's)."""
    arg = json.dumps({"name": name, "workload": workload, "config": config.__dict__})
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.memory", arg],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name} on {workload} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


# -- sections -----------------------------------------------------------------------------------------
def _mib(size: int) -> str:
    return f"{size / MiB:,.1f} MiB"


def _bound(name: str, workload: str, config: Config) -> int:
    """The documented bound for this parser, with the limits and reads this row used."""
    limits = _limits(config, workload)
    line = 0 if name == "JSONArrayParser" else limits["max_line_chars"]
    event = limits["max_event_chars"] if name.startswith("lesson_lib") or name == "consume" else 0
    element = config.max_element_chars if name == "JSONArrayParser" else 0
    return stream_buffer_bound(
        max_line_chars=line, max_event_chars=event, max_element_chars=element, read_bytes=_read_size(workload)
    )


def _grid(section: Section, config: Config, names: list[str], chosen: list[str]) -> None:
    rows, data = [], {}
    for workload in chosen:
        for name in names:
            bound = _bound(name, workload, config)
            if name == "sseclient-py" and "many events" not in workload:
                # SSEClient._read does ``data += line`` per line until the blank line: quadratic here.
                rows.append([workload, name, "not run (`data += line` per line: quadratic)", "", "", ""])
                continue
            result = measure(name, workload, config)
            data[(workload, name)] = result
            own = name.startswith("lesson_lib") or name in ("consume", "NDJSONParser", "JSONArrayParser")
            within = "" if not own else ("yes" if result["traced"] <= bound else "**NO**")
            if own and result["traced"] > bound:
                section.ok = False
            rows.append(
                [
                    workload,
                    name,
                    result["outcome"],
                    _mib(result["traced"]),
                    _mib(result["rss"]),
                    f"{within}: {_mib(bound)}, peak {result['traced'] / bound:.0%}" if own else "no limit",
                ]
            )
    section.say(
        *_table(["input", "parser", "outcome", "tracemalloc peak", "RSS growth", "within the bound"], rows)
    )
    section.data = {"results": data}


def sse(config: Config) -> Section:
    section = Section("memory_sse", "SSE parsers: peak memory of one stream at the limits")
    names = ["lesson_lib", "lesson_lib reference"] + (["httpx-sse", "sseclient-py"] if config.peers else [])
    section.say(
        f"Limits: `max_line_chars={config.max_line_chars:,}`, `max_event_chars={config.max_event_chars:,}` "
        f"(3-byte reads: `max_line_chars={config.small_read_line_chars:,}`); 64 KiB reads unless said. "
        "lesson_lib's parsers stop at the limit the input crosses; the peers have none and parse it all. "
        "Peaks are above the process's starting point; the bound is "
        "`lesson_lib.core.options.stream_buffer_bound` for the same limits and reads.",
        "",
    )
    _grid(section, config, names, SSE_WORKLOADS)
    return section


def pipeline(config: Config) -> Section:
    section = Section(
        "memory_pipeline", "consume(), NDJSON and JSON arrays: peak memory of one stream at the limits"
    )
    section.say(
        f"`consume(reads, 'openai-chat')` with the limits above; `NDJSONParser(max_line_chars=...)`, "
        f"`JSONArrayParser(max_element_chars={config.max_element_chars:,})`.",
        "",
    )
    inputs = list(WORKLOADS)
    rows = [("consume", inputs[i]) for i in (0, 2, 4, 5)]
    rows += [("NDJSONParser", inputs[6]), ("NDJSONParser", inputs[7]), ("JSONArrayParser", inputs[8])]
    sub = Section("tmp", "")
    for name, workload in rows:
        _grid(sub, config, [name], [workload])
        section.data.setdefault("results", {}).update(sub.data["results"])
        section.ok = section.ok and sub.ok
    header, rule, *body = _table(
        ["input", "parser", "outcome", "tracemalloc peak", "RSS growth", "within the bound"], []
    ) + [line for line in sub.lines if line.startswith("| ") and not line.startswith("| input")]
    section.say(header, rule, *body)
    section.say(
        "",
        "`consume` stops the short-lines event at `max_bytes_without_progress` (1 MiB of bytes "
        "without a text delta), before `max_event_chars`. The JSON array of `{}` is one event under "
        "the limits: its peak is mostly the value `json.loads` makes of it (a dict per 3 characters), "
        "which the bound does not count (it is the decoded event, not a buffer).",
    )
    return section


SECTIONS: dict[str, Callable[[Config], Section]] = {"memory_sse": sse, "memory_pipeline": pipeline}


def render(sections: list[Section], environment: dict[str, str], quick: bool) -> str:
    out = ["# Peak memory of one stream against its limits", ""]
    out += [f"- {key}: {value}" for key, value in environment.items()]
    out += [f"- Run: `python -m benchmarks{' --quick' if quick else ''}`; every cell is a fresh process."]
    for section in sections:
        out += ["", f"## {section.title}", "", *section.lines]
    return "\n".join(out) + "\n"


def plot(sections: list[Section], path: str, quick: bool) -> None:
    """One bar chart: tracemalloc peak of each parser on each SSE input (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12, 5), dpi=100)
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for section in sections:
        results.update(section.data.get("results", {}))
    names = sorted({name for _, name in results}, key=lambda n: (not n.startswith("lesson_lib"), n))
    inputs = list(dict.fromkeys(workload for workload, _ in results))
    width = 0.8 / max(1, len(names))
    for number, name in enumerate(names):
        xs, ys = [], []
        for i, workload in enumerate(inputs):
            if (workload, name) in results:
                xs.append(i + (number - (len(names) - 1) / 2) * width)
                ys.append(max(results[(workload, name)]["traced"], 1) / MiB)
        ax.bar(xs, ys, width=width, label=name)
    ax.set_yscale("log")
    ax.set_xticks(range(len(inputs)), [f"{i + 1}" for i in range(len(inputs))])
    ax.set(xlabel="input (numbered as in the tables)", ylabel="tracemalloc peak (MiB)")
    ax.set_title("Peak memory of one stream" + (" (quick run)" if quick else ""))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


if __name__ == "__main__":
    request = json.loads(sys.argv[1])
    print(json.dumps(measure_case(request["name"], request["workload"], Config(**request["config"]))))
