"""The cases of lesson 10's exercise "which setting broke it": a proxy configuration and what arrived.

Each case is one committed configuration of :data:`lesson_lib.net.proxies.SETTINGS`, one upstream
:data:`PLANS` entry (what the upstream does, and whether it sends ``X-Accel-Buffering: no``) and what a
client that accepts gzip (as browsers and the official SDKs do) saw through that real proxy: the status, the
``Content-Encoding``, how many reads, the delivery class (``"streamed"``: more than one read, ``"at once"``:
one read, ``"nothing"``: no byte of body),
whether the transport ended cleanly, and what lesson_lib's contract concluded from the bytes. The
observations in :data:`MEASURED` were measured here with :func:`measure_proxy_case` through nginx 1.22,
Caddy 2.6 and mitmproxy 11; ``tests/exercises/test_proxy_cases.py`` measures every case again and fails
if a class differs (the number of reads is compared as one or more than one: a busy machine may join two
of 126). They hold classes and counts only, no timings.

:data:`CULPRITS` are the answers a learner's function may give. Each case's ``culprit`` is what broke the
stream (``"none"`` when nothing did): the reasons are in lesson 10, section 8. Cases where two causes are
mixed (an upstream drop behind a proxy that also buffers) are left out, so that each case has one answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from lesson_lib.captures import load
from lesson_lib.core.completion import consume
from lesson_lib.net import ReplayServer
from lesson_lib.net.proxies import SETTINGS, Proxy

__all__ = [
    "CULPRITS",
    "MEASURED",
    "PLANS",
    "ProxyCase",
    "exercise_cases",
    "measure_proxy_case",
    "strip_comments",
]

#: What a learner's ``which_setting(config, capture)`` may return.
CULPRITS = (
    "none",
    "upstream_drop",
    "proxy_buffering",
    "gzip_types",
    "header_lost",
    "proxy_read_timeout",
    "stream_large_bodies",
)

#: What the upstream does in each plan: the ReplayServer options (pieces of 40 bytes, 20 ms apart).
PLANS: dict[str, dict[str, Any]] = {
    "completes": {},
    "drops": {"drop_after": 700},
    "pauses": {"stall_after": 10, "stall_for": 3.0},
    "pauses_before_first_token": {"stall_after": 1, "stall_for": 3.0},
}

#: The upstream as the learner reads it in a capture, by plan.
_UPSTREAM: dict[str, dict[str, Any]] = {
    "completes": {"ends": "completes", "pause": None},
    "drops": {"ends": "drops the connection after 700 bytes", "pause": None},
    "pauses": {"ends": "completes", "pause": {"after_piece": 10, "seconds": 3.0}},
    "pauses_before_first_token": {"ends": "completes", "pause": {"after_piece": 1, "seconds": 3.0}},
}


def _arrived(
    reads: int, delivery: str, transport: str, outcome: str, encoding: str | None = None
) -> dict[str, Any]:
    return {
        "status": 200,
        "content_encoding": encoding,
        "reads": reads,
        "delivery": delivery,
        "transport": transport,
        "outcome": outcome,
    }


_STREAMED = _arrived(126, "streamed", "clean end", "completed")
_DROPPED = _arrived(18, "streamed", "error", "truncated")
_CUT_CLEANLY = _arrived(18, "streamed", "clean end", "truncated")
_TIMED_OUT = _arrived(10, "streamed", "error", "truncated")
_GZIPPED_AT_ONCE = _arrived(1, "at once", "clean end", "completed", "gzip")
_Row = tuple[str, str, str, str | None, str, dict[str, Any]]

#: (kind, setting, plan, X-Accel-Buffering sent by the upstream, culprit, what arrived), as measured.
_ROWS: tuple[_Row, ...] = (
    *(
        row
        for header in ("no", None)
        for row in (
            ("nginx", "defaults", "completes", header, "none", _STREAMED),
            ("nginx", "buffering_off", "completes", header, "none", _STREAMED),
            ("nginx", "gzip_default_types", "completes", header, "none", _STREAMED),
            ("caddy", "defaults", "completes", header, "none", _STREAMED),
            ("caddy", "flush_interval_-1", "completes", header, "none", _STREAMED),
            ("caddy", "defaults", "drops", header, "upstream_drop", _CUT_CLEANLY),
            ("nginx", "read_timeout_1s", "pauses", header, "proxy_read_timeout", _TIMED_OUT),
        )
    ),
    ("nginx", "gzip", "completes", "no", "none", _arrived(126, "streamed", "clean end", "completed", "gzip")),
    ("nginx", "gzip", "completes", None, "gzip_types", _GZIPPED_AT_ONCE),
    ("nginx", "two_hops_gzip", "completes", "no", "header_lost", _GZIPPED_AT_ONCE),
    (
        "nginx",
        "read_timeout_1s",
        "pauses_before_first_token",
        "no",
        "proxy_read_timeout",
        _arrived(1, "at once", "error", "truncated"),
    ),
    ("nginx", "defaults", "pauses", "no", "none", _STREAMED),
    ("nginx", "defaults", "pauses_before_first_token", "no", "none", _STREAMED),
    ("caddy", "defaults", "pauses", "no", "none", _STREAMED),
    ("nginx", "defaults", "drops", "no", "upstream_drop", _DROPPED),
    ("nginx", "buffering_off", "drops", "no", "upstream_drop", _DROPPED),
    ("nginx", "gzip_default_types", "drops", "no", "upstream_drop", _DROPPED),
    ("nginx", "read_timeout_1s", "drops", "no", "upstream_drop", _DROPPED),
    (
        "mitmproxy",
        "defaults",
        "completes",
        "no",
        "stream_large_bodies",
        _arrived(1, "at once", "clean end", "completed"),
    ),
    ("mitmproxy", "stream_large_bodies_1", "completes", "no", "none", _STREAMED),
    ("mitmproxy", "stream_large_bodies_1", "drops", "no", "upstream_drop", _DROPPED),
)

#: (kind, setting, plan, X-Accel-Buffering sent by the upstream) -> (what arrived, the culprit).
MEASURED: dict[tuple[str, str, str, str | None], tuple[dict[str, Any], str]] = {
    (kind, setting, plan, header): (arrived, culprit)
    for kind, setting, plan, header, culprit, arrived in _ROWS
}


def strip_comments(config: str) -> str:
    """``config`` without its comment lines (``#`` to the end of a line): the directives alone."""
    return "\n".join(line for line in config.splitlines() if not line.lstrip().startswith("#")) + "\n"


@dataclass(frozen=True)
class ProxyCase:
    """One case: the proxy's ``config`` (text), the ``capture`` the learner reads, and the ``culprit``."""

    kind: str
    setting: str
    plan: str
    header: str | None
    commented: bool
    config: str
    capture: dict[str, Any]
    culprit: str

    def describe(self) -> str:
        """The case in a few words, without its answer: proxy, setting file, upstream plan, header."""
        sent = "sends X-Accel-Buffering: no" if self.header else "sends no X-Accel-Buffering"
        comments = "with its comments" if self.commented else "comments removed"
        return f"{self.kind} {self.setting} ({comments}), upstream {self.plan.replace('_', ' ')}, {sent}"


def _capture(kind: str, plan: str, header: str | None, arrived: dict[str, Any]) -> dict[str, Any]:
    upstream: dict[str, Any] = {"x_accel_buffering": header, **_UPSTREAM[plan]}
    return {"proxy": kind, "upstream": upstream, **arrived}


def exercise_cases() -> list[ProxyCase]:
    """Every case, each configuration with its comments and without them, in a fixed order."""
    out = []
    for (kind, setting, plan, header), (arrived, culprit) in MEASURED.items():
        text = SETTINGS[(kind, setting)].text()
        for commented in (True, False):
            config = text if commented else strip_comments(text)
            capture = _capture(kind, plan, header, arrived)
            out.append(ProxyCase(kind, setting, plan, header, commented, config, capture, culprit))
    return out


def measure_proxy_case(kind: str, setting: str, plan: str, header: str | None) -> dict[str, Any]:
    """Run the upstream ``plan`` through the real proxy ``kind`` with ``setting`` and read it as a client
    that accepts gzip: what arrived, as :data:`MEASURED` stores it (classes and counts, no timings).

    Raises ``ValueError`` naming ``kind and setting``, ``plan`` or ``header`` before any I/O.
    """
    if (kind, setting) not in SETTINGS:
        known = ", ".join(f"{k} {name}" for k, name in SETTINGS)
        raise ValueError(f"kind and setting must be one of {known}, not {kind} {setting!r}")
    if plan not in PLANS:
        raise ValueError(f"plan must be one of {', '.join(PLANS)}, not {plan!r}")
    if header not in ("no", None):
        raise ValueError(f"header must be 'no' or None, not {header!r}")
    body = load("openai-chat/completed").body
    cuts = range(40, len(body), 40)
    status, encoding, reads, raw, transport = 0, None, 0, b"", "clean end"
    upstream = ReplayServer(body, cuts, delay=0.02, x_accel_buffering=header, **PLANS[plan])
    with upstream, Proxy(kind, upstream.url, setting) as proxy:
        try:
            with httpx.stream("GET", proxy.url + "/", headers={"Accept-Encoding": "gzip"}, timeout=30) as r:
                status, encoding = r.status_code, r.headers.get("content-encoding")
                for piece in r.iter_bytes():
                    reads += 1
                    raw += piece
        except httpx.TransportError:
            transport = "error"
    outcome = consume([raw], "openai-chat").outcome if status == 200 else "no stream"
    delivery = "nothing" if reads == 0 else "at once" if reads == 1 else "streamed"
    return {**_arrived(reads, delivery, transport, outcome, encoding), "status": status}
