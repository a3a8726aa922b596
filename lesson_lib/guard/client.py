"""``Client`` and ``AsyncClient``: httpx2 clients that judge every streamed answer they carry.

Pass one as ``http_client=`` to ``openai.OpenAI`` / ``AsyncOpenAI`` or ``anthropic.Anthropic`` /
``AsyncAnthropic`` (both SDKs take an ``httpx2`` client; anthropic takes nothing else). Everything else is
httpx2's: the constructor's arguments, the pool, the timeouts, proxies and mounts.

Only :meth:`Client.send` is overridden, the one public method every request goes through. A response is
judged when its request's path names a contract (:func:`~.paths.contract_for_path`, or ``contract=``),
its status is 2xx, and either its ``Content-Type`` is a stream (``text/event-stream``,
``application/x-ndjson``) or the request's JSON body asked for ``"stream": true``. Its stream is then
wrapped (:mod:`.streams`): the reader gets the same bytes, and an :class:`~.errors.UnprovenStreamError`
instead of a silent end when the answer is not proven whole. Any other response is returned as httpx2 made
it, untouched.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx2

from .errors import GuardReport
from .paths import ContractChoice, check_choice, contract_for_path
from .streams import AsyncGuardedStream, GuardedStream
from .watch import Watch

__all__ = ["AsyncClient", "Client"]

STREAM_TYPES = ("text/event-stream", "application/x-ndjson")
#: A request body larger than this is not parsed to look for ``"stream": true`` (the path and the
#: response's Content-Type still decide).
MAX_SNIFFED_BODY = 1024 * 1024


def _asked_to_stream(request: httpx2.Request) -> bool:
    try:
        body = request.content
    except httpx2.RequestNotRead:
        return False
    if not body or len(body) > MAX_SNIFFED_BODY or b'"stream"' not in body:
        return False
    try:
        payload = json.loads(body)
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("stream") is True


class _Guard:
    """What both clients share: the choice of contract, the report hook, and when to judge."""

    def __init__(self, contract: object, on_report: object) -> None:
        self.choice: ContractChoice = check_choice(contract)
        if on_report is not None and not callable(on_report):
            raise TypeError(
                f"on_report must be a callable taking a GuardReport, got {type(on_report).__name__}"
            )
        self.hook: Callable[[GuardReport], None] | None = on_report  # type: ignore[assignment]
        self.last_report: GuardReport | None = None

    def record(self, report: GuardReport) -> None:
        self.last_report = report
        if self.hook is not None:
            self.hook(report)

    def watch(self, response: httpx2.Response, started: float) -> Watch | None:
        request = response.request
        contract = contract_for_path(request.url.path, self.choice)
        if contract is None or not 200 <= response.status_code < 300:
            return None
        media = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if media not in STREAM_TYPES and not _asked_to_stream(request):
            return None
        return Watch(
            contract,
            method=request.method,
            path=request.url.path,
            status=response.status_code,
            content_encoding=response.headers.get("Content-Encoding", ""),
            started=started,
            on_report=self.record,
        )


class _Guarded:
    """The arguments both clients add to httpx2's (the one constructor and ``last_report`` of the two)."""

    def __init__(
        self,
        *,
        contract: ContractChoice = None,
        on_report: Callable[[GuardReport], None] | None = None,
        **kwargs: Any,
    ) -> None:
        self._guard = _Guard(contract, on_report)
        super().__init__(**kwargs)

    @property
    def last_report(self) -> GuardReport | None:
        """The report of the latest judged response to end (``None`` before one has)."""
        return self._guard.last_report


class Client(_Guarded, httpx2.Client):
    """An ``httpx2.Client`` that judges each streamed answer (see the module docstring).

    ``contract``: ``None`` (the path decides: :data:`~.paths.PATH_CONTRACTS`), one contract name for every
    streamed answer, or a mapping from path endings to contract names. ``on_report``: called with the
    :class:`~.errors.GuardReport` of each judged response when it ends; the latest is also
    :attr:`last_report`. Both are checked here, before any I/O. Every other argument is httpx2's.
    """

    def send(self, request: httpx2.Request, *, stream: bool = False, **kwargs: Any) -> httpx2.Response:
        started = time.perf_counter()
        response = super().send(request, stream=True, **kwargs)
        try:
            watch = self._guard.watch(response, started)
            if watch is not None:
                inner = response.stream
                assert isinstance(inner, httpx2.SyncByteStream)
                response.stream = GuardedStream(inner, watch)
            if not stream:
                response.read()
        except BaseException:
            response.close()
            raise
        return response


class AsyncClient(_Guarded, httpx2.AsyncClient):
    """An ``httpx2.AsyncClient`` that judges each streamed answer: the same arguments as :class:`Client`."""

    async def send(self, request: httpx2.Request, *, stream: bool = False, **kwargs: Any) -> httpx2.Response:
        started = time.perf_counter()
        response = await super().send(request, stream=True, **kwargs)
        try:
            watch = self._guard.watch(response, started)
            if watch is not None:
                inner = response.stream
                assert isinstance(inner, httpx2.AsyncByteStream)
                response.stream = AsyncGuardedStream(inner, watch)
            if not stream:
                await response.aread()
        except BaseException:
            await response.aclose()
            raise
        return response
