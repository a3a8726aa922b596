"""Which contract a request's path names: the guard's small registry, and the ``contract=`` override.

A service's streaming endpoint is recognised by the end of its path, so a base URL with a prefix
(``/v1``, a proxy's ``/openai``, an Azure deployment's path) still matches. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.completion import check_options

__all__ = ["PATH_CONTRACTS", "ContractChoice", "check_choice", "contract_for_path"]

#: The end of a request path -> the contract its streamed answer follows (the SDKs' own paths).
PATH_CONTRACTS: Mapping[str, str] = {
    "/chat/completions": "openai-chat",  # openai: client.chat.completions.create(stream=True)
    "/responses": "openai-responses",  # openai: client.responses.create(stream=True)
    "/messages": "anthropic-messages",  # anthropic: client.messages.create(stream=True), .stream()
}

#: What ``contract=`` may be: ``None`` (the registry above), one contract name (every streamed answer
#: through the client follows it), or a mapping from path endings to contract names (replacing the
#: registry).
ContractChoice = str | Mapping[str, str] | None


def check_choice(contract: object) -> ContractChoice:
    """Return ``contract`` if it is a valid ``contract=`` argument, else raise naming it (before any I/O):
    ``ValueError`` for an unknown contract name, ``TypeError`` for anything but a str, a mapping or None."""
    if contract is None:
        return None
    if isinstance(contract, str):
        check_options(contract)
        return contract
    if isinstance(contract, Mapping):
        for suffix, name in contract.items():
            if not isinstance(suffix, str) or not suffix.startswith("/"):
                raise ValueError(f"contract= maps path endings starting with '/' to names; got {suffix!r}")
            if not isinstance(name, str):
                raise TypeError(f"contract={{{suffix!r}: ...}} must be a contract name, got {name!r}")
            check_options(name)
        return dict(contract)
    raise TypeError(
        f"contract must be a contract name, a mapping of path endings to names, or None; "
        f"got {type(contract).__name__}"
    )


def contract_for_path(path: str, choice: ContractChoice = None) -> str | None:
    """The contract a response to ``path`` (the URL's path, no query) follows, or ``None`` (not judged).

    With ``choice`` a name, that name; a mapping, the longest path ending in it that ``path`` ends with;
    ``None``, the same over :data:`PATH_CONTRACTS`. A trailing ``/`` is ignored."""
    if isinstance(choice, str):
        return choice
    table = PATH_CONTRACTS if choice is None else choice
    path = path.rstrip("/") or "/"
    best: str | None = None
    for suffix in table:
        if path.endswith(suffix) and (best is None or len(suffix) > len(best)):
            best = suffix
    return None if best is None else table[best]
