"""The chunk boundary: the cutting helpers themselves."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lesson_lib.core.chunking import (
    cuts_of,
    fixed_size_chunks,
    one_byte_chunks,
    random_cuts,
    random_partition,
    split_at,
    two_piece_splits,
)

DATA = "你好🙂".encode()


def test_split_at_cuts_at_byte_offsets_in_any_order():
    assert split_at(DATA, [7, 3, 3]) == [DATA[:3], DATA[3:7], DATA[7:]]


@pytest.mark.parametrize("cut", [0, len(DATA), -1, 99])
def test_split_at_refuses_cuts_outside_the_data(cut):
    with pytest.raises(ValueError, match=str(cut)):
        split_at(DATA, [cut])


def test_two_piece_splits_are_every_cut():
    splits = list(two_piece_splits(DATA))
    assert [cut for cut, _ in splits] == list(range(1, len(DATA)))
    assert all(b"".join(pieces) == DATA and all(pieces) for _, pieces in splits)


def test_one_byte_and_fixed_size():
    assert one_byte_chunks(b"abc") == [b"a", b"b", b"c"]
    assert fixed_size_chunks(DATA, 4) == [DATA[:4], DATA[4:8], DATA[8:]]
    with pytest.raises(ValueError):
        fixed_size_chunks(DATA, 0)


def test_random_partition_is_reproducible_per_seed():
    assert random_partition(DATA, seed=7) == random_partition(DATA, seed=7)
    assert {tuple(random_cuts(len(DATA), seed)) for seed in range(20)} != {()}
    assert random_cuts(1, seed=3) == []


@given(st.binary(max_size=30), st.lists(st.integers(1, 29)))
def test_split_at_and_cuts_of_are_inverse(data, cuts):
    cuts = [c for c in cuts if 0 < c < len(data)]
    pieces = split_at(data, cuts)
    assert b"".join(pieces) == data
    assert cuts_of(pieces) == sorted(set(cuts))


def test_cuts_and_sizes_are_ints_in_range():
    data = "你好 café 🙂".encode()
    for bad in (1.5, 2.0, "3", True, None):
        with pytest.raises(ValueError, match=rf"^cut {re.escape(repr(bad))} must be an int >= 1 and <= 16"):
            split_at(data, [bad])
    for size in (0, 1.5, True):
        with pytest.raises(ValueError, match=r"^size must be an int >= 1"):
            fixed_size_chunks(data, size)
    with pytest.raises(ValueError, match=r"^max_cuts must be an int >= 0, or None; got -1$"):
        random_cuts(len(data), seed=1, max_cuts=-1)
