"""Issue 28: a room of learners on ``make hub``'s hub at once: how long they wait, how much memory they take.

``python -m benchmarks.hub_load --learners 10`` (as root) prepares a real hub exactly as ``make hub`` and
``tests/hub`` do (``tools/classroom/server.Classroom``: OS accounts ``blload1..blloadN``, their notebook
copies, passwords, one memory cgroup each), starts it on 127.0.0.1 at a free port, and then runs N
simulated learners in parallel (``tools/classroom/client.Learner``, one thread each). Each learner:

1. logs in through the hub's form and gets an API token;
2. starts their server (the hub's REST API) and waits until it is ready;
3. runs the learner copy of lesson 01 in their home, every code cell in order, through the kernel's
   websocket (a cell tagged ``raises-exception`` must raise);
4. runs lesson 10's relay in a new kernel (a ``ReplayServer`` of the capture ``openai-chat/completed`` cut
   inside 你, and a ``RelayServer`` in front of it, as lesson 10's first relay cell), then opens the page at
   ``relay.page_url`` and reads ``/stream`` to its end through the hub's ``/user/<name>/proxy/<port>/``
   (jupyter-server-proxy), with the learner's token, and checks what arrived: the capture's whole text,
   the relay's outcome ``completed``.

Per learner: seconds from the start of the login to the first executed cell and to the end of step 4, any
failure (a cell's error, a refused login, a relay stream that did not carry the text), and the peak memory
of the learner's cgroup (the kernel's own counter: the server and its kernels together, page cache
included), read before their server stops. For the machine: ``MemTotal - MemAvailable`` sampled every
0.25 s, before the hub, with the hub idle, and at its peak during the run; the sum of the learners' cgroups
sampled at the same time; the resident memory of the hub's own processes (the hub, its proxy, the idle
culler); and the CPU time the whole machine spent busy during the run (``/proc/stat``).

The run's numbers are merged into ``benchmarks/results/hub_load.json`` under the learner count, and
``benchmarks/results/hub_load.md`` is rendered from all the runs in it with the sizing table
(:func:`sizing`), which the instructor guide copies (``tests/test_benchmark_results.py`` checks it).
``--out DIR`` writes them elsewhere. Bad arguments fail before any I/O, naming the argument, with no
traceback; so does a machine that cannot run the hub (not root, no npm).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .harness import environment
from .harness import markdown_table as _table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
JSON_NAME, MD_NAME = "hub_load.json", "hub_load.md"
#: Its own hub root, not tests/hub's: two hubs on one root share its database, and a hub that stops
#: stops every server in it (``cleanup_servers``), another hub's learners' too (seen in a run at 20).
DEFAULT_HUB_ROOT = Path("/srv/boundary-lab-hub-load")
PREFIX = "blload"  # the accounts this benchmark makes (and removes)
LESSON_01 = "notebooks/01_chunks_are_not_characters.ipynb"
CAPTURE = "openai-chat/completed"
MIB = 1024 * 1024
GIB = 1024 * MIB
#: The sizing table's rows (learner counts) and what it rounds memory up to.
SIZING_ROWS = (10, 20, 30, 50)
MEMORY_STEP_GIB = 0.5
SAMPLE_EVERY = 0.25

RELAY_SETUP = f"""
from lesson_lib.captures import load
from lesson_lib.net import RelayServer, ReplayServer

capture = load({CAPTURE!r})
inside = capture.body.index("你".encode()) + 1  # after the first of 你's three bytes, as lesson 10 cuts it
upstream = ReplayServer(capture.body, [inside]).start()
relay = RelayServer(upstream.url, capture.contract).start()
page_url = relay.page_url
"""
RELAY_STOP = "relay.stop(); upstream.stop()"


class UsageError(ValueError):
    """A bad argument: the message names it."""


@dataclass
class Config:
    learners: int
    hub_root: Path = DEFAULT_HUB_ROOT
    memory_mib: int = 1024
    cell_timeout: float = 600.0
    out: Path = RESULTS


def check_arguments(argv: list[str] | None = None) -> Config:
    """The configuration, or UsageError naming the bad argument; nothing is read or written before this."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hub_load",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--learners", required=True, help="how many simulated learners, 1 to 200")
    parser.add_argument("--root", default=str(DEFAULT_HUB_ROOT),
                        help=f"the hub root (default {DEFAULT_HUB_ROOT})")
    parser.add_argument("--memory-mib", default="1024", help="the memory limit per learner (default 1024)")
    parser.add_argument("--cell-timeout", default="600", help="seconds a cell may take (default 600)")
    parser.add_argument("--out", default=str(RESULTS), help="where hub_load.{json,md} go")
    args = parser.parse_args(argv)
    for option, value, low, high in (("--learners", args.learners, 1, 200),
                                     ("--memory-mib", args.memory_mib, 256, 1 << 20),
                                     ("--cell-timeout", args.cell_timeout, 10, 3600)):
        if not value.isdigit() or not low <= int(value) <= high:
            raise UsageError(f"{option} {value}: a whole number from {low} to {high}")
    root = Path(args.root)
    if not root.is_absolute() or len(root.parts) < 3:
        raise UsageError(f"--root {args.root}: an absolute path at least two folders deep (/srv/x)")
    if root.resolve().is_relative_to(ROOT) or ROOT.is_relative_to(root.resolve()):
        raise UsageError(f"--root {args.root}: outside the checkout (learners may not be able to enter it)")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: not a folder")
    return Config(int(args.learners), root, int(args.memory_mib), float(args.cell_timeout), out)


# -- what the machine has and uses -------------------------------------------------------------------------
def machine_used() -> int:
    """``MemTotal - MemAvailable`` in bytes: the memory the machine's processes and kernel hold now."""
    fields = {}
    with open("/proc/meminfo", encoding="ascii") as info:
        for line in info:
            key, _, rest = line.partition(":")
            fields[key] = int(rest.split()[0]) * 1024
    return fields["MemTotal"] - fields["MemAvailable"]


def mem_total() -> int:
    with open("/proc/meminfo", encoding="ascii") as info:
        return int(info.readline().split()[1]) * 1024


def busy_cpu_seconds() -> float:
    """CPU seconds the whole machine has spent not idle since boot (``/proc/stat``, all cores)."""
    with open("/proc/stat", encoding="ascii") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def other_processes(exclude_users: set[str], limit: int = 8) -> list[str]:
    """The busiest processes at this moment that are not the learners' (name and CPU %): what else ran."""
    import psutil

    procs = list(psutil.process_iter(["name", "username"]))
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.cpu_percent(None)
    time.sleep(1.0)
    seen = []
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            if proc.info["username"] in exclude_users or proc.pid == os.getpid():
                continue
            seen.append((proc.cpu_percent(None), proc.info["name"] or "?"))
    seen.sort(reverse=True)
    return [f"{name} {cpu:.0f}%" for cpu, name in seen[:limit] if cpu >= 1.0]


def hub_running_from(root: Path) -> int | None:
    """The pid of a JupyterHub running with ``root``'s configuration, or None."""
    import psutil

    config = str(root / "config" / "jupyterhub_config.py")
    for proc in psutil.process_iter(["cmdline"]):
        if config in (proc.info["cmdline"] or []):
            return int(proc.pid)
    return None


def hub_rss(pid: int, learner_users: set[str]) -> int:
    """Resident memory of the hub's process and its descendants that are not a learner's (its proxy, the
    culler): the hub's own overhead."""
    import psutil

    try:
        top = psutil.Process(pid)
        procs = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            if proc.username() not in learner_users:
                total += proc.memory_info().rss
    return total


@dataclass
class Sampler:
    """A thread sampling the machine's used memory, the learners' cgroups' sum and the hub's RSS."""

    controller: Any
    learners: list[str]
    hub_pid: int
    peak_machine: int = 0
    peak_cgroups: int = 0
    peak_hub: int = 0
    samples: int = 0
    cpu_by_pid: dict[int, float] = field(default_factory=dict)  # the run's processes' CPU seconds, last seen
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Sampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        users = set(self.learners)
        while not self._stop.wait(SAMPLE_EVERY):
            self.peak_machine = max(self.peak_machine, machine_used())
            if self.controller is not None:
                used = sum(self.controller.usage(name) or 0 for name in self.learners)
                self.peak_cgroups = max(self.peak_cgroups, used)
            self.peak_hub = max(self.peak_hub, hub_rss(self.hub_pid, users))
            if self.samples % 4 == 0:
                self._note_cpu(users)
            self.samples += 1

    def _note_cpu(self, users: set[str]) -> None:
        """Record the CPU time of every process of the run (the hub's and the learners'), once a second: a
        process that ends loses at most its last second."""
        import psutil

        try:
            top = psutil.Process(self.hub_pid)
            ours = {top.pid, *(child.pid for child in top.children(recursive=True))}
        except psutil.Error:
            ours = set()
        for proc in psutil.process_iter(["username"]):
            if proc.pid in ours or proc.info["username"] in users:
                with contextlib.suppress(psutil.Error):
                    times = proc.cpu_times()
                    self.cpu_by_pid[proc.pid] = times.user + times.system

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu_by_pid.values())

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


# -- one learner -------------------------------------------------------------------------------------------
@dataclass
class LearnerResult:
    learner: str
    cells: int = 0
    to_first_cell: float | None = None
    to_end: float | None = None
    peak_bytes: int | None = None
    failures: list[str] = field(default_factory=list)


def read_stream_through_hub(client: Any, page_path: str) -> tuple[str, dict[str, Any] | None]:
    """GET the relay's page and its ``stream`` through the hub (the learner's token, ``Accept:
    text/event-stream`` as the page asks), parse it with lesson_lib; (the text a client that knows the
    contract concludes, the relay's outcome event)."""
    import requests

    from lesson_lib import SSEParser
    from lesson_lib.core.sse import Event
    from lesson_lib.net.relay import RelayReply

    page = client.api("GET", page_path)
    if page.status_code != 200 or "html" not in page.headers.get("content-type", ""):
        raise RuntimeError(f"the relay's page through the hub: HTTP {page.status_code}, "
                           f"{page.headers.get('content-type')}")
    url = client.hub_url + page_path + "stream"
    parser, events, raw = SSEParser(errors="replace"), list[Event](), bytearray()
    headers = {**client.headers, "Accept": "text/event-stream"}
    with requests.get(url, headers=headers, stream=True, timeout=120) as response:
        if response.status_code != 200:
            raise RuntimeError(f"the relay's stream through the hub: HTTP {response.status_code}")
        for chunk in response.iter_content(chunk_size=None):
            raw.extend(chunk)
            events.extend(e for e in parser.feed(chunk) if isinstance(e, Event))
    events.extend(e for e in parser.close() if isinstance(e, Event))
    outcome = None
    if events and events[-1].type == "outcome":
        outcome = json.loads(events.pop().data)
    reply = RelayReply(events, outcome, bytes(raw), [], "end of body")
    return reply.result("openai-chat").final_text or "", outcome


def run_learner(hub_url: str, name: str, password: str, controller: Any, cell_timeout: float,
                start: threading.Barrier) -> LearnerResult:
    """One simulated learner, steps 1 to 4 of the module's docstring; never raises (a failure is listed)."""
    from classroom.client import Learner

    from lesson_lib.captures import load

    result = LearnerResult(name)
    client = Learner(hub_url, name)
    start.wait()
    try:
        client.login(password)
        client.start_server(timeout=600)
        report = client.run_notebook(LESSON_01, cell_timeout=cell_timeout)
        result.cells, result.to_first_cell = report.cells, report.to_first_cell
        result.failures += [f"lesson 01 cell {f.index}: {f.error}" for f in report.failures]
        kernel = client.kernel("notebooks")
        try:
            error = kernel.execute(RELAY_SETUP, cell_timeout)
            if error is not None:
                raise RuntimeError(f"lesson 10's relay in the kernel: {error}")
            page_path = kernel.evaluate("page_url")
            if not page_path.startswith(f"/user/{name}/proxy/"):
                raise RuntimeError(f"relay.page_url is not a path through the hub: {page_path!r}")
            text, outcome = read_stream_through_hub(client, page_path)
            expected = load(CAPTURE).text
            if text != expected:
                result.failures.append(f"lesson 10 relay: {len(text)} of {len(expected)} characters arrived")
            if not outcome or outcome.get("outcome") != "completed":
                result.failures.append(f"lesson 10 relay: outcome {outcome!r}, not completed")
            kernel.execute(RELAY_STOP, 60)
        finally:
            kernel.shutdown()
        assert client.logged_in_at is not None
        result.to_end = time.monotonic() - client.logged_in_at
    except Exception as exc:  # one learner's failure is a result, not the end of the run
        result.failures.append(f"{type(exc).__name__}: {str(exc)[:300]}")
    if controller is not None:
        result.peak_bytes = controller.peak(name)
    with contextlib.suppress(Exception):
        client.stop_server()
    return result


# -- the run -----------------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation between the closest ranks."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 50), 1), "p95": round(percentile(values, 95), 1),
            "max": round(max(values), 1) if values else math.nan}


def run(config: Config) -> dict[str, Any]:
    """Prepare and start the hub, run the learners, stop everything; the run's record (JSON-ready)."""
    sys.path.insert(0, str(ROOT / "tools"))
    from classroom import learners as accounts
    from classroom.cgroups import detect
    from classroom.server import Classroom, Settings

    names = accounts.parse_learners(str(config.learners), prefix=PREFIX)
    other = hub_running_from(config.hub_root)
    if other is not None:
        raise RuntimeError(f"a hub already runs from {config.hub_root} (pid {other}): two hubs on one root "
                           "share its database and stop each other's servers; wait for it or use --root")
    settings = Settings(checkout=ROOT, learners=names, root=config.hub_root, memory_mib=config.memory_mib,
                        cull_timeout=7200, cull_every=300, activity_interval=60)
    room = Classroom(settings)
    environment_before, commit = environment(), _commit()  # what ran: the code as it was at the start
    others = other_processes(set(names))
    used_before_hub = machine_used()
    results: list[LearnerResult] = []
    try:
        began = time.monotonic()
        room.prepare()
        room.start()
        prepare_seconds = time.monotonic() - began
        controller, why = detect()
        time.sleep(2.0)
        assert room.process is not None
        used_hub_idle = machine_used()
        hub_idle_rss = hub_rss(room.process.pid, set(names))
        sampler = Sampler(controller, names, room.process.pid).start()
        barrier = threading.Barrier(len(names))
        busy_before, wall_before, own_before = busy_cpu_seconds(), time.monotonic(), _own_cpu()
        with ThreadPoolExecutor(max_workers=len(names)) as pool:
            futures = [pool.submit(run_learner, room.url, name, room.passwords[name], controller,
                                   config.cell_timeout, barrier) for name in names]
            results = [future.result() for future in futures]
        sampler.stop()
        wall, busy = time.monotonic() - wall_before, busy_cpu_seconds() - busy_before
        clients_cpu = _own_cpu() - own_before
        hub_cpu = sampler.cpu_seconds
    finally:
        room.stop()
        for name in names:
            accounts.remove_account(name)
        controller_end, _ = detect()
        if controller_end is not None:
            for name in names:
                controller_end.remove(name)
    firsts = [r.to_first_cell for r in results if r.to_first_cell is not None]
    ends = [r.to_end for r in results if r.to_end is not None]
    peaks = [r.peak_bytes for r in results if r.peak_bytes is not None]
    return {
        "learners": config.learners,
        "environment": environment_before,
        "commit": commit,
        "machine": {"cores": os.cpu_count(), "mem_total_bytes": mem_total()},
        "other_processes_at_start": others,
        "memory_limit_mib": config.memory_mib,
        "memory_controller": why if controller is not None else f"none: {why}",
        "prepare_seconds": round(prepare_seconds, 1),
        "wall_seconds": round(wall, 1),
        "busy_cpu_seconds": round(busy, 1),
        "run_cpu_seconds": {"hub_and_learners": round(hub_cpu, 1), "clients": round(clients_cpu, 1),
                            "other_processes": round(max(0.0, busy - hub_cpu - clients_cpu), 1)},
        "to_first_cell": summary(firsts),
        "to_end": summary(ends),
        "failures": [f"{r.learner}: {f}" for r in results for f in r.failures],
        "peak_per_learner_bytes": {"p50": int(statistics.median(peaks)) if peaks else None,
                                   "max": max(peaks) if peaks else None},
        "peak_cgroups_sum_bytes": sampler.peak_cgroups,
        "machine_used_before_hub_bytes": used_before_hub,
        "machine_used_hub_idle_bytes": used_hub_idle,
        "machine_used_peak_bytes": sampler.peak_machine,
        "hub_rss_idle_bytes": hub_idle_rss,
        "hub_rss_peak_bytes": sampler.peak_hub,
        "samples": sampler.samples,
        "per_learner": [asdict(r) for r in results],
    }


def _own_cpu() -> float:
    """CPU seconds of this process (the simulated learners' threads and the sampler)."""
    times = os.times()
    return times.user + times.system


def _commit() -> str:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "lesson_lib", "tools", "benchmarks",
                                ":!benchmarks/results", "notebooks", "requirements.txt"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + (" (with uncommitted changes)" if dirty else "")


# -- sizing: what the guide's table says, computed from the runs -------------------------------------------
@dataclass(frozen=True)
class Sizing:
    learners: int
    memory_gib: float
    cores: int


def per_learner_bytes(runs: dict[str, Any]) -> int:
    """The highest per-learner cgroup peak of the runs: what one learner needs."""
    return max(int(r["peak_per_learner_bytes"]["max"]) for r in runs.values())


def hub_overhead_bytes(runs: dict[str, Any]) -> int:
    """The hub's own memory at its highest in the runs (hub, proxy, culler)."""
    return max(int(r["hub_rss_peak_bytes"]) for r in runs.values())


def core_seconds_per_learner(runs: dict[str, Any]) -> float:
    """The CPU work one more learner adds: the machine's cores times the extra time the last of 20 learners
    took over the last of 10 (login to end), per extra learner. It assumes the runs kept every core busy
    (their ``busy_cpu_seconds`` says how far they did)."""
    small, large = runs["10"], runs["20"]
    cores = int(small["machine"]["cores"])
    return cores * (float(large["to_end"]["max"]) - float(small["to_end"]["max"])) / 10


def sizing(runs: dict[str, Any], learners: int) -> Sizing:
    """Memory: the highest per-learner peak x N + the hub's peak, rounded up to 0.5 GiB. Cores: enough for
    N learners who run the lesson at the same moment to finish as soon as 10 did on this machine:
    N x core-seconds per learner / the 10-learner run's time, rounded up."""
    need = learners * per_learner_bytes(runs) + hub_overhead_bytes(runs)
    memory = math.ceil(need / GIB / MEMORY_STEP_GIB) * MEMORY_STEP_GIB
    target = float(runs["10"]["to_end"]["max"])
    cores = max(1, math.ceil(learners * core_seconds_per_learner(runs) / target - 1e-9))
    return Sizing(learners, memory, cores)


def sizing_rows(runs: dict[str, Any]) -> list[Sizing]:
    return [sizing(runs, n) for n in SIZING_ROWS]


def z2jh_resources(runs: dict[str, Any]) -> dict[str, Any]:
    """``singleuser``'s memory and cpu for hub/z2jh-values.yaml, from the runs: the memory guarantee is the
    highest per-learner peak rounded up to 64 MiB, the limit the one the runs held under (no learner was
    killed); the cpu guarantee is one learner's share at the sizing's pace (core-seconds per learner / the
    10-learner run's time), rounded up to 0.05 core; the cpu limit is one core (a kernel runs one cell at a
    time, on one core; a choice, not a measurement)."""
    guarantee_mib = math.ceil(per_learner_bytes(runs) / MIB / 64) * 64
    limit_mib = min(int(r["memory_limit_mib"]) for r in runs.values())
    share = core_seconds_per_learner(runs) / float(runs["10"]["to_end"]["max"])
    return {"memory": {"guarantee": f"{guarantee_mib}M", "limit": f"{limit_mib}M"},
            "cpu": {"guarantee": math.ceil(share * 20 - 1e-9) / 20, "limit": 1.0}}


# -- the report --------------------------------------------------------------------------------------------
def _mib(size: float | None) -> str:
    return "-" if size is None else f"{size / MIB:.0f} MiB"


def _cpu(run: dict[str, Any]) -> str:
    own = run.get("run_cpu_seconds")
    if own is None:
        return f"{run['busy_cpu_seconds']} s"
    return (f"{run['busy_cpu_seconds']} / {own['hub_and_learners']} / {own['clients']} / "
            f"{own['other_processes']} s")


def render(runs: dict[str, Any]) -> str:
    """``hub_load.md``: one table of the runs, what else ran, and the sizing table when both 10 and 20 ran."""
    ordered = [runs[k] for k in sorted(runs, key=int)]
    lines = ["# The classroom hub under load (issue 28)", ""]
    first = ordered[0]
    env = first["environment"]
    lines += [f"- {key}: {value}" for key, value in env.items() if key != "Load average"]
    lines += [f"- Memory: {first['machine']['mem_total_bytes'] / GIB:.1f} GiB",
              "- Run: `sudo .venv/bin/python -m benchmarks.hub_load --learners N` (N = "
              + ", ".join(str(r["learners"]) for r in ordered) + ")", ""]
    lines += ["`make hub`'s hub (JupyterHub, one OS account and memory cgroup per learner), N simulated "
              "learners at once: log in, start the server, lesson 01 cell by cell through the kernel, then "
              "lesson 10's relay read through `/user/<name>/proxy/<port>/stream`. Seconds are from the start "
              "of each learner's login.", ""]
    header = ["learners", "commit", "login -> first cell p50 / p95 / max", "login -> end p50 / p95 / max",
              "failures", "peak per learner p50 / max", "cgroups' sum at peak", "machine used: before / hub "
              "idle / peak", "hub's own RSS peak", "last learner done",
              "busy CPU: all / hub and learners / clients / other processes"]
    rows = []
    for r in ordered:
        f, e, peak = r["to_first_cell"], r["to_end"], r["peak_per_learner_bytes"]
        used = [_mib(r[f"machine_used_{when}_bytes"]) for when in ("before_hub", "hub_idle", "peak")]
        rows.append([str(r["learners"]), r["commit"], f"{f['p50']} / {f['p95']} / {f['max']} s",
                     f"{e['p50']} / {e['p95']} / {e['max']} s", str(len(r["failures"])),
                     f"{_mib(peak['p50'])} / {_mib(peak['max'])}", _mib(r["peak_cgroups_sum_bytes"]),
                     " / ".join(used), _mib(r["hub_rss_peak_bytes"]), f"{e['max']} s",
                     _cpu(r)])
    lines += [*_table(header, rows, "l"), ""]
    for r in ordered:
        lines.append(f"- {r['learners']} learners: load average at the start "
                     f"{r['environment'].get('Load average', '?')}; busiest other processes then: "
                     + (", ".join(r["other_processes_at_start"]) or "none above 1 %")
                     + f"; {r['samples']} memory samples.")
        for failure in r["failures"]:
            lines.append(f"  - failure: {failure}")
    lines.append("")
    if "10" in runs and "20" in runs:
        target = runs["10"]["to_end"]["max"]
        lines += ["## Sizing", "",
                  f"Memory: the highest per-learner peak ({_mib(per_learner_bytes(runs))}) x N + the hub's "
                  f"own peak ({_mib(hub_overhead_bytes(runs))}), rounded up to {MEMORY_STEP_GIB} GiB. Cores: "
                  f"one more learner added {core_seconds_per_learner(runs):.1f} core-seconds "
                  f"({runs['10']['machine']['cores']} cores x the extra time the last of 20 learners took "
                  "over the last of 10, per extra learner); N learners who start together finish as soon as "
                  f"10 did here ({target} s) with N x that / {target} s cores, rounded up.", ""]
        for key in ("10", "20"):
            own = runs[key].get("run_cpu_seconds")
            if own is not None:
                per = (own["hub_and_learners"] + own["clients"]) / int(key)
                lines += [f"- Cross-check, {key} learners: the run's own processes (hub, servers, kernels, "
                          f"clients) used {per:.1f} CPU seconds per learner; other processes "
                          f"{own['other_processes']} s in all.", ""]
        lines += _table(["learners", "memory", "cores"],
                        [[str(s.learners), f"{s.memory_gib:g} GiB", str(s.cores)] for s in sizing_rows(runs)])
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    try:
        config = check_arguments(argv)
    except UsageError as exc:
        print(f"hub_load: {exc}", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("hub_load: needs root (one OS account and cgroup per learner, as make hub): run it with sudo",
              file=sys.stderr)
        return 2
    for program in ("useradd", "npm", "node"):
        if shutil.which(program) is None:
            print(f"hub_load: needs {program} (as make hub does)", file=sys.stderr)
            return 2
    if not (ROOT / "hub" / "node_modules" / ".bin" / "configurable-http-proxy").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT / "hub",
                       check=True, capture_output=True)
    try:
        record = run(config)
    except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as exc:
        print(f"hub_load: {exc}", file=sys.stderr)
        return 2
    config.out.mkdir(parents=True, exist_ok=True)
    path = config.out / JSON_NAME
    runs = json.loads(path.read_text(encoding="utf-8"))["runs"] if path.exists() else {}
    runs[str(config.learners)] = record
    path.write_text(json.dumps({"runs": runs}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    report = render(runs)
    (config.out / MD_NAME).write_text(report, encoding="utf-8")
    print(report)
    print(f"wrote {path} and {config.out / MD_NAME}")
    return 1 if record["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
