"""Digits to deals: pile by pile, the lexicographic subset of the undealt cards.

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
:func:`unrank_reference` is that rule for one deal in plain Python (the
executable specification); the compiled core (``croupier._core.bulk_kernels``:
``unrank_narrow`` for decks of at most 64 cards, which also gives every pile's
card bitmask, ``unrank_wide`` for bigger decks) runs it over arrays of deals,
with the same result.

>>> unrank_reference([14, 5, 0], (2, 2, 2))
[2, 2, 1, 1, 0, 0]
>>> digits = [np.array([0, 14], np.uint64), np.array([0, 5], np.uint64), np.zeros(2, np.uint64)]
>>> unrank_digits(digits, (2, 2, 2)).tolist()
[[0, 0, 1, 1, 2, 2], [2, 2, 1, 1, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt

from croupier._core import bulk_kernels
from croupier._core.engines import Engine, resolve
from croupier.bulk.lex_tables import kernel_tables, pick_table
from croupier.errors import CroupierError

__all__ = [
    "MASK_CARDS",
    "MAX_TABLE_ENTRIES",
    "Engine",
    "pick_table",
    "tables_fit",
    "unrank_digits",
    "unrank_into",
    "unrank_reference",
    "unrank_with_masks",
]

MASK_CARDS = 64
"""Decks up to this many cards are unranked through card bitmasks (one ``uint64`` a pile)."""

MAX_TABLE_ENTRIES = 1 << 22
"""The most threshold-table entries the compiled unranking builds for one layout."""

_MAX_PILES = 255


def unrank_reference(digits: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """One deal's pile of every card (deck order) from its digits: the rule, in plain Python.

    ``digits[p]`` is pile ``p``'s digit, below ``C(r_p, k_p)``; the last pile takes
    the cards left (its digit, if given, is 0).  The compiled kernels are held to
    this function by the tests.

    >>> unrank_reference([0, 0], (1, 1, 1)), unrank_reference([2, 1], (1, 1, 1))
    ([0, 1, 2], [2, 1, 0])
    """
    deck = sum(sizes)
    owners = [len(sizes) - 1] * deck
    undealt = list(range(deck))
    for p, k in enumerate(sizes[:-1]):
        d, j, kept = int(digits[p]), k, []
        for q, card in enumerate(undealt):
            threshold = comb(len(undealt) - 1 - q, j - 1) if j else 0
            if d >= threshold:  # skipped: the digit passes every subset holding this card
                d -= threshold
                kept.append(card)
            else:
                owners[card] = p
                j -= 1
        undealt = kept
    return owners


def tables_fit(sizes: Sequence[int]) -> bool:
    """Whether the compiled unranking of these pile sizes has small enough tables.

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


def _checked(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]], sizes: Sequence[int]
) -> npt.NDArray[np.uint64]:
    """The digits as one C-contiguous ``(piles, n)`` array, after checking the layout."""
    if not 1 <= len(sizes) <= _MAX_PILES or min(sizes) < 0:
        raise CroupierError(f"pile sizes must be 1 to {_MAX_PILES} counts of at least 0")
    if not tables_fit(sizes):
        raise CroupierError(f"the tables of pile sizes {list(sizes)} are too big to unrank")
    stacked = np.ascontiguousarray(digits, dtype=np.uint64)
    if stacked.ndim != 2 or stacked.shape[0] < len(sizes) - 1:
        raise CroupierError(f"digits need shape (piles, n), not {stacked.shape}")
    return stacked


def unrank_into(
    digits: npt.NDArray[np.uint64],
    sizes: Sequence[int],
    out: npt.NDArray[np.uint8],
    masks: npt.NDArray[np.uint64] | None,
    lo: int,
    hi: int,
    dest: int,
    engine: Engine = "auto",
) -> None:
    """Deals ``lo .. hi - 1`` of ``digits`` ``(piles, n)`` into rows ``dest ..`` of ``out``
    ``(rows, deck)`` and, for decks of at most 64 cards, of ``masks`` ``(piles, rows)``.

    The interpreter lock is released while the compiled kernel runs, so threads
    can fill parts of one output side by side.

    >>> out, masks = np.zeros((1, 6), np.uint8), np.zeros((3, 1), np.uint64)
    >>> unrank_into(np.array([[0, 14], [0, 5]], np.uint64), (2, 2, 2), out, masks, 1, 2, 0)
    >>> out.tolist(), masks[:, 0].tolist()
    ([[2, 2, 1, 1, 0, 0]], [48, 12, 3])
    """
    deck = sum(sizes)
    narrow = deck <= MASK_CARDS
    if narrow and masks is None:
        raise CroupierError(f"a deck of at most {MASK_CARDS} cards is unranked with its masks")
    if resolve(engine) == "python":
        columns = digits[:, lo:hi].T.tolist()
        for i, row in enumerate(columns):
            owners = unrank_reference(row, sizes)
            out[dest + i] = owners
            if masks is not None:
                for p in range(len(sizes)):
                    masks[p, dest + i] = sum(1 << c for c, o in enumerate(owners) if o == p)
        return
    t = kernel_tables(tuple(sizes))
    if narrow and masks is not None:
        bulk_kernels.unrank_narrow(
            digits, t.sizes, t.tables, t.at, t.stride, out, masks, lo, hi, dest
        )
    else:
        bulk_kernels.unrank_wide(digits, t.sizes, t.tables, t.at, t.stride, out, lo, hi, dest)


def unrank_digits(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]],
    sizes: Sequence[int],
    engine: Engine = "auto",
) -> npt.NDArray[np.uint8]:
    """The pile index of every card, ``(n, deck)``, for each deal's per-pile digits.

    ``digits[p]`` holds pile ``p``'s digit for every deal (below
    ``C(r_p, k_p)``, which must fit 64 bits); the last pile takes the rest.

    >>> unrank_digits(np.array([[14], [5]], np.uint64), (2, 2, 2)).tolist()
    [[2, 2, 1, 1, 0, 0]]
    """
    return unrank_with_masks(digits, sizes, engine)[0]


def unrank_with_masks(
    digits: npt.NDArray[np.uint64] | Sequence[npt.NDArray[np.uint64]],
    sizes: Sequence[int],
    engine: Engine = "auto",
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64] | None]:
    """:func:`unrank_digits`, and every pile's card bitmasks ``(piles, n)`` when the deck
    has at most 64 cards (``None`` otherwise): the kernel computes them on the way.

    >>> digits = np.array([[14], [5], [0]], np.uint64)
    >>> piles, masks = unrank_with_masks(digits, (2, 2, 2))
    >>> piles.tolist(), [bin(int(m)) for m in masks[:, 0]]
    ([[2, 2, 1, 1, 0, 0]], ['0b110000', '0b1100', '0b11'])
    """
    stacked = _checked(digits, sizes)
    n = stacked.shape[1]
    deck = sum(sizes)
    out = np.empty((n, deck), np.uint8)
    masks = np.empty((len(sizes), n), np.uint64) if deck <= MASK_CARDS else None
    unrank_into(stacked, sizes, out, masks, 0, n, 0, engine)
    return out, masks
