"""English strings of lesson_lib.net.replay (the repr of a replay server)."""

STRINGS = {
    "replay.repr": "ReplayServer({bytes} bytes in {pieces} pieces, {state})",
    "replay.state.running": "running",
    "replay.state.stopped": "stopped",
    "replay.state.not_started": "not started",
}
