"""What the diagnose tests share: the command run in-process and as a subprocess, the schema, the privacy
check, and real `curl --trace` files recorded against the replay server."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from lesson_lib.cli import main
from lesson_lib.net import ReplayServer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCHEMA = ROOT / "lesson_lib" / "diagnose" / "schema.json"
CURL = Path("/usr/bin/curl")


@dataclass(frozen=True)
class Run:
    status: int
    out: str
    err: str

    @property
    def json(self) -> dict[str, Any]:
        value = json.loads(self.out)
        validate(value)
        return value


def run(*argv: str, stdin: bytes | None = None) -> Run:
    """``boundary-lab diagnose ARGV`` in this process (``main``), its streams captured."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(["diagnose", *argv])
            except SystemExit as exc:
                status = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return Run(status, out.getvalue(), err.getvalue())


def run_process(*argv: str, stdin: bytes | None = None) -> Run:
    """``python -m lesson_lib diagnose ARGV`` as a subprocess."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "lesson_lib", "diagnose", *argv],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def validate(value: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema()).validate(value)


def pieces_of(text: str, size: int = 3) -> set[str]:
    """Every ``size``-character piece of ``text`` that holds a non-ASCII character or a letter run that no
    English report could hold by chance (the report's own words are ASCII)."""
    return {text[i : i + size] for i in range(len(text) - size + 1) if not text[i : i + size].isascii()}


def assert_private(result: Run, answer: str) -> None:
    """No 3-character piece of the answer (holding a non-ASCII character) is in stdout or stderr."""
    leaked = sorted(piece for piece in pieces_of(answer) if piece in result.out or piece in result.err)
    assert not leaked, f"answer text in the output: {leaked}"


def record_trace(
    path: Path,
    body: bytes,
    cuts: list[int] = (),  # type: ignore[assignment]
    *,
    timed: bool = True,
    drop_after: int | None = None,
    delay: float = 0.0,
    url_path: str = "/v1/chat/completions",
    content_type: str = "text/event-stream; charset=utf-8",
) -> int:
    """Record ``curl -N --trace[-time]`` of ``body`` served by :class:`ReplayServer` (cut at ``cuts``, each
    piece a chunk); returns curl's exit status."""
    with ReplayServer(body, cuts, delay=delay, drop_after=drop_after, content_type=content_type) as server:
        argv = [
            str(CURL),
            "-sS",
            "-N",
            "--max-time",
            "30",
            *(["--trace-time"] if timed else []),
            "--trace",
            str(path),
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "-d",
            "{}",
            server.url + url_path,
            "-o",
            os.devnull,
        ]
        return subprocess.run(argv, capture_output=True, timeout=60, check=False).returncode


def _block(direction: str, kind: str, data: bytes, clock: float | None) -> list[str]:
    stamp = (
        ""
        if clock is None
        else f"{int(clock // 3600) % 24:02d}:{int(clock // 60) % 60:02d}:{clock % 60:09.6f} "
    )
    lines = [f"{stamp}{direction} {kind}, {len(data)} bytes (0x{len(data):x})"]
    for start in range(0, len(data), 16):
        segment = data[start : start + 16]
        hexes = "".join(f"{byte:02x} " for byte in segment)
        text = "".join(chr(byte) if 32 <= byte < 127 else "." for byte in segment)
        lines.append(f"{start:04x}: {hexes:<48}{text}")
    return lines


def chunked(pieces: list[bytes], terminator: bool = True) -> list[bytes]:
    """The pieces as HTTP/1.1 chunks (one chunk each), with the 0-length last chunk if ``terminator``."""
    out = [f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for piece in pieces if piece]
    return out + ([b"0\r\n\r\n"] if terminator else [])


def write_trace(
    path: Path,
    reads: list[bytes],
    *,
    timed: bool = True,
    chunked_body: bool = False,
    headers: tuple[str, ...] = ("Content-Type: text/event-stream; charset=utf-8",),
    ending: str = "== Info: Connection #0 to host 127.0.0.1 left intact",
    start: float = 3600.0,
    gap: float = 0.01,
) -> None:
    """A trace in ``curl --trace`` format (what curl writes), each of ``reads`` one ``<= Recv data`` block:
    the wire's bytes (already chunk-framed when ``chunked_body``)."""
    clock = start if timed else None

    def tick() -> float | None:
        nonlocal clock
        if clock is None:
            return None
        clock += gap
        return clock

    lines = [
        ("" if clock is None else "01:00:00.000000 ") + "== Info: Connected to 127.0.0.1 (127.0.0.1) port 9"
    ]
    request = b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAccept: */*\r\n\r\n"
    lines += _block("=>", "Send header", request, tick())
    response = ["HTTP/1.1 200 OK", *headers, *(["Transfer-Encoding: chunked"] if chunked_body else []), ""]
    for header in response:
        lines += _block("<=", "Recv header", header.encode("latin-1") + b"\r\n", tick())
    for read in reads:
        lines += _block("<=", "Recv data", read, tick())
    if ending:
        lines.append(("" if clock is None else "01:59:59.000000 ") + ending)
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
