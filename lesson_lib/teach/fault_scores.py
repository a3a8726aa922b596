"""Score clients over the fault catalogue: each fault's verdict judged, the whole as JSON and as a table.

:func:`score_all` runs each :class:`~.fault_clients.Adapter` over the entries (the clients all at once, in
threads or each in a process of its own, each client's faults one after another, in catalogue order) and
judges every verdict against the catalogue's expected one (:meth:`lesson_lib.faults.Expected.accepts`), in one
of :data:`CLASSES`. :func:`scores_json` is the result as data, deterministic (no timings, no addresses, no
answer text: whether the text matched, not the text), and :func:`scores_markdown` renders that data as the
table ``docs/fault_scores.md`` commits: faults as rows grouped by lesson, clients as columns, a legend,
totals. ``tools/score_clients.py`` runs it against a fault server and writes both files.
"""

from __future__ import annotations

import importlib.metadata
import json
import multiprocessing
import pickle
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.options import check_number
from ..faults import Expected, get_fault
from .fault_clients import CLIENTS, IDLE_SECONDS, UNTIMED_SECONDS, Adapter, Entry, EntryError

__all__ = [
    "CLASSES",
    "COMMITTED",
    "MARK",
    "MEANING",
    "PACKAGES",
    "Score",
    "committed_scores",
    "fault_rows",
    "fault_server_process",
    "fetch_entries",
    "judge",
    "score_all",
    "score_client",
    "score_server",
    "scores_json",
    "scores_markdown",
]

#: The committed scores (``tools/score_clients.py`` writes them): in the checkout, beside ``lesson_lib``.
COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "fault_scores.json"

#: The classes of a verdict, in the legend's order.
CLASSES = ("right", "wrong-silent", "wrong-other", "raised", "not scored")
#: What each class means (the legend of the table and of the JSON).
MEANING = {
    "right": "the verdict the catalogue expects (outcome, and the text when the client gives it)",
    "wrong-silent": "said completed without a word, and it is not: the answer was cut or failed, or its "
    "text differs",
    "wrong-other": "another outcome than the expected one (shown), or completed said by an exception",
    "raised": "the user's code crashed: the client raised what is not an outcome (the exception shown)",
    "not scored": "the client does not speak the fault's contract",
}
#: The mark of each class in the table.
MARK = {"right": "✅", "wrong-silent": "🔇", "wrong-other": "❌", "raised": "💥", "not scored": "—"}
#: The packages whose versions the table was measured with.
PACKAGES = ("openai", "anthropic", "httpx", "httpx2", "httpx-sse", "requests", "urllib3")


@dataclass(frozen=True)
class Score:
    """One client's verdict on one fault: ``got`` is the outcome it gave (``"raised <Type>"`` when it
    raised, ``None`` when not scored), ``raised`` the exception the outcome was read from,
    ``outcome_right`` whether that outcome is one of the right ones (its text aside), ``text_matched``
    whether its text is the right text for that outcome (the expected text, if the outcome is not a right
    one; ``None`` when there is no text), ``cls`` one of :data:`CLASSES`."""

    fault: str
    client: str
    expected: str
    got: str | None
    raised: str | None
    outcome_right: bool | None
    text_matched: bool | None
    cls: str

    def as_json(self) -> dict[str, Any]:
        return {
            "expected": self.expected,
            "got": self.got,
            "raised": self.raised,
            "outcome_right": self.outcome_right,
            "text_matched": self.text_matched,
            "class": self.cls,
        }


def _expected_of(entry: Entry) -> Expected:
    """The catalogue's expected verdict for the entry (looked up by name, so whatever form ``also`` takes
    the catalogue's own ``accepts`` judges)."""
    return get_fault(str(entry["name"])).expected


def _right_text(expected: Expected, outcome: str) -> str:
    """The text a right verdict with ``outcome`` keeps: its ``(outcome, text)`` pair's among the expected
    verdicts (``Expected.verdicts``, where ``also`` holds pairs), else the expected text."""
    verdicts: Iterable[tuple[str, str]] = getattr(expected, "verdicts", ())
    return next((text for said, text in verdicts if said == outcome), expected.text)


def judge(adapter: Adapter, entry: Entry, expected: Expected | None = None) -> Score:
    """Run ``adapter`` on ``entry`` and judge its verdict against ``expected`` (default: the catalogue's).

    A client that raises what is not an outcome is scored ``raised``; an
    :class:`~.fault_clients.EntryError` (an entry the adapter cannot be pointed at) propagates."""
    expected = _expected_of(entry) if expected is None else expected
    name, client = str(entry["name"]), adapter.name
    try:
        verdict = adapter.verdict(entry)
    except EntryError:  # the catalogue and the adapter disagree: not the client's doing, not a score
        raise
    except Exception as exc:  # the user's code crashed: wrong, and recorded, never the run's end
        said = f"raised {type(exc).__name__}"
        return Score(name, client, expected.outcome, said, None, None, None, "raised")
    if verdict is None:
        return Score(name, client, expected.outcome, None, None, None, None, "not scored")
    outcome_right = expected.accepts(verdict.outcome, None)
    matched = verdict.text == _right_text(expected, verdict.outcome)
    if expected.accepts(verdict.outcome, verdict.text):
        cls = "right"
    elif verdict.outcome == "completed" and verdict.raised is None:
        cls = "wrong-silent"
    else:
        cls = "wrong-other"
    return Score(name, client, expected.outcome, verdict.outcome, verdict.raised, outcome_right, matched, cls)


def score_client(
    adapter: Adapter, entries: Iterable[Entry], expected: Callable[[Entry], Expected] = _expected_of
) -> list[Score]:
    """``adapter`` over every entry, one after another, in order."""
    return [judge(adapter, entry, expected(entry)) for entry in entries]


def score_all(
    entries: Sequence[Entry],
    adapters: Sequence[Adapter] = CLIENTS,
    expected: Callable[[Entry], Expected] = _expected_of,
    *,
    isolated: bool = False,
) -> dict[str, list[Score]]:
    """Every adapter over every entry, all adapters at once, each one's entries in order. Returns the scores
    by client name, in ``adapters``' order.

    The adapters run in threads of this process, or with ``isolated`` each in a process of its own: then
    one client's pauses do not depend on the work of the others (ten clients in one interpreter share its
    lock, and on a loaded machine a client can miss a heartbeat it was sent in time). Isolated, a verdict
    of ``timed_out`` on a ``timed`` entry is then measured again with that client alone, one after
    another, and the second verdict stands: with all of them at once on a loaded machine, a read timeout
    of 1 s can run out on the machine's account (a heartbeat 0.2 s after the last, read 1 s late), and a
    client that does time out there times out alone too. Isolated adapters and ``expected`` must be
    picklable (module-level, as :data:`CLIENTS` are): ValueError naming the first that is not, before
    anything runs."""
    names = [adapter.name for adapter in adapters]
    if len(set(names)) != len(names):
        raise ValueError(f"adapters must have distinct names, got {names}")
    jobs = [(adapter, list(entries), expected) for adapter in adapters]
    pool: Executor
    if isolated:
        for adapter, _, _ in jobs:
            try:
                pickle.dumps((adapter, expected))
            except (pickle.PicklingError, AttributeError, TypeError) as exc:
                raise ValueError(
                    f"isolated adapters must be picklable; {adapter.name!r} is not ({type(exc).__name__})"
                ) from None
        spawn = multiprocessing.get_context("spawn")  # not fork: this process may already run threads
        pool = ProcessPoolExecutor(max_workers=max(1, len(adapters)), mp_context=spawn)
    else:
        pool = ThreadPoolExecutor(max_workers=max(1, len(adapters)), thread_name_prefix="score")
    with pool:
        futures = [pool.submit(score_client, *job) for job in jobs]
        scores = {adapter.name: future.result() for adapter, future in zip(adapters, futures, strict=True)}
    if isolated:
        for adapter, given, _ in jobs:
            found = scores[adapter.name]
            for index, entry in enumerate(given):
                if entry.get("timed") and found[index].got == "timed_out":
                    found[index] = judge(adapter, entry, expected(entry))
    return scores


def fault_rows(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The entries' faults as the JSON lists them: each as the catalogue itself gives it
    (:meth:`lesson_lib.faults.Fault.as_json`, found by the entry's name), so nothing of the server's own
    (its ``base_url``, its port) is kept, and the expected verdicts are the catalogue's."""
    return [get_fault(str(entry["name"])).as_json() for entry in entries]


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def scores_json(
    entries: Sequence[Mapping[str, Any]], scores: Mapping[str, Sequence[Score]]
) -> dict[str, Any]:
    """The scores as data: the faults (as the catalogue lists them), the clients, each client's score per
    fault, totals per client and class, the legend, the read timeout and the packages' versions."""
    return {
        "about": "tools/score_clients.py: the clients of lesson_lib.teach.fault_clients over the fault "
        "catalogue; each reads as its documentation shows, with a read timeout of idle_timeout_seconds on a "
        "timed fault and untimed_timeout_seconds on the others",
        "idle_timeout_seconds": IDLE_SECONDS,
        "untimed_timeout_seconds": UNTIMED_SECONDS,
        "versions": {package: _version(package) for package in PACKAGES},
        "classes": {cls: MEANING[cls] for cls in CLASSES},
        "clients": list(scores),
        "faults": fault_rows(entries),
        "scores": {
            client: {score.fault: score.as_json() for score in client_scores}
            for client, client_scores in scores.items()
        },
        "totals": {
            client: {cls: sum(score.cls == cls for score in client_scores) for cls in CLASSES}
            for client, client_scores in scores.items()
        },
    }


def fetch_entries(server_url: str) -> list[dict[str, Any]]:
    """The catalogue as the fault server at ``server_url`` lists it (``GET /faults``): a list of entries,
    each with its ``base_url``. Raises ``httpx.HTTPStatusError`` for an error status, ``ValueError`` if the
    answer is not such a list."""
    import httpx

    response = httpx.get(server_url.rstrip("/") + "/faults", timeout=10.0, trust_env=False)
    response.raise_for_status()
    entries = response.json()
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "base_url" in e for e in entries):
        raise ValueError(f"{server_url}/faults did not list entries with a base_url")
    return entries


#: The child fault server: it prints its URL, then serves until its standard input ends (the parent closed
#: it, or died), and at the latest after the server's own ``max_lifetime``.
_SERVE_UNTIL_STDIN_ENDS = (
    "import sys\n"
    "from lesson_lib.faults.server import FaultServer\n"
    "with FaultServer() as server:\n"
    "    print('fault server on', server.url, flush=True)\n"
    "    sys.stdin.read()\n"
)


@contextmanager
def fault_server_process(timeout: float = 60.0, command: Sequence[str] | None = None) -> Iterator[str]:
    """A fault server in a process of its own (127.0.0.1, a free port): its URL while the block runs. The
    process is ended after the block, whatever happens, and ends by itself if this process dies.

    A server in the scorer's process would share its interpreter lock with the clients that run there
    (:func:`score_all`'s threads, or the timeouts it measures again alone), and a write it owes (a heartbeat
    0.2 s after the last) could come later than a client's 1 s read timeout on a loaded machine: the verdict
    would measure the scorer, not the client. ``command`` replaces the child's command line (tests); its first
    line of output must be ``fault server on <url>``. RuntimeError, with what the child printed, if that line
    does not come within ``timeout`` seconds; ValueError for a ``timeout`` out of range, before anything
    starts.
    """
    check_number("timeout", timeout, minimum=0, maximum=3600, low_open=True)
    argv = list(command) if command is not None else [sys.executable, "-c", _SERVE_UNTIL_STDIN_ENDS]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    timed_out = threading.Event()

    def give_up() -> None:
        timed_out.set()
        process.kill()

    watchdog = threading.Timer(timeout, give_up)
    watchdog.start()
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        watchdog.cancel()
        found = re.fullmatch(r"fault server on (http://\S+)\n", first)
        if found is None:
            try:  # a child that is failing gets two seconds to finish saying why
                rest, _ = process.communicate(timeout=2)
                status: int | None = process.returncode
            except subprocess.TimeoutExpired:
                process.kill()
                rest, status = process.communicate()[0], None
            output = (first + rest).strip()
            if timed_out.is_set():
                why = f"no URL within {timeout:g} s"
            elif status is not None:
                why = f"it exited with status {status}"
            else:
                why = "its first line was not its URL"
            raise RuntimeError(f"the fault server did not start: {why}; it printed {output[-500:]!r}")
        yield found.group(1)
    finally:
        watchdog.cancel()
        if process.stdin is not None and not process.stdin.closed:
            process.stdin.close()  # the child's cue to stop
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def score_server(server_url: str, adapters: Sequence[Adapter] = CLIENTS) -> dict[str, Any]:
    """Every adapter over the catalogue of the fault server at ``server_url``, each in a process of its own
    (:func:`score_all`, ``isolated``): :func:`scores_json`'s data."""
    entries = fetch_entries(server_url)
    return scores_json(entries, score_all(entries, adapters, isolated=True))


# -- the table ---------------------------------------------------------------------------------------------


def _cell(score: Mapping[str, Any]) -> str:
    cls = score["class"]
    mark = MARK[cls]
    if cls in ("right", "not scored"):
        return mark
    if cls == "raised":
        return f"{mark} {str(score['got']).removeprefix('raised ')}"
    said = str(score["got"])
    if score["outcome_right"] and score["text_matched"] is False:
        said += ", other text"
    if score["raised"]:
        said += f" ({score['raised']})"
    return f"{mark} {said}"


def _escape(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _lesson_key(lesson: object) -> tuple[int, str]:
    text = str(lesson)
    return (int(text), text) if text.isdigit() else (10**6, text)


def scores_markdown(data: Mapping[str, Any]) -> str:
    """The table of :func:`scores_json`'s ``data``, as GitHub renders Markdown (deterministic)."""
    clients: list[str] = list(data["clients"])
    faults: list[Mapping[str, Any]] = list(data["faults"])
    scores: Mapping[str, Mapping[str, Mapping[str, Any]]] = data["scores"]
    versions = ", ".join(f"{name} {version}" for name, version in data["versions"].items() if version)
    lines = [
        "# The clients people use, scored over the fault catalogue",
        "",
        "Written by `tools/score_clients.py` (with `docs/fault_scores.json`, the same data); "
        "`tests/faults/test_client_scores.py` runs every client again and checks that both are what they "
        "do now. Each client reads each fault's stream the way its documentation shows a user streaming an "
        f"answer, with a read timeout of {data['idle_timeout_seconds']:g} s on a timed fault (a stall, "
        f"heartbeats, a trickle; {data['untimed_timeout_seconds']:g} s on the others, which pause "
        "nowhere near 1 s), and concludes what that user "
        "would: a stream that ends without an exception is `completed`. Measured with " + versions + ".",
        "",
        "Legend: " + " · ".join(f"{MARK[cls]} {cls}: {data['classes'][cls]}" for cls in CLASSES) + ".",
        "",
        "| fault | contract | expected | " + " | ".join(f"`{client}`" for client in clients) + " |",
        "|---|---|---|" + "---|" * len(clients),
    ]
    lessons = sorted({str(fault["lesson"]) for fault in faults}, key=_lesson_key)
    for lesson in lessons:
        lines.append(f"| **lesson {_escape(lesson)}** |  |  |" + "  |" * len(clients))
        for fault in faults:
            if str(fault["lesson"]) != lesson:
                continue
            name = str(fault["name"])
            expected = fault["expected"]["outcome"]
            cells = " | ".join(_cell(scores[client][name]) for client in clients)
            lines.append(f"| `{name}` | {_escape(fault['contract'])} | {_escape(expected)} | {cells} |")
    totals: Mapping[str, Mapping[str, int]] = data["totals"]
    lines += ["", "Totals per client:", "", "| class | " + " | ".join(f"`{c}`" for c in clients) + " |"]
    lines.append("|---|" + "---|" * len(clients))
    for cls in CLASSES:
        lines.append(f"| {MARK[cls]} {cls} | " + " | ".join(str(totals[c][cls]) for c in clients) + " |")
    lines += ["", "The faults:", ""]
    for fault in faults:
        lines.append(
            f"- `{fault['name']}` ({_escape(fault['contract'])}, lesson {_escape(fault['lesson'])}): "
            f"{_escape(fault['description'])}"
        )
    return "\n".join(lines) + "\n"


def committed_scores(path: Path = COMMITTED) -> dict[str, Any]:
    """The committed scores, as :func:`scores_json` made them (``docs/fault_scores.json``; a checkout has
    it, an installed wheel does not: ``FileNotFoundError`` then names the path)."""
    with open(path, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data
