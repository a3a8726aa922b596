"""English strings of lesson_lib.net.http (the repr of an open response's reads)."""

STRINGS = {
    "http.repr.sync": "HTTPReads({status}, {reads} reads so far, {state})",
    "http.repr.async": "HTTPAReads({status}, {reads} reads so far, {state})",
    "http.state.open": "open",
    "http.state.closed": "closed",
}
