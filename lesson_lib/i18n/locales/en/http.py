"""English strings of lesson_lib.net.http (the repr of an open response's reads)."""

STRINGS = {
    "http.repr.sync": "HTTPReads({status}, {reads} reads so far, {state})",
    "http.repr.async": "HTTPAReads({status}, {reads} reads so far, {state})",
    "http.state.open": "open",
    "http.state.closed": "closed",
    "http.resume.end_of_body": "end of body",
    "http.resume.no_event_id": "no event ID to resume from",
    "http.resume.no_sequence_number": "no sequence number to resume from",
    "http.resume.cannot_repair": "{ended}: a new connection cannot repair it",
}
