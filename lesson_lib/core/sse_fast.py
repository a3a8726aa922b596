"""The fast SSE parser: the same behaviour as :mod:`lesson_lib.core.sse_reference`, in fewer steps per byte.

This is :class:`lesson_lib.SSEParser`. It does what the reference parser does (read that one first: it is
the spec's algorithm, step by step) and gives the same events, state and errors for every chunking, as
``tests/core/test_sse_paths.py`` checks; what differs is only the work per read. The tricks, each measured to
pay (``benchmarks/README.md``):

* a read with no CR or LF in it is only remembered (appended to a byte buffer); its bytes are decoded
  when the read that ends their line arrives. Line endings are ASCII and can never sit inside a
  multi-byte character, so this changes nothing in the result. Consequence, in strict mode: invalid
  UTF-8 is reported when its line ends (or at ``close()``), where the reference reports it at once; the
  offset, the events and the state are the same;
* in strict mode, a read that does end lines is decoded, split and interpreted in one pass, without a
  call into the layers (:meth:`FastSSEParser._feed_lines`). The decoder's and the line splitter's state
  (held bytes, the unfinished line, a pending CR, the counts) is then kept here, and handed to the layers
  with their public ``setstate`` before a read goes through them, and taken back with ``getstate`` after
  (as ``codecs`` incremental decoders allow). A read that might fail (invalid UTF-8, a limit) goes
  through the layers one by one, which find the exact offset. The first read takes this path too unless
  the stream starts with a byte order mark (:meth:`FastSSEParser._feed_start`; the layers remove it): in
  64 KiB reads of a 2 MiB stream the first read through the layers was about 5 % of the time;
* the field loop works on local variables, tries blank, ``data: `` and ``event: `` lines first, and
  builds each :class:`Event` by setting its slots directly;
* in a large read, the whole events of the shapes LLM streams use (``data:``, after an ``event:`` line, an
  ``id:`` line, or both in either order) are split out in C loops (:mod:`lesson_lib.core.sse_runs`, one
  split per read; its docstring gives what each of its steps was measured to save) rather than line by line;
  CRLF endings are made LF first, and heartbeat comments between events stay in a run (when comments are not
  reported) once the stream has sent one, or when a read holds one and no run without them (the read that
  brought the first heartbeats went to the field loop: 1.05-1.07x on the heartbeat stream in 64 KiB reads);
* whether a large read holds a CR is asked of its bytes, a byte per character, not of its text, four per
  character once an emoji is in it (and asked once, not twice): about 90 ns less per event in 64 KiB
  reads;
* in a small read, CRLF endings are split at LF and each line's CR taken off, where it is the first half
  of a CRLF (a CR anywhere else: the regular expression); making each CRLF one LF first, as for a large
  read, cost more than the split (``str.replace`` of two characters is slow on short texts);
* at most 4 KiB wait undecoded (:data:`_RAW_MAX_BYTES`): a long line is decoded in pieces;
* a data line that came in pieces has its value joined without the ``data: `` rather than joined and then
  copied again to cut it off (1.2-1.7x on 200 KiB events in 64-byte to 64 KiB reads);
* a read that ends one data line and then the blank line dispatches its event without the field loop;
* in small reads (up to 256 bytes), the read that ends lines leaves the next line's start undecoded, and
  the read that ends that line is read in its bytes: the rest of a data line, its blank line and the next
  line's start (:meth:`FastSSEParser._feed_data_event`: the value decoded once, straight into the event),
  or any lines that are blank, comments, ``data: ``, ``event: `` or ``id: `` lines, all ended by LF or
  all by CRLF (:meth:`FastSSEParser._feed_line_bytes`: only the complete lines decoded, one field line
  set without the field loop's set-up). Before issue 24 the second took only ``id:`` and ``event:``
  lines, LF-ended, in reads of up to 16 bytes, and a CRLF stream with ``event:`` and ``id:`` lines went
  to the field loop line by line. (The data event's path, with the undecoded start of the next data line:
  1.15-1.25x on Gemini's stream and 1.05-1.1x on OpenAI's in 64-byte reads, measured when it came.)

Each fast path is a method that proves it may take the read (or returns ``None``, having changed nothing,
and the next is tried): :meth:`FastSSEParser._feed_lines` tries them in turn.

In ``errors="replace"`` mode no read takes the one-pass path: every read that ends lines, and the bytes
of reads without a line ending once a few KiB wait, go through the layers, which keep the unfinished line
themselves (the parser reads only their counts). Handing the whole line to the layers and back on every
such read, as the strict path's ``setstate``/``getstate`` do, made that mode quadratic in a long line
(issue 23); ``tests/core/test_sse_cost.py`` counts the work per byte in both modes.

It uses the decoder and the line splitter only through their public methods.
"""

from __future__ import annotations

import re
from codecs import utf_8_decode
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat
from typing import cast

from .decoding import (
    IncrementalUTF8Decoder,
    as_bytes,
    incomplete_tail_length,
    replace_escapes,
    utf8_length,
)
from .errors import BoundaryError, LimitExceededError, ParserStateError, StreamDecodeError
from .lines import DEFAULT_MAX_LINE_CHARS, LineSplitter
from .pieces import CHECK_EVERY, compact_tail
from .sse_common import DEFAULT_MAX_EVENT_CHARS, Comment, Event, ParserViews, check_options, retry_ms
from .sse_runs import EventRun, find_event_run

# A frozen dataclass's generated __init__ goes through object.__setattr__ once per field; setting the
# slots through their descriptors (inline, in ``SSEParser._process``) builds the same object at about
# half the cost, once per event.
_new_object = object.__new__
_set_type = Event.__dict__["type"].__set__
_set_data = Event.__dict__["data"].__set__
_set_last_event_id = Event.__dict__["last_event_id"].__set__
_ANY_ENDING = re.compile(r"\r\n|\r|\n")  # the SSE line endings, as the line splitter finds them
#: Run an iterator to its end, in C (the itertools "consume" recipe).
_exhaust: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
#: Reads shorter than this (in characters) never look for a run of whole events (``sse_runs``): below
#: about 4 KiB a read holds too few events to repay the search (measured: slower up to 2 KiB reads,
#: 1.15x faster at 8 KiB, 1.3-1.45x at 64 KiB).
_RUN_MIN_CHARS = 4096
#: Reads of at most this many bytes that end lines are first read in their bytes, where the unfinished
#: line's bytes all wait undecoded (:meth:`FastSSEParser._feed_data_event`,
#: :meth:`FastSSEParser._feed_line_bytes`), and leave the next line's start undecoded for the next read;
#: larger reads end several events and are decoded whole (asking costs about 0.7 ns per byte: 1.12x slower
#: in 1 KiB reads when every read was asked).
_SMALL_READ = 256
#: At most this many bytes wait undecoded: past it they are decoded and added to the unfinished line, as
#: the layers do. A long line (a tool call's 200 KiB of arguments) is then decoded in pieces of about
#: this size, not all at once when it ends (measured: 1.5x faster at 64 KiB reads of 200 KiB events; the
#: check costs nothing more per read, it is the same comparison as the line limit's).
_RAW_MAX_BYTES = 4096


def _event_then_fields(ending: bytes) -> re.Pattern[bytes]:
    """The bytes of a read that :meth:`FastSSEParser._feed_event_then_fields` takes, every line ended by
    ``ending``: the rest of a data line (group 1, the value), the blank line, an ``event: `` line (group
    2), an ``id: `` line (group 3, no U+0000: the spec ignores such an id) and another ``event: `` line
    (group 4), each optional, then the start of the next line (group 5). No value holds a CR or an LF."""
    value = b"([^\\r\\n]*)"
    return re.compile(
        b"data: " + value + ending * 2 + b"(?:event: " + value + ending + b")?(?:id: ([^\\r\\n\\x00]*)"
        + ending + b")?(?:event: " + value + ending + b")?" + value
    )


#: :func:`_event_then_fields` for LF endings (``[False]``) and CRLF endings (``[True]``: the read has a CR).
_EVENT_THEN_FIELDS = (_event_then_fields(b"\n"), _event_then_fields(b"\r\n"))


def _crs_off(pieces: list[str], after_cr: bool) -> list[str] | None:
    """The lines of a text with a CR in it, from its pieces split at LF: each piece's CR taken off where it
    is the first half of a CRLF (or the text's last character: ``after_cr``, then the line is complete and
    nothing is unfinished). ``None`` if a CR stands alone elsewhere (the regular expression then splits).
    """
    lines = []
    for piece in pieces:
        cr = piece.find("\r")
        if cr < 0:
            lines.append(piece)  # a line that ended with an LF alone, or the unfinished last one
        elif cr == len(piece) - 1:
            lines.append(piece[:-1])
        else:
            return None
    if after_cr:
        lines.append("")
    return lines


def _split_crlf(text: str, after_cr: bool) -> list[str]:
    """A read's text with a CR in it, split into its lines as the line splitter would (the last one
    unfinished, ``""`` if the text ends with a line ending); ``after_cr``: the text's last character is
    a CR, which ends the last line. For reads too small to look for runs (large ones: :func:`_lf_endings`).

    Tried in turn, each where it is exact: the end of a data line then the blank line, as in
    ``"...}\r\n\r\ndata: {..."`` (split at LF, the CR taken off: 1.09x on the Gemini stream in 64-byte
    reads against making each CRLF one LF first, as for a large read: ``str.replace`` of two characters is
    slow on short texts); CRLF endings cut by the reads, LF and CRLF mixed (each piece's CR taken off:
    :func:`_crs_off`); a CR alone: the regular expression. (Counting the CRs and CRLFs to split at CRLF
    once instead cost 1.15x in 1 KiB reads of the Gemini stream: ``str.count`` is a loop, not ``memchr``.)
    """
    pieces = text.split("\n")
    if (
        len(pieces) == 3
        and pieces[1] == "\r"
        and pieces[0].find("\r") == len(pieces[0]) - 1
        and "\r" not in pieces[2]
    ):
        pieces[0], pieces[1] = pieces[0][:-1], ""
        return pieces
    return _crs_off(pieces, after_cr) or _ANY_ENDING.split(text)


def _lf_endings(text: str, after_cr: bool) -> str | None:
    """A large read's text with a CR in it, every CRLF (and a CR that ends it: ``after_cr``) made one LF,
    so that ``str.split`` does what the regular expression would and the runs find its events too (CRLF
    endings: Gemini); ``None`` if a CR stands alone elsewhere."""
    lf_text = text.replace("\r\n", "\n")
    if after_cr:
        lf_text = lf_text[:-1] + "\n"
    return None if "\r" in lf_text else lf_text


class FastSSEParser(ParserViews):
    """Sans-IO Server-Sent Events parser: ``feed(bytes)`` and ``close()``, no I/O, no threads.

    ``errors="strict"`` (default): invalid UTF-8 raises :class:`StreamDecodeError` (a
    ``UnicodeDecodeError``) with the absolute byte offset, and ``close()`` raises
    :class:`TruncatedCharacterError` if the stream ended mid-character. ``errors="replace"``: as a
    browser's ``EventSource``, every maximal invalid subpart becomes U+FFFD.

    ``last_event_id`` is where a reconnection starts: the last event ID string from the connection before
    (what it sent as ``Last-Event-ID``); events keep it until the stream sends another ``id``.

    ``max_line_chars`` bounds one line and ``max_event_chars`` one event's data; past either the parser
    raises :class:`LimitExceededError` with the byte offset and drops nothing. ``None`` lifts a bound.

    Guarantees: the same events, ``last_event_id`` and ``retry`` for every chunking of the same bytes;
    cost linear in the bytes; memory bounded by the limits, in bytes: one stream's buffers stay within
    :func:`lesson_lib.core.options.stream_buffer_bound` (179 MiB at the defaults in strict mode, a quarter of
    it for ASCII text; ``benchmarks/memory.py``). Nothing the bytes contain raises anything but a
    :class:`BoundaryError`. After an error or ``close()`` the parser refuses input
    (:class:`ParserStateError`); any exception escaping ``feed()`` or ``close()`` leaves it failed, never
    open with half-updated state. A read that is not bytes (``feed("text")``) raises ``TypeError`` before
    anything changes, every time.

    In ``errors="replace"`` mode every public view (events, comments, :attr:`pending_line`,
    :attr:`pending_data`, :attr:`pending_event_type`, :attr:`pending_id`, :meth:`snapshot`) shows invalid
    bytes as U+FFFD.
    """

    def __init__(
        self,
        errors: str = "strict",
        max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS,
        max_event_chars: int | None = DEFAULT_MAX_EVENT_CHARS,
        comments: bool = False,
        last_event_id: str = "",
    ) -> None:
        check_options(errors, max_line_chars, max_event_chars, last_event_id)
        self._errors = errors
        self._replace = errors == "replace"
        self._strict = not self._replace
        # In replace mode the decoder keeps invalid bytes as escapes so that every character still maps
        # to its bytes (exact error offsets); they become U+FFFD when a value leaves the parser.
        self._decoder = IncrementalUTF8Decoder("strict" if errors == "strict" else "surrogateescape")
        self._lines = LineSplitter("any", max_line_chars)
        self._max_line = max_line_chars
        self._max_event = max_event_chars
        # The same bounds as plain numbers for the hot paths: a line longer than _line_cap characters, or
        # an event whose data count (characters plus one per line) exceeds _event_cap, crosses a limit.
        self._line_cap = max_line_chars if max_line_chars is not None else 1 << 62
        self._event_cap = max_event_chars + 1 if max_event_chars is not None else 1 << 62
        # Bytes of reads without a line ending, not yet decoded, and how many may wait there before
        # the line limit could be crossed (a byte never makes more than one character).
        self._raw = bytearray()
        # The layers' state, kept here while reads take the fast path (see _push and _pull): the
        # decoder's held bytes and byte count; the splitter's unfinished line (in pieces, joined once when
        # its ending arrives), its length, a CR that may pair with the next LF, and its counts.
        self._held = b""
        self._bytes_in = 0
        self._parts: list[str] = []
        self._pending = 0
        self._after_cr = False
        self._chars_in = 0
        self._lines_out = 0
        # How many bytes may wait in _raw before they are decoded; -1 whenever the fast path is closed, so
        # that a read without a line ending never just waits then.
        self._raw_room = -1
        self._fast = False  # may the next read take the fast path? (open, past the BOM check)
        self._comment_seen = False  # has a comment line arrived (heartbeats: see _feed_lines)?
        self._comments = comments
        self._started = False  # has the first character (a possible BOM) been seen?
        self._data: list[str] = []
        self._data_chars = 0
        self._event_type = ""
        # A reconnecting client starts its new connection's parser from the last event ID string it has
        # (as a browser's EventSource keeps it across connections), or the first dispatch would lose it.
        self._id_buffer = last_event_id
        self._last_event_id = last_event_id
        self._retry: int | None = None
        self._retry_log: list[tuple[int, int | None]] = []  # see ParserViews.retry_after_event
        self._retry_log_read = -1
        self._fields_pending = False
        self._events_out = 0
        self._state = "open"  # "open", "closed" or "failed"
        self._ended_mid: str | None = None
        # Where the text of the current feed starts, for turning character positions into byte offsets.
        self._text = ""
        self._text_char_base = 0
        self._text_byte_base = 0

    # -- public state ----------------------------------------------------------------------------------

    @property
    def bytes_in(self) -> int:
        return self._bytes_in + len(self._raw)

    @property
    def held_bytes(self) -> bytes:
        """Character layer: the 0-3 bytes of an unfinished UTF-8 character (constant time)."""
        raw, held = self._raw, self._held
        if not (held or (raw and raw[-1] >= 0x80)):
            return b""  # the last byte is ASCII (or nothing waits): no character is unfinished
        tail = held + bytes(raw[-3:])
        return tail[len(tail) - incomplete_tail_length(tail) :]

    @property
    def pending_line(self) -> str:
        """Line layer: the unfinished line (invalid bytes shown as U+FFFD). Builds a string: for display."""
        pending = self._held + bytes(self._raw)
        complete = pending[: len(pending) - len(self.held_bytes)]
        text = replace_escapes(self._lines.pending_text) if self._replace else "".join(self._parts)
        return text + complete.decode("utf-8", "replace")

    @property
    def pending_line_chars(self) -> int:
        """Line layer: size of the unfinished line in constant time. Bytes not yet decoded count one each,
        so this is the number of characters, or slightly more while multi-byte characters wait."""
        return self._pending + len(self._held) + len(self._raw)

    def pending_sizes(self) -> tuple[int, int, int, bool]:
        """Every layer's pending size at once, in constant time, for per-read statistics: (held bytes,
        unfinished line as in :attr:`pending_line_chars`, pending event data, inside an event)."""
        chars = self._data_chars
        return (
            len(self.held_bytes),
            self._pending + len(self._held) + len(self._raw),
            chars - 1 if chars else 0,
            self._fields_pending,
        )

    @property
    def after_cr(self) -> bool:
        """Line layer: the last byte was a CR, so an LF arriving next is part of the same ending."""
        return self._after_cr and not self._raw and not self._held

    @property
    def pending_data(self) -> list[str]:
        """Event layer: the data lines of the event being assembled."""
        lines = [line for group in self._data for line in group.split("\n")]  # (see lesson_lib.core.pieces)
        return [replace_escapes(v) for v in lines] if self._replace else lines

    @property
    def pending_event_type(self) -> str:
        """Event layer: the event type buffer (empty means ``message``)."""
        return replace_escapes(self._event_type) if self._replace else self._event_type

    @property
    def lines_in(self) -> int:
        return self._lines_out

    # -- the two verbs ---------------------------------------------------------------------------------
    def feed(self, chunk: bytes) -> list[Event | Comment]:
        """Parse one read of any size (0 bytes included); return the events it completed, in order."""
        if chunk.__class__ is not bytes:
            chunk = as_bytes(chunk)
        try:
            if 10 not in chunk and 13 not in chunk:  # no LF, no CR: nothing can complete here,
                raw = self._raw
                raw += chunk  # so only remember it (the bytearray grows in place)
                if len(raw) <= self._raw_room:  # (never while the fast path is closed: the room is -1)
                    return []
                # Enough waits (or the line limit might be crossed): decode it into the line now.
                if self._fast and self._strict and self._extend_line():
                    return []
                del raw[len(raw) - len(chunk) :]  # it could raise: the layers take the read
            elif self._fast:
                if self._strict:
                    out = self._feed_lines(chunk)
                    if out is not None:
                        return out
            elif self._strict and not self._started:
                out = self._feed_start(chunk)
                if out is not None:
                    return out
            return self._feed_now(chunk)
        except ParserStateError:  # refused: the parser was already closed or failed
            raise
        except BaseException:
            self._fail()
            raise

    def feed_each(self, reads: Iterable[bytes]) -> Iterator[list[Event | Comment]]:
        """Feed every read of ``reads`` in order, exactly as ``feed(read)`` one by one would, and yield each
        non-empty list of events a read completed (a read that completes none yields nothing). Does not
        close the parser.

        The same state, errors and offsets as ``feed``: an error is raised from the read that brought it,
        the events that read completed before it in the error's ``outputs``, and the parser is then failed;
        the events of earlier reads have already been yielded. For a caller that loops over reads: a read
        without a line ending costs no call here (``benchmarks/peers.py`` measures the difference).
        """
        feed = self.feed
        for chunk in reads:
            if chunk.__class__ is bytes and 10 not in chunk and 13 not in chunk:
                # feed's first step, inline: a read without a line ending only waits, while there is room
                # (the room is -1 whenever the fast path is closed, so such reads go to feed, which refuses)
                raw = self._raw  # read every time: feed, or the caller between reads, may replace it
                raw += chunk
                if len(raw) <= self._raw_room:
                    continue
                del raw[len(raw) - len(chunk) :]  # as it was: feed takes the read whole
            out = feed(chunk)
            if out:
                yield out

    def flush(self) -> list[Event | Comment]:
        """Decode the bytes that wait undecoded (a read without a line ending only remembers them), so that
        invalid UTF-8 among them raises now, with its offset, as the reference parser raised in the read
        that brought it: for a caller whose source failed and who will not ``close()``. Returns ``[]``.
        Raises as ``feed`` would (and then the parser is failed); refuses when closed or failed."""
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)
        if not self._raw:
            return []
        try:
            return self._feed_now(b"")
        except BaseException:
            self._fail()
            raise

    def _fail(self) -> None:
        """Whatever escaped, the parser's state may be half-updated: refuse all further input."""
        self._state = "failed"
        self._fast, self._raw_room = False, -1

    def _feed_start(self, chunk: bytes) -> list[Event | Comment] | None:
        """The first read that ends lines, strict mode: the one-pass path too, unless the stream starts with
        a byte order mark (the layers remove it). ``None``, having changed nothing, if the layers must take
        it (as :meth:`_feed_lines`)."""
        if self._state != "open":
            return None  # the layers refuse it
        data = self._held + chunk  # the bytes of a character cut by earlier reads (a BOM's, perhaps)
        if data.startswith(b"\xef\xbb\xbf"[: len(data)]):  # a BOM, or the start of one
            return None
        self._started = True  # the first character is not a BOM: nothing to remove
        out = self._feed_lines(chunk)
        if out is None:
            self._started = False  # as it was: the layers check it again
            return None
        self._fast = True
        return out

    def _feed_lines(self, chunk: bytes) -> list[Event | Comment] | None:
        """A read that ends lines, strict mode: taken in one pass, without a call into the layers.

        Each path below proves that it may take the read, or returns ``None`` having changed nothing; the
        next is then tried. Whichever takes it leaves the layers' state (kept here) exactly as their own
        ``feed`` would: the same held bytes, unfinished line, pending CR and counts. ``None`` from the last
        one (the read could raise: invalid UTF-8, a line or event limit possibly crossed) sends the read to
        ``_feed_now``, through the layers, which report the exact offset.

        * :meth:`_feed_one_line`: a read that ends one line (or brings the LF of a CRLF cut by the reads);
        * :meth:`_feed_data_event`: the rest of a data line, its blank line, the next line's start;
        * :meth:`_feed_event_then_fields`: the same with one or two ``event:`` or ``id:`` lines before
          that start;
        * :meth:`_feed_line_bytes`: any other small read whose lines are blank, comments, or ``data: ``,
          ``event: `` and ``id: `` lines, read in its bytes;
        * :meth:`_feed_decoded`: any read, decoded and split (runs of whole events in large reads).

        The first two need the unfinished line's bytes all undecoded (``_parts`` empty, nothing held): a
        read without a line ending leaves them so, and so do the paths after a small read that ends lines.
        """
        if not self._parts and not self._held and len(chunk) <= _SMALL_READ:
            raw = self._raw
            data = raw + chunk if raw else chunk
            # The data event's first tests are asked here: a call that fails costs more than the tests, and
            # one test more per read cost 1.5-3 % in 64-byte reads of the chat stream (its raw bytes hold no
            # line ending: the read's LFs are all of them).
            out = None
            lfs = chunk.count(10)
            if lfs < 2:  # one line ended (by LF, CRLF or a CR that ends the read), or the LF of a CRLF
                out = self._feed_one_line(data, chunk, lfs)
            elif data.startswith(b"data: "):
                if lfs == 2:
                    out = self._feed_data_event(data)
                elif lfs <= 4:
                    out = self._feed_event_then_fields(data, chunk)
            if out is None:
                out = self._feed_line_bytes(data, chunk)
            if out is not None:
                return out
        return self._feed_decoded(chunk)

    def _feed_one_line(self, data: bytearray | bytes, chunk: bytes, lfs: int) -> list[Event | Comment] | None:
        """A small read that ends exactly one line, taken in its bytes: the rest of the line (all of its
        bytes undecoded until now), its ending (an LF, a CRLF, or a CR that ends the read: its LF may come
        next) and the start of the next line, perhaps after the LF of a CRLF whose CR ended the last read;
        or that LF alone, then the start of the next line. In small reads of streams whose events have
        several field lines (``event:`` and ``id:`` lines, CRLF endings) most reads that end lines are
        these. The line is a blank line, or a ``data: ``, ``event: `` or ``id: `` line, interpreted by the
        field loop's rules (:meth:`_process`); the start of the next line stays undecoded, as a read without
        a line ending leaves it.

        The caller has seen that the read holds ``lfs`` LFs, 0 or 1, and that no byte is held or decoded
        of the unfinished line. Returns ``None``, having changed nothing, for any other read (a CR alone
        inside it, a comment or any other field, invalid UTF-8, a limit possibly crossed).
        """
        final_cr = False
        start = 0
        if self._after_cr and data[0] == 10:  # the LF of a CRLF whose CR ended the last read (the waiting
            start = 1  # bytes are those of reads without a line ending: none waits after a CR)
            lfs -= 1
        if 13 in chunk:
            if chunk.count(13) != 1:
                return None
            if lfs:  # a CRLF inside the read (the waiting bytes hold no line ending)
                end = data.find(10, start)
                if end == start or data[end - 1] != 13:  # an LF alone, and a CR elsewhere
                    return None
                line_end = end - 1
            elif chunk[-1] == 13:  # the CR ends the line and the read; an LF that comes next is its
                line_end = end = len(data) - 1
                final_cr = True
            else:  # a CR alone, then more of the read
                return None
        elif lfs:
            line_end = end = data.find(10, start)
        else:  # only that LF, then the start of the next line: no line ends here
            tail = data[1:]
            if len(tail) > self._line_cap:
                return None
            self._bytes_in += 1
            self._chars_in += 1
            self._after_cr = False
            raw = self._raw
            raw.clear()
            raw += tail
            return []
        cut = end + 1  # where the unfinished line starts
        if self._data_chars + cut > self._event_cap:  # a data line adds at most its bytes to the event
            return None
        line_cap = self._line_cap
        tail = data[cut:]
        if len(data) > line_cap and (line_end - start > line_cap or len(tail) > line_cap):
            return None  # (bytes: at least the characters)
        try:
            line = data[start:line_end].decode()
        except UnicodeDecodeError:
            return None
        out: list[Event | Comment]
        if not line:  # the blank line: dispatch, as the field loop does
            self._last_event_id = last_id = self._id_buffer
            data_lines = self._data
            if data_lines:
                event = _new_object(Event)  # (inline, as in _feed_decoded)
                _set_type(event, self._event_type or "message")
                _set_data(event, "\n".join(data_lines))
                _set_last_event_id(event, last_id)
                self._data, self._data_chars = [], 0
                self._events_out += 1
                out = [event]
            else:
                out = []
            self._event_type = ""
            self._fields_pending = False
        else:
            if line.startswith("data: "):
                self._data_chars += len(line) - 5
                data_lines = self._data
                data_lines.append(line[6:])
                if not len(data_lines) % CHECK_EVERY:  # many short lines: join them in groups (memory)
                    compact_tail(data_lines, "\n")
            elif line.startswith("event: "):
                self._event_type = line[7:]
            elif line.startswith("id: "):
                value = line[4:]
                if "\x00" not in value:  # the spec ignores an id with U+0000
                    self._id_buffer = value
            else:  # a comment, or any other field: the general path
                return None
            self._fields_pending = True
            out = []
        self._bytes_in += cut  # (no bytes were held: the caller saw it)
        self._chars_in += start + len(line) + cut - line_end
        self._lines_out += 1
        raw = self._raw
        raw.clear()
        raw += tail
        self._after_cr = final_cr
        room = line_cap  # nothing is decoded of the unfinished line: all of it waits in _raw
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        return out

    def _feed_data_event(self, data: bytearray | bytes) -> list[Event | Comment] | None:
        """The most common small read that ends lines, taken in its bytes: the rest of a data line (all of
        its bytes undecoded until now), the blank line (LF or CRLF endings), then the start of the next
        line, and no other line ending; no data pending before the line. The value is decoded once, from
        its bytes, straight into the event; the start of the next line stays undecoded, as a read without a
        line ending does. Where the line came in pieces, it was otherwise decoded with the line, joined and
        cut once or twice (the CR, the ``data: ``).

        The caller has seen that the read holds two LFs and ``data: `` first (:meth:`_feed_lines`). Returns
        ``None``, having changed nothing, for any other read, or one that could raise.
        """
        if self._data:  # data lines pending: the event has more than this one
            return None
        crlf = 13 in data
        halves = data.split(b"\r\n\r\n" if crlf else b"\n\n")
        if len(halves) != 2:  # the read's two LFs are not those of the blank line's ending
            return None
        line, rest = halves
        if crlf and (13 in line or 13 in rest):
            return None
        try:
            value = line[6:].decode()
        except UnicodeDecodeError:
            return None
        if len(value) + 6 > self._line_cap or len(value) >= self._event_cap or len(rest) > self._line_cap:
            return None
        ending = len(data) - len(line) - len(rest)  # 2 or 4 bytes, one character each
        self._bytes_in += len(data) - len(rest)  # (no bytes were held: the caller saw it)
        raw = self._raw
        raw.clear()
        raw += rest
        self._chars_in += 6 + len(value) + ending
        self._lines_out += 2
        self._after_cr = False  # a CR that ended the last read ended its line: no LF came after it
        room = self._line_cap  # nothing is decoded of the unfinished line: all of it waits in _raw
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        event = _new_object(Event)  # the blank line's dispatch, as in _process (inline: see _feed_decoded)
        _set_type(event, self._event_type or "message")
        _set_data(event, value)
        self._last_event_id = self._id_buffer
        _set_last_event_id(event, self._last_event_id)
        self._event_type = ""
        self._fields_pending = False
        self._events_out += 1
        return [event]

    def _feed_event_then_fields(self, data: bytearray | bytes, chunk: bytes) -> list[Event | Comment] | None:
        """A small read that ends an event and starts the next one's field lines, taken in its bytes: the
        rest of a data line (all of its bytes undecoded until now), the blank line, one or two ``event: ``
        or ``id: `` lines (an ``event:``, an ``id:``, or both in either order), then the next line's start,
        all ended by LF or all by CRLF; no data pending before the line. In 64-byte reads of the Anthropic,
        id and MCP-like streams this is the read that ends nearly every event. One regular expression's
        match over the bytes (:data:`_EVENT_THEN_FIELDS`) finds the value, the fields and the start of the
        next line; the event is dispatched and the fields set as the field loop would, the start of the
        next line left undecoded.

        The caller has seen that the read holds three or four LFs and ``data: `` first. Returns ``None``,
        having changed nothing, for any other read (two ``id:`` lines, an ``id`` with U+0000, a CR or an
        LF alone ...), or one that could raise.
        """
        if self._data or len(data) > self._line_cap:  # (bytes: at least the characters)
            return None
        match = _EVENT_THEN_FIELDS[13 in chunk].fullmatch(data)
        if match is None:
            return None
        line, first_type, id_line, last_type, tail = match.groups()
        event_type, id_buffer = "", self._id_buffer
        try:
            value = line.decode()
            extra = len(line) - len(value)  # bytes of the lines beyond their characters
            for type_line in (first_type, last_type):  # (an event: line after the id: line sets it last)
                if type_line is not None:
                    event_type = type_line.decode()
                    extra += len(type_line) - len(event_type)
            if id_line is not None:
                id_buffer = id_line.decode()
                extra += len(id_line) - len(id_buffer)
        except UnicodeDecodeError:
            return None
        if len(value) >= self._event_cap:
            return None
        cut = len(data) - len(tail)
        self._bytes_in += cut  # (no bytes were held: the caller saw it)
        self._chars_in += cut - extra
        self._lines_out += 5 - (first_type, id_line, last_type).count(None)
        raw = self._raw
        raw.clear()
        raw += tail
        self._after_cr = False  # a CR that ended the last read ended its line: no LF came after it
        room = self._line_cap  # nothing is decoded of the unfinished line: all of it waits in _raw
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        event = _new_object(Event)  # the blank line's dispatch, as in _process
        _set_type(event, self._event_type or "message")
        _set_data(event, value)
        self._last_event_id = self._id_buffer
        _set_last_event_id(event, self._last_event_id)
        self._event_type, self._id_buffer = event_type, id_buffer  # then the field lines after it
        self._fields_pending = True
        self._events_out += 1
        return [event]

    def _feed_line_bytes(self, data: bytearray | bytes, chunk: bytes) -> list[Event | Comment] | None:
        """A small read that ends lines whose bytes all waited undecoded, every complete line blank, a
        comment, or a ``data: ``, ``event: `` or ``id: `` line (with its space), all ended by LF, or all by
        CRLF (the last perhaps by a CR that ends the read: its LF may come next). In small reads these are
        the reads that end several lines (an ``event:`` and an ``id:`` line, the end of a data line and the
        blank line), and the one-line reads :meth:`_feed_one_line` leaves, a comment above all.

        Only the complete lines are decoded, and interpreted by the field loop's rules (:meth:`_process`);
        the unfinished last line stays undecoded, as a read without a line ending leaves it, so that the
        read that ends it may come here too. Returns ``None``, having changed nothing, if a line is
        anything else (``retry``, a field without its space, a CR alone, LF and CRLF mixed), the lines are
        not valid UTF-8, or a line or the event might cross its limit: the general path or the layers then
        take the read.

        ``data`` is the unfinished line's bytes then ``chunk``, the read: the line endings are all in the read
        (the bytes that waited hold none), so they are counted there, in fewer bytes (``bytes.count`` is a
        plain loop, not ``memchr``: on a data line's 250 bytes it cost more than the rest of this path).
        """
        size = len(data)
        start = 1 if self._after_cr and data.startswith(b"\n") else 0  # the LF of a CRLF cut by the reads
        final_cr = False
        crs = 13 in chunk
        if crs:
            final_cr = chunk[-1] == 13  # the line is complete; an LF that comes next belongs to it
            crlfs = chunk.count(b"\r\n")
            if crlfs != chunk.count(13) - final_cr or crlfs != chunk.count(10) - start:  # a CR or LF alone
                return None
        cut = size if final_cr else data.rfind(10) + 1  # where the unfinished line starts
        if self._data_chars + cut > self._event_cap:  # a data line adds at most its bytes to the event
            return None
        try:
            text = data[start:cut].decode()
        except UnicodeDecodeError:
            return None
        if crs:
            lines = text.split("\r\n")
            if final_cr:
                lines[-1] = lines[-1][:-1]
            else:
                lines.pop()  # (the text ends with its last line's ending)
        else:
            lines = text.split("\n")
            lines.pop()
        tail = data[cut:]
        line_cap = self._line_cap
        if size > line_cap and (len(tail) > line_cap or max(map(len, lines), default=0) > line_cap):
            return None  # (bytes: at least the characters)
        # (A read that ends one line took _feed_one_line first: the lines here are several, or one that
        # path left, such as a comment.)
        out = self._take_lines(lines)
        if out is None:
            return None
        # Every line was taken: keep where the unfinished line starts, and the counts.
        self._bytes_in += cut  # (no bytes were held: the caller saw it)
        self._chars_in += start + len(text)
        self._lines_out += len(lines)
        raw = self._raw
        raw.clear()
        raw += tail
        self._after_cr = final_cr
        room = line_cap  # nothing is decoded of the unfinished line: all of it waits in _raw
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        return out

    def _take_lines(self, lines: list[str]) -> list[Event | Comment] | None:
        """Interpret complete lines that are all blank, comments, or ``data: ``, ``event: `` and ``id: ``
        lines, by the field loop's rules (:meth:`_process`), for :meth:`_feed_line_bytes`: the events they
        complete, or ``None``, having changed nothing, if one is any other line. The caller has seen that
        neither a line nor the event can cross its limit."""
        out: list[Event | Comment] = []
        base, new = self._data, cast("list[str]", [])  # the event's data lines before these, and theirs
        chars, event_type = self._data_chars, self._event_type
        id_buffer, last_id, pending = self._id_buffer, self._last_event_id, self._fields_pending
        comment_seen, comments = self._comment_seen, self._comments
        dispatched = 0
        for line in lines:
            if not line:  # a blank line: dispatch
                last_id = id_buffer
                pending = False
                if base or new:
                    event = _new_object(Event)
                    _set_type(event, event_type or "message")
                    _set_data(event, "\n".join(base + new if base else new))
                    _set_last_event_id(event, last_id)
                    out.append(event)
                    dispatched += 1
                    base, new, chars = [], [], 0
                event_type = ""
                continue
            if line.startswith("data: "):
                new.append(line[6:])
                chars += len(line) - 5
            elif line.startswith("event: "):
                event_type = line[7:]
            elif line.startswith("id: "):
                value = line[4:]
                if "\x00" not in value:  # the spec ignores an id with U+0000
                    id_buffer = value
            elif line.startswith(":"):  # a comment
                comment_seen = True
                if comments:
                    out.append(Comment(line[2:] if line.startswith(" ", 1) else line[1:]))
                continue
            else:
                return None
            pending = True
        if base is not self._data:
            self._data = base
        data_lines = self._data
        for value in new:
            data_lines.append(value)
            if not len(data_lines) % CHECK_EVERY:  # many short lines: join them in groups (memory)
                compact_tail(data_lines, "\n")
        self._data_chars, self._event_type = chars, event_type
        self._id_buffer, self._last_event_id, self._fields_pending = id_buffer, last_id, pending
        self._comment_seen = comment_seen
        self._events_out += dispatched
        return out

    def _feed_decoded(self, chunk: bytes) -> list[Event | Comment] | None:
        """Any read that ends lines, strict mode: decoded, split into lines and interpreted in one pass.

        In a large read, the whole events of the common shapes are taken as a run
        (:func:`lesson_lib.core.sse_runs.find_event_run`, :meth:`_dispatch_run`), the lines around them by
        the field loop (:meth:`_process`); in a small read, CRLF endings are split by
        :func:`_split_crlf`; a read that ends one data line then its blank line dispatches its event
        without the field loop. Returns ``None``, having changed nothing, if the read could raise (invalid
        UTF-8, a line or event limit possibly crossed): the layers then take it.
        """
        held, raw = self._held, self._raw
        data: bytes | bytearray
        if held:  # the first bytes of a character cut by the last read that ended lines
            data = held + raw + chunk
        elif raw:
            data = raw + chunk
        else:
            data = chunk
        try:
            text, consumed = utf_8_decode(data, "strict", False)
        except UnicodeDecodeError:
            return None
        body = text
        if self._after_cr and text[0] == "\n":  # the LF of a CRLF whose CR ended the last read
            body = text[1:]
        pending = self._pending
        size = pending + len(body)  # no line of this read can be longer than its text and the pending line
        # Nor can the data it adds to the event exceed that size plus one per line: if the event stays
        # within its limit even so, no line of this read can take it past.
        if self._data_chars + size > self._event_cap:
            return None
        line_cap = self._line_cap
        run = None
        after_cr = False
        large = len(body) >= _RUN_MIN_CHARS and size <= line_cap
        # Is there a CR? In a large read, asked of the bytes, which have one where the text does (it is
        # ASCII): memchr over a byte per character, where the text of an emoji-bearing read has four
        # (measured: 10 ns per 220-byte event against 50, and the text was asked twice). In a small read,
        # asked of the text, which answers faster than the bytes (1.03x in 64-byte reads; 1.05x against
        # asking where the CR is, ``find``, to check a CRLF blank line in the bytes).
        pieces: list[str] | None = None
        if 13 in data if large else "\r" in body:
            after_cr = body[-1] == "\r"  # its LF, if it has one, comes in the next read
            if large:
                lf_body = _lf_endings(body, after_cr)
                if lf_body is None:
                    pieces = _ANY_ENDING.split(body)  # a CR alone: the regular expression
                else:
                    body = lf_body
            else:
                pieces = _split_crlf(body, after_cr)
        if pieces is None:
            if large:
                run = self._find_run(body)
            if run is None:
                pieces = body.split("\n")
                if len(pieces) == 1:  # only the LF of a CRLF whose CR ended the last read, then text
                    return self._no_line_ends(data, consumed, text, body)
        if run is None:
            assert pieces is not None  # (for the type checker: split above when no run was found)
            tail = pieces.pop()
            if size > line_cap and (
                pending + len(pieces[0]) > line_cap
                or len(tail) > line_cap
                or max(map(len, pieces)) > line_cap
            ):
                return None
            complete = len(pieces)
        else:
            pieces = run.lines_before
            rest = run.after.split("\n")
            tail = rest.pop()
            complete = len(pieces) + run.lines_in_run + len(rest)
        parts = self._parts
        value = None  # the first line's value, when it is a data line (the most common line)
        if parts:  # the start of the first line came in earlier reads: join it once, now
            first = parts[0]
            if first.startswith("data: "):
                # Join the value without the "data: ", rather than join the line and copy it all again to
                # cut that off (1.2-1.7x on 200 KiB events in 64-byte to 64 KiB reads; a copy of the line
                # less per event in every read size where lines come in pieces).
                parts[0] = first[6:]
                parts.append(pieces[0])
                value = "".join(parts)
            else:
                parts.append(pieces[0])
                pieces[0] = "".join(parts)
        if value is None and run is None and pieces[0].startswith("data: "):
            value = pieces[0][6:]
        # The data line, then the blank line: the whole event, here (most reads that end lines).
        whole = value is not None and run is None and len(pieces) == 2 and not pieces[1] and not self._data
        if not large and len(chunk) <= _SMALL_READ:
            # The start of the next line waits undecoded, as a read without a line ending does, so that
            # the read that ends it can take :meth:`_feed_data_event` or :meth:`_feed_line_bytes`.
            # Where the last line ending ends: the tail's bytes come just before the held ones, one per
            # character if it is ASCII (a constant-time question); else, after the last CR or LF.
            cut = consumed - len(tail) if tail.isascii() else max(data.rfind(10), data.rfind(13)) + 1
            self._bytes_in += cut - len(held)
            self._held = b""
            waiting = data[cut:]
            raw.clear()
            raw += waiting
            self._chars_in += len(text) - len(tail)
            self._parts = []
            self._pending = 0
            room = line_cap
        else:
            self._bytes_in += len(data) - len(held)
            held = self._held = bytes(data[consumed:]) if consumed != len(data) else b""
            if raw:
                raw.clear()
            self._chars_in += len(text)
            self._parts = [tail] if tail else []
            self._pending = len(tail)
            room = line_cap - len(tail) - len(held)
        self._after_cr = after_cr
        self._lines_out += complete
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        if value is not None:  # the first line's data field, as the field loop would take it
            del pieces[0]
            if whole:
                # The same dispatch as at the end of _feed_data_event, written out in both: as one method,
                # a call per event cost 1.5-3.5% in 64-byte reads (A/B); the path tests compare both with
                # the reference parser in every chunking.
                event = _new_object(Event)
                _set_type(event, self._event_type or "message")
                _set_data(event, value)
                self._last_event_id = self._id_buffer  # the blank line's dispatch, as in _process
                _set_last_event_id(event, self._last_event_id)
                self._event_type = ""
                self._fields_pending = False
                self._events_out += 1
                return [event]
            self._data.append(value)
            self._data_chars += len(value) + 1
            if not len(self._data) % CHECK_EVERY:  # many short lines: join them in groups (memory)
                compact_tail(self._data, "\n")
            self._fields_pending = True
            if not pieces and run is None:  # small reads end one line at a time, most often a data line
                return []
        if run is not None:
            out = self._process(pieces, complete)
            out += self._dispatch_run(run)
            if rest:
                out += self._process(rest, complete)
            return out
        return self._process(pieces, len(pieces))

    def _find_run(self, body: str) -> EventRun | None:
        """A run of whole events in a large read's LF-only text (:func:`find_event_run`), or ``None``.

        Heartbeats (a comment line between two events) do nothing to the events or the state: without
        comments to report, they may stay inside a run. They are looked for once the stream has sent a
        comment (the search costs more than a plain split), or when this read has one and no run without
        (the read that brings the first heartbeats would otherwise go to the field loop: measured
        1.05-1.07x on the heartbeat stream in 64 KiB reads); finding them so records that a comment came.
        """
        heartbeats = self._comment_seen and not self._comments
        run = find_event_run(body, heartbeats)
        if run is None and not heartbeats and not self._comments and "\n:" in body:
            run = find_event_run(body, True)
            if run is not None:
                self._comment_seen = True
        return run

    def _no_line_ends(
        self, data: bytearray | bytes, consumed: int, text: str, body: str
    ) -> list[Event | Comment] | None:
        """The read brought the LF of a CRLF whose CR ended the last read, then text without a line ending:
        no line completes; the text joins the unfinished line (``None``, changing nothing, if the line
        might cross its limit: the layers then say exactly)."""
        if self._pending + len(body) > self._line_cap:
            return None
        held, raw = self._held, self._raw
        self._bytes_in += len(data) - len(held)
        held = self._held = bytes(data[consumed:]) if consumed != len(data) else b""
        if raw:
            raw.clear()
        self._chars_in += len(text)
        self._after_cr = False
        if body:
            self._parts.append(body)
            self._pending += len(body)
        room = self._line_cap - self._pending - len(held)
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        return []

    def _extend_line(self) -> bool:
        """The bytes waiting (no line ending in them), strict mode: decode them into the unfinished line.

        Leaves the state as the layers' own ``feed`` would (the splitter's ``feed`` of text without a line
        ending). Returns ``False`` having changed nothing if the bytes are not valid UTF-8 or the line
        would cross its limit: the layers then take the read and report it.
        """
        held, raw = self._held, self._raw
        data = held + raw if held else raw
        try:
            text, consumed = utf_8_decode(data, "strict", False)
        except UnicodeDecodeError:
            return False
        if self._pending + len(text) > self._line_cap:
            return False
        if text:
            self._parts.append(text)
            self._pending += len(text)
            self._chars_in += len(text)
            self._after_cr = False
        self._bytes_in += len(data) - len(held)
        held = self._held = bytes(data[consumed:]) if consumed != len(data) else b""
        if raw:
            raw.clear()
        room = self._line_cap - self._pending - len(held)
        self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        return True

    def _push(self) -> None:
        """Before a read goes through the layers, strict mode: hand them the state the fast path left (the
        same state again if the layers took the last read: setting it costs less than marking each fast
        read). Costs the length of the unfinished line; strict reads that go through the layers are the
        first, those that may raise, and those that end that line, so this is linear in the stream.

        Replace mode never calls it: no read takes the fast path there, so the layers' state is always the
        current one, and handing it back and forth on every read was quadratic in a long line."""
        self._decoder.setstate((self._held, self._bytes_in))
        self._lines.setstate(("".join(self._parts), self._after_cr, self._chars_in, self._lines_out))

    def _pull(self) -> None:
        """After the layers took a read (or raised): take their state back for the fast path (strict mode),
        or only its counts, in constant time (replace mode: the layers keep the unfinished line, which
        :attr:`pending_line` reads from them)."""
        self._held, self._bytes_in = self._decoder.getstate()
        lines = self._lines
        if self._replace:
            self._after_cr, self._chars_in = lines.after_cr, lines.chars_in
            self._lines_out, self._pending = lines.lines_out, lines.pending_chars
            return
        pending, self._after_cr, self._chars_in, self._lines_out = lines.getstate()
        self._parts = [pending] if pending else []
        self._pending = len(pending)

    def _dispatch_run(self, run: EventRun) -> list[Event | Comment]:
        """The events of a run that :func:`find_event_run` proved whole and plain, built in C loops.

        Called right after a blank line, so no event is being assembled. Without ``id`` lines every event
        gets the current last event ID string and the parser's state stays as it is; with them (none
        holding U+0000), each event's id is its last event ID, and the last one stays, as the field loop
        would leave it.
        """
        count = len(run.datas)
        events: list[Event | Comment] = list(map(_new_object, repeat(Event, count)))
        _exhaust(map(_set_type, events, run.types or repeat("message", count)))
        _exhaust(map(_set_data, events, run.datas))
        if run.ids is None:
            _exhaust(map(_set_last_event_id, events, repeat(self._last_event_id, count)))
        else:
            _exhaust(map(_set_last_event_id, events, run.ids))
            self._id_buffer = self._last_event_id = run.ids[-1]
        self._events_out += count
        return events

    def _feed_now(self, chunk: bytes) -> list[Event | Comment]:
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)
        if self._raw:
            self._raw += chunk
            chunk, self._raw = bytes(self._raw), bytearray()
        self._fast, self._raw_room = False, -1
        if self._strict:
            self._push()
        try:
            out = self._decode_and_split(chunk)
        finally:
            self._pull()
        if self._state == "open" and self._started:
            self._fast = True
            room = self._line_cap - self._pending - len(self._held)
            self._raw_room = room if room < _RAW_MAX_BYTES else _RAW_MAX_BYTES
        return out

    def _decode_and_split(self, chunk: bytes) -> list[Event | Comment]:
        byte_base = self._decoder.bytes_decoded
        try:
            text = self._decoder.feed(chunk)
        except StreamDecodeError as exc:
            self._state = "failed"
            # Finish what came before the bad byte; an error earlier in the stream wins.
            done = self._feed_text(exc.text_before, byte_base) if exc.text_before else []
            exc.outputs = cast("list[object]", done)
            raise
        if not text:
            return []
        try:
            return self._feed_text(text, byte_base)
        except BoundaryError:
            self._state = "failed"
            raise

    def close(self) -> list[Event | Comment]:
        """End of stream. Dispatches nothing: an event without its blank line is discarded (the spec).

        Records in :attr:`ended_mid` what was cut. Strict mode raises
        :class:`TruncatedCharacterError` if the stream ended mid-character.
        """
        try:
            return self._close()
        except ParserStateError:
            raise
        except BaseException:
            self._fail()
            raise

    def _close(self) -> list[Event | Comment]:
        if self._raw:
            self._feed_now(b"")  # decode what was only remembered; may raise, as feed() would have
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)
        self._fast, self._raw_room = False, -1
        if self._strict:
            self._push()
        try:
            return self._close_layers()
        finally:
            self._pull()

    def _close_layers(self) -> list[Event | Comment]:
        held = len(self._decoder.held_bytes)
        try:
            byte_base = self._decoder.bytes_decoded
            tail = self._decoder.close()
        except StreamDecodeError:
            self._state = "failed"
            self._ended_mid = "character"
            raise
        self._state = "closed"
        if tail:
            # Replace mode: the held bytes became text; it cannot contain a line ending.
            try:
                self._feed_text(tail, byte_base)
            except BoundaryError:
                self._state = "failed"
                raise
        if held:
            self._ended_mid = "character"
        elif self._lines.pending_chars:
            self._ended_mid = "line"
        elif self._fields_pending:
            self._ended_mid = "event"
        self._lines.discard()
        self._data, self._data_chars, self._event_type, self._fields_pending = [], 0, "", False
        return []

    # -- internals -------------------------------------------------------------------------------------
    def _feed_text(self, text: str, byte_base: int) -> list[Event | Comment]:
        if not self._started:
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
                byte_base += 3
                if not text:
                    return []
        self._text, self._text_char_base, self._text_byte_base = text, self._lines.chars_in, byte_base
        try:
            lines = self._lines.feed(text)
        except LimitExceededError as exc:
            exc.offset = self._byte_offset(exc.char_index)
            complete_lines, exc.outputs = cast("list[str]", exc.outputs), []
            done = self._process(complete_lines, len(complete_lines))  # may raise an earlier error
            exc.outputs = cast("list[object]", done)
            exc.event_index = self._events_out
            raise
        return self._process(lines, len(lines)) if lines else []

    def _byte_offset(self, char_index: int | None) -> int | None:
        """Absolute byte offset of a character of the current feed's text (error paths only)."""
        if char_index is None:
            return None
        return self._text_byte_base + utf8_length(self._text[: char_index - self._text_char_base])

    def _process(self, lines: list[str], lines_in_feed: int) -> list[Event | Comment]:
        """Interpret complete lines: the spec's field loop. The event being assembled is held in locals
        and stored back once per call; blank lines, then ``data: `` and ``event: `` lines, most of a stream,
        are tried first.
        """
        out: list[Event | Comment] = []
        data, chars, event_type = self._data, self._data_chars, self._event_type
        id_buffer, last_id, pending = self._id_buffer, self._last_event_id, self._fields_pending
        over = self._event_cap
        replace, comments = self._replace, self._comments
        dispatched = 0
        for line in lines:
            if not line:  # a blank line: dispatch
                last_id = id_buffer
                pending = False
                if data:
                    joined, kind = "\n".join(data), event_type or "message"
                    if replace:
                        joined, kind = replace_escapes(joined), replace_escapes(kind)
                    event = _new_object(Event)
                    _set_type(event, kind)
                    _set_data(event, joined)
                    _set_last_event_id(event, last_id)
                    out.append(event)
                    dispatched += 1
                    data, chars = [], 0
                event_type = ""
                continue
            if line.startswith("data: "):  # the most common field, in its most common spelling
                value = line[6:]
            elif line.startswith("event: "):
                event_type = line[7:]
                pending = True
                continue
            else:
                colon = line.find(":")
                if colon == 0:  # a comment
                    self._comment_seen = True
                    if comments:
                        text = line[2:] if line.startswith(" ", 1) else line[1:]
                        out.append(Comment(replace_escapes(text) if replace else text))
                    continue
                if colon < 0:
                    name, value = line, ""
                else:
                    name = line[:colon]
                    value = line[colon + 2 :] if line.startswith(" ", colon + 1) else line[colon + 1 :]
                pending = True
                if name != "data":
                    if name == "event":
                        event_type = value
                    elif name == "id":
                        if "\x00" not in value:
                            id_buffer = replace_escapes(value) if replace else value
                    elif name == "retry" and value.isascii() and value.isdigit():
                        # The bytes fed so far, this read's included: the decoder's in the layers, the
                        # fast path's own counts on the one-pass path (each stale on the other path).
                        fed = max(self._decoder.bytes_in, self._bytes_in + len(self._raw))
                        self._note_retry(self._events_out + dispatched, fed)
                        self._retry = retry_ms(value)
                    continue
            pending = True
            data.append(value)
            chars += len(value) + 1
            if not len(data) % CHECK_EVERY:  # many short lines: join them in groups (memory)
                compact_tail(data, "\n")
            if chars > over:
                self._data, self._data_chars, self._event_type = data, chars, event_type
                self._id_buffer, self._last_event_id, self._fields_pending = id_buffer, last_id, pending
                self._events_out += dispatched
                # Which line of this call: lines of 2+ characters from one split are distinct objects.
                number = next(i for i, other in enumerate(lines) if other is line)
                self._fail_event_limit(number, lines_in_feed, out)
        self._data, self._data_chars, self._event_type = data, chars, event_type
        self._id_buffer, self._last_event_id, self._fields_pending = id_buffer, last_id, pending
        self._events_out += dispatched
        return out

    def _fail_event_limit(self, number: int, lines_in_feed: int, done: list[Event | Comment]) -> None:
        """Raise at the end of this feed's ``number``-th line, whose data took the event past the limit."""
        assert self._max_event is not None
        error = LimitExceededError(
            "max_event_chars",
            self._max_event,
            offset=self._byte_offset(self._lines.line_end_char(number)),
            line_index=self._lines.lines_out - lines_in_feed + number,
            event_index=self._events_out,
        )
        error.outputs = cast("list[object]", done)
        raise error
