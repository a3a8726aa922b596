"""The contracts by name: :data:`CONTRACTS`, :func:`register` (called by each service module) and
:func:`get_contract`, the one place a contract's name is looked up.

What a call site would otherwise decide by comparing names is a property of the registered class:
``framing`` (the name of its framing, :func:`lesson_lib.core.framing.framing`), ``needs_request_id`` (the
stream answers one JSON-RPC request: ``get_contract`` needs ``request_id``), ``resumable_by_event_id`` (a
cut stream can be resumed from its last event ID), ``takes_incremental_output`` (the request chose whether
each event carries new text or the whole text so far: ``get_contract`` takes ``incremental_output``).
"""

from __future__ import annotations

from typing import TypeVar

from ..framing import framing
from .base import Contract

__all__ = ["CONTRACTS", "contract_class", "get_contract", "register"]

#: Every registered contract class by name, in the order they were registered.
CONTRACTS: dict[str, type[Contract]] = {}

C = TypeVar("C", bound=type[Contract])


def register(cls: C) -> C:
    """Add the contract class ``cls`` to :data:`CONTRACTS` under ``cls.name`` (a class decorator).

    Refuses (``ValueError``) a name already registered and a framing that is not
    (:data:`lesson_lib.core.framing.FRAMINGS`); ``TypeError`` if ``cls`` is not a :class:`Contract`."""
    if not (isinstance(cls, type) and issubclass(cls, Contract)):
        raise TypeError(f"a contract must be a Contract subclass, got {cls!r}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"{cls.__name__}.name must be a non-empty str, got {name!r}")
    if name in CONTRACTS:
        raise ValueError(f"a contract named {name!r} is already registered ({CONTRACTS[name].__name__})")
    framing(cls.framing)  # a ValueError naming the known framings
    CONTRACTS[name] = cls
    return cls


def contract_class(name: str) -> type[Contract]:
    """The contract class registered as ``name``; ``ValueError`` naming the known contracts if none is."""
    try:
        return CONTRACTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(CONTRACTS))
        raise ValueError(f"unknown contract {name!r}; known contracts: {known}") from None


def get_contract(
    name: str, *, request_id: str | int | None = None, incremental_output: bool | None = None
) -> Contract:
    """A fresh contract object for ``name`` (a key of :data:`CONTRACTS`); each stream needs its own.

    Raises ``ValueError`` naming the known contracts if ``name`` is not one of them. ``request_id`` (a str
    or an int, the JSON-RPC id of the request the stream answers) is required by the contracts that
    ``needs_request_id`` (``"mcp"``) and refused by every other contract, by name. ``incremental_output``
    (a bool, what the request sent; ``None``: the service's documented default) is taken by the contracts
    that ``takes_incremental_output`` (``"dashscope"``) and refused by every other one, by name.
    """
    cls = contract_class(name)
    if cls.needs_request_id:
        if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
            raise ValueError(
                f"request_id must be the JSON-RPC id (a str or an int) of the request the {name} stream "
                f"answers; got {request_id!r}"
            )
    elif request_id is not None:
        needing = ", ".join(sorted(other for other, c in CONTRACTS.items() if c.needs_request_id))
        raise ValueError(f"request_id is only for the {needing} contract, not {name!r}")
    if incremental_output is not None:
        if not isinstance(incremental_output, bool):
            raise ValueError(
                "incremental_output must be True, False or None (the request's value); "
                f"got {incremental_output!r}"
            )
        if not cls.takes_incremental_output:
            taking = ", ".join(sorted(other for other, c in CONTRACTS.items() if c.takes_incremental_output))
            raise ValueError(f"incremental_output is only for the {taking} contract, not {name!r}")
    return cls.for_stream(request_id, incremental_output)
