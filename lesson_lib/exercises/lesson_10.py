"""Lesson 10's check-your-understanding questions: the last mile, a gateway and a browser."""

from . import register

register(
    "10.fffd_count",
    "Through the per-chunk-decode relay, one upstream read ends after the first byte of 你 (3 bytes in UTF-8) "
    "and the next read starts with its other two. How many U+FFFD does the client get where 你 was?",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hint="Decode each read alone with errors='replace' in a cell: what does the lone lead byte become, and "
    "what does each of the two bytes that follow it become?",
    explanation="Three: the lead byte alone is one replacement, and Python replaces each of the two "
    "continuation bytes that start the next read on its own. Browsers' TextDecoder does the same.",
    hints={
        "1": "That is what the first read gives. What does the decoder make of the second read's first "
        "bytes, which belong to no character that started in that read?",
        "2": "Count the replacements of both reads, not of one of them.",
    },
)
register(
    "10.regex_whole",
    "True or False: a relay that splits each read on a blank line, with no buffer kept between reads, passes "
    "a test that sends every upstream body in one single read.",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
    hint="With one read per body, where can a read boundary fall inside an event?",
    explanation="True, which is why the bug ships: every event is whole inside the one read. Only a test "
    "that cuts the body (every two-piece split) finds it.",
)
register(
    "10.eventsource",
    "Which of these can a browser's EventSource do? A) send a POST body with the prompt; B) send an "
    "Authorization header; C) decode a character cut across two reads; D) tell a clean end of body from a "
    "finished answer",
    "choice",
    "5ce2263ccb09f3962a8fffdff74b498526379cdfecc41abd298cbe5d6324392b",
    hint="Its constructor takes a URL and one option. What is left for it to do well?",
    explanation="C: the HTML standard decodes an event stream as one stream, holding a cut character; but "
    "EventSource only sends GET without custom headers, and a clean end of body says nothing about the answer.",
    hints={
        "A": "new EventSource(url, {withCredentials}) has nowhere to put a body, and it only sends GET.",
        "B": "Only cookies (withCredentials) go with it; a page that needs a token header uses fetch.",
        "D": "Only an event that says so can tell, the service's terminal event or the relay's outcome.",
    },
)
register(
    "10.cancel",
    "The browser tab closes while the correct relay is streaming. What closes the upstream connection? "
    "A) the upstream notices that nobody reads; B) the relay cancels the request's task on http.disconnect, "
    "and lesson_lib closes the upstream response; C) the garbage collector; D) the upstream's idle timeout",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="The upstream is still sending to the relay, and the relay is still reading: who has to stop first?",
    explanation="B: the ASGI server tells the app that the client left; the relay cancels the pipeline's "
    "task, and the async reader closes the upstream response on cancellation, within a second.",
    hints={
        "A": "The relay is still reading from the upstream: the upstream sees a healthy reader.",
        "D": "The upstream is sending all the time, so its idle timeout never fires.",
        "C": "Nothing is garbage while the task still reads.",
    },
)
register(
    "10.invented",
    "The upstream dropped mid-answer; the invent-finish relay then sent finish_reason stop and [DONE]. What "
    "does consume() conclude from the relayed events? A) completed; B) truncated; C) incomplete; "
    "D) service_error",
    "choice",
    "4b0ff6a04dcba40e02aa594d4d8dddbdedfeadf4ffc1a5ca851c099ba5d69505",
    hint="consume() sees only the bytes it is given. Do those bytes show any sign of the drop?",
    explanation="completed: the invented terminal is indistinguishable from a real one downstream. Only the "
    "gateway knew; a correct gateway says truncated, in its outcome event.",
    hints={
        "B": "That is what happened upstream. consume() judges only the relayed bytes: look at how they "
        "end, and ask what it can tell from them.",
        "C": "Which finish reason was sent, and does it mean a cut answer?",
    },
)
