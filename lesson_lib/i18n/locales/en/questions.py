"""The check-your-understanding questions of lessons 00-10, in English: prompt, hint, targeted hints
(``hints.<name>``, for a likely wrong answer) and explanation of each (see lesson_lib.exercises)."""

STRINGS = {
    # 00.held_layer
    "questions.00.held_layer.prompt": "Which boundary's state is 'the 0-3 bytes of an unfinished character'? A) chunk; B) character; C) line; D) event; E) value; F) completion",
    "questions.00.held_layer.hint": "Which layer turns bytes into text, and what must it remember between reads?",
    "questions.00.held_layer.hints.A": "The chunk boundary carries no state: a read is just some bytes.",
    "questions.00.held_layer.explanation": "The character layer: the UTF-8 decoder holds the start of a character until the rest arrives.",
    # 00.closed_socket
    "questions.00.closed_socket.prompt": "True or False: a clean close of the connection does not show that the answer is complete.",
    "questions.00.closed_socket.hint": "Who decides that an answer is finished: the transport, or the service?",
    "questions.00.closed_socket.explanation": "True: only the service's own terminal signal says the answer is finished; a clean close can come at any point.",
    # 00.openai_done
    "questions.00.openai_done.prompt": "What does an OpenAI Chat Completions stream send as its very last data line? (the literal, without 'data: ')",
    "questions.00.openai_done.hint": "It is not JSON. Look at the last lines of data/openai-chat/completed.sse.",
    "questions.00.openai_done.hints.data_line": "That is the whole line, field name included. The question asks for what comes after the 'data: ' prefix: write only that.",
    "questions.00.openai_done.hints.DONE": "Close. Look at the exact bytes of the last data line in data/openai-chat/completed.sse: is the word alone, or are there characters around it?",
    "questions.00.openai_done.explanation": "The literal [DONE], exactly so: a client compares it byte for byte. It is the Chat Completions wire format's sentinel (OpenAI-compatible servers send it too); Anthropic, Gemini, Responses and Ollama end otherwise.",
    # 01.bytes
    "questions.01.bytes.prompt": "How many bytes does '你好🙂' take in UTF-8?",
    "questions.01.bytes.hint": "Count each character's bytes, not the characters: how many does len(c.encode()) give for each character c of the string?",
    "questions.01.bytes.hints.3": "3 is the number of characters. The network counts bytes.",
    "questions.01.bytes.explanation": "3 + 3 + 4 = 10 bytes for 3 characters: a read can end after any of them.",
    # 01.corrupting_cuts
    "questions.01.corrupting_cuts.prompt": "'café' is 5 bytes. Cutting it into two reads at byte 1, 2, 3 or 4: at which cuts does decoding each read on its own corrupt the text? Give a list of cut positions.",
    "questions.01.corrupting_cuts.hint": "Only a cut that falls inside a multi-byte character hurts. Which character of 'café' has more than one byte, and where are its bytes?",
    "questions.01.corrupting_cuts.hints.3": "Cut 3 is just before é: both of its bytes arrive together in the second read.",
    "questions.01.corrupting_cuts.explanation": "Only cut 4 falls inside é (bytes 3 and 4); every other cut is between characters.",
    # 01.held_max
    "questions.01.held_max.prompt": "At most how many bytes can an incremental UTF-8 decoder hold between two reads?",
    "questions.01.held_max.hint": "It holds only the start of a character that has not finished. How long is the longest unfinished start?",
    "questions.01.held_max.hints.4": "Once a character's fourth byte has arrived, is there anything left for the decoder to wait for? What does it do with a complete character?",
    "questions.01.held_max.explanation": "The longest UTF-8 character has 4 bytes, so an unfinished one has at most 3.",
    # 01.final
    "questions.01.final.prompt": "A stream's last bytes are F0 9F 99, the first three bytes of 🙂. Which exception does IncrementalUTF8Decoder().close() raise? (its class name)",
    "questions.01.final.hint": "close() is final=True: it is the one call that can tell an unfinished character from a finished stream. Try it in a cell.",
    "questions.01.final.explanation": "TruncatedCharacterError, a UnicodeDecodeError that names the offset of the unfinished character.",
    # 01.replace
    "questions.01.replace.prompt": "Why is errors='replace' on each read worse than an exception? A) it is slower; B) it cannot decode Chinese; C) it raises later; D) it turns a cut in the transport into silently wrong text",
    "questions.01.replace.hint": "Think about what the reader of the answer sees, and whether anyone is told that something went wrong.",
    "questions.01.replace.hints.B": "It decodes Chinese perfectly when a character arrives whole; the trouble is only at cuts.",
    "questions.01.replace.explanation": "A U+FFFD in the answer looks like data; nobody is told the bytes were fine and the client was wrong.",
    # 02.lines
    "questions.02.lines.prompt": "Under the SSE rules, how many complete lines does 'a\\r\\nb\\rc\\n\\nd' contain (the d has no line ending yet)?",
    "questions.02.lines.hint": "CRLF, a lone CR and a lone LF each end one line. Find every ending: what is before each one? And does the text after the last ending have one?",
    "questions.02.lines.hints.3": "Look between the two LFs of '\\n\\n': is there a line there, and does an empty line count?",
    "questions.02.lines.hints.5": "Which line endings did you count, and does every piece you counted end with one?",
    "questions.02.lines.explanation": "a, b, c and one empty line: 4. 'd' waits in the line buffer for its ending.",
    # 02.cr_lf_across
    "questions.02.cr_lf_across.prompt": "A read ends with CR and the next read starts with LF. How many line endings is that?",
    "questions.02.cr_lf_across.hint": "What would it be if both bytes had arrived in the same read? The reads must not change the answer.",
    "questions.02.cr_lf_across.hints.2": "If there were two endings, what would sit between them, and what does that do in SSE? Would the same two bytes, arriving together, give that?",
    "questions.02.cr_lf_across.explanation": "One: the CR ends the line at once, and the LF that follows it is part of the same ending.",
    # 02.splitlines
    "questions.02.splitlines.prompt": "Which characters does str.splitlines() treat as line breaks although SSE and JSON treat them as data? A) LF; B) U+0085 (NEL); C) U+2028; D) CR. Give a list of letters.",
    "questions.02.splitlines.hint": "Put each option's character between two letters and split the string with str.splitlines() in a cell; then compare with the line endings SSE knows.",
    "questions.02.splitlines.explanation": "NEL and U+2028 (and FF, VT, U+2029 ...) split under splitlines() but are ordinary characters inside an event.",
    # 02.pending
    "questions.02.pending.prompt": "After LineSplitter().feed('data: 你') and then .feed('好'), what is its pending_text?",
    "questions.02.pending.hint": "No line ending has arrived yet. What does the splitter do with text until one does?",
    "questions.02.pending.hints.empty": "Has anything been thrown away? Where does text that has no line ending yet go?",
    "questions.02.pending.explanation": "'data: 你好': the unfinished line waits, in pieces joined once, until its ending arrives.",
    # 03.events
    "questions.03.events.prompt": "How many events does parse_sse dispatch for 'data: a\\n\\ndata\\n\\n: ping\\n\\nevent: x\\n\\n'?",
    "questions.03.events.hint": "An event is dispatched on a blank line only if its data buffer is not empty. A field name with no colon is a field with an empty value.",
    "questions.03.events.hints.1": "Look at the second block, a bare 'data' line: which field is it, and what is in the data buffer when its blank line arrives?",
    "questions.03.events.hints.4": "Does every blank line dispatch? What is in the data buffer when the blank line after ': ping' arrives, and after 'event: x'?",
    "questions.03.events.explanation": "Two: 'a', and '' from the bare 'data' line. The comment block and the event with only a type have no data.",
    # 03.space
    "questions.03.space.prompt": "What is the data of the event 'data:  x' followed by a blank line (two spaces after the colon)? A) 'x'; B) ' x' (one space); C) '  x' (two spaces)",
    "questions.03.space.hint": "Read the field rule in WHATWG 'Interpreting an event stream': what, exactly, may be removed from the value after the colon? Or ask parse_sse([b'data:  x\\n\\n']) in a cell.",
    "questions.03.space.hints.A": "The rule does not strip leading whitespace in general. Read it again: what, exactly, does it remove?",
    "questions.03.space.hints.C": "The value is not kept as it is: the rule removes something from its start. What, and how much?",
    "questions.03.space.explanation": "Exactly one space is removed, so one remains.",
    # 03.id
    "questions.03.id.prompt": "After 'id: 7\\ndata: a\\n\\nid\\ndata: b\\n\\n', what is the parser's last_event_id? A) '' (empty); B) None; C) '7'",
    "questions.03.id.hint": "Take the second event line by line: a line without a colon is a field too. Which field, with what value, and what does the id field do with the value it gets?",
    "questions.03.id.hints.C": "The first event set it to '7'. Look at the second event's first line: which field is it, and what value does it carry?",
    "questions.03.id.hints.B": "last_event_id is a string from the start, never None. What string does the second event leave?",
    "questions.03.id.explanation": "An empty id resets the last event ID: a reconnecting client would send no Last-Event-ID.",
    # 03.json_when
    "questions.03.json_when.prompt": "When may a client call json.loads on the data of an SSE stream? A) on each data line; B) on each read; C) when the blank line dispatches the event",
    "questions.03.json_when.hint": "Can one JSON value span several data lines? Several reads? At which moment is it sure to be whole?",
    "questions.03.json_when.explanation": "Only the dispatched event holds the whole value; a data line or a read may hold part of it.",
    # 03.framing
    "questions.03.framing.prompt": "Which framing does Ollama's /api/chat stream use? A) Server-Sent Events; B) NDJSON; C) one growing JSON array",
    "questions.03.framing.hint": "Look at its Content-Type, or at the capture in data/ollama.",
    "questions.03.framing.explanation": "application/x-ndjson: one JSON object per LF-terminated line.",
    # 04.done_owner
    "questions.04.done_owner.prompt": "Which service ends its stream with data: [DONE]? A) OpenAI Chat Completions; B) OpenAI Responses; C) Anthropic Messages; D) Gemini",
    "questions.04.done_owner.hint": "Look at the last event of each completed capture in section 2.",
    "questions.04.done_owner.hints.B": "Responses has its own terminal event type, and no [DONE].",
    "questions.04.done_owner.explanation": "Of these four, only Chat Completions (OpenAI-compatible servers copy its wire format). Responses ends with response.completed, Anthropic with message_stop, Gemini with a finishReason.",
    # 04.clean_eof
    "questions.04.clean_eof.prompt": "The body ends cleanly right after a complete event, but no terminal signal came. What outcome does consume() report? (one word)",
    "questions.04.clean_eof.hint": "The framing is whole; what is missing is the service saying it finished.",
    "questions.04.clean_eof.hints.completed": "Nothing in the bytes says the service finished: a closed socket is not a finished answer.",
    "questions.04.clean_eof.hints.incomplete": "incomplete needs the service's own terminal signal, with a cut reason. Here there is none.",
    "questions.04.clean_eof.explanation": "truncated, with truncated_at='completion': every unit was whole, and the service never said done.",
    # 04.length
    "questions.04.length.prompt": "The terminal signal arrives and the finish reason is 'length'. What outcome? (one word)",
    "questions.04.length.hint": "The service did say it stopped. Did it say the answer was whole?",
    "questions.04.length.hints.completed": "The service ended the stream, yes. What does a finish reason of 'length' say about the answer: did the model finish it, or did something stop it?",
    "questions.04.length.explanation": "incomplete: the service ended the stream, but the answer was cut at the token limit.",
    # 04.anthropic_terminal
    "questions.04.anthropic_terminal.prompt": "What is the type of Anthropic's terminal event? (its name)",
    "questions.04.anthropic_terminal.hint": "Look at the last event of data/anthropic-messages/completed.sse.",
    "questions.04.anthropic_terminal.hints.message_delta": "message_delta carries the stop_reason; one more event follows it.",
    "questions.04.anthropic_terminal.explanation": "message_stop, after the message_delta that carries stop_reason.",
    # 04.gemini_cut
    "questions.04.gemini_cut.prompt": "True or False: with a Gemini model that puts finishReason STOP on every chunk, a client can tell a stream cut exactly between two events from a finished one.",
    "questions.04.gemini_cut.hint": "Try it in section 7: what does the last complete event say, in both cases?",
    "questions.04.gemini_cut.explanation": "False: every event looks like the last one. The framing proves nothing more; only the JSON array form's closing ] would.",
    # 05.ping_progress
    "questions.05.ping_progress.prompt": "True or False: an Anthropic ping event moves the byte and event clocks, but not the business-progress clock.",
    "questions.05.ping_progress.hint": "What does a ping prove: that the connection is alive, or that the answer is advancing?",
    "questions.05.ping_progress.explanation": "True: a ping moves the byte and event clocks only. A stream that only pings is alive, not progressing.",
    # 05.which_clock
    "questions.05.which_clock.prompt": "A proxy trickles one byte a second and no event ever completes. With limits of 30 s (bytes), 60 s (events) and 120 s (progress), which trips first? A) byte_idle; B) event_idle; C) progress_idle",
    "questions.05.which_clock.hint": "Bytes keep arriving, so one clock keeps moving. Which two do not, and which of them has the smaller limit?",
    "questions.05.which_clock.hints.A": "A byte arrives every second: the byte clock never gets old.",
    "questions.05.which_clock.hints.C": "The progress clock is stuck, but is it the only one? Find every clock that stops moving, then compare their limits.",
    "questions.05.which_clock.explanation": "event_idle: bytes arrive, so the byte clock is fresh, but no event completes for 60 s.",
    # 05.limit
    "questions.05.limit.prompt": "A line exceeds max_line_chars. What does consume() do? A) cut the line at max_line_chars, mark the event as cut, and go on with the rest of the stream; B) drop the whole event that holds the line, count it in the stats, and go on; C) stop: outcome limit_exceeded, with the limit and the offset",
    "questions.05.limit.hint": "A limit that drops bytes and carries on turns a resource problem into silently wrong data.",
    "questions.05.limit.explanation": "It stops: limit_exceeded, which limit, where, and the source is closed. Nothing is dropped silently.",
    # 05.closes
    "questions.05.closes.prompt": "The caller breaks out of a stream_updates loop early and closes the generator. How many times is the chunk source closed?",
    "questions.05.closes.hint": "Follow this path: closing the generator raises GeneratorExit at its yield. Which code runs then, and does any other code close the source as well?",
    "questions.05.closes.hints.0": "Closing the generator raises GeneratorExit at its yield. Which block of the generator runs then, and what does it do with the source?",
    "questions.05.closes.hints.2": "Closing a source twice would be a bug of its own. Which code closes it, and can that code run twice on this path?",
    "questions.05.closes.explanation": "Exactly once, in the generator's finally, whatever the path.",
    # 06.replace_count
    "questions.06.replace_count.prompt": "A server sends 'data: 你好' cut one byte into 你: the first read ends with e4, the second starts with bd a0. A client decodes each read on its own with errors='replace'. How many U+FFFD characters does it produce?",
    "questions.06.replace_count.hint": "Count read by read: decode each read on its own with errors='replace' in a cell, or ask which invalid pieces each read holds. Python replaces each maximal invalid piece by one U+FFFD: can bytes that have lost their lead byte form one piece together?",
    "questions.06.replace_count.hints.1": "That counts the first read's lone lead byte. Now the second read: what do its first bytes become without the lead byte before them?",
    "questions.06.replace_count.hints.2": "Count again, read by read: decode the second read, b'\\xbd\\xa0', on its own with errors='replace' in a cell. What decides how many replacement characters a run of invalid bytes becomes?",
    "questions.06.replace_count.explanation": "3: one for e4 at the end of the first read, and one each for bd and a0 at the start of the second. One character became three wrong ones, and nobody was told.",
    # 06.sdk_truncated
    "questions.06.sdk_truncated.prompt": "Served whole, the capture openai-chat/truncated_clean_boundary ends cleanly at an event boundary in the middle of the answer; [DONE] never arrives. What does iterating the openai SDK's stream do? A) raises APIConnectionError; B) raises a JSON error; C) waits for [DONE] until a timeout; D) ends without an exception, with a shorter text",
    "questions.06.sdk_truncated.hint": "The HTTP body ended properly: nothing at the transport level went wrong. Does the SDK check for [DONE] at the end?",
    "questions.06.sdk_truncated.hints.A": "APIConnectionError is what a dropped connection gives (no terminating chunk). Here the body ended properly.",
    "questions.06.sdk_truncated.hints.C": "The server finished the body; there is nothing left to wait for.",
    "questions.06.sdk_truncated.explanation": "D: the SDK stops iterating at the end of the body and raises nothing. Only a check for the terminal signal, as consume() makes, says truncated.",
    # 06.heartbeat_inside
    "questions.06.heartbeat_inside.prompt": "A proxy injects the heartbeat ': ping' and its blank line inside one event, between its lines 'data: a' and 'data: b': the bytes are 'data: a\\n: ping\\n\\ndata: b\\n\\n'. How many events does a spec-conforming parser dispatch?",
    "questions.06.heartbeat_inside.hint": "The comment line itself is ignored. What does the blank line after it do to the event being built?",
    "questions.06.heartbeat_inside.hints.1": "The comment line is ignored. Is the blank line after it ignored too? What does a blank line do to the event built so far?",
    "questions.06.heartbeat_inside.explanation": "2: the blank line dispatches 'a' early and 'b' becomes an event of its own. That is why the replay server puts heartbeats only at event boundaries.",
    # 06.resume_without_ids
    "questions.06.resume_without_ids.prompt": "An OpenAI Chat Completions stream drops mid-answer. What can the client do? A) reconnect with Last-Event-ID and receive the rest; B) the SDK reconnects and resumes by itself; C) nothing resumes it: its events carry no id, and sending the request again starts a new answer, with its cost and side effects",
    "questions.06.resume_without_ids.hint": "Look at the capture's events: which field would a reconnecting client send back, and is it there?",
    "questions.06.resume_without_ids.hints.A": "Last-Event-ID needs events with id fields. Parse the capture and look at each event's last_event_id.",
    "questions.06.resume_without_ids.hints.B": "The SDKs do not reconnect a stream that broke after its 200; they end or raise.",
    "questions.06.resume_without_ids.explanation": "C: no id field, so no Last-Event-ID to send. A retry is a new request: report the truncation and decide, never stitch two answers together.",
    # 06.requests_crlf
    "questions.06.requests_crlf.prompt": "A server sends one event, 'data: 你好\\r\\ndata: 第二行\\r\\n\\r\\n', sent as two HTTP chunks, the first ending between the CR and the LF after 'data: 你好'. A client reads the body with requests' iter_lines() and takes each line it yields as one SSE line. How many events does it dispatch?",
    "questions.06.requests_crlf.hint": "iter_lines() splits each piece of iter_content on its own. Where do the pieces end here, and does it ever see the CR and the LF together?",
    "questions.06.requests_crlf.hints.1": "That is what a spec parser gives on these bytes, which sees the CR and the LF together. Does iter_lines()?",
    "questions.06.requests_crlf.explanation": "2: the first piece (the first HTTP chunk) ends with the CR, so iter_lines() yields 'data: 你好' as a finished line; the LF that starts the next piece is an empty line, which dispatches that line alone, and 'data: 第二行' becomes an event of its own. Give the bytes of iter_content(chunk_size=None) to lesson_lib instead.",
    # 07.splits
    "questions.07.splits.prompt": "How many two-piece splits does a 10-byte body have?",
    "questions.07.splits.hint": "A cut sits between two bytes, with at least one byte on each side.",
    "questions.07.splits.hints.10": "Where can a cut go? Does a cut at 0, or at 10, leave two pieces with bytes in them?",
    "questions.07.splits.hints.11": "Where can a cut go? Does a cut at 0, or at 10, leave two pieces with bytes in them?",
    "questions.07.splits.explanation": "9: cut after byte 1, 2, ..., 9.",
    # 07.every_boundary
    "questions.07.every_boundary.prompt": "Which chunking makes every byte boundary a read boundary at once? A) one whole read; B) a two-piece split; C) one-byte reads; D) a random partition",
    "questions.07.every_boundary.hint": "How many cuts does each chunking make?",
    "questions.07.every_boundary.explanation": "One-byte reads cut everywhere at once: the harshest single chunking.",
    # 07.reference
    "questions.07.reference.prompt": "What should the results of a chunked parse be compared with? A) the parse of the same bytes in one read; B) a hand-written expected list only; C) another library's output",
    "questions.07.reference.hint": "The property is 'the chunking does not matter'. What is the chunking-free answer?",
    "questions.07.reference.hints.C": "Other libraries differ from the spec in known ways; they are a second opinion, not the reference.",
    "questions.07.reference.explanation": "The unfragmented parse: any difference is caused by the cuts alone.",
    # 07.proof
    "questions.07.proof.prompt": "True or False: passing every two-piece split and one-byte reads proves the parser right for every chunking into three or more reads.",
    "questions.07.proof.hint": "Which combinations of cuts have these tests never tried?",
    "questions.07.proof.explanation": "False: they try each cut alone and all cuts at once, not every combination. Property tests sample more; none is a proof.",
    # 08.heartbeat_clock
    "questions.08.heartbeat_clock.prompt": "A generation hangs, but the server sends a ping comment every 5 s. The client set idle_timeout=30 and progress_timeout=60. Which clock runs out? A) progress_timeout; B) idle_timeout; C) neither: the stream waits forever",
    "questions.08.heartbeat_clock.hint": "Ask of each clock what moves it: does a ping carry any bytes, and does it carry any of the answer?",
    "questions.08.heartbeat_clock.hints.B": "Pings arrive every 5 s, and a ping is bytes: the idle clock is reset by each one.",
    "questions.08.heartbeat_clock.hints.C": "Limits are set so that some kind of hang ends. What kind of hang is each of these two limits for, and is this one of them?",
    "questions.08.heartbeat_clock.explanation": "progress_timeout: the pings are bytes, so the idle clock stays fresh, but no text or stage arrives, so after 60 s the progress clock runs out. Without it, the stream would hang behind its pings.",
    # 08.aclosing
    "questions.08.aclosing.prompt": "True or False: you break out of `async for update in updates:` (updates = astream_http_updates(...), kept in a variable, no aclosing), and the HTTP connection is closed at the break.",
    "questions.08.aclosing.hint": "A sync generator runs its finally when it is closed; who closes an async generator, and when can its cleanup (which awaits) run?",
    "questions.08.aclosing.explanation": "False: an async generator's cleanup must be awaited, so nothing runs it at the break. It happens when the object is dropped (the loop's asyncgen hooks schedule it) or at loop shutdown. `async with contextlib.aclosing(...)` closes it at the break.",
    # 08.cancel
    "questions.08.cancel.prompt": "The task awaiting aconsume(...) is cancelled mid-stream. What does the awaiting code see? A) a StreamResult with outcome cancelled, returned after the source was closed; B) CancelledError, after the source was closed; C) nothing: the cancellation is swallowed, and the stream is read to its end and closed",
    "questions.08.cancel.hint": "Task cancellation is how asyncio.timeout() and TaskGroup stop work. What would they do if the code they cancelled returned normally?",
    "questions.08.cancel.hints.A": "The outcome 'cancelled' is for the cancel= option. Task cancellation belongs to asyncio: what must a coroutine do with it?",
    "questions.08.cancel.hints.C": "A swallowed cancellation leaves asyncio.timeout() waiting for a task that pretends nothing happened.",
    "questions.08.cancel.explanation": "CancelledError, after the finally closed the source. An outcome 'cancelled' is for the cancel= option (a stop button); task cancellation must propagate, or timeouts and task groups break.",
    # 08.mcp_eof
    "questions.08.mcp_eof.prompt": "An MCP Streamable HTTP response stream (the 2025-11-25 revision) ends cleanly after an event with an id, before the JSON-RPC response arrived. What is it? A) completed: the body ended cleanly after a whole event, so the server is done; B) a lost answer: the request must be sent again from the start; C) truncated at completion, resumable with GET and Last-Event-ID",
    "questions.08.mcp_eof.hint": "Two questions: did the service say it was done, and did it give the client a way back in?",
    "questions.08.mcp_eof.hints.A": "A clean end of body is never the service's own 'done'. What would be, in MCP?",
    "questions.08.mcp_eof.hints.B": "Look at what the stream sent before it ended: an event id. What can a client do with one?",
    "questions.08.mcp_eof.explanation": "Truncated at completion, as every stream without its terminal signal; but in MCP the server may close early, and the event id lets the client resume. For an LLM API the same EOF is a lost answer.",
    # 08.resumable
    "questions.08.resumable.prompt": "Which of these can continue a dropped stream without sending the request again? A) OpenAI Responses started with background: true; B) OpenAI Chat Completions; C) Anthropic Messages; D) MCP Streamable HTTP in its 2025-11-25 revision, whose events carry ids",
    "questions.08.resumable.hint": "To continue you need a position the server understands: an SSE event id or a sequence number it can replay after. Which streams give you one, and keep the answer on the server?",
    "questions.08.resumable.explanation": "Responses in background mode (starting_after=N replays the events after sequence number N) and MCP in its 2025-11-25 revision (GET with Last-Event-ID; the 2026-07-28 revision removed it). Chat Completions and Messages carry no position: re-sending starts a new answer.",
    # 09.naive_fragments
    "questions.09.naive_fragments.prompt": "In the capture openai-chat/tools_parallel, call 0's arguments arrive in six fragments. How many of them does json.loads accept on its own?",
    "questions.09.naive_fragments.hint": "Look at where each fragment starts and ends: inside a key, a string, a number?",
    "questions.09.naive_fragments.hints.1": "Which one did you count? What does json.loads say when you run it on that fragment alone, in a cell?",
    "questions.09.naive_fragments.hints.6": "Try one of them: '{{\"ci' is the first.",
    "questions.09.naive_fragments.explanation": "Zero: every fragment is a piece of JSON text cut anywhere; only the joined text, once the call is closed, is a value.",
    # 09.done_missing
    "questions.09.done_missing.prompt": "True or False: in openai-chat/tools_truncated_before_done every fragment arrived and the finish reason said tool_calls, and still the calls are not complete.",
    "questions.09.done_missing.hint": "Which event is the last word of a Chat Completions stream, and did it arrive?",
    "questions.09.done_missing.explanation": "True: in Chat Completions nothing closes one call; the stream's own end ([DONE] after a whole-answer finish reason) closes them all. Without it, more could have come.",
    # 09.anthropic_close
    "questions.09.anthropic_close.prompt": "Which Anthropic event closes a tool_use call? A) message_stop; B) message_delta with stop_reason tool_use; C) the last input_json_delta; D) content_block_stop",
    "questions.09.anthropic_close.hint": "Calls live in content blocks. What ends one block, before the message ends?",
    "questions.09.anthropic_close.hints.A": "message_stop ends the message: by then the call was closed long before.",
    "questions.09.anthropic_close.hints.C": "How would the client know a delta was the last one, before something says so?",
    "questions.09.anthropic_close.explanation": "content_block_stop: the block, and with it the call, is whole. The message may still be cut after it, so the answer around the call is not final yet.",
    # 09.reasoning_where
    "questions.09.reasoning_where.prompt": "Where does lesson_lib put delta.reasoning_content (DeepSeek)? A) in text; B) in tool_calls; C) in reasoning_text; D) nowhere, it is dropped",
    "questions.09.reasoning_where.hint": "Reasoning is not the answer, and nothing received is dropped.",
    "questions.09.reasoning_where.hints.A": "Then a UI could not tell thinking from answering.",
    "questions.09.reasoning_where.hints.D": "lesson_lib drops nothing it reads.",
    "questions.09.reasoning_where.explanation": "reasoning_text: kept, and kept apart, so a UI can show it differently and never store it as the answer.",
    # 09.surrogate
    "questions.09.surrogate.prompt": "One fragment ends with \\ud83d and the next starts with \\ude80. What does the closed call's parsed value hold there? A) 🚀; B) two U+FFFD; C) nothing: the call has an error; D) two lone surrogates",
    "questions.09.surrogate.hint": "The escapes are JSON text: what does json.loads make of the two halves once they are side by side?",
    "questions.09.surrogate.hints.D": "That is what decoding each fragment on its own would give. Is each fragment decoded on its own here, or what happens to the fragments before json.loads sees them?",
    "questions.09.surrogate.hints.B": "Nothing is decoded per fragment, so nothing is replaced.",
    "questions.09.surrogate.explanation": "🚀: the fragments are joined as text first, so the pair is whole when the JSON is parsed.",
    # 10.eventsource
    "questions.10.eventsource.prompt": "Which one of these can a browser's EventSource do? A) send a POST body with the prompt; B) decode a character cut across two reads; C) send an Authorization header; D) tell a clean end of body from a finished answer",
    "questions.10.eventsource.hint": "Its constructor takes a URL and one option. What is left for it to do well?",
    "questions.10.eventsource.hints.A": "new EventSource(url, {{withCredentials}}) has nowhere to put a body, and it only sends GET.",
    "questions.10.eventsource.hints.C": "Only cookies (withCredentials) go with it; a page that needs a token header uses fetch.",
    "questions.10.eventsource.hints.D": "Only an event that says so can tell, the service's terminal event or the relay's outcome.",
    "questions.10.eventsource.explanation": "B: the HTML standard decodes an event stream as one stream, holding a cut character; but EventSource only sends GET without custom headers, and a clean end of body says nothing about the answer.",
    # 10.cancel
    "questions.10.cancel.prompt": "The browser tab closes while the correct relay is streaming. What closes the upstream connection? A) the upstream notices that nobody reads and stops sending, within a second; B) the garbage collector, once the request's objects are freed, closes the response; C) the upstream's idle timeout, after its usual wait; D) the relay, told by http.disconnect, cancels its task, which closes the upstream response",
    "questions.10.cancel.hint": "The upstream is still sending to the relay, and the relay is still reading: who has to stop first?",
    "questions.10.cancel.hints.A": "The relay is still reading from the upstream: the upstream sees a healthy reader.",
    "questions.10.cancel.hints.C": "The upstream is sending all the time, so its idle timeout never fires.",
    "questions.10.cancel.hints.B": "Nothing is garbage while the task still reads.",
    "questions.10.cancel.explanation": "D: the ASGI server tells the app that the client left; the relay cancels the pipeline's task, and the async reader closes the upstream response on cancellation, within a second.",
    # 10.invented
    "questions.10.invented.prompt": "The upstream dropped mid-answer; the invent-finish relay then sent finish_reason stop and [DONE]. What does consume() conclude from the relayed events? A) completed; B) truncated; C) incomplete; D) service_error",
    "questions.10.invented.hint": "consume() sees only the bytes it is given. Do those bytes show any sign of the drop?",
    "questions.10.invented.hints.B": "That is what happened upstream. consume() judges only the relayed bytes: look at how they end, and ask what it can tell from them.",
    "questions.10.invented.hints.C": "Which finish reason was sent, and does it mean a cut answer?",
    "questions.10.invented.explanation": "completed: the invented terminal is indistinguishable from a real one downstream. Only the gateway knew; a correct gateway says truncated, in its outcome event.",
    # 10.header_hop
    "questions.10.header_hop.prompt": "The upstream sends X-Accel-Buffering: no and 126 pieces of 40 bytes, 20 ms apart, through two nginx hops: the inner one honours the header, the outer one gzips text/event-stream. In how many reads does a client that accepts gzip get the answer?",
    "questions.10.header_hop.hint": "Which of the two nginx servers saw the header, and which of them compresses? Section 8's gzip rows, with the header and without it, show what the header changes.",
    "questions.10.header_hop.hints.2": "That counts the nginx servers, not the reads: in the committed matrix, lesson_lib's client crossed the same two hops and made several reads. So what sets how many reads a client that accepts gzip makes: the number of hops, or what the outer hop does to the stream?",
    "questions.10.header_hop.hints.126": "That is what the inner hop passes on. Did the outer hop get the header that would have made it flush each piece?",
    "questions.10.header_hop.explanation": "One: nginx honours X-Accel-Buffering and does not pass it on, so the outer hop never sees it, and its gzip holds the whole answer until the end (measured in section 8).",
    # 10.caddy_drop
    "questions.10.caddy_drop.prompt": "Behind Caddy 2.6 with its defaults, the upstream drops its connection in the middle of the answer. What does a client get? A) a transport error after the partial answer; B) a 502 with no text; C) the whole answer; D) a clean end of the body after the partial answer",
    "questions.10.caddy_drop.hint": "Section 8 measured it: compare the transport column of Caddy's drop with nginx's.",
    "questions.10.caddy_drop.hints.A": "That is what nginx's client gets. Caddy's was measured too: how did its body end?",
    "questions.10.caddy_drop.hints.B": "A 502 with nothing in it is mitmproxy's answer when it buffers the body. Caddy streams: what did the client already have, and how did it end?",
    "questions.10.caddy_drop.explanation": "D: Caddy ends the response cleanly after an aborted upstream, so only the contract (no [DONE], no finish reason) shows the answer was cut.",
    # 11.exit_status
    "questions.11.exit_status.prompt": "A saved body of an OpenAI chat stream ends right after the event whose finish_reason is \"stop\", before data: [DONE]: all of the answer's text is there. Which exit status does boundary-lab diagnose give for it? A) 0; B) 1; C) 2",
    "questions.11.exit_status.hint": "Can the command read this input as a stream? And if it can, do the bytes prove the answer whole?",
    "questions.11.exit_status.hints.A": "0 needs the bytes to prove where the answer ends. Which signal does the OpenAI chat contract take as that proof (lesson 04)?",
    "questions.11.exit_status.hints.C": "2 is for input that cannot be read as a stream (missing, empty, no body, no contract). This input has events.",
    "questions.11.exit_status.explanation": "B, 1: without data: [DONE] the outcome is truncated at the completion layer, finish_reason stop or not: the text may all be there, but the bytes do not prove it.",
    # 11.raw_reads
    "questions.11.raw_reads.prompt": "True or False: given a raw body saved with curl -N -o, the report says how many U+FFFD a naive client (one decode per read) showed.",
    "questions.11.raw_reads.hint": "What does a naive client's output depend on, and is it in a file of bytes alone?",
    "questions.11.raw_reads.explanation": "False: a raw body does not hold where the reads fell, and the naive view depends on them, so the report says the read boundaries are unknown rather than invent them. A curl --trace file holds them.",
    # 11.capture
    "questions.11.capture.prompt": "The HAR export of a stream that broke in the browser has an entry with no body (_failureText: net::ERR_INCOMPLETE_CHUNKED_ENCODING, size -1). What do you capture instead, to diagnose it? A) the same HAR, exported again with Preserve log on; B) the same request with curl -N --trace-time --trace FILE; C) a screenshot of the EventStream tab; D) the response's headers alone",
    "questions.11.capture.hint": "Which of these keeps the body's bytes and where the reads fell?",
    "questions.11.capture.hints.A": "Preserve log keeps entries across page loads; the broken entry still has no body.",
    "questions.11.capture.hints.C": "A picture of parsed events has neither the bytes nor the reads.",
    "questions.11.capture.hints.D": "The headers say what the body should be, not what arrived.",
    "questions.11.capture.explanation": "B: a curl trace keeps each read as it arrived, the headers, the times with --trace-time, and how the transfer ended.",
    # 11.guarded_length
    "questions.11.guarded_length.prompt": "An OpenAI SDK client with http_client=lesson_lib.guard.Client streams an answer that ends with finish_reason \"length\", then data: [DONE]. What does the loop over the stream get? A) the text, as the SDK alone returns it; B) UnprovenStreamError whose outcome is incomplete; C) openai.APIError; D) the guard sends the request again",
    "questions.11.guarded_length.hint": "The stream is whole. Is the answer? Which results does the guard let through?",
    "questions.11.guarded_length.hints.A": "The guard lets through only answers whose result is final (is_final). Is an answer cut by its token budget final?",
    "questions.11.guarded_length.hints.C": "The service sent no error: the SDK has nothing to raise.",
    "questions.11.guarded_length.hints.D": "The guard never sends a request of its own.",
    "questions.11.guarded_length.explanation": "B: a length-cut answer is incomplete, not final, so the guard raises; catch it and read exc.outcome if a partial answer is still useful.",
    # 12.sdk_after_finish
    "questions.12.sdk_after_finish.prompt": "The openai SDK's usual loop (join delta.content until the stream ends) reads a body cut cleanly right after the chunk whose finish_reason is \"stop\", before data: [DONE]. What does the loop give its user? A) all the text, and no exception; B) openai.APIError; C) UnicodeDecodeError; D) an empty string",
    "questions.12.sdk_after_finish.hint": "Where does the body end: inside a character, inside an event, or between two events? And what did the service send about an error?",
    "questions.12.sdk_after_finish.hints.B": "The service sent no error chunk and no error status: what would the SDK make an APIError of?",
    "questions.12.sdk_after_finish.hints.C": "The body ends between two events, after whole characters: what is there to decode wrongly?",
    "questions.12.sdk_after_finish.hints.D": "The text chunks arrived before the cut. What happens to the ones the loop already joined?",
    "questions.12.sdk_after_finish.explanation": "A: the SDK stops at the end of the body without a word, and its user cannot tell the text from a whole answer. The server grades that completed as wrong: only data: [DONE] proves this answer whole (lesson 04).",
    # 12.verdict_without_text
    "questions.12.verdict_without_text.prompt": "True or False: a verdict posted with the expected outcome and no \"text\" field is graded right.",
    "questions.12.verdict_without_text.hint": "What does the server compare when a client leaves the text out?",
    "questions.12.verdict_without_text.explanation": "True: the text is optional; without it only the outcome is graded. With it, the text must be the expected text exactly.",
    # 12.stall
    "questions.12.stall.prompt": "A fault's answer stops for longer than your client's idle timeout, then goes on and completes. Which verdicts does the server grade right? A) completed with the whole text, only; B) timed_out with the text so far, only; C) either of them; D) neither: truncated is expected",
    "questions.12.stall.hint": "Think of two correct clients: one with an idle timeout shorter than the stall, one without. What does each see?",
    "questions.12.stall.hints.A": "A client whose idle timeout is shorter than the stall gives up before the answer moves again. Has it concluded something false?",
    "questions.12.stall.hints.B": "A client without an idle timeout waits, and every byte arrives, the terminal signal too. Is its verdict false?",
    "questions.12.stall.hints.D": "Did the server end the body early? The answer goes on after the stall.",
    "questions.12.stall.explanation": "C: the bytes prove the answer whole (completed), and a client that stopped waiting is right to say timed_out with the text it had: the entry lists timed_out in also.",
    # 12.other_language
    "questions.12.other_language.prompt": "A Go client has read a fault's stream. How does it tell the fault server its verdict? A) it cannot: only Python functions that score() runs are graded; B) POST /faults/<name>/verdict with JSON {{client, outcome, text}}; C) it prints the verdict, and boundary-lab faults reads its output; D) GET /scoreboard?verdict=...",
    "questions.12.other_language.hint": "The server speaks HTTP and does not run your client. Which route takes a verdict?",
    "questions.12.other_language.hints.A": "score() is one way to run a client; the server grades whatever it is sent over HTTP.",
    "questions.12.other_language.hints.C": "The server never starts your program: it serves bytes and takes verdicts.",
    "questions.12.other_language.hints.D": "The scoreboard is for reading the tallies; a verdict is sent to the fault's own route.",
    "questions.12.other_language.explanation": "B: any language can POST JSON; the answer says whether it is right and what was expected, and GET /scoreboard tallies the verdicts by client name.",
}
