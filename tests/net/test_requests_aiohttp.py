"""requests and aiohttp read ReplayServer over real HTTP: every sentence lesson 06 (section 4, "requests and
aiohttp") states about them, each a test that fails if the library (as pinned in requirements.txt) changes.

The body says ``text/event-stream`` with no charset (ReplayServer's ``content_type`` option), as many
upstreams send it. Claims about "every cut" run at each cut point of a short capture whose text mixes
Chinese, accented Latin (Å is ``c3 85``: decoded as Latin-1, its second byte is U+0085, a line break for
``str.splitlines()``) and a 4-byte emoji.
"""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
import pytest
import requests
from aiohttp.http_exceptions import LineTooLong

from lesson_lib import aconsume, consume, parse_sse
from lesson_lib.captures import load
from lesson_lib.net.replay import ReplayServer

NO_CHARSET = "text/event-stream"
TEXT = "你好，Ångström café 🙂"
BODY = f"data: {TEXT}\n\n".encode()
#: One event of two data lines, CRLF line endings; the one place a CR|LF cut can fall is after each CR.
CRLF_BODY = f"data: {TEXT}\r\ndata: 第二行\r\n\r\n".encode()
CR_THEN_LF = [i + 1 for i in range(len(CRLF_BODY) - 1) if CRLF_BODY[i : i + 2] == b"\r\n"]
ALL_CUTS = range(1, len(CRLF_BODY))


def get(server: ReplayServer) -> requests.Response:
    """A streamed GET (``stream=True``: the body is read as it arrives), closed by the caller."""
    return requests.get(server.url, stream=True, timeout=10)


# -- requests ---------------------------------------------------------------------------------------------
def test_requests_encoding_is_latin1_without_charset() -> None:
    """'r.encoding is ISO-8859-1': requests' rule for a text/* type without a charset."""
    with ReplayServer(BODY, content_type=NO_CHARSET) as server, contextlib.closing(get(server)) as r:
        assert r.headers["Content-Type"] == "text/event-stream"
        assert r.encoding == "ISO-8859-1"
        assert r.apparent_encoding == "utf-8"  # the guess from the bytes is right; it is not used


def test_requests_iter_lines_decode_unicode_is_mojibake_and_breaks_at_nel() -> None:
    """'iter_lines(decode_unicode=True) gives mojibake, and Å's second byte breaks the line in two'."""
    with ReplayServer(BODY, content_type=NO_CHARSET) as server, contextlib.closing(get(server)) as r:
        lines = list(r.iter_lines(decode_unicode=True))
    latin1 = BODY.decode("latin-1")
    assert lines == latin1.splitlines()
    assert lines[0] == "data: ä½\xa0å¥½ï¼\x8cÃ"
    assert len(lines) == 3  # two lines where the event has one, then the blank line
    assert not any("你" in line or "\ufffd" in line for line in lines)


@pytest.mark.parametrize("cut", range(1, len(BODY)))
def test_requests_iter_content_decode_unicode_every_cut(cut: int) -> None:
    """'iter_content(chunk_size=None, decode_unicode=True) decodes incrementally with r.encoding: Latin-1
    gives mojibake at every cut (never U+FFFD); r.encoding = "utf-8" gives the text whole at every cut'."""
    with ReplayServer(BODY, cuts=[cut], content_type=NO_CHARSET) as server:
        with contextlib.closing(get(server)) as r:
            raw = list(r.iter_content(chunk_size=None))
        assert raw == [BODY[:cut], BODY[cut:]]  # one item per HTTP chunk: the cut is the read boundary
        with contextlib.closing(get(server)) as r:
            assert "".join(r.iter_content(chunk_size=None, decode_unicode=True)) == BODY.decode("latin-1")
        with contextlib.closing(get(server)) as r:
            r.encoding = "utf-8"
            pieces = list(r.iter_content(chunk_size=None, decode_unicode=True))
    assert "".join(pieces) == BODY.decode()
    assert "\ufffd" not in "".join(pieces)


def test_requests_setting_encoding_fixes_the_text_and_leaves_the_extra_empty_line() -> None:
    """'r.encoding = "utf-8" fixes the text and leaves the extra empty line': before reading,
    iter_lines(decode_unicode=True) gives the text; a cut between CR and LF still adds an empty line."""
    with ReplayServer(BODY, content_type=NO_CHARSET) as server, contextlib.closing(get(server)) as r:
        r.encoding = "utf-8"
        assert list(r.iter_lines(decode_unicode=True)) == [f"data: {TEXT}", ""]
    server = ReplayServer(CRLF_BODY, cuts=[CR_THEN_LF[0]], content_type=NO_CHARSET)
    with server, contextlib.closing(get(server)) as r:
        r.encoding = "utf-8"
        assert list(r.iter_lines(decode_unicode=True)) == [f"data: {TEXT}", "", "data: 第二行", ""]


def sse_from_lines(lines: list[bytes]) -> list[str]:
    """The events a client gets that takes each of iter_lines()' items as one SSE line (spec parser)."""
    return [event.data for event in parse_sse([b"".join(line + b"\n" for line in lines)])]


@pytest.mark.parametrize("cut", ALL_CUTS)
def test_requests_iter_lines_extra_empty_line_exactly_at_cr_lf_cuts(cut: int) -> None:
    """'With a cut between CR and LF, iter_lines() yields an extra empty line; cut inside an event, one
    event becomes two'; at every other cut its lines are the event's. Default chunk_size and None alike."""
    whole = [f"data: {TEXT}".encode(), "data: 第二行".encode(), b""]
    with ReplayServer(CRLF_BODY, cuts=[cut], content_type=NO_CHARSET) as server:
        for chunk_size in (512, None):
            with contextlib.closing(get(server)) as r:
                lines = list(r.iter_lines(chunk_size=chunk_size))  # type: ignore[arg-type]
            if cut in CR_THEN_LF:
                assert len(lines) == 4 and lines.count(b"") == 2, (cut, lines)
                # The extra empty line dispatches: inside the event (its first CRLF), one event becomes two;
                # after its last line or its blank line, the empty event it would end dispatches nothing.
                events = sse_from_lines(lines)
                if cut == CR_THEN_LF[0]:
                    assert events == [TEXT, "第二行"]
                else:
                    assert events == [f"{TEXT}\n第二行"]
            else:
                assert lines == whole, (cut, lines)
                assert sse_from_lines(lines) == [f"{TEXT}\n第二行"]


@pytest.mark.parametrize("cut", ALL_CUTS)
def test_requests_fix_bytes_into_lesson_lib_every_cut(cut: int) -> None:
    """'The fix: iter_content(chunk_size=None) gives bytes; lesson_lib decodes UTF-8 and splits lines
    itself', so neither the charset nor a CR|LF cut changes the event."""
    server = ReplayServer(CRLF_BODY, cuts=[cut], content_type=NO_CHARSET)
    with server, contextlib.closing(get(server)) as r:
        events = parse_sse(r.iter_content(chunk_size=None))
    assert [event.data for event in events] == [f"{TEXT}\n第二行"]


def test_requests_fix_consume_on_the_chat_capture() -> None:
    """'consume(r.iter_content(chunk_size=None), "openai-chat")' assembles the capture's text."""
    chat = load("openai-chat/completed")
    inside = [i for i, byte in enumerate(chat.body) if 0x80 <= byte < 0xC0]
    server = ReplayServer(chat.body, cuts=inside, content_type=NO_CHARSET)
    with server, contextlib.closing(get(server)) as r:
        result = consume(r.iter_content(chunk_size=None), "openai-chat")
    assert result.outcome == "completed"
    assert result.text == chat.text


# -- aiohttp ----------------------------------------------------------------------------------------------
async def read_with(server: ReplayServer, how: str, read_bufsize: int = 2**18) -> list[bytes]:
    """The items one of aiohttp's stream readers yields: "lines" (async for), "any" or "chunked:N";
    ``read_bufsize`` is aiohttp's default unless given."""
    async with aiohttp.ClientSession(read_bufsize=read_bufsize) as client, client.get(server.url) as response:
        assert response.charset is None
        if how == "lines":
            return [line async for line in response.content]
        if how == "any":
            return [piece async for piece in response.content.iter_any()]
        size = int(how.removeprefix("chunked:"))
        return [piece async for piece in response.content.iter_chunked(size)]


def test_aiohttp_gives_bytes_and_text_falls_back_to_utf8() -> None:
    """'No charset: response.charset is None; the readers give bytes; text() decodes as UTF-8'."""

    async def main() -> tuple[str, str]:
        with ReplayServer(BODY, content_type=NO_CHARSET) as server:
            async with aiohttp.ClientSession() as client, client.get(server.url) as response:
                text = await response.text()
                return text, response.get_encoding()

    assert asyncio.run(main()) == (BODY.decode(), "utf-8")


@pytest.mark.parametrize("cut", ALL_CUTS)
def test_aiohttp_lines_split_at_lf_only_every_cut(cut: int) -> None:
    """'async for line in response.content: lines end at LF and keep their CR; a CR|LF cut changes
    nothing' (readline waits for the LF), at every cut."""
    with ReplayServer(CRLF_BODY, cuts=[cut], content_type=NO_CHARSET) as server:
        lines = asyncio.run(read_with(server, "lines"))
    assert lines == [f"data: {TEXT}\r\n".encode(), "data: 第二行\r\n".encode(), b"\r\n"]
    assert [line.decode() for line in lines]  # a whole line is whole characters: it decodes


def test_aiohttp_lines_do_not_split_cr_only_endings() -> None:
    """'CR alone, a line ending SSE allows, is not one for readline: the whole body is one line'."""
    body = CRLF_BODY.replace(b"\r\n", b"\r")
    with ReplayServer(body, content_type=NO_CHARSET) as server:
        assert asyncio.run(read_with(server, "lines")) == [body]
    assert len(parse_sse([body])) == 1


def test_aiohttp_iter_any_read_ends_inside_a_character() -> None:
    """'iter_any() yields the reads as they arrive: here the first ends inside 你, and decoding each alone
    gives U+FFFD'."""
    cut = BODY.index("你".encode()) + 1
    with ReplayServer(BODY, cuts=[cut], delay=0.2, content_type=NO_CHARSET) as server:
        pieces = asyncio.run(read_with(server, "any"))
    assert b"".join(pieces) == BODY
    assert pieces[0] == b"data: \xe4"
    assert "\ufffd" in "".join(piece.decode(errors="replace") for piece in pieces)


def test_aiohttp_iter_chunked_cuts_at_n_bytes() -> None:
    """'iter_chunked(7) yields at most 7 bytes at a time, wherever that falls: its first piece ends inside
    你'."""
    with ReplayServer(BODY, content_type=NO_CHARSET) as server:
        pieces = asyncio.run(read_with(server, "chunked:7"))
    assert b"".join(pieces) == BODY
    assert all(len(piece) <= 7 for piece in pieces)
    assert pieces[0] == b"data: \xe4"
    with pytest.raises(UnicodeDecodeError):
        pieces[0].decode()


LONG = b"data: " + ("你" * 100).encode() + b"\n\ndata: next\n\n"


def test_aiohttp_line_limit_raises_line_too_long_and_loses_the_line() -> None:
    """'A line longer than the limit raises aiohttp.http_exceptions.LineTooLong; the line, through its LF,
    is gone: the next read starts with the blank line after it'."""

    async def main() -> tuple[bytes, bytes]:
        with ReplayServer(LONG, content_type=NO_CHARSET) as server:
            async with aiohttp.ClientSession() as client, client.get(server.url) as response:
                with pytest.raises(LineTooLong) as raised:
                    await response.content.readline(max_line_length=64)
                assert raised.value.args[1] == 64
                return raised.value.args[0], await response.content.read()

    shown, rest = asyncio.run(main())
    assert shown == LONG[:100] + b"..."  # the message shows the first 100 bytes
    assert rest == b"\ndata: next\n\n"


def test_aiohttp_line_limit_default_is_twice_read_bufsize() -> None:
    """'The default limit is twice read_bufsize: 512 KiB'; async for raises at a longer line, and a smaller
    read_bufsize lowers it."""
    with ReplayServer(LONG, content_type=NO_CHARSET) as server:

        async def limits(bufsize: int | None) -> tuple[int, int]:
            session = aiohttp.ClientSession(read_bufsize=bufsize or 2**18)
            async with session as client, client.get(server.url) as response:
                return response.content.get_read_buffer_limits()  # (read() would lift them)

        assert asyncio.run(limits(None)) == (256 * 1024, 512 * 1024)
        assert asyncio.run(limits(32)) == (32, 64)
        with pytest.raises(LineTooLong):
            asyncio.run(read_with(server, "lines", read_bufsize=32))
        assert asyncio.run(read_with(server, "lines")) == LONG.splitlines(keepends=True)


def test_aiohttp_fix_aconsume_iter_any() -> None:
    """'The fix: aconsume(response.content.iter_any(), contract)': the capture's text at every read
    boundary inside a character, and the long line as an event, with no line limit of aiohttp's."""
    chat = load("openai-chat/completed")
    inside = [i for i, byte in enumerate(chat.body) if 0x80 <= byte < 0xC0]

    async def main(server: ReplayServer, contract: str) -> tuple[str, str]:
        async with aiohttp.ClientSession(read_bufsize=32) as client, client.get(server.url) as response:
            result = await aconsume(response.content.iter_any(), contract)
        return str(result.outcome), result.text

    with ReplayServer(chat.body, cuts=inside, content_type=NO_CHARSET) as server:
        assert asyncio.run(main(server, "openai-chat")) == ("completed", chat.text)
    with ReplayServer(LONG, content_type=NO_CHARSET) as server:

        async def events() -> list[str]:
            async with aiohttp.ClientSession(read_bufsize=32) as client, client.get(server.url) as response:
                return [e.data for e in parse_sse([piece async for piece in response.content.iter_any()])]

        assert asyncio.run(events()) == ["你" * 100, "next"]


@pytest.mark.parametrize("cut", ALL_CUTS)
def test_aiohttp_fix_every_cut(cut: int) -> None:
    """At every cut, iter_any()'s bytes into lesson_lib give the one event whole."""

    async def main(server: ReplayServer) -> list[str]:
        async with aiohttp.ClientSession() as client, client.get(server.url) as response:
            return [e.data for e in parse_sse([piece async for piece in response.content.iter_any()])]

    with ReplayServer(CRLF_BODY, cuts=[cut], content_type=NO_CHARSET) as server:
        assert asyncio.run(main(server)) == [f"{TEXT}\n第二行"]
