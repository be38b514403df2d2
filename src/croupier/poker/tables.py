"""The lookup tables of hand evaluation, built from the rules on first use (about 0.1 s).

**Hand values.**  There are exactly 7,462 different five-card poker hands
once suits are forgotten (except for flush or not): :func:`hand_classes`
lists them from the worst (7-5-4-3-2, no flush) to the best (the royal
flush), so a hand's *value* is its position in that list, ``1 .. 7462``:
a larger value is a better hand, equal values split the pot.

**Card numbers.**  The vectorised code numbers the 52 cards as the deal
arrays do (the columns of :class:`~croupier.bulk.DealArray` for the standard
games): ``AS KS … 2S AH … 2C`` are ``0 … 51``, so card ``c`` has suit
``c // 13`` (spades, hearts, diamonds, clubs) and rank index ``12 - c % 13``
(``0`` is the deuce, ``12`` the ace).

**How a hand of 5, 6 or 7 cards is looked up.**  Every card has a code
(:attr:`Tables.card_code`): its rank's key from :data:`RANK_KEYS` plus a one in
its suit's 3-bit counter above bit 24.  The codes of a hand add up to one
integer whose low 24 bits are the *rank key* (the sum of the rank keys: the
keys are chosen so that no two multisets of 5, of 6 or of 7 ranks have the
same sum) and whose bits 24..35 count the cards of each suit.

* No suit holds five cards: the value is ``nonflush(size)[rank key]``, the
  best five-card hand of that multiset of ranks with no flush.
* A suit holds five or more (:attr:`Tables.flush_suit` says which): the value
  is ``flush[ranks of that suit]``, the best flush or straight flush of that
  13-bit set.  With at most seven cards nothing that is not a flush beats it
  (a full house or four of a kind would need three cards outside the suit).

The no-flush tables span the rank keys (13 to 16 MB); the compiled kernel reads
them through :meth:`Tables.hashed`, a perfect hash of the same entries in a few
hundred kB (:class:`RankHash`), which stays in the processor's cache.

>>> t = tables()
>>> len(t.classes), t.classes[0], t.classes[-1]
(7462, (0, (5, 3, 2, 1, 0)), (8, (12,)))
>>> key = sum(RANK_KEYS[r] for r in (12, 12, 5, 5, 0))          # A A 7 7 2, no flush
>>> t.classes[int(t.nonflush(5)[key]) - 1]
(2, (12, 5, 0))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

__all__ = [
    "CATEGORY_COUNTS",
    "HASH_SHIFT",
    "KEY_BITS",
    "RANK_KEYS",
    "SUIT_SHIFT",
    "RankHash",
    "Tables",
    "best_key",
    "card_rank",
    "card_suit",
    "class_ranks",
    "hand_classes",
    "straight_top",
    "tables",
]

RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)
"""The key of each rank (deuce first): sums of 5, of 6 or of 7 keys, at most four
of each, are all different (a greedy choice, the smallest key that keeps the sums
apart; ``tests/test_poker_tables.py`` checks it).  The largest sum is 7,825,759."""

KEY_BITS = 24
"""Bits of the rank key in a sum of card codes; the suit counters sit above them."""

SUIT_SHIFT = KEY_BITS
"""Suit ``s`` counts its cards in bits ``SUIT_SHIFT + 3 s .. SUIT_SHIFT + 3 s + 2``."""

HASH_SHIFT = 12
"""Bits of a row's column in :class:`RankHash`: the rank-key space is cut into rows of
``2**HASH_SHIFT`` keys (4,096 rows of the 24-bit keys)."""

CATEGORY_COUNTS: tuple[int, ...] = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
"""How many hand values each category has, worst category first (they add up to 7,462)."""

_STRAIGHTS: tuple[tuple[int, int], ...] = (
    *((top, 0b11111 << (top - 4)) for top in range(12, 3, -1)),
    (3, 0b1111 | 1 << 12),
)
"""Every straight, best first: ``(top rank index, its ranks as bits)``; the wheel is last."""

Key = tuple[int, tuple[int, ...]]
"""A hand class: ``(category, ranks that decide, most significant first)``."""


def card_rank(number: int) -> int:
    """Rank index (0 = deuce … 12 = ace) of a card number.

    >>> card_rank(0), card_rank(12), card_rank(51)
    (12, 0, 0)
    """
    return 12 - number % 13


def card_suit(number: int) -> int:
    """Suit index (0 spades, 1 hearts, 2 diamonds, 3 clubs) of a card number.

    >>> card_suit(0), card_suit(13), card_suit(51)
    (0, 1, 3)
    """
    return number // 13


def straight_top(ranks: frozenset[int] | set[int]) -> int | None:
    """The top rank index of the best straight in a set of rank indices, or ``None``.

    The wheel (5-4-3-2-A) has top 3 (the five).

    >>> straight_top({12, 0, 1, 2, 3}), straight_top({8, 9, 10, 11, 12, 0}), straight_top({1, 2})
    (3, 12, None)
    """
    bits = sum(1 << r for r in ranks)
    for top, run in _STRAIGHTS:
        if bits & run == run:
            return top
    return None


def best_key(ranks: tuple[int, ...] | list[int], flush: bool) -> Key:
    """The hand class of exactly five cards, by the rules: ``(category, deciding ranks)``.

    ``ranks`` are five rank indices (0 = deuce … 12 = ace), ``flush`` whether
    the five share a suit.  Categories: 0 high card, 1 one pair, 2 two pair,
    3 three of a kind, 4 straight, 5 flush, 6 full house, 7 four of a kind,
    8 straight flush.

    >>> best_key((12, 12, 5, 5, 0), False), best_key((3, 2, 1, 0, 12), True)
    ((2, (12, 5, 0)), (8, (3,)))
    """
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = tuple(r for r, _ in groups)
    top = straight_top(frozenset(counts)) if len(counts) == 5 else None
    if top is not None and flush:
        return (8, (top,))
    if shape == [4, 1]:
        return (7, order)
    if shape == [3, 2]:
        return (6, order)
    if flush:
        return (5, order)
    if top is not None:
        return (4, (top,))
    if shape == [3, 1, 1]:
        return (3, order)
    if shape == [2, 2, 1]:
        return (2, order)
    if shape == [2, 1, 1, 1]:
        return (1, order)
    return (0, order)


@cache
def hand_classes() -> tuple[Key, ...]:
    """Every class of five-card hands, worst first: ``value - 1`` indexes this tuple.

    >>> classes = hand_classes()
    >>> classes.index((6, (11, 5))) + 1                     # kings full of sevens
    7278
    """
    desc = list(range(12, -1, -1))
    fives: list[tuple[int, ...]] = [
        c for c in itertools.combinations(desc, 5) if straight_top(frozenset(c)) is None
    ]
    tops: list[tuple[int, ...]] = [(t,) for t in range(3, 13)]
    per_category: list[list[tuple[int, ...]]] = [
        fives,
        [(p, *k) for p in desc for k in itertools.combinations([r for r in desc if r != p], 3)],
        [(a, b, k) for a, b in itertools.combinations(desc, 2) for k in desc if k not in (a, b)],
        [(t, *k) for t in desc for k in itertools.combinations([r for r in desc if r != t], 2)],
        tops,
        fives,
        [(t, p) for t in desc for p in desc if p != t],
        [(q, k) for q in desc for k in desc if k != q],
        tops,
    ]
    classes: list[Key] = []
    for category, keys in enumerate(per_category):
        classes += [(category, k) for k in sorted(keys)]
    return tuple(classes)


def class_ranks(key: Key) -> tuple[int, ...]:
    """The five rank indices of a hand class, most significant first (pairs repeated).

    >>> class_ranks((2, (12, 5, 0))), class_ranks((4, (3,))), class_ranks((6, (11, 5)))
    ((12, 12, 5, 5, 0), (3, 2, 1, 0, 12), (11, 11, 11, 5, 5))
    """
    category, ranks = key
    if category in (4, 8):
        top = ranks[0]
        return (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))
    shape = {1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 6: (3, 2), 7: (4, 1)}.get(
        category, (1, 1, 1, 1, 1)
    )
    return tuple(r for r, k in zip(ranks, shape, strict=True) for _ in range(k))


def _multisets(size: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``size`` rank indices with at most four of each, as sorted rows."""
    rows = np.arange(13, dtype=np.int64)[:, None]
    for _ in range(size - 1):
        last = rows[:, -1]
        counts = 13 - last
        grown = np.repeat(rows, counts, axis=0)
        starts = np.repeat(last, counts)
        offsets = np.arange(len(grown)) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.column_stack([grown, starts + offsets])
    keep = np.ones(len(rows), bool)
    for i in range(size - 4):
        keep &= rows[:, i] != rows[:, i + 4]
    return rows[keep]


@dataclass(frozen=True)
class RankHash:
    """The no-flush table of one hand size as a row-displacement perfect hash.

    The rank key ``k`` (``0 <= k < 2**24``) is in row ``k >> shift`` at column
    ``k % 2**shift``; each row's keys of multisets (the entries that are not 0) are
    placed at ``offsets[row] + column`` of ``values``, rows overlaid where their keys do
    not meet (:func:`croupier._core.poker_eval.place_rows`).  So
    ``values[offsets[k >> shift] + k % 2**shift] == nonflush(size)[k]`` for every key of
    a multiset of ``size`` ranks; any other key reads some in-bounds entry.

    >>> h = tables().hashed(7)
    >>> key = sum(RANK_KEYS[r] for r in (12, 12, 12, 11, 11, 5, 0))      # A A A K K 7 2
    >>> int(h.values[h.offsets[key >> h.shift] + key % (1 << h.shift)]) == int(
    ...     tables().nonflush(7)[key])
    True
    """

    shift: int
    """Bits of the column (:data:`HASH_SHIFT`)."""
    offsets: npt.NDArray[np.uint32]
    """Per row (``2**(24 - shift)`` of them): where its column 0 sits in ``values``."""
    values: npt.NDArray[np.uint16]
    """The values, at least ``max(offsets) + 2**shift`` long."""


@dataclass(frozen=True)
class Tables:
    """The lookup tables (read-only numpy arrays); get them from :func:`tables`."""

    classes: tuple[Key, ...]
    """Every hand class, worst first (see :func:`hand_classes`)."""
    value_of: dict[Key, int]
    """A hand class's value, ``1 .. 7462``."""
    card_code: npt.NDArray[np.uint64]
    """Per card number: rank key plus one in its suit's counter."""
    card_bit: npt.NDArray[np.uint64]
    """Per card number ``c``: ``1 << c``."""
    flush_suit: npt.NDArray[np.int8]
    """Per 12-bit value of the suit counters: the suit with five or more cards, else 4."""
    flush: npt.NDArray[np.uint16]
    """Per 13-bit set of one suit's cards (bit ``i`` is card number ``i`` of the suit, the ace
    first): the value of its best flush or straight flush, 0 with fewer than five cards."""
    flush_ranks: npt.NDArray[np.uint16]
    """The same, indexed by rank bits (bit ``r`` is rank index ``r``, the deuce first)."""
    key_sum: npt.NDArray[np.int64]
    """Per 13-bit set of one suit's cards (same bit order): the sum of its rank keys."""
    rank_bits: npt.NDArray[np.uint16]
    """Per 13-bit set of one suit's cards: the same ranks with bit ``r`` for rank index ``r``."""

    def nonflush(self, size: int) -> npt.NDArray[np.uint16]:
        """Per rank key of ``size`` (5, 6 or 7) cards: the best value with no flush (0 where no
        multiset has that key).  Built on first use for each size (13 to 16 MB each)."""
        return _nonflush(size)

    def hashed(self, size: int) -> RankHash:
        """:meth:`nonflush` of ``size`` cards as a perfect hash (:class:`RankHash`, a few
        hundred kB), built from it on first use for each size."""
        return _hashed(size)


def _flush_table(classes: tuple[Key, ...]) -> npt.NDArray[np.uint16]:
    """Best flush or straight flush of every 13-bit set, rank bits (bit ``r`` = rank index
    ``r``): five-card sets from the classes, larger sets as the best of their subsets."""
    table = np.zeros(1 << 13, np.uint16)
    for value, key in enumerate(classes, start=1):
        if key[0] in (5, 8):
            table[sum(1 << r for r in class_ranks(key))] = value
    masks = np.arange(1 << 13)
    sizes = np.bitwise_count(masks)
    for size in range(6, 14):
        of_size = masks[sizes == size]
        for r in range(13):
            bit = 1 << r
            has = of_size[of_size & bit != 0]
            table[has] = np.maximum(table[has], table[has ^ bit])
    return table


@cache
def _nonflush(size: int) -> npt.NDArray[np.uint16]:
    if size not in (5, 6, 7):
        raise ValueError(f"a hand has 5, 6 or 7 cards, not {size}")
    keys = np.array(RANK_KEYS, np.int64)
    if size == 5:
        classes = tables().classes
        sums = np.zeros(len(classes), np.int64)
        values = np.zeros(len(classes), np.uint16)
        for value, key in enumerate(classes, start=1):
            if key[0] not in (5, 8):
                sums[value - 1] = sum(RANK_KEYS[r] for r in class_ranks(key))
                values[value - 1] = value
        sums, values = sums[values > 0], values[values > 0]
    else:
        five = _nonflush(5)
        rows = _multisets(size)
        sums = keys[rows].sum(axis=1)
        values = np.zeros(len(rows), np.uint16)
        for cols in itertools.combinations(range(size), 5):
            np.maximum(values, five[keys[rows[:, cols]].sum(axis=1)], out=values)
    ordered = np.sort(sums)
    if (ordered[1:] == ordered[:-1]).any():  # the keys' promise; the tests check it too
        raise AssertionError(f"rank keys collide for {size} cards")
    table = np.zeros(int(ordered[-1]) + 1, np.uint16)
    table[sums] = values
    table.flags.writeable = False
    return table


@cache
def _hashed(size: int) -> RankHash:
    from croupier._core.poker_eval import place_rows

    table = _nonflush(size)
    keys = np.flatnonzero(table)
    rows, columns = keys >> HASH_SHIFT, (keys & ((1 << HASH_SHIFT) - 1)).astype(np.uint32)
    count = 1 << (KEY_BITS - HASH_SHIFT)
    starts = np.searchsorted(rows, np.arange(count + 1)).astype(np.int64)
    filled = np.diff(starts)
    order = np.argsort(-filled, kind="stable")  # the fullest rows first
    offsets = np.zeros(count, np.uint32)
    place_rows(starts, columns, order[filled[order] > 0].astype(np.int64), 1 << HASH_SHIFT, offsets)
    values = np.zeros(int(offsets.max()) + (1 << HASH_SHIFT), np.uint16)
    at = offsets[rows].astype(np.int64) + columns
    if np.unique(at).size != at.size:  # place_rows' promise; the tests check it too
        raise AssertionError(f"the rank hash of {size} cards puts two keys in one place")
    values[at] = table[keys]
    offsets.flags.writeable = False
    values.flags.writeable = False
    return RankHash(HASH_SHIFT, offsets, values)


@cache
def tables() -> Tables:
    """The tables, built on first use and shared."""
    classes = hand_classes()
    value_of = {k: i + 1 for i, k in enumerate(classes)}
    numbers = np.arange(52)
    ranks = 12 - numbers % 13
    suits = numbers // 13
    card_code = (np.array(RANK_KEYS, np.uint64)[ranks]) | (
        np.uint64(1) << (np.uint64(SUIT_SHIFT) + 3 * suits.astype(np.uint64))
    )
    card_bit = np.uint64(1) << numbers.astype(np.uint64)
    counters = np.arange(1 << 12)
    flush_suit = np.full(1 << 12, 4, np.int8)
    for s in range(4):
        flush_suit[(counters >> (3 * s)) & 7 >= 5] = s
    masks = np.arange(1 << 13)
    bits = (masks[:, None] >> np.arange(13)) & 1
    key_sum = bits @ np.array(RANK_KEYS[::-1], np.int64)
    rank_bits = (bits @ (1 << np.arange(12, -1, -1))).astype(np.uint16)
    flush_ranks = _flush_table(classes)
    made = Tables(
        classes=classes,
        value_of=value_of,
        card_code=card_code,
        card_bit=card_bit,
        flush_suit=flush_suit,
        flush=flush_ranks[rank_bits],
        flush_ranks=flush_ranks,
        key_sum=key_sum.astype(np.int64),
        rank_bits=rank_bits,
    )
    for array in (
        card_code,
        card_bit,
        flush_suit,
        made.flush,
        flush_ranks,
        made.key_sum,
        rank_bits,
    ):
        array.flags.writeable = False
    return made
