// Three readers of the same relayed stream. Plain JavaScript: no build step, nothing from a CDN.
//
// naive:       fetch + new TextDecoder().decode(chunk) for each read (no {stream: true}): a read that ends
//              inside a character becomes U+FFFD, and so does the start of the next read.
// correct:     fetch + TextDecoder("utf-8", {fatal: true}) with {stream: true} (bytes held across reads),
//              a line buffer (CR, LF, CRLF, a CR at the end of one read), SSE fields, and the relay's
//              `event: outcome` as the only proof of how the upstream ended: the one that ends the body
//              (the relay forwards an upstream event named "outcome" as "upstream:outcome", so no upstream
//              can forge it; an outcome with anything after it is not a verdict).
// EventSource: the browser's own SSE reader: it decodes with a streaming decoder and buffers lines itself,
//              but it can only GET (no request body) and cannot send custom headers.
// The naive and correct readers read ONE response (response.body.tee()), so they see the same reads.
"use strict";

const params = new URLSearchParams(location.search);
const query = new URLSearchParams();
for (const name of ["variant", "recut"]) if (params.has(name)) query.set(name, params.get(name));
// Relative URLs (no leading slash): the page works at the relay's own "/" and under a prefix, as when a
// hub's proxy serves it at /user/<name>/proxy/<port>/.
const STREAM_URL = "stream" + (query.toString() ? "?" + query : "");
const ESCAPE_PREFIX = "upstream:";  // lesson_lib.relay_variants.ESCAPE_PREFIX: undone before reading a type
const unescapeType = (type) => (type.startsWith(ESCAPE_PREFIX) ? type.slice(ESCAPE_PREFIX.length) : type);
window.relayReaders = { finished: 0, reads: 0 };

// The answer text an upstream event carries, per contract (the service's own JSON shapes).
function textOf(contract, type, data) {
  let value;
  try { value = JSON.parse(data); } catch (e) { return null; }  // [DONE], or a broken event
  if (value === null || typeof value !== "object") return null;
  if (contract === "openai-chat") {
    const choice = (value.choices || [])[0];
    return choice && choice.delta && typeof choice.delta.content === "string" ? choice.delta.content : null;
  }
  if (contract === "anthropic-messages") {
    const delta = value.type === "content_block_delta" ? value.delta : null;
    return delta && delta.type === "text_delta" ? delta.text : null;
  }
  if (contract === "openai-responses") return value.type === "response.output_text.delta" ? value.delta : null;
  if (contract === "ollama") return value.message && typeof value.message.content === "string" ? value.message.content : null;
  if (contract === "gemini" || contract === "gemini-json-array") {
    const parts = (((value.candidates || [])[0] || {}).content || {}).parts || [];
    return parts.filter((p) => !p.thought && typeof p.text === "string").map((p) => p.text).join("") || null;
  }
  return null;
}

// An SSE line buffer and field parser (WHATWG "Interpreting an event stream"), fed text of any length.
class SSEReader {
  constructor(onEvent) { this.onEvent = onEvent; this.buffer = ""; this.afterCR = false; this.data = []; this.type = ""; }
  feed(text) {
    if (text === "") return;  // an empty piece (a read holding part of a character): a pending CR stays pending
    if (this.afterCR && text.startsWith("\n")) text = text.slice(1);  // the LF of a CRLF cut after its CR
    this.afterCR = false;
    this.buffer += text;
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/g;
      match.lastIndex = start;
      const found = match.exec(this.buffer);
      if (!found) break;
      if (found[0] === "\r" && found.index === this.buffer.length - 1) {  // maybe half of a CRLF
        this.afterCR = true;
      }
      this.line(this.buffer.slice(start, found.index));
      start = found.index + found[0].length;
    }
    this.buffer = this.buffer.slice(start);
  }
  line(line) {
    if (line === "") {  // dispatch
      if (this.data.length) this.onEvent(this.type || "message", this.data.join("\n"));
      this.data = []; this.type = ""; return;
    }
    if (line.startsWith(":")) return;  // a comment: a heartbeat
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.type = value;
  }
  // End of the body: an event without its blank line is NOT dispatched (the spec discards it).
  close() { this.buffer = ""; this.data = []; }
}

function show(name, text, state, status) {
  if (text !== null) document.getElementById(name + "-text").textContent += text;
  if (state !== null) {
    const el = document.getElementById(name + "-status");
    el.dataset.state = state; el.textContent = status;
  }
}

function describe(outcome) {
  if (outcome.outcome === "completed") return "completed (finish reason " + outcome.finish_reason + ")";
  const where = outcome.truncated_at ? " at the " + outcome.truncated_at + " boundary" : "";
  const error = outcome.error ? " (" + outcome.error.kind + (outcome.error.status ? " " + outcome.error.status : "") + ")" : "";
  return "NOT completed: " + outcome.outcome + where + error;
}

function finished(name) { window.relayReaders.finished += 1; window.relayReaders[name] = true; }

async function readFetch(name, body, contract, decodeRead, flush) {
  const reader = body.getReader();
  let outcome = null;  // the relay's verdict only if it is the last event of the body
  const sse = new SSEReader((type, data) => {
    if (outcome !== null) outcome = null;  // something came after an "outcome": that was no verdict
    if (type === "outcome") { outcome = JSON.parse(data); return; }
    show(name, textOf(contract, unescapeType(type), data), null);
  });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (name === "correct") window.relayReaders.reads += 1;
      sse.feed(decodeRead(value));
    }
    sse.feed(flush());
    sse.close();
    if (outcome) show(name, null, outcome.outcome, describe(outcome));
    else show(name, null, "unknown", "ended WITHOUT an outcome: not known to be complete");
  } catch (error) {
    show(name, null, "error", "reader failed: " + error.name);
  }
  finished(name);
}

function readEventSource(contract) {
  const source = new EventSource(STREAM_URL);
  const onText = (event) => show("eventsource", textOf(contract, event.type, event.data), null);
  for (const type of ["message", "content_block_delta", "response.output_text.delta"]) {
    source.addEventListener(type, onText);
  }
  // The relay's outcome is the last event: remember it, and judge when the body ends (onerror), so an
  // "outcome" with something after it (only a faulty relay could send one) is not taken for the verdict.
  let outcome = null;
  source.onmessage = () => { outcome = null; };
  for (const type of ["content_block_delta", "response.output_text.delta"]) {
    source.addEventListener(type, () => { outcome = null; });
  }
  source.addEventListener("outcome", (event) => { outcome = JSON.parse(event.data); });
  source.onerror = () => {
    source.close();  // the body ended: do not let EventSource reconnect and ask again
    if (outcome) show("eventsource", null, outcome.outcome, describe(outcome));
    else show("eventsource", null, "unknown", "connection ended WITHOUT an outcome: not known to be complete");
    finished("eventsource");
  };
}

async function main() {
  const info = await (await fetch("info")).json();
  document.getElementById("contract").textContent = info.contract;
  document.getElementById("variant").textContent = params.get("variant") || info.variant;
  readEventSource(info.contract);
  // Accept: text/event-stream, as EventSource sends it: a proxy on the way may stream only such requests
  // (jupyter-server-proxy 4.6 buffers any other response whole: measured through a real hub, issue 28).
  const response = await fetch(STREAM_URL, { headers: { Accept: "text/event-stream" } });
  const [naiveBody, correctBody] = response.body.tee();
  readFetch("naive", naiveBody, info.contract, (bytes) => new TextDecoder().decode(bytes), () => "");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  readFetch("correct", correctBody, info.contract, (bytes) => decoder.decode(bytes, { stream: true }), () => decoder.decode());
}

main();
