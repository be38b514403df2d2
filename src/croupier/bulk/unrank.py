"""Digits to deals, vectorised: pile by pile, the lexicographic subset of the undealt cards.

Digit ``p`` (uniform below ``C(r_p, k_p)``) is the rank, in lexicographic
order, of pile ``p``'s cards among the ``r_p`` cards still undealt, listed in
deck order.  Together the digits are exactly the deal's number under the
``croupier`` scheme (pile 0 most significant), so
``unrank_digits(...)[i]`` is the deal of
:func:`croupier.dealing.deal.deal_from_number` with that number; the tests
check it.

Lexicographic unranking walks the undealt cards in order: with ``j`` cards
still to pick and ``m`` cards after this one, the card is picked when the
digit is below ``C(m, j - 1)``; otherwise ``C(m, j - 1)`` is subtracted.
Each step runs over all deals at once.

>>> from croupier.bulk.digits import digit_plan
>>> sizes = (2, 2, 2)
>>> digits = [np.array([0, 14], np.uint64), np.array([0, 5], np.uint64), np.zeros(2, np.uint64)]
>>> unrank_digits(digits, sizes).tolist()
[[0, 0, 1, 1, 2, 2], [2, 2, 1, 1, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from croupier.bulk.lex_tables import pick_table, skip_table
from croupier.errors import CroupierError

__all__ = [
    "MAX_TABLE_ENTRIES",
    "Engine",
    "Kernel",
    "compiled_available",
    "compiled_fits",
    "pick_table",
    "skip_table",
    "tables_fit",
    "unrank_digits",
    "unrank_with_masks",
    "use_compiled",
]

_MASK_CARDS = 64
_COMPILED_CARDS = 1024
MAX_TABLE_ENTRIES = 1 << 22
"""The most threshold-table entries vectorised unranking builds for one layout."""
_CHUNK = 32768  # deals unranked together: small enough to stay in the CPU caches


@lru_cache(maxsize=128)
def _skip_table_32(r: int, k: int) -> npt.NDArray[np.uint32]:
    """:func:`skip_table` in 32-bit words, for digits below 2**32 (unreachable: 2**32 - 1)."""
    table = np.minimum(skip_table(r, k), np.uint64(0xFFFFFFFF)).astype(np.uint32)
    table.flags.writeable = False
    return table


def _lex_positions(digit: npt.NDArray[np.uint64], r: int, k: int) -> npt.NDArray[np.uint64]:
    """The lexicographic ``k``-subset of ``r <= 64`` positions of rank ``digit``, as bitmasks."""
    n = digit.shape[0]
    # digits below 2**32 walk in 32-bit words: half the memory traffic, the same steps
    narrow = comb(r, k) < 1 << 32
    word = np.uint32 if narrow else np.uint64
    table: npt.NDArray[np.unsignedinteger[Any]] = (
        _skip_table_32(r, k) if narrow else skip_table(r, k)
    )
    skipped = np.zeros(n, np.intp)
    d = digit.astype(word)
    t = np.empty(n, word)
    skip = np.empty(n, bool)
    shifted = np.empty(n, np.uint8)
    packed = np.zeros((8, n), np.uint8)
    rest = np.empty(n, word)
    for q in range(r):
        # skip when d >= t: then d - t does not wrap around, so it is the smaller one
        np.take(table[q], skipped, out=t)
        np.subtract(d, t, out=rest)
        np.less_equal(rest, d, out=skip)
        np.minimum(rest, d, out=d)
        np.add(skipped, skip, out=skipped)
        np.left_shift(skip.view(np.uint8), np.uint8(q & 7), out=shifted)
        np.bitwise_or(packed[q >> 3], shifted, out=packed[q >> 3])
    skips = np.ascontiguousarray(packed.T).view("<u8").reshape(n).astype(np.uint64)
    return ~skips & np.uint64((1 << r) - 1)


def _lex_picks(digit: npt.NDArray[np.uint64], r: int, k: int) -> npt.NDArray[np.bool_]:
    """Which of ``r`` positions the lexicographic ``k``-subset of rank ``digit`` holds: (n, r)."""
    n = digit.shape[0]
    table = pick_table(r, k)
    picks = np.empty((r, n), bool)
    left = np.full(n, k, np.intp)
    d = digit.copy()
    t = np.empty(n, np.uint64)
    skip = np.empty(n, bool)
    rest = np.empty(n, np.uint64)
    for q in range(r):
        np.take(table[q], left, out=t)
        np.subtract(d, t, out=rest)
        np.less_equal(rest, d, out=skip)
        np.minimum(rest, d, out=d)
        np.logical_not(skip, out=picks[q])
        np.subtract(left, picks[q], out=left)
    return np.ascontiguousarray(picks.T)


@lru_cache(maxsize=1)
def _byte_tables() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """Tables for depositing bits one byte at a time: popcount, low masks, and deposits."""
    byte = np.arange(256, dtype=np.uint8)
    popcount = np.zeros(256, np.uint8)
    for b in range(8):
        popcount += (byte >> b) & 1
    low = np.array([(1 << c) - 1 for c in range(9)], np.uint64)
    # deposit[mask * 256 + src]: the low bits of src, in order, on the set bits of mask
    # (0 where src has more bits than mask); built with numpy, not 6,561 Python sums, as
    # it is built once per process, in the start-up of a short run
    mask, src = byte[:, None], byte[None, :]
    deposit = np.zeros((256, 256), np.uint8)
    below = np.zeros((256, 1), np.uint8)  # set bits of mask below bit b
    for b in range(8):
        here = (mask >> b) & 1
        deposit |= (here & (src >> below)) << b
        below += here
    deposit[src.astype(np.uint16) >= 1 << popcount[:, None].astype(np.uint16)] = 0
    return popcount.astype(np.uint64), low, deposit.reshape(-1).astype(np.uint64)


def _deposit(
    source: npt.NDArray[np.uint64], mask: npt.NDArray[np.uint64]
) -> npt.NDArray[np.uint64]:
    """Scatter the low bits of ``source`` to the set bits of ``mask`` in order (bit deposit)."""
    popcount, low, deposit = _byte_tables()
    out = np.zeros_like(source)
    src = source.copy()
    for byte in range(8):
        shift = np.uint64(8 * byte)
        m = (mask >> shift) & np.uint64(0xFF)
        count = popcount[m]
        chunk = src & low[count]
        out |= deposit[m * np.uint64(256) + chunk] << shift
        src >>= count
    return out


def _labels_from_masks(masks: Sequence[npt.NDArray[np.uint64]], deck: int) -> npt.NDArray[np.uint8]:
    """The pile index of every card from per-pile card bitmasks (deck <= 64 cards).

    Bit ``j`` of a card's pile index is set in bit plane ``j``: the union of
    the masks of the piles whose index has bit ``j``.  Each byte of a plane
    becomes eight label bytes at once (a table spreads its bits one per byte).
    """
    n = masks[0].shape[0]
    spread = _spread_table()
    planes = []
    for j in range(max(1, (len(masks) - 1).bit_length())):
        plane = np.zeros(n, np.uint64)
        for p, mask in enumerate(masks):
            if p >> j & 1:
                plane |= mask
        planes.append(plane)
    words = (deck + 7) // 8
    out = np.zeros((n, words), np.uint64)
    octet = np.empty(n, np.uint64)
    spread_out = np.empty(n, np.uint64)
    for b in range(words):
        for j, plane in enumerate(planes):
            np.right_shift(plane, np.uint64(8 * b), out=octet)
            np.bitwise_and(octet, np.uint64(0xFF), out=octet)
            np.take(spread, octet, out=spread_out)
            if j:
                np.left_shift(spread_out, np.uint64(j), out=spread_out)
            out[:, b] |= spread_out
    return np.ascontiguousarray(out.astype("<u8").view(np.uint8)[:, :deck])


@lru_cache(maxsize=1)
def _spread_table() -> npt.NDArray[np.uint64]:
    """For each byte value, the 64-bit word whose byte ``k`` is bit ``k`` of the value."""
    value = np.arange(256, dtype=np.uint64)
    table = np.zeros(256, np.uint64)
    for k in range(8):
        table |= ((value >> np.uint64(k)) & np.uint64(1)) << np.uint64(8 * k)
    table.flags.writeable = False
    return table


def tables_fit(sizes: Sequence[int]) -> bool:
    """Whether the vectorised unranking of these pile sizes has small enough tables.

    Its tables hold ``r_p * (k_p + 1)`` entries per pile; beyond
    :data:`MAX_TABLE_ENTRIES` in all, deals are unranked one by one instead.

    >>> tables_fit((13, 13, 13, 13)), tables_fit((5000, 2, 2))
    (True, False)
    """
    left, entries = sum(sizes), 0
    for k in sizes[:-1]:
        entries += left * (k + 1)
        left -= k
    return entries <= MAX_TABLE_ENTRIES


def compiled_available() -> bool:
    """Whether the compiled kernel (optional extra ``fast``: numba) can be used."""
    from importlib.util import find_spec

    return find_spec("numba") is not None


Kernel = Literal["auto", "numpy", "compiled"]
"""Which code unranks (the ``engine=`` argument): the compiled kernel when available
(``auto``), or the one named."""

Engine = Kernel
"""The former name of :data:`Kernel` (kept for imports of it)."""


def compiled_fits(sizes: Sequence[int]) -> bool:
    """Whether the compiled kernel takes these pile sizes: digits below 2**58, piles below 64.

    (It packs a digit and the cards still to pick into 64 bits.)

    >>> compiled_fits((13, 13, 13, 13)), compiled_fits((26, 26)), compiled_fits((30, 30, 4))
    (True, True, False)
    """
    left = sum(sizes)
    if left > _COMPILED_CARDS:
        return False
    for k in sizes[:-1]:
        if k >= 64 or comb(left, k) >= 1 << 58:
            return False
        left -= k
    return True


def use_compiled(engine: Kernel, sizes: Sequence[int]) -> bool:
    """Whether ``engine`` means the compiled kernel for these pile sizes.

    ``"compiled"`` insists (an error if the sizes do not fit it); ``"auto"``
    uses it when numba is installed and the sizes fit.

    >>> use_compiled("numpy", (13, 13, 13, 13))
    False
    """
    if engine == "compiled":
        if not compiled_fits(sizes):
            raise CroupierError(
                f"the compiled engine takes piles below 64 cards, digits below 2**58 and "
                f"decks up to {_COMPILED_CARDS} cards, not pile sizes {list(sizes)}"
            )
        return True
    return engine == "auto" and compiled_fits(sizes) and compiled_available()


def unrank_digits(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]],
    sizes: Sequence[int],
    engine: Kernel = "auto",
) -> npt.NDArray[np.uint8]:
    """The pile index of every card, ``(n, deck)``, for each deal's per-pile digits.

    ``digits[p]`` holds pile ``p``'s digit for every deal (below
    ``C(r_p, k_p)``, which must fit 64 bits); the last pile takes the rest.
    """
    return unrank_with_masks(digits, sizes, engine)[0]


def unrank_with_masks(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]],
    sizes: Sequence[int],
    engine: Kernel = "auto",
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64] | None]:
    """:func:`unrank_digits`, and every pile's card bitmasks ``(piles, n)`` when the deck
    has at most 64 cards (``None`` otherwise): both engines compute them on the way.

    >>> digits = np.array([[14], [5], [0]], np.uint64)
    >>> piles, masks = unrank_with_masks(digits, (2, 2, 2))
    >>> piles.tolist(), [bin(int(m)) for m in masks[:, 0]]
    ([[2, 2, 1, 1, 0, 0]], ['0b110000', '0b1100', '0b11'])
    """
    deck = sum(sizes)
    n = digits[0].shape[0] if len(digits) else 0
    if use_compiled(engine, sizes):
        from croupier.bulk._numba import unrank_compiled

        return unrank_compiled(digits, sizes)
    if deck > _MASK_CARDS:
        return _unrank_wide(digits, sizes, n), None
    out = np.empty((n, deck), np.uint8)
    masks = np.empty((len(sizes), n), np.uint64)
    for start in range(0, n, _CHUNK):
        chunk = [d[start : start + _CHUNK] for d in digits]
        out[start : start + _CHUNK], masks[:, start : start + _CHUNK] = _unrank_narrow(chunk, sizes)
    return out, masks


def _unrank_narrow(
    digits: Sequence[npt.NDArray[np.uint64]], sizes: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64]]:
    """:func:`unrank_digits` for decks of at most 64 cards, through card bitmasks."""
    deck = sum(sizes)
    n = digits[0].shape[0]
    free = np.full(n, (1 << deck) - 1, np.uint64)
    masks: list[npt.NDArray[np.uint64]] = []
    left = deck
    for p, k in enumerate(sizes[:-1]):
        positions = _lex_positions(digits[p], left, k) if k else np.zeros(n, np.uint64)
        mask = positions if p == 0 else _deposit(positions, free)
        masks.append(mask)
        free &= ~mask
        left -= k
    masks.append(free)
    return _labels_from_masks(masks, deck), np.stack(masks)


def _unrank_wide(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]], sizes: Sequence[int], n: int
) -> npt.NDArray[np.uint8]:
    """:func:`unrank_digits` for decks of more than 64 cards (boolean expansion)."""
    piles = len(sizes)
    picked: list[npt.NDArray[np.bool_]] = []
    left = sum(sizes)
    for p, k in enumerate(sizes[:-1]):
        picked.append(_lex_picks(digits[p], left, k))
        left -= k
    labels: npt.NDArray[np.uint8] = np.full((n, left), piles - 1, np.uint8)
    for p in range(piles - 2, -1, -1):
        pick = picked[p]
        wider: npt.NDArray[np.uint8] = np.empty(pick.shape, np.uint8)
        wider[pick] = p
        wider[~pick] = labels.ravel()
        labels = wider
    return labels
