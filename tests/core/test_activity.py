"""Three clocks and layered idle limits, driven by a fake clock: exact, and no sleeping."""

from __future__ import annotations

import pytest

from lesson_lib.core.activity import ActivityClocks, IdleVerdict, Liveness, Watchdog


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_each_report_moves_only_its_own_clock():
    clock = FakeClock()
    clocks = ActivityClocks(clock)
    clock.advance(2)
    clocks.on_bytes(10)
    assert clocks.idle() == {"byte": 0, "event": 2, "progress": 2}
    clock.advance(3)
    clocks.on_event()
    assert clocks.idle() == {"byte": 3, "event": 0, "progress": 5}
    clock.advance(4)
    clocks.on_progress()
    assert clocks.idle() == {"byte": 7, "event": 4, "progress": 0}
    assert (clocks.bytes, clocks.events, clocks.progress) == (10, 1, 1)


def test_empty_read_moves_no_clock():
    clock = FakeClock()
    clocks = ActivityClocks(clock)
    clock.advance(5)
    clocks.on_bytes(0)
    assert clocks.idle()["byte"] == 5 and clocks.bytes == 0


def test_heartbeat_moves_bytes_and_events_never_progress():
    clock = FakeClock()
    clocks = ActivityClocks(clock)
    clock.advance(9)
    clocks.on_heartbeat(7)
    assert clocks.idle() == {"byte": 0, "event": 0, "progress": 9}
    assert clocks.progress == 0


def test_fresh_watchdog_is_fine_until_a_limit_is_reached():
    clock = FakeClock()
    dog = Watchdog(byte_idle=5, event_idle=10, progress_idle=20, clock=clock)
    assert dog.check() is None
    assert dog.state() is Liveness.WAITING  # nothing has arrived: not "progressing"
    clock.advance(4.5)
    assert dog.check() is None
    clock.advance(0.5)  # exactly the limit: tripped
    assert dog.check() == IdleVerdict("byte_idle", 5, 5)
    assert dog.state() is Liveness.STALLED


def test_silence_reports_the_lowest_layer_first():
    clock = FakeClock()
    dog = Watchdog(byte_idle=5, event_idle=10, progress_idle=20, clock=clock)
    clock.advance(60)  # every limit is past: the byte layer explains the others
    verdict = dog.check()
    assert verdict is not None and verdict.limit == "byte_idle" and verdict.idle_for == 60
    assert "byte_idle" in str(verdict)


def test_trickling_bytes_without_complete_events_trips_the_event_limit():
    clock = FakeClock()
    dog = Watchdog(byte_idle=5, event_idle=10, progress_idle=20, clock=clock)
    for _ in range(11):  # half a line, one byte a second: the socket looks busy
        clock.advance(1)
        dog.on_bytes(1)
    assert dog.check() == IdleVerdict("event_idle", 11, 10)
    assert dog.state() is Liveness.STALLED


def test_pings_only_is_alive_but_not_progressing():
    clock = FakeClock()
    dog = Watchdog(byte_idle=5, event_idle=10, progress_idle=20, clock=clock)
    dog.on_bytes(40)
    dog.on_event()
    dog.on_progress()  # some text arrived at the start
    for _ in range(25):  # then only a ping every second
        clock.advance(1)
        dog.on_heartbeat(len(b"event: ping\ndata: {}\n\n"))
    assert dog.check() == IdleVerdict("progress_idle", 25, 20)
    assert dog.state() is Liveness.ALIVE
    clock.advance(1)
    dog.on_bytes(12)
    dog.on_event()
    dog.on_progress()
    assert dog.check() is None and dog.state() is Liveness.PROGRESSING


def test_disabled_limits_never_trip():
    clock = FakeClock()
    dog = Watchdog(byte_idle=None, event_idle=None, progress_idle=None, clock=clock)
    clock.advance(10_000)
    assert dog.check() is None
    assert dog.state() is Liveness.WAITING  # nothing ever progressed, and no limit to judge by
    dog.on_event()
    dog.on_progress()
    assert dog.state() is Liveness.PROGRESSING
    dog.on_heartbeat(8)
    clock.advance(10_000)
    assert dog.state() is Liveness.WAITING  # without a progress limit, never "alive, not progressing"


def test_the_state_says_waiting_from_the_first_heartbeat_after_progress_until_the_limit():
    clock = FakeClock()
    dog = Watchdog(byte_idle=30, event_idle=60, progress_idle=120, clock=clock)
    assert dog.state() is Liveness.WAITING  # the request was sent, nothing came yet
    clock.advance(1)
    dog.on_bytes(80)
    dog.on_event()
    dog.on_progress()
    assert dog.state() is Liveness.PROGRESSING
    clock.advance(5)
    assert dog.state() is Liveness.PROGRESSING  # nothing came after the text: still the latest news
    states = []
    for _ in range(7):  # a ping every 20 s: never progress again
        clock.advance(20)
        dog.on_heartbeat(16)
        states.append((round(dog.idle()["progress"]), dog.state()))
    assert states == [(25, "waiting"), (45, "waiting"), (65, "waiting"), (85, "waiting"), (105, "waiting"),
                      (125, "alive"), (145, "alive")]
    assert dog.check() == IdleVerdict("progress_idle", 145, 120)


def test_limits_must_be_positive():
    with pytest.raises(ValueError, match="event_idle"):
        Watchdog(event_idle=0)


def test_default_clock_is_real_and_monotonic():
    dog = Watchdog()
    assert dog.check() is None
    assert all(v >= 0 for v in dog.idle().values())


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), True, "30", 1e10])
def test_idle_limits_are_finite_positive_numbers(bad):
    with pytest.raises(ValueError, match=r"^byte_idle must be a number > 0 and <= 604800 seconds, or None"):
        Watchdog(byte_idle=bad)
