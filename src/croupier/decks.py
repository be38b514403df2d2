"""Deck presets, stripped decks, shoes and sub-decks.

Every deck is a new ``list[Card]`` in the ``suit-ace-low`` order (suit clubs,
diamonds, hearts, spades; within a suit ace low, then 2..K; jokers last), so
``sort_cards(deck, "suit-ace-low") == deck`` for every preset.

>>> len(standard_deck()), make_deck("standard")[:3]
(52, [Card.parse('AC'), Card.parse('2C'), Card.parse('3C')])
>>> [(name, len(make_deck(name))) for name in deck_names()][:4]
[('standard', 52), ('jokers1', 53), ('jokers2', 54), ('piquet', 32)]
>>> subdeck(standard_deck(), 0, 4)
[Card.parse('AC'), Card.parse('2C'), Card.parse('3C'), Card.parse('4C'), Card.parse('5C')]

:func:`subdeck` works on any sequence (numbers, strings, anything):

>>> subdeck("abcdef", 2, 3)
['c', 'd']

These are lists of cards, values; the stateful deck a game draws from is
:class:`croupier.deck.Deck`, which starts from one of them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from croupier.cards import Card, Rank, Suit, split_ranks
from croupier.errors import CroupierError, DeckError, RangeError, excerpt
from croupier.frozen import frozen_dataclass

__all__ = [
    "DECK_PRESETS",
    "MAX_SHOE_DECKS",
    "DeckPreset",
    "deck_names",
    "deck_size",
    "make_deck",
    "shoe",
    "standard_deck",
    "stripped_deck",
    "subdeck",
]

T = TypeVar("T")

MAX_SHOE_DECKS = 10_000
"""The most decks :func:`shoe` puts together (520,000 standard cards)."""


def _shown(value: object) -> str:
    """Bad input for a message: a short escaped excerpt, never all of a long value.

    >>> _shown("tarot"), _shown("x" * 100)[-16:], _shown(10**100), _shown([0] * 30)[-5:]
    ("'tarot'", '(100 characters)', '<huge int>', '0,...')
    """
    if isinstance(value, str):
        return excerpt(value)
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 200 else "<huge int>"
    return text if len(text) <= 60 else text[:57] + "..."


def standard_deck() -> list[Card]:
    """The 52 cards in the ``suit-ace-low`` order: clubs A..K, diamonds, hearts, spades.

    >>> deck = standard_deck()
    >>> deck[0].long_name, deck[12].long_name, deck[13].long_name, deck[51].long_name
    ('Ace of Clubs', 'King of Clubs', 'Ace of Diamonds', 'King of Spades')
    """
    return [Card(rank, suit) for suit in Suit for rank in Rank.standard()]


def _parse_ranks(ranks: str | Iterable[Rank | str | int]) -> list[Rank]:
    tokens: list[Rank | str | int] = [*split_ranks(ranks)] if isinstance(ranks, str) else [*ranks]
    out: list[Rank] = []
    for t in tokens:
        try:
            rank = t if isinstance(t, Rank) else Rank.parse(t) if isinstance(t, str) else Rank(t)
        except (CroupierError, ValueError, TypeError):
            raise DeckError(
                f"bad rank {_shown(t)} in {_shown(ranks)}; expected ranks such as '789TJQKA' "
                "or [Rank.ACE, ...]"
            ) from None
        if rank is Rank.JOKER:
            raise DeckError(f"jokers are not a rank of a stripped deck (in {_shown(ranks)})")
        if rank in out:
            raise DeckError(f"rank {_shown(t)} appears twice in {_shown(ranks)}")
        out.append(rank)
    if not out:
        raise DeckError(f"no ranks in {_shown(ranks)}; expected ranks such as '789TJQKA'")
    return out


def stripped_deck(ranks: str | Iterable[Rank | str | int]) -> list[Card]:
    """The standard cards of the given ranks only, in the ``suit-ace-low`` order.

    ``ranks`` is a string of rank letters (``"789TJQKA"``, ``10`` also works)
    or an iterable of :class:`Rank`, rank strings or ints 1..13.  The order in
    which ranks are listed does not matter.

    >>> [c.code for c in stripped_deck("AKQ")[:3]]
    ['AC', 'QC', 'KC']
    >>> len(stripped_deck([Rank.ACE, 10, "9"]))
    12
    """
    keep = set(_parse_ranks(ranks))
    return [c for c in standard_deck() if c.rank in keep]


def _with_copies(base: Sequence[Card], copies: int) -> list[Card]:
    """Each card of ``base`` ``copies`` times in a row (copy 0, 1, ...)."""
    return [Card(c.rank, c.suit, k) for c in base for k in range(copies)]


def shoe(
    k: int, *, distinguish: bool = True, base: str | Sequence[Card] = "standard"
) -> list[Card]:
    """``k`` decks stacked one after another (deck 1 first), like a casino shoe.

    With ``distinguish=True`` the ``copy`` field of each card is its deck number
    (0-based; a card of which ``base`` already holds ``m`` copies, like in a
    pinochle deck, gets ``deck * m + copy``), so every card of the shoe is
    distinct.  With ``distinguish=False`` cards are
    equal across decks, as at a real table.

    >>> s = shoe(2)
    >>> len(s), s[0], s[52], s[0] == s[52]
    (104, Card.parse('AC'), Card.parse('AC#2'), False)
    >>> shoe(2, distinguish=False)[52] == shoe(2)[0]
    True
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_SHOE_DECKS:
        raise DeckError(f"bad number of decks {_shown(k)} for a shoe; expected 1..{MAX_SHOE_DECKS}")
    cards = make_deck(base) if isinstance(base, str) else list(base)
    for c in cards:
        if not isinstance(c, Card):
            raise DeckError(f"a shoe's base deck must hold cards, got {c!r}")
    if not distinguish:
        return cards * k
    per_card: dict[tuple[Rank, Suit | None], int] = {}
    for c in cards:
        per_card[c.rank, c.suit] = max(per_card.get((c.rank, c.suit), 0), c.copy + 1)
    return [c.with_copy(d * per_card[c.rank, c.suit] + c.copy) for d in range(k) for c in cards]


@frozen_dataclass
class DeckPreset:
    """A named deck: its name, number of cards, a one-line description and a builder."""

    name: str
    size: int
    description: str
    build: Callable[[], list[Card]]


def _jokers(n: int) -> Callable[[], list[Card]]:
    return lambda: standard_deck() + [Card.joker(i) for i in range(n)]


DECK_PRESETS: dict[str, DeckPreset] = {
    p.name: p
    for p in (
        DeckPreset(
            "standard", 52, "the 52 French-suited cards (bridge, poker, ...)", standard_deck
        ),
        DeckPreset("jokers1", 53, "52 cards and one joker", _jokers(1)),
        DeckPreset("jokers2", 54, "52 cards and two jokers (JK, JK#2)", _jokers(2)),
        DeckPreset(
            "piquet",
            32,
            "7 to ace in each suit (piquet, belote)",
            lambda: stripped_deck("789TJQKA"),
        ),
        DeckPreset(
            "skat",
            32,
            "7 to ace in each suit (skat, French-suited)",
            lambda: stripped_deck("789TJQKA"),
        ),
        DeckPreset("euchre", 24, "9 to ace in each suit", lambda: stripped_deck("9TJQKA")),
        DeckPreset(
            "pinochle",
            48,
            "two of each 9 to ace in each suit",
            lambda: _with_copies(stripped_deck("9TJQKA"), 2),
        ),
        DeckPreset(
            "bezique",
            64,
            "two piquet decks (7 to ace, two of each)",
            lambda: _with_copies(stripped_deck("789TJQKA"), 2),
        ),
        DeckPreset(
            "canasta",
            108,
            "two standard decks and four jokers",
            lambda: sorted(shoe(2, base="jokers2")),
        ),
    )
}
"""The deck presets by name, in the order :func:`deck_names` lists them."""


def deck_names() -> list[str]:
    """The names of the deck presets.

    >>> deck_names()
    ['standard', 'jokers1', 'jokers2', 'piquet', 'skat', 'euchre', 'pinochle', 'bezique', 'canasta']
    """
    return list(DECK_PRESETS)


def make_deck(name: str) -> list[Card]:
    """A fresh deck by preset name (case-insensitive), in the ``suit-ace-low`` order.

    Besides :func:`deck_names`, ``shoe:K`` gives ``K`` standard decks
    (copies distinguished) and ``stripped:RANKS`` a stripped deck.

    >>> len(make_deck("Pinochle")), len(make_deck("shoe:6")), len(make_deck("stripped:AKQJ"))
    (48, 312, 16)
    >>> make_deck("tarot")
    Traceback (most recent call last):
    ...
    croupier.errors.DeckError: unknown deck 'tarot'; expected one of standard, jokers1, ...
    """
    if not isinstance(name, str):
        raise DeckError(f"expected a deck name, got {_shown(name)}")
    key = name.strip().lower()
    preset = DECK_PRESETS.get(key)
    if preset is not None:
        return preset.build()
    if key.startswith("shoe:"):
        count = key[5:].strip()
        if not (count.isascii() and count.isdigit() and len(count) <= 9):
            raise DeckError(
                f"bad shoe {_shown(name)}; expected shoe:K with K a number of decks "
                f"1..{MAX_SHOE_DECKS}"
            )
        return shoe(int(count))
    if key.startswith("stripped:"):
        return stripped_deck(name.strip()[9:])
    raise DeckError(
        f"unknown deck {_shown(name)}; expected one of {', '.join(DECK_PRESETS)}, "
        "shoe:K or stripped:RANKS"
    )


def deck_size(name: str) -> int:
    """How many cards :func:`make_deck` gives for ``name``, without building a shoe.

    Callers that limit a deck's size check it with this before the deck is built.

    >>> deck_size("standard"), deck_size("shoe:10000"), deck_size("stripped:AKQ")
    (52, 520000, 12)
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key.startswith("shoe:"):
        count = key[5:].strip()
        if count.isascii() and count.isdigit() and len(count) <= 9:
            k = int(count)
            if 1 <= k <= MAX_SHOE_DECKS:
                return 52 * k
    return len(make_deck(name))  # small presets; a bad name raises make_deck's error


def subdeck(cards: Sequence[T], low: int, high: int) -> list[T]:
    """The items ``cards[low..high]``, both ends INCLUSIVE, as a new list.

    Valid bounds: ``0 <= low <= len(cards)`` and ``low - 1 <= high <= len(cards) - 1``;
    ``high == low - 1`` gives an empty sub-deck.  Anything else raises
    :class:`~croupier.errors.RangeError` naming the wrong bound and its valid range.

    >>> subdeck([10, 11, 12, 13], 1, 2)
    [11, 12]
    >>> subdeck([10, 11, 12, 13], 4, 3)
    []
    >>> subdeck([10, 11, 12, 13], 1, 4)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: subdeck high=4 is out of range: ... high must be in 0..3
    """
    n = len(cards)
    try:
        lo = operator.index(low)
        hi = operator.index(high)
    except TypeError:
        raise RangeError(
            f"subdeck bounds must be integers, got low={low!r}, high={high!r}"
        ) from None
    if isinstance(low, bool) or isinstance(high, bool):
        raise RangeError(f"subdeck bounds must be integers, got low={low!r}, high={high!r}")
    if not 0 <= lo <= n:
        raise RangeError(f"subdeck low={lo} is out of range: with {n} cards, low must be in 0..{n}")
    if not lo - 1 <= hi <= n - 1:
        raise RangeError(
            f"subdeck high={hi} is out of range: with low={lo} and {n} cards, "
            f"high must be in {lo - 1}..{n - 1}"
        )
    return [cards[i] for i in range(lo, hi + 1)]
