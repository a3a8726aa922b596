"""English strings of lesson_lib.net.relay (the state a relay server's repr names)."""

STRINGS = {
    "relay.state.running": "running",
    "relay.state.stopped": "stopped",
    "relay.state.not_started": "not started",
    "relay.variant.correct": "strict UTF-8, lines and events across reads; one event per upstream unit; the "
    "outcome last",
    "relay.variant.per-chunk-decode": "decodes each upstream read alone, lossily (errors='replace'): U+FFFD "
    "where a read ends inside a character (api7/aisix 111, musistudio/claude-code-router PR 1672)",
    "relay.variant.regex-split": "splits each read on a regex for a blank line, with no buffer carried between "
    "reads: an event cut across reads is broken (the line-level form of this bug: pickle-com/glass PR 228)",
    "relay.variant.raw-rewrite": "forwards each upstream read as it came, rewriting text inside the raw read: a "
    "match cut across reads is missed, and the client gets the upstream's cuts, inside characters too",
    "relay.variant.drop-terminal": "forwards the events but swallows the service's terminal one and sends no "
    "outcome: a clean end of body is all the client gets",
    "relay.variant.invent-finish": "reports a truncated upstream as finished: appends a terminal with finish "
    "reason 'stop' and says completed (BerriAI/litellm issue 33404: an upstream reset became finish_reason "
    "stop and [DONE])",
    "relay.variant.no-disconnect": "the correct pipeline, but nobody listens for the client's disconnect: the "
    "upstream request runs (and is billed) to its end after the client left",
}
