"""Threshold tables of lexicographic unranking, shared by the numpy and the compiled kernels.

Unranking pile by pile (:mod:`croupier.bulk.unrank`) compares each deal's digit with
``C(m, j - 1)``: the number of ``j - 1``-subsets of the ``m`` cards after the current
one.  These tables hold those numbers, built once per pile size and kept.

>>> pick_table(4, 2).tolist()
[[0, 1, 3], [0, 1, 2], [0, 1, 1], [0, 1, 0]]
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

__all__ = ["pick_table", "skip_table"]

_U64_MAX = (1 << 64) - 1


@lru_cache(maxsize=128)
def pick_table(r: int, k: int) -> npt.NDArray[np.uint64]:
    """Thresholds by position and picks left: ``T[q, j] = C(r - 1 - q, j - 1)``, ``T[q, 0] = 0``.

    At position ``q`` with ``j`` cards still to pick, the card is skipped
    when the digit is at least ``T[q, j]`` (which is then subtracted).
    Entries of states no valid digit reaches are capped at 2**64 - 1.

    >>> pick_table(3, 1).tolist()
    [[0, 1], [0, 1], [0, 1]]
    """
    table = np.zeros((r, k + 1), np.uint64)
    for q in range(r):
        for j in range(1, k + 1):
            table[q, j] = min(comb(r - 1 - q, j - 1), _U64_MAX)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=128)
def skip_table(r: int, k: int) -> npt.NDArray[np.uint64]:
    """:func:`pick_table` indexed by cards skipped so far: ``S[q, s] = T[q, k - q + s]``.

    Out-of-range states hold 0 (nothing left to pick) or 2**64 - 1 (unreachable).

    >>> skip_table(3, 1)[:, :3].tolist()
    [[1, 18446744073709551615, 18446744073709551615], [0, 1, 18446744073709551615], [0, 0, 1]]
    """
    picks = pick_table(r, k)
    table = np.full((r, r + 1), _U64_MAX, np.uint64)
    for q in range(r):
        for s in range(q + 1):
            j = k - q + s
            if j <= 0:
                table[q, s] = 0
            elif j <= k and j <= r - q:
                table[q, s] = picks[q, j]
    table.flags.writeable = False
    return table
