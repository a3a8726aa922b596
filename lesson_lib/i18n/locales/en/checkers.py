"""The exercise checkers' strings (lesson_lib/exercises/checkers*.py): verdicts, failure explanations,
hints and the descriptions of cuts and counterexamples."""

STRINGS = {
    # -- checkers_core: what every checker shares -------------------------------------------------------
    "checkers.core.kind.character": "inside a multi-byte UTF-8 character",
    "checkers.core.kind.between_characters": "between two characters",
    "checkers.core.kind.crlf": "between a CR and the LF after it",
    "checkers.core.kind.line": "inside a line",
    "checkers.core.kind.in_event": "between two lines of one event",
    "checkers.core.kind.inside_event": "inside an event",
    "checkers.core.kind.between_events": "between two events",
    "checkers.core.kind.line_boundary": "just after a line ending",
    "checkers.core.kind.empty": "with an empty read",
    "checkers.core.kinds_separator": " and ",
    "checkers.core.unit.byte": "byte",
    "checkers.core.unit.character": "character",
    "checkers.core.not_attempted": (
        "not attempted yet: {what} still raises NotImplementedError. Write your code in its place and run "
        "this cell again."
    ),
    "checkers.core.raised": "raised {error}",
    "checkers.core.returned": "returned {value}",
    "checkers.core.diff.text_at": "at character {index}: got {got} where the truth has {truth}",
    "checkers.core.diff.texts": "the texts differ",
    "checkers.core.diff.item_at": "at item {index}: got {got} where the truth has {truth}",
    "checkers.core.diff.nothing": "nothing",
    "checkers.core.diff.lists": "the lists differ",
    "checkers.core.diff.value": "got {got} where the truth is {truth}",
    "checkers.core.label.whole": "with the whole stream in one read",
    "checkers.core.label.two_piece": "with two reads cut at {unit} {cut}",
    "checkers.core.label.one_unit": "with one-{unit} reads",
    "checkers.core.label.random": "with the seeded random partition #{seed} ({reads} reads)",
    "checkers.core.label.empty_reads": "with one-{unit} reads and an empty read before each",
    "checkers.core.summary.whole": "one whole read",
    "checkers.core.summary.two_piece": "{n} two-piece splits",
    "checkers.core.summary.one_unit": "one-{unit} reads",
    "checkers.core.summary.random": "{n} seeded random partitions",
    "checkers.core.summary.empty_reads": "empty reads",
    "checkers.core.summary.separator": ", ",
    "checkers.core.where.two_piece": "{label}, {kinds}",
    "checkers.core.where.empty": "{label} (the same reads without the empty ones pass)",
    "checkers.core.where.shrunk_one": (
        "{label}; it still fails with only {n} of those cut, at {unit} {offsets}: {kinds}"
    ),
    "checkers.core.where.shrunk_many": (
        "{label}; it still fails with only {n} of those cuts, at {unit} {offsets}: {kinds}"
    ),
    "checkers.core.compare.raised": "your code {did}",
    "checkers.core.compare.differs": "the result differs from the truth {difference}",
    "checkers.core.failure": "{where}: {mismatch}. Hint: {hint}",
    # -- checkers_adversarial: the learner chooses the cuts ----------------------------------------------
    "checkers.adversarial.title.character": "Make the per-read decoder corrupt the text",
    "checkers.adversarial.title.line": "Make the client split one event in two, or lose its type",
    "checkers.adversarial.title.event": "Make the client lose text, cutting only at line endings",
    "checkers.adversarial.title.completion": "Make the client call a finished stream unfinished",
    "checkers.adversarial.rule.character": "exactly one cut",
    "checkers.adversarial.rule.line": "exactly one cut",
    "checkers.adversarial.rule.event": "one or two cuts, each just after an LF",
    "checkers.adversarial.rule.completion": "exactly one cut",
    "checkers.adversarial.hint.character": (
        "this client decodes each read alone. Where must a read end for it to hold part of something?"
    ),
    "checkers.adversarial.hint.line_crlf": (
        "your cut is between a CR and its LF, the right kind of place, but here the empty line the client "
        "invents lands where an empty line changes nothing. Try another CRLF."
    ),
    "checkers.adversarial.hint.line": (
        "this client keeps unfinished lines and decodes correctly; what it forgets is at the very end of a "
        "read. Which line ending is two characters long?"
    ),
    "checkers.adversarial.hint.event_between": (
        "your cuts fall between two events, and this client handles that. A cut just after an LF can also "
        "fall inside an event."
    ),
    "checkers.adversarial.hint.event": (
        "this client survives that: each event's data lines still arrive together in one read. Where could "
        "a cut at a line ending separate lines that belong together?"
    ),
    "checkers.adversarial.hint.completion": (
        "this client looks for the terminal marker inside each read. How could a read boundary hide it?"
    ),
    "checkers.adversarial.invalid.single_number": "give a list of byte offsets, e.g. [{cut}], not a single number.",
    "checkers.adversarial.invalid.not_whole_numbers": "give a list of byte offsets (whole numbers), e.g. [5]; got {got}.",
    "checkers.adversarial.invalid.outside": (
        "cut {cut} is outside 0 < cut < {size}: a cut must leave bytes on both sides."
    ),
    "checkers.adversarial.invalid.count_one": "this challenge allows {rule}; you gave {count} distinct cut.",
    "checkers.adversarial.invalid.count_many": "this challenge allows {rule}; you gave {count} distinct cuts.",
    "checkers.adversarial.invalid.not_after_lf": "cut {cut} does not fall just after an LF: byte {offset} is {before}.",
    "checkers.adversarial.not_attempted": "not attempted yet: put your cut offsets in place of ... ({rule}).",
    "checkers.adversarial.where": "with cuts {cuts} ({kinds})",
    "checkers.adversarial.lesson_lib_bug": "{where}, lesson_lib gives {right}, not the truth: a bug.",
    "checkers.adversarial.still_the_truth": "{where}, the naive client still gives the truth. Hint: {hint}",
    "checkers.adversarial.broken": (
        "{where}, the naive client gives {naive}; the truth, and lesson_lib on the same reads, give {truth}."
    ),
    "checkers.adversarial.show.header": "{title}. Rule: {rule}.",
    "checkers.adversarial.show.offsets": "A cut at offset n ends the first read after byte n - 1.",
    "checkers.adversarial.show.char_row": "  bytes {start:2}-{end:<2}  {char:6} {hex}",
    "checkers.adversarial.show.line_row": "  bytes {start:3}-{end:<3}  {line}",
    # -- checkers_bugs: the bug hunt (1-6) --------------------------------------------------------------
    "checkers.bugs.your_function": "your function {did}",
    "checkers.bugs.not_a_function": "pass your function itself, {name}, not {got}.",
    "checkers.bugs.decode.hint.whole": (
        "even in one read the text is wrong: which encoding and which error mode does it use?"
    ),
    "checkers.bugs.decode.hint.character": (
        "a read ended inside a character. Which bytes must survive from one read to the next, and what in "
        "your code keeps them?"
    ),
    "checkers.bugs.decode.hint.default": (
        "compare what your function keeps between reads with what an incremental decoder keeps."
    ),
    "checkers.bugs.decode.invalid_byte": (
        "a byte that is never valid UTF-8 (0xFF) sat in the middle, and your function {did} instead of "
        "raising UnicodeDecodeError. Hint: {hint}"
    ),
    "checkers.bugs.decode.hint.replaced_at_end": (
        "your decoder did see that the stream ended inside a character, and turned the held bytes into "
        "U+FFFD. Which error mode does it use at the end, and who downstream could tell?"
    ),
    "checkers.bugs.decode.hint.never_told": (
        "what tells a decoder that no more bytes will come, so that it can complain about the ones it holds?"
    ),
    "checkers.bugs.decode.cut_character": (
        "the stream stopped in the middle of a character (two of its four bytes arrived), and your function "
        "{did} instead of raising UnicodeDecodeError. Hint: {hint}"
    ),
    "checkers.bugs.decode.passed": (
        "passed {summary}, each character out as soon as its bytes were there, a stream cut inside a "
        "character and an invalid byte."
    ),
    "checkers.bugs.decode.hint.replaced": (
        "text with U+FFFD in it looks like an answer; nobody downstream can tell that bytes were lost. Which "
        "error mode does your decoder use?"
    ),
    "checkers.bugs.decode.hint.other_error": (
        "invalid bytes must raise UnicodeDecodeError (or a subclass), so callers can catch it as such."
    ),
    "checkers.bugs.decode.hint.vanished": (
        "the byte vanished without a trace: nobody downstream can tell that bytes were lost."
    ),
    "checkers.bugs.splitlines.hint.whole": (
        "even with the whole stream in one read, a line was split where there is no CR or LF. Which "
        "characters does your splitting treat as line breaks, and which does SSE?"
    ),
    "checkers.bugs.splitlines.hint.crlf": (
        "a read ended between a CR and its LF, and the lines differ. A CRLF cut in two is still one line "
        "ending: what must survive from the end of one read to the start of the next?"
    ),
    "checkers.bugs.splitlines.hint.line": (
        "a read ended inside a line and the lines differ. Where does the unfinished part of a read wait for "
        "its ending?"
    ),
    "checkers.bugs.splitlines.hint.character": (
        "a read ended inside a character: one decoder must hold its bytes for the whole stream."
    ),
    "checkers.bugs.splitlines.hint.default": (
        "compare your lines with what lesson_lib's LineSplitter gives for the same reads."
    ),
    "checkers.bugs.splitlines.case.no_ending": "a stream whose last line has no ending",
    "checkers.bugs.splitlines.case.lone_cr": "a stream whose last line ends with a lone CR",
    "checkers.bugs.splitlines.unended": (
        "for {case}: {mismatch}. Hint: a line exists once its ending has arrived (a CR is an ending on its "
        "own); a line without an ending is not a line yet."
    ),
    "checkers.bugs.splitlines.passed": (
        "passed {summary}, each line out as soon as its ending arrived, and two streams that end without an LF."
    ),
    "checkers.bugs.blank_line.hint.whole": (
        "even with the whole stream in one read, the values differ. When is an event's data complete, and "
        "how are two data lines of one event joined?"
    ),
    "checkers.bugs.blank_line.hint.in_event": (
        "a read ended between two lines of one event. What must be kept from one read to the next until the "
        "event is complete?"
    ),
    "checkers.bugs.blank_line.hint.default": (
        "compare your values with parse_sse on the same reads, event by event."
    ),
    "checkers.bugs.blank_line.unfinished": (
        "the stream stopped just before the last event's blank line: {mismatch}. Hint: an event exists only "
        "once its blank line has arrived; what the stream left half-done is not an event."
    ),
    "checkers.bugs.eof.where.early": "cleanly between two events, long before the end",
    "checkers.bugs.eof.where.before_finish": (
        "cleanly between two events, after the last text and before the finish_reason"
    ),
    "checkers.bugs.eof.where.before_done": "cleanly after the chunk with finish_reason, before the last event",
    "checkers.bugs.eof.where.before_blank_line": "after the last event's data line, before its blank line",
    "checkers.bugs.eof.where.inside_data_line": "inside the last event's data line",
    "checkers.bugs.eof.where.inside_json": "inside a JSON chunk",
    "checkers.bugs.eof.hint.whole": "even the whole, finished stream does not give the right text.",
    "checkers.bugs.eof.hint.default": "compare your text with consume(reads, 'openai-chat').final_text.",
    "checkers.bugs.eof.stopped": (
        "the stream stopped {where}, and your function {did} as if the answer were complete. Hint: a closed "
        "connection ends the loop whether or not the service finished; which signal does this service send "
        "as its very last word?"
    ),
    "checkers.bugs.eof.passed": "passed {summary}, and {n} streams that stop early.",
    "checkers.bugs.cleanup.path.closes_early": "the connection closes before the last event",
    "checkers.bugs.cleanup.path.invalid_utf8": "the stream carries invalid UTF-8",
    "checkers.bugs.cleanup.path.malformed_json": "a chunk is not valid JSON",
    "checkers.bugs.cleanup.path.network_fails": "the network fails in the middle (ConnectionResetError)",
    "checkers.bugs.cleanup.hint.whole": "even the whole, finished stream does not give the right result.",
    "checkers.bugs.cleanup.hint.default": (
        "compare what your function returns, and how often it closes the response, with the truth."
    ),
    "checkers.bugs.cleanup.hint.close_once": (
        "close the response in one place only, a place that runs on every path, this one included."
    ),
    "checkers.bugs.cleanup.closed_times": (
        "the response was closed {closes} times; it must be closed exactly once"
    ),
    "checkers.bugs.cleanup.did_not_raise": (
        "when {case}, your function {did}. Hint: a broken stream must raise, so that the caller cannot "
        "mistake it for an answer."
    ),
    "checkers.bugs.cleanup.never_closed": (
        "when {case}, your function raised {error} and never closed the response. Hint: when an exception "
        "leaves your function, from the parser, from json or from the network, which of your lines still run?"
    ),
    "checkers.bugs.cleanup.closed_often": "when {case}, the response was closed {closes} times. Hint: {hint}",
    "checkers.bugs.cleanup.passed": "passed {summary} (closed once each time), and {n} failure paths.",
    "checkers.bugs.bound.hint.default": (
        "every line of this stream is at most {bound} bytes long: none may be rejected."
    ),
    "checkers.bugs.bound.hint.whole": (
        "no line of this stream is longer than {bound} bytes (one is exactly {bound}). The bound is per "
        "line, not per read, and a line may be exactly as long as the bound."
    ),
    "checkers.bugs.bound.long_line": (
        "a complete line of {size} bytes arrived in one read (bound: {bound}), and your function {did}. "
        "Hint: every line must be measured, the complete ones too."
    ),
    "checkers.bugs.bound.endless_returned": (
        "a line that never ends arrived in {read_size}-byte reads, and your function returned normally only "
        "after pulling {pulled} bytes from the source (a bound of {bound} bytes per line allows at most "
        "{allowed} here). Hint: the danger is the line that is still unfinished; when do you look at its size?"
    ),
    "checkers.bugs.bound.endless_raised": (
        "a line that never ends arrived in {read_size}-byte reads, and your function raised only after "
        "pulling {pulled} bytes from the source (a bound of {bound} bytes per line allows at most {allowed} "
        "here). Hint: the danger is the line that is still unfinished; when do you look at its size?"
    ),
    "checkers.bugs.bound.passed": (
        "passed {summary}, each record out as soon as its LF arrived, a line one byte too long, and a line "
        "that never ends."
    ),
    # -- checkers_stream: when the output of bugs 1, 2, 3 and 6 comes out ---------------------------------
    "checkers.stream.returned": (
        "{name} returned a finished {kind}: everything came out after the last read, though the stream came "
        "in several"
    ),
    "checkers.stream.late.decode": (
        "character {index} ({unit}) came out after {taken} reads, though the bytes of it were all there after "
        "read {due}"
    ),
    "checkers.stream.late.splitlines": (
        "line {index} ({unit}) came out after {taken} reads, though its ending arrived in read {due}"
    ),
    "checkers.stream.late.blank_line": (
        "value {index} ({unit}) came out after {taken} reads, though its event's blank line arrived in read "
        "{due}"
    ),
    "checkers.stream.late.bound": (
        "record {index} ({unit}) came out after {taken} reads, though its LF arrived in read {due}"
    ),
    "checkers.stream.hint.late.decode": (
        "a chat UI that waits for every read shows nothing until the answer is over, and one that waits for "
        "the next read shows everything a read late. Once a read has brought the last byte of a character, "
        "what keeps that character from leaving now?"
    ),
    "checkers.stream.hint.late.splitlines": (
        "a client that waits for every read sees no line until the answer is over, and one that waits for "
        "the next read shows each line a read late. When can a line leave?"
    ),
    "checkers.stream.hint.late.blank_line": (
        "a client that waits for every read shows no event until the answer is over, and one that waits for "
        "the next read shows each event a read late. When can an event's value leave?"
    ),
    "checkers.stream.hint.late.bound": (
        "a client that waits for every read shows no record until the stream is over, and one that waits for "
        "the next read shows each record a read late. When can a record leave?"
    ),
    # -- checkers_values: bug hunt 7, tool-call arguments ------------------------------------------------
    "checkers.values.where.length": (
        "at the token limit: finish_reason 'length' came after the last fragment, and data: [DONE] followed"
    ),
    "checkers.values.where.before_done": "after every fragment and the finish_reason, before data: [DONE]",
    "checkers.values.where.before_finish": "after every fragment, before the finish_reason",
    "checkers.values.where.after_number": "between two fragments, after a number that is valid JSON on its own",
    "checkers.values.where.inside_data_line": "inside the data line of a fragment",
    "checkers.values.hint.whole": (
        "even the whole, finished stream does not give the right calls. What is one fragment of the "
        "arguments: a JSON value, or a piece of JSON text?"
    ),
    "checkers.values.hint.default": "compare your calls with consume(reads, 'openai-chat').tool_calls.",
    "checkers.values.length_taken_as_whole": (
        "the service stopped {where}, and your function {did} as if the calls were whole. Hint: [DONE] only "
        "says the stream ended; what does finish_reason 'length' say about the arguments that came before it?"
    ),
    "checkers.values.open_taken_as_whole": (
        "the stream stopped {where}, and your function {did} as if the calls were whole. Hint: in Chat "
        "Completions nothing closes one call; what closes them all?"
    ),
    "checkers.values.passed": "passed {summary}, and {n} streams that never close their calls.",
    # -- checkers_async: bug hunt 8 and 9, aclosing and the heartbeat clock ------------------------------
    "checkers.async.not_async": "first_words must be an async function (async def), so that it can be awaited",
    "checkers.async.your_function": "your function {did}",
    "checkers.async.still_open": "the response was still open when your function returned",
    "checkers.async.closed_times": "the response was closed {closes} times; it must be closed exactly once",
    "checkers.async.hint.left_open": (
        "you left the async for early. Which code closes the response, and when does Python run an async "
        "generator's cleanup if nobody closes it?"
    ),
    "checkers.async.hint.close_once": "close the response in one place only.",
    "checkers.async.hint.text": "compare the text you return with the first characters of the answer.",
    "checkers.async.timeline.hangs_behind_pings": "a generation that hangs behind pings",
    "checkers.async.timeline.pings_between_deltas": "pings between deltas that keep coming",
    "checkers.async.timeline.silent_gap": "a silent gap longer than the limit",
    "checkers.async.timeline.delta_at_the_limit": "a delta that arrives exactly at the limit",
    "checkers.async.timeline.nothing_at_all": "nothing at all",
    "checkers.async.timeline.pings_then_answer": "pings first, then the answer in time",
    "checkers.async.timeline_raised": "for {case}, your function {did}.",
    "checkers.async.hint.kept_progressing": (
        "this stream kept progressing: which events moved your clock, and which should?"
    ),
    "checkers.async.hint.at_the_limit": (
        "the delta came at the very moment the limit was reached. Was the limit still running?"
    ),
    "checkers.async.hint.reset_by_pings": (
        "this stream stopped progressing while events still arrived, and your clock kept being reset. Does a "
        "ping carry any of the answer?"
    ),
    "checkers.async.hint.from_last_progress": (
        "measure from the last event that carried progress, not from an earlier one."
    ),
    "checkers.async.not_no_timeout": "for {case}, your function returned {got}, not no timeout. Hint: {hint}",
    "checkers.async.not_the_timeout": (
        "for {case}, your function returned {got}, not a timeout at {at:g} s. Hint: {hint}"
    ),
    "checkers.async.passed_timelines": "passed {n} timelines, with and without heartbeats.",
    # -- checkers_relay: bug hunt 10, a gateway that splits each read on its own -------------------------
    "checkers.relay.hint.whole": (
        "even with the whole stream in one read, the frames differ. What does one upstream event become, and "
        "what happens to the keep-alive comment?"
    ),
    "checkers.relay.hint.character": "a read ended inside a character. Which bytes must wait for the next read?",
    "checkers.relay.hint.line": (
        "a read ended inside a data line. Can that half line be an event yet, and where does it wait for the "
        "rest?"
    ),
    "checkers.relay.hint.in_event": "a read ended between a data line and its blank line. When does an event exist?",
    "checkers.relay.hint.default": "compare your frames with parse_sse on the same reads, one frame per event.",
    "checkers.relay.cut_inside_event": (
        "the upstream stopped inside its next-to-last event: {mismatch}. Hint: what the upstream left "
        "half-done is not an event, and a gateway that forwards it forwards a broken one."
    ),
    # -- checkers_build: build it yourself (a line splitter, an event assembler, both) ------------------
    "checkers.build.splitter_case.lf": "LF endings",
    "checkers.build.splitter_case.cr": "CR endings",
    "checkers.build.splitter_case.crlf": "CRLF endings",
    "checkers.build.splitter_case.cr_then_crlf": "a CR and then a CRLF (two line endings)",
    "checkers.build.splitter_case.blank_lines": "blank lines",
    "checkers.build.splitter_case.not_endings": (
        "U+2028, U+0085, FF, VT and U+001C inside a line (data, not endings)"
    ),
    "checkers.build.splitter_case.chinese_and_emoji": "Chinese and emoji",
    "checkers.build.assembler_case.one_event": "one event",
    "checkers.build.assembler_case.two_data_lines": "two data lines in one event",
    "checkers.build.assembler_case.comment": "a comment line",
    "checkers.build.assembler_case.no_colon": "a field with no colon",
    "checkers.build.assembler_case.one_space": "one space after the colon is removed, and only one",
    "checkers.build.assembler_case.colon_in_value": "a colon inside the value",
    "checkers.build.assembler_case.type_lasts_one_event": "an event type lasts for one event",
    "checkers.build.assembler_case.blank_without_data": "a blank line with no data dispatches nothing",
    "checkers.build.assembler_case.id_lasts": "an id lasts across events",
    "checkers.build.assembler_case.empty_id_resets": "an empty id resets it",
    "checkers.build.assembler_case.id_with_nul": "an id containing U+0000 is ignored",
    "checkers.build.assembler_case.id_without_data": "an id before a blank line with no data still counts",
    "checkers.build.assembler_case.retry_and_unknown": "retry and unknown fields are not data",
    "checkers.build.assembler_case.case_sensitive": "field names are case-sensitive",
    "checkers.build.assembler_case.ends_before_blank_line": "the stream ends before the blank line",
    "checkers.build.shape.feed_lines": "feed() returned {got}; it must return a list of lines",
    "checkers.build.shape.close_list": "close() returned {got}; it must return a list (empty here)",
    "checkers.build.shape.events_list": "{method} returned {got}; it must return a list of events",
    "checkers.build.shape.not_event": (
        "{method} returned {got} in its list; events are Event(type, data, last_event_id)"
    ),
    "checkers.build.shape.splitter_feed": "the line splitter's feed() returned {got}; it must return a list",
    "checkers.build.your_code": "your code {did}",
    "checkers.build.output_lines.differ": "the lines differ {difference}",
    "checkers.build.output_events.differ": "the events differ {difference}",
    "checkers.build.feed_number": "feed() number {number}",
    "checkers.build.close_call": "close()",
    "checkers.build.output_lines.timing": (
        "the lines are right, but line {index} ({item}) came out of {came} instead of {due}"
    ),
    "checkers.build.output_events.timing": (
        "the events are right, but event {index} ({item}) came out of {came} instead of {due}"
    ),
    "checkers.build.splitter_hint.whole": "even in one feed the lines differ: only CR, LF and CRLF end a line.",
    "checkers.build.splitter_hint.crlf": (
        "a read ended between a CR and its LF. A CRLF cut in two is still one line ending: what must survive "
        "from the end of one feed() to the start of the next?"
    ),
    "checkers.build.splitter_hint.line": (
        "a read ended inside a line. Where does the unfinished part wait for its ending?"
    ),
    "checkers.build.splitter_hint.empty": (
        "an empty read changed the result. An empty read carries nothing and must change nothing, not even "
        "what you remembered about the read before."
    ),
    "checkers.build.splitter_timing": (
        "each line must come out of the feed() that completes its ending. A CR completes a line at once, "
        "before anyone knows whether an LF follows."
    ),
    "checkers.build.pass_the_class": "pass the class itself, {name}, not {got}.",
    "checkers.build.reads.one_character": "with one-character reads",
    "checkers.build.reads.one_byte": "with one-byte reads",
    "checkers.build.in_one_feed": "{text} in one feed",
    "checkers.build.in_one_read": "{text} in one read",
    "checkers.build.close_unfinished": (
        "after feed('a\\nunfinished'), close() {did} instead of raising. Hint: the input ended inside a "
        "line; an unfinished line is not a line, and close() is where you can say so."
    ),
    "checkers.build.close_after_cr": (
        "after feed('a\\r'), close() {did}; it should return []. Hint: a CR on its own is a whole line "
        "ending, so nothing is left unfinished."
    ),
    "checkers.build.passed": "passed {cases} named cases and {summary}.",
    "checkers.build.case": "in the case '{case}', {what}: {mismatch}.",
    "checkers.build.case_timing": "in the case '{case}', {what}: {mismatch}. Hint: {hint}",
    "checkers.build.output_lines.not_streaming": (
        "not streaming: {reads}, nothing came out of feed() until the input ended, then all the lines at "
        "once. Collecting all the input and processing it once at the end gives the right lines, but it is "
        "not streaming: a reader sees nothing until the stream is over (a chat window stays blank, then "
        "fills at once), and memory grows with the whole stream. Hint: each of the lines must come out of "
        "the feed() that completes it; what must you keep between feeds, and what can you give out now?"
    ),
    "checkers.build.output_events.not_streaming": (
        "not streaming: {reads}, nothing came out of feed() until the input ended, then all the events at "
        "once. Collecting all the input and processing it once at the end gives the right events, but it is "
        "not streaming: a reader sees nothing until the stream is over (a chat window stays blank, then "
        "fills at once), and memory grows with the whole stream. Hint: each of the events must come out of "
        "the feed() that completes it; what must you keep between feeds, and what can you give out now?"
    ),
    "checkers.build.hint.default": (
        "compare what your code keeps between feed() calls with what lesson_lib keeps."
    ),
    "checkers.build.assembler_hint.whole": (
        "even in one read the events differ: go through the rules above one at a time."
    ),
    "checkers.build.assembler_hint.inside_event": (
        "a read ended inside an event, so its lines arrived in different feed() calls. The fields of the "
        "event so far must survive from one feed() to the next."
    ),
    "checkers.build.assembler_hint.in_event": (
        "a read ended between two lines of one event. The fields of the event so far must survive from one "
        "feed() to the next."
    ),
    "checkers.build.assembler_hint.between_events": (
        "a read ended between two events. What does your assembler keep from one event to the next, and "
        "what must it forget?"
    ),
    "checkers.build.assembler_hint.empty": (
        "an empty read (so feed([])) changed the events. An empty list of lines must change nothing."
    ),
    "checkers.build.assembler_timing": (
        "an event must come out of the feed() that delivers its blank line, not later."
    ),
    "checkers.build.pass_the_classes": "pass the classes themselves; {name} is {got}.",
    "checkers.build.either_class": "{first} or {second}",
    "checkers.build.pipeline_passed": (
        "your splitter and assembler, behind lesson_lib's decoder, give ReferenceSSEParser's events feed by feed in "
        "{summary}: together they are an SSE parser."
    ),
    # -- new in issue 22: checks that cannot be fooled ------------------------------------------------------
    "checkers.bugs.wrong_signature": (
        "the checker calls {name}({call}), as the exercise says, but your function's signature is {got}. "
        "Hint: keep the parameters the exercise gives."
    ),
    "checkers.bugs.cleanup.path.cancelled": (
        "the read is cancelled in the middle (a BaseException that is not an Exception, as KeyboardInterrupt "
        "or asyncio.CancelledError)"
    ),
    "checkers.bugs.blank_line.case.lines_run_together": "an event with the data lines '1' and '2'",
    "checkers.bugs.blank_line.case.words_run_together": "an event with the data lines 'tr' and 'ue'",
    "checkers.bugs.blank_line.case.wide_space_at_end": "a data line that ends with U+3000 (an ideographic space)",
    "checkers.bugs.blank_line.case.no_break_space_first": "a data line that starts with U+00A0 (a no-break space)",
    "checkers.bugs.blank_line.case.no_space_no_colon": "data lines with no space after the colon, and one with no colon",
    "checkers.bugs.blank_line.hint.lines_run_together": (
        "two data lines of one event became one number. Is that what the data of this event says?"
    ),
    "checkers.bugs.blank_line.hint.words_run_together": (
        "two data lines of one event became one JSON word. Is that what the data of this event says?"
    ),
    "checkers.bugs.blank_line.hint.wide_space_at_end": (
        "a character that is not JSON whitespace went missing before parsing. Which characters of a data "
        "line does the standard remove, and which does it keep?"
    ),
    "checkers.bugs.blank_line.hint.no_break_space_first": (
        "a character that is not JSON whitespace went missing before parsing. Which characters of a data "
        "line does the standard remove, and which does it keep?"
    ),
    "checkers.bugs.blank_line.hint.no_space_no_colon": (
        "a data line written without a space, or without a colon, counts too."
    ),
    "checkers.bugs.blank_line.not_json": (
        "for {case}, your function {did}, but this event's data is not one JSON value, so parsing it must "
        "fail. Hint: {hint}"
    ),
    "checkers.bugs.blank_line.rule_case": "for {case}: {mismatch}.",
    "checkers.bugs.blank_line.passed_rules": (
        "passed {summary}, each value out as soon as its blank line arrived, a stream cut before its last "
        "blank line, and {n} events where the data rules show."
    ),
    "checkers.async.closed_later": (
        "the response was closed once before your function returned, and {closes} times in all once the event "
        "loop had shut down"
    ),
    "checkers.async.read_too_much": (
        "your function took {reads} reads although the first {n} characters had arrived after read {needed}"
    ),
    "checkers.async.hint.closed_later": (
        "something you left open closed the response a second time later. What did you close, and what did "
        "you leave suspended?"
    ),
    "checkers.async.hint.read_too_much": (
        "a preview that reads the whole answer before returning keeps the connection busy for nothing. When "
        "can your function stop reading?"
    ),
    "checkers.async.path.cancelled": "the task is cancelled while it waits for a read",
    "checkers.async.path.failed": "a read fails with a network error (ConnectionResetError)",
    "checkers.async.swallowed": (
        "when {case}, your function returned {got} instead of letting the cancellation go on. Hint: code that "
        "cancelled a task waits for it to end cancelled; who asked for the text now?"
    ),
    "checkers.async.error_hidden": (
        "when {case}, your function {did}. Hint: a broken stream must raise, so that the caller cannot mistake "
        "it for an answer."
    ),
    "checkers.async.path_closes": "when {case}, the response was closed {closes} times. Hint: {hint}",
    "checkers.async.passed_paths": (
        "passed {summary} (closed once before returning, never again later, without reading past the first "
        "characters), a cancelled task and a network error."
    ),
    "checkers.async.not_seconds": (
        "for {case}, your function returned {got} (a {kind}); it must return a number of seconds, or None."
    ),
    "checkers.async.hint.clock_not_consulted": (
        "after the last progress only heartbeats came, and the limit ran out while they were arriving. When "
        "does your function look at the clock?"
    ),
    "checkers.async.timeline.ends_in_pings": "a generation that hangs and the stream goes on with pings only",
    "checkers.async.timeline.pings_only": "pings only, from the first second",
    "checkers.relay.returned_collection": (
        "relay_events returned a finished {kind}: every frame came out after the last read of the upstream"
    ),
    "checkers.relay.not_frames": "relay_events returned {got}, not frames one after another",
    "checkers.relay.late": (
        "frame {index} ({frame}) came out after {taken} reads, though its event was complete after read {due}"
    ),
    "checkers.relay.hint.late": (
        "a gateway that waits for the whole upstream, or for the next read, makes the client wait for it too. "
        "When can a frame leave?"
    ),
    "checkers.relay.passed_streaming": (
        "passed {summary}, each frame out as soon as its event was whole, and an upstream cut inside an event."
    ),
    "checkers.build.assembler_case.id_after_data": "an id after the data line",
    "checkers.build.assembler_case.event_after_data": "an event type after the data line",
    "checkers.build.assembler_case.fields_between_data": "id, retry, a comment and event between two data lines",
    "checkers.build.assembler_case.spaces_kept": "spaces and a tab that are part of the value",
    "checkers.build.assembler_case.empty_data_lines": "empty data lines, with and without a colon",
    "checkers.build.passed_linear": (
        "passed {cases} named cases and {summary}, with a cost that stays linear on a long line fed in small "
        "pieces."
    ),
    "checkers.build.cost_wrong": (
        "a line of {n} characters fed one character at a time, then in 7-character pieces: {did}."
    ),
    "checkers.build.cost_quadratic": (
        "a line of {n} characters, fed one character at a time and then in 7-character pieces ({size} "
        "characters in all), made your class touch {touched} characters: about {ratio} for each one fed, and "
        "the longer the line, the more per character. Hint: does each feed() go over the whole unfinished line "
        "again?"
    ),
    "checkers.async.hint.late_by_an_event": (
        "your moment is when the next event arrived; the limit had run out before it. When exactly?"
    ),
    "checkers.values.not_calls": "tool_calls returned {got}, not (name, arguments) pairs one after another",
    "checkers.values.not_a_pair": "tool_calls gave {got}, which is not a (name, arguments) pair",
    "checkers.build.missing_method": "{name} has no {method}(): the checker calls {name}(), feed() and close().",
    "checkers.build.wrong_method": (
        "the checker calls {call}, as the exercise says, but its signature is {got}. Hint: keep the parameters "
        "the exercise gives."
    ),
    "checkers.build.assembler_case.not_line_endings": "U+2028, U+0085, FF and VT inside a data line (not line endings)",
    "checkers.bugs.cleanup.never_closed_cancelled": (
        "when {case}, your function raised {error} and never closed the response. Hint: a cancellation is "
        "not an Exception; which of your lines run when it passes through?"
    ),
    # -- checkers_proxy: lesson 10's exercise, which setting broke the stream -----------------------------
    "checkers.proxy.case": "{kind}, {comments}; the upstream {plan} and {header}",
    "checkers.proxy.comments.kept": "with its comments",
    "checkers.proxy.comments.removed": "comments removed",
    "checkers.proxy.plan.completes": "completes",
    "checkers.proxy.plan.drops": "drops its connection after 700 bytes",
    "checkers.proxy.plan.pauses": "pauses 3 s after its 10th piece",
    "checkers.proxy.plan.pauses_before_first_token": "pauses 3 s after its first piece (a long time to first token)",
    "checkers.proxy.plan.pauses_then_drops": "pauses 3 s after its 10th piece, then drops its connection after 700 bytes",
    "checkers.proxy.header.no": "sends X-Accel-Buffering: no",
    "checkers.proxy.header.absent": "sends no X-Accel-Buffering",
    "checkers.proxy.where": "case {number} of {total} ({case})",
    "checkers.proxy.not_attempted": (
        "{what} still raises NotImplementedError: write your code in its place and run this cell again."
    ),
    "checkers.proxy.not_callable": "which_setting must be a function of (config, capture) that returns a str, got {got}",
    "checkers.proxy.raised": (
        "{where}: your function raised {error}. Hint: every case gives a str and a dict with the same keys; "
        "which of them did your code not expect?"
    ),
    "checkers.proxy.not_a_culprit": "{where}: your function returned {got}; it returns one of {names}",
    "checkers.proxy.wrong": "{where}: your function said '{got}' (wrong in {wrong} of {total} cases). Hint: {hint}",
    "checkers.proxy.passed": (
        "all {total} cases right: each configuration with its comments and without them, through nginx, Caddy "
        "and mitmproxy"
    ),
    "checkers.proxy.hint.comment": (
        "the same configuration without its comments got the right answer: a comment is not a directive. "
        "Which of your checks reads a comment line?"
    ),
    "checkers.proxy.hint.comments_only": (
        "the same configuration with its comments got the right answer, and here they are removed: your "
        "function found its answer in a comment. What do this configuration's directives say?"
    ),
    "checkers.proxy.hint.config_unread": (
        "another case has exactly this capture and a different configuration, and the two need different "
        "answers, yet your function gave both the same one. What in this configuration's directives tells "
        "the two apart?"
    ),
    "checkers.proxy.hint.buffering": (
        "in section 8's measurements, nginx's buffering alone (proxy_buffering on, its default) still passed "
        "small pieces on as they came; where it held a stream back, something else was there too. What else "
        "in this configuration or this capture explains what arrived?"
    ),
    "checkers.proxy.hint.gzip_compressed": (
        "the response was compressed; whether compression held it back depends on buffering, on what the "
        "upstream asked, and on whether that request reached the nginx that compresses and was obeyed there. "
        "How did it arrive, and what did the upstream do?"
    ),
    "checkers.proxy.hint.gzip_types_ignored": (
        "nginx compresses only where gzip is on, and then text/html always and other MIME types only when "
        "gzip_types lists them. Was this response compressed at all?"
    ),
    "checkers.proxy.hint.header_path": (
        "follow X-Accel-Buffering from the upstream to the client: did the upstream send it, how many nginx "
        "servers are in between, and what do the directives of each one do with it? Then compare with how the "
        "answer arrived."
    ),
    "checkers.proxy.hint.timeout_check": (
        "compare the upstream's longest silence with how long this proxy waits between two reads (its "
        "default when the configuration does not set it): was there a silence longer than that?"
    ),
    "checkers.proxy.hint.drop_check": (
        "before blaming the upstream, read what it did (the capture's upstream part): did it close its "
        "connection, or did something between it and the client cut or hold the stream?"
    ),
    "checkers.proxy.hint.none_wrong": (
        "something did break this stream: compare what arrived (reads, encoding, how the transport ended, "
        "what the contract concluded; a clean end is not a finished answer) with what the upstream did, then "
        "with what each directive of this configuration does."
    ),
    "checkers.proxy.hint.not_nginx_caddy": (
        "this proxy is Caddy, and your answer names something of nginx's (one of its directives, or what "
        "nginx hops do with X-Accel-Buffering): a Caddyfile has no such directive, and Caddy passes the "
        "header on. Read what this Caddyfile sets, then compare what arrived with what the upstream did."
    ),
    "checkers.proxy.hint.not_nginx_mitmproxy": (
        "this proxy is mitmproxy, and your answer names something of nginx's (one of its directives, or what "
        "nginx hops do with X-Accel-Buffering): mitmproxy's options are its own, and it passes the header on. "
        "Which of its options does this configuration set, and what does mitmproxy do with a response when "
        "it is not set? Then compare what arrived with what the upstream did."
    ),
    "checkers.proxy.hint.mitmproxy_check": (
        "which proxy is this, and which of its options does this configuration set? Then compare how the "
        "answer arrived with what the upstream did."
    ),
}
