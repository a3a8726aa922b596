"""What a client's user concludes from how its stream ended: a :class:`Verdict`; exceptions read as outcomes.

A user who iterates a client's stream to its end without an exception believes the answer is whole:
``completed``. A client that raises tells its user something else, and :func:`outcome_of` says what, as
:class:`lesson_lib.Outcome` names it, from the exception's type alone (never its message or content):

* an API error that carries the service's error (``openai.APIError`` with a body, any
  ``APIStatusError``, ``httpx.HTTPStatusError``, ``requests.HTTPError``): ``service_error``;
* a decoding error (``UnicodeDecodeError``, ``json.JSONDecodeError``, ``httpx.DecodingError`` such as
  lesson_lib's ``ContentEncodingError``, ``requests``' ``ContentDecodingError``): ``decode_error``;
* a timeout (``openai``/``anthropic`` ``APITimeoutError``, ``httpx``/``httpx2`` ``TimeoutException``,
  ``requests.Timeout``, and the ``requests.ConnectionError`` that ``iter_content`` raises for urllib3's
  ``ReadTimeoutError`` mid-body): ``timed_out``;
* a transport error (``APIConnectionError``, ``httpx``/``httpx2`` ``TransportError``, ``requests``'
  ``ConnectionError`` and ``ChunkedEncodingError``): ``truncated``;
* lesson_lib's guard (:class:`lesson_lib.guard.UnprovenStreamError`): the outcome its report names.

Anything else is not an outcome but a crash of the user's code (a ``KeyError`` on an unexpected shape, an
``IndexError``): :func:`outcome_of` returns ``None`` and the caller lets it raise. A library's classes are
looked up only if the library is already imported (an exception cannot come from one that is not), so this
module imports none of them (only lesson_lib's guard).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from ..guard.errors import UnprovenStreamError

__all__ = ["Verdict", "outcome_of"]


@dataclass(frozen=True)
class Verdict:
    """What a client's user concluded: ``outcome`` (as :class:`lesson_lib.Outcome` names it), the answer
    ``text`` they collected, and ``raised``: the name of the exception the client raised that the outcome
    was read from (``None`` when the iteration ended without one)."""

    outcome: str
    text: str
    raised: str | None = None

    def as_dict(self) -> dict[str, str]:
        """The verdict as a scoring function returns it: ``{"outcome": ..., "text": ...}``."""
        return {"outcome": self.outcome, "text": self.text}


def _classes(module: str, *names: str) -> tuple[type[BaseException], ...]:
    """The named exception classes of ``module`` if it is imported, else none (no import here)."""
    loaded = sys.modules.get(module)
    if loaded is None:
        return ()
    found: list[type[BaseException]] = []
    for name in names:
        value: object = loaded
        for part in name.split("."):
            value = getattr(value, part, None)
        if isinstance(value, type) and issubclass(value, BaseException):
            found.append(value)
    return tuple(found)


def _is_read_timeout(exc: BaseException) -> bool:
    """``requests``' mid-body read timeout: a ``ConnectionError`` whose argument is urllib3's
    ``ReadTimeoutError`` (``requests.models.Response.iter_content``)."""
    timeouts = _classes("urllib3.exceptions", "ReadTimeoutError", "TimeoutError")
    return any(isinstance(arg, timeouts) for arg in exc.args) if timeouts else False


def outcome_of(exc: BaseException) -> str | None:
    """The outcome a user reads from ``exc`` (see the module docstring), or ``None``: not an outcome, let it
    raise. Decided by the exception's type (and, for an SDK's ``APIError``, whether it carries a body)."""
    if isinstance(exc, UnprovenStreamError):
        return str(exc.outcome)
    timeouts = (
        *_classes("openai", "APITimeoutError"),
        *_classes("anthropic", "APITimeoutError"),
        *_classes("httpx", "TimeoutException"),
        *_classes("httpx2", "TimeoutException"),
        *_classes("requests.exceptions", "Timeout"),
    )
    if isinstance(exc, timeouts):
        return "timed_out"
    connection = (*_classes("openai", "APIConnectionError"), *_classes("anthropic", "APIConnectionError"))
    if isinstance(exc, connection):
        return "truncated"
    status = (
        *_classes("openai", "APIStatusError"),
        *_classes("anthropic", "APIStatusError"),
        *_classes("httpx", "HTTPStatusError"),
        *_classes("httpx2", "HTTPStatusError"),
    )
    if isinstance(exc, status):
        return "service_error"
    api = (*_classes("openai", "APIError"), *_classes("anthropic", "APIError"))
    invalid = (
        *_classes("openai", "APIResponseValidationError"),
        *_classes("anthropic", "APIResponseValidationError"),
    )
    if isinstance(exc, api) and not isinstance(exc, invalid) and getattr(exc, "body", None) is not None:
        return "service_error"
    decoding = (
        UnicodeDecodeError,
        json.JSONDecodeError,
        *_classes("httpx", "DecodingError"),
        *_classes("httpx2", "DecodingError"),
        *_classes("requests.exceptions", "ContentDecodingError"),
    )
    if isinstance(exc, decoding):
        return "decode_error"
    if isinstance(exc, _classes("requests.exceptions", "HTTPError")):
        return "service_error"
    requests_transport = _classes("requests.exceptions", "ConnectionError", "ChunkedEncodingError")
    if isinstance(exc, requests_transport):
        return "timed_out" if _is_read_timeout(exc) else "truncated"
    not_transport = _classes("httpx_sse", "SSEError")  # a TransportError by class, a wrong Content-Type
    transport = (*_classes("httpx", "TransportError"), *_classes("httpx2", "TransportError"))
    if isinstance(exc, transport) and not isinstance(exc, not_transport):
        return "truncated"
    return None
