"""StreamJudge, the push-style driver: for every capture and every chunking, feeding every read then
close() gives the result consume() gives; fail() and cancel() give what consume gives for a source that
raises or a cancel; once decided, further reads change nothing."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, StreamJudge, StreamResult, TextDelta, consume, stream_updates
from lesson_lib.captures import load, names
from lesson_lib.core.chunking import fixed_size_chunks
from lesson_lib.core.options import OptionError
from tests.strategies import partitions

NAMES = names()


def judged(reads: list[bytes], contract: str, **options) -> tuple[list, StreamResult]:
    judge = StreamJudge(contract, **options)
    signals = [signal for read in reads for signal in judge.feed(read)]
    result = judge.close()
    signals += judge.end_signals
    assert judge.done and judge.result is result
    return signals, result


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [1, 7, 64, None])
def test_feeding_every_read_then_close_is_consume(name, size):
    capture = load(name)
    reads = [capture.body] if size is None else list(fixed_size_chunks(capture.body, size))
    signals, result = judged(reads, capture.contract)
    updates = list(stream_updates(list(reads), capture.contract))
    assert result == consume(list(reads), capture.contract) == updates[-1]
    assert signals == updates[:-1]  # the same live signals, in the same order


@settings(max_examples=150, deadline=None)
@given(data=st.data(), name=st.sampled_from(NAMES))
def test_for_any_chunking_the_judge_agrees_with_consume(data, name):
    capture = load(name)
    reads = data.draw(partitions(capture.body))
    assert judged(reads, capture.contract)[1] == consume(list(reads), capture.contract)


class Failing:
    """Yields the reads, then raises instead of the next one."""

    def __init__(self, reads: list[bytes]) -> None:
        self.reads = reads

    def __iter__(self):
        yield from self.reads
        raise ConnectionResetError("peer reset")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), name=st.sampled_from(NAMES))
def test_fail_is_consume_over_a_source_that_raises(data, name):
    capture = load(name)
    reads = data.draw(partitions(capture.body))
    keep = data.draw(st.integers(0, len(reads)))
    judge = StreamJudge(capture.contract)
    for read in reads[:keep]:
        judge.feed(read)
    result = judge.fail(ConnectionResetError("peer reset"))
    assert result == consume(Failing(reads[:keep]), capture.contract)


def test_cancel_is_consume_with_cancel_set():
    capture = load("openai-chat/completed")
    reads = list(fixed_size_chunks(capture.body, 100))
    judge = StreamJudge(capture.contract)
    for read in reads[:5]:
        judge.feed(read)
    flag = threading.Event()

    def source():
        for index, read in enumerate(reads):
            if index == 4:  # set as the 5th read is handed over: consume sees it before the 6th
                flag.set()
            yield read

    assert judge.cancel() == consume(source(), capture.contract, cancel=flag)
    assert judge.result.outcome is Outcome.CANCELLED


def test_once_decided_reads_are_ignored_and_the_verdict_stays():
    capture = load("openai-chat/service_error")
    judge = StreamJudge(capture.contract)
    assert judge.feed(capture.body) and judge.done
    decided = judge.result
    assert judge.feed(b"data: more\n\n") == []
    assert judge.close() is decided and judge.fail(OSError()) is decided and judge.cancel() is decided
    assert decided.outcome is Outcome.SERVICE_ERROR


def test_counts_so_far_and_no_result_before_the_end():
    capture = load("anthropic-messages/completed")
    judge = StreamJudge(capture.contract)
    signals = judge.feed(capture.body[:700])
    assert not judge.done and judge.result is None
    assert judge.bytes_in == 700 and judge.events >= 1
    assert any(isinstance(s, TextDelta) for s in signals) or judge.events < 4


def test_bad_arguments_fail_at_construction_naming_them():
    with pytest.raises(ValueError, match="nope"):
        StreamJudge("nope")
    with pytest.raises(OptionError, match="max_events"):
        StreamJudge("openai-chat", max_events=0)
    with pytest.raises(TypeError, match="chunk must be bytes"):
        StreamJudge("openai-chat").feed("text")  # type: ignore[arg-type]
