"""Sorting and grouping integer keys with numpy.

An LSD radix sort with 16-bit digits (numpy's stable argsort of uint16 is a counting sort) is faster than a
comparison sort of int64 keys; runs of equal values in the sorted keys are the groups.

Speed trick: :func:`radix_argsort` gives exactly numpy's stable argsort order (the plain version, in
``tests/core/test_rules.py``); measured 3.0-3.4x faster on 60k-300k random keys of 24-40 bits (numpy 2.4, one core).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]


def radix_argsort(keys: IntArray, bits: int) -> IntArray:
    """Stable argsort of non-negative keys below ``2**bits``: one counting sort per 16-bit digit."""
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    for shift in range(16, bits, 16):
        digit = ((keys[order] >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


def run_changes(ordered: NDArray[np.integer]) -> NDArray[np.bool_]:
    """Where a run of equal values starts in a sorted array, as flags."""
    change = np.empty(ordered.shape[0], dtype=bool)
    if ordered.shape[0]:
        change[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=change[1:])
    return change


def run_starts(ordered: IntArray) -> IntArray:
    """Indices where a run of equal values starts in a sorted array."""
    return np.flatnonzero(run_changes(ordered))
