"""English strings of lesson_lib.captures (the repr of a capture)."""

STRINGS = {
    "captures.repr": "Capture({name}: {bytes} bytes, {contract}, expected {outcome})",
}
