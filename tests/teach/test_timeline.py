"""The clock timeline picture and the activity log it is drawn from."""

from __future__ import annotations

from lesson_lib import consume
from lesson_lib.core.activity import ActivityLog
from lesson_lib.teach.viz import draw_clock_timeline, figure_png
from lesson_lib.teach.viz.timeline import FIRED_COLOUR, expiry
from tests.net.test_timeouts import PING, START, FakeClock, TimedSource

LIMITS = {"idle_timeout": 0.5, "progress_timeout": 0.35, "deadline": None}


def hung_behind_pings() -> tuple[ActivityLog, str]:
    clock = FakeClock()
    log = ActivityLog(clock)
    source = TimedSource(clock, [(0.1, piece) for piece in START] + [(0.1, PING)] * 10)
    result = consume(source, "anthropic-messages", activity=log, clock=clock, **LIMITS)
    return log, result.error.kind


def test_the_log_records_times_and_clock_names_only():
    log, fired = hung_behind_pings()
    assert fired == "progress_timeout"
    assert {name for _, name in log.marks} == {"byte", "event", "progress"}
    assert all(isinstance(t, float) and isinstance(name, str) for t, name in log.marks)
    progress = [round(t, 6) for t, name in log.marks if name == "progress"]
    assert progress == [0.1, 0.2, 0.3]  # message_start, content_block_start, the delta; never a ping


def test_expiry_runs_from_the_clocks_last_move():
    log, _ = hung_behind_pings()
    since, until = expiry(log.marks, "progress_timeout", 0.35)
    assert round(since, 6) == 0.3 and round(until, 6) == 0.65
    assert expiry(log.marks, "deadline", 2.0) == (0.0, 2.0)


def test_the_picture_marks_the_clock_that_fired_and_is_the_same_every_time():
    log, fired = hung_behind_pings()
    fig = draw_clock_timeline(log.marks, LIMITS, fired, title="hangs behind pings")
    ax = fig.axes[0]
    red = [line for line in ax.get_lines() if line.get_color() == FIRED_COLOUR]
    assert len(red) == 1 and round(red[0].get_xdata()[0], 6) == 0.65
    assert any(f"{fired}=0.35 s ran out" in text.get_text() for text in ax.texts)
    again = draw_clock_timeline(log.marks, LIMITS, fired, title="hangs behind pings")
    assert figure_png(fig) == figure_png(again)
    quiet = draw_clock_timeline(log.marks, LIMITS, None)
    assert not [line for line in quiet.axes[0].get_lines() if line.get_color() == FIRED_COLOUR]
