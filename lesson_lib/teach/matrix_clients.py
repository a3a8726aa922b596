"""The proxy matrix's clients, each reading one upstream through one URL while a :class:`Watch` looks on.

Three clients (:data:`MATRIX_CLIENTS`): lesson_lib's :func:`~lesson_lib.net.stream_http_updates`, the
official ``openai`` SDK read as :func:`lesson_lib.teach.fault_clients.read_openai` reads it, and the same
SDK over lesson_lib's guard (``lesson_lib.guard.Client``). Each is given an HTTP client whose transport is
the library's own ``HTTPTransport`` with one addition: it counts the body's reads and keeps the status.

A *read* is one non-empty piece of the body as the HTTP transport hands it up (httpcore's, what
``iter_raw`` yields, before any decompression): about one per socket receive that carried body bytes, one
per chunk when a receive holds several. The :class:`Watch` also notes how many body bytes the upstream had
sent when the client first had answer text: the class "streamed" / "at once" is read from that, never
from a clock.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.completion import StreamResult
from ..core.contracts.signals import TextDelta
from ..net.replay import ReplayServer
from .fault_clients import CONNECT_SECONDS, read_openai, request_json
from .fault_verdicts import outcome_of

__all__ = [
    "LEAVE_AFTER",
    "MATRIX_CLIENTS",
    "NO_TEXT_LEAVE",
    "READ_SECONDS",
    "SLOW_STEP",
    "Run",
    "Watch",
    "run_client",
]

#: The clients of the matrix, in column order.
MATRIX_CLIENTS = ("lesson_lib", "openai", "guard+openai")
#: Each client's wait for one read, in seconds: longer than any silence an upstream makes (the stall), so
#: what the matrix shows is the proxy's doing, not the client's timeout.
READ_SECONDS = 10.0
#: ``client_leaves``: the client leaves this many seconds after its first text arrived (counted from the
#: text, not the request, so a busy machine's slow start cannot make a streamed answer look held back).
LEAVE_AFTER = 1.0
#: ``client_leaves``: a client that has had no text for this many seconds leaves too (its read timeout):
#: behind a proxy that holds the whole answer back (the upstream takes about 6 s), it gets nothing.
NO_TEXT_LEAVE = 3.0
#: ``slow_reader``: the client handles one chunk per SLOW_STEP seconds, for SLOW_FOR seconds.
SLOW_STEP = 0.1
SLOW_FOR = 3.0
PATH = "/v1/chat/completions"


@dataclass
class Watch:
    """What one client run did, counted as it went (never content): reads, status, the upstream's body
    bytes sent when the first answer text arrived, and the text kept."""

    server: ReplayServer
    reads: int = 0
    status: int | None = None
    sent_at_first_text: int | None = None
    first_text_at: float | None = None  # monotonic time the first answer text arrived
    parts: list[str] = field(default_factory=list)
    left_at: float | None = None  # monotonic time the client left (client_leaves, slow_reader)
    sent_before: int | None = None  # slow_reader: upstream body bytes sent 1 s before the client leaves
    sent_at_leaving: int | None = None  # slow_reader: the same when it leaves

    def on_read(self) -> None:
        """One non-empty body read arrived."""
        self.reads += 1

    def on_text(self, text: str) -> None:
        """The client's user got ``text`` (possibly empty)."""
        if text and self.sent_at_first_text is None:
            self.sent_at_first_text = self.server.body_bytes_sent
            self.first_text_at = time.monotonic()
        self.parts.append(text)

    @property
    def text(self) -> str:
        """The text the client's user kept."""
        return "".join(self.parts)


@dataclass(frozen=True)
class Run:
    """The end of one client run: ``outcome`` (as :class:`lesson_lib.Outcome` names it; ``cancelled``
    when the user left on purpose) and ``raised``, the exception it was read from, if any."""

    outcome: str
    raised: str | None = None


def _counting(module: Any, watch: Watch) -> Any:
    """``module``'s (httpx's or httpx2's) ``HTTPTransport`` that tells ``watch`` of each body read."""

    class Counted(module.SyncByteStream):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __iter__(self) -> Iterator[bytes]:
            for piece in self.inner:
                if piece:
                    watch.on_read()
                yield piece

        def close(self) -> None:
            self.inner.close()

    class Counting(module.HTTPTransport):  # type: ignore[misc,name-defined]
        def handle_request(self, request: Any) -> Any:
            response = super().handle_request(request)
            watch.status = response.status_code
            response.stream = Counted(response.stream)
            return response

    return Counting()


class _Leave(Exception):
    """The user leaves: raised from the text callback to end an SDK iteration (never outside this module)."""


def _leaving(upstream: str, started: float, watch: Watch) -> Callable[[], bool]:
    """Whether the user leaves now: LEAVE_AFTER seconds after the first text (client_leaves), or SLOW_FOR
    seconds after the start (slow_reader)."""
    after = {"client_leaves": LEAVE_AFTER, "slow_reader": SLOW_FOR}.get(upstream)

    def leave() -> bool:
        if after is None:
            return False
        if upstream == "client_leaves":
            if watch.first_text_at is None:
                return False
            started_at = watch.first_text_at
        else:
            started_at = started
        spent = time.monotonic() - started_at
        if upstream == "slow_reader" and watch.sent_before is None and spent >= after - 1.0:
            watch.sent_before = watch.server.body_bytes_sent
        if spent >= after:
            watch.left_at = watch.left_at or time.monotonic()
            if watch.sent_at_leaving is None:
                watch.sent_at_leaving = watch.server.body_bytes_sent
            return True
        return False

    return leave


def _lesson_lib(url: str, upstream: str, watch: Watch) -> Run:
    import httpx

    from ..net import stream_http_updates

    started = time.monotonic()
    leave = _leaving(upstream, started, watch)
    wait = NO_TEXT_LEAVE if upstream == "client_leaves" else READ_SECONDS  # for the headers, and each read
    options: dict[str, Any] = {"idle_timeout": wait}
    result: StreamResult | None = None
    with httpx.Client(transport=_counting(httpx, watch), timeout=wait, trust_env=False) as http:
        updates = stream_http_updates(
            url + PATH, "openai-chat", json=request_json("openai-chat"), client=http, **options
        )
        with contextlib.closing(updates):
            for update in updates:
                if isinstance(update, TextDelta):
                    watch.on_text(update.text)
                    if upstream == "slow_reader":
                        time.sleep(SLOW_STEP)
                    if leave():
                        break
                elif isinstance(update, StreamResult):
                    result = update
    if upstream == "client_leaves" and watch.left_at is None:
        watch.left_at = time.monotonic()
    if result is None:
        return Run("cancelled")
    return Run(str(result.outcome))


def _sdk(url: str, upstream: str, watch: Watch, guarded: bool) -> Run:
    import httpx2

    idle = NO_TEXT_LEAVE if upstream == "client_leaves" else READ_SECONDS
    timeout = httpx2.Timeout(idle, connect=CONNECT_SECONDS)
    leave = _leaving(upstream, time.monotonic(), watch)

    class Parts(list[str]):
        def append(self, text: str) -> None:
            watch.on_text(text)
            if upstream == "slow_reader":
                time.sleep(SLOW_STEP)
            if leave():
                raise _Leave

    entry = {"name": upstream, "contract": "openai-chat", "path": PATH, "base_url": url}
    transport = _counting(httpx2, watch)
    if guarded:
        from ..guard import Client

        http: Any = Client(timeout=timeout, transport=transport)
    else:
        http = httpx2.Client(timeout=timeout, transport=transport)
    try:
        with http:
            read_openai(entry, Parts(), idle, http)
    except _Leave:
        return Run("cancelled")
    except Exception as exc:
        outcome = outcome_of(exc)
        if outcome is None:
            raise
        return Run(outcome, type(exc).__name__)
    finally:
        if upstream == "client_leaves" and watch.left_at is None:
            watch.left_at = time.monotonic()
    return Run("completed")


def run_client(client: str, url: str, upstream: str, watch: Watch) -> Run:
    """Read ``upstream``'s stream at ``url`` with ``client`` (one of :data:`MATRIX_CLIENTS`), telling
    ``watch``; returns how it ended (an exception read as an outcome, such as lesson_lib's
    ``httpx.HTTPStatusError`` for a 502, is named in ``raised``). Other exceptions (a bug) propagate."""
    if client != "lesson_lib":
        return _sdk(url, upstream, watch, guarded=client == "guard+openai")
    try:
        return _lesson_lib(url, upstream, watch)
    except Exception as exc:
        outcome = outcome_of(exc)
        if outcome is None:
            raise
        return Run(outcome, type(exc).__name__)


def wait_closed(server: ReplayServer, within: float) -> bool:
    """Whether every connection to ``server`` is closed within ``within`` seconds (polled)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if server.open_connections == 0:
            return True
        threading.Event().wait(0.05)
    return server.open_connections == 0
