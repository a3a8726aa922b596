"""What each proxy configuration of lesson_lib.net.proxies is (ProxySetting.describe()): the file's own leading comment."""

STRINGS = {
    "proxies.nginx.defaults": (
        "nginx as a reverse proxy with nothing set but proxy_pass: its own defaults apply (proxy_buffering on, proxy_read_timeout 60s, gzip off, proxy_http_version 1.0)."
    ),
    "proxies.nginx.buffering_off": (
        "nginx with proxy_buffering off: each upstream read is passed on as it arrives, unless the upstream turns buffering back on with X-Accel-Buffering: yes (the other defaults stay: proxy_read_timeout 60s, gzip off)."
    ),
    "proxies.nginx.gzip": (
        'nginx compressing text/event-stream: gzip on with gzip_types naming it (a copied "compress everything" block); what that does to a stream is measured in docs/proxy_matrix.md.'
    ),
    "proxies.nginx.gzip_default_types": (
        "nginx with gzip on and no gzip_types: only text/html is compressed (nginx's default gzip_types), so a text/event-stream response passes uncompressed; what that does to a stream is measured in docs/proxy_matrix.md."
    ),
    "proxies.nginx.read_timeout_1s": (
        "nginx with proxy_read_timeout 1s: a silence of 1 s between two upstream reads ends the response (the default is 60 s, shorter than some models take to the first token)."
    ),
    "proxies.nginx.two_hops_gzip": (
        "Two nginx hops: the client talks to the outer server, which gzips text/event-stream and proxies to the inner one, which proxies to the upstream. The inner hop honours the upstream's X-Accel-Buffering: no, and does not pass that header on: the outer hop never sees it."
    ),
    "proxies.nginx.gzip_buffering_off": (
        "nginx compressing text/event-stream with proxy_buffering off: gzip on and gzip_types naming it, as in the gzip file, and buffering off for every response."
    ),
    "proxies.nginx.gzip_ignore_header": (
        "nginx compressing text/event-stream and ignoring X-Accel-Buffering: gzip on and gzip_types naming it, as in the gzip file, and proxy_ignore_headers naming the header."
    ),
    "proxies.caddy.defaults": (
        "Caddy's reverse_proxy with nothing set but the upstream: its own defaults apply. The global block only turns off what a test machine has no use for (the admin endpoint, automatic HTTPS)."
    ),
    "proxies.caddy.flush_interval_-1": (
        "Caddy's reverse_proxy with flush_interval -1: flush to the client after every write."
    ),
    "proxies.mitmproxy.defaults": (
        "mitmdump in reverse-proxy mode with its defaults (stream_large_bodies unset). The mode, address and port are given on the command line by lesson_lib.net.proxies."
    ),
    "proxies.mitmproxy.stream_large_bodies_1": (
        "mitmdump with stream_large_bodies 1: a body larger than 1 byte is streamed instead of read whole."
    ),
    # The class words of lesson 10's proxy cases and matrix (lesson_lib.exercises.class_label).
    "proxies.class.streamed": "streamed",
    "proxies.class.at_once": "at once",
    "proxies.class.cut_after_one_read": "cut after one read",
    "proxies.class.nothing": "nothing",
    "proxies.class.clean_end": "clean end",
    "proxies.class.error": "error",
    "proxies.class.no_stream": "no stream",
    "proxies.class.completes": "completes",
    "proxies.class.drops": "drops",
    "proxies.class.pauses": "pauses",
    "proxies.class.pauses_before_first_token": "pauses_before_first_token",
    "proxies.class.pauses_then_drops": "pauses_then_drops",
    "proxies.class.whole": "whole",
    "proxies.class.cut_in_character": "cut_in_character",
    "proxies.class.drop": "drop",
    "proxies.class.stall": "stall",
    "proxies.class.heartbeats": "heartbeats",
    "proxies.class.client_leaves": "client_leaves",
    "proxies.class.slow_reader": "slow_reader",
    "proxies.class.upstream_paused": "upstream paused",
    "proxies.class.proxy_buffered": "proxy buffered",
}
