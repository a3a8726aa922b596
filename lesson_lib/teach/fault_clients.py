"""The clients people use, each read the way its documentation shows, scored over the fault catalogue.

Each adapter is an :class:`Adapter`: called with one catalogue entry (a ``GET /faults`` item: ``name``,
``contract``, ``path``, ``expected`` and ``base_url``, the server's URL + ``/faults/<name>``), it streams
the fault's answer with its client and returns what the client's user concludes,
``{"outcome": ..., "text": ...}`` (:meth:`Adapter.verdict` gives the :class:`~.fault_verdicts.Verdict`,
with the name of the exception it was read from), or ``None`` for a contract the client does not speak.
The rule is the user's: an iteration that ends without an exception means the answer is whole,
``completed``; an exception means what :func:`~.fault_verdicts.outcome_of` says, and any other exception
(the user's code crashing on a shape it did not expect) is raised to the caller. ``text`` is what the
user collected, exception or not.

Which adapters look at the service's own finish signal: **none of the SDK adapters**. Their code is the
usage each library documents, and none of those checks a finish reason: ``openai``'s README iterates
``responses.create(stream=True)`` and prints each event, its chat streaming examples print each chunk's
``delta.content``; Anthropic's streaming guide iterates ``messages.stream(...).text_stream``. So a
``finish_reason: length`` or ``stop_reason: max_tokens`` is ``completed`` to them unless the SDK raises.
The two hand-written clients stop reading where their users stop (``data: [DONE]`` for Chat Completions,
``"done": true`` for Ollama) and conclude ``completed`` either way. lesson_lib's own client (``stream_http``,
``astream_http``) reports its :class:`~lesson_lib.StreamResult`'s outcome, and the guarded SDKs the outcome
of the :class:`~lesson_lib.guard.UnprovenStreamError` raised into the iteration: both judge the finish
signal, through lesson_lib.

Timeouts: on a timed entry (the catalogue's ``timed``: a stall, heartbeats, a trickle, scaled to it) each
adapter waits at most :data:`IDLE_SECONDS` (1 s) for any single read (the SDKs', httpx's and requests' read
timeout; lesson_lib's ``idle_timeout``), so a stall ends the stream instead of the run. On any other entry
(no pause near 1 s is in it) it waits at most :data:`UNTIMED_SECONDS`: there a long wait is a hang, and a
busy machine's one-second hiccup must not turn a whole answer into ``timed_out``. Real defaults are far
longer (openai's and anthropic's read timeout is 600 s, requests has none). Connecting may
take :data:`CONNECT_SECONDS`. The SDKs are made with ``max_retries=0``, so each fault is asked once.

The clients (:data:`CLIENTS`, in table order):

* ``openai``, ``openai-async``: ``openai.OpenAI`` / ``AsyncOpenAI``, ``chat.completions.create`` or
  ``responses.create`` with ``stream=True``, text from ``choices[].delta.content`` /
  ``response.output_text.delta`` events;
* ``anthropic``, ``anthropic-async``: ``anthropic.Anthropic`` / ``AsyncAnthropic``, ``messages.stream``,
  ``text_stream``;
* ``httpx-sse``: ``connect_sse`` and ``iter_sse`` over ``httpx.Client``, the README's
  ``response.raise_for_status()`` first, ``[DONE]`` ends a Chat Completions stream; the JSON is read with
  care (a shape it does not know adds no text);
* ``requests``: ``requests.post(..., stream=True)``, ``iter_lines()``, each line ``.decode("utf-8")``, the
  ``data: `` prefix stripped, ``json.loads``, then indexing as the blog posts do
  (``chunk["choices"][0]["delta"]``): the naive pattern the course warns about. It crashes on what it does
  not expect, and that is scored as raised;
* ``lesson_lib``, ``lesson_lib-async``: :func:`lesson_lib.net.stream_http` /
  :func:`~lesson_lib.net.astream_http` (every contract, MCP included);
* ``guard+openai``, ``guard+anthropic``: the sync SDK adapters above with
  ``http_client=lesson_lib.guard.Client()``.

The requests each adapter sends are those the services accept (:func:`request_json`): a model, the
messages and ``stream: true`` (Gemini streams by its endpoint and takes no ``stream`` field; MCP is a
JSON-RPC ``tools/call`` with the id :data:`MCP_REQUEST_ID`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.contracts import NEEDS_REQUEST_ID
from .fault_verdicts import Verdict, outcome_of

__all__ = [
    "CLIENTS",
    "CONNECT_SECONDS",
    "IDLE_SECONDS",
    "MCP_REQUEST_ID",
    "UNTIMED_SECONDS",
    "Adapter",
    "EntryError",
    "anthropic_async",
    "anthropic_sync",
    "client_named",
    "guarded_anthropic",
    "guarded_openai",
    "httpx_sse_client",
    "lesson_lib_async",
    "lesson_lib_sync",
    "openai_async",
    "openai_sync",
    "read_openai",
    "request_headers",
    "request_json",
    "requests_client",
    "stream_url",
]

#: The longest wait for one read, in seconds: longer than a fault's pauses between pieces, shorter than its
#: stalls (the catalogue's stall is longer than this; real clients' defaults are far longer).
IDLE_SECONDS = 1.0
#: The longest wait for one read on an entry that is not ``timed``, in seconds (it has no pause to time).
UNTIMED_SECONDS = 30.0
#: The longest wait to connect, in seconds (a loopback server: never near it).
CONNECT_SECONDS = 5.0
#: The JSON-RPC id of the MCP request; the MCP contract is judged against it.
MCP_REQUEST_ID = 1
MODEL = "fault-server"
PROMPT = "你好, café 🙂"
MESSAGES: list[Any] = [{"role": "user", "content": PROMPT}]  # each SDK types it its own way

Entry = Mapping[str, Any]
#: One stream read by one client: the entry, the list the user's text goes into and the read timeout in
#: seconds; returns a verdict
#: when the client itself gives one (lesson_lib), or None: the iteration ended, so the user says completed.
Reader = Callable[[Entry, list[str], float], Verdict | None]


# -- what is sent ------------------------------------------------------------------------------------------


def _chat_body() -> dict[str, Any]:
    return {"model": MODEL, "messages": MESSAGES, "stream": True}


def _gemini_body() -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}


_BODIES: dict[str, Callable[[], dict[str, Any]]] = {
    "openai-chat": _chat_body,
    "openai-responses": lambda: {"model": MODEL, "input": PROMPT, "stream": True},
    "anthropic-messages": lambda: {"model": MODEL, "max_tokens": 1024, "messages": MESSAGES, "stream": True},
    "gemini": _gemini_body,
    "gemini-json-array": _gemini_body,
    "ollama": _chat_body,
    "mcp": lambda: {
        "jsonrpc": "2.0",
        "id": MCP_REQUEST_ID,
        "method": "tools/call",
        "params": {"name": "answer", "arguments": {"question": PROMPT}},
    },
}
#: Headers a contract's request needs besides the JSON body's (MCP: a client accepts both answers).
_HEADERS: dict[str, dict[str, str]] = {"mcp": {"Accept": "application/json, text/event-stream"}}


def request_json(contract: str) -> dict[str, Any]:
    """The JSON body a client sends to a ``contract``'s streaming endpoint (a new dict each call);
    ``KeyError`` naming the contract if there is none."""
    try:
        return _BODIES[contract]()
    except KeyError:
        raise KeyError(f"no request body for contract {contract!r}") from None


def request_headers(contract: str) -> dict[str, str]:
    """The headers a client sends to a ``contract``'s endpoint besides its JSON body's ``Content-Type``
    (MCP: ``Accept`` names both answers a server may give); a new dict each call."""
    return dict(_HEADERS.get(contract, {}))


def stream_url(entry: Entry) -> str:
    """The entry's streaming URL: its ``base_url`` followed by the service's ``path`` (query included)."""
    return str(entry["base_url"]) + str(entry["path"])


class EntryError(ValueError):
    """An entry this adapter cannot be pointed at although it speaks its contract (a path the SDK cannot
    be given): a mismatch between the catalogue and the adapter, not a client's behaviour, so the score
    runner lets it raise instead of scoring it."""


def _sdk_base(entry: Entry, suffix: str) -> str:
    """The base URL an SDK is given so that it requests the entry's path: the URL without ``suffix``."""
    path = str(entry["path"]).split("?", 1)[0]
    if not path.endswith(suffix):
        raise EntryError(f"entry {entry.get('name')!r}: path {path!r} does not end with {suffix!r}")
    return str(entry["base_url"]) + path[: len(path) - len(suffix)]


def read_timeout(entry: Entry) -> float:
    """The read timeout an adapter uses on ``entry``: :data:`IDLE_SECONDS` if it is ``timed``, else
    :data:`UNTIMED_SECONDS`."""
    return IDLE_SECONDS if entry.get("timed") else UNTIMED_SECONDS


def _timeout(module: Any, idle: float) -> Any:
    """An SDK's (httpx2's) or httpx's timeout: ``idle`` seconds per read, :data:`CONNECT_SECONDS` to
    connect."""
    return module.Timeout(idle, connect=CONNECT_SECONDS)


# -- the adapters ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adapter:
    """One client: its ``name`` (a column of the table), the ``contracts`` it speaks, and ``read``.

    Calling it with an entry returns ``{"outcome", "text"}``, or ``None`` for a contract it does not speak;
    an exception that is not an outcome (:func:`~.fault_verdicts.outcome_of`) propagates."""

    name: str
    contracts: frozenset[str]
    read: Reader

    def speaks(self, entry: Entry) -> bool:
        """Whether this client can be pointed at the entry (its contract is one this client speaks)."""
        return entry.get("contract") in self.contracts

    def verdict(self, entry: Entry) -> Verdict | None:
        """What the client's user concludes from the entry's stream (see the module), ``None`` if the
        client does not speak its contract."""
        if not self.speaks(entry):
            return None
        parts: list[str] = []
        try:
            given = self.read(entry, parts, read_timeout(entry))
        except Exception as exc:
            outcome = outcome_of(exc)
            if outcome is None:
                raise
            return Verdict(outcome, "".join(parts), type(exc).__name__)
        return given if given is not None else Verdict("completed", "".join(parts))

    def __call__(self, entry: Entry) -> dict[str, str] | None:
        found = self.verdict(entry)
        return None if found is None else found.as_dict()


# -- openai ------------------------------------------------------------------------------------------------


def _chat_text(chunk: Any) -> str:
    return "".join(choice.delta.content or "" for choice in chunk.choices)


def _responses_text(event: Any) -> str:
    return str(event.delta) if event.type == "response.output_text.delta" else ""


@dataclass(frozen=True)
class _OpenAIRoute:
    suffix: str
    create: Callable[[Any], Any]
    text: Callable[[Any], str]


_OPENAI: dict[str, _OpenAIRoute] = {
    "openai-chat": _OpenAIRoute(
        "/chat/completions",
        lambda sdk: sdk.chat.completions.create(model=MODEL, messages=MESSAGES, stream=True),
        _chat_text,
    ),
    "openai-responses": _OpenAIRoute(
        "/responses",
        lambda sdk: sdk.responses.create(model=MODEL, input=PROMPT, stream=True),
        _responses_text,
    ),
}


def _openai_options(
    entry: Entry, idle: float, route: _OpenAIRoute, http_client: Any = None
) -> dict[str, Any]:
    import httpx2

    options: dict[str, Any] = {
        "api_key": "fault-server",
        "base_url": _sdk_base(entry, route.suffix),
        "max_retries": 0,
        "timeout": _timeout(httpx2, idle),
    }
    if http_client is not None:
        options["http_client"] = http_client
    return options


def _read_openai(entry: Entry, parts: list[str], idle: float, http_client: Any = None) -> None:
    import openai

    route = _OPENAI[entry["contract"]]
    options = _openai_options(entry, idle, route, http_client)
    with openai.OpenAI(**options) as sdk, route.create(sdk) as stream:
        for item in stream:
            parts.append(route.text(item))


def read_openai(entry: Entry, parts: list[str], idle: float, http_client: Any = None) -> None:
    """The ``openai`` adapter's own reading of ``entry`` (``idle`` seconds per read), through a caller's
    ``http_client`` (an ``httpx2.Client``: lesson_lib's guard, or one with its own transport) if given:
    each streamed item's text is appended to ``parts`` as it comes; the SDK's exceptions propagate."""
    _read_openai(entry, parts, idle, http_client)


def _read_openai_async(entry: Entry, parts: list[str], idle: float) -> None:
    import openai

    route = _OPENAI[entry["contract"]]

    async def read() -> None:
        async with openai.AsyncOpenAI(**_openai_options(entry, idle, route)) as sdk:
            stream = await route.create(sdk)
            async with stream:
                async for item in stream:
                    parts.append(route.text(item))

    asyncio.run(read())


def _read_guarded_openai(entry: Entry, parts: list[str], idle: float) -> None:
    import httpx2

    from ..guard import Client

    with Client(timeout=_timeout(httpx2, idle)) as guard:
        _read_openai(entry, parts, idle, guard)


# -- anthropic ---------------------------------------------------------------------------------------------

_ANTHROPIC_PATH = "/v1/messages"


def _anthropic_options(entry: Entry, idle: float, http_client: Any = None) -> dict[str, Any]:
    import httpx2

    options: dict[str, Any] = {
        "api_key": "fault-server",
        "base_url": _sdk_base(entry, _ANTHROPIC_PATH),
        "max_retries": 0,
        "timeout": _timeout(httpx2, idle),
    }
    if http_client is not None:
        options["http_client"] = http_client
    return options


def _read_anthropic(entry: Entry, parts: list[str], idle: float, http_client: Any = None) -> None:
    import anthropic

    with (
        anthropic.Anthropic(**_anthropic_options(entry, idle, http_client)) as sdk,
        sdk.messages.stream(model=MODEL, max_tokens=1024, messages=MESSAGES) as stream,
    ):
        for text in stream.text_stream:
            parts.append(text)


def _read_anthropic_async(entry: Entry, parts: list[str], idle: float) -> None:
    import anthropic

    async def read() -> None:
        async with (
            anthropic.AsyncAnthropic(**_anthropic_options(entry, idle)) as sdk,
            sdk.messages.stream(model=MODEL, max_tokens=1024, messages=MESSAGES) as stream,
        ):
            async for text in stream.text_stream:
                parts.append(text)

    asyncio.run(read())


def _read_guarded_anthropic(entry: Entry, parts: list[str], idle: float) -> None:
    import httpx2

    from ..guard import Client

    with Client(timeout=_timeout(httpx2, idle)) as guard:
        _read_anthropic(entry, parts, idle, guard)


# -- hand-written clients: what their users write ----------------------------------------------------------


def _get(value: Any, *keys: str | int) -> Any:
    """``value[k1][k2]...`` where each step exists and has the right type, else ``None`` (a careful user)."""
    for key in keys:
        if isinstance(key, int):
            value = value[key] if isinstance(value, list) and -len(value) <= key < len(value) else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def _careful_chat(chunk: Any) -> str:
    choices = _get(chunk, "choices")
    return "".join(
        text for choice in choices if isinstance(text := _get(choice, "delta", "content"), str)
    ) if isinstance(choices, list) else ""


def _careful_typed(kind: str, *keys: str) -> Callable[[Any], str]:
    def text(event: Any) -> str:
        found = _get(event, *keys)
        return found if _get(event, "type") == kind and isinstance(found, str) else ""

    return text


def _careful_anthropic(event: Any) -> str:
    if _get(event, "type") != "content_block_delta" or _get(event, "delta", "type") != "text_delta":
        return ""
    found = _get(event, "delta", "text")
    return found if isinstance(found, str) else ""


def _careful_gemini(chunk: Any) -> str:
    parts = _get(chunk, "candidates", 0, "content", "parts")
    if not isinstance(parts, list):
        return ""
    return "".join(
        text for part in parts if not _get(part, "thought") and isinstance(text := _get(part, "text"), str)
    )


@dataclass(frozen=True)
class _SSEUser:
    """How a hand-written SSE client's user reads one contract: the ``data`` that ends the stream (None:
    read to the end) and the text of one parsed event, carefully (httpx-sse) and naively (requests)."""

    sentinel: str | None
    careful: Callable[[Any], str]
    naive: Callable[[Any], str]


_SSE_USERS: dict[str, _SSEUser] = {
    "openai-chat": _SSEUser(
        "[DONE]", _careful_chat, lambda chunk: chunk["choices"][0]["delta"].get("content") or ""
    ),
    "openai-responses": _SSEUser(
        None,
        _careful_typed("response.output_text.delta", "delta"),
        lambda event: event["delta"] if event["type"] == "response.output_text.delta" else "",
    ),
    "anthropic-messages": _SSEUser(
        None,
        _careful_anthropic,
        lambda event: event["delta"].get("text", "") if event["type"] == "content_block_delta" else "",
    ),
    "gemini": _SSEUser(
        None, _careful_gemini, lambda chunk: chunk["candidates"][0]["content"]["parts"][0].get("text", "")
    ),
}


def _read_httpx_sse(entry: Entry, parts: list[str], idle: float) -> None:
    import httpx
    from httpx_sse import connect_sse

    user = _SSE_USERS[entry["contract"]]
    body = request_json(entry["contract"])
    with (
        httpx.Client(timeout=_timeout(httpx, idle), trust_env=False) as client,
        connect_sse(client, "POST", stream_url(entry), json=body) as source,
    ):
        source.response.raise_for_status()  # the README's own check
        for sse in source.iter_sse():
            if user.sentinel is not None and sse.data == user.sentinel:
                break
            parts.append(user.careful(sse.json()))


def _read_requests(entry: Entry, parts: list[str], idle: float) -> None:
    import requests

    contract = entry["contract"]
    body = request_json(contract)
    with requests.post(
        stream_url(entry), json=body, stream=True, timeout=(CONNECT_SECONDS, idle)
    ) as response:
        response.raise_for_status()
        if contract in _SSE_USERS:
            user = _SSE_USERS[contract]
            for line in response.iter_lines():
                if not line:
                    continue
                decoded = line.decode("utf-8")
                if not decoded.startswith("data: "):
                    continue
                data = decoded[6:]
                if user.sentinel is not None and data == user.sentinel:
                    break
                parts.append(user.naive(json.loads(data)))
            return
        for line in response.iter_lines():  # NDJSON (Ollama): one object per line, until "done"
            if not line:
                continue
            message = json.loads(line.decode("utf-8"))
            parts.append(message["message"]["content"])
            if message.get("done"):
                break


# -- lesson_lib's own client -------------------------------------------------------------------------------


def _lesson_lib_arguments(entry: Entry, idle: float) -> tuple[str, dict[str, Any]]:
    contract = str(entry["contract"])
    options: dict[str, Any] = {
        "json": request_json(contract),
        "headers": request_headers(contract),
        "timeout": 10.0,  # httpx's, for connecting and the headers; the body's reads are bounded below
        "idle_timeout": idle,
    }
    if contract in NEEDS_REQUEST_ID:
        options["request_id"] = MCP_REQUEST_ID
    return contract, options


def _read_lesson_lib(entry: Entry, parts: list[str], idle: float) -> Verdict:
    from ..net import stream_http

    contract, options = _lesson_lib_arguments(entry, idle)
    result = stream_http(stream_url(entry), contract, **options)
    return Verdict(str(result.outcome), result.text)


def _read_lesson_lib_async(entry: Entry, parts: list[str], idle: float) -> Verdict:
    from ..net import astream_http

    contract, options = _lesson_lib_arguments(entry, idle)
    result = asyncio.run(astream_http(stream_url(entry), contract, **options))
    return Verdict(str(result.outcome), result.text)


_SDK_OPENAI = frozenset(_OPENAI)
_SDK_ANTHROPIC = frozenset({"anthropic-messages"})

openai_sync = Adapter("openai", _SDK_OPENAI, _read_openai)
openai_async = Adapter("openai-async", _SDK_OPENAI, _read_openai_async)
anthropic_sync = Adapter("anthropic", _SDK_ANTHROPIC, _read_anthropic)
anthropic_async = Adapter("anthropic-async", _SDK_ANTHROPIC, _read_anthropic_async)
httpx_sse_client = Adapter("httpx-sse", frozenset(_SSE_USERS), _read_httpx_sse)
requests_client = Adapter("requests", frozenset({*_SSE_USERS, "ollama"}), _read_requests)
lesson_lib_sync = Adapter("lesson_lib", frozenset(_BODIES), _read_lesson_lib)
lesson_lib_async = Adapter("lesson_lib-async", frozenset(_BODIES), _read_lesson_lib_async)
guarded_openai = Adapter("guard+openai", _SDK_OPENAI, _read_guarded_openai)
guarded_anthropic = Adapter("guard+anthropic", _SDK_ANTHROPIC, _read_guarded_anthropic)

#: Every client, in the table's column order.
CLIENTS: tuple[Adapter, ...] = (
    openai_sync,
    openai_async,
    anthropic_sync,
    anthropic_async,
    httpx_sse_client,
    requests_client,
    lesson_lib_sync,
    lesson_lib_async,
    guarded_openai,
    guarded_anthropic,
)


def client_named(name: str) -> Adapter:
    """The adapter of :data:`CLIENTS` called ``name``; ``KeyError`` naming the known ones otherwise."""
    for adapter in CLIENTS:
        if adapter.name == name:
            return adapter
    raise KeyError(f"no client {name!r}; known: {', '.join(a.name for a in CLIENTS)}")
