"""Issue 26: the fault server under load: at least 200 concurrent streams over the catalogue, no mixing,
memory flat over time.

One section, :func:`load`: ``boundary-lab faults`` runs in a subprocess (as a learner starts it); this
process opens ``concurrency`` connections, round after round, and once all are open sends on each one
catalogue entry's first request (:func:`lesson_lib.faults.examples.example_request`, the entries taken in
turn), then reads each response to its end on a raw socket. Every response is compared with the plan
the entry's ``respond`` makes of the same request (:func:`lesson_lib.faults.http1.differences`: the status,
the headers in order, each chunk, the body, the end), so a stream that got another's bytes, or lost some,
is counted.
Meanwhile the server's resident set size is sampled (psutil) every ``sample_every`` seconds.

The section holds (``ok``) when no stream failed or differed from its plan, and the RSS is flat: the
highest sample of the last half of the rounds is at most 1.2 times the highest of the first round plus
4 MiB (the first round pays for imports, buffers and the event loop's growth).
"""

from __future__ import annotations

import asyncio
import collections
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from lesson_lib.faults import CATALOGUE
from lesson_lib.faults.examples import example_request
from lesson_lib.faults.http1 import differences, parse_response
from lesson_lib.faults.plan import MAX_PLAN_SECONDS, Plan

from .harness import human_bytes, sigint_at_default
from .harness import markdown_table as _table
from .linear_cost import Section

MiB = 1024 * 1024
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Config:
    concurrency: int = 400
    rounds: int = 20
    sample_every: float = 0.1

    @classmethod
    def quick(cls) -> Config:
        return cls(concurrency=200, rounds=4)


class ServerProcess:
    """``python -m lesson_lib faults --port 0`` in a subprocess: its URL from its first line, stopped with
    Ctrl-C (SIGINT), as a learner stops it."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lesson_lib", "faults", "--port", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=sigint_at_default,  # Ctrl-C stops it even when make bench runs in the background
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if " on http://" not in first:
            self.stop()
            raise RuntimeError(f"the fault server did not start: {first!r} {self.process.stderr.read()!r}")  # type: ignore[union-attr]
        self.url = first.split(" on ", 1)[1].split()[0]
        host_port = self.url.removeprefix("http://")
        self.host, self.port = host_port.rsplit(":", 1)[0], int(host_port.rsplit(":", 1)[1])
        self.psutil = psutil.Process(self.process.pid)

    def rss(self) -> int:
        return int(self.psutil.memory_info().rss)

    def stop(self) -> tuple[int | None, str]:
        """SIGINT, then the exit status and what it wrote on standard error."""
        if self.process.poll() is None:
            self.process.send_signal(2)
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return self.process.returncode, err


def _jobs(server: ServerProcess, count: int) -> list[tuple[str, bytes, Plan]]:
    """``count`` requests over the catalogue, in turn: the entry's name, the bytes, the plan expected."""
    host = f"{server.host}:{server.port}"
    jobs = []
    for index in range(count):
        fault = CATALOGUE[index % len(CATALOGUE)]
        example = example_request(fault.contract, fault.service_path)
        plan = fault.respond(example.as_fault_request(host))
        jobs.append((fault.name, example.encode(f"/faults/{fault.name}", host), plan))
    return jobs


async def _round(server: ServerProcess, jobs: list[tuple[str, bytes, Plan]]) -> dict[str, Any]:
    """All of ``jobs`` at once; counts of errors (by type), mismatches (by fault) and bytes read."""
    errors: collections.Counter[str] = collections.Counter()
    mismatches: collections.Counter[str] = collections.Counter()
    statuses: collections.Counter[int] = collections.Counter()
    received = 0
    connected = 0
    all_connected = asyncio.Event()  # every connection is open before any request is sent

    async def one(name: str, raw: bytes, plan: Plan) -> None:
        nonlocal received, connected
        data = bytearray()
        reset = False
        try:
            async with asyncio.timeout(MAX_PLAN_SECONDS + 30):
                try:
                    reader, writer = await asyncio.open_connection(server.host, server.port)
                finally:
                    connected += 1
                    if connected == len(jobs):
                        all_connected.set()
                await all_connected.wait()
                try:
                    writer.write(raw)
                    await writer.drain()
                    while piece := await reader.read(65536):
                        data += piece
                except ConnectionResetError:
                    reset = True
                finally:
                    writer.close()
            response = parse_response(bytes(data), reset=reset)
        except Exception as exc:  # counted, by type: the load test reports, it does not stop
            errors[type(exc).__name__] += 1
            return
        received += len(data)
        statuses[response.status] += 1
        if differences(plan, response):
            mismatches[name] += 1

    start = time.monotonic()
    await asyncio.gather(*(one(*job) for job in jobs))
    return {
        "seconds": time.monotonic() - start,
        "errors": dict(errors),
        "mismatches": dict(mismatches),
        "statuses": dict(statuses),
        "bytes": received,
    }


class _Sampler(threading.Thread):
    """The server's RSS every ``every`` seconds, with the time and the round it fell in."""

    def __init__(self, server: ServerProcess, every: float) -> None:
        super().__init__(name="rss sampler", daemon=True)
        self.server, self.every = server, every
        self.samples: list[tuple[float, int, int]] = []  # (seconds since start, round, rss)
        self.round = 0
        self.done = threading.Event()
        self.start_time = time.monotonic()

    def sample(self) -> None:
        """One sample now (also taken at each round's start and end, however short the round)."""
        try:
            self.samples.append((time.monotonic() - self.start_time, self.round, self.server.rss()))
        except psutil.Error:
            self.done.set()

    def run(self) -> None:
        while not self.done.is_set():
            self.sample()
            self.done.wait(self.every)


def load(config: Config) -> Section:
    section = Section("faults_load", f"The fault server under load: {config.concurrency} concurrent streams")
    section.say(
        f"`boundary-lab faults` in a subprocess; {config.rounds} rounds of {config.concurrency} connections "
        "open at once (each request is sent once all are connected), each one catalogue entry's first "
        f"request (the {len(CATALOGUE)} entries in turn), each response read to its end on a raw socket and "
        "compared with the entry's plan: status, headers in order, each chunk, the body and the end. The "
        f"server's RSS is sampled every {config.sample_every:g} s (psutil).",
        "",
    )
    server = ServerProcess()
    sampler = _Sampler(server, config.sample_every)
    sampler.start()
    rounds = []
    try:
        for number in range(1, config.rounds + 1):
            sampler.round = number
            jobs = _jobs(server, config.concurrency)
            sampler.sample()
            rounds.append(asyncio.run(_round(server, jobs)))
            sampler.sample()
            rounds[-1]["rss"] = server.rss()
    finally:
        sampler.done.set()
        sampler.join()
        status, err = server.stop()
    rows = []
    for number, found in enumerate(rounds, 1):
        rows.append(
            [
                str(number),
                str(config.concurrency),
                f"{found['seconds']:.1f}",
                human_bytes(found["bytes"]),
                str(sum(found["errors"].values())),
                str(sum(found["mismatches"].values())),
                ", ".join(f"{code}: {n}" for code, n in sorted(found["statuses"].items())),
                human_bytes(found["rss"]),
            ]
        )
    header = [
        "round",
        "streams",
        "seconds",
        "bytes read",
        "errors",
        "differ from plan",
        "statuses",
        "RSS after",
    ]
    section.say(*_table(header, rows, "r"))
    errors = sum(sum(found["errors"].values()) for found in rounds)
    mismatched = sum(sum(found["mismatches"].values()) for found in rounds)
    first_peak = max((rss for _, number, rss in sampler.samples if number == 1), default=0)
    late = [rss for _, number, rss in sampler.samples if number > config.rounds / 2]
    late_peak = max(late, default=0)
    flat = late_peak <= 1.2 * first_peak + 4 * MiB
    section.ok = errors == 0 and mismatched == 0 and flat and status == 130
    kinds = collections.Counter[str]()
    for found in rounds:
        kinds.update(found["errors"])
    section.say(
        "",
        f"- streams: {config.rounds * config.concurrency}; errors: {errors}"
        + (f" ({', '.join(f'{k}: {n}' for k, n in kinds.items())})" if kinds else "")
        + f"; responses that differ from their plan: {mismatched}",
        f"- RSS: highest in round 1 {human_bytes(first_peak)}, highest in the last half "
        f"{human_bytes(late_peak)} ({'flat' if flat else '**NOT flat**'}); {len(sampler.samples)} samples",
        f"- the server stopped on Ctrl-C with exit status {status}"
        + (
            ""
            if not err.strip() or err.strip() == "boundary-lab faults: interrupted"
            else f"; stderr: {err.strip()[:200]!r}"
        ),
    )
    section.data = {"samples": sampler.samples, "rounds": rounds, "config": config}
    return section


SECTIONS: dict[str, Callable[[Config], Section]] = {"faults_load": load}


def render(sections: list[Section], environment: dict[str, str], quick: bool) -> str:
    out = ["# The fault server under load", ""]
    out += [f"- {key}: {value}" for key, value in environment.items()]
    out += [f"- Run: `python -m benchmarks{' --quick' if quick else ''} --only faults_load`."]
    for section in sections:
        out += ["", f"## {section.title}", "", *section.lines]
    return "\n".join(out) + "\n"


def plot(sections: list[Section], path: str, quick: bool) -> None:
    """The server's RSS over time, the rounds shaded in turn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(10, 4), dpi=100)
    for section in sections:
        samples = section.data.get("samples", [])
        if not samples:
            continue
        axis.plot([t for t, _, _ in samples], [rss / MiB for _, _, rss in samples], marker=".", linewidth=1)
        for number in sorted({n for _, n, _ in samples}):
            times = [t for t, n, _ in samples if n == number]
            if number % 2:
                axis.axvspan(min(times), max(times), color="0.92")
        top = max(rss for _, _, rss in samples) / MiB
        axis.set_ylim(0, top * 1.2)
    axis.set(xlabel="seconds", ylabel="server RSS (MiB)")
    fig.suptitle(
        "boundary-lab faults: RSS while serving rounds of concurrent streams"
        + (" (--quick)" if quick else "")
    )
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
