"""The measured proxy matrix: real nginx, Caddy and mitmproxy between a ``ReplayServer`` and three clients.

:func:`observe` starts one upstream (:data:`UPSTREAMS`, :mod:`.matrix_upstreams`), one proxy
(:class:`lesson_lib.net.proxies.Proxy`; kind ``"direct"``, setting ``"none"``: no proxy, the baseline) in
front of it, reads the stream with one client (:data:`MATRIX_CLIENTS`, :mod:`.matrix_clients`) and
returns an :class:`Observation`: classes and counts, never a time. :data:`ROWS` are the combinations the
course measures, :func:`measure` runs them concurrently (each proxy is its own process), and
:func:`matrix_json` / :func:`matrix_markdown` make ``docs/proxy_matrix.json`` and ``.md``
(``tools/proxy_matrix.py``); :func:`committed_matrix` reads the committed JSON.

The classes:

* ``delivery``: ``"streamed"`` when the client had answer text while the upstream had sent no more body
  bytes than where it pauses (:data:`~.matrix_upstreams.PAUSE`, 1 s, before its last piece, or its
  stall); ``"at once"`` when its first text came only after the upstream had gone past that point;
  ``"nothing"`` when it got no text. The margin is the pause, not a measured time;
* ``reads``: see :mod:`.matrix_clients` (the JSON keeps its class: ``none``, ``one``, ``several``; for
  ``slow_reader`` not at all: how many reads carried what the reader took depends on the socket buffers);
* ``text_intact``: the text the client kept equals the text of the complete events the upstream sent
  (:func:`~.matrix_upstreams.text_of` of the body bytes it sent); for ``client_leaves`` and
  ``slow_reader``, where the user leaves on purpose, that the kept text is a prefix of it;
* ``truncation_detected``: the client told its user the answer is not whole (its outcome is not
  ``completed``; a user who leaves on purpose is ``cancelled``, not counted);
* ``upstream_closed`` (``client_leaves`` only): every upstream connection was closed within
  :data:`CLOSE_WITHIN` seconds of the client leaving;
* ``backpressure`` (``slow_reader`` only): ``"proxy buffered"`` when, by the time the slow reader leaves
  (after 3 s), the upstream had sent its whole body (something between took it in: the reader has taken
  about 30 KiB); ``"upstream paused"`` when it had not, and sent less than :data:`PAUSED_GROWTH` in the
  reader's last second (flow control reached it: the socket buffers between hold a few MiB, so the
  offset where it stops is not the class); ``"upstream not paused"`` otherwise.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..net.proxies import SETTINGS, Proxy, find_executable
from .matrix_clients import MATRIX_CLIENTS, Watch, run_client, wait_closed
from .matrix_upstreams import UPSTREAMS, plan, text_of

__all__ = [
    "CLOSE_WITHIN",
    "COMMITTED",
    "MATRIX_CLIENTS",
    "PAUSED_GROWTH",
    "ROWS",
    "UPSTREAMS",
    "Observation",
    "Row",
    "committed_matrix",
    "matrix_json",
    "matrix_markdown",
    "measure",
    "observe",
    "versions",
]

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "proxy_matrix.json"
#: ``client_leaves``: the upstream connection must be closed within this many seconds of the client leaving.
CLOSE_WITHIN = 2.0
#: ``slow_reader``: the upstream is paused when it sent less than this many bytes in the reader's last
#: second (the reader itself takes about 10 KiB a second; an unpaused upstream sends megabytes).
PAUSED_GROWTH = 256 * 1024
_ACCEL = (None, "yes", "no")


@dataclass(frozen=True)
class Observation:
    """One measured cell: ``kind`` and ``setting`` of the proxy (``"direct"``, ``"none"``: none), the
    ``upstream`` (a key of :data:`UPSTREAMS`), the ``client`` (one of :data:`MATRIX_CLIENTS`), the
    ``X-Accel-Buffering`` the upstream sent (``None``: no header), and what was seen (the module says how
    each class is decided). ``reads`` counts the body's non-empty reads as the client's HTTP transport
    handed them up (for the SDKs, httpx2's transport under the SDK, before decompression); ``outcome`` and
    ``raised`` are as :class:`~lesson_lib.teach.fault_verdicts.Verdict` names them; ``status`` is the HTTP
    status the client got (``None``: no response)."""

    kind: str
    setting: str
    upstream: str
    client: str
    x_accel_buffering: str | None
    delivery: str
    reads: int
    text_intact: bool
    outcome: str
    raised: str | None
    truncation_detected: bool
    status: int | None
    upstream_closed: bool | None = None
    backpressure: str | None = None

    @property
    def reads_class(self) -> str:
        """``"none"``, ``"one"`` or ``"several"``: what the committed table keeps of :attr:`reads`."""
        return "none" if self.reads == 0 else "one" if self.reads == 1 else "several"

    def as_row(self) -> dict[str, Any]:
        """The observation as the committed JSON keeps it: classes only (``reads`` as its class)."""
        row = asdict(self)
        # slow_reader: how many reads carried the ~30 KiB the reader took depends on the socket buffers
        row["reads"] = "not kept" if self.upstream == "slow_reader" else self.reads_class
        return row


@dataclass(frozen=True)
class Row:
    """One combination to measure: the arguments of :func:`observe`."""

    kind: str
    setting: str
    upstream: str
    client: str
    x_accel_buffering: str | None = None


def _check(kind: str, setting: str, upstream: str, client: str, x_accel_buffering: str | None) -> None:
    if kind == "direct":
        if setting != "none":
            raise ValueError(f'setting must be "none" for kind "direct", not {setting!r}')
    elif not isinstance(kind, str) or not any(k == kind for k, _ in SETTINGS):
        raise ValueError(f"kind must be direct, nginx, caddy or mitmproxy, not {kind!r}")
    elif not isinstance(setting, str) or (kind, setting) not in SETTINGS:
        known = ", ".join(name for k, name in SETTINGS if k == kind)
        raise ValueError(f"setting for {kind} must be one of {known}, not {setting!r}")
    if not isinstance(upstream, str) or upstream not in UPSTREAMS:
        raise ValueError(f"upstream must be one of {', '.join(UPSTREAMS)}, not {upstream!r}")
    if not isinstance(client, str) or client not in MATRIX_CLIENTS:
        raise ValueError(f"client must be one of {', '.join(MATRIX_CLIENTS)}, not {client!r}")
    if not (
        x_accel_buffering is None or (isinstance(x_accel_buffering, str) and x_accel_buffering in _ACCEL)
    ):
        raise ValueError(f'x_accel_buffering must be "yes", "no" or None, not {x_accel_buffering!r}')


def _delivery(watch: Watch, pause_at: int) -> str:
    if watch.sent_at_first_text is None:
        return "nothing"
    return "streamed" if watch.sent_at_first_text <= pause_at else "at once"


def _backpressure(watch: Watch, size: int) -> str:
    before, sent = watch.sent_before or 0, watch.sent_at_leaving or 0
    if sent >= size:
        return "proxy buffered"
    return "upstream paused" if sent - before < PAUSED_GROWTH else "upstream not paused"


def observe(
    kind: str, setting: str, upstream: str, client: str, *, x_accel_buffering: str | None = None
) -> Observation:
    """Measure one cell (see the module): a new upstream, a new proxy (none for ``kind="direct"``), one
    client run. Bad arguments raise ``ValueError`` naming the argument before anything starts; a missing
    proxy program raises :class:`~lesson_lib.net.proxies.ProxyUnavailable` naming its install command."""
    _check(kind, setting, upstream, client, x_accel_buffering)
    the_plan = plan(upstream)
    with the_plan.server(x_accel_buffering) as server:
        proxy = None if kind == "direct" else Proxy(kind, server.url, setting)
        try:
            url = server.url if proxy is None else proxy.start().url
            watch = Watch(server)
            run = run_client(client, url, upstream, watch)
            closed: bool | None = None
            if upstream == "client_leaves":
                left = watch.left_at if watch.left_at is not None else time.monotonic()
                closed = wait_closed(server, max(0.0, CLOSE_WITHIN - (time.monotonic() - left)))
        finally:
            if proxy is not None:
                proxy.stop()
        sent = server.body_bytes_sent
    if upstream == "slow_reader":
        intact = _slow_text(the_plan.body, sent).startswith(watch.text)
    elif upstream == "client_leaves":
        intact = text_of(the_plan.body[:sent]).startswith(watch.text)
    else:
        intact = watch.text == text_of(the_plan.body[:sent])
    return Observation(
        kind=kind,
        setting=setting,
        upstream=upstream,
        client=client,
        x_accel_buffering=x_accel_buffering,
        delivery=_delivery(watch, the_plan.pause_at),
        reads=watch.reads,
        text_intact=intact,
        outcome=run.outcome,
        raised=run.raised,
        truncation_detected=run.outcome not in ("completed", "cancelled"),
        status=watch.status,
        upstream_closed=closed,
        backpressure=_backpressure(watch, len(the_plan.body)) if upstream == "slow_reader" else None,
    )


def _slow_text(body: bytes, sent: int) -> str:
    """``slow_reader``'s sent text without parsing megabytes: its chunks' text up to ``sent`` bytes."""
    one = body.index(b"\n\n") + 2
    whole = min(sent, len(body) - 200) // one
    return text_of(body[:one]) * whole


#: Settings the matrix does not measure: read_timeout_1s's 1 s pause before the last piece of "whole" would
#: race its 1 s timeout; the two gzip variants exist for lesson 10's exercise (measured in its cases).
_NOT_IN_MATRIX = (
    ("nginx", "read_timeout_1s"),
    ("nginx", "gzip_buffering_off"),
    ("nginx", "gzip_ignore_header"),
)


def _rows() -> tuple[Row, ...]:
    rows: list[Row] = []
    settings = [("direct", "none"), *(s for s in SETTINGS if s not in _NOT_IN_MATRIX)]
    for kind, setting in settings:
        for client in MATRIX_CLIENTS:
            rows.append(Row(kind, setting, "whole", client))
            if kind == "nginx" and setting in ("defaults", "gzip", "two_hops_gzip"):
                rows.append(Row(kind, setting, "whole", client, "no"))
    for kind, setting in [
        ("direct", "none"),
        ("nginx", "defaults"),
        ("nginx", "gzip"),
        ("caddy", "defaults"),
        ("mitmproxy", "defaults"),
        ("mitmproxy", "stream_large_bodies_1"),
    ]:
        for client in MATRIX_CLIENTS:
            rows.append(Row(kind, setting, "drop", client))
            rows.append(Row(kind, setting, "client_leaves", client))
    for kind, setting in [
        ("direct", "none"),
        ("nginx", "defaults"),
        ("nginx", "gzip"),
        ("caddy", "defaults"),
        ("mitmproxy", "defaults"),
    ]:
        for client in ("lesson_lib", "openai"):
            rows.append(Row(kind, setting, "cut_in_character", client))
    for kind, setting in [("direct", "none"), ("nginx", "defaults"), ("nginx", "read_timeout_1s")]:
        for client in MATRIX_CLIENTS:
            rows.append(Row(kind, setting, "stall", client))
            rows.append(Row(kind, setting, "heartbeats", client))
    for kind, setting, accel in [
        ("direct", "none", None),
        ("nginx", "defaults", None),
        ("nginx", "defaults", "no"),
        ("nginx", "buffering_off", None),
        ("caddy", "defaults", None),
        ("mitmproxy", "defaults", None),
        ("mitmproxy", "stream_large_bodies_1", None),
    ]:
        rows.append(Row(kind, setting, "slow_reader", "lesson_lib", accel))
    return tuple(rows)


#: The combinations the course measures (the committed matrix has one observation per row, in order).
ROWS: tuple[Row, ...] = _rows()


def measure(rows: Iterable[Row] = ROWS, *, workers: int = 6) -> list[Observation]:
    """:func:`observe` for each row, ``workers`` at a time in threads (each proxy is its own process), in
    the rows' order. Each row is checked before anything starts."""
    rows = list(rows)
    for row in rows:
        if not isinstance(row, Row):
            raise TypeError(f"rows must hold Row values, got {type(row).__name__}")
        _check(row.kind, row.setting, row.upstream, row.client, row.x_accel_buffering)
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be an int of at least 1, not {workers!r}")
    with ThreadPoolExecutor(workers) as pool:
        return list(
            pool.map(
                lambda r: observe(
                    r.kind, r.setting, r.upstream, r.client, x_accel_buffering=r.x_accel_buffering
                ),
                rows,
            )
        )


def _version(kind: str) -> str:
    try:
        program = find_executable(kind)
    except Exception:
        return "not installed"
    flag = {"nginx": ["-v"], "caddy": ["version"], "mitmproxy": ["--version"]}[kind]
    done = subprocess.run([program, *flag], capture_output=True, text=True, timeout=30, check=False)
    out = (done.stdout + done.stderr).strip().splitlines()
    return out[0].strip() if out else "unknown"


def versions() -> dict[str, str]:
    """The versions measured: nginx's, Caddy's and mitmproxy's own words (their first line), openai's."""
    import openai

    found = {kind: _version(kind) for kind in ("nginx", "caddy", "mitmproxy")}
    found["openai"] = openai.__version__
    return found


def matrix_json(
    observations: Sequence[Observation], found_versions: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The committed form: ``versions``, ``upstreams`` (what each does), ``clients`` and ``rows`` (one
    :meth:`Observation.as_row` each, in order). Deterministic: no time, port or text in it."""
    return {
        "versions": dict(versions() if found_versions is None else found_versions),
        "upstreams": dict(UPSTREAMS),
        "clients": list(MATRIX_CLIENTS),
        "rows": [observation.as_row() for observation in observations],
    }


def _cell(row: Mapping[str, Any]) -> str:
    parts = [
        str(row["delivery"]),
        f"reads: {row['reads']}",
        "text intact" if row["text_intact"] else "text NOT intact",
        str(row["outcome"]) + (f" ({row['raised']})" if row["raised"] else ""),
    ]
    if row["status"] not in (200, None):
        parts.append(f"HTTP {row['status']}")
    if row["upstream_closed"] is not None:
        parts.append("upstream closed" if row["upstream_closed"] else "upstream NOT closed")
    if row["backpressure"] is not None:
        parts.append(str(row["backpressure"]))
    return ", ".join(parts)


def matrix_markdown(data: Mapping[str, Any]) -> str:
    """``docs/proxy_matrix.md``: the versions, what each upstream does, and one table row per proxy, setting,
    upstream and ``X-Accel-Buffering``, the clients as columns."""
    clients = list(data["clients"])
    lines = [
        "# The proxy matrix (measured)",
        "",
        "Generated by `tools/proxy_matrix.py` from real proxies on 127.0.0.1 (no timings: classes only; "
        "`lesson_lib/teach/proxy_matrix.py` says how each class is decided).",
        "",
        "Versions: " + "; ".join(f"{k}: {v}" for k, v in data["versions"].items()),
        "",
        "## Upstreams",
        "",
    ]
    lines += [f"- `{name}`: {what}" for name, what in data["upstreams"].items()]
    lines += [
        "",
        "## Results",
        "",
        "| proxy | setting | upstream | X-Accel-Buffering | " + " | ".join(clients) + " |",
        "|---|---|---|---|" + "---|" * len(clients),
    ]
    groups: dict[tuple[str, str, str, str], dict[str, str]] = {}
    for row in data["rows"]:
        accel = row["x_accel_buffering"] or "(none)"
        groups.setdefault((row["kind"], row["setting"], row["upstream"], accel), {})[row["client"]] = _cell(
            row
        )
    for (kind, setting, upstream, accel), cells in groups.items():
        lines.append(
            f"| {kind} | {setting} | {upstream} | {accel} | "
            + " | ".join(cells.get(c, "") for c in clients)
            + " |"
        )
    return "\n".join(lines) + "\n"


def committed_matrix(path: Path = COMMITTED) -> dict[str, Any]:
    """The committed matrix, as :func:`matrix_json` made it (``docs/proxy_matrix.json``; a checkout has it, an
    installed wheel does not: ``FileNotFoundError`` then names the path)."""
    with open(path, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data
