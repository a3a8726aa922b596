"""Plausible wrong cut lists for the adversarial exercise (each challenge: a cut that does not break the
naive client, or breaks the rule), and right variants (other cuts that break it)."""

from __future__ import annotations

A = "checkers.adversarial."
WRONG = [
    ("cuts:character", "between_two_characters", [3], [A + "hint.character"]),
    ("cuts:character", "two_cuts", [1, 12], [A + "invalid.count_many"]),
    ("cuts:character", "a_bare_number", 3, [A + "invalid.single_number"]),
    ("cuts:line", "another_crlf_cut_that_the_client_survives", [47], [A + "hint.line_crlf"]),
    ("cuts:line", "inside_a_line", [31], [A + "hint.line"]),
    ("cuts:line", "offsets_as_text", ["14"], [A + "invalid.not_whole_numbers"]),
    ("cuts:event", "between_two_lines_of_one_event", [28], [A + "hint.event"]),
    ("cuts:event", "between_two_events", [62], [A + "hint.event_between"]),
    ("cuts:event", "not_after_an_lf", [27], [A + "invalid.not_after_lf"]),
    ("cuts:event", "three_cuts", [29, 62, 85], [A + "invalid.count_many"]),
    ("cuts:completion", "inside_a_line", [5], [A + "hint.completion"]),
    ("cuts:completion", "outside_the_body", [0], [A + "invalid.outside"]),
    ("cuts:completion", "offsets_as_text", ["585"], [A + "invalid.not_whole_numbers"]),
]

PHRASES: dict[str, list[str]] = {}

RIGHT = [
    ("cuts:character", "inside_the_emoji", [21]),
    ("cuts:line", "a_tuple_of_one_cut", (13,)),
    ("cuts:event", "two_cuts_after_lfs", [29, 44]),
]
