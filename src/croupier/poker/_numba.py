"""The compiled evaluation kernel (optional extra ``fast``: numba).

The same lookups as the numpy code of :mod:`croupier.poker.evaluate`, one
hand at a time in compiled code: the card codes and card bits are added up,
and the hand's value read from the flush table or the no-flush table.  The
values are identical (the tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.poker.tables import KEY_BITS, tables

__all__ = ["evaluate_compiled"]

_KEY_MASK = np.uint64((1 << KEY_BITS) - 1)
_SHIFT = np.uint64(KEY_BITS)


@numba.njit(nogil=True, cache=True)
def _kernel(
    cards: Any, code: Any, bit: Any, nonflush: Any, flush_suit: Any, flush: Any, out: Any
) -> int:  # pragma: no cover - compiled
    n, k = cards.shape
    last = np.uint64(nonflush.shape[0] - 1)  # repeated cards may sum past the table: clip
    for i in range(n):
        total = np.uint64(0)
        mask = np.uint64(0)
        for j in range(k):
            c = cards[i, j]
            if c > 51:
                return i
            total += code[c]
            mask |= bit[c]
        suit = flush_suit[np.int64((total >> _SHIFT) & np.uint64(0xFFF))]
        if suit < 4:
            field = (mask >> np.uint64(13 * suit)) & np.uint64(0x1FFF)
            out[i] = flush[np.int64(field)]
        else:
            out[i] = nonflush[np.int64(min(total & _KEY_MASK, last))]
    return -1


def evaluate_compiled(cards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint16], int]:
    """Values of the rows of ``cards`` (``(n, 5..7)`` card numbers, ``uint8``) and the index of
    the first row holding a number above 51 (``-1`` when there is none)."""
    t = tables()
    out = np.zeros(cards.shape[0], np.uint16)
    bad = _kernel(
        cards, t.card_code, t.card_bit, t.nonflush(cards.shape[1]), t.flush_suit, t.flush, out
    )
    return out, int(bad)
