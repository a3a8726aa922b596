"""The official SDKs on every cut the course shows, alone and through lesson_lib.guard, sync and async.

Alone, each SDK does what lessons 06 and 08 measured (asserted here, so an upgrade that changes it says so):
on a body cut at an event boundary, after the finish before ``[DONE]``, or at a cut reason, it ends
silently with a short answer; inside a character it raises a bare ``UnicodeDecodeError``; an in-band error
is the SDK's own exception (or, for a flat Responses ``error`` event, just an event). Guarded, the code
iterating the same SDK stream gets ``UnprovenStreamError`` exactly when ``consume()`` on the same bytes is
not ``is_final``, with consume's outcome and unit, and never for a whole answer, in every chunking; the
server sees every connection closed afterwards.
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib import consume
from lesson_lib.captures import load, names
from lesson_lib.guard import AsyncClient, Client, UnprovenStreamError
from lesson_lib.net.replay import ReplayServer

from .sdks import CONTRACTS, aread, read

NAMES = [name for contract in CONTRACTS for name in names(contract)]
#: The cuts lessons 06 and 08 show, and a whole answer, for each SDK.
COURSE = [
    f"{contract}/{cut}"
    for contract in CONTRACTS
    for cut in ("completed", "truncated_mid_character", "truncated_clean_boundary", "service_error")
] + ["openai-chat/truncated_before_done", "anthropic-messages/tools_truncated_before_message_stop"]
SIZES = [1, 7, 64, None]  # None: the whole body in one piece


def alone_raises(name: str) -> str | None:
    """What the SDK alone raised on this capture (observed; the same sync and async)."""
    if name.endswith("truncated_mid_character"):
        return "UnicodeDecodeError"
    return {
        "openai-chat/service_error": "APIError",
        "openai-responses/service_error_nested": "APIError",
        "anthropic-messages/service_error": "APIStatusError",
    }.get(name)


def cuts(body: bytes, size: int | None) -> range | tuple[()]:
    return () if size is None else range(size, len(body), size)


def check_guarded(name: str, text: str, raised: BaseException | None) -> None:
    capture = load(name)
    verdict = consume([capture.body], capture.contract)
    if verdict.is_final:
        assert raised is None, f"{name}: a whole answer raised {raised!r}"
        assert text == capture.text
        return
    assert isinstance(raised, UnprovenStreamError), f"{name}: {raised!r}"
    assert (raised.outcome, raised.truncated_at) == (verdict.outcome, verdict.truncated_at)
    assert raised.contract == capture.contract
    assert verdict.text.startswith(text)  # what the SDK got before the exception: the complete events
    if raised.truncated_at is not None:  # the body ended there: every byte was seen
        assert raised.offset == len(capture.body) and raised.event_index == verdict.stats.events
    assert raised.report.raised and not raised.report.is_final


def check_alone(name: str, text: str, raised: BaseException | None) -> None:
    capture = load(name)
    expected = alone_raises(name)
    assert (None if raised is None else type(raised).__name__) == expected, f"{name}: {raised!r}"
    if expected is None:  # it ended quietly, with the complete events' text, whatever it proves
        assert text == consume([capture.body], capture.contract).text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", COURSE)
def test_the_course_cuts_alone_and_guarded(name, size):
    capture = load(name)
    with ReplayServer(capture.body, cuts(capture.body, size), max_requests=4) as server:
        check_alone(name, *read(capture.contract, server.url))
        check_guarded(name, *read(capture.contract, server.url, Client()))
        assert server.wait_idle(3.0), "a connection was left open"


@pytest.mark.parametrize("size", [7, None])
@pytest.mark.parametrize("name", [n for n in NAMES if n not in COURSE])
def test_every_other_capture_guarded(name, size):
    capture = load(name)
    with ReplayServer(capture.body, cuts(capture.body, size), max_requests=4) as server:
        check_alone(name, *read(capture.contract, server.url))
        check_guarded(name, *read(capture.contract, server.url, Client()))
        assert server.wait_idle(3.0)


@pytest.mark.parametrize("size", [1, 64, None])
@pytest.mark.parametrize("name", COURSE)
def test_the_course_cuts_alone_and_guarded_async(name, size):
    capture = load(name)
    with ReplayServer(capture.body, cuts(capture.body, size), max_requests=4) as server:
        check_alone(name, *asyncio.run(aread(capture.contract, server.url)))
        check_guarded(name, *asyncio.run(aread(capture.contract, server.url, AsyncClient())))
        assert server.wait_idle(3.0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from([*COURSE, "openai-chat/incomplete", "openai-responses/failed"]))
def test_any_cuts_guarded(data, name):
    capture = load(name)
    chosen = data.draw(st.lists(st.integers(1, len(capture.body) - 1), max_size=30))
    asynchronous = data.draw(st.booleans())
    with ReplayServer(capture.body, chosen, max_requests=2) as server:
        if asynchronous:
            outcome = asyncio.run(aread(capture.contract, server.url, AsyncClient()))
        else:
            outcome = read(capture.contract, server.url, Client())
        check_guarded(name, *outcome)
        assert server.wait_idle(3.0)
