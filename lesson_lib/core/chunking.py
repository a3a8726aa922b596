"""The chunk boundary: ways to cut a byte string into network reads.

A network read returns *some* bytes. Nothing in these functions knows about characters, lines or events,
and that is the point: tests and lessons use them to show that a correct parser gives the same result for
every one of these cuttings.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator

from .options import check_int


def split_at(data: bytes, cuts: Iterable[int]) -> list[bytes]:
    """Cut ``data`` at the given byte offsets.

    Guarantees: the pieces concatenate to ``data``; there are ``len(set(cuts)) + 1`` pieces, none empty
    unless ``data`` is empty. Cuts may come in any order and repeat. Raises ``ValueError`` for a cut that
    is not an int (``bool``, ``float`` and ``str`` included) or outside ``0 < cut < len(data)``, naming
    the cut.
    """
    cuts = list(cuts)
    for cut in cuts:  # every cut checked before sorting: a str among ints must not fail as a comparison
        check_int(f"cut {cut!r}", cut, minimum=1, maximum=len(data) - 1)
    ordered = sorted(set(cuts))
    bounds = [0, *ordered, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def two_piece_splits(data: bytes) -> Iterator[tuple[int, list[bytes]]]:
    """Every way to cut ``data`` into two non-empty pieces, as ``(cut, [head, tail])``."""
    for cut in range(1, len(data)):
        yield cut, [data[:cut], data[cut:]]


def one_byte_chunks(data: bytes) -> list[bytes]:
    """``data`` as one-byte reads: the harshest chunking a transport can produce."""
    return [data[i : i + 1] for i in range(len(data))]


def fixed_size_chunks(data: bytes, size: int) -> list[bytes]:
    """``data`` in reads of ``size`` bytes (the last may be shorter)."""
    check_int("size", size, minimum=1)
    return [data[i : i + size] for i in range(0, len(data), size)]


def random_cuts(length: int, seed: int, max_cuts: int | None = None) -> list[int]:
    """A sorted, seeded random set of cut offsets for a string of ``length`` bytes.

    Same ``seed``, same cuts, on every machine (``random.Random`` is specified to be reproducible).
    """
    check_int("length", length, minimum=0)
    check_int("max_cuts", max_cuts, minimum=0, none=True)
    if length < 2:
        return []
    rng = random.Random(seed)
    upper = length - 1 if max_cuts is None else min(max_cuts, length - 1)
    count = rng.randint(0, upper)
    return sorted(rng.sample(range(1, length), count))


def random_partition(data: bytes, seed: int, max_cuts: int | None = None) -> list[bytes]:
    """``data`` cut at :func:`random_cuts` positions: a seeded, reproducible random chunking."""
    return split_at(data, random_cuts(len(data), seed, max_cuts))


def cuts_of(chunks: Iterable[bytes]) -> list[int]:
    """The cut offsets that produced ``chunks`` (the inverse of :func:`split_at`, empty reads ignored)."""
    cuts: list[int] = []
    position = 0
    pieces = list(chunks)
    for piece in pieces[:-1]:
        position += len(piece)
        if piece and (not cuts or cuts[-1] != position):
            cuts.append(position)
    total = sum(len(p) for p in pieces)
    return [c for c in cuts if 0 < c < total]
