"""The kinds of fault, for any contract's writer: each recipe makes a fault's plan and declares its verdict.

A recipe takes a :class:`~lesson_lib.faults.wire.Wire` (and where to strike) and returns a :class:`Made`:
``plan(call)`` (the :class:`~lesson_lib.faults.plan.Plan` for an accepted call) and ``expected``, the
verdict the course's rules give for what the recipe does, with the text of the units that arrived whole
(declared by the writer, :func:`~lesson_lib.faults.wire.text_of`):

* a stream whose bytes are all there and end with the service's whole-answer terminal is ``completed``,
  however its reads were cut, whatever its line endings, with a BOM, gzip or no charset (lessons 01-03, 06);
* the service's own end with a cut reason (length, max tokens) is ``incomplete`` (04, 09);
* a body that stops before the terminal signal (a clean EOF, EOF inside a line or an event, a reset, a
  chunked body without its last chunk) is ``truncated``, with the text of the whole units before the cut:
  what :mod:`lesson_lib.net.http` reports for a transport error in the body (``truncated``, the exception's
  name in ``error.kind``) and for a clean EOF alike (04, 06);
* an in-band error after ``200 OK``, and an error status (judged as the course does: no stream to read,
  the service refused) are ``service_error``; invalid UTF-8 is ``decode_error`` (01, 04);
* a duplicated terminal or events after it change nothing: a correct client stops at the first (04);
* time (05, 08): the bytes of a stall, a trickle or heartbeats prove what they prove (``expected``); a
  client whose clock is shorter is right to stop with ``timed_out`` and the text so far (``also``).

Pacing: pieces :data:`PACE` apart, so that a client's reads fall where the plan cuts (the server flushes
each :class:`~lesson_lib.faults.plan.Send` alone); the slow faults take at most about 2.5 s each.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .plan import Ending, Pause, Plan, Send, Step
from .request import Call, Request
from .wire import ANSWER, CUT_ANSWER, Unit, Wire, text_of
from .wire_mcp import MCPWire
from .wire_openai import OpenAIResponsesWire

__all__ = [
    "HEARTBEAT_INTERVAL",
    "HEARTBEAT_SECONDS",
    "IDLE_TIMEOUT",
    "PACE",
    "SAMPLE_CALL",
    "STALL_SECONDS",
    "TRICKLE_SECONDS",
    "Made",
]

#: Seconds between two pieces of a normal fault.
PACE = 0.01
#: The idle (and progress) timeout the course's clients use against the fault server, in seconds. Real
#: defaults are far longer (openai's read timeout is 600 s; anthropic's too): these faults are scaled down.
IDLE_TIMEOUT = 1.0
#: A stall: longer than :data:`IDLE_TIMEOUT`, the 1 s idle timeout the course's clients use here; real
#: defaults are longer (openai's read timeout is 600 s).
STALL_SECONDS = 1.5
#: Heartbeats: one every :data:`HEARTBEAT_INTERVAL` seconds (well inside an idle timeout) for
#: :data:`HEARTBEAT_SECONDS` in all (longer than a 1 s progress timeout), then the server's cap ends it.
HEARTBEAT_INTERVAL = 0.2
HEARTBEAT_SECONDS = 2.0
#: A trickle: one event sent one byte at a time over this many seconds (each byte well inside the idle
#: timeout, the whole event longer than a 1 s progress timeout).
TRICKLE_SECONDS = 1.25

#: The call the declared verdicts are computed for (the text never depends on the call).
SAMPLE_CALL = Call(Request("POST", "", "", (), b""), request_id=1)

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Made:
    """What a recipe made: the plan for an accepted call, the declared verdict, and the fault's flags."""

    plan: Callable[[Call], Plan]
    expected_outcome: str
    expected_text: str
    also: tuple[tuple[str, str], ...] = ()
    timed: bool = False
    resumable: bool = False


# --- plan helpers ---------------------------------------------------------------------------------------


def paced(pieces: Sequence[bytes], pause: float = PACE) -> list[Step]:
    """``pieces`` as steps, :data:`PACE` apart (empty pieces are left out)."""
    steps: list[Step] = []
    for piece in pieces:
        if not piece:
            continue
        if steps:
            steps.append(Pause(pause))
        steps.append(Send(piece))
    return steps


def stream(
    wire: Wire,
    steps: Sequence[Step],
    *,
    charset: bool = True,
    end: Ending = "clean",
    extra: tuple[tuple[str, str], ...] = (),
) -> Plan:
    """A ``200`` streamed response of ``steps`` with the wire's headers (chunked)."""
    return Plan(200, (*wire.headers(charset), *extra), tuple(steps), end=end)


def split(data: bytes, cuts: Sequence[int]) -> list[bytes]:
    """``data`` cut at the offsets ``cuts`` (sorted, each inside ``data``)."""
    bounds = [0, *sorted(set(cuts)), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def _datas(units: Sequence[Unit]) -> list[bytes]:
    return [unit.data for unit in units]


def _index(units: Sequence[Unit], kind: str, n: int = 0) -> int:
    """The index of the ``n``-th unit of ``kind`` (negative ``n`` counts from the end)."""
    return [i for i, unit in enumerate(units) if unit.kind == kind][n]


def _not_in_character(data: bytes, cut: int) -> int:
    """``cut`` moved back to the start of the UTF-8 character it falls in."""
    while cut > 0 and 0x80 <= data[cut] < 0xC0:
        cut -= 1
    return cut


def mid_line(unit: Unit) -> int:
    """An offset in the middle of ``unit``'s last field line (its only line, for NDJSON; the middle of an
    element, for a JSON array), between two characters."""
    data = unit.data
    start = max(data.rfind(b"data:"), 0)
    end = len(data.rstrip(b"\r\n"))
    return _not_in_character(data, (start + end) // 2)


def mid_event(unit: Unit, eol: str) -> int:
    """The offset after an SSE event's field lines, before the blank line that would dispatch it."""
    return len(unit.data) - len(eol)


def _gzip(pieces: Sequence[bytes]) -> list[bytes]:
    """Each piece compressed into one gzip stream and flushed (``Z_SYNC_FLUSH``), so each decompresses
    as it arrives; the last carries the gzip trailer."""
    compressor = zlib.compressobj(wbits=31)
    out = [compressor.compress(piece) + compressor.flush(zlib.Z_SYNC_FLUSH) for piece in pieces]
    out[-1] += compressor.flush()
    return out


# --- recipes: the bytes -------------------------------------------------------------------------------------


def control(wire: Wire, *, charset: bool = True, pieces: Sequence[str] = ANSWER) -> Made:
    """The whole answer, one unit per read: ``completed``."""
    return Made(
        lambda call: stream(wire, paced(_datas(wire.answer(call, pieces))), charset=charset),
        "completed",
        text_of(wire.answer(SAMPLE_CALL, pieces)),
    )


def read_cuts(
    wire: Wire, cut: Callable[[Unit], Sequence[int]], *, eol: str | None = None, bom: bool = False
) -> Made:
    """The whole answer, each unit's reads cut where ``cut(unit)`` says (offsets in the unit), its line
    endings replaced by ``eol`` (``"\\r\\n"``, ``"\\r"``), a BOM first: ``completed``."""

    def units(call: Call) -> list[Unit]:
        out = wire.answer(call)
        if eol is not None:
            out = [Unit(_endings(unit.data, eol), unit.kind, unit.text, unit.number) for unit in out]
        return out

    def plan(call: Call) -> Plan:
        pieces: list[bytes] = []
        for i, unit in enumerate(units(call)):
            data, cuts = unit.data, list(cut(unit))
            if bom and i == 0:
                data, cuts = BOM + data, [2, *(len(BOM) + c for c in cuts)]  # the BOM itself cut too
            pieces.extend(split(data, [c for c in cuts if 0 < c < len(data)]))
        return stream(wire, paced(pieces))

    return Made(plan, "completed", text_of(units(SAMPLE_CALL)))


def _endings(data: bytes, eol: str) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", eol.encode())


def in_characters(*chars: str) -> Callable[[Unit], list[int]]:
    """Cuts after the first byte (and, for a 4-byte character, after its third too) of each raw ``chars``."""

    def cut(unit: Unit) -> list[int]:
        cuts = []
        for char in chars:
            encoded = char.encode("utf-8")
            at = unit.data.find(encoded)
            if at >= 0:
                cuts.append(at + 1)
                if len(encoded) == 4:
                    cuts.append(at + 3)
        return cuts

    return cut


def between_cr_and_lf(unit: Unit) -> list[int]:
    """A cut between the CR and the LF of every CRLF."""
    return [i + 1 for i in range(len(unit.data) - 1) if unit.data[i : i + 2] == b"\r\n"]


def mid_line_and_event(wire: Wire) -> Callable[[Unit], list[int]]:
    """For every text unit: a cut in the middle of its data line and one before its blank line."""

    def cut(unit: Unit) -> list[int]:
        if unit.kind != "delta":
            return []
        return [mid_line(unit), mid_event(unit, wire.eol)]

    return cut


def no_cut(unit: Unit) -> list[int]:
    return []


def ends_early(
    wire: Wire,
    units: Callable[[Call], list[Unit]],
    index: Callable[[list[Unit]], int],
    where: str = "clean",
    end: Ending = "clean",
) -> Made:
    """``units`` sent up to ``units[index]`` (exclusive), then part of that unit (``where``: ``"clean"``
    nothing of it, ``"line"`` up to the middle of its last line, ``"event"`` its field lines without the
    blank line), then the end ``end`` (``"reset"``, ``"no_terminator"``): ``truncated`` with the text of
    the units before the cut."""

    def head(call: Call) -> list[bytes]:
        out = units(call)
        k = index(out)
        pieces = _datas(out[:k])
        if where == "line":
            pieces.append(out[k].data[: mid_line(out[k])])
        elif where == "event":
            pieces.append(out[k].data[: mid_event(out[k], wire.eol)])
        return pieces

    sample = units(SAMPLE_CALL)
    return Made(
        lambda call: stream(wire, paced(head(call)), end=end), "truncated", text_of(sample[: index(sample)])
    )


def whole(
    wire: Wire,
    units: Callable[[Call], list[Unit]],
    outcome: str,
    *,
    end: Ending = "clean",
    gzip: bool = False,
) -> Made:
    """``units`` whole, one per read (gzip-compressed, with ``Content-Encoding: gzip``, if asked), ending
    with ``end``: ``outcome`` with their text."""

    def plan(call: Call) -> Plan:
        pieces = _datas(units(call))
        if gzip:
            return stream(wire, paced(_gzip(pieces)), extra=(("Content-Encoding", "gzip"),), end=end)
        return stream(wire, paced(pieces), end=end)

    return Made(plan, outcome, text_of(units(SAMPLE_CALL)))


def invalid_utf8(wire: Wire, piece: str) -> Made:
    """A byte 0xFF inside the text ``piece`` (after its first character): ``decode_error`` with the text of
    the units before it, however the reads are cut."""

    def units(call: Call) -> list[Unit]:
        out = wire.answer(call)
        k = next(i for i, unit in enumerate(out) if unit.text == piece)
        raw = piece.encode("utf-8")
        first = len(piece[0].encode("utf-8"))
        broken = out[k].data.replace(raw, raw[:first] + b"\xff" + raw[first:], 1)
        return [*out[:k], Unit(broken, "error"), *out[k + 1 :]]

    sample = units(SAMPLE_CALL)
    return Made(
        lambda call: stream(wire, paced(_datas(units(call)))),
        "decode_error",
        text_of(sample[: _index(sample, "error")]),
    )


def error_status(wire: Wire) -> Made:
    """The service's HTTP error with its JSON body, before any stream: ``service_error``, no text."""
    return Made(lambda call: wire.error_status(), "service_error", "")


# --- recipes: time ------------------------------------------------------------------------------------------


def stall(wire: Wire, index: int) -> Made:
    """The answer, silent for :data:`STALL_SECONDS` before ``units[index]``: ``completed``; a client with a
    1 s idle timeout is right with ``timed_out`` and the text before the stall."""

    def plan(call: Call) -> Plan:
        out = wire.answer(call)
        steps = [*paced(_datas(out[:index])), Pause(STALL_SECONDS), *paced(_datas(out[index:]))]
        return stream(wire, steps)

    sample = wire.answer(SAMPLE_CALL)
    return Made(plan, "completed", text_of(sample), (("timed_out", text_of(sample[:index])),), timed=True)


def _beats(wire: Wire, first: int) -> list[Step]:
    count = round(HEARTBEAT_SECONDS / HEARTBEAT_INTERVAL) + 1  # the first at once, then one an interval
    return paced([wire.heartbeat(first + i).data for i in range(count)], HEARTBEAT_INTERVAL)


def heartbeats(wire: Wire, index: int = 0) -> Made:
    """``units[:index]`` of the answer (none: heartbeats only), then only heartbeats for
    :data:`HEARTBEAT_SECONDS`, then the server's cap ends the body: ``truncated`` with the text so far; a
    client with a 1 s progress timeout is right with ``timed_out`` (an idle timeout never fires)."""

    def plan(call: Call) -> Plan:
        out = wire.answer(call)[:index]
        after = (out[-1].number or 0) + 1 if out else 0
        head = paced(_datas(out))
        return stream(wire, [*head, *([Pause(HEARTBEAT_INTERVAL)] if head else []), *_beats(wire, after)])

    text = text_of(wire.answer(SAMPLE_CALL)[:index])
    return Made(plan, "truncated", text, (("timed_out", text),), timed=True)


def trickle(wire: Wire, index: int) -> Made:
    """The answer, ``units[index]`` one byte at a time over :data:`TRICKLE_SECONDS`: ``completed`` (every
    character cut by the reads); a client with a 1 s progress timeout is right with ``timed_out`` and the
    text before that unit."""

    def plan(call: Call) -> Plan:
        out = wire.answer(call)
        data = out[index].data
        one_by_one = paced([data[i : i + 1] for i in range(len(data))], TRICKLE_SECONDS / len(data))
        steps = [
            *paced(_datas(out[:index])),
            Pause(PACE),
            *one_by_one,
            Pause(PACE),
            *paced(_datas(out[index + 1 :])),
        ]
        return stream(wire, steps)

    sample = wire.answer(SAMPLE_CALL)
    return Made(plan, "completed", text_of(sample), (("timed_out", text_of(sample[:index])),), timed=True)


# --- recipes: resuming ------------------------------------------------------------------------------------


def _rest(units: Sequence[Unit], after: int) -> list[bytes]:
    """The units a resumed stream replays: those numbered after ``after``."""
    return [unit.data for unit in units if unit.number is not None and unit.number > after]


def resumable_responses(wire: OpenAIResponsesWire, index: int) -> Made:
    """A background Responses stream reset inside ``units[index]``; ``GET .../responses/{id}?stream=true&
    starting_after=N`` answers the events after sequence number N. ``completed`` with the whole text for a
    client that resumes, ``truncated`` with the text before the drop for one that does not (or did not ask
    for a background response, which cannot be resumed)."""

    def plan(call: Call) -> Plan:
        out = wire.answer(call)
        if call.resume_after is not None:
            return stream(wire, paced(_rest(out, call.resume_after)))
        head = [*_datas(out[:index]), out[index].data[: mid_line(out[index])]]
        return stream(wire, paced(head), end="reset")

    sample = wire.answer(SAMPLE_CALL)
    also = (("truncated", text_of(sample[:index])),)
    return Made(plan, "completed", text_of(sample), also, resumable=True)


def resumable_mcp(wire: MCPWire, where: str) -> Made:
    """An MCP ``tools/call`` stream that ends before its response (``where="clean"``: the server closes
    the stream after the priming and progress events, as the specification allows; ``"reset"``: the
    connection is reset inside the response event). A ``GET`` with ``Last-Event-ID`` answers the events
    after it. ``completed`` for a client that resumes; ``truncated`` (no text) for one that does not."""

    def plan(call: Call) -> Plan:
        out = wire.answer(call)
        if call.resume_after is not None:
            return stream(wire, paced(_rest(out, call.resume_after)))
        last = out[-1]
        if where == "clean":
            return stream(wire, paced(_datas(out[:-1])))
        return stream(wire, paced([*_datas(out[:-1]), last.data[: mid_line(last)]]), end="reset")

    sample = wire.answer(SAMPLE_CALL)
    return Made(plan, "completed", text_of(sample), (("truncated", ""),), resumable=True)


def cut_answer(wire: Wire) -> Made:
    """The service's own end at its token limit: ``incomplete`` with the cut answer."""
    return whole(wire, lambda call: wire.answer(call, CUT_ANSWER, reason=wire.cut_reason), "incomplete")
