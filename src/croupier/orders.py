"""Card orders, sorting and binary search.

A :class:`CardOrder` says which of two cards is lower.  Its :meth:`CardOrder.key`
gives an ascending sort key (a tuple of ints), so any order plugs into
:func:`sorted`, :mod:`bisect` or a database index.

Named orders (:data:`ORDERS`):

================  ======================================================  ==========
name              order (low to high)                                      jokers
================  ======================================================  ==========
``suit-ace-low``  suit (♣ < ♦ < ♥ < ♠), then rank with the ace LOW         last
``bridge``        suit (♣ < ♦ < ♥ < ♠), then rank with the ace HIGH        last
``poker``         rank only, ace high; suits are unranked (ties)           last
``rank``          rank (ace high), then suit (♣ < ♦ < ♥ < ♠)               last
``pinochle``      suit (♣ < ♦ < ♥ < ♠), then 9 < J < Q < K < 10 < A        last
================  ======================================================  ==========

``suit-ace-low`` is the order of a fresh deck (:mod:`croupier.decks`) and the
default of the sorting functions.  Its former name ``seed`` still works
everywhere a name is accepted, with a :class:`DeprecationWarning`
(:data:`DEPRECATED_ORDER_NAMES`).

In every order with ranked suits, two copies of one card (a shoe, a pinochle
deck) are ordered by their copy number, so the order is total.  In an order
with unranked suits (``poker``) cards of equal rank tie; :func:`sort_cards` is
stable, so tied cards keep their input order.

Custom orders: :meth:`CardOrder.custom` takes ranks and suits listed from HIGH
to LOW (the way players say them, ``"AKQJT98765432"`` and ``"SHDC"``).

>>> [c.code for c in sort_cards("2C AS KH AC TD", "bridge", descending=True)]
['AS', 'KH', 'TD', 'AC', '2C']
>>> deck = sort_cards("KS 3D AC 9H", "suit-ace-low")
>>> find_bisect(deck, Card.parse("9H"))
2
"""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import field
from typing import Literal

from croupier.cards import (
    BRIDGE_RANK_LETTERS,
    BRIDGE_SUIT_LETTERS,
    Card,
    Rank,
    Suit,
    parse_card,
    parse_cards,
    split_ranks,
)
from croupier.errors import CroupierError, excerpt
from croupier.frozen import frozen_dataclass

__all__ = [
    "DEFAULT_ORDER",
    "DEPRECATED_ORDER_NAMES",
    "ORDERS",
    "CardNotFoundError",
    "CardOrder",
    "CardOrderError",
    "JokerPlace",
    "find_bisect",
    "find_bisect_or_minus_one",
    "find_lowest",
    "get_order",
    "is_sorted",
    "order_names",
    "selection_sort",
    "sort_cards",
]

JokerPlace = Literal["high", "low"]


class CardOrderError(CroupierError):
    """An unknown or malformed card order, or a card that has no place in an order."""


class CardNotFoundError(CroupierError):
    """A card searched for with :func:`find_bisect` is not in the sorted cards."""


def _parse_rank_string(ranks: str) -> tuple[Rank, ...]:
    """Split ``"AKQJT98765432"`` or ``"A K Q J 10 9"`` into ranks."""
    out: list[Rank] = []
    for token in split_ranks(ranks):
        try:
            rank = Rank.parse(token)
        except CroupierError:
            raise CardOrderError(
                f"bad rank {excerpt(token)} in rank string {excerpt(ranks)}; "
                "expected letters such as 'AKQJT98765432' (high to low)"
            ) from None
        if rank in out:
            raise CardOrderError(
                f"rank {excerpt(token)} appears twice in rank string {excerpt(ranks)}"
            )
        out.append(rank)
    if not out:
        raise CardOrderError(
            f"empty rank string {excerpt(ranks)}; expected e.g. 'AKQJT98765432' (high to low)"
        )
    return tuple(out)


def _parse_suit_string(suits: str) -> tuple[Suit, ...]:
    out: list[Suit] = []
    for ch in suits:
        if ch in " ,\ufe0e\ufe0f":
            continue
        try:
            suit = Suit.parse(ch)
        except CroupierError:
            raise CardOrderError(
                f"bad suit {ch!r} in suit string {excerpt(suits)}; "
                "expected letters such as 'SHDC' (high to low), or '' for unranked suits"
            ) from None
        if suit in out:
            raise CardOrderError(f"suit {ch!r} appears twice in suit string {excerpt(suits)}")
        out.append(suit)
    return tuple(out)


@frozen_dataclass
class CardOrder:
    """An order on cards: ranks and suits listed HIGH to LOW, plus where jokers go.

    * ``ranks``: the ranks from highest to lowest; a card whose rank is missing
      has no place in the order (:meth:`key` raises :class:`CardOrderError`).
    * ``suits``: the suits from highest to lowest; ``()`` means suits are
      unranked (cards of equal rank tie, whatever their suit or copy).
    * ``suit_major``: compare suits first (``suit-ace-low``, ``bridge``) or ranks first.
    * ``jokers``: ``"high"`` (after every other card) or ``"low"`` (before);
      jokers are ordered among themselves by copy.

    >>> o = CardOrder.custom("AKQJT98765432", "SHDC", name="bridge-like")
    >>> o.key(Card.parse("AS")) > o.key(Card.parse("KS")) > o.key(Card.parse("AH"))
    True
    >>> o.is_greater(Card.parse("2S"), Card.parse("AH"))
    True
    """

    name: str
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]
    suit_major: bool = True
    jokers: JokerPlace = "high"
    description: str = ""
    _rank_value: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _suit_value: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.ranks or Rank.JOKER in self.ranks or len(set(self.ranks)) != len(self.ranks):
            raise CardOrderError(
                f"order {excerpt(self.name)}: ranks must be distinct standard ranks, "
                f"got {excerpt(repr(self.ranks))}"
            )
        if len(set(self.suits)) != len(self.suits):
            raise CardOrderError(
                f"order {excerpt(self.name)}: suits must be distinct, "
                f"got {excerpt(repr(self.suits))}"
            )
        if self.jokers not in ("high", "low"):
            raise CardOrderError(
                f"order {excerpt(self.name)}: jokers must be 'high' or 'low', got {self.jokers!r}"
            )
        rank_value = [-1] * 15
        for i, r in enumerate(self.ranks):
            rank_value[r] = len(self.ranks) - 1 - i
        suit_value = [-1] * 4
        for i, s in enumerate(self.suits):
            suit_value[s] = len(self.suits) - 1 - i
        object.__setattr__(self, "_rank_value", tuple(rank_value))
        object.__setattr__(self, "_suit_value", tuple(suit_value))

    @classmethod
    def custom(
        cls,
        ranks: str,
        suits: str = BRIDGE_SUIT_LETTERS,
        name: str = "custom",
        *,
        suit_major: bool = True,
        jokers: JokerPlace = "high",
        description: str = "",
    ) -> CardOrder:
        """An order from a rank string and a suit string, both listed HIGH to LOW.

        ``ranks`` uses the short letters (``T`` or ``10`` for ten); ``suits`` uses
        letters or symbols; an empty ``suits`` makes suits unranked.

        >>> o = CardOrder.custom("AT KQJ9", "", name="pinochle-trick")
        >>> [c.code for c in sorted(parse_cards("KH TS AD 9C"), key=o.key)]
        ['9C', 'KH', 'TS', 'AD']
        """
        return cls(
            name=name,
            ranks=_parse_rank_string(ranks),
            suits=_parse_suit_string(suits),
            suit_major=suit_major,
            jokers=jokers,
            description=description or f"custom order: ranks {ranks!r}, suits {suits!r}",
        )

    @property
    def suits_ranked(self) -> bool:
        """False when cards of equal rank tie whatever their suit (e.g. ``poker``)."""
        return bool(self.suits)

    @property
    def rank_string(self) -> str:
        """The ranks, high to low, as short letters (``"AKQJT98765432"``)."""
        return "".join(r.letter for r in self.ranks)

    @property
    def suit_string(self) -> str:
        """The suits, high to low, as letters (``"SHDC"``; empty when unranked)."""
        return "".join(s.letter for s in self.suits)

    def key(self, card: Card) -> tuple[int, ...]:
        """The ascending sort key of ``card``: lower cards have smaller keys.

        Keys are tuples of four ints ``(group, major, minor, copy)``.

        >>> low = ORDERS["suit-ace-low"]
        >>> low.key(Card.parse("AC")) < low.key(Card.parse("2C")) < low.key(Card.parse("AD"))
        True
        """
        if not isinstance(card, Card):
            raise CardOrderError(
                f"order {excerpt(self.name)} compares cards, got {card!r} ({type(card).__name__})"
            )
        if card.suit is None:
            return (2 if self.jokers == "high" else 0, 0, 0, card.copy)
        r = self._rank_value[card.rank]
        if r < 0:
            raise CardOrderError(
                f"card {card.code!r} has no place in order {excerpt(self.name)} "
                f"(ranks {self.rank_string!r})"
            )
        if not self.suits:
            return (1, r, 0, 0)
        s = self._suit_value[card.suit]
        if s < 0:
            raise CardOrderError(
                f"card {card.code!r} has no place in order {excerpt(self.name)} "
                f"(suits {self.suit_string!r})"
            )
        if self.suit_major:
            return (1, s, r, card.copy)
        return (1, r, s, card.copy)

    def compare(self, a: Card, b: Card) -> int:
        """-1, 0 or 1 as ``a`` is lower than, ties with, or is higher than ``b``.

        >>> ORDERS["poker"].compare(Card.parse("KS"), Card.parse("KH"))
        0
        >>> ORDERS["suit-ace-low"].compare(Card.parse("KS"), Card.parse("KH"))
        1
        """
        ka, kb = self.key(a), self.key(b)
        return (ka > kb) - (ka < kb)

    def is_greater(self, a: Card, b: Card) -> bool:
        """True when ``a`` is strictly higher than ``b`` in this order.

        >>> ORDERS["suit-ace-low"].is_greater(Card.parse("2C"), Card.parse("AC"))
        True
        """
        return self.key(a) > self.key(b)


DEFAULT_ORDER = "suit-ace-low"
"""The order of a fresh deck: suits ♣ < ♦ < ♥ < ♠, then ranks with the ace low."""

DEPRECATED_ORDER_NAMES: dict[str, str] = {"seed": DEFAULT_ORDER}
"""Former order names and the names that replaced them; the old ones warn."""


def _first_frame_outside_croupier() -> int:
    """The ``stacklevel`` that makes a warning point at the first caller outside croupier."""
    level, frame = 1, sys._getframe(1)
    while frame.f_back is not None and _in_croupier(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
        level += 1
    return level


def _in_croupier(module: str) -> bool:
    return module == "croupier" or module.startswith("croupier.")


def _warn_deprecated_name(old: str) -> str:
    """The current name for the former order name ``old``, with a :class:`DeprecationWarning`."""
    new = DEPRECATED_ORDER_NAMES[old]
    warnings.warn(
        f"order name {old!r} is deprecated; use {new!r} (the same order)",
        DeprecationWarning,
        stacklevel=_first_frame_outside_croupier(),
    )
    return new


class _OrderTable(dict[str, CardOrder]):
    """The named orders; a deprecated name still looks up its order, with a warning."""

    def __missing__(self, key: str) -> CardOrder:
        if key in DEPRECATED_ORDER_NAMES:
            return self[_warn_deprecated_name(key)]
        raise KeyError(key)


ORDERS: dict[str, CardOrder] = _OrderTable(
    (o.name, o)
    for o in (
        CardOrder.custom(
            "KQJT98765432A",
            BRIDGE_SUIT_LETTERS,
            name="suit-ace-low",
            description="suit (clubs < diamonds < hearts < spades), then rank, ace low",
        ),
        CardOrder.custom(
            BRIDGE_RANK_LETTERS,
            BRIDGE_SUIT_LETTERS,
            name="bridge",
            description="suit (clubs < diamonds < hearts < spades), then rank, ace high",
        ),
        CardOrder.custom(
            BRIDGE_RANK_LETTERS,
            "",
            name="poker",
            description="rank only, ace high; suits unranked (ties keep input order)",
        ),
        CardOrder.custom(
            BRIDGE_RANK_LETTERS,
            BRIDGE_SUIT_LETTERS,
            name="rank",
            suit_major=False,
            description="rank (ace high), then suit (clubs < diamonds < hearts < spades)",
        ),
        CardOrder.custom(
            "ATKQJ98765432",
            BRIDGE_SUIT_LETTERS,
            name="pinochle",
            description="suit, then rank with 10 between K and A: 9 < J < Q < K < 10 < A",
        ),
    )
)
"""The named orders; all put jokers last.  ``ORDERS["seed"]`` still works, with a warning."""


def order_names() -> list[str]:
    """The names of the built-in orders.

    >>> order_names()
    ['suit-ace-low', 'bridge', 'poker', 'rank', 'pinochle']
    """
    return list(ORDERS)


def get_order(name: str | CardOrder) -> CardOrder:
    """Look up an order by name (case-insensitive), or pass a :class:`CardOrder` through.

    Besides the names of :data:`ORDERS`, ``custom:RANKS:SUITS`` builds a custom
    order (ranks and suits HIGH to LOW; empty SUITS = unranked suits).  A former
    name (:data:`DEPRECATED_ORDER_NAMES`) gives its order with a :class:`DeprecationWarning`.

    >>> get_order("Bridge").name
    'bridge'
    >>> get_order("custom:AKQ:S").rank_string
    'AKQ'
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old = get_order("seed")
    >>> old is ORDERS["suit-ace-low"], caught[0].category.__name__
    (True, 'DeprecationWarning')
    >>> get_order("whist")
    Traceback (most recent call last):
    ...
    croupier.orders.CardOrderError: unknown order 'whist'; expected one of suit-ace-low, bridge, ...
    """
    if isinstance(name, CardOrder):
        return name
    if not isinstance(name, str):
        raise CardOrderError(f"expected an order name or CardOrder, got {type(name).__name__}")
    key = name.strip().lower()
    if key in ORDERS:
        return ORDERS[key]
    if key in DEPRECATED_ORDER_NAMES:
        return ORDERS[_warn_deprecated_name(key)]
    if key.startswith("custom:"):
        parts = name.strip().split(":")
        if len(parts) != 3:
            raise CardOrderError(
                f"bad custom order {excerpt(name)}; expected custom:RANKS:SUITS, "
                "e.g. custom:AKQJT98765432:SHDC"
            )
        return CardOrder.custom(parts[1], parts[2], name=name.strip())
    raise CardOrderError(
        f"unknown order {excerpt(name)}; expected one of {', '.join(ORDERS)} or custom:RANKS:SUITS"
    )


def _as_cards(cards: Iterable[Card] | str, what: str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    out = list(cards)
    for i, c in enumerate(out):
        if not isinstance(c, Card):
            raise CardOrderError(
                f"{what} needs cards, got {c!r} at index {i}; "
                "use sorted() for other items or parse text with parse_cards"
            )
    return out


def sort_cards(
    cards: Iterable[Card] | str,
    order: str | CardOrder = DEFAULT_ORDER,
    *,
    descending: bool = False,
) -> list[Card]:
    """A new list of ``cards`` sorted by ``order`` (stable; the input is not changed).

    ``cards`` may also be card text, which is parsed first.  With
    ``descending=True`` the highest card comes first; tied cards keep their
    input order either way.

    >>> [c.code for c in sort_cards("KH 2S AH", "suit-ace-low")]
    ['AH', 'KH', '2S']
    >>> [c.code for c in sort_cards("KH 2S AH KS", "poker", descending=True)]
    ['AH', 'KH', 'KS', '2S']
    """
    o = get_order(order)
    items = _as_cards(cards, "sort_cards")
    return sorted(items, key=o.key, reverse=descending)


def is_sorted(
    cards: Iterable[Card] | str,
    order: str | CardOrder = DEFAULT_ORDER,
    *,
    descending: bool = False,
) -> bool:
    """True when ``cards`` are in ``order`` (ties allowed).

    >>> is_sorted("AC 2C AD", "suit-ace-low"), is_sorted("AC 2C AD", "bridge")
    (True, False)
    """
    o = get_order(order)
    keys = [o.key(c) for c in _as_cards(cards, "is_sorted")]
    if descending:
        return all(a >= b for a, b in itertools.pairwise(keys))
    return all(a <= b for a, b in itertools.pairwise(keys))


def find_lowest(
    cards: Sequence[Card], start: int = 0, order: str | CardOrder = DEFAULT_ORDER
) -> int:
    """The index of the lowest card in ``cards[start:]``, by a linear scan.

    The first of several tied lowest cards wins.

    >>> find_lowest(parse_cards("KS 3D AC 9H"))
    2
    >>> find_lowest(parse_cards("KS 3D AC 9H"), start=3)
    3
    """
    o = get_order(order)
    if not cards:
        raise CardOrderError("find_lowest needs at least one card, got an empty sequence")
    if not 0 <= start < len(cards):
        raise CardOrderError(f"start={start} out of range; expected 0..{len(cards) - 1}")
    best = start
    best_key = o.key(cards[start])
    for i in range(start + 1, len(cards)):
        k = o.key(cards[i])
        if k < best_key:
            best, best_key = i, k
    return best


def selection_sort(
    cards: Iterable[Card] | str, order: str | CardOrder = DEFAULT_ORDER
) -> list[Card]:
    """Selection sort into a new list: swap the lowest remaining card forward, O(n²) comparisons.

    It gives the same result as :func:`sort_cards` for total orders (every order
    with ranked suits); it is not stable, so with tied cards (``poker``) the
    order among ties may differ.  Prefer :func:`sort_cards`.

    >>> [c.code for c in selection_sort("KS 3D AC 9H")]
    ['AC', '3D', '9H', 'KS']
    """
    o = get_order(order)
    out = _as_cards(cards, "selection_sort")
    for i in range(len(out)):
        j = find_lowest(out, i, o)
        out[i], out[j] = out[j], out[i]
    return out


def _locate(sorted_cards: Sequence[Card], card: Card, o: CardOrder) -> int:
    target = o.key(card)
    lo, hi = 0, len(sorted_cards)
    while lo < hi:  # leftmost position whose key is >= target
        mid = (lo + hi) // 2
        if o.key(sorted_cards[mid]) < target:
            lo = mid + 1
        else:
            hi = mid
    i = lo
    while i < len(sorted_cards):  # scan the run of cards tying with the target
        c = sorted_cards[i]
        if o.key(c) != target:
            break
        if c == card:
            return i
        i += 1
    return -1


def _search_args(
    sorted_cards: Sequence[Card] | str, card: Card | str
) -> tuple[Sequence[Card], Card]:
    seq: Sequence[Card] = (
        parse_cards(sorted_cards) if isinstance(sorted_cards, str) else sorted_cards
    )
    target = parse_card(card) if isinstance(card, str) else card
    return seq, target


def find_bisect(
    sorted_cards: Sequence[Card] | str, card: Card | str, order: str | CardOrder = DEFAULT_ORDER
) -> int:
    """The index of ``card`` in ``sorted_cards`` (ascending in ``order``), by binary search.

    No sub-deck is copied (a search that recursed on slices would copy half
    the deck at every step): it makes at most
    ``ceil(log2(n + 1))`` probes plus one per card tying with ``card`` in
    ``order`` (none in orders with ranked suits, at most the other suits and
    copies of the rank in ``poker``).  With duplicates the first equal card is
    found.  ``sorted_cards`` must be sorted ascending in ``order``; it is not
    checked (that would cost O(n)).

    Raises :class:`CardNotFoundError` when the card is absent; see
    :func:`find_bisect_or_minus_one` to get ``-1`` instead.

    >>> deck = sort_cards("QS 4H 2C JD 7S", "bridge")
    >>> find_bisect(deck, "JD", "bridge")
    1
    >>> find_bisect(deck, "AS", "bridge")
    Traceback (most recent call last):
    ...
    croupier.orders.CardNotFoundError: card 'AS' not found among the 5 cards ... order 'bridge'
    """
    o = get_order(order)
    seq, target = _search_args(sorted_cards, card)
    i = _locate(seq, target, o)
    if i < 0:
        raise CardNotFoundError(
            f"card {target.code!r} not found among the {len(seq)} cards sorted in order {o.name!r}"
        )
    return i


def find_bisect_or_minus_one(
    sorted_cards: Sequence[Card] | str, card: Card | str, order: str | CardOrder = DEFAULT_ORDER
) -> int:
    """Like :func:`find_bisect` but returns ``-1`` for an absent card instead of raising.

    >>> find_bisect_or_minus_one(sort_cards("QS 4H 2C"), "AS")
    -1
    >>> find_bisect_or_minus_one(sort_cards("QS 4H 2C"), "QS")
    2
    """
    o = get_order(order)
    seq, target = _search_args(sorted_cards, card)
    return _locate(seq, target, o)
