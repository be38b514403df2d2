"""Hand values: an int where larger is better, and a readable view of it.

A poker hand's value is its place among the 7,462 classes of five-card hands
(:func:`~croupier.poker.tables.hand_classes`), from ``1`` (7-5-4-3-2 of mixed
suits) to ``7462`` (the royal flush).  :class:`HandValue` wraps that int with
its :class:`Category`, the ranks that decide it and a description.

>>> v = HandValue(4567)
>>> v.category, str(v)
(<Category.TWO_PAIR: 2>, 'Two Pair, Jacks and Fives, Two kicker')
>>> HandValue(7462) > HandValue(7461), str(HandValue(7462)), str(HandValue(1))
(True, 'Royal Flush', 'High Card, Seven, Five Four Three Two')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from croupier.cards import Card, Rank
from croupier.errors import CroupierError
from croupier.poker.tables import CATEGORY_COUNTS, class_ranks, hand_classes

__all__ = [
    "HAND_VALUES",
    "Category",
    "HandValue",
    "PokerError",
    "category_of",
    "rank_of_index",
]

HAND_VALUES = 7462
"""How many different hand values there are (the best hand's value)."""


class PokerError(CroupierError):
    """Bad input to poker evaluation or equity: cards, hands, ranges or options."""


class Category(IntEnum):
    """The nine categories of poker hands, worst first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The name in title case: ``Two Pair``, ``Four of a Kind``.

        >>> Category.FOUR_OF_A_KIND.label, Category.ONE_PAIR.label
        ('Four of a Kind', 'One Pair')
        """
        return _LABELS[self]

    @property
    def slug(self) -> str:
        """The name in lower case with hyphens, as JSON output writes it: ``two-pair``."""
        return self.name.lower().replace("_", "-")

    @property
    def first_value(self) -> int:
        """The smallest hand value of this category.

        >>> Category.ONE_PAIR.first_value, Category.STRAIGHT_FLUSH.first_value
        (1278, 7453)
        """
        return 1 + sum(CATEGORY_COUNTS[: self.value])


_LABELS = {
    Category.HIGH_CARD: "High Card",
    Category.ONE_PAIR: "One Pair",
    Category.TWO_PAIR: "Two Pair",
    Category.THREE_OF_A_KIND: "Three of a Kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full House",
    Category.FOUR_OF_A_KIND: "Four of a Kind",
    Category.STRAIGHT_FLUSH: "Straight Flush",
}

_NAMES: tuple[str, ...] = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_NAMES += ("Ten", "Jack", "Queen", "King", "Ace")
_PLURALS = [("Sixes" if n == "Six" else n + "s") for n in _NAMES]


def rank_of_index(index: int) -> Rank:
    """The :class:`~croupier.cards.Rank` of a rank index (0 = deuce … 12 = ace).

    >>> rank_of_index(0), rank_of_index(12)
    (<Rank.TWO: 2>, <Rank.ACE: 1>)
    """
    return Rank.ACE if index == 12 else Rank(index + 2)


def category_of(value: int) -> Category:
    """The category of a hand value ``1 .. 7462``.

    >>> category_of(1), category_of(1278), category_of(7462)
    (<Category.HIGH_CARD: 0>, <Category.ONE_PAIR: 1>, <Category.STRAIGHT_FLUSH: 8>)
    """
    _check(value)
    return Category(hand_classes()[value - 1][0])


def _check(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= HAND_VALUES:
        raise PokerError(f"a hand value is a whole number 1..{HAND_VALUES}, not {value!r}")


def _describe(category: Category, ranks: tuple[int, ...]) -> str:
    one = [_NAMES[r] for r in ranks]
    many = [_PLURALS[r] for r in ranks]
    label = category.label
    if category is Category.STRAIGHT_FLUSH:
        return "Royal Flush" if ranks[0] == 12 else f"{label}, {one[0]} high"
    if category is Category.STRAIGHT:
        return f"{label}, {one[0]} high"
    if category is Category.FOUR_OF_A_KIND:
        return f"{label}, {many[0]}, {one[1]} kicker"
    if category is Category.FULL_HOUSE:
        return f"{label}, {many[0]} full of {many[1]}"
    if category is Category.THREE_OF_A_KIND:
        return f"{label}, {many[0]}, {' '.join(one[1:])} kickers"
    if category is Category.TWO_PAIR:
        return f"{label}, {many[0]} and {many[1]}, {one[2]} kicker"
    if category is Category.ONE_PAIR:
        return f"{label}, {many[0]}, {' '.join(one[1:])} kickers"
    if category is Category.FLUSH:
        return f"{label}, {' '.join(one)}"
    return f"{label}, {one[0]}, {' '.join(one[1:])}"


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's value (``1 .. 7462``, larger is better) with its category and deciding ranks.

    Values compare as their ints; ``best`` (the five cards that make the hand,
    when known) takes no part in comparisons.

    >>> v = HandValue(7278)
    >>> v.category.label, [r.letter for r in v.ranks], v.description
    ('Full House', ['K', 'K', 'K', '7', '7'], 'Full House, Kings full of Sevens')
    >>> HandValue(0)
    Traceback (most recent call last):
    ...
    croupier.poker.values.PokerError: a hand value is a whole number 1..7462, not 0
    """

    value: int
    best: tuple[Card, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        _check(self.value)

    @property
    def category(self) -> Category:
        """The hand's category (``Category.FLUSH``, ...)."""
        return Category(hand_classes()[self.value - 1][0])

    @property
    def deciding(self) -> tuple[Rank, ...]:
        """The ranks that decide between hands of the category, most significant first,
        each once: two pair K-K-7-7-A gives ``(K, 7, A)``; a straight its top card."""
        return tuple(rank_of_index(r) for r in hand_classes()[self.value - 1][1])

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The five ranks of the hand in kicker order (pairs repeated; the wheel ends
        with its ace): ``K K 7 7 A``."""
        return tuple(rank_of_index(r) for r in class_ranks(hand_classes()[self.value - 1]))

    @property
    def description(self) -> str:
        """In words: ``Two Pair, Kings and Sevens, Ace kicker``."""
        category, ranks = hand_classes()[self.value - 1]
        return _describe(Category(category), ranks)

    def __str__(self) -> str:
        return self.description

    def __int__(self) -> int:
        return self.value

    def to_json(self) -> dict[str, object]:
        """The value as a JSON object (``best`` only when known).

        >>> HandValue(7462).to_json()["category"]
        'straight-flush'
        """
        out: dict[str, object] = {
            "value": self.value,
            "category": self.category.slug,
            "ranks": [r.letter for r in self.ranks],
            "description": self.description,
        }
        if self.best:
            out["best"] = [c.code for c in self.best]
        return out
