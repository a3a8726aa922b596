"""Lesson 10's exercise: given a proxy's configuration and a capture of what arrived, name what broke it.

The learner writes ``which_setting(config, capture) -> str``: ``config`` is the text of one of the course's
proxy configurations (``lesson_lib/net/proxy_configs/``), with its comments or without them; ``capture`` is a
dict of what the upstream did and what a client saw through that real proxy (see :mod:`.proxy_cases`); the
answer is one of :data:`~.proxy_cases.CULPRITS`. :func:`check_which_setting` runs it on every case, in a fixed
order, and reports the first wrong one: the case by its number (with the proxy, comments kept or removed,
upstream plan and header; never its answer, nor its setting's name, which would narrow the answer), what the
function said, and a hint chosen from the learner's answer and what in the case it missed (reading a comment
as a directive, or only the comments, giving the same answer to two cases whose captures are equal and whose
configurations differ, blaming buffering, compression, a header's path, a timeout, the upstream or mitmproxy's
option, naming something of nginx's on a Caddy or mitmproxy case, or trusting what arrived). A hint is chosen
without looking at the case's answer: ``tests/exercises/test_proxy_exercise.py`` checks that each (answer
given, hint) pair is shown on cases with different right answers, so a table from hints to answers does not
pass, and that no hint names the answer of a case it is shown on.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from ..i18n import text
from . import Result
from .checkers_core import NotAttempted, Observed, describe_error, observe, short
from .proxy_cases import CULPRITS, ProxyCase, exercise_cases, seal

__all__ = ["KEY", "check_which_setting", "hint_name", "wanted"]

#: The key the exercise's reports carry.
KEY = "10.which_setting"

#: The hint for a wrong answer, by the answer given (the mistake it makes), when no sharper one applies.
_BY_ANSWER = {
    "proxy_buffering": "buffering",
    "header_lost": "header_path",
    "proxy_ignore_headers": "header_path",
    "proxy_read_timeout": "timeout_check",
    "upstream_drop": "drop_check",
    "none": "none_wrong",
    "stream_large_bodies": "mitmproxy_check",
}

#: The answers that name something of nginx's (a directive, or what its hops do with X-Accel-Buffering):
#: given on a case of another proxy, the hint names that proxy (``checkers.proxy.hint.not_nginx_<kind>``).
_NGINX_ONLY = frozenset(
    {"proxy_buffering", "gzip_types", "header_lost", "proxy_ignore_headers", "proxy_read_timeout"}
)


def wanted(case: ProxyCase) -> str:
    """The answer the checker wants for ``case`` (the first of its accepted answers), unsealed."""
    return next(name for name in CULPRITS if seal(case.key, name) == case.sealed[0])


def hint_name(case: ProxyCase, given: str, twin_right: bool, config_unread: bool = False) -> str:
    """The name of the hint (``checkers.proxy.hint.<name>``) for the wrong answer ``given`` on ``case``.

    ``twin_right``: the same case with its comments the other way (removed if ``case`` has them, kept if
    not) was answered right, so a comment decided the answer; ``config_unread``: the function gave
    ``given`` also to a case with the same capture and another configuration, whose answer differs. The
    choice reads the answer given and the capture, never the case's answer."""
    if twin_right:
        return "comment" if case.commented else "comments_only"
    if given in _NGINX_ONLY and case.kind != "nginx":
        return f"not_nginx_{case.kind}"
    if config_unread:
        return "config_unread"
    if given == "gzip_types":
        return "gzip_compressed" if case.capture["content_encoding"] == "gzip" else "gzip_types_ignored"
    return _BY_ANSWER[given]


def _describe(case: ProxyCase) -> str:
    return text(
        "checkers.proxy.case",
        kind=case.kind,
        comments=text(f"checkers.proxy.comments.{'kept' if case.commented else 'removed'}"),
        plan=text(f"checkers.proxy.plan.{case.plan}"),
        header=text(f"checkers.proxy.header.{'no' if case.header else 'absent'}"),
    )


def _answer(function: Callable[..., Any], case: ProxyCase) -> Observed:
    return observe(lambda: function(case.config, copy.deepcopy(case.capture)))


def _same_capture_other_answer(every: list[ProxyCase], answers: list[Observed], index: int) -> bool:
    """Whether the function's (wrong) answer here is the right answer of a case with an equal capture and
    another configuration: the function answered the capture, not the configuration."""
    case, seen = every[index], answers[index]
    capture = json.dumps(case.capture, sort_keys=True)
    for other, said in zip(every, answers, strict=True):
        if other.setting == case.setting or json.dumps(other.capture, sort_keys=True) != capture:
            continue
        if said.value == seen.value and other.accepts(said.value):
            return True
    return False


def _not_attempted() -> Result:
    # The verdict already says "not yet": the message says what to do, without a second "not attempted".
    return Result(KEY, False, text("checkers.proxy.not_attempted", what="which_setting"))


def check_which_setting(function: Any) -> Result:
    """Grade ``function(config, capture)`` over every case; right only if each case's answer is accepted.

    Deterministic: the cases and their order are fixed. A function that still raises
    ``NotImplementedError`` (or ``...`` in its place) is reported as not attempted.
    """
    if function is Ellipsis:
        return _not_attempted()
    if not callable(function):
        return Result(KEY, False, text("checkers.proxy.not_callable", got=short(function)))
    every = exercise_cases()
    try:
        answers = [_answer(function, case) for case in every]
    except NotAttempted:
        return _not_attempted()
    right = {
        (*case.key, case.commented): not seen.raised and case.accepts(seen.value)
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
        if not case.accepts(seen.value):
            twin = right.get((*case.key, not case.commented), False)
            unread = _same_capture_other_answer(every, answers, number - 1)
            hint = text(f"checkers.proxy.hint.{hint_name(case, seen.value, twin, unread)}")
            message = text(
                "checkers.proxy.wrong", where=where, got=seen.value, wrong=wrong, total=len(every), hint=hint
            )
            return Result(KEY, False, message)
    return Result(KEY, True, text("checkers.proxy.passed", total=len(every)))
