"""Issue 27: a reader slower than the upstream, through lesson_lib's relay: is the relay's memory bounded?

A fast upstream (:class:`CountingUpstream`: ``size`` bytes of SSE, written as fast as TCP takes them, with
a count of the body bytes the kernel accepted) feeds a :class:`~lesson_lib.net.relay.RelayServer` run in a
subprocess (so its resident set size is its own); a raw-socket client with a small ``SO_RCVBUF`` reads
``read_size`` bytes every ``interval`` seconds (1 byte a second, scaled). Every ``sample_every`` seconds
:func:`measure` records the bytes the client has read, the bytes the upstream has sent, their difference
(the upstream's lead: what sits in socket buffers and in the relay) and the relay's RSS.

:func:`measure` takes the URL the slow reader reads and a function that counts the upstream's progress,
so the same measurement runs with a proxy between the client and the relay (the proxy's URL instead).

``python -m benchmarks.relay_backpressure [--quick]`` prints the table and writes
``benchmarks/results/relay_backpressure.json`` (``.json.tmp`` for ``--quick``, ignored by git).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psutil

from .harness import environment, human_bytes
from .harness import markdown_table as _table

KiB, MiB = 1024, 1024 * 1024
RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parent.parent


class CountingUpstream:
    """An HTTP/1.1 SSE upstream on 127.0.0.1 at a free port that counts its progress.

    Each request gets ``size`` bytes (rounded up to whole events) of openai-chat chunks (``data:`` events,
    a text delta of ``x`` each) of ``event_size`` bytes, and no ``[DONE]``, chunked, ``write_size`` bytes
    per ``sendall``, as fast as the peer's TCP window allows (``sndbuf``: ``SO_SNDBUF`` of each
    connection, else the kernel's autotuning). :attr:`sent` is the body bytes ``sendall`` has returned
    for (the kernel took them); :attr:`closed` the responses that ended (finished, or the peer closed);
    :attr:`finished` those that
    wrote their whole body."""

    def __init__(
        self, size: int, *, event_size: int = 1024, write_size: int = 16 * KiB, sndbuf: int | None = None
    ) -> None:
        head, tail = b'data: {"choices":[{"index":0,"delta":{"content":"', b'"}}]}\n\n'
        if event_size < len(head) + len(tail) + 1:
            raise ValueError(f"event_size must be at least {len(head) + len(tail) + 1}, got {event_size}")
        self.event = head + b"x" * (event_size - len(head) - len(tail)) + tail  # an openai-chat chunk
        self.events = -(-size // len(self.event))
        self.write_size, self.sndbuf = write_size, sndbuf
        self._lock = threading.Lock()
        self._sent = self._closed = self._finished = 0
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.05)  # accept() polls, so stop() ends it at once
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()

    @property
    def body_size(self) -> int:
        return self.events * len(self.event)

    def start(self) -> CountingUpstream:
        thread = threading.Thread(target=self._accept, name="CountingUpstream", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._sock.close()
        for thread in self._threads:
            thread.join(5)

    def __enter__(self) -> CountingUpstream:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/stream"

    @property
    def sent(self) -> int:
        with self._lock:
            return self._sent

    @property
    def closed(self) -> int:
        with self._lock:
            return self._closed

    @property
    def finished(self) -> int:
        with self._lock:
            return self._finished

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _serve(self, conn: socket.socket) -> None:
        if self.sndbuf is not None:  # a fixed send buffer (the kernel doubles it; no autotuning)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.sndbuf)
        try:
            head = b""
            while b"\r\n\r\n" not in head:
                data = conn.recv(4096)
                if not data:
                    return
                head += data
            length = int(
                next(
                    (
                        line.split(b":")[1]
                        for line in head.lower().split(b"\r\n")
                        if line.startswith(b"content-length:")
                    ),
                    b"0",
                )
            )
            body_seen = len(head.split(b"\r\n\r\n", 1)[1])
            while body_seen < length:
                body_seen += len(conn.recv(4096))
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
            )
            per_write = max(1, self.write_size // len(self.event))
            left = self.events
            while left and not self._stopping.is_set():
                count = min(per_write, left)
                piece = self.event * count
                conn.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                left -= count
                with self._lock:
                    self._sent += len(piece)
            conn.sendall(b"0\r\n\r\n")
            with self._lock:
                self._finished += 1
        except OSError:
            pass  # the relay closed the upstream connection
        finally:
            conn.close()
            with self._lock:
                self._closed += 1


class SlowReader:
    """A raw-socket HTTP/1.1 GET of ``url`` with ``SO_RCVBUF`` set to ``rcvbuf`` before connecting; then
    :meth:`read` takes at most ``size`` bytes per call (headers included in :attr:`received`)."""

    def __init__(self, url: str, *, rcvbuf: int = 4 * KiB, timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect((parts.hostname or "127.0.0.1", parts.port or 80))
        target = parts.path + ("?" + parts.query if parts.query else "")
        self.sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode("ascii"))
        self.received = 0
        self.data = bytearray()
        self.eof = False

    def read(self, size: int, keep: bool = False) -> int:
        data = self.sock.recv(size)
        if not data:
            self.eof = True
        self.received += len(data)
        if keep:
            self.data += data
        return len(data)

    def close(self) -> None:
        self.sock.close()


@dataclass(frozen=True)
class Sample:
    seconds: float
    client_read: int
    upstream_sent: int
    lead: int
    rss: int | None


def measure(
    url_of_stream: str,
    upstream_counter: Callable[[], int],
    *,
    rss_of: Callable[[], int] | None = None,
    read_size: int = 64,
    interval: float = 0.1,
    duration: float = 20.0,
    sample_every: float = 1.0,
    rcvbuf: int = 4 * KiB,
) -> list[Sample]:
    """Read ``url_of_stream`` slowly (``read_size`` bytes every ``interval`` s for ``duration`` s) and
    sample, every ``sample_every`` s, the bytes read, ``upstream_counter()`` (the upstream's bytes sent),
    their difference and ``rss_of()`` (e.g. the relay process's RSS). Stops early at the stream's end."""
    reader = SlowReader(url_of_stream, rcvbuf=rcvbuf)
    samples: list[Sample] = []
    start = time.monotonic()
    next_sample = 0.0

    def sample(now: float) -> None:
        sent = upstream_counter()
        rss = rss_of() if rss_of is not None else None
        samples.append(Sample(round(now, 2), reader.received, sent, sent - reader.received, rss))

    try:
        while (now := time.monotonic() - start) < duration and not reader.eof:
            if now >= next_sample:
                sample(now)
                next_sample += sample_every
            reader.read(read_size)
            time.sleep(interval)
        sample(time.monotonic() - start)
    finally:
        reader.close()
    return samples


class RelayProcess:
    """``RelayServer(upstream_url, "openai-chat", upstream_method="GET")`` in a subprocess: its stream URL
    from its first line of output; stopped by closing its stdin."""

    def __init__(self, upstream_url: str, client_stall_timeout: float = 120.0) -> None:
        code = (
            "import sys\n"
            "from lesson_lib.net.relay import RelayServer\n"
            f"relay = RelayServer({upstream_url!r}, 'openai-chat', upstream_method='GET', timeout=60,"
            f" client_stall_timeout={client_stall_timeout!r}, max_lifetime=600)\n"
            "with relay:\n"
            "    print(relay.stream_url(), flush=True)\n"
            "    sys.stdin.read()\n"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        assert self.process.stdout is not None
        self.stream_url = self.process.stdout.readline().strip()
        self.psutil = psutil.Process(self.process.pid)

    def rss(self) -> int:
        return int(self.psutil.memory_info().rss)

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(15)


@dataclass(frozen=True)
class Config:
    size: int = 50 * MiB
    read_size: int = 64
    interval: float = 0.1
    duration: float = 20.0

    @classmethod
    def quick(cls) -> Config:
        return cls(size=8 * MiB, duration=5.0)


def _warm_up(relay: RelayProcess, upstream: CountingUpstream) -> int:
    """One request read fast for 1 MiB, then left (the relay closes its upstream): the relay's one-time
    costs (imports on first use, the HTTP client, the event loop's buffers) paid before the measurement;
    its RSS a second later."""
    reader = SlowReader(relay.stream_url, rcvbuf=256 * KiB)
    while reader.received < MiB and not reader.eof:
        reader.read(64 * KiB)
    reader.close()
    deadline = time.monotonic() + 10
    while upstream.closed < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    return relay.rss()


def fast_read(url: str, rss_of: Callable[[], int]) -> dict[str, float]:
    """Read ``url`` to its end as fast as it comes (1 MiB reads), sampling ``rss_of()`` after each read:
    the bytes, the seconds, the RSS before and its peak (the relay's memory with a client that keeps up)."""
    before = peak = rss_of()
    start = time.monotonic()
    reader = SlowReader(url, rcvbuf=1 << 20, timeout=60)
    try:
        while not reader.eof:
            reader.read(1 << 20)
            peak = max(peak, rss_of())
    finally:
        reader.close()
    return {
        "bytes": reader.received,
        "seconds": round(time.monotonic() - start, 2),
        "rss_before": before,
        "rss_peak": peak,
    }


def run(config: Config) -> dict[str, object]:
    """The relay directly: the samples, the upstream's final lead, RSS before and at the end."""
    with CountingUpstream(config.size) as upstream:
        relay = RelayProcess(upstream.url)
        try:
            idle_rss = relay.rss()
            warm_rss = _warm_up(relay, upstream)
            base = upstream.sent
            samples = measure(
                relay.stream_url,
                lambda: upstream.sent - base,
                rss_of=relay.rss,
                read_size=config.read_size,
                interval=config.interval,
                duration=config.duration,
            )
            fast = fast_read(relay.stream_url, relay.rss)
        finally:
            relay.stop()
    return {
        "config": asdict(config),
        "environment": environment(),
        "upstream_body": upstream.body_size,
        "rss_before": idle_rss,
        "rss_after_warm_up": warm_rss,
        "samples": [asdict(sample) for sample in samples],
        "fast_reader": fast,
    }


def report(result: dict[str, object]) -> list[str]:
    samples = result["samples"]
    assert isinstance(samples, list)
    rows = [
        [
            f"{s['seconds']:.1f}",
            human_bytes(s["client_read"]),
            human_bytes(s["upstream_sent"]),
            human_bytes(s["lead"]),
            human_bytes(s["rss"]) if s["rss"] is not None else "-",
        ]
        for s in samples
    ]
    header = ["s", "client read", "upstream sent", "upstream lead", "relay RSS"]
    return _table(header, rows, "r")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.relay_backpressure")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    config = Config.quick() if args.quick else Config()
    result = run(config)
    print("\n".join(report(result)))
    samples = result["samples"]
    assert isinstance(samples, list)
    before, warm = result["rss_before"], result["rss_after_warm_up"]
    assert isinstance(before, int) and isinstance(warm, int)
    print(f"relay RSS before any request: {human_bytes(before)}; after a 1 MiB warm-up: {human_bytes(warm)}")
    fast = result["fast_reader"]
    assert isinstance(fast, dict)
    print(
        f"then a fast reader, the whole stream ({human_bytes(fast['bytes'])} in {fast['seconds']} s): "
        f"relay RSS {human_bytes(fast['rss_before'])} before, {human_bytes(fast['rss_peak'])} at its peak"
    )
    name = "relay_backpressure.json" + (".tmp" if args.quick else "")
    (RESULTS / name).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
