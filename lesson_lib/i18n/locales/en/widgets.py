"""English strings of the explorers (lesson_lib.teach.widgets): labels, buttons, tooltips, the HTML beside the
pictures and each explorer's repr (what a static reader sees). Some templates hold HTML: their fields
are escaped by the code before they are filled in."""

STRINGS = {
    # shared
    "widgets.count.byte.one": "{n} byte",
    "widgets.count.byte.other": "{n} bytes",
    "widgets.count.read.one": "{n} read",
    "widgets.count.read.other": "{n} reads",
    "widgets.count.event.one": "{n} event",
    "widgets.count.event.other": "{n} events",
    "widgets.count.line.one": "{n} line",
    "widgets.count.line.other": "{n} lines",
    "widgets.count.more_character.one": "{n} more character",
    "widgets.count.more_character.other": "{n} more characters",
    "widgets.count.more_byte.one": "{n} more byte",
    "widgets.count.more_byte.other": "{n} more bytes",
    "widgets.code": "code: <code>{code}</code>",
    "widgets.where.cut": "cut at {cuts}",
    "widgets.where.uncut": "not cut",
    "widgets.none": "none",
    "widgets.stored_view.notice": (
        "<b>A stored picture.</b> Its controls come alive once this cell has run, after the cells above it "
        "(Run ▸ Run All Cells, or Shift+Enter down to here)."
    ),
    "widgets.yes": "yes",
    "widgets.no": "no",
    "widgets.capture": "capture",
    "widgets.cutoff_slider": "cut-off byte",
    "widgets.part_separator": "; ",
    "widgets.list_separator": ", ",
    # the cut controls
    "widgets.cut_controls.add": "add cut",
    "widgets.cut_controls.add_tooltip": "cut the longest read in two",
    "widgets.cut_controls.code": "code",
    "widgets.cut_controls.code_tooltip": "the cuts as Python; edit and press Enter",
    "widgets.cut_controls.slider": "cut at byte",
    "widgets.cut_controls.remove": "remove cut",
    # CutExplorer
    "widgets.cut_explorer.title": (
        "<b>Cut the bytes into reads.</b> Drag a cut; an orange cut falls inside a character. "
        "Left: each read decoded on its own; right: one incremental decoder for the whole stream."
    ),
    "widgets.cut_explorer.sweep": "try every cut",
    "widgets.cut_explorer.sweep_tooltip": "mark every single cut that corrupts decode-each-read",
    "widgets.cut_explorer.identical": "identical: no cut falls inside a character",
    "widgets.cut_explorer.differs": "first difference at character {index} (marked)",
    "widgets.cut_explorer.head_replace": "each read decoded alone (errors=&quot;replace&quot;)",
    "widgets.cut_explorer.head_incremental": "one incremental decoder",
    "widgets.cut_explorer.replacements": "{n} × U+FFFD",
    "widgets.cut_explorer.reads": "{verdict}; {reads} reads: [{pieces}]",
    "widgets.cut_explorer.sweep_none": "{corrupting} of {total} single cut positions corrupt decode-each-read",
    "widgets.cut_explorer.sweep_marked": (
        "{corrupting} of {total} single cut positions corrupt decode-each-read (▲ in the picture): {shown}"
    ),
    "widgets.cut_explorer.repr_identical": "{n} x U+FFFD, identical",
    "widgets.cut_explorer.repr_differs": "{n} x U+FFFD, first difference at character {index}",
    "widgets.cut_explorer.repr": (
        "CutExplorer: {source} ({size}) {where} -> replace decode {replaced} ({diff}); "
        "incremental decode {incremental}"
    ),
    "widgets.cut_explorer.repr_sweep": "; {corrupting} single cut positions corrupt the replace decode",
    # the explorers that step through reads
    "widgets.reads.step": "after read",
    "widgets.reads.step_text": "after read {step} of {reads}",
    "widgets.reads.then_close": "then close(): {what}",
    "widgets.reads.close.not_reached": "not reached: a read failed",
    "widgets.reads.close.raises": "raises: {error}",
    "widgets.reads.close.ended_mid.character": (
        "the stream ended in the middle of a character; what was pending is discarded"
    ),
    "widgets.reads.close.ended_mid.line": "the stream ended in the middle of a line; what was pending is discarded",
    "widgets.reads.close.ended_mid.event": (
        "the stream ended in the middle of an event; what was pending is discarded"
    ),
    "widgets.reads.close.clean": "clean end: nothing pending",
    "widgets.reads.error": ", error {error}",
    "widgets.layer_inspector.intro": (
        "<b>Every layer, read by read.</b> Each row is the parser's state after one read: the bytes of an "
        "unfinished character, the unfinished line (and a CR waiting for its LF), the event's fields so far, "
        "and the events the read completed."
    ),
    "widgets.layer_inspector.state": (
        "held {held}, pending line {line}{cr}, event so far {event}, dispatched in this read {dispatched}"
        "{last_id}"
    ),
    "widgets.layer_inspector.repr": "LayerInspector: {bytes} bytes {where} -> {reads}, {events} dispatched; {step}: {state}",
    "widgets.event_explorer.intro": (
        "<b>Fields arrive, the blank line dispatches.</b> Each row is one read; the event's fields "
        "collect until an empty line ends the event, and only then is it dispatched."
    ),
    "widgets.event_explorer.repr": (
        "EventExplorer: {bytes} bytes {where} -> {reads}, {events} dispatched; {step}: event so far {event}, "
        "dispatched in this read {dispatched}{last_id}"
    ),
    "widgets.line_explorer.intro": (
        "<b>Line endings across reads.</b> CR, LF and CRLF each end one line. When a read ends with CR "
        "the splitter remembers it (<code>after_cr</code>): an LF at the start of the next read belongs "
        "to the same ending and makes no extra empty line."
    ),
    "widgets.line_explorer.repr": (
        "LineExplorer: {text} ({size}) {where} -> {reads}, {lines}; {step}: pending line {line}, "
        "after CR {after_cr}, lines completed {done}"
    ),
    # CompletionExplorer
    "widgets.cutoffs.one": "cut-off {start}",
    "widgets.cutoffs.range": "cut-offs {start}-{last}",
    "widgets.completion_explorer.title": (
        "<b>Where did the stream stop?</b> Move the cut-off: the body ends there, as if the connection "
        "dropped. Only the service's own terminal signal plus a clean end makes the answer complete."
    ),
    "widgets.completion_explorer.map": "map every cut-off",
    "widgets.completion_explorer.map_tooltip": "the outcome if the body stopped after each byte",
    "widgets.completion_explorer.range": "range",
    "widgets.completion_explorer.previous": "previous range",
    "widgets.completion_explorer.next": "next range",
    "widgets.completion_explorer.map_title": "{capture}: the outcome if the body stopped after each byte",
    "widgets.completion_explorer.range_option": "{number} of {ranges}: {cutoffs}: {label}",
    "widgets.completion_explorer.more_text": "{characters} of text",
    "widgets.completion_explorer.no_more_text": "no more text",
    "widgets.completion_explorer.hidden_end": (
        "but this capture goes on for {rest} ({added}): consume sees only these bytes, and they are exactly "
        "what a finished stream looks like"
    ),
    "widgets.completion_explorer.summary": (
        'outcome <b style="color:{colour}">{outcome}</b>, end_verified <code>{end_verified}</code>, '
        "truncated_at <code>{truncated_at}</code>, finish reason <code>{finish_reason}</code> — {cutoff} of "
        "{total} bytes of <code>{capture}</code> ({contract})"
    ),
    "widgets.completion_explorer.note_sentence": "{note}.",
    "widgets.completion_explorer.text_so_far": "text so far: {text}",
    "widgets.completion_explorer.repr": (
        "CompletionExplorer: {capture} ({contract}, {bytes} bytes) cut off after {cutoff} bytes -> outcome "
        "{outcome}, end_verified {end_verified}, truncated_at {truncated_at}, finish reason {finish_reason}; "
        "text {text}"
    ),
    "widgets.completion_explorer.repr_note": "; {note}",
    "widgets.completion_explorer.repr_map": "; over every cut-off: {counts}",
    "widgets.completion_explorer.map_count": "{label} {n}",
    # ValueExplorer
    "widgets.value_explorer.title": (
        "<b>When is a tool call a value?</b> Move the cut-off: the arguments text grows fragment by "
        "fragment, but only the service's close makes it whole. The provisional parse is a guess for "
        "display."
    ),
    "widgets.value_explorer.call": "call",
    "widgets.value_explorer.no_call": "no tool call",
    "widgets.value_explorer.track_call": "call {number}: {name}",
    "widgets.value_explorer.track_reasoning": "reasoning",
    "widgets.value_explorer.track_text": "answer text",
    "widgets.value_explorer.picture_title": "{capture}: calls, fragments and closes",
    "widgets.value_explorer.status.not_started": "not started yet",
    "widgets.value_explorer.status.open": "open: not yet closed by the service, no value yet",
    "widgets.value_explorer.status.not_json": "closed, but not JSON: {error}",
    "widgets.value_explorer.status.closed": "closed by the service: the whole text, parsed",
    "widgets.value_explorer.summary": (
        "outcome <b>{outcome}</b>, truncated_at <code>{truncated_at}</code> — {cutoff} of {total} bytes of "
        "<code>{capture}</code>"
    ),
    "widgets.value_explorer.call_status": "call {number}: {status}",
    "widgets.value_explorer.call_line": (
        'call {number} <code>{name}</code>: <b style="color:{colour}">{status}</b>'
    ),
    "widgets.value_explorer.arguments_text": "arguments_text ({chars} chars): <code>{text}</code>",
    "widgets.value_explorer.arguments": "arguments: <code>{arguments}</code>",
    "widgets.value_explorer.provisional": "provisional parse, display only: <code>{shown}</code>",
    "widgets.value_explorer.naive_head": (
        "<b>json.loads on each fragment alone</b> (the naive per-event parse):"
    ),
    "widgets.value_explorer.no_fragment": "no fragment yet",
    "widgets.value_explorer.naive_ok": "ok: {value}",
    "widgets.value_explorer.naive_fails": "fails: {error} (char {position})",
    "widgets.value_explorer.reasoning_head": "<b>reasoning</b> (never the answer):",
    "widgets.value_explorer.text_head": "<b>answer text</b>:",
    "widgets.value_explorer.repr": (
        "ValueExplorer: {capture} ({contract}, {bytes} bytes) cut off after {cutoff} bytes -> outcome "
        "{outcome}, truncated_at {truncated_at}"
    ),
    "widgets.value_explorer.repr_call": (
        "call {number} {name}: {arrived} of {total} fragments, arguments_text {text}; {status}; "
        "arguments {arguments}"
    ),
    "widgets.value_explorer.repr_naive": "json.loads per fragment: {failed} of {total} fail",
    "widgets.value_explorer.repr_reasoning": (
        "reasoning {reasoning} ({reasoning_chars} chars) apart from text {text} ({text_chars} chars)"
    ),
    "widgets.json_error.expecting_value": "Expecting value",
    "widgets.json_error.extra_data": "Extra data",
    "widgets.json_error.unterminated_string": "Unterminated string starting at",
    "widgets.json_error.invalid_unicode_escape": "Invalid \\uXXXX escape",
    "widgets.json_error.expecting_property_name": "Expecting property name enclosed in double quotes",
    "widgets.json_error.expecting_colon": "Expecting ':' delimiter",
    "widgets.json_error.expecting_comma": "Expecting ',' delimiter",
    "widgets.json_error.control_character": "Invalid control character at",
    "widgets.json_error.invalid_escape": "Invalid \\escape",
}
