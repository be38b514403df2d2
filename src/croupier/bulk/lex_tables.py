"""Threshold tables of lexicographic unranking, shared by the plain-Python rule and the kernels.

Unranking pile by pile (:mod:`croupier.bulk.unrank`) compares each deal's digit with
``C(m, j - 1)``: the number of ``j - 1``-subsets of the ``m`` cards after the current
one.  These tables hold those numbers, built once per pile size and kept.

>>> pick_table(4, 2).tolist()
[[0, 1, 3], [0, 1, 2], [0, 1, 1], [0, 1, 0]]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

__all__ = ["KernelTables", "kernel_tables", "pick_table"]

_U64_MAX = (1 << 64) - 1
_ROW = 16  # croupier._core.bulk_kernels.ROW: a row of the vector walk


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


@dataclass(frozen=True)
class KernelTables:
    """Every pile's :func:`pick_table` in one flat array, as the compiled kernels read them.

    Pile ``p``'s threshold at card ``q`` with ``j`` cards still to pick is
    ``tables[at[p] + q * stride[p] + j]``.  Rows hold 16 entries (the row of the
    vector walk, :data:`croupier._core.bulk_kernels.ROW`) when the deck has at most
    64 cards and every pile but the last at most 15; else ``k + 1``.
    """

    tables: npt.NDArray[np.uint64]
    at: npt.NDArray[np.int64]
    stride: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]


@lru_cache(maxsize=64)
def kernel_tables(sizes: tuple[int, ...]) -> KernelTables:
    """The :class:`KernelTables` of a layout's pile sizes (the last pile takes the rest).

    >>> t = kernel_tables((2, 2, 2))
    >>> t.at.tolist(), t.stride.tolist(), t.tables[t.at[1] + 3 * 16 : t.at[1] + 3 * 16 + 3].tolist()
    ([0, 96, 160], [16, 16, 16], [0, 1, 0])
    """
    deck = sum(sizes)
    row = _ROW if deck <= 64 and max(sizes[:-1], default=0) < _ROW else 0
    parts, at, stride = [], [], []
    offset, left = 0, deck
    for k in sizes[:-1]:
        width = row or k + 1
        table = np.zeros((left, width), np.uint64)
        table[:, : k + 1] = pick_table(left, k)
        parts.append(table.reshape(-1))
        at.append(offset)
        stride.append(width)
        offset += table.size
        left -= k
    at.append(offset)
    stride.append(row or sizes[-1] + 1 if sizes else 1)
    flat = np.concatenate([*parts, np.zeros(1, np.uint64)])
    result = KernelTables(
        flat, np.array(at, np.int64), np.array(stride, np.int64), np.array(sizes, np.int64)
    )
    for array in (result.tables, result.at, result.stride, result.sizes):
        array.flags.writeable = False
    return result
