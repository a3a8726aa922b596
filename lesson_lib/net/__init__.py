"""The network layer: real sockets and HTTP around the core.

:mod:`.replay` (a loopback server that sends chosen bytes with chosen cuts), :mod:`.http` (httpx reads into
``consume``, resumption, timeouts), :mod:`.relay` and :mod:`.relay_variants` (an ASGI gateway to a browser
page, correct and faulty), :mod:`.proxies` (real nginx, Caddy and mitmproxy in front of an upstream).
Needs the ``net`` extra (httpx, starlette, uvicorn).
"""

from .http import (
    CompressedBodyCutError,
    ContentEncodingError,
    HTTPAReads,
    HTTPReads,
    ResumeAttempt,
    Resumed,
    aresume_responses,
    aresume_sse,
    astream_http,
    astream_http_updates,
    open_areads,
    open_reads,
    read_events,
    resume_responses,
    resume_sse,
    stream_http,
    stream_http_updates,
)
from .proxies import SETTINGS as PROXY_SETTINGS
from .proxies import Proxy, ProxySetting, ProxyUnavailable
from .relay import (
    CLIENT_TOO_SLOW,
    STATIC_DIR,
    STREAM_HEADERS,
    ClientTooSlow,
    RelayReply,
    RelayServer,
    read_relay,
)
from .relay_variants import (
    ESCAPE_PREFIX,
    FINISH_INVENTIONS,
    OUTCOME_EVENT,
    VARIANTS,
    Emit,
    Plan,
    check_variant,
    outcome_frame,
    outcome_summary,
    relay_bytes,
    run_variant,
    unescape_type,
)
from .replay import (
    HEARTBEAT,
    ReplayRequest,
    ReplayServer,
    encode_events,
)
from .resumption import describe_reason

__all__ = [
    "CLIENT_TOO_SLOW",
    "ESCAPE_PREFIX",
    "FINISH_INVENTIONS",
    "HEARTBEAT",
    "OUTCOME_EVENT",
    "PROXY_SETTINGS",
    "STATIC_DIR",
    "STREAM_HEADERS",
    "VARIANTS",
    "ClientTooSlow",
    "CompressedBodyCutError",
    "ContentEncodingError",
    "Emit",
    "HTTPAReads",
    "HTTPReads",
    "Plan",
    "Proxy",
    "ProxySetting",
    "ProxyUnavailable",
    "RelayReply",
    "RelayServer",
    "ReplayRequest",
    "ReplayServer",
    "ResumeAttempt",
    "Resumed",
    "aresume_responses",
    "aresume_sse",
    "astream_http",
    "astream_http_updates",
    "check_variant",
    "describe_reason",
    "encode_events",
    "open_areads",
    "open_reads",
    "outcome_frame",
    "outcome_summary",
    "read_events",
    "read_relay",
    "relay_bytes",
    "resume_responses",
    "resume_sse",
    "run_variant",
    "stream_http",
    "stream_http_updates",
    "unescape_type",
]
