"""English strings of lesson_lib.core.values (the repr of a provisional parse)."""

STRINGS = {
    "values.provisional.repr": "provisional (display only, after {chars} chars): {shown}",
    "values.provisional.nothing": "nothing yet",
}
