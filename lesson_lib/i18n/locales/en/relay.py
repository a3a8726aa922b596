"""English strings of lesson_lib.net.relay (the state a relay server's repr names)."""

STRINGS = {
    "relay.state.running": "running",
    "relay.state.stopped": "stopped",
    "relay.state.not_started": "not started",
}
