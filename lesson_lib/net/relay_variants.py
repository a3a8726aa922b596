"""The relay's pipelines: how a gateway turns upstream reads into the SSE its client reads.

Each pipeline is one coroutine ``run(reads, emit, plan)``: it reads the upstream body (``reads``, an async
iterable of bytes, the transport's reads) and writes what its client gets by awaiting ``emit(frame)``,
which sends and flushes at once. :mod:`lesson_lib.net.relay` runs one per request, chosen by name.

``correct`` is what :mod:`lesson_lib.net.relay` stands for: the upstream body goes through lesson_lib's layers
(strict UTF-8 across reads, lines across reads, events across reads), every complete upstream unit (an SSE
event or comment, an NDJSON value, a JSON array element) is re-emitted as one SSE event the moment it is
complete, and the upstream :class:`~lesson_lib.core.completion.StreamResult` follows as a last event of its
own, ``event: outcome`` (:func:`outcome_frame`).

What the correct pipeline guarantees, in every chunking of the upstream body (``tests/net/test_relay.py``):

* no upstream can forge the verdict: an upstream event whose type is ``outcome``, or already starts with
  :data:`ESCAPE_PREFIX`, is forwarded with :data:`ESCAPE_PREFIX` put before its type (``outcome`` ->
  ``upstream:outcome``; :func:`unescape_type` undoes it), so ``event: outcome`` on the relay's output is
  only ever the relay's own, and it is the last event;
* nothing is forwarded after the outcome is decided: a unit is written only once
  :func:`~lesson_lib.core.completion.aconsume` has read the upstream read it came in and has not decided the
  stream with it; from the read that decided it, the units before the deciding point are written (a service
  error's own event included, the event a contract could not read or the one over ``max_events``
  excluded), and nothing after;
* event ids reach the client as the upstream set them, resets included: ``id:`` is written whenever the
  last event ID changes, an empty ``id`` line when it goes back to the empty string.

The other six are faulty on purpose, each the pattern of a real incident (see :data:`VARIANTS`), so a
lesson can show each failure on the same bytes beside the correct one.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import re
import threading
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.completion import DEFAULT_LIMITS, Outcome, StreamResult, aconsume
from ..core.contracts import Terminal, contract_class, get_contract
from ..core.errors import BoundaryError, FramingError
from ..core.framing import FramingParser, framing
from ..core.options import ConsumeOptions
from ..core.sse import Comment, Event
from ..i18n import text
from .replay import encode_events

__all__ = [
    "ESCAPE_PREFIX",
    "FINISH_INVENTIONS",
    "OUTCOME_EVENT",
    "VARIANTS",
    "Emit",
    "Plan",
    "check_variant",
    "outcome_frame",
    "outcome_summary",
    "relay_bytes",
    "run_variant",
    "unescape_type",
]

Emit = Callable[[bytes], Awaitable[None]]

#: The event type of the relay's last event (reserved: an upstream event of this type is escaped).
OUTCOME_EVENT = "outcome"

#: Put before the type of an upstream event named ``outcome`` or already starting with this prefix: the
#: escape is one-to-one (:func:`unescape_type` undoes it) and never produces ``outcome``.
ESCAPE_PREFIX = "upstream:"


def escape_type(event_type: str) -> str:
    """The type the relay forwards for an upstream event type: never :data:`OUTCOME_EVENT`, one-to-one."""
    if event_type == OUTCOME_EVENT or event_type.startswith(ESCAPE_PREFIX):
        return ESCAPE_PREFIX + event_type
    return event_type


def unescape_type(event_type: str) -> str:
    """The upstream's type of a relayed event (the inverse of the relay's escape)."""
    return event_type.removeprefix(ESCAPE_PREFIX)

class _Descriptions(Mapping[str, str]):
    """Each pipeline's name and the incident pattern it reproduces, in the current language: the names are
    fixed (they are what a relay's ``variant`` takes); each description is looked up in the catalogue
    (``relay.variant.<name>``) when it is read, so a Chinese notebook prints it in Chinese."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._names = names

    def __getitem__(self, name: str) -> str:
        if name not in self._names:
            raise KeyError(name)
        return text(f"relay.variant.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return repr(dict(self))


#: Every pipeline by name, with the incident pattern it reproduces (``correct`` reproduces none), in the
#: current language (:func:`lesson_lib.set_language`).
VARIANTS: Mapping[str, str] = _Descriptions(
    (
        "correct",
        "per-chunk-decode",
        "regex-split",
        "raw-rewrite",
        "drop-terminal",
        "invent-finish",
        "no-disconnect",
    )
)

#: The terminal frames ``invent-finish`` makes up, per contract (the ones it can imitate).
FINISH_INVENTIONS: Mapping[str, bytes] = {
    "openai-chat": b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    "anthropic-messages": b'event: message_delta\ndata: {"type":"message_delta","delta":'
    b'{"stop_reason":"end_turn"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    "ollama": b'data: {"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n\n',
}


def check_variant(variant: object, contract: str) -> str:
    """Return ``variant`` if it names a pipeline usable with ``contract``; else raise ``ValueError``."""
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}; got {variant!r}")
    if variant == "invent-finish" and contract not in FINISH_INVENTIONS:
        raise ValueError(
            f"variant 'invent-finish' imitates the terminal of {', '.join(FINISH_INVENTIONS)} only, "
            f"not of contract {contract!r}"
        )
    return variant


@dataclass(frozen=True)
class Plan:
    """What one relayed request needs: the upstream's contract, :func:`aconsume` options (timeouts), an
    optional text rewrite ``(old, new)`` applied to what is forwarded, and ``recut``: write each forwarded
    event in two pieces cut inside its first multi-byte character, ``recut_delay`` seconds apart."""

    contract: str
    consume_options: ConsumeOptions = field(default_factory=lambda: ConsumeOptions())
    rewrite: tuple[str, str] | None = None
    recut: bool = False
    recut_delay: float = 0.0


# --- the relay's own last event ----------------------------------------------------------------------------


def outcome_summary(result: StreamResult) -> dict[str, Any]:
    """The upstream verdict without content: outcome, where it was cut, finish reason, and the error's kind,
    offset, whether that offset is exact (``offset_exact``: ``False`` when it is the end of the read the
    error was found in) and event index."""
    error = result.error
    return {
        "outcome": str(result.outcome),
        "truncated_at": result.truncated_at,
        "finish_reason": result.finish_reason,
        "error": None
        if error is None
        else {
            "kind": error.kind,
            "offset": error.offset,
            "offset_exact": error.offset_exact,
            "event_index": error.event_index,
        },
    }


def outcome_frame(summary: Mapping[str, Any]) -> bytes:
    """``event: outcome`` with the summary as one line of JSON (ASCII: no character can be cut)."""
    return b"event: %s\ndata: %s\n\n" % (OUTCOME_EVENT.encode(), json.dumps(summary).encode("ascii"))


# --- framing: one upstream unit -> one SSE event -------------------------------------------------------


def _value_frame(value: Any) -> bytes:
    return b"data: " + json.dumps(value, ensure_ascii=False).encode("utf-8") + b"\n\n"


class _Framer:
    """Complete upstream units as SSE frames: SSE events (and comments) re-encoded, JSON values as data.

    Its parser is the one :func:`~lesson_lib.core.completion.aconsume` uses (strict, the default limits), so
    it completes the same units at the same points; after a decode error or a limit it stops (keeping what
    completed before). Event types are escaped (:func:`escape_type`) and ``id:`` is written whenever the last
    event ID changes, so a reset to the empty string reaches the client."""

    def __init__(self, contract: str, rewrite: tuple[str, str] | None) -> None:
        self.parser: FramingParser = framing(contract_class(contract).framing).new_parser(
            max_line_chars=DEFAULT_LIMITS["max_line_chars"],
            max_event_chars=DEFAULT_LIMITS["max_event_chars"],
            max_element_chars=DEFAULT_LIMITS["max_element_chars"],
        )
        self.rewrite = rewrite
        self.failed = False
        self.sent_id = ""  # the last event ID the client's parser holds

    def frame(self, unit: Any) -> bytes:
        """The bytes that forward ``unit`` (call in forwarding order: ids are written as they change)."""
        if isinstance(unit, Comment):
            return b":" + unit.text.encode("utf-8") + b"\n\n"
        if isinstance(unit, Event):
            data = unit.data if self.rewrite is None else unit.data.replace(*self.rewrite)
            head = b""
            if unit.type != "message":
                head += b"event: " + escape_type(unit.type).encode("utf-8") + b"\n"
            if unit.last_event_id != self.sent_id:
                new_id = unit.last_event_id.encode("utf-8")
                head += b"id: " + new_id + b"\n" if new_id else b"id\n"
                self.sent_id = unit.last_event_id
            return head + encode_events([Event("message", data, "")])
        frame = _value_frame(unit)
        if self.rewrite is not None:
            old, new = (part.encode("utf-8") for part in self.rewrite)
            frame = frame.replace(old, new)
        return frame

    def feed(self, chunk: bytes) -> list[Any]:
        return self._step(self.parser.feed, chunk)

    def close(self) -> list[Any]:
        return self._step(lambda _: self.parser.close(), b"")

    def _step(self, call: Callable[[bytes], list[Any]], chunk: bytes) -> list[Any]:
        if self.failed:
            return []
        try:
            return list(call(chunk))
        except BoundaryError as exc:  # what the call completed before it raised is forwarded
            self.failed = True
            return list(exc.outputs)


def _first_character_cut(frame: bytes) -> int | None:
    """An offset inside the first multi-byte UTF-8 character of ``frame`` (after its lead byte), if any."""
    for index, byte in enumerate(frame):
        if byte >= 0xC0:
            return index + 1
    return None


async def _send(emit: Emit, frame: bytes, plan: Plan) -> None:
    cut = _first_character_cut(frame) if plan.recut else None
    if cut is None:
        await emit(frame)
        return
    await emit(frame[:cut])
    await asyncio.sleep(plan.recut_delay)
    await emit(frame[cut:])


# --- the pipelines ------------------------------------------------------------------------------------------


def _decided_units(units: list[tuple[int, Any]], result: StreamResult) -> list[Any]:
    """Of the units of the read that decided the stream, those before the deciding point.

    ``units`` are ``(event index, unit)`` (a comment has the index of the next event). A service error's
    own event is kept (it is what the client needs to see); the event a contract could not read
    (``FramingError``) and the one over ``max_events`` are not; any other decision (a parser's decode
    error or limit, found before or after these units; ``max_bytes_without_progress``, checked at the
    read's end; the end of the body) keeps them all."""
    error = result.error
    if error is None or error.event_index is None:
        return [unit for _, unit in units]
    if result.outcome is Outcome.SERVICE_ERROR:
        kept = []
        for index, unit in units:
            kept.append(unit)
            if index == error.event_index and not isinstance(unit, Comment):
                return kept
        return kept
    if error.kind == "FramingError" or error.limit == "max_events":
        return [unit for index, unit in units if index < error.event_index]
    return [unit for _, unit in units]


async def _forward_units(
    reads: AsyncIterable[bytes], emit: Emit, plan: Plan, keep: Callable[[Any], bool] = lambda _: True
) -> StreamResult:
    """The correct core: every complete unit forwarded (if ``keep``) once ``aconsume`` has read its read
    without deciding the stream; from the deciding read, the units before the decision; then the verdict.

    A read's units wait only until ``aconsume`` asks for the next read (it has judged this one by then):
    no round trip, nothing held for longer than the pipeline takes to judge one read."""
    framer = _Framer(plan.contract, plan.rewrite)
    pending: list[tuple[int, Any]] = []  # (event index, unit) of the last read handed to aconsume
    events = 0  # upstream events (not comments) completed so far
    handed = 0  # reads handed to aconsume

    def collect(units: list[Any]) -> None:
        nonlocal events
        for unit in units:
            pending.append((events, unit))
            if not isinstance(unit, Comment):
                events += 1

    async def forward(units: list[Any]) -> None:
        for unit in units:
            if keep(unit):  # (framed only when sent: an id is written with the first event that carries it)
                await _send(emit, framer.frame(unit), plan)

    async def tee() -> AsyncIterator[bytes]:
        nonlocal handed
        async for chunk in reads:
            collect(framer.feed(chunk))
            handed += 1
            yield chunk
            # aconsume asked for another read: it judged the last one and did not decide the stream.
            units = [unit for _, unit in pending]
            pending.clear()
            await forward(units)
        collect(framer.close())  # aconsume's finish() judges these

    result = await aconsume(tee(), plan.contract, **plan.consume_options)
    if pending and result.stats.reads == handed:  # the last read was judged (not refused by a clock)
        await forward(_decided_units(pending, result))
    return result


async def _correct(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    result = await _forward_units(reads, emit, plan)
    await emit(outcome_frame(outcome_summary(result)))


async def _per_chunk_decode(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    async def lossy() -> AsyncIterator[bytes]:
        async for chunk in reads:
            yield chunk.decode("utf-8", errors="replace").encode("utf-8")  # THE BUG: each read alone

    await _correct(lossy(), emit, plan)


_BLANK_LINE = re.compile(r"\n\n")


async def _regex_split(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # characters are held correctly

    async def tee() -> AsyncIterator[bytes]:
        async for chunk in reads:
            text = decoder.decode(chunk)
            for block in _BLANK_LINE.split(text):  # THE BUG: no buffer carried from one read to the next
                if block.strip():
                    if plan.rewrite is not None:
                        block = block.replace(*plan.rewrite)
                    await emit(block.encode("utf-8") + b"\n\n")
            yield chunk

    result = await aconsume(tee(), plan.contract, **plan.consume_options)
    await emit(outcome_frame(outcome_summary(result)))


async def _raw_rewrite(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    old, new = (s.encode("utf-8") for s in plan.rewrite) if plan.rewrite else (b"", b"")

    async def tee() -> AsyncIterator[bytes]:
        async for chunk in reads:
            await emit(chunk.replace(old, new) if old else chunk)  # THE BUG: the raw read, rewritten alone
            yield chunk

    result = await aconsume(tee(), plan.contract, **plan.consume_options)
    await emit(outcome_frame(outcome_summary(result)))


def _is_terminal_checker(plan: Plan) -> Callable[[Any], bool]:
    # The same contract, with the same request id (if it needs one), as aconsume judges the stream with.
    judge = get_contract(plan.contract, request_id=plan.consume_options.get("request_id"))

    def is_not_terminal(unit: Any) -> bool:
        if isinstance(unit, Comment):
            return True
        try:
            return not any(isinstance(signal, Terminal) for signal in judge.interpret(unit))
        except FramingError:
            return True

    return is_not_terminal


async def _drop_terminal(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    # THE BUG: the service's "done" is swallowed and nothing says how the upstream ended.
    await _forward_units(reads, emit, plan, keep=_is_terminal_checker(plan))


async def _invent_finish(reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    result = await _forward_units(reads, emit, plan)
    summary = outcome_summary(result)
    if summary["outcome"] in ("truncated", "timed_out"):  # THE BUG: a cut answer reported as finished
        await emit(FINISH_INVENTIONS[plan.contract])
        summary = {"outcome": "completed", "truncated_at": None, "finish_reason": "stop", "error": None}
    await emit(outcome_frame(summary))


_PIPELINES: Mapping[str, Callable[[AsyncIterable[bytes], Emit, Plan], Awaitable[None]]] = {
    "correct": _correct,
    "per-chunk-decode": _per_chunk_decode,
    "regex-split": _regex_split,
    "raw-rewrite": _raw_rewrite,
    "drop-terminal": _drop_terminal,
    "invent-finish": _invent_finish,
    "no-disconnect": _correct,  # the pipeline is correct; lesson_lib.net.relay does not watch the client
}


async def run_variant(variant: str, reads: AsyncIterable[bytes], emit: Emit, plan: Plan) -> None:
    """Run the pipeline ``variant`` (checked with :func:`check_variant`) from ``reads`` to ``emit``."""
    await _PIPELINES[check_variant(variant, plan.contract)](reads, emit, plan)


def relay_bytes(variant: str, chunks: list[bytes], plan: Plan) -> list[bytes]:
    """Run pipeline ``variant`` over ``chunks`` (the upstream's reads) without a socket; return its writes.

    The very code :class:`~lesson_lib.net.relay.RelayServer` runs per request, driven by ``asyncio.run``: for
    tests over every chunking and for a lesson's side-by-side, where a socket would add nothing but time.
    """
    check_variant(variant, plan.contract)
    writes: list[bytes] = []

    async def reads() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    async def emit(frame: bytes) -> None:
        writes.append(frame)

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop in this thread (a script, a test): run one here
        asyncio.run(run_variant(variant, reads(), emit, plan))
        return writes
    # A loop already runs in this thread (a notebook kernel): run ours in a thread of its own.
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(run_variant(variant, reads(), emit, plan))
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=run, name="relay_bytes")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return writes
