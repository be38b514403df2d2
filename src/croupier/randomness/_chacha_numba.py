"""The compiled ChaCha20 keystream (optional extra ``fast``: numba).

The same bytes as :func:`croupier.randomness.chacha.chacha_blocks`'s numpy
engine (the tests compare them, and check the RFC 8439 block): blocks are
made in batches, each state word held across the batch, so the compiler
vectorises the quarter rounds over the blocks.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["keystream"]

_LANES = 512  # blocks made together (their state words stay in the cache)
_ROUNDS = (
    (0, 4, 8, 12),
    (1, 5, 9, 13),
    (2, 6, 10, 14),
    (3, 7, 11, 15),
    (0, 5, 10, 15),
    (1, 6, 11, 12),
    (2, 7, 8, 13),
    (3, 4, 9, 14),
)


@numba.njit(nogil=True, cache=True)
def keystream(state: Any, count: int, out: Any) -> None:  # pragma: no cover - compiled
    """``count`` blocks from ``state`` (words 12-13: the first block's counter) into ``out``."""
    first = np.uint64(state[12]) | (np.uint64(state[13]) << np.uint64(32))
    x = np.empty((16, _LANES), np.uint32)
    for base in range(0, count, _LANES):
        m = min(_LANES, count - base)
        for w in range(16):
            for j in range(m):
                x[w, j] = state[w]
        for j in range(m):
            block = first + np.uint64(base + j)
            x[12, j] = np.uint32(block & np.uint64(0xFFFFFFFF))
            x[13, j] = np.uint32(block >> np.uint64(32))
        for _ in range(10):
            for ia, ib, ic, id_ in _ROUNDS:  # column rounds, then diagonal rounds
                xa = x[ia]
                xb = x[ib]
                xc = x[ic]
                xd = x[id_]
                for j in range(m):
                    a = np.uint32(xa[j] + xb[j])
                    d = np.uint32(xd[j] ^ a)
                    d = np.uint32((d << np.uint32(16)) | (d >> np.uint32(16)))
                    c = np.uint32(xc[j] + d)
                    b = np.uint32(xb[j] ^ c)
                    b = np.uint32((b << np.uint32(12)) | (b >> np.uint32(20)))
                    a = np.uint32(a + b)
                    d = np.uint32(d ^ a)
                    d = np.uint32((d << np.uint32(8)) | (d >> np.uint32(24)))
                    c = np.uint32(c + d)
                    b = np.uint32(b ^ c)
                    b = np.uint32((b << np.uint32(7)) | (b >> np.uint32(25)))
                    xa[j] = a
                    xb[j] = b
                    xc[j] = c
                    xd[j] = d
        for j in range(m):
            block = first + np.uint64(base + j)
            at = 16 * (base + j)
            for w in range(16):
                if w == 12:
                    start = np.uint32(block & np.uint64(0xFFFFFFFF))
                elif w == 13:
                    start = np.uint32(block >> np.uint64(32))
                else:
                    start = state[w]
                out[at + w] = np.uint32(x[w, j] + start)
