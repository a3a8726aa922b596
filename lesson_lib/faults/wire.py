"""What a fault's stream is made of: :class:`Unit` (one event, line or array piece, and what it means) and the
base class of the per-contract writers (:class:`Wire`), which write events exactly as the captures in
``data/`` do (``data/build_captures.py``: the same fields in the same order, the same JSON separators).

A writer declares what each unit means as it writes it (the answer text it delivers, its kind), so the
text a correct client keeps at any cut is the join of the texts of the whole units before the cut: declared
by construction, never read back with the parser under test. ``tests/faults/test_wire.py`` holds every
writer to its capture (each event type's fields) and to :func:`lesson_lib.consume`.

The answers mix 2-, 3- and 4-byte UTF-8 (accented Latin, Chinese, emoji, a ZWJ sequence), written raw.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .plan import Plan
from .request import Call
from .services import SERVICES, Service

__all__ = [
    "ANSWER",
    "CUT_ANSWER",
    "REASONING",
    "TOOL_FRAGMENTS",
    "TOOL_TEXT",
    "Unit",
    "Wire",
    "compact",
    "fake_id",
    "sse_comment",
    "sse_event",
    "text_of",
]

#: The answer of every control stream: a 2-byte (é, ï, Å), 3-byte (你, 第) and 4-byte (🙂, 🚀, 👩) character,
#: each raw in the bytes, and a ZWJ sequence (👩‍💻) whose parts share one delta.
ANSWER = (
    "你好", "！", "Café", " au lait", " for a naïve", " Ångström fan.", " 第二行：", "🙂", " 🚀",
    " 👩\u200d💻", " 完成。",
)  # fmt: skip
#: An answer the service cut at its token limit: it stops mid-sentence.
CUT_ANSWER = ("你好，这是一个", "很长的回答：café", " naïve", " Ångström ", "🚀", " 第二")
#: Reasoning (thinking) the service sends beside the answer: never answer text.
REASONING = ("嗯，", "用户问 9.11 和 9.8", " 哪个大。", "比较小数部分：0.8 > 0.11 🙂")
#: A tool call's arguments as JSON text in fragments: cut inside a key, a string, a number (1|4).
TOOL_FRAGMENTS = ('{"ci', 'ty": "北', '京", "da', 'ys": 1', '4, "unit": "cel', 'sius"}')
#: The text an answer with a tool call says before the call.
TOOL_TEXT = ("好的，", "我查一下北京", "的天气。")
#: The tool the calls name.
TOOL_NAME = "get_weather"


@dataclass(frozen=True)
class Unit:
    """One unit of a stream and what it means once it arrived whole.

    ``kind``: ``"meta"`` (a stage), ``"delta"`` (answer text), ``"finish"`` (the finish reason, before the
    terminal signal), ``"usage"``, ``"terminal"`` (the service's own "done"), ``"heartbeat"``, ``"error"`` (an
    in-band error), ``"reasoning"``, ``"call"`` (a tool call's argument fragment), ``"framing"`` (a JSON
    array's ``[``, ``,``), ``"after"`` (sent after the terminal signal: a correct client ignores it).
    ``text`` is the answer text it delivers (``""`` for any kind but ``delta``, ``finish`` and ``terminal``).
    ``number`` is where a resumed stream continues: the Responses ``sequence_number`` or the MCP event
    number (``None`` for a unit a resumed stream does not replay).
    """

    data: bytes
    kind: str = "meta"
    text: str = ""
    number: int | None = None


def text_of(units: Sequence[Unit]) -> str:
    """The answer text ``units`` deliver, once each arrived whole (declared by the writer)."""
    return "".join(unit.text for unit in units)


def fake_id(seed: str, length: int, alphabet: str = "0123456789abcdef") -> str:
    """A deterministic fictional identifier derived from ``seed`` (as the captures' are)."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    while len(digest) < length:
        digest += hashlib.sha256(digest).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:length])


BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def compact(obj: object) -> str:
    """Compact JSON with raw UTF-8, as the OpenAI and Anthropic APIs send it."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def sse_event(fields: Sequence[tuple[str, str]], eol: str = "\n") -> bytes:
    """One SSE event: ``name: value`` lines, then the blank line that dispatches it (a value of ``""`` is
    written ``name:``)."""
    lines = [f"{name}: {value}" if value else f"{name}:" for name, value in fields]
    for line in lines:
        if "\r" in line or "\n" in line:
            raise ValueError("an SSE field cannot hold CR or LF")
    return (eol.join(lines) + eol + eol).encode("utf-8")


def sse_comment(comment: str, eol: str = "\n") -> bytes:
    """An SSE comment line (``comment`` starts with the space, if any) and a blank line."""
    return f":{comment}{eol}{eol}".encode()


class Wire:
    """A contract's writer. Subclasses set the class attributes and implement the bodies they have; one
    they do not have raises ``NotImplementedError`` (the catalogue asks only for those a service has)."""

    #: The contract, as :func:`lesson_lib.consume` names it.
    contract: ClassVar[str]
    #: The line ending the service writes.
    eol: ClassVar[str] = "\n"
    #: The service's word for an answer cut at its token limit.
    cut_reason: ClassVar[str]

    @property
    def service(self) -> Service:
        return SERVICES[self.contract]

    def headers(self, charset: bool = True) -> tuple[tuple[str, str], ...]:
        """The stream's response headers (``charset=False``: the ``Content-Type`` without its charset)."""
        content_type = self.service.content_type
        if not charset:
            content_type = content_type.split(";", 1)[0]
        return (("Content-Type", content_type), ("Cache-Control", "no-cache"))

    def answer(
        self,
        call: Call,
        pieces: Sequence[str] = ANSWER,
        *,
        reason: str | None = None,
        usage: bool = False,
        error_after: int | None = None,
        repeat_terminal: bool = False,
        after_terminal: Sequence[str] = (),
    ) -> list[Unit]:
        """A whole answer of ``pieces``: its stages, one text delta per piece, the finish reason
        (``reason``, default the whole-answer one) and the terminal signal. ``usage``: a usage unit between
        the finish reason and the terminal; ``error_after=k``: the in-band error instead of piece ``k``,
        and nothing after it; ``repeat_terminal``: the terminal signal twice; ``after_terminal``: deltas
        sent after it (kind ``"after"``)."""
        raise NotImplementedError

    def heartbeat(self, number: int) -> Unit:
        """The service's keep-alive (``number``: the next sequence number, where the service counts)."""
        raise NotImplementedError

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        """Reasoning only, then the service's end at its token limit (:attr:`cut_reason`): no answer text."""
        raise NotImplementedError

    def tool_call(self, call: Call) -> list[Unit]:
        """A whole answer that calls :data:`TOOL_NAME` with :data:`TOOL_FRAGMENTS` (units of kind
        ``"call"``), after :data:`TOOL_TEXT` where the service sends text beside a call."""
        raise NotImplementedError

    def error_status(self) -> Plan:
        """The service's HTTP error before any byte of the answer (its JSON body, ``Content-Length``)."""
        raise NotImplementedError
