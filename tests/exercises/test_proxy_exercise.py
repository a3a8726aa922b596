"""Lesson 10's exercise "which setting broke it": a right solution passes, and each plausible wrong one is
rejected with the hint that names its mistake; no hint, in either language, names the case's answer."""

from __future__ import annotations

import re

import pytest

from lesson_lib.exercises.checkers_proxy import KEY, check_which_setting, hint_name
from lesson_lib.exercises.proxy_cases import CULPRITS, exercise_cases
from lesson_lib.i18n import catalogue, get_language, set_language


@pytest.fixture(autouse=True)
def english():
    language = get_language()
    set_language("en")
    yield
    set_language(language)


# -- solutions, written as a learner would -------------------------------------------------------------------


def _directives(config: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in config.splitlines())


def _timeout(directives: str) -> float:
    found = re.search(r"proxy_read_timeout\s+(\d+)s?\s*;", directives)
    return float(found.group(1)) if found else 60.0  # nginx's default


def right(config, capture, *, read=_directives, skip=()):
    """The reference: what arrived, then what each directive does. ``skip`` leaves out one check (each
    wrong solution below is this one with a mistake in it)."""
    directives = read(config)
    upstream = capture["upstream"]
    pause = upstream["pause"]
    mitmproxy = capture["proxy"] == "mitmproxy" and "mitmproxy" not in skip
    if mitmproxy and "stream_large_bodies" not in directives and capture["delivery"] == "at once":
        return "stream_large_bodies"
    if capture["proxy"] == "nginx":
        cut = capture["transport"] == "error"
        if "timeout" not in skip and pause and cut and pause["seconds"] > _timeout(directives):
            return "proxy_read_timeout"
        if capture["content_encoding"] == "gzip" and capture["delivery"] == "at once":
            hops = directives.count("listen ")
            if "hops" not in skip and upstream["x_accel_buffering"] == "no" and hops > 1:
                return "header_lost"
            return "gzip_types"
    if capture["outcome"] != "completed":
        return "upstream_drop"
    return "none"


def reads_comments(config, capture):
    return right(config, capture, read=lambda text: text)


def misses_the_hop(config, capture):
    return right(config, capture, skip=("hops",))


def timeout_as_drop(config, capture):
    return right(config, capture, skip=("timeout",))


def ignores_mitmproxy(config, capture):
    return right(config, capture, skip=("mitmproxy",))


def blames_buffering(config, capture):
    if capture["delivery"] != "streamed" or capture["outcome"] != "completed":
        return "proxy_buffering"
    return "none"


def gzip_on_ignores_types(config, capture):
    directives = _directives(config)
    if "gzip on" in directives and capture["upstream"]["x_accel_buffering"] is None:
        return "gzip_types"  # compressed, and nothing asked nginx to flush: so it must have buffered
    return right(config, capture)


def trusts_a_clean_end(config, capture):
    if capture["transport"] == "error":
        return right(config, capture)
    return right(config, {**capture, "outcome": "completed"})


def any_pause_is_a_timeout(config, capture):
    if capture["upstream"]["pause"]:
        return "proxy_read_timeout"
    return right(config, capture)


def a_timeout_in_the_config_cut_it(config, capture):
    if "proxy_read_timeout" in _directives(config) and capture["outcome"] != "completed":
        return "proxy_read_timeout"
    return right(config, capture)


WRONG = [
    (blames_buffering, "buffering"),
    (gzip_on_ignores_types, "gzip_types_ignored"),
    (misses_the_hop, "header_lost"),
    (timeout_as_drop, "timeout_as_drop"),
    (a_timeout_in_the_config_cut_it, "drop_as_timeout"),
    (any_pause_is_a_timeout, "timeout_default"),
    (trusts_a_clean_end, "clean_end"),
    (ignores_mitmproxy, "mitmproxy"),
    (reads_comments, "comment"),
]


def _answer_forms(culprit: str) -> list[str]:
    """How a message could give ``culprit`` away: the name, and the name with spaces for underscores."""
    return [culprit, culprit.replace("_", " ")]


def _names_answer(message: str, culprit: str) -> bool:
    return any(
        re.search(rf"\b{re.escape(form)}\b", message, re.IGNORECASE) for form in _answer_forms(culprit)
    )


def test_the_reference_passes_every_case():
    result = check_which_setting(right)
    assert result.correct, result
    assert len(exercise_cases()) >= 40


@pytest.mark.parametrize(("solution", "hint"), WRONG, ids=[w[0].__name__ for w in WRONG])
def test_each_wrong_solution_is_rejected_with_the_hint_for_its_mistake(solution, hint):
    result = check_which_setting(solution)
    assert not result.correct, result
    assert catalogue("en")[f"checkers.proxy.hint.{hint}"] in result.message, result.message
    failing = next(
        case for case in exercise_cases() if solution(case.config, dict(case.capture)) != case.culprit
    )
    assert not _names_answer(result.message.split("Hint:", 1)[1], failing.culprit), result.message


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_no_hint_names_the_answer_of_a_case_it_is_given_for(language):
    strings = catalogue(language)
    seen = set()
    for case in exercise_cases():
        for given in CULPRITS:
            if given == case.culprit:
                continue
            for twin_right in (False, True):
                name = hint_name(case, given, twin_right)
                seen.add(name)
                assert not _names_answer(strings[f"checkers.proxy.hint.{name}"], case.culprit), (name, case)
    hints = {key.rsplit(".", 1)[1] for key in strings if key.startswith("checkers.proxy.hint.")}
    assert seen == hints  # every hint is reachable, and the test saw each of them


def test_not_attempted_a_wrong_type_and_a_raising_function_get_a_message_not_a_traceback():
    def unwritten(config, capture):
        raise NotImplementedError

    def no_key(config, capture):
        return capture["headers"]

    assert "not attempted" in check_which_setting(...).message
    assert "not attempted" in check_which_setting(unwritten).message
    assert "KeyError" in check_which_setting(no_key).message
    assert "one of none, upstream_drop" in check_which_setting(lambda config, capture: "nginx").message
    assert "must be a function" in check_which_setting("gzip_types").message
    assert check_which_setting(right).key == KEY


def test_the_checker_does_not_let_a_function_change_the_cases():
    def spoils(config, capture):
        capture.clear()
        return "none"

    check_which_setting(spoils)
    assert check_which_setting(right).correct


def test_reports_are_in_chinese_under_zh_cn():
    set_language("zh-CN")
    message = check_which_setting(blames_buffering).message
    assert "提示" in message and "Hint" not in message
    assert catalogue("zh-CN")["checkers.proxy.hint.buffering"] in message
