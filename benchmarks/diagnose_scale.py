"""Issue 25: ``boundary-lab diagnose`` at scale: MB/s and tracemalloc peak against the input's size.

One section, :func:`scale`: each input is generated lazily to a temporary file (never held), then diagnosed
twice by :func:`lesson_lib.diagnose.diagnose` (the command's work, without printing): once timed (CPU time,
:data:`~benchmarks.harness.CLOCK`), once under tracemalloc for the peak. The inputs:

``stages, raw``         an OpenAI Chat stream whose events carry no answer text (role chunks with padding):
                        what diagnose itself holds, with nothing growing in the answer;
``stages, curl-trace``  the same body as a ``curl --trace`` file of 16 KiB reads, chunked (hex: about 4.4
                        bytes of file per body byte);
``chat, raw``           an ordinary chat stream (:func:`benchmarks.workloads.chat_stream`): its answer text
                        grows with it, and diagnose counts it without keeping it (``keep_text=False``
                        unless ``--show-text``), so its peak is flat too.

The section holds (``ok``) when, for each input, the peak at the largest size is at most
1.5 times the peak at the smallest plus 1 MiB (flat: bounded memory), and the MB/s at the largest size is
at least half that at the smallest (linear time).
"""

from __future__ import annotations

import json
import tempfile
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lesson_lib.diagnose import diagnose, open_input

from . import workloads
from .harness import CLOCK, human_bytes
from .harness import markdown_table as _table
from .linear_cost import Section

KiB, MiB = 1024, 1024 * 1024
TRACE_READ = 16 * KiB


@dataclass(frozen=True)
class Config:
    sizes: tuple[int, ...] = (8 * MiB, 32 * MiB, 128 * MiB)

    @classmethod
    def quick(cls) -> Config:
        return cls(sizes=(1 * MiB, 2 * MiB, 4 * MiB))


def _stage_event(number: int) -> bytes:
    chunk = {"id": f"c{number}", "choices": [{"index": 0, "delta": {"role": "assistant"}}], "pad": "x" * 900}
    return b"data: " + json.dumps(chunk, separators=(",", ":")).encode() + b"\n\n"


def stages_stream(total: int) -> Iterator[bytes]:
    """About ``total`` bytes of Chat chunks with no text (each a business stage), then a whole end."""
    sent, number = 0, 0
    while sent < total:
        event = _stage_event(number)
        sent += len(event)
        number += 1
        yield event
    yield b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'


def _hex_block(data: bytes, stamp: str, kind: str = "<= Recv data") -> Iterator[str]:
    yield f"{stamp}{kind}, {len(data)} bytes (0x{len(data):x})\n"
    for start in range(0, len(data), 16):
        segment = data[start : start + 16]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in segment)
        yield f"{start:04x}: {''.join(f'{b:02x} ' for b in segment):<48}{text}\n"


def as_trace(body: Iterator[bytes]) -> Iterator[bytes]:
    """``body`` as a ``curl --trace-time --trace`` file: chunked, one 16 KiB read per block."""
    head = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream", "Transfer-Encoding: chunked", ""]
    request = b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    yield "".join(_hex_block(request, "00:00:00.000000 ", "=> Send header")).encode()
    for line in head:
        yield "".join(_hex_block(line.encode() + b"\r\n", "00:00:00.001000 ", "<= Recv header")).encode()
    pending = b""
    number = 0
    for piece in body:
        pending += piece
        while len(pending) >= TRACE_READ:
            read, pending = pending[:TRACE_READ], pending[TRACE_READ:]
            number += 1
            yield "".join(_hex_block(b"%x\r\n%s\r\n" % (len(read), read), _stamp(number))).encode()
    last = (b"%x\r\n%s\r\n" % (len(pending), pending) if pending else b"") + b"0\r\n\r\n"
    yield "".join(_hex_block(last, _stamp(number + 1))).encode()
    yield b"00:00:59.000000 == Info: Connection #0 to host 127.0.0.1 left intact\n"


def _stamp(number: int) -> str:
    micros = 2000 + number * 10
    return f"00:00:{micros // 1_000_000:02d}.{micros % 1_000_000:06d} "


INPUTS: dict[str, Callable[[int], Iterator[bytes]]] = {
    "stages, raw": stages_stream,
    "stages, curl-trace": lambda size: as_trace(stages_stream(int(size / 4.4))),
    "chat, raw": lambda size: workloads.chat_stream(size),
}


def _write(path: Path, pieces: Iterator[bytes]) -> int:
    with path.open("wb") as handle:
        for piece in pieces:
            handle.write(piece)
    return path.stat().st_size


def _diagnose(path: Path) -> Any:
    return diagnose(open_input(str(path)))


def measure(name: str, size: int) -> dict[str, Any]:
    """One input of about ``size`` bytes: its size, CPU seconds, MB/s, tracemalloc peak, and the verdict."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input"
        actual = _write(path, INPUTS[name](size))
        start = CLOCK()
        result = _diagnose(path)
        seconds = CLOCK() - start
        tracemalloc.start()
        try:
            _diagnose(path)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return {
        "size": actual,
        "seconds": seconds,
        "mb_s": actual / MiB / seconds if seconds else float("inf"),
        "peak": peak,
        "outcome": result.outcome,
        "text_chars": result.values["text_chars"],
    }


def scale(config: Config) -> Section:
    section = Section("diagnose_scale", "boundary-lab diagnose: MB/s and peak memory against input size")
    section.say(
        "Each input is generated lazily to a temporary file, then `diagnose(open_input(path))` runs on it: "
        "timed (CPU time), then again under tracemalloc. `stages` streams carry no answer text, so their "
        "peak is what diagnose holds; a `chat` stream's answer text is counted, not kept "
        "(`keep_text=False` without `--show-text`), so its peak stays flat as well.",
        "",
    )
    rows: list[list[str]] = []
    results: dict[str, list[dict[str, Any]]] = {}
    for name in INPUTS:
        for size in config.sizes:
            found = measure(name, size)
            results.setdefault(name, []).append(found)
            rows.append([
                name, human_bytes(found["size"]), f"{found['mb_s']:.1f}", human_bytes(found["peak"]),
                f"{found['text_chars']:,}", found["outcome"],
            ])
    section.say(*_table(["input", "size", "MB/s", "tracemalloc peak", "answer chars", "outcome"], rows, "ll"))
    checks = []
    for name in ("stages, raw", "stages, curl-trace", "chat, raw"):
        first, last = results[name][0], results[name][-1]
        flat = last["peak"] <= 1.5 * first["peak"] + MiB
        linear = last["mb_s"] >= 0.5 * first["mb_s"]
        section.ok = section.ok and flat and linear and last["outcome"] == "completed"
        checks.append(
            f"- {name}: peak {human_bytes(first['peak'])} -> {human_bytes(last['peak'])} "
            f"({'flat' if flat else '**NOT flat**'}); MB/s {first['mb_s']:.1f} -> {last['mb_s']:.1f} "
            f"({'linear' if linear else '**NOT linear**'})"
        )
    section.say("", *checks)
    section.data["results"] = results
    return section


SECTIONS: dict[str, Callable[[Config], Section]] = {"diagnose_scale": scale}


def render(sections: list[Section], environment: dict[str, str], quick: bool) -> str:
    out = ["# boundary-lab diagnose at scale", ""]
    out += [f"- {key}: {value}" for key, value in environment.items()]
    out += [f"- Run: `python -m benchmarks{' --quick' if quick else ''} --only diagnose_scale`."]
    for section in sections:
        out += ["", f"## {section.title}", "", *section.lines]
    return "\n".join(out) + "\n"


def plot(sections: list[Section], path: str, quick: bool) -> None:
    """Two panels: MB/s and tracemalloc peak against the input's size, one line per input."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (speed, memory) = plt.subplots(1, 2, figsize=(12, 4.5), dpi=100)
    for section in sections:
        for name, found in section.data.get("results", {}).items():
            sizes = [row["size"] / MiB for row in found]
            speed.plot(sizes, [row["mb_s"] for row in found], marker="o", label=name)
            memory.plot(sizes, [row["peak"] / MiB for row in found], marker="o", label=name)
    speed.set(xlabel="input (MiB)", ylabel="MB/s (CPU time)", xscale="log")
    memory.set(xlabel="input (MiB)", ylabel="tracemalloc peak (MiB)", xscale="log", yscale="log")
    speed.legend()
    fig.suptitle("boundary-lab diagnose" + (" (--quick)" if quick else ""))
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
