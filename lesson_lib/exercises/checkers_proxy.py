"""Lesson 10's exercise: given a proxy's configuration and a capture of what arrived, name what broke it.

The learner writes ``which_setting(config, capture) -> str``: ``config`` is the text of one of the course's
proxy configurations (``lesson_lib/net/proxy_configs/``), with its comments or without them; ``capture`` is a
dict of what the upstream did and what a client saw through that real proxy (see
:mod:`.proxy_cases`); the answer is one of :data:`~.proxy_cases.CULPRITS`. :func:`check_which_setting`
runs it on every case, in a fixed order, and reports the first wrong one: the case (proxy, setting, upstream
plan, header, never its answer), what the function said, and a hint chosen by the kind of mistake (blaming
``proxy_buffering``, seeing ``gzip on`` but not which types it compresses, missing the hop that drops the
header, reading a proxy's timeout cut as an upstream drop or the reverse, trusting a clean end of the
transport, reading a comment as a directive). No hint names the case's answer:
``tests/exercises/test_proxy_exercise.py`` checks each hint against every answer it could give away.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from ..i18n import text
from . import Result
from .checkers_core import NotAttempted, Observed, describe_error, not_attempted, observe, short
from .proxy_cases import CULPRITS, ProxyCase, exercise_cases

__all__ = ["KEY", "check_which_setting", "hint_name"]

#: The key the exercise's reports carry.
KEY = "10.which_setting"


def _compresses_event_streams(config: str) -> bool:
    """Whether some directive (not a comment) of ``config`` names text/event-stream in gzip_types."""
    directives = "\n".join(line.split("#", 1)[0] for line in config.splitlines())
    return re.search(r"gzip_types[^;]*text/event-stream", directives) is not None


def hint_name(case: ProxyCase, given: str, twin_right: bool) -> str:
    """The name of the hint (``checkers.proxy.hint.<name>``) for answering ``given`` on ``case``, whose right
    answer is ``case.culprit``; ``twin_right`` says the same case without comments was answered right."""
    truth = case.culprit
    if case.commented and twin_right:
        return "comment"
    if given == "proxy_buffering":
        return "buffering"
    if truth == "none" and given == "gzip_types":
        return "gzip_streamed" if _compresses_event_streams(case.config) else "gzip_types_ignored"
    if truth == "header_lost":
        return "header_lost"
    if truth == "gzip_types":
        return "gzip_missed"
    if truth == "proxy_read_timeout":
        return "timeout_as_drop" if given == "upstream_drop" else "timeout_missed"
    if truth == "upstream_drop" and given == "proxy_read_timeout":
        return "drop_as_timeout"
    if truth == "none" and given == "proxy_read_timeout":
        return "timeout_default"
    if truth == "upstream_drop" and case.capture["transport"] == "clean end":
        return "clean_end"
    if truth == "stream_large_bodies":
        return "mitmproxy"
    return "default"


def _describe(case: ProxyCase) -> str:
    return text(
        "checkers.proxy.case",
        kind=case.kind,
        setting=case.setting,
        comments=text(f"checkers.proxy.comments.{'kept' if case.commented else 'removed'}"),
        plan=text(f"checkers.proxy.plan.{case.plan}"),
        header=text(f"checkers.proxy.header.{'no' if case.header else 'absent'}"),
    )


def _answer(function: Callable[..., Any], case: ProxyCase) -> Observed:
    return observe(lambda: function(case.config, copy.deepcopy(case.capture)))


def check_which_setting(function: Any) -> Result:
    """Grade ``function(config, capture)`` over every case; right only if it names every case's culprit.

    Deterministic: the cases and their order are fixed. A function that still raises
    ``NotImplementedError`` (or ``...`` in its place) is reported as not attempted.
    """
    if function is Ellipsis:
        return not_attempted(KEY, "which_setting")
    if not callable(function):
        return Result(KEY, False, text("checkers.proxy.not_callable", got=short(function)))
    every = exercise_cases()
    try:
        answers = [_answer(function, case) for case in every]
    except NotAttempted:
        return not_attempted(KEY, "which_setting")
    right = {
        (case.kind, case.setting, case.plan, case.header, case.commented): not seen.raised
        and seen.value == case.culprit
        for case, seen in zip(every, answers, strict=True)
    }
    wrong = sum(not ok for ok in right.values())
    for number, (case, seen) in enumerate(zip(every, answers, strict=True), 1):
        where = text("checkers.proxy.where", number=number, total=len(every), case=_describe(case))
        if seen.raised:
            assert seen.error is not None
            message = text("checkers.proxy.raised", where=where, error=describe_error(seen.error))
            return Result(KEY, False, message)
        if not isinstance(seen.value, str) or seen.value not in CULPRITS:
            message = text(
                "checkers.proxy.not_a_culprit", where=where, got=short(seen.value), names=", ".join(CULPRITS)
            )
            return Result(KEY, False, message)
        if seen.value != case.culprit:
            twin = right.get((case.kind, case.setting, case.plan, case.header, False), False)
            hint = text(f"checkers.proxy.hint.{hint_name(case, seen.value, twin)}")
            message = text(
                "checkers.proxy.wrong", where=where, got=seen.value, wrong=wrong, total=len(every), hint=hint
            )
            return Result(KEY, False, message)
    return Result(KEY, True, text("checkers.proxy.passed", total=len(every)))
