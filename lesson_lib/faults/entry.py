"""Helpers the catalogue's tables share: a :class:`~lesson_lib.faults.fault.Fault` from a recipe's
:class:`~lesson_lib.faults.recipes.Made`, and where in an answer to strike (by the text a unit carries, or
its kind), so that each entry says what it does in words, not in unit numbers."""

from __future__ import annotations

from collections.abc import Callable

from .fault import Expected, Fault
from .recipes import SAMPLE_CALL, Made
from .wire import Unit, Wire

__all__ = ["at_kind", "at_piece", "entry", "index_of"]


def entry(name: str, wire: Wire, lesson: str, description: str, made: Made) -> Fault:
    """The catalogue entry ``name`` of ``wire``'s contract, with the verdict the recipe declared."""
    expected = Expected(made.expected_outcome, made.expected_text, made.also)
    return Fault(
        name,
        wire.contract,
        lesson,
        description,
        expected,
        wire.service.path,
        made.plan,
        timed=made.timed,
        resumable=made.resumable,
    )


def at_piece(piece: str) -> Callable[[list[Unit]], int]:
    """The index of the unit that delivers the text ``piece``."""
    return lambda units: next(i for i, unit in enumerate(units) if unit.text == piece)


def at_kind(kind: str, n: int = 0) -> Callable[[list[Unit]], int]:
    """The index of the ``n``-th unit of ``kind`` (``-1``: the last)."""
    return lambda units: [i for i, unit in enumerate(units) if unit.kind == kind][n]


def index_of(wire: Wire, where: Callable[[list[Unit]], int]) -> int:
    """``where`` in the answer ``wire`` writes (the sample call's; the answer's units do not depend on it)."""
    return where(wire.answer(SAMPLE_CALL))
