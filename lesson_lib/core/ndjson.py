"""JSON streams without SSE: newline-delimited JSON (Ollama), one growing JSON array (Gemini without alt).

Both parsers are sans-IO, like :class:`~lesson_lib.core.sse.SSEParser`: ``feed(bytes)`` returns the values
that the bytes completed, ``close()`` says whether the stream ended at a boundary. A value is parsed exactly
once, with the standard library's ``json`` (control characters in strings rejected), and only when its unit is
complete: an NDJSON line once its LF has arrived, an array element once its closing bracket, quote or
delimiter has arrived. Nothing is ever parsed at ``close()``: a last line without its LF is a cut line.

* :class:`NDJSONParser`: UTF-8 decoder -> :class:`~lesson_lib.core.lines.LineSplitter` (``endings="lf"``, one
CR
  before the LF removed) -> ``json.loads`` per line. Lines of JSON whitespace only are skipped. Raw U+2028,
  U+2029 and U+0085 inside strings are data: only LF ends a line.
* :class:`JSONArrayParser`: UTF-8 decoder -> a scanner that tracks where it is in ``[elem, elem, ...]``
  (before the ``[``, between elements, inside one: nesting depth, inside a string, after a backslash) and
  cuts out each top-level element. Every character is scanned once, by compiled regular expressions that
  jump over runs which cannot change the state; the element so far is kept as a list of fragments.

Errors (all :class:`~lesson_lib.core.errors.BoundaryError`) carry the absolute byte offset. Positions are
tracked in characters and turned into byte offsets only on error paths, as in :mod:`lesson_lib.core.sse`.
An error raised by ``feed()`` or ``close()`` carries in ``outputs`` the values that the same call had
already completed before the error (they would otherwise be lost with the exception), so that for
every chunking the values before the first error are the same. Errors are reported in stream order:
the first fault in the bytes is the one raised, whatever the chunking.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from .decoding import IncrementalUTF8Decoder, as_bytes, replace_escapes, utf8_length
from .errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
)
from .lines import DEFAULT_MAX_LINE_CHARS as _LINE_LAYER_DEFAULT
from .lines import LineSplitter
from .options import check_int
from .pieces import CHECK_EVERY, compact_tail

__all__ = [
    "DEFAULT_MAX_ELEMENT_CHARS",
    "DEFAULT_MAX_LINE_CHARS",
    "JSONArrayParser",
    "NDJSONParser",
    "parse_json_array",
    "parse_ndjson",
]

#: Default bound on one NDJSON line, in characters: the line layer's default (4 Mi), far above Ollama's
#: largest line (the last ``/api/generate`` object, which carries the ``context`` token list).
DEFAULT_MAX_LINE_CHARS: int = _LINE_LAYER_DEFAULT

#: Default bound on one JSON array element, in characters: the same as one SSE event's data (16 Mi),
#: because with ``alt=sse`` Gemini sends exactly this element as one event (inline images included).
DEFAULT_MAX_ELEMENT_CHARS: int = 16 * 1024 * 1024

_LINE_WHITESPACE = " \t\r"  # JSON whitespace that can occur inside an NDJSON line


def _check_errors_mode(errors: str) -> None:
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', got {errors!r}")


def _check_limit(name: str, value: int | None) -> None:
    check_int(name, value, minimum=1, none=True)


class _JSONTextParser:
    """What both parsers share: the decoder, the open/closed/failed state, errors in stream order."""

    _decoder: IncrementalUTF8Decoder

    def __init__(self, errors: str) -> None:
        _check_errors_mode(errors)
        self._errors = errors
        self._replace = errors == "replace"
        # In replace mode the decoder keeps invalid bytes as escapes so that every character still maps
        # to its bytes (exact error offsets); they become U+FFFD just before json.loads.
        self._decoder = IncrementalUTF8Decoder("strict" if errors == "strict" else "surrogateescape")
        self._state = "open"  # "open", "closed" or "failed"
        self._ended_mid: str | None = None

    @property
    def errors(self) -> str:
        return self._errors

    @property
    def state(self) -> str:
        """``"open"``, ``"closed"`` (after a clean ``close()``) or ``"failed"`` (after any error)."""
        return self._state

    @property
    def bytes_in(self) -> int:
        """How many bytes have been fed in total."""
        return self._decoder.bytes_in

    @property
    def held_bytes(self) -> bytes:
        """Character layer: the 0-3 bytes of an unfinished UTF-8 character."""
        return self._decoder.held_bytes

    @property
    def ended_mid(self) -> str | None:
        """After ``close()`` (clean or not): the innermost unit the stream ended inside, or ``None``."""
        return self._ended_mid

    def feed(self, chunk: bytes) -> list[Any]:
        """Parse one read of any size (0 bytes included); return the values it completed, in order."""
        if chunk.__class__ is not bytes:
            chunk = as_bytes(chunk)  # "feed() takes bytes, got str", before any state changes
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self._decoder.bytes_in)
        out: list[Any] = []
        try:
            byte_base = self._decoder.bytes_decoded
            try:
                text = self._decoder.feed(chunk)
            except StreamDecodeError as exc:
                # Text before the bad byte is valid: parse it first, so that an earlier fault in the same
                # read is the one reported (the first fault in the stream, whatever the chunking).
                if exc.text_before:
                    self._process(exc.text_before, byte_base, out)
                raise
            if text:
                self._process(text, byte_base, out)
            return out
        except BoundaryError as exc:
            self._state = "failed"
            exc.outputs = out
            raise
        except BaseException:  # whatever escaped, the state may be half-updated: refuse further input
            self._state = "failed"
            raise

    def close(self) -> list[Any]:
        """End of input. Never parses a unit that did not end; see the subclass for what raises."""
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self._decoder.bytes_in)
        out: list[Any] = []
        try:
            if self._decoder.held_bytes:
                self._ended_mid = "character"
            byte_base = self._decoder.bytes_decoded
            tail = self._decoder.close()  # strict mode: TruncatedCharacterError if bytes are held
            if tail:
                # Replace mode: the held bytes became escapes; they cannot end a line or an element.
                self._process(tail, byte_base, out)
            self._finish()
        except BoundaryError as exc:
            self._state = "failed"
            exc.outputs = out
            raise
        except BaseException:
            self._state = "failed"
            raise
        self._state = "closed"
        return out

    def _loads(self, text: str) -> Any:
        """``json.loads`` of one whole unit; in replace mode, invalid bytes become U+FFFD first."""
        return json.loads(replace_escapes(text) if self._replace else text)

    def _json_error(
        self, exc: Exception, text: str, start_byte: int, unit: str, **where: int
    ) -> FramingError:
        """A :class:`FramingError` at the byte where ``json`` found ``text`` (one unit) invalid."""
        if isinstance(exc, json.JSONDecodeError):
            pos = exc.pos
            if self._replace and not text.isascii():
                # exc.pos counts characters of the replaced text; a run of escapes may have become fewer
                # U+FFFD. Both parse identically (non-ASCII data either way), so re-parse for the position.
                try:
                    json.loads(text)
                except json.JSONDecodeError as raw:
                    pos = raw.pos
                except (ValueError, RecursionError):
                    pass
            return FramingError(
                f"invalid JSON in {unit} ({exc.msg.removesuffix(' at')})",
                offset=start_byte + utf8_length(text[:pos]),
                **where,
            )
        if isinstance(exc, RecursionError):
            reason = "nested too deeply for the json module"
        else:
            reason = "a number too long for int() (sys.get_int_max_str_digits())"
        return FramingError(f"invalid JSON in {unit} ({reason})", offset=start_byte, **where)

    def _process(self, text: str, byte_base: int, out: list[Any]) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError


class NDJSONParser(_JSONTextParser):
    """Sans-IO newline-delimited JSON parser (``application/x-ndjson``, as Ollama streams).

    One JSON text per line; LF ends a line, and one CR before it is removed (CRLF works). Lines of JSON
    whitespace only (space, tab, CR) are skipped. Raw U+2028, U+2029 and U+0085 are data, never endings.

    Guarantees, for every chunking of the same bytes:

    * ``feed()`` returns the values of exactly the lines its bytes completed, each equal to ``json.loads``
      of the line; the same values come out in the same order; no value is parsed twice or before its LF;
    * a line that is not one valid JSON text raises :class:`FramingError` at the absolute byte offset where
      the JSON error is (line start plus the error's position, in bytes) with ``line_index`` (0-based,
      blank lines counted);
    * a line longer than ``max_line_chars`` (without its line ending) raises :class:`LimitExceededError`
      at the byte offset of its first character past the limit; nothing is dropped;
    * ``close()`` raises :class:`IncompleteStreamError` (``unit="line"``, offset where the line starts) if
      a non-blank line has no LF, and in strict mode :class:`TruncatedCharacterError` if the stream ended
      mid-character. ``errors="replace"`` turns invalid UTF-8 into U+FFFD as a browser does; strict mode
      raises :class:`StreamDecodeError` at the first invalid byte.

    Cost is linear in the bytes; memory is bounded by ``max_line_chars`` plus one read. After an error or
    ``close()`` the parser refuses input (:class:`ParserStateError`).
    """

    def __init__(self, errors: str = "strict", max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS) -> None:
        super().__init__(errors)
        _check_limit("max_line_chars", max_line_chars)
        self._lines = LineSplitter("lf", max_line_chars)
        self._values_out = 0
        # Where the pending line starts, kept unevaluated: (text of a read, its byte offset, char index).
        self._origin: tuple[str, int, int] = ("", 0, 0)
        # The current read's text and where it starts, for error offsets of lines after the first.
        self._text = ""
        self._text_byte_base = 0
        self._text_char_base = 0

    # -- state, for the lessons' inspectors ----------------------------------------------------------
    @property
    def pending_line(self) -> str:
        """Line layer: the unfinished line (invalid bytes shown as U+FFFD in replace mode)."""
        text = self._lines.pending_text
        return replace_escapes(text) if self._replace else text

    @property
    def pending_line_chars(self) -> int:
        """Line layer: characters of the unfinished line so far (O(1), without joining it)."""
        return self._lines.pending_chars

    @property
    def pending_line_start(self) -> int:
        """The absolute byte offset where the unfinished line starts (or will start)."""
        text, base, index = self._origin
        return base + utf8_length(text[:index])

    def pending_sizes(self) -> tuple[int, int, int, bool]:
        """Every layer's pending size at once, in constant time: (held bytes, unfinished line, pending
        value, inside a value). A value is one line, so the last two are always 0 and False."""
        return len(self._decoder.held_bytes), self._lines.pending_chars, 0, False

    @property
    def lines_in(self) -> int:
        """How many complete lines (LF seen) have arrived, blank ones included."""
        return self._lines.lines_out

    @property
    def values_out(self) -> int:
        """How many values have been parsed (returned, or attached to an error as ``outputs``)."""
        return self._values_out

    def snapshot(self) -> dict[str, object]:
        """Every layer's pending state, for inspectors and logs."""
        return {
            "state": self._state,
            "bytes_in": self.bytes_in,
            "held_bytes": self.held_bytes,
            "pending_line": self.pending_line,
            "lines": self.lines_in,
            "values": self._values_out,
            "ended_mid": self._ended_mid,
        }

    def close(self) -> list[Any]:
        """End of stream. Returns ``[]``: a line without its LF is never parsed.

        Raises :class:`IncompleteStreamError` (``unit="line"``) if a non-blank line is unfinished, and in
        strict mode :class:`TruncatedCharacterError` if the stream ended mid-character. Either way
        :attr:`ended_mid` records what was cut (``"character"`` or ``"line"``).
        """
        return super().close()

    # -- internals -----------------------------------------------------------------------------------
    def _process(self, text: str, byte_base: int, out: list[Any]) -> None:
        char_base = self._lines.chars_in
        first_line = self._lines.lines_out
        self._text, self._text_byte_base, self._text_char_base = text, byte_base, char_base
        try:
            lines = self._lines.feed(text)
        except LimitExceededError as exc:
            self._parse(exc.outputs, first_line, out)  # the lines before the long one; may raise first
            index = exc.char_index if exc.char_index is not None else char_base
            # Only the one CR that may start a CRLF can lie before this read (it is a single ASCII byte).
            exc.offset = (
                byte_base + utf8_length(text[: index - char_base]) if index >= char_base
                else byte_base - (char_base - index)
            )
            raise
        if lines:
            self._parse(lines, first_line, out)
            self._origin = (text, byte_base, len(text) - self._lines.pending_chars)

    def _parse(self, lines: list[str], first_line: int, out: list[Any]) -> None:
        """json.loads each complete, non-blank line of the current read, in order."""
        for number, line in enumerate(lines):
            if not line or (line[0] in _LINE_WHITESPACE and not line.strip(_LINE_WHITESPACE)):
                continue
            try:
                value = self._loads(line)
            except (ValueError, RecursionError) as exc:
                raise self._json_error(
                    exc, line, self._line_start(number), "line", line_index=first_line + number
                ) from None
            out.append(value)
            self._values_out += 1

    def _line_start(self, number: int) -> int:
        """Byte offset where the current read's ``number``-th completed line starts (error paths only)."""
        if number == 0:
            return self.pending_line_start  # not yet moved past this read's lines
        char = self._lines.line_end_char(number - 1)
        return self._text_byte_base + utf8_length(self._text[: char - self._text_char_base])

    def _finish(self) -> None:
        pending = self._lines.pending_chars
        blank = not pending or not self._lines.pending_text.strip(_LINE_WHITESPACE)
        self._lines.discard()
        if blank:
            return
        if self._ended_mid is None:
            self._ended_mid = "line"
        raise IncompleteStreamError(
            "line",
            f"input ended in the middle of a line ({pending} characters without a line feed)",
            offset=self.pending_line_start,
            line_index=self._lines.lines_out,
        )


# -- the JSON array scanner --------------------------------------------------------------------------

# Scanner phases outside an element.
_BEFORE = 0  # before the "["
_FIRST = 1  # after "[": an element or "]"
_VALUE = 2  # after ",": an element
_AFTER = 3  # after an element: "," or "]"
_CLOSED = 4  # after "]": whitespace only

# Element kinds.
_NONE = 0
_CONTAINER = 1  # "{...}" or "[...]"
_STRING = 2  # a string element
_SCALAR = 3  # a number, true, false, null (or anything else; json.loads judges it)

_EXPECTING = {_BEFORE: "[", _FIRST: "element or ]", _VALUE: "element", _AFTER: ", or ]", _CLOSED: "end"}

#: Inside a container, outside strings: skip everything but brackets, and whole strings, in one call.
#: Stops at a bracket, or at the end; ``open`` matches if the text ends inside a string and ``bs`` if it
#: ends right after that string's backslash. Possessive quantifiers: no backtracking, linear.
_CONTAINER_RUN = re.compile(
    r'(?:[^"\[\]{}]++|"(?:[^"\\]++|\\.)*+(?:"|(?P<bs>\\)?(?P<open>\Z)))*+',
    re.DOTALL,
)
#: Inside a string: skip to the closing quote (group ``bs``: the text ends right after a backslash).
_STRING_RUN = re.compile(r'(?:[^"\\]++|\\.)*+(?P<bs>\\)?', re.DOTALL)
#: A scalar element ends at whitespace, "," or "]".
_SCALAR_END = re.compile(r"[ \t\n\r,\]]")
_NON_WHITESPACE = re.compile(r"[^ \t\n\r]")


class JSONArrayParser(_JSONTextParser):
    """Sans-IO splitter of one growing JSON array into its top-level elements, as they complete.

    Gemini's ``streamGenerateContent`` without ``alt=sse`` sends one pretty-printed array,
    ``[{...}\\n,\\r\\n{...}\\n]``, element by element. Whitespace may surround the brackets, commas and
    elements (no BOM is accepted). An element is cut out when it is complete (its depth returns to 0, its
    string closes, or a scalar reaches whitespace, ``,`` or ``]``) and parsed then, once.

    Guarantees, for every chunking of the same bytes:

    * the elements returned, in order, equal ``json.loads(whole)`` for a valid array; ``feed()`` returns
      exactly the elements its bytes completed;
    * each character is scanned once; the element so far is kept as fragments joined once; cost is
      linear in the bytes and memory bounded by ``max_element_chars`` plus one read;
    * an element that is not valid JSON, anything but ``,``/``]`` between elements, a missing element
      (``[,`` or ``,]``), anything before ``[`` but whitespace, or anything after ``]`` but whitespace
      raises :class:`FramingError` at the absolute byte offset, with ``event_index`` = element index;
    * an element longer than ``max_element_chars`` raises :class:`LimitExceededError` at the byte offset
      of its first character past the limit, even if it is complete; nothing is dropped;
    * ``close()`` raises :class:`IncompleteStreamError` with ``unit="element"`` (offset: the element's
      start) or ``unit="array"`` (offset: the ``[``, or the end of input if no ``[`` came) unless the
      ``]`` arrived; strict mode raises :class:`TruncatedCharacterError` for a cut character first.

    After an error or ``close()`` the parser refuses input (:class:`ParserStateError`).
    """

    def __init__(
        self, errors: str = "strict", max_element_chars: int | None = DEFAULT_MAX_ELEMENT_CHARS
    ) -> None:
        super().__init__(errors)
        _check_limit("max_element_chars", max_element_chars)
        self._max = max_element_chars
        self._phase = _BEFORE
        self._kind = _NONE
        self._depth = 0
        self._in_string = False
        self._escape = False  # the last character was a backslash inside a string
        self._parts: list[str] = []  # the element so far, from earlier reads
        self._pending = 0  # characters in self._parts
        self._elements_out = 0
        self._array_start: int | None = None  # byte offset of the "["
        # Where the current element starts, kept unevaluated: (text of a read, its byte offset, index).
        self._origin: tuple[str, int, int] = ("", 0, 0)

    # -- state, for the lessons' inspectors ----------------------------------------------------------
    @property
    def closed(self) -> bool:
        """The closing ``]`` has arrived: the framing itself proves the body is whole."""
        return self._phase == _CLOSED

    @property
    def in_element(self) -> bool:
        return self._kind != _NONE

    @property
    def depth(self) -> int:
        """Nesting depth inside the current element (0 between elements and in a scalar element)."""
        return self._depth

    @property
    def in_string(self) -> bool:
        """Inside a JSON string of the current element (brackets and commas there are data)."""
        return self._in_string

    @property
    def expecting(self) -> str | None:
        """What may come next outside an element: ``"["``, ``"element or ]"``, ``"element"``,
        ``", or ]"`` or ``"end"``; ``None`` inside an element."""
        return None if self._kind != _NONE else _EXPECTING[self._phase]

    @property
    def pending_element_chars(self) -> int:
        """Characters of the unfinished element received so far."""
        return self._pending

    def pending_sizes(self) -> tuple[int, int, int, bool]:
        """Every layer's pending size at once, in constant time: (held bytes, unfinished line, pending
        element, inside an element). There is no line layer here: whitespace is free inside the array."""
        return len(self._decoder.held_bytes), 0, self._pending, self._kind != _NONE

    @property
    def pending_element(self) -> str:
        """The unfinished element so far (joined on demand; invalid bytes as U+FFFD in replace mode)."""
        text = "".join(self._parts)
        return replace_escapes(text) if self._replace else text

    @property
    def elements_out(self) -> int:
        """How many elements have been parsed (returned, or attached to an error as ``outputs``)."""
        return self._elements_out

    def snapshot(self) -> dict[str, object]:
        """The scanner's whole state, for inspectors and logs."""
        return {
            "state": self._state,
            "bytes_in": self.bytes_in,
            "held_bytes": self.held_bytes,
            "expecting": self.expecting,
            "in_element": self.in_element,
            "depth": self._depth,
            "in_string": self._in_string,
            "pending_element": self.pending_element,
            "elements": self._elements_out,
            "closed": self.closed,
            "ended_mid": self._ended_mid,
        }

    def close(self) -> list[Any]:
        """End of stream. Returns ``[]``: an element is never parsed unless it ended before.

        Raises :class:`IncompleteStreamError` with ``unit="element"`` or ``unit="array"`` unless the
        ``]`` arrived, and in strict mode :class:`TruncatedCharacterError` if the stream ended
        mid-character. :attr:`ended_mid` records ``"character"``, ``"element"``, ``"array"`` or ``None``.
        """
        return super().close()

    # -- internals -----------------------------------------------------------------------------------
    def _process(self, text: str, byte_base: int, out: list[Any]) -> None:
        n = len(text)
        i = 0
        start = 0  # where the current element starts in this text (0 if it began in an earlier read)
        while i < n:
            kind = self._kind
            if kind == _NONE:
                match = _NON_WHITESPACE.search(text, i)
                if match is None:
                    break
                j = match.start()
                i = self._structural(text, j, byte_base)
                if self._kind != _NONE:
                    start = j
                    self._origin = (text, byte_base, j)
                continue
            if self._in_string:
                if self._escape:
                    self._escape = False
                    i += 1
                    continue
                match = _STRING_RUN.match(text, i)
                assert match is not None  # the pattern matches the empty string: it always matches
                end = match.end()
                if match.group("bs") is not None:
                    self._escape = True
                    break
                if end == n:
                    break
                self._in_string = False
                i = end + 1
                if self._depth == 0:  # a string element
                    self._complete(text, start, i, out)
                continue
            if kind == _SCALAR:
                match = _SCALAR_END.search(text, i)
                if match is None:
                    break
                i = match.start()  # the delimiter is read again between elements
                self._complete(text, start, i, out)
                continue
            match = _CONTAINER_RUN.match(text, i)
            assert match is not None  # the pattern matches the empty string: it always matches
            end = match.end()
            if match.group("open") is not None:
                self._in_string = True
                self._escape = match.group("bs") is not None
                break
            if end == n:
                break
            i = end + 1
            if text[end] in "[{":
                self._depth += 1
            else:
                self._depth -= 1
                if self._depth == 0:
                    self._complete(text, start, i, out)
        if self._kind != _NONE:
            piece = text[start:]
            self._parts.append(piece)
            if not len(self._parts) % CHECK_EVERY:  # a long element in small reads: join its pieces
                compact_tail(self._parts, "")
            self._pending += len(piece)
            if self._max is not None and self._pending > self._max:
                self._fail_limit("".join(self._parts))

    def _structural(self, text: str, j: int, byte_base: int) -> int:
        """Handle the non-whitespace character ``text[j]`` outside an element; return where to go on."""
        char = text[j]
        phase = self._phase
        if phase in (_FIRST, _VALUE):
            if char in "{[":
                self._kind, self._depth = _CONTAINER, 1
            elif char == '"':
                self._kind, self._in_string = _STRING, True
            elif char == "]" and phase == _FIRST:
                self._phase = _CLOSED
            elif char in ",]":
                what = "a trailing comma before ]" if char == "]" else "a missing element before ,"
                raise self._framing_error(f"expected an element, found {what}", text, j, byte_base)
            else:
                self._kind = _SCALAR
            return j + 1
        if phase == _AFTER:
            if char == ",":
                self._phase = _VALUE
            elif char == "]":
                self._phase = _CLOSED
            else:
                raise self._framing_error("expected , or ] between elements", text, j, byte_base)
            return j + 1
        if phase == _BEFORE:
            if char != "[":
                raise self._framing_error("expected [ to open the array", text, j, byte_base)
            self._phase = _FIRST
            self._array_start = byte_base + utf8_length(text[:j])
            return j + 1
        raise self._framing_error("text after the closing ] of the array", text, j, byte_base)

    def _framing_error(self, message: str, text: str, j: int, byte_base: int) -> FramingError:
        return FramingError(message, offset=byte_base + utf8_length(text[:j]), event_index=self._elements_out)

    def _complete(self, text: str, start: int, end: int, out: list[Any]) -> None:
        """The element ending at ``text[end - 1]`` is whole: check its size, parse it, reset."""
        if self._parts:
            self._parts.append(text[start:end])
            element = "".join(self._parts)
        else:
            element = text[start:end]
        if self._max is not None and len(element) > self._max:
            self._fail_limit(element)
        try:
            value = self._loads(element)
        except (ValueError, RecursionError) as exc:
            raise self._json_error(
                exc, element, self._element_start(), "array element", event_index=self._elements_out
            ) from None
        out.append(value)
        self._elements_out += 1
        self._parts, self._pending = [], 0
        self._kind, self._depth, self._in_string, self._escape = _NONE, 0, False, False
        self._phase = _AFTER

    def _element_start(self) -> int:
        text, base, index = self._origin
        return base + utf8_length(text[:index])

    def _fail_limit(self, element: str) -> None:
        assert self._max is not None
        raise LimitExceededError(
            "max_element_chars",
            self._max,
            offset=self._element_start() + utf8_length(element[: self._max]),
            event_index=self._elements_out,
        )

    def _finish(self) -> None:
        if self._phase == _CLOSED:
            return
        if self._kind != _NONE:
            unit, offset = "element", self._element_start()
            message = f"input ended inside array element {self._elements_out}"
        else:
            unit = "array"
            if self._array_start is None:
                offset, message = self.bytes_in, "input ended before the array opened with ["
            else:
                offset, message = self._array_start, "input ended before the array closed with ]"
        if self._ended_mid is None:
            self._ended_mid = unit
        raise IncompleteStreamError(unit, message, offset=offset, event_index=self._elements_out)


def parse_ndjson(chunks: Iterable[bytes], **options: Any) -> list[Any]:
    """Feed every chunk to a fresh :class:`NDJSONParser`, close it, and return all values in order."""
    parser = NDJSONParser(**options)
    out: list[Any] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    out.extend(parser.close())
    return out


def parse_json_array(chunks: Iterable[bytes], **options: Any) -> list[Any]:
    """Feed every chunk to a fresh :class:`JSONArrayParser`, close it, and return all elements in order."""
    parser = JSONArrayParser(**options)
    out: list[Any] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    out.extend(parser.close())
    return out
