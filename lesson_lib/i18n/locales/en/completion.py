"""English strings of a stream's verdict in words (StreamResult.describe(): lesson_lib.i18n.wording).

The timed_out sentence's clock strings are the core's own English (lesson_lib.core.activity), the words of a
timed_out error's message, which stays English in every language as exceptions' messages do: described in
English, the clock reads exactly as ``error.message``.
"""

from lesson_lib.core.activity import CLOCK_MEANINGS, TIMEOUT_CAUSE, TIMEOUT_MESSAGE, Clock

STRINGS = {
    "completion.count.byte.one": "{n} byte",
    "completion.count.byte.other": "{n} bytes",
    "completion.count.read.one": "{n} read",
    "completion.count.read.other": "{n} reads",
    "completion.count.event.one": "{n} event",
    "completion.count.event.other": "{n} events",
    "completion.count.text_delta.one": "{n} text delta",
    "completion.count.text_delta.other": "{n} text deltas",
    "completion.count.heartbeat.one": "{n} heartbeat",
    "completion.count.heartbeat.other": "{n} heartbeats",
    "completion.count.character.one": "{n} character",
    "completion.count.character.other": "{n} characters",
    "completion.count.more_event.one": "{n} more event",
    "completion.count.more_event.other": "{n} more events",
    "completion.count.more_byte.one": "{n} more byte",
    "completion.count.more_byte.other": "{n} more bytes",
    "completion.count.tool_call.one": "{n} tool call",
    "completion.count.tool_call.other": "{n} tool calls",
    "completion.name.contract": "The {contract} stream",
    "completion.name.plain": "The stream",
    "completion.reason.given": 'finish reason "{reason}"',
    "completion.reason.none": "no finish reason",
    "completion.completed": (
        "{name} completed: the service's terminal signal arrived ({reason}) and the body ended cleanly, so "
        "the text is final."
    ),
    "completion.completed_unverified": (
        "{name} completed by its signals ({reason}, and the body ended cleanly), but its end cannot be "
        "verified: {why} A stream cut there would look the same, so the text is not called final."
    ),
    "completion.why.events_after": "{events} came after the terminal signal.",
    "completion.why.signal_repeated": (
        "the same signal had already come on an earlier event that more events followed."
    ),
    "completion.incomplete_no_reason": (
        "{name} ended incomplete: the service said it was done, but gave no finish reason at all, so nothing "
        "says the answer is whole; treat the text as possibly cut."
    ),
    "completion.incomplete": (
        "{name} ended incomplete: the service said it was done ({reason}), but not with a whole-answer "
        "reason, so the text is a cut answer."
    ),
    "completion.unverified_either": " Its end cannot be verified either: {why}",
    "completion.cut.character": (
        "in the middle of a UTF-8 character, the decoder still holding its first bytes"
    ),
    "completion.cut.line": "in the middle of a line",
    "completion.cut.event": "inside an event",
    "completion.cut.completion": "at a clean boundary, before the service's own completion signal",
    "completion.event_end.sse": " (its fields arrived, its blank line never did)",
    "completion.event_end.json_array": " (an array element whose closing bracket never came)",
    "completion.event_end.ndjson": " (a JSON line whose line feed never came)",
    "completion.event_end.unknown": " (its end never came)",
    "completion.truncated": "{name} was truncated {cut}, with {reason} seen, so the text is provisional.",
    "completion.truncated_source": (
        "{name} was truncated {cut}, with {reason} seen; the source raised {kind}{where}, so the text is "
        "provisional."
    ),
    "completion.service_error.type": " of type {type}",
    "completion.service_error.message": ": {message}",
    "completion.service_error": (
        "{name} ended with an in-band service error{kind}{message}{where}; the text before it is provisional."
    ),
    "completion.decode_error": (
        "{name} stopped at a decoding error ({kind}){where}; nothing after it was used and the text before "
        "it is provisional."
    ),
    "completion.limit_exceeded": (
        "{name} stopped because {limit} was exceeded{where}; the source was closed and the text is "
        "provisional."
    ),
    "completion.limit_exceeded_unknown": (
        "{name} stopped because a limit was exceeded{where}; the source was closed and the text is "
        "provisional."
    ),
    "completion.timed_out": (
        "{name} timed out: {message}{where}; the connection was closed and the text is provisional."
    ),
    "completion.timed_out_unknown": (
        "{name} timed out: a clock ran out{where}; the connection was closed and the text is provisional."
    ),
    "completion.timeout_message": TIMEOUT_MESSAGE,  # "{clock}={limit} s ran out: {meaning}{cause}"
    "completion.timeout_cause": TIMEOUT_CAUSE,  # " (the read was ended by {cause})"
    **{f"completion.clock.{clock}": CLOCK_MEANINGS[clock] for clock in Clock},
    "completion.cancelled": "{name} was cancelled by the caller between reads; the text is provisional.",
    "completion.mcp_resume": (
        " MCP (its 2025-11-25 revision) lets a server close a stream early: the client resumes with GET and "
        "Last-Event-ID: {last_event_id}."
    ),
    "completion.source_after_end": " The source then raised {kind} after the end, which changed nothing.",
    "completion.stats": (
        " {bytes} arrived in {reads}, carrying {events} ({deltas}, {heartbeats}, {unknown} unknown) and "
        "{characters} of text."
    ),
    "completion.values.calls": "{calls} ({closed} closed by the service, {open} open)",
    "completion.values.calls_bad": (
        "{calls} ({closed} closed by the service, {open} open, {bad} whose arguments did not parse)"
    ),
    "completion.values.reasoning": "{characters} of reasoning, kept apart from the text",
    "completion.values.one": " It carried {part}.",
    "completion.values.both": " It carried {calls} and {reasoning}.",
    "completion.after_terminal": (
        " After the terminal signal {events} and {bytes} arrived; they were checked, not appended."
    ),
    "completion.where.offset": " at byte offset {offset}",
    "completion.where.read_end": " in the read ending at byte {offset}",
    "completion.where.event": " (event {index})",
    "completion.error.limit_exceeded": "{limit}={maximum} exceeded",
    "completion.error.where.read_end": " in the read ending at byte {offset}",
    "completion.error.where.offset": " at byte offset {offset}",
    "completion.error.where.char": " at character {index}",
    "completion.error.where.line": "line {index}",
    "completion.error.where.event": "event {index}",
    "completion.error.where.extra": " ({parts})",
    "completion.error.where.joiner": ", ",
    "completion.error.option": "{name} must be {kind} {range}{unit}{none}; got {got}",
    "completion.error.option.kind.int": "an int",
    "completion.error.option.kind.number": "a number",
    "completion.error.option.above": "> {bound}",
    "completion.error.option.at_least": ">= {bound}",
    "completion.error.option.at_most": "<= {bound}",
    "completion.error.option.and": " and ",
    "completion.error.option.seconds": " seconds",
    "completion.error.option.none": ", or None",
    "completion.withdraw": (
        " The service's documentation says this finish reason ({reason}) means its safety review stopped "
        "the answer: decide whether to withdraw the text already shown, not only mark it provisional."
    ),
}
