"""Lesson 08's check-your-understanding questions."""

from . import register

register(
    "08.heartbeat_clock",
    "A generation hangs, but the server sends a ping comment every 5 s. The client set idle_timeout=30 and progress_timeout=60. Which clock runs out? A) idle_timeout; B) progress_timeout; C) neither: the stream waits forever",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Ask of each clock what moves it: does a ping carry any bytes, and does it carry any of the answer?",
    explanation="progress_timeout: the pings are bytes, so the idle clock stays fresh, but no text or stage "
    "arrives, so after 60 s the progress clock runs out. Without it, the stream would hang behind its pings.",
    hints={
        "A": "Pings arrive every 5 s, and a ping is bytes: the idle clock is reset by each one.",
        "C": "Take each clock in turn: what resets it, and does a ping do that? A clock that nothing resets, "
        "what does it do at its limit?",
    },
    aliases={
        "A": ("idle", "idle clock", "bytes clock"),
        "B": ("progress", "progress clock"),
        "C": ("neither", "forever", "none"),
    },
)
register(
    "08.aclosing",
    "True or False: you break out of `async for update in updates:` (updates = astream_http_updates(...), kept in a variable, no aclosing), and the HTTP connection is closed at the break.",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
    hint="A sync generator runs its finally when it is closed; who closes an async generator, and when can "
    "its cleanup (which awaits) run?",
    explanation="False: an async generator's cleanup must be awaited, so nothing runs it at the break. It "
    "happens when the object is dropped (the loop's asyncgen hooks schedule it) or at loop shutdown. "
    "`async with contextlib.aclosing(...)` closes it at the break.",
)
register(
    "08.cancel",
    "The task awaiting aconsume(...) is cancelled mid-stream. What does the awaiting code see? A) a StreamResult with outcome cancelled; B) CancelledError, raised after the source was closed; C) nothing: the cancellation is swallowed and the stream is read to its end",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Task cancellation is how asyncio.timeout() and TaskGroup stop work. What would they do if the "
    "code they cancelled returned normally?",
    explanation="CancelledError, after the finally closed the source. An outcome 'cancelled' is for the "
    "cancel= option (a stop button); task cancellation must propagate, or timeouts and task groups break.",
    hints={
        "A": "The outcome 'cancelled' is for the cancel= option. Task cancellation belongs to asyncio: what "
        "must a coroutine do with it?",
        "C": "A swallowed cancellation leaves asyncio.timeout() waiting for a task that pretends nothing "
        "happened.",
    },
)
register(
    "08.mcp_eof",
    "An MCP Streamable HTTP response stream (the 2025-11-25 revision, which has resumption) ends cleanly after an event with an id, before the JSON-RPC response arrived. What is it? A) completed: the body ended cleanly; B) truncated at completion, and the client may resume it with GET and Last-Event-ID; C) a lost answer that must be requested again",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Two questions: did the service say it was done, and did it give the client a way back in?",
    explanation="Truncated at completion, as every stream without its terminal signal; but in MCP the server "
    "may close early, and the event id lets the client resume. For an LLM API the same EOF is a lost answer.",
    hints={
        "A": "A clean end of body is never the service's own 'done'. What would be, in MCP?",
        "C": "Look at what the stream sent before it ended: an event id. What can a client do with one?",
    },
)
register(
    "08.resumable",
    "Which of these can continue a dropped stream without sending the request again? A) OpenAI Chat Completions; B) OpenAI Responses started with background: true; C) MCP Streamable HTTP in its 2025-11-25 revision, whose events carry ids; D) Anthropic Messages",
    "choices",
    "92afaf6d39d77f2762620848e46105b2ebc0478ec06fccc1ad886cc291f490bc",
    hint="To continue you need a position the server understands: an SSE event id or a sequence number it "
    "can replay after. Which streams give you one, and keep the answer on the server?",
    explanation="Responses in background mode (starting_after=N replays the events after sequence number N) "
    "and MCP in its 2025-11-25 revision (GET with Last-Event-ID; the 2026-07-28 revision removed it). Chat "
    "Completions and Messages carry no position: re-sending starts a new answer.",
)
