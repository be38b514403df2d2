"""Hand evaluation over deal arrays: ``dealer``'s functions, vectorised.

Every function of :mod:`croupier.dealing.evaluation` has a twin here that
takes a :class:`~croupier.bulk.DealArray` (or a :class:`Holdings` built from
one, to share work between calls) and a ``seat``: a pile index, a pile name
(``"N"``, ``"north"``) or ``None`` for every pile.  The result is a numpy
array of shape ``(n,)`` for one seat and ``(n, piles)`` for all of them
(``(n, 4)`` / ``(n, piles, 4)`` for per-suit lengths), with the same values
as the scalar function gives on each hand.  There is no Python loop per deal:
the work is a few passes over the columns of ``DealArray.piles`` and table
lookups.  Any layout works whose cards have the standard suits (jokers are
ignored).

>>> from croupier.bulk import deal_array
>>> deals = deal_array(100_000, seed="evaluate")
>>> points = hcp(deals)
>>> points.shape, int(points.sum(axis=1).min()), int(points.sum(axis=1).max())
((100000, 4), 40, 40)
>>> opener = (hcp(deals, "N") >= 15) & (hcp(deals, "N") <= 17) & is_balanced(deals, "N")
>>> 0.03 < float(opener.mean()) < 0.06
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import MASK_CARDS, DealArray
from croupier.cards import BRIDGE_RANKS, BRIDGE_SUITS, Card, Rank, Suit, parse_card
from croupier.dealing.evaluation import (
    ALT_COUNT_SCALES,
    BALANCED_PATTERNS,
    CONTROL_SCALE,
    HCP_SCALE,
    SEMI_BALANCED_PATTERNS,
    EvaluationError,
    ShapePattern,
    ShapeTerm,
    SuitLike,
    parse_shape,
    point_scale,
)
from croupier.errors import excerpt

__all__ = [
    "BoolArray",
    "Holdings",
    "IntArray",
    "aces",
    "c13",
    "cccc",
    "controls",
    "hascard",
    "hcp",
    "is_balanced",
    "is_semi_balanced",
    "jacks",
    "kings",
    "losers",
    "points",
    "pt",
    "quality",
    "queens",
    "seat_index",
    "shape",
    "sorted_shape",
    "suit_length",
    "suit_lengths",
    "tens",
    "top2",
    "top3",
    "top4",
    "top5",
]

IntArray: TypeAlias = npt.NDArray[np.int64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
SeatLike: TypeAlias = int | str | None
"""A ``seat=`` argument: a pile index or name, a :class:`~croupier.seats.Seat` or its word, or
``None`` for every pile."""
_SUIT_AXIS = {suit: i for i, suit in enumerate(BRIDGE_SUITS)}  # S H D C
_RANK_POS = {rank: i for i, rank in enumerate(BRIDGE_RANKS)}  # A=0 ... 2=12
_MAX_TABLE = 1 << 20  # largest lookup table (shapes, per-suit values), in entries
_RANK_MASKS = 1 << 13  # the ranks held in one suit: 13 bits

# Bits of ranks held (DealArray.ranks_held's convention: bit 0 = the 2, bit 12 = the ace).
_ACE, _KING, _QUEEN, _JACK, _TEN, _NINE, _EIGHT = 12, 11, 10, 9, 8, 7, 6


def _bit(rank: Rank) -> int:
    return 12 - _RANK_POS[rank]


class Holdings:
    """The suit lengths and ranks held of the piles of one deal array, computed once.

    Pass a ``Holdings`` instead of the deal array to several evaluation
    functions to compute each pile's lengths and ranks only once.

    >>> from croupier.bulk import deal_array
    >>> h = Holdings(deal_array(3, seed="h"))
    >>> h.lengths(0).shape, h.ranks(0).dtype.name, bool((h.lengths(0).sum(axis=1) == 13).all())
    ((3, 4), 'uint16', True)
    """

    __slots__ = (
        "__weakref__",  # lets callers cache work per Holdings (double-dummy tables)
        "_columns",
        "_lengths",
        "_ranks",
        "_shape_index",
        "deals",
        "layout",
        "longest",
        "single",
    )

    def __init__(self, deals: DealArray) -> None:
        if not isinstance(deals, DealArray):
            raise EvaluationError(f"expected a DealArray, not {type(deals).__name__}")
        self.deals = deals
        self.layout = deals.layout
        self._columns: npt.NDArray[np.uint8] | None = None
        self._lengths: dict[int, npt.NDArray[np.int64]] = {}
        self._ranks: dict[int, npt.NDArray[np.uint16]] = {}
        self._shape_index: dict[tuple[int, int], npt.NDArray[np.int64]] = {}
        suited = [(c.rank, c.suit) for c in self.layout.deck if c.suit is not None]
        self.single = len(set(suited)) == len(suited)
        per_suit = Counter(suit for _, suit in suited)
        self.longest = min(
            max(per_suit.values(), default=0), max(p.size for p in self.layout.piles)
        )
        """The most cards of one suit that one pile can hold."""

    def __len__(self) -> int:
        return len(self.deals)

    def column(self, card: int) -> npt.NDArray[np.uint8]:
        """The pile of deck card ``card`` in every deal (a contiguous ``(n,)`` array).

        >>> from croupier.bulk import deal_array
        >>> d = deal_array(4, seed="c")
        >>> Holdings(d).column(0).tolist() == d.piles[:, 0].tolist()
        True
        """
        if self._columns is None:
            self._columns = np.ascontiguousarray(self.deals.piles.T)
        column: npt.NDArray[np.uint8] = self._columns[card]
        return column

    def ranks(self, pile: int) -> npt.NDArray[np.uint16]:
        """Ranks held by ``pile`` per suit, ``(n, 4)`` S H D C; bit 0 is the 2, bit 12 the ace.

        >>> from croupier.bulk import deal_array
        >>> d = deal_array(4, seed="r")
        >>> bool((Holdings(d).ranks(2) == d.ranks_held()[:, 2]).all())
        True
        """
        if pile not in self._ranks and len(self.layout.deck) <= MASK_CARDS:
            self._ranks[pile] = self.deals.pile_ranks(pile)
        if pile not in self._ranks:
            out = np.zeros((len(self), 4), np.uint16)
            for c, card in enumerate(self.layout.deck):
                if card.suit is not None:
                    bit = np.uint16(1 << _bit(card.rank))
                    out[:, _SUIT_AXIS[card.suit]] |= (self.column(c) == pile) * bit
            self._ranks[pile] = out
        return self._ranks[pile]

    def lengths(self, pile: int) -> npt.NDArray[np.int64]:
        """Cards of each suit held by ``pile``, ``(n, 4)`` in S H D C order.

        >>> from croupier.bulk import deal_array
        >>> d = deal_array(4, seed="l")
        >>> bool((Holdings(d).lengths(1) == d.suit_lengths()[:, 1]).all())
        True
        """
        if pile not in self._lengths:
            if self.single:
                out = np.bitwise_count(self.ranks(pile)).astype(np.int64)
            else:
                counts = np.zeros((len(self), 4), np.int16)  # a pile holds < 2**15 cards
                for c, card in enumerate(self.layout.deck):
                    if card.suit is not None:
                        counts[:, _SUIT_AXIS[card.suit]] += self.column(c) == pile
                out = counts.astype(np.int64)
            self._lengths[pile] = out
        return self._lengths[pile]

    def shape_index(self, pile: int, side: int) -> npt.NDArray[np.int64]:
        """Each hand's suit lengths ``(s, h, d, c)`` of ``pile`` as one number in base
        ``side`` (``((s * side + h) * side + d) * side + c``): the index of a shape table,
        made once for all the shapes asked of the pile.

        >>> from croupier.bulk import deal_array
        >>> h = Holdings(deal_array(3, seed="l"))
        >>> [int(i) for i in h.shape_index(0, 14)] == [
        ...     int(((s * 14 + hh) * 14 + d) * 14 + c) for s, hh, d, c in h.lengths(0)]
        True
        """
        key = (pile, side)
        if key not in self._shape_index:
            lengths = self.lengths(pile)
            index = lengths[:, 0] * side + lengths[:, 1]
            index *= side
            index += lengths[:, 2]
            index *= side
            index += lengths[:, 3]
            self._shape_index[key] = index
        return self._shape_index[key]


def _holdings(deals: DealArray | Holdings) -> Holdings:
    return deals if isinstance(deals, Holdings) else Holdings(deals)


def seat_index(deals: DealArray | Holdings, seat: int | str) -> int:
    """The pile index of ``seat``: an index, a pile name, or a compass name such as ``"north"``.

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(1, seed="s")
    >>> seat_index(d, "W"), seat_index(d, "south"), seat_index(d, 1)
    (3, 2, 1)
    """
    layout = deals.layout
    found = layout.find_pile(seat)  # (the one lookup of a pile by name)
    if found is not None:
        return found
    names = [p.name for p in layout.piles]
    raise EvaluationError(
        f"seat={excerpt(seat) if isinstance(seat, str) else repr(seat)} is not a pile of this "
        f"layout; expected 0..{len(names) - 1} or one of {', '.join(names)}"
    )


def _per_seat(
    deals: DealArray | Holdings,
    seat: SeatLike,
    one: Callable[[Holdings, int], npt.NDArray[np.generic]],
) -> npt.NDArray[np.generic]:
    """``one(holdings, pile)`` for ``seat``, or stacked on axis 1 for every pile."""
    h = _holdings(deals)
    if seat is not None:
        return one(h, seat_index(h, seat))
    return np.stack([one(h, p) for p in range(len(h.layout.piles))], axis=1)


def _suit_axis(suit: SuitLike) -> int:
    return _SUIT_AXIS[suit if isinstance(suit, Suit) else Suit.parse(suit)]


# -- point counts -----------------------------------------------------------------------


def points(
    deals: DealArray | Holdings,
    scale: Sequence[int],
    seat: SeatLike = None,
    suit: SuitLike | None = None,
) -> IntArray:
    """The sum of ``scale``'s values (A K Q J T ... 2) of each hand's cards (of ``suit``).

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(5, seed="p")
    >>> bool((points(d, [1] * 13) == 13).all()), points(d, [4, 3, 2, 1], "N").shape
    (True, (5,))
    """
    table = point_scale(scale)
    wanted = None if suit is None else _suit_axis(suit)
    h = _holdings(deals)
    weighted = [
        (c, table[_RANK_POS[card.rank]])
        for c, card in enumerate(h.layout.deck)
        if card.suit is not None
        and (wanted is None or _SUIT_AXIS[card.suit] == wanted)
        and table[_RANK_POS[card.rank]] != 0
    ]

    # Accumulate in the smallest integer type that holds every possible total.
    bound = sum(abs(value) for _, value in weighted)
    acc = np.dtype(np.int16 if bound < 2**15 else np.int32 if bound < 2**31 else np.int64)

    def one(h: Holdings, pile: int) -> IntArray:
        if h.single and len(h.layout.deck) <= MASK_CARDS:
            # one look-up per suit: the points of every set of ranks held
            ranks = h.ranks(pile)
            total = np.zeros(len(h), np.int64)
            for s in range(4) if wanted is None else (wanted,):
                total += _rank_set_points(tuple(table))[ranks[:, s]]
            return total
        out: npt.NDArray[np.signedinteger[Any]] = np.zeros(len(h), acc)
        for c, value in weighted:
            out += (h.column(c) == pile) * acc.type(value)
        return out.astype(np.int64)

    return _per_seat(h, seat, one).astype(np.int64, copy=False)


@lru_cache(maxsize=64)
def _rank_set_points(scale: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """The points of every 13-bit set of ranks held (bit 0 the 2 ... bit 12 the ace)."""
    sets = np.arange(1 << 13)
    total = np.zeros(1 << 13, np.int64)
    for rank, position in _RANK_POS.items():
        total += ((sets >> _bit(rank)) & 1) * scale[position]
    total.flags.writeable = False
    return total


def hcp(
    deals: DealArray | Holdings,
    seat: SeatLike = None,
    suit: SuitLike | None = None,
    *,
    scale: Sequence[int] = HCP_SCALE,
) -> IntArray:
    """High-card points (A=4 K=3 Q=2 J=1 unless ``scale`` says otherwise), like ``hcp(seat, suit)``.

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(4, seed="hcp")
    >>> [int(v) for v in hcp(d).sum(axis=1)], hcp(d, "N", "S").shape
    ([40, 40, 40, 40], (4,))
    """
    return points(deals, scale, seat, suit)


def pt(
    deals: DealArray | Holdings, number: int, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """``dealer``'s alternate count ``pt<number>`` (0..9) with its default scale.

    >>> from croupier.bulk import deal_array
    >>> [int(v) for v in pt(deal_array(1, seed="pt"), 4).sum(axis=1)]  # pt4 = aces
    [4]
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 9:
        raise EvaluationError(
            f"alternate count number={number!r} is out of range; expected 0..9 (pt0 .. pt9)"
        )
    return points(deals, ALT_COUNT_SCALES[number], seat, suit)


def tens(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Tens per hand (``pt0``); see :func:`croupier.dealing.evaluation.tens`.

    >>> from croupier.bulk import deal_array
    >>> tens(deal_array(3, seed="tens")).sum(axis=1).tolist()  # every deal holds them all
    [4, 4, 4]
    """
    return pt(deals, 0, seat, suit)


def jacks(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Jacks per hand (``pt1``); see :func:`croupier.dealing.evaluation.jacks`.

    >>> from croupier.bulk import deal_array
    >>> jacks(deal_array(3, seed="jacks")).sum(axis=1).tolist()  # every deal holds them all
    [4, 4, 4]
    """
    return pt(deals, 1, seat, suit)


def queens(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Queens per hand (``pt2``); see :func:`croupier.dealing.evaluation.queens`.

    >>> from croupier.bulk import deal_array
    >>> queens(deal_array(3, seed="queens")).sum(axis=1).tolist()  # every deal holds them all
    [4, 4, 4]
    """
    return pt(deals, 2, seat, suit)


def kings(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Kings per hand (``pt3``); see :func:`croupier.dealing.evaluation.kings`.

    >>> from croupier.bulk import deal_array
    >>> kings(deal_array(3, seed="kings")).sum(axis=1).tolist()  # every deal holds them all
    [4, 4, 4]
    """
    return pt(deals, 3, seat, suit)


def aces(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Aces per hand (``pt4``); see :func:`croupier.dealing.evaluation.aces`.

    >>> from croupier.bulk import deal_array
    >>> aces(deal_array(3, seed="aces")).sum(axis=1).tolist()  # every deal holds them all
    [4, 4, 4]
    """
    return pt(deals, 4, seat, suit)


def top2(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """How many of A K each hand holds (``pt5``).

    >>> from croupier.bulk import deal_array
    >>> top2(deal_array(3, seed="top2")).sum(axis=1).tolist()  # every deal holds them all
    [8, 8, 8]
    """
    return pt(deals, 5, seat, suit)


def top3(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """How many of A K Q each hand holds (``pt6``).

    >>> from croupier.bulk import deal_array
    >>> top3(deal_array(3, seed="top3")).sum(axis=1).tolist()  # every deal holds them all
    [12, 12, 12]
    """
    return pt(deals, 6, seat, suit)


def top4(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """How many of A K Q J each hand holds (``pt7``).

    >>> from croupier.bulk import deal_array
    >>> top4(deal_array(3, seed="top4")).sum(axis=1).tolist()  # every deal holds them all
    [16, 16, 16]
    """
    return pt(deals, 7, seat, suit)


def top5(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """How many of A K Q J T each hand holds (``pt8``).

    >>> from croupier.bulk import deal_array
    >>> top5(deal_array(3, seed="top5")).sum(axis=1).tolist()  # every deal holds them all
    [20, 20, 20]
    """
    return pt(deals, 8, seat, suit)


def c13(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """C13 points, A=6 K=4 Q=2 J=1 (``pt9``).

    >>> from croupier.bulk import deal_array
    >>> c13(deal_array(3, seed="c13")).sum(axis=1).tolist()  # every deal holds them all
    [52, 52, 52]
    """
    return pt(deals, 9, seat, suit)


def controls(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Controls, A=2 K=1 (``dealer``'s ``control``).

    >>> from croupier.bulk import deal_array
    >>> [int(v) for v in controls(deal_array(2, seed="c")).sum(axis=1)]
    [12, 12]
    """
    return points(deals, CONTROL_SCALE, seat, suit)


# -- lengths and cards ------------------------------------------------------------------


def suit_lengths(deals: DealArray | Holdings, seat: SeatLike = None) -> IntArray:
    """Suit lengths in S H D C order: ``(n, 4)`` for a seat, ``(n, piles, 4)`` for all.

    >>> from croupier.bulk import deal_array
    >>> suit_lengths(deal_array(2, seed="l"), "N").sum(axis=1).tolist()
    [13, 13]
    """
    return _per_seat(deals, seat, lambda h, p: h.lengths(p)).astype(np.int64, copy=False)


def suit_length(deals: DealArray | Holdings, seat: SeatLike, suit: SuitLike) -> IntArray:
    """Cards of ``suit`` per hand, like ``dealer``'s ``spades(north)``.

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(3, seed="l")
    >>> suit_length(d, None, "hearts").sum(axis=1).tolist()
    [13, 13, 13]
    """
    axis = _suit_axis(suit)
    return _per_seat(deals, seat, lambda h, p: h.lengths(p)[:, axis]).astype(np.int64, copy=False)


def sorted_shape(deals: DealArray | Holdings, seat: SeatLike = None) -> IntArray:
    """Suit lengths from longest to shortest (the last axis), e.g. ``[5, 3, 3, 2]``.

    >>> from croupier.bulk import deal_array
    >>> s = sorted_shape(deal_array(50, seed="s"), "E")
    >>> bool((s[:, :-1] >= s[:, 1:]).all())
    True
    """
    return -np.sort(-suit_lengths(deals, seat), axis=-1)


def hascard(deals: DealArray | Holdings, seat: SeatLike, card: Card | str) -> BoolArray:
    """Whether each hand holds ``card`` (``dealer``'s ``hascard(seat, TC)``).

    >>> from croupier.bulk import deal_array
    >>> hascard(deal_array(4, seed="h"), None, "AS").sum(axis=1).tolist()
    [1, 1, 1, 1]
    """
    wanted = card if isinstance(card, Card) else parse_card(card)
    h = _holdings(deals)
    cols = [c for c, deck_card in enumerate(h.layout.deck) if deck_card == wanted]

    def one(h: Holdings, pile: int) -> BoolArray:
        out = np.zeros(len(h), np.bool_)
        for c in cols:
            out |= h.column(c) == pile
        return out

    return _per_seat(h, seat, one).astype(np.bool_, copy=False)


# -- losers, quality, cccc --------------------------------------------------------------


def _has(ranks: npt.NDArray[np.uint16], bit: int) -> IntArray:
    return ((ranks >> np.uint16(bit)) & np.uint16(1)).astype(np.int64)


def _losers_table(lengths: IntArray, ranks: npt.NDArray[np.uint16]) -> IntArray:
    a, k, q = _has(ranks, _ACE), _has(ranks, _KING), _has(ranks, _QUEEN)
    return np.select(
        [lengths >= 3, lengths == 2, lengths == 1], [3 - a - k - q, 2 - a - k, 1 - a], 0
    )


def _quality_table(lengths: IntArray, ranks: npt.NDArray[np.uint16]) -> IntArray:
    a, k, q, j = (_has(ranks, b) for b in (_ACE, _KING, _QUEEN, _JACK))
    t, nine, eight = (_has(ranks, b) for b in (_TEN, _NINE, _EIGHT))
    factor = 10 * lengths
    higher = a + k + q + j
    value = (4 * a + 3 * k + 2 * q + j) * factor
    replace = np.minimum(3 - 2 * q - j, lengths - 6) * factor
    ten = t * np.where((higher > 1) | (j == 1), factor, factor // 2)
    nine_part = nine * ((higher == 2) | (t == 1) | (eight == 1)) * (factor // 2)
    result: IntArray = value + np.where(lengths > 6, replace, ten + nine_part)
    return result


def _cccc_suit(lengths: IntArray, ranks: npt.NDArray[np.uint16]) -> IntArray:
    """The per-suit part of ``cccc`` (honours and quality; shape comes apart)."""
    a, k, q, j = (_has(ranks, b) for b in (_ACE, _KING, _QUEEN, _JACK))
    t, nine = _has(ranks, _TEN), _has(ranks, _NINE)
    king = k * np.where(lengths == 1, 50, 200)
    queen = q * (100 - 75 * (lengths == 1) - 25 * (lengths == 2) - 25 * ((a + k) == 0))
    above_jack = a + k + q
    jack = j * (50 * (above_jack == 2) + 25 * (above_jack == 1))
    above_ten = above_jack + j
    ten = t * 25 * ((above_ten == 2) | ((above_ten == 1) & (nine == 1)))
    result: IntArray = 300 * a + king + queen + jack + ten + _quality_table(lengths, ranks)
    return result


_SUIT_FORMULAS: dict[str, Callable[[IntArray, npt.NDArray[np.uint16]], IntArray]] = {
    "losers": _losers_table,
    "quality": _quality_table,
    "cccc": _cccc_suit,
}


@lru_cache(maxsize=32)
def _suit_table(kind: str, longest: int) -> npt.NDArray[np.int32]:
    """``kind`` for every (length 0..``longest``, ranks held) pair, at ``length * 8192 + ranks``."""
    lengths = np.repeat(np.arange(longest + 1, dtype=np.int64), _RANK_MASKS)
    ranks = np.tile(np.arange(_RANK_MASKS, dtype=np.uint16), longest + 1)
    table = _SUIT_FORMULAS[kind](lengths, ranks).astype(np.int32)
    table.flags.writeable = False
    return table


def _per_suit(h: Holdings, pile: int, kind: str) -> IntArray:
    """``kind`` of every suit of ``pile``, ``(n, 4)``: a table lookup, or the formula itself."""
    lengths, ranks = h.lengths(pile), h.ranks(pile)
    longest = h.longest
    if (longest + 1) * _RANK_MASKS > _MAX_TABLE:
        return _SUIT_FORMULAS[kind](lengths, ranks)
    found: IntArray = _suit_table(kind, longest)[lengths * _RANK_MASKS + ranks].astype(np.int64)
    return found


def _shape_points(lengths: IntArray) -> IntArray:
    short = (np.maximum(3 - lengths, 0) * 100).sum(axis=-1)
    result: IntArray = np.where(short == 0, -50, short - 100)
    return result


def losers(
    deals: DealArray | Holdings, seat: SeatLike = None, suit: SuitLike | None = None
) -> IntArray:
    """Losing tricks as ``dealer`` counts them (see :func:`croupier.dealing.evaluation.losers`).

    >>> from croupier.bulk import deal_array
    >>> l = losers(deal_array(100, seed="l"))
    >>> l.shape, int(l.min()) >= 0, int(l.max()) <= 12
    ((100, 4), True, True)
    """
    axis = None if suit is None else _suit_axis(suit)

    def one(h: Holdings, pile: int) -> IntArray:
        table = _per_suit(h, pile, "losers")
        return table.sum(axis=1) if axis is None else table[:, axis]

    return _per_seat(deals, seat, one).astype(np.int64, copy=False)


def quality(deals: DealArray | Holdings, seat: SeatLike, suit: SuitLike) -> IntArray:
    """Suit quality times 100 (``dealer``'s ``quality(seat, suit)``).

    >>> from croupier.bulk import deal_array
    >>> quality(deal_array(10, seed="q"), "N", "S").shape
    (10,)
    """
    axis = _suit_axis(suit)

    def one(h: Holdings, pile: int) -> IntArray:
        return _per_suit(h, pile, "quality")[:, axis]

    return _per_seat(deals, seat, one).astype(np.int64, copy=False)


def cccc(deals: DealArray | Holdings, seat: SeatLike = None) -> IntArray:
    """Kaplan–Rubens evaluation times 100 (``dealer``'s ``cccc(seat)``).

    >>> from croupier.bulk import deal_array
    >>> cccc(deal_array(10, seed="c")).shape
    (10, 4)
    """

    def one(h: Holdings, pile: int) -> IntArray:
        total: IntArray = _per_suit(h, pile, "cccc").sum(axis=1) + _shape_points(h.lengths(pile))
        return total

    return _per_seat(deals, seat, one).astype(np.int64, copy=False)


# -- shapes -----------------------------------------------------------------------------


def _term_mask(term: ShapeTerm, lengths: Sequence[IntArray]) -> BoolArray:
    """Where lengths (one array per suit, S H D C) fit ``term``, ignoring its sign."""
    orders = set(itertools.permutations(term.lengths)) if term.any else {term.lengths}
    found = np.zeros(np.shape(lengths[0]), np.bool_)
    for order in orders:
        fits = np.ones(np.shape(lengths[0]), np.bool_)
        for want, got in zip(order, lengths, strict=True):
            if want is not None:
                fits &= got == want
        found |= fits
    return found


def _pattern_mask(pattern: ShapePattern, lengths: Sequence[IntArray]) -> BoolArray:
    found = np.zeros(np.shape(lengths[0]), np.bool_)
    for term in pattern.terms:
        mask = _term_mask(term, lengths)
        found = found & ~mask if term.exclude else found | mask
    return found


@lru_cache(maxsize=256)
def _shape_table(pattern: ShapePattern, longest: int) -> BoolArray:
    """The pattern over every length vector with lengths 0..``longest``, flattened S H D C.

    Each term marks its points of the grid directly: one assignment per order of its
    lengths (an ``x`` a whole axis), rather than comparing the whole grid per order
    (:func:`_pattern_mask`, which the tests compare it with).
    """
    size = (longest + 1,) * 4
    table = np.zeros(size, np.bool_)
    for term in pattern.terms:
        mask = np.zeros(size, np.bool_)
        orders = set(itertools.permutations(term.lengths)) if term.any else {term.lengths}
        for order in orders:
            if any(want is not None and not 0 <= want <= longest for want in order):
                continue  # (a length no hand here has)
            mask[tuple(slice(None) if want is None else want for want in order)] = True
        if term.exclude:
            table &= ~mask
        else:
            table |= mask
    flat = table.ravel()
    flat.flags.writeable = False
    return flat


def shape(deals: DealArray | Holdings, seat: SeatLike, pattern: str | ShapePattern) -> BoolArray:
    """Whether each hand fits a ``dealer`` shape list such as ``any 4333 + 5xxx - 5332``.

    A string is parsed by :func:`croupier.dealing.evaluation.parse_shape` for
    the hands' size.  The pattern becomes a lookup table over every length
    vector (14**4 entries for 13-card hands), indexed by each hand's lengths.

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(20_000, seed="shape")
    >>> bal = shape(d, "N", "any 4333 + any 4432 + any 5332")
    >>> bool((bal == is_balanced(d, "N")).all()), 0.42 < float(bal.mean()) < 0.5
    (True, True)
    """
    h = _holdings(deals)
    if isinstance(pattern, str):
        piles = h.layout.piles if seat is None else (h.layout.piles[seat_index(h, seat)],)
        sizes = {p.size for p in piles}
        pattern = parse_shape(pattern, cards=sizes.pop() if len(sizes) == 1 else None)
    longest = h.longest
    compiled = pattern

    def one(h: Holdings, pile: int) -> BoolArray:
        lengths = h.lengths(pile)
        if (longest + 1) ** 4 > _MAX_TABLE:
            return _pattern_mask(compiled, [lengths[:, i] for i in range(4)])
        found: BoolArray = _shape_table(compiled, longest)[h.shape_index(pile, longest + 1)]
        return found

    return _per_seat(h, seat, one).astype(np.bool_, copy=False)


def _in_patterns(sorted_lengths: IntArray, patterns: Sequence[tuple[int, ...]]) -> BoolArray:
    found = np.zeros(sorted_lengths.shape[:-1], np.bool_)
    for p in patterns:
        found |= (sorted_lengths == np.array(p)).all(axis=-1)
    return found


def is_balanced(deals: DealArray | Holdings, seat: SeatLike = None) -> BoolArray:
    """Whether each hand is 4333, 4432 or 5332 (:func:`croupier.dealing.evaluation.is_balanced`).

    >>> from croupier.bulk import deal_array
    >>> is_balanced(deal_array(10, seed="b")).shape
    (10, 4)
    """
    return _in_patterns(sorted_shape(deals, seat), BALANCED_PATTERNS)


def is_semi_balanced(deals: DealArray | Holdings, seat: SeatLike = None) -> BoolArray:
    """Whether each hand is balanced, 5422 or 6322.

    >>> from croupier.bulk import deal_array
    >>> d = deal_array(1000, seed="b")
    >>> bool((is_semi_balanced(d) >= is_balanced(d)).all())
    True
    """
    return _in_patterns(sorted_shape(deals, seat), SEMI_BALANCED_PATTERNS)
