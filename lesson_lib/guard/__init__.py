"""A guard for the official SDKs: httpx2 clients that turn a silent short answer into an exception.

::

    import openai
    from lesson_lib.guard import Client, UnprovenStreamError

    with openai.OpenAI(http_client=Client()) as sdk:
        stream = sdk.chat.completions.create(model=..., messages=..., stream=True)
        try:
            text = "".join(c.delta.content or "" for chunk in stream for c in chunk.choices)
        except UnprovenStreamError as exc:  # exc.outcome, exc.truncated_at, exc.offset, exc.event_index
            ...

:class:`Client` / :class:`AsyncClient` (:mod:`.client`) pass each streamed response's bytes to the SDK
unchanged and to a :class:`~lesson_lib.StreamJudge` of the contract its path names (:mod:`.paths`); when
the body ends, or the transport fails, and the answer is not proven whole (``is_final``), the code
iterating the SDK's stream gets :class:`UnprovenStreamError` (:mod:`.errors`). Each judged response
leaves a :class:`GuardReport`: times and counts, no content. A sibling of :mod:`lesson_lib.net` (it needs
``httpx2``: the ``guard`` extra), importing only the core below it.
"""

from .client import AsyncClient, Client
from .errors import GuardReport, UnprovenStreamError
from .paths import PATH_CONTRACTS, contract_for_path

__all__ = [
    "PATH_CONTRACTS",
    "AsyncClient",
    "Client",
    "GuardReport",
    "UnprovenStreamError",
    "contract_for_path",
]
