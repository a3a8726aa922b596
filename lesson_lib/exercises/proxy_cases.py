"""The cases of lesson 10's exercise "which setting broke it": a proxy configuration and what arrived.

Each case is one committed configuration of :data:`lesson_lib.net.proxies.SETTINGS`, one upstream
:data:`PLANS` entry (what the upstream does, and whether it sends ``X-Accel-Buffering: no``) and what a
client that accepts gzip (as browsers and the official SDKs do) saw through that real proxy: the status, the
``Content-Encoding``, how many reads, the delivery class (``"streamed"``: more than one read, ``"at once"``:
one read and a clean end, ``"cut after one read"``: one read and then a transport error, ``"nothing"``: no
byte of body),
whether the transport ended cleanly, and what lesson_lib's contract concluded from the bytes. The
observations in :data:`OBSERVED` were measured here with :func:`measure_proxy_case` through nginx 1.22,
Caddy 2.6 and mitmproxy 11; ``tests/exercises/test_proxy_cases.py`` measures every case again and fails
if a class differs (the number of reads is compared as one or more than one: a busy machine may join two
of 126). They hold classes and counts only, no timings.

:data:`CULPRITS` are the answers a learner's function may give. Each case's answer is what broke the
stream (``"none"`` when nothing did), kept sealed (:func:`seal`) with the defensible alternatives the checker
also accepts: the reasons are in lesson 10, sections 8 and 10. Cases where an upstream drop meets a
proxy that holds the stream back are left out: their answer would be a matter of taste.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import httpx

from lesson_lib.captures import load
from lesson_lib.core.completion import Outcome, consume
from lesson_lib.i18n import text as _text
from lesson_lib.net import ReplayServer
from lesson_lib.net.proxies import SETTINGS, Proxy

__all__ = [
    "CULPRITS",
    "OBSERVED",
    "PLANS",
    "ProxyCase",
    "class_label",
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
    "proxy_ignore_headers",
)

#: What the upstream does in each plan: the ReplayServer options (pieces of 40 bytes, 20 ms apart).
PLANS: dict[str, dict[str, Any]] = {
    "completes": {},
    "drops": {"drop_after": 700},
    "pauses": {"stall_after": 10, "stall_for": 3.0},
    "pauses_before_first_token": {"stall_after": 1, "stall_for": 3.0},
    "pauses_then_drops": {"stall_after": 10, "stall_for": 3.0, "drop_after": 700},
}

#: The upstream as the learner reads it in a capture, by plan.
_UPSTREAM: dict[str, dict[str, Any]] = {
    "completes": {"ends": "completes", "pause": None},
    "drops": {"ends": "drops the connection after 700 bytes", "pause": None},
    "pauses": {"ends": "completes", "pause": {"after_piece": 10, "seconds": 3.0}},
    "pauses_before_first_token": {"ends": "completes", "pause": {"after_piece": 1, "seconds": 3.0}},
    "pauses_then_drops": {
        "ends": "drops the connection after 700 bytes",
        "pause": {"after_piece": 10, "seconds": 3.0},
    },
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
_GZIPPED_STREAMED = _arrived(126, "streamed", "clean end", "completed", "gzip")
_Key = tuple[str, str, str, str | None]

#: (kind, setting, plan, X-Accel-Buffering sent by the upstream) -> what arrived, as measured.
OBSERVED: dict[_Key, dict[str, Any]] = {
    **{
        key: arrived
        for header in ("no", None)
        for key, arrived in (
            (("nginx", "defaults", "completes", header), _STREAMED),
            (("nginx", "buffering_off", "completes", header), _STREAMED),
            (("nginx", "gzip_default_types", "completes", header), _STREAMED),
            (("nginx", "gzip_buffering_off", "completes", header), _GZIPPED_STREAMED),
            (("nginx", "gzip_ignore_header", "completes", header), _GZIPPED_AT_ONCE),
            (("caddy", "defaults", "completes", header), _STREAMED),
            (("caddy", "flush_interval_-1", "completes", header), _STREAMED),
            (("caddy", "defaults", "drops", header), _CUT_CLEANLY),
            (("nginx", "read_timeout_1s", "pauses", header), _TIMED_OUT),
        )
    },
    ("nginx", "gzip", "completes", "no"): _GZIPPED_STREAMED,
    ("nginx", "gzip", "completes", None): _GZIPPED_AT_ONCE,
    ("nginx", "two_hops_gzip", "completes", "no"): _GZIPPED_AT_ONCE,
    ("nginx", "read_timeout_1s", "pauses_before_first_token", "no"): _arrived(
        1, "cut after one read", "error", "truncated"
    ),
    ("nginx", "defaults", "pauses", "no"): _STREAMED,
    ("nginx", "defaults", "pauses_before_first_token", "no"): _STREAMED,
    ("caddy", "defaults", "pauses", "no"): _STREAMED,
    ("nginx", "defaults", "drops", "no"): _DROPPED,
    ("nginx", "buffering_off", "drops", "no"): _DROPPED,
    ("nginx", "gzip_default_types", "drops", "no"): _DROPPED,
    ("nginx", "gzip_buffering_off", "drops", "no"): _arrived(18, "streamed", "error", "truncated", "gzip"),
    ("nginx", "read_timeout_1s", "drops", "no"): _DROPPED,
    ("mitmproxy", "defaults", "completes", "no"): _arrived(1, "at once", "clean end", "completed"),
    ("mitmproxy", "stream_large_bodies_1", "completes", "no"): _STREAMED,
    ("mitmproxy", "stream_large_bodies_1", "drops", "no"): _DROPPED,
    # a silence shorter than nginx's 60 s default, then a drop; the same silence longer than a 1 s timeout
    ("nginx", "defaults", "pauses_then_drops", "no"): _DROPPED,
    ("nginx", "read_timeout_1s", "pauses_then_drops", "no"): _TIMED_OUT,
}

#: The accepted answers of each case, sealed (see :func:`seal`): the wanted one first, then the defensible
#: alternatives. Generated from the reasons in lesson 10, section 8; ``tests/exercises`` checks them.
_SEALED: dict[_Key, tuple[str, ...]] = {
    ('nginx', 'defaults', 'completes', 'no'): ('96f3caf0a275246f',),
    ('nginx', 'buffering_off', 'completes', 'no'): ('7e3870c5f5b3847d',),
    ('nginx', 'gzip_default_types', 'completes', 'no'): ('24a194f6357d9471',),
    ('nginx', 'gzip_buffering_off', 'completes', 'no'): ('b58c454c3b1751af',),
    ('nginx', 'gzip_ignore_header', 'completes', 'no'): ('06f9d42315ce5b82',),
    ('caddy', 'defaults', 'completes', 'no'): ('e6f6043066f3b80d',),
    ('caddy', 'flush_interval_-1', 'completes', 'no'): ('3a4ef9819b1fef0f',),
    ('caddy', 'defaults', 'drops', 'no'): ('e5c26ed16f8dff30',),
    ('nginx', 'read_timeout_1s', 'pauses', 'no'): ('97602add9e0110a0',),
    ('nginx', 'defaults', 'completes', None): ('b37e8e3d39aedcab',),
    ('nginx', 'buffering_off', 'completes', None): ('683f6d0434768b85',),
    ('nginx', 'gzip_default_types', 'completes', None): ('1ddc23a003c36eb7',),
    ('nginx', 'gzip_buffering_off', 'completes', None): ('c90024a2c37830bb',),
    ('nginx', 'gzip_ignore_header', 'completes', None): ('b128976cde59b84f', '332d8e4ff5f4501d',),
    ('caddy', 'defaults', 'completes', None): ('7c2a3a49f810992d',),
    ('caddy', 'flush_interval_-1', 'completes', None): ('601fb2b11a19b6ba',),
    ('caddy', 'defaults', 'drops', None): ('a42339ff9faaea39',),
    ('nginx', 'read_timeout_1s', 'pauses', None): ('8095753e92930c60',),
    ('nginx', 'gzip', 'completes', 'no'): ('7c3efdd7a1ec9e89',),
    ('nginx', 'gzip', 'completes', None): ('62c9b6ad37c3d977', '4e733646b8f6a22b',),
    ('nginx', 'two_hops_gzip', 'completes', 'no'): ('6f0f94bb3af7b4d5',),
    ('nginx', 'read_timeout_1s', 'pauses_before_first_token', 'no'): ('b36751a96fe5693f',),
    ('nginx', 'defaults', 'pauses', 'no'): ('1aba441d7c81ddd5',),
    ('nginx', 'defaults', 'pauses_before_first_token', 'no'): ('8a5236d87ee47671',),
    ('caddy', 'defaults', 'pauses', 'no'): ('f9f58f0249bcd1a0',),
    ('nginx', 'defaults', 'drops', 'no'): ('dd33867c81be1f7b',),
    ('nginx', 'buffering_off', 'drops', 'no'): ('cbab01f8e9d7c799',),
    ('nginx', 'gzip_default_types', 'drops', 'no'): ('300e577c9db648d1',),
    ('nginx', 'gzip_buffering_off', 'drops', 'no'): ('da5893265db281fc',),
    ('nginx', 'read_timeout_1s', 'drops', 'no'): ('93f10e9d4ea5feda',),
    ('mitmproxy', 'defaults', 'completes', 'no'): ('b4ab86349523db2e',),
    ('mitmproxy', 'stream_large_bodies_1', 'completes', 'no'): ('7cdeb642831bcdf2',),
    ('mitmproxy', 'stream_large_bodies_1', 'drops', 'no'): ('3daef3e64687c1e9',),
    ('nginx', 'defaults', 'pauses_then_drops', 'no'): ('dcac54791ccea74d',),
    ('nginx', 'read_timeout_1s', 'pauses_then_drops', 'no'): ('125c228fa463c384',),
}


#: The class words :func:`class_label` knows: the cases' delivery and transport classes, their plans and the
#: outcome ``"no stream"`` (no 200, so nothing for the contract to judge), and the committed matrix's
#: upstreams and backpressure classes (:mod:`lesson_lib.teach.proxy_matrix`).
CLASS_WORDS = (
    "streamed",
    "at once",
    "cut after one read",
    "nothing",
    "clean end",
    "error",
    "no stream",
    *PLANS,
    "whole",
    "cut_in_character",
    "drop",
    "stall",
    "heartbeats",
    "client_leaves",
    "slow_reader",
    "upstream paused",
    "proxy buffered",
)


_OUTCOMES = frozenset(outcome.value for outcome in Outcome)


def class_label(word: str) -> str:
    """``word``, one of :data:`CLASS_WORDS`, as the current language shows it (in English, ``word`` itself);
    an outcome of ``consume`` (``"completed"``, ``"truncated"``...) comes back unchanged, as the glossary
    keeps the outcomes in both editions.

    The cases and the matrix keep the English words (a learner's ``which_setting`` compares them); this is
    for printing them. Raises ``ValueError`` naming ``word`` for any other value, so that a new class
    cannot reach a learner untranslated."""
    if word in _OUTCOMES:
        return word
    if word not in CLASS_WORDS:
        raise ValueError(f"word must be one of {', '.join(CLASS_WORDS)} or an outcome, not {word!r}")
    return _text(f"proxies.class.{word.replace(' ', '_')}")


def seal(key: tuple[str, str, str, str | None], answer: str) -> str:
    """The sealed form of ``answer`` for the case ``key`` (kind, setting, plan, header): a digest, so that the
    answers are not in what a notebook imports."""
    kind, setting, plan, header = key
    text = f"10.which_setting:{kind}/{setting}/{plan}/{header}:{answer}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def strip_comments(config: str) -> str:
    """``config`` without its comment lines (``#`` to the end of a line): the directives alone."""
    return "\n".join(line for line in config.splitlines() if not line.lstrip().startswith("#")) + "\n"


@dataclass(frozen=True)
class ProxyCase:
    """One case: the proxy's ``config`` (text), the ``capture`` the learner reads, and its sealed answers."""

    kind: str
    setting: str
    plan: str
    header: str | None
    commented: bool
    config: str
    capture: dict[str, Any]
    sealed: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str, str, str | None]:
        """(kind, setting, plan, header): the case without its comments flag."""
        return (self.kind, self.setting, self.plan, self.header)

    def accepts(self, answer: object) -> bool:
        """Whether ``answer`` is one of this case's accepted answers (the wanted one or an alternative)."""
        return isinstance(answer, str) and seal(self.key, answer) in self.sealed

    def describe(self) -> str:
        """The case in a few words, as a learner may see it: proxy, comments kept or removed, upstream plan,
        header. Neither its answer nor its setting's name (which would narrow the answer) is in it."""
        sent = "sends X-Accel-Buffering: no" if self.header else "sends no X-Accel-Buffering"
        comments = "with its comments" if self.commented else "comments removed"
        return f"{self.kind} ({comments}), upstream {self.plan.replace('_', ' ')}, {sent}"


def _capture(kind: str, plan: str, header: str | None, arrived: dict[str, Any]) -> dict[str, Any]:
    upstream: dict[str, Any] = {"x_accel_buffering": header, **_UPSTREAM[plan]}
    return {"proxy": kind, "upstream": upstream, **arrived}


def exercise_cases() -> list[ProxyCase]:
    """Every case, each configuration with its comments and without them, in a fixed order."""
    out = []
    for key, arrived in OBSERVED.items():
        kind, setting, plan, header = key
        text = SETTINGS[(kind, setting)].text()
        for commented in (True, False):
            config = text if commented else strip_comments(text)
            capture = _capture(kind, plan, header, arrived)
            out.append(ProxyCase(kind, setting, plan, header, commented, config, capture, _SEALED[key]))
    return out


def _delivery(reads: int, transport: str) -> str:
    if reads == 0:
        return "nothing"
    if reads == 1:
        return "cut after one read" if transport == "error" else "at once"
    return "streamed"


def measure_proxy_case(kind: str, setting: str, plan: str, header: str | None) -> dict[str, Any]:
    """Run the upstream ``plan`` through the real proxy ``kind`` with ``setting`` and read it as a client
    that accepts gzip: what arrived, as :data:`OBSERVED` stores it (classes and counts, no timings).

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
    delivery = _delivery(reads, transport)
    return {**_arrived(reads, delivery, transport, outcome, encoding), "status": status}
