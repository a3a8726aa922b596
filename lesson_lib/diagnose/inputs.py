"""The input boundary: a capture file (a raw body, a ``curl --trace`` dump, a HAR export) as the body's reads.

:func:`open_input` detects the format from the first bytes (or takes it from ``fmt``) and returns a
:class:`Source`: its :meth:`Source.reads` yields :class:`Read` objects, the body's bytes in order, and fills
:attr:`Source.http` as the input shows the response's facts. What each format gives:

* ``raw`` (a saved body: ``curl -N -o``, a proxy's dump): the bytes, read in 64 KiB pieces. Where the
  network's reads fell is unknown (:attr:`Source.reads_known` is ``False``): the pieces are not reads;
* ``curl-trace`` (``curl --trace FILE``, with or without ``--trace-time``): parsed line by line, never held
  whole. Each ``<= Recv data`` block after the response headers is one real read; a chunked body is
  de-chunked (:class:`ChunkedDecoder`), so reads are body bytes, and whether its 0-length terminator chunk
  came is recorded; a gzip or deflate ``Content-Encoding`` is decoded read by read. The request's URL, the
  status, the headers, the times (``--trace-time``) and curl's exit status (from its closing lines) are kept;
* ``har`` (HAR 1.2, Chromium's and Firefox's exports): ONE JSON document, so it is loaded whole (the file
  and its parsed form are in memory together: a few times the file's size). The streaming entry is chosen
  (:data:`STREAMING_TYPES`), or ``entry``; ``content.text`` as text or base64. A HAR has no read
  boundaries. An entry without a body (Chromium's ``_failureText`` / size ``-1`` for a broken stream) is an
  :class:`~lesson_lib.diagnose.errors.InputError` saying what to capture instead.

Nothing here decodes, logs or stores the body's content beyond the read being handed out.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .errors import InputError

__all__ = [
    "FORMATS",
    "PIECE",
    "STREAMING_TYPES",
    "ChunkedDecoder",
    "HTTPFacts",
    "Read",
    "Source",
    "detect_format",
    "open_input",
]

#: The formats ``--format`` names; ``auto`` detects one of them from the first bytes.
FORMATS = ("raw", "curl-trace", "har")
#: How much of a raw body (or a HAR body) is handed out at a time.
PIECE = 64 * 1024
#: Media types of a streamed body, by which a HAR entry is chosen.
STREAMING_TYPES = (
    "text/event-stream",
    "application/x-ndjson",
    "application/ndjson",
    "application/jsonl",
    "application/x-jsonlines",
    "application/stream+json",
    "application/json-seq",
)
#: What to capture instead of a body a HAR does not hold.
CAPTURE_HINT = (
    "capture it with `curl -N --trace-time --trace FILE URL ...`, or save the raw body (`curl -N -o`)"
)
_MAX_TRACE_LINE = 4096
_TIME = re.compile(rb"^(\d\d):(\d\d):(\d\d)\.(\d{1,6}) ")
_BLOCK = re.compile(rb"^(=>|<=) (Send|Recv) (header|data|SSL data), (\d+) bytes")
_HEX_LINE = re.compile(rb"^[0-9a-f]{4,}: ")
_HEX_PAIR = re.compile(rb"([0-9a-f]{2}) ")
#: curl's closing messages and the exit status each goes with (``curl --trace`` writes no exit status).
CURL_ENDINGS = (
    (re.compile(rb"transfer closed with (outstanding read data remaining|\d+ bytes remaining to read)"), 18),
    (re.compile(rb"Operation timed out"), 28),
    (re.compile(rb"Empty reply from server"), 52),
    (re.compile(rb"Recv failure|Connection reset"), 56),
    (re.compile(rb"was not closed cleanly|HTTP/2 stream \d+ was reset"), 92),
    (re.compile(rb"Failed writing body"), 23),
    (re.compile(rb"[Ii]llegal or missing hexadecimal sequence in chunked-encoding|Malformed encoding"), 56),
)
_CURL_CLEAN_END = re.compile(rb"Connection #\d+ to host .* left intact|Closing connection")


@dataclass(frozen=True)
class Read:
    """One piece of the body, in order. ``time`` is the read's time in seconds after the request was sent
    (``curl --trace-time``), else ``None``."""

    data: bytes
    time: float | None = None


@dataclass
class HTTPFacts:
    """What the input shows of the HTTP exchange (``None``: not shown). Header values are the response's
    own, the few that matter to a stream; no other header is kept."""

    url: str | None = None
    status: int | None = None
    content_type: str | None = None
    content_encoding: str | None = None
    x_accel_buffering: str | None = None
    transfer_encoding: str | None = None
    chunked_terminator: bool | None = None  # a chunked body: did its 0-length chunk come?
    chunked_error: str | None = None  # the chunked framing broke here (the body stops)
    curl_exit: int | None = None

    @property
    def charset(self) -> str | None:
        """The ``charset`` parameter of ``Content-Type``, lower-cased, or ``None``."""
        if self.content_type is None:
            return None
        found = re.search(r"charset\s*=\s*\"?([\w.:-]+)", self.content_type, re.IGNORECASE)
        return found.group(1).lower() if found else None

    @property
    def chunked(self) -> bool | None:
        if self.transfer_encoding is None:
            return None if self.status is None else False
        return "chunked" in self.transfer_encoding.lower()

    def new_response(self) -> None:
        """Forget the response facts (a new status line came); the URL stays."""
        self.status = self.content_type = self.content_encoding = None
        self.x_accel_buffering = self.transfer_encoding = None
        self.chunked_terminator = None

    def header(self, name: str, value: str) -> None:
        """Record one response header if it is one of those kept (names are case-insensitive)."""
        key = name.strip().lower().replace("-", "_")
        if key in ("content_type", "content_encoding", "x_accel_buffering", "transfer_encoding"):
            setattr(self, key, value.strip())


@dataclass
class Source:
    """One input, opened: its format, how to read its body, and what it shows of the exchange."""

    format: str
    reads_known: bool
    timed: bool
    http: HTTPFacts
    _reads: Iterator[Read]
    notes: list[str] = field(default_factory=list)  # facts about the input itself (no content)
    entry: int | None = None  # HAR: the entry read
    timing: dict[str, float | None] = field(default_factory=dict)  # HAR: its own timings (seconds)

    def reads(self) -> Iterator[Read]:
        """The body's reads, once (the input is consumed as they are handed out)."""
        return self._reads


def detect_format(head: bytes) -> str:
    """The format of an input whose first bytes are ``head``: ``har``, ``curl-trace`` or ``raw``.

    Refused (:class:`InputError`): ``curl --trace-ascii`` (it loses the bytes), a gzip file, and first bytes
    that are none of SSE, JSON (NDJSON, an array), a curl trace or a HAR (a binary file)."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    line = _TIME.sub(b"", stripped[:200], count=1)
    if line.startswith((b"== Info:", b"=> Send", b"<= Recv")):
        first_block = re.search(rb"(=>|<=) (Send|Recv) [^\n]*\n([^\n]*)", head[:4096])
        if first_block and not _HEX_LINE.match(first_block.group(3)) and b"bytes (0x" in first_block.group(0):
            raise InputError(
                "this is a `curl --trace-ascii` dump, which loses the bytes; capture with `curl --trace FILE`"
            )
        return "curl-trace"
    if re.match(rb'\{\s*"log"\s*:', stripped):
        return "har"
    if head.startswith(b"\x1f\x8b"):
        raise InputError("the input is gzip-compressed: decompress it first (gunzip), then diagnose the body")
    if not stripped:
        return "raw"  # only whitespace: a raw body (of blank lines)
    if (
        b"\x00" in head[:4096]
        or stripped[:1] not in b"{[:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ):
        raise InputError(
            "unknown format: the first bytes are not a stream body (SSE, NDJSON, a JSON array), "
            "a `curl --trace` file or a HAR export; pass --format to say which it is"
        )
    return "raw"


def open_input(path: str, fmt: str = "auto", entry: int | None = None, *, piece: int = PIECE) -> Source:
    """Open ``path`` (``"-"``: standard input) as a :class:`Source` of format ``fmt`` (``"auto"``: detected).

    ``piece`` is how many bytes a raw body (or a HAR's) is handed out at a time (the verdict does not depend
    on it: ``tests/diagnose`` checks it for every piece size).

    Raises :class:`InputError` for what cannot be read as a stream: a missing file, a directory, an empty
    input, an unknown format, a bad ``entry``, a HAR entry without a body."""
    if fmt != "auto" and fmt not in FORMATS:
        raise InputError(f"--format must be auto, {', '.join(FORMATS)}; got {fmt!r}")
    if entry is not None and (isinstance(entry, bool) or not isinstance(entry, int) or entry < 0):
        raise InputError(f"--entry must be a HAR entry's index (0 or more), got {entry!r}")
    if isinstance(piece, bool) or not isinstance(piece, int) or piece < 1:
        raise ValueError(f"piece must be a positive int, got {piece!r}")
    handle = _open(path)
    try:
        head = handle.read(PIECE)
    except OSError as exc:
        handle.close()
        raise InputError(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    if not head:
        handle.close()
        raise InputError(f"{_name(path)} is empty: there is no stream to diagnose")
    try:
        chosen = detect_format(head) if fmt == "auto" else fmt
    except InputError:
        handle.close()
        raise
    if entry is not None and chosen != "har":
        handle.close()
        raise InputError(f"--entry is for a HAR export; {_name(path)} is read as {chosen}")
    if chosen == "har":
        return _har_source(head, handle, path, entry, piece)
    if chosen == "curl-trace":
        return _trace_source(head, handle)
    return Source("raw", False, False, HTTPFacts(), _pieces(head, handle, piece))


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{path} is a directory, not a capture file")
    try:
        return target.open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"cannot open {path}: {exc.strerror or type(exc).__name__}") from None


def _pieces(head: bytes, handle: IO[bytes], size: int) -> Iterator[Read]:
    try:
        for start in range(0, len(head), size):
            yield Read(head[start : start + size])
        while True:
            more = handle.read(size)
            if not more:
                break
            yield Read(more)
    finally:
        handle.close()


# -- chunked transfer encoding ----------------------------------------------------------------------------


class ChunkedDecoder:
    """Sans-IO de-chunking of an HTTP/1.1 chunked body (RFC 9112 section 7.1): ``feed(raw) -> body bytes``.

    :attr:`terminated` becomes ``True`` when the 0-length last chunk (and its trailer section) has come;
    :attr:`error` names a malformed framing (then nothing more is decoded). Its buffers are bounded: a size
    or trailer line is at most 4 KiB."""

    def __init__(self) -> None:
        self.terminated = False
        self.last_chunk = False
        self.error: str | None = None
        self._line = bytearray()
        self._remaining = 0  # body bytes left in the current chunk
        self._state = "size"  # size | data | data_end | trailer | done
        self.raw_bytes = 0

    def feed(self, raw: bytes) -> bytes:
        out = bytearray()
        view = memoryview(raw)
        i, n = 0, len(raw)
        while i < n and self.error is None and self._state != "done":
            if self._state == "data":
                take = min(self._remaining, n - i)
                out += view[i : i + take]
                i += take
                self._remaining -= take
                if not self._remaining:
                    self._state = "data_end"
                continue
            end = raw.find(b"\n", i)
            stop = n if end < 0 else end + 1
            self._line += view[i:stop]
            i = stop
            if len(self._line) > 4096:
                self.error = f"a chunk-size or trailer line longer than 4 KiB at byte {self.raw_bytes + i}"
                break
            if end < 0:
                continue
            line = bytes(self._line).rstrip(b"\r\n")
            self._line.clear()
            self._line_done(line, self.raw_bytes + i)
        self.raw_bytes += n
        return bytes(out)

    def _line_done(self, line: bytes, at: int) -> None:
        if self._state == "data_end":
            if line:
                self.error = f"chunk data longer than its size at byte {at}"
            self._state = "size"
        elif self._state == "size":
            digits = line.split(b";", 1)[0].strip()
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,16}", digits):
                self.error = f"a malformed chunk-size line at byte {at}"
                return
            self._remaining = int(digits, 16)
            self._state = "data" if self._remaining else "trailer"
            self.last_chunk = not self._remaining
        elif self._state == "trailer" and not line:
            self._state = "done"
            self.terminated = True


# -- curl --trace -----------------------------------------------------------------------------------------


def _trace_source(head: bytes, handle: IO[bytes]) -> Source:
    http, notes = HTTPFacts(), list[str]()
    reads = _TraceReader(head, handle, http, notes).reads()
    return Source("curl-trace", True, bool(_TIME.match(head.lstrip())), http, reads, notes)


class _TraceReader:
    """``curl --trace`` line by line: blocks of hex lines after a header line naming their direction."""

    def __init__(self, head: bytes, handle: IO[bytes], http: HTTPFacts, notes: list[str]) -> None:
        self.head, self.handle, self.http, self.notes = head, handle, http, notes
        self.kind: tuple[bytes, bytes] | None = None  # (Send|Recv, header|data|SSL data)
        self.expected = 0
        self.block = bytearray()
        self.block_time: float | None = None
        self.request_time: float | None = None
        self.request_head = bytearray()
        self.headers_done = False
        self.chunked: ChunkedDecoder | None = None
        self.inflate: Any = None
        self.day = 0.0
        self.last_clock: float | None = None
        self.failure: int | None = None
        self.clean_end = False
        self.https = False

    def _lines(self) -> Iterator[bytes]:
        pending = self.head
        try:
            while True:
                while True:
                    end = pending.find(b"\n")
                    if end < 0:
                        break
                    line, pending = pending[:end], pending[end + 1 :]
                    yield line.rstrip(b"\r")
                if len(pending) > _MAX_TRACE_LINE:
                    raise InputError("not a curl --trace file: a line longer than 4 KiB")
                more = self.handle.read(PIECE)
                if not more:
                    break
                pending += more
        finally:
            self.handle.close()
        if pending:
            self.notes.append("the trace ends in the middle of a line (the file was cut)")
            yield pending.rstrip(b"\r")

    def _clock(self, line: bytes) -> tuple[float | None, bytes]:
        found = _TIME.match(line)
        if not found:
            return None, line
        h, m, s, frac = found.groups()
        clock = int(h) * 3600 + int(m) * 60 + int(s) + int(frac.ljust(6, b"0")) / 1e6 + self.day
        if self.last_clock is not None and clock < self.last_clock - 43200:  # past midnight
            self.day += 86400.0
            clock += 86400.0
        self.last_clock = clock
        return clock, line[found.end() :]

    def reads(self) -> Iterator[Read]:
        for raw_line in self._lines():
            clock, line = self._clock(raw_line)
            if _HEX_LINE.match(line):
                if self.kind is not None:
                    hex_part = line[line.index(b": ") + 2 :][:48] + b" "
                    self.block += bytes.fromhex(b"".join(_HEX_PAIR.findall(hex_part)).decode("ascii"))
                continue
            yield from self._end_block()
            block = _BLOCK.match(line)
            if block:
                self.kind = (block.group(2), block.group(3))
                self.expected = int(block.group(4))
                self.block_time = clock
                if self.request_time is None and block.group(2) == b"Send" and clock is not None:
                    self.request_time = clock
            elif line.startswith(b"== Info:"):
                self._info(line)
            elif line.strip():
                raise InputError("not a curl --trace file: a line that is neither a block, hex nor Info")
        yield from self._end_block()
        yield from self._finish()

    def _info(self, line: bytes) -> None:
        if self.failure is None:
            for pattern, status in CURL_ENDINGS:
                if pattern.search(line):
                    self.failure = status
                    return
        if _CURL_CLEAN_END.search(line):
            self.clean_end = True
        elif b"SSL connection using" in line or b"TLSv1" in line:
            self.https = True

    def _end_block(self) -> Iterator[Read]:
        if self.kind is None:
            return
        kind, data, self.kind = self.kind, bytes(self.block), None
        self.block.clear()
        if len(data) < self.expected:
            self.notes.append(f"a trace block holds {len(data)} of its {self.expected} bytes (cut)")
        direction, what = kind
        if direction == b"Send" and what == b"header":
            self.request_head += data
            self._url()
        elif direction == b"Recv" and what == b"header":
            self._response_header(data)
        elif direction == b"Recv" and what == b"data":
            body = self._body(data)
            if body:
                when = None
                if self.block_time is not None and self.request_time is not None:
                    when = self.block_time - self.request_time
                yield Read(body, when)

    def _url(self) -> None:
        text = self.request_head.decode("latin-1")
        request_line = text.split("\r\n", 1)[0].split(" ")
        host = re.search(r"\r\n(?:Host|:authority):\s*([^\r\n]+)", text, re.IGNORECASE)
        if len(request_line) >= 2:
            target = request_line[1]
            scheme = "https" if self.https else "http"
            if target.startswith(("http://", "https://")):
                self.http.url = target
            else:
                self.http.url = f"{scheme}://{host.group(1).strip() if host else ''}{target}"

    def _response_header(self, data: bytes) -> None:
        line = data.decode("latin-1").strip("\r\n")
        if line.startswith("HTTP/"):
            parts = line.split(" ", 2)
            status = parts[1] if len(parts) > 1 else ""
            self.http.new_response()  # (after a 100 Continue, a redirect)
            self.http.status = int(status) if status.isdigit() else None
            self.headers_done = False
        elif not line:
            self.headers_done = True
            if self.http.chunked:
                self.chunked = ChunkedDecoder()
                self.http.chunked_terminator = False
            encoding = (self.http.content_encoding or "identity").lower()
            if encoding in ("gzip", "x-gzip", "deflate"):
                self.inflate = zlib.decompressobj(47 if "gzip" in encoding else 15)
            elif encoding != "identity":
                raise InputError(f"the body is {encoding}-encoded, which diagnose cannot decode")
        elif ":" in line:
            name, value = line.split(":", 1)
            self.http.header(name, value)

    def _body(self, data: bytes) -> bytes:
        if self.chunked is not None:
            if self.chunked.terminated or self.chunked.error:
                return b""
            data = self.chunked.feed(data)
            self.http.chunked_terminator = self.chunked.last_chunk
            if self.chunked.error:
                self.http.chunked_error = self.chunked.error
        if self.inflate is not None and data:
            try:
                data = self.inflate.decompress(data)
            except zlib.error:
                self.http.chunked_error = "the compressed body is corrupt"
                self.inflate = None
                return b""
        return data

    def _finish(self) -> Iterator[Read]:
        if self.failure is not None:
            self.http.curl_exit = self.failure
        elif self.clean_end:
            self.http.curl_exit = 0
        return iter(())


# -- HAR --------------------------------------------------------------------------------------------------


def _har_source(head: bytes, handle: IO[bytes], path: str, entry: int | None, piece: int) -> Source:
    try:
        document = head + handle.read()
    finally:
        handle.close()
    try:
        har = json.loads(document.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        where = f" (char {exc.pos})" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(
            f"{_name(path)} is not valid HAR JSON{where}: the export is cut or corrupt"
        ) from None
    entries = har.get("log", {}).get("entries") if isinstance(har, dict) else None
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{_name(path)} is a HAR export without entries")
    index = _choose_entry(entries, entry)
    chosen = entries[index] if isinstance(entries[index], dict) else {}
    request, response = _obj(chosen.get("request")), _obj(chosen.get("response"))
    content = _obj(response.get("content"))
    http = HTTPFacts(url=_str(request.get("url")))
    status = response.get("status")
    http.status = status if isinstance(status, int) and status > 0 else None
    for header in response.get("headers") or []:
        if isinstance(header, dict):
            http.header(str(header.get("name", "")), str(header.get("value", "")))
    if http.content_type is None and isinstance(content.get("mimeType"), str):
        http.content_type = content["mimeType"]
    body = _har_body(chosen, response, content, index)
    notes = [f"HAR entry {index} of {len(entries)}"]
    if content.get("encoding") != "base64":
        notes.append("the HAR holds the body as text: its bytes are that text re-encoded as UTF-8")
    timings = _obj(chosen.get("timings"))
    wait = timings.get("wait")
    timing = {"time_to_first_byte": wait / 1000 if isinstance(wait, (int, float)) and wait >= 0 else None}
    return Source("har", False, False, http, _split(body, piece), notes, index, timing)


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _streaming(entry: Any) -> bool:
    response = _obj(_obj(entry).get("response"))
    types = [str(_obj(response.get("content")).get("mimeType", ""))]
    types += [
        str(h.get("value", ""))
        for h in response.get("headers") or []
        if isinstance(h, dict) and str(h.get("name", "")).lower() == "content-type"
    ]
    return any(kind in t.lower() for t in types for kind in STREAMING_TYPES)


def _choose_entry(entries: list[Any], entry: int | None) -> int:
    if entry is not None:
        if entry >= len(entries):
            raise InputError(f"--entry {entry}: the HAR has {len(entries)} entries (0 to {len(entries) - 1})")
        return entry
    streaming = [i for i, e in enumerate(entries) if _streaming(e)]
    if not streaming:
        if len(entries) == 1:
            return 0
        raise InputError(
            f"none of the HAR's {len(entries)} entries is a streamed response (text/event-stream, "
            "application/x-ndjson, ...): choose one with --entry N"
        )
    return streaming[-1]


def _har_body(entry: dict[str, Any], response: dict[str, Any], content: dict[str, Any], index: int) -> bytes:
    failure = next(
        (
            str(place[key])
            for place in (entry, response, content)
            for key in ("_failureText", "_error")
            if place.get(key)
        ),
        None,
    )
    text = content.get("text")
    if not isinstance(text, str) or (not text and (failure or content.get("size", 0) in (-1, None))):
        why = f" ({failure})" if failure else (" (size -1)" if content.get("size") == -1 else "")
        raise InputError(f"HAR entry {index} has no body{why}: the browser did not keep it; {CAPTURE_HINT}")
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=False)
        except (binascii.Error, ValueError):
            raise InputError(f"HAR entry {index}: its base64 content does not decode") from None
    return text.encode("utf-8", "surrogatepass")


def _split(body: bytes, size: int) -> Iterator[Read]:
    for start in range(0, len(body), size):
        yield Read(body[start : start + size])
