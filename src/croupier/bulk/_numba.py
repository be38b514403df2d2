"""The compiled unranking kernel (optional extra ``fast``: numba).

The same rule as the numpy code of :mod:`croupier.bulk.unrank`, compiled:
deals are taken in tiles; for each pile the lexicographic walk runs over the
tile's deals position by position, then each deal's cards are handed out.
The outputs are identical (the tests compare the two on every layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.bulk.digits import DigitPlan
from croupier.bulk.lex_tables import pick_table

__all__ = ["digits_compiled", "masks_compiled", "stacks_compiled", "unrank_compiled"]

_TILE = 128
_SHIFT = np.uint64(58)
_LOW = np.uint64((1 << 58) - 1)
_ONE_PICK = np.uint64(1) << _SHIFT


@numba.njit(nogil=True, cache=True)
def _unrank_kernel(digits: Any, sizes: Any, tables: Any, out: Any) -> None:  # pragma: no cover
    piles = sizes.shape[0]
    n = out.shape[0]
    deck = out.shape[1]
    state = np.empty(_TILE, np.uint64)
    skip = np.zeros((max(piles - 1, 1), deck, _TILE), np.uint8)
    buf_a = np.empty(deck, np.int64)
    buf_b = np.empty(deck, np.int64)
    for start in range(0, n, _TILE):
        m = min(_TILE, n - start)
        r = deck
        # the lexicographic walk of every pile, over the tile's deals; each state
        # packs the cards still to pick (top 6 bits) over the digit (58 bits)
        for p in range(piles - 1):
            k = np.uint64(sizes[p])
            for i in range(m):
                state[i] = digits[p, start + i] | (k << _SHIFT)
            for q in range(r):
                tq = tables[p, q]
                row = skip[p, q]
                for i in range(m):
                    x = state[i]
                    t = tq[x >> _SHIFT]
                    sk = (x & _LOW) >= t
                    state[i] = x - (t if sk else _ONE_PICK)
                    row[i] = sk
            r -= sizes[p]
        # each deal's cards: a pile takes the cards its walk did not skip
        for i in range(m):
            o = out[start + i]
            cur = buf_a
            nxt = buf_b
            r = deck
            for p in range(piles - 1):
                w = 0
                sp = skip[p]
                for q in range(r):
                    c = q if p == 0 else cur[q]
                    o[c] = p
                    nxt[w] = c
                    w += sp[q, i]
                cur, nxt = nxt, cur
                r = w
            for q in range(r):
                o[cur[q] if piles > 1 else q] = piles - 1


@numba.njit(nogil=True, cache=True)
def _digits_kernel(
    rows: Any, widths: Any, offsets: Any, ranges: Any, limits: Any, digits: Any, rejected: Any
) -> None:  # pragma: no cover
    n = rows.shape[0]
    for i in range(n):
        for p in range(widths.shape[0]):
            w = widths[p]
            if w == 0:
                continue
            value = np.uint64(0)
            for j in range(w):
                value = (value << np.uint64(8)) | np.uint64(rows[i, offsets[p] + j])
            rejected[i, p] = value >= limits[p]
            digits[p, i] = value % ranges[p]


@numba.njit(nogil=True, inline="always")
def _deposit(source: Any, mask: Any, popcount: Any, deposit: Any) -> Any:  # pragma: no cover
    """The low bits of ``source`` moved to the set bits of ``mask``, in order (a byte at a time)."""
    out = np.uint64(0)
    for b in range(8):
        octet = (mask >> np.uint64(8 * b)) & np.uint64(255)
        count = popcount[octet]
        chunk = source & ((np.uint64(1) << count) - np.uint64(1))
        out |= deposit[octet * np.uint64(256) + chunk] << np.uint64(8 * b)
        source >>= count
    return out


@numba.njit(nogil=True, cache=True)
def _unrank_kernel_narrow(
    digits: Any,
    sizes: Any,
    tables: Any,
    out: Any,
    masks: Any,
    popcount: Any,
    deposit: Any,
    spread: Any,
) -> None:  # pragma: no cover
    """:func:`_unrank_kernel` for decks of at most 64 cards, through card bitmasks.

    The walks record each deal's skipped positions as a bitmask per pile; a
    pile's cards are its picked positions deposited into the cards still
    free; labels are written from bit planes of the pile masks.
    """
    piles = sizes.shape[0]
    n = out.shape[0]
    deck = out.shape[1]
    state = np.empty(_TILE, np.uint64)
    skipped = np.zeros((max(piles - 1, 1), _TILE), np.uint64)
    left = np.empty(piles, np.int64)
    planes = np.zeros(8, np.uint64)
    count_planes = 1
    while (1 << count_planes) < piles:
        count_planes += 1
    full = ~np.uint64(0) if deck == 64 else (np.uint64(1) << np.uint64(deck)) - np.uint64(1)
    for start in range(0, n, _TILE):
        m = min(_TILE, n - start)
        r = deck
        for p in range(piles - 1):
            left[p] = r
            k = np.uint64(sizes[p])
            sp = skipped[p]
            for i in range(m):
                state[i] = digits[p, start + i] | (k << _SHIFT)
                sp[i] = 0
            for q in range(r):
                tq = tables[p, q]
                bit = np.uint64(1) << np.uint64(q)
                for i in range(m):
                    x = state[i]
                    t = tq[x >> _SHIFT]
                    sk = (x & _LOW) >= t
                    state[i] = x - (t if sk else _ONE_PICK)
                    sp[i] |= bit if sk else np.uint64(0)
            r -= sizes[p]
        for i in range(m):
            free = full
            for j in range(count_planes):
                planes[j] = 0
            for p in range(piles):
                if p < piles - 1:
                    r = left[p]
                    within = (
                        ~np.uint64(0) if r == 64 else (np.uint64(1) << np.uint64(r)) - np.uint64(1)
                    )
                    picked = ~skipped[p, i] & within
                    cards = picked if p == 0 else _deposit(picked, free, popcount, deposit)
                else:
                    cards = free
                masks[p, start + i] = cards
                free &= ~cards
                for j in range(count_planes):
                    if (p >> j) & 1:
                        planes[j] |= cards
            o = out[start + i]
            for b in range((deck + 7) // 8):
                v = np.uint64(0)
                for j in range(count_planes):
                    v |= spread[(planes[j] >> np.uint64(8 * b)) & np.uint64(255)] << np.uint64(j)
                for c in range(min(8, deck - 8 * b)):
                    o[8 * b + c] = (v >> np.uint64(8 * c)) & np.uint64(255)


@lru_cache(maxsize=1)
def _byte_tables() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """Popcounts of bytes, bit deposits of a byte (mask * 256 + bits), and a byte's bits spread
    to the low bit of eight bytes."""
    popcount = np.array([bin(b).count("1") for b in range(256)], np.uint64)
    deposit = np.zeros(256 * 256, np.uint64)
    for mask in range(256):
        bits = [i for i in range(8) if mask >> i & 1]
        for src in range(1 << len(bits)):
            deposit[mask * 256 + src] = sum(1 << b for i, b in enumerate(bits) if src >> i & 1)
    spread = np.array(
        [sum(((v >> k) & 1) << (8 * k) for k in range(8)) for v in range(256)], np.uint64
    )
    return popcount, deposit, spread


@numba.njit(nogil=True, cache=True)
def _masks_kernel(piles: Any, out: Any) -> None:  # pragma: no cover
    n, deck = piles.shape
    for i in range(n):
        row = piles[i]
        masks = out[i]
        for c in range(deck):
            masks[row[c]] |= np.uint64(1) << np.uint64(c)


def masks_compiled(piles: npt.NDArray[np.uint8], count: int) -> npt.NDArray[np.uint64]:
    """Every pile's card bitmask, ``(n, count)``, from a deal array's piles (deck <= 64)."""
    out = np.zeros((piles.shape[0], count), np.uint64)
    _masks_kernel(np.ascontiguousarray(piles), out)
    return out


def digits_compiled(
    rows: npt.NDArray[np.uint8], plan: DigitPlan
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.bool_]]:
    """:func:`croupier.bulk.digits.accepted_digits`, compiled (needs numba)."""
    n, piles = rows.shape[0], len(plan.sizes)
    digits = np.zeros((piles, n), np.uint64)
    rejected = np.zeros((n, piles), bool)
    limits = np.array([min(lim, (1 << 64) - 1) for lim in plan.limits], np.uint64)
    _digits_kernel(
        np.ascontiguousarray(rows),
        np.array(plan.widths, np.int64),
        np.array(plan.offsets, np.int64),
        np.array(plan.ranges, np.uint64),
        limits,
        digits,
        rejected,
    )
    return digits, rejected


@lru_cache(maxsize=64)
def _tables(sizes: tuple[int, ...]) -> npt.NDArray[np.uint64]:
    """Every pile's :func:`pick_table`, padded into one array ``(piles - 1, deck, max k + 1)``."""
    deck = sum(sizes)
    width = max(sizes[:-1], default=0) + 1
    tables = np.zeros((max(len(sizes) - 1, 1), deck, width), np.uint64)
    left = deck
    for p, k in enumerate(sizes[:-1]):
        tables[p, :left, : k + 1] = pick_table(left, k)
        left -= k
    return tables


def unrank_compiled(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]], sizes: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64] | None]:
    """:func:`croupier.bulk.unrank.unrank_digits`, compiled (needs numba).

    Also returns every pile's card bitmasks ``(piles, n)`` for decks of at most
    64 cards (``None`` for bigger decks).
    """
    n = digits[0].shape[0] if len(digits) else 0
    out = np.empty((n, sum(sizes)), np.uint8)
    stacked = np.ascontiguousarray(digits, dtype=np.uint64)
    counts = np.array(sizes, np.int64)
    if sum(sizes) <= 64:
        masks = np.empty((len(sizes), n), np.uint64)
        tables = _tables(tuple(sizes))
        _unrank_kernel_narrow(stacked, counts, tables, out, masks, *_byte_tables())
        return out, masks
    _unrank_kernel(stacked, counts, _tables(tuple(sizes)), out)
    return out, None


@numba.njit(nogil=True, cache=True)
def _stacks_kernel(
    cards: Any, digits: Any, radices: Any, chunk_sizes: Any, stack_sizes: Any, out: Any
) -> None:  # pragma: no cover
    n = cards.shape[0]
    offsets = np.empty(radices.shape[0], np.int64)
    for i in range(n):
        at = 0
        for c in range(chunk_sizes.shape[0]):
            value = digits[c, i]
            for t in range(chunk_sizes[c] - 1, -1, -1):
                q = np.uint64(radices[at + t])
                offsets[at + t] = np.int64(value % q)
                value //= q
            at += chunk_sizes[c]
        row = out[i]
        for j in range(cards.shape[1]):
            row[j] = cards[i, j]
        start = 0
        used = 0
        for s in range(stack_sizes.shape[0]):
            k = stack_sizes[s]
            for j in range(k - 1):
                a = start + j
                b = a + offsets[used + j]
                top = row[a]
                row[a] = row[b]
                row[b] = top
            start += k
            used += k - 1


def stacks_compiled(
    cards: npt.NDArray[np.unsignedinteger],
    digits: npt.NDArray[np.uint64],
    chunks: Sequence[Sequence[int]],
    sizes: Sequence[int],
) -> npt.NDArray[np.unsignedinteger]:
    """Every deal's stacks put in order, compiled (the rule of :mod:`croupier.bulk.stacks`).

    ``cards`` holds every stack's cards in deck order, the stacks side by side
    (``sizes``); ``digits`` the chunk digits ``(chunks, n)``; the result is
    ``cards`` with each stack swapped into its order.
    """
    radices = np.array([q for chunk in chunks for q in chunk], np.int64)
    out = np.empty_like(cards)
    _stacks_kernel(
        np.ascontiguousarray(cards),
        np.ascontiguousarray(digits, dtype=np.uint64),
        radices,
        np.array([len(c) for c in chunks], np.int64),
        np.array(sizes, np.int64),
        out,
    )
    return out
