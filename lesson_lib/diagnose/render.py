"""The output boundary: a :class:`~lesson_lib.diagnose.report.Diagnosis` as the text report or as JSON.

Both say only what the diagnosis holds: counts, offsets, classes, framing fields (event types and IDs), and
the stream's content only when the diagnosis was built with ``show_text``.
"""

from __future__ import annotations

import json
from typing import Any

from .report import Diagnosis

__all__ = ["render_json", "render_text"]


def render_json(diagnosis: Diagnosis) -> str:
    """One JSON object (``lesson_lib/diagnose/schema.json``), on one line."""
    return json.dumps(diagnosis.as_json(), ensure_ascii=False, separators=(",", ":"))


def _yes(value: bool | None) -> str:
    return "unknown" if value is None else "yes" if value else "no"


def _seconds(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.3f} s"


def _runs(runs: list[dict[str, Any]], cut: int) -> str:
    words = []
    for run in runs:
        if run["offset"] == cut:
            words.append("|cut|")
        kind, size = run["class"], run["bytes"]
        if kind == "character":
            words.append(f"char({size}/{run['of']})")
        else:
            name = {"line_feed": "LF", "carriage_return": "CR"}.get(kind, kind)
            words.append(name if size == 1 else f"{name}x{size}")
    if not runs or runs[-1]["offset"] + runs[-1]["bytes"] <= cut:
        words.append("|cut|" if runs and runs[-1]["offset"] + runs[-1]["bytes"] == cut else "")
    return " ".join(word for word in words if word)


def _count(number: int, noun: str) -> str:
    """``1 event``, ``2 events``: a count and its noun (English plurals in ``s``)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def render_text(d: Diagnosis) -> str:
    """The report, layer by layer, as the course teaches it."""
    verdict = "FINAL: the stream is proven complete" if d.is_final else "NOT FINAL"
    end = "end verified" if d.end_verified else "end not verified"
    out = [f"boundary-lab diagnose: {d.outcome}, {end}: {verdict}"]
    reads = _count(d.reads["count"], "real read") if d.reads is not None else "read boundaries unknown"
    out.append(f"input       {d.format}; {reads}" + ("; timed" if d.timing["known"] else ""))
    out.append(f"contract    {d.contract} ({d.framing})")
    out.extend(f"  evidence: {line}" for line in d.evidence)
    out.extend(f"  note: {line}" for line in d.notes)
    stop = d.stopped
    c, e, v, b = d.characters, d.events, d.values, d.bytes
    out.append("")
    out.append("layer by layer")
    after = f"; {b['not_read']} more bytes not read after the stop" if b["not_read"] else ""
    out.append(
        f"  bytes       {b['read']} bytes read; {b['after_terminal']} after the terminal signal{after}"
    )
    chars = [f"{c['upstream_replacement_chars']} U+FFFD sent by the upstream (EF BF BD on the wire)"]
    if c["cut_character"]:
        cut = c["cut_character"]
        chars.append(f"a character cut after {cut['bytes']} of its {cut['of']} bytes at byte {cut['offset']}")
    if c["invalid_utf8_offset"] is not None:
        chars.append(f"invalid UTF-8 at byte {c['invalid_utf8_offset']}")
    out.append("  characters  " + "; ".join(chars))
    out.append(
        "  lines       "
        + ("the body ended inside a line" if d.lines["ended_mid_line"] else "no unfinished line at the stop")
    )
    out.append(
        f"  events      {_count(e['count'], 'event')}, {_count(e['heartbeats'], 'heartbeat')}, "
        f"{e['unknown']} unknown, "
        f"{e['after_terminal']} after the terminal signal"
    )
    out.append(
        f"  values      {_count(v['text_chars'], 'answer character')} in {_count(v['deltas'], 'delta')}; "
        f"{_count(v['tool_calls'], 'tool call')} ({v['tool_calls_complete']} closed, "
        f"{v['tool_calls_parsed']} parsed); {_count(v['reasoning_chars'], 'reasoning character')}"
    )
    out.append(
        f"  completion  outcome {d.outcome}"
        + (f" at {d.truncated_at}" if d.truncated_at else "")
        + f"; finish reason {d.finish_reason or 'none'}; end verified {_yes(d.end_verified)}; "
        f"final {_yes(d.is_final)}"
    )
    out.append("")
    out.append("where it stopped")
    exact = "exact" if stop["offset_exact"] else "the end of the read where it was seen"
    where = f"layer {stop['layer']}" if stop["layer"] else "it ended"
    error = ""
    if stop["error_kind"]:
        error = f"; {stop['error_kind']}" + (f" ({stop['error_type']})" if stop["error_type"] else "")
    out.append(f"  {where}, byte {stop['offset']} ({exact}){error}")
    out.append(
        f"  the last complete unit ended at byte {d.last_clean_offset}; event index {stop['event_index']}"
    )
    out.append("")
    h = d.hexdump
    out.append(
        f"bytes {h['start']} to {h['end']} around byte {h['cut']} (classes and lengths"
        + (")" if h["hex"] is not None else "; --show-text for the bytes)")
    )
    out.append("  " + _runs(h["runs"], h["cut"]))
    if h["hex"] is not None:
        out.append("  hex: " + h["hex"])
    out.append("")
    out.append("events (index, type, id, size, time)")
    rows = e["table"]
    for number, row in enumerate(rows):
        if number and rows[number - 1]["index"] != row["index"] - 1:
            out.append(f"  ... {e['table_omitted']} events left out ...")
        when = "" if row["time"] is None else f"  {row['time']:.3f} s"
        out.append(f"  {row['index']:>6}  {row['type']:<28} {row['id'] or '-':<10} {row['size']:>7} B{when}")
    if not rows:
        out.append("  (no complete event)")
    out.append("")
    out.append('naive client (one decode(errors="replace") per read, EOF taken as done)')
    if d.naive is None:
        out.append(
            "  read boundaries unknown: a raw body or a HAR does not hold the reads "
            "(capture with curl -N --trace-time --trace FILE)"
        )
    else:
        n = d.naive
        read_count: int | None = d.reads["count"] if d.reads is not None else None
        why = (
            "EOF taken as done"
            if n["finished"]
            else f"the transfer failed: curl exit status {d.http['curl_exit']}"
        )
        out.append(
            f"  made {n['replacement_chars']} U+FFFD, in {n['reads_with_replacement']} of its "
            f"{_count(read_count, 'read') if read_count is not None else 'reads'} "
            f"(and passed on {n['upstream_replacement_chars']} sent by the upstream); "
            f"called the answer finished: {_yes(n['finished'])} ({why})"
        )
        if n["text"] is not None:
            out.append(f"  it showed: {n['text']!r}")
    t = d.timing
    out.append("")
    out.append("timing")
    if not t["known"] and t["time_to_first_byte"] is None:
        out.append("  unknown (curl --trace-time records it)")
    else:
        gap = _seconds(t["largest_gap"])
        if t["largest_gap_before_read"] is not None:
            gap += f" (before read {t['largest_gap_before_read']})"
        out.append(
            f"  first byte {_seconds(t['time_to_first_byte'])}, "
            f"first text {_seconds(t['time_to_first_text'])}, largest gap {gap}, "
            f"every read at once (a buffering hop?): {_yes(t['all_at_once'])}"
        )
    p = d.http
    out.append("")
    out.append("http")
    # Without the response's headers (a raw body) their absence says nothing: "unknown", not "none".
    unset = "none" if p["status"] is not None else "unknown"
    out.append(
        f"  status {p['status'] or 'unknown'}; Content-Type {p['content_type'] or 'unknown'} "
        f"(charset {p['charset'] or unset}); Content-Encoding {p['content_encoding'] or unset}; "
        f"X-Accel-Buffering {p['x_accel_buffering'] or ('not set' if unset == 'none' else 'unknown')}"
    )
    out.append(
        f"  chunked {_yes(p['chunked'])}; terminating chunk arrived {_yes(p['chunked_terminator'])}"
        + (f" ({p['chunked_error']})" if p["chunked_error"] else "")
        + f"; curl exit status {p['curl_exit'] if p['curl_exit'] is not None else 'unknown'}"
        + (f"; URL {p['url']}" if p["url"] else "")
    )
    if d.text is not None:
        out.append("")
        out.append(f"answer text (--show-text): {d.text!r}")
    return "\n".join(out) + "\n"
