"""English strings of the pictures (lesson_lib.teach.viz): titles, legends, axis labels, annotations."""

STRINGS = {
    # the course map (viz/course_map.py)
    "viz.course_map.chunk.name": "chunk",
    "viz.course_map.chunk.arrives": "a network read:\nsome bytes",
    "viz.course_map.chunk.state": "nothing\n(the transport decides)",
    "viz.course_map.character.name": "character",
    "viz.course_map.character.arrives": "UTF-8 text",
    "viz.course_map.character.state": "0-3 held bytes of an\nunfinished character",
    "viz.course_map.line.name": "line",
    "viz.course_map.line.arrives": "text up to\nCR, LF or CRLF",
    "viz.course_map.line.state": "the unfinished line,\na CR that may pair with LF",
    "viz.course_map.event.name": "event",
    "viz.course_map.event.arrives": "an SSE event,\nan NDJSON value",
    "viz.course_map.event.state": "the event's fields so far",
    "viz.course_map.value.name": "value",
    "viz.course_map.value.arrives": "a tool call's\narguments, closed",
    "viz.course_map.value.state": "each open call's\ntext so far",
    "viz.course_map.completion.name": "completion",
    "viz.course_map.completion.arrives": "the service's own\n\"done\"",
    "viz.course_map.completion.state": "the last confirmed\nbusiness stage",
    "viz.course_map.what_arrives": "what arrives",
    "viz.course_map.state_carried": "state carried from one read to the next",
    # every layer, read by read (viz/layers.py)
    "viz.layers.title": "the state of every layer after each read ({reads} reads)",
    "viz.layers.column.read": "read (bytes)",
    "viz.layers.column.character": "held bytes",
    "viz.layers.column.line": "pending line",
    "viz.layers.column.lines": "lines completed",
    "viz.layers.column.event": "event so far",
    "viz.layers.column.dispatched": "dispatched",
    "viz.layers.fields_pending": "fields pending (no data)",
    "viz.layers.last_event_id": ", last event ID {last}",
    # the byte strip (viz/strip.py)
    "viz.strip.legend.cells": (
        "dark cell: first byte of a character · light cell: continuation byte · red: invalid byte"
    ),
    "viz.strip.legend.cuts": "blue cut: between characters · orange cut: inside a character",
    "viz.strip.legend.cuts_and_sweep": "{cuts} · ▲ {corrupting} single cuts corrupt decode-each-read",
    "viz.strip.header.cut": (
        "{bytes} bytes · cuts at {cuts} -> {reads} reads (grey bars); {inside} inside a character"
    ),
    "viz.strip.header.uncut": "{bytes} bytes · no cuts: the whole stream arrives in one read",
    # outcome labels as shown (viz/outcome_map.py: outcome_text)
    "viz.outcome.completed": "completed",
    "viz.outcome.completed_unverified": "completed, end not verifiable",
    "viz.outcome.incomplete": "incomplete",
    "viz.outcome.incomplete_unverified": "incomplete, end not verifiable",
    "viz.outcome.truncated": "truncated",
    "viz.outcome.truncated_at_character": "truncated at character",
    "viz.outcome.truncated_at_line": "truncated at line",
    "viz.outcome.truncated_at_event": "truncated at event",
    "viz.outcome.truncated_at_completion": "truncated at completion",
    "viz.outcome.service_error": "service_error",
    "viz.outcome.decode_error": "decode_error",
    "viz.outcome.limit_exceeded": "limit_exceeded",
    "viz.outcome.cancelled": "cancelled",
    "viz.outcome.timed_out": "timed_out",
    # the outcome map (viz/outcome_map.py)
    "viz.count.cutoff.one": "{n} cut-off",
    "viz.count.cutoff.other": "{n} cut-offs",
    "viz.count.range.one": "{n} range",
    "viz.count.range.other": "{n} ranges",
    "viz.outcome_map.legend": "{label}: {cutoffs} in {ranges}",
    "viz.outcome_map.row_start": "cut-off {cutoff}",
    "viz.outcome_map.not_to_scale": (
        "Not to scale: every range is drawn at least {px} px wide, the rest of the bar in proportion to "
        "the cut-offs."
    ),
    "viz.outcome_map.marker": "cut-off {cutoff}: {label}",
    # the three clocks (viz/timeline.py)
    "viz.timeline.lane.byte": "bytes",
    "viz.timeline.lane.event": "events (heartbeats too)",
    "viz.timeline.lane.progress": "business progress",
    "viz.timeline.xlabel": "seconds since the body started",
    "viz.timeline.ran_out": " {clock}={limit} s ran out",
    # tool calls along the byte axis (viz/values_map.py)
    "viz.values_map.cutoff": "cut-off {cutoff}",
}
