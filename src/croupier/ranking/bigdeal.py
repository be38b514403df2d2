"""Big Deal's Gödel numbering: a bijection between bridge deals and ``[0, D)``.

``D = C(52,13)·C(39,13)·C(26,13)`` is the number of bridge deals.  Big Deal
numbers the cards 0..51 as ``SA SK … S2 HA … H2 DA … D2 CA … C2`` (suits S H D C,
ranks A K Q J T 9 … 2) and the seats ``N=0, E=1, S=2, W=3``.  A number ``g``
is split in mixed radix ``g = rN·C(39,13)·C(26,13) + rE·C(26,13) + rS`` and

* North gets the 13-subset of the 52 cards with lexicographic rank ``rN``
  (the rank of its ascending list of 0-based positions);
* East gets the subset of rank ``rE`` of the 39 cards left, kept in card order;
* South gets the subset of rank ``rS`` of the 26 cards left after that;
* West gets the last 13 cards.

This is the numbering Big Deal 2.0 uses to turn its random stream into deals
(see ``docs/tournament.md``); it is a ranking scheme like any other, so the
same number always means the same deal.

>>> north, east, south, west = goedel_unrank(0)
>>> " ".join(c.code for c in north[:3]), " ".join(c.code for c in west[-2:])
('AS KS QS', '3C 2C')
>>> goedel_rank(goedel_unrank(12345678901234567890)) == 12345678901234567890
True
>>> GOEDEL_MAX
53644737765488792839237440000
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from croupier.cards import BRIDGE_DECK, Card
from croupier.errors import RankingError
from croupier.ranking.partitions import subsets_rank, subsets_unrank
from croupier.seats import SEATS

__all__ = [
    "BIGDEAL_CARD_ORDER",
    "GOEDEL_MAX",
    "bigdeal_card_index",
    "goedel_rank",
    "goedel_unrank",
]

_HAND = 13

#: The number of bridge deals, ``C(52,13)·C(39,13)·C(26,13)``: Gödel numbers lie in ``[0, D)``.
GOEDEL_MAX: int = comb(52, 13) * comb(39, 13) * comb(26, 13)

_SIZES = (_HAND, _HAND, _HAND, _HAND)

#: The 52 cards in Big Deal's index order, ``SA SK … S2 HA … H2 DA … D2 CA … C2``:
#: the bridge order :data:`croupier.cards.BRIDGE_DECK` itself.
BIGDEAL_CARD_ORDER: tuple[Card, ...] = BRIDGE_DECK

_INDEX_OF: dict[Card, int] = {card: i for i, card in enumerate(BIGDEAL_CARD_ORDER)}


def bigdeal_card_index(card: Card) -> int:
    """The 0-based index of ``card`` in Big Deal's order (ace of spades = 0, two of clubs = 51).

    >>> bigdeal_card_index(Card.parse("AS")), bigdeal_card_index(Card.parse("2C"))
    (0, 51)
    """
    index = _INDEX_OF.get(card)
    if index is None:
        raise RankingError(
            f"card {card!r} is not one of the 52 cards of a standard deck; "
            "Gödel numbers cover standard bridge deals only"
        )
    return index


def goedel_unrank(number: int) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    """The deal with Gödel ``number``: hands ``(N, E, S, W)``, each in Big Deal card order.

    Each hand is sorted spades, hearts, diamonds, clubs and, within a suit,
    ``A K Q J T 9 … 2``.

    >>> hands = goedel_unrank(1)
    >>> " ".join(c.code for c in hands[2] if c.suit.letter != "D")
    'AC'
    >>> goedel_unrank(GOEDEL_MAX)
    Traceback (most recent call last):
    ...
    croupier.errors.RankingError: Gödel number 53644737765488792839237440000 out of range; ...
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise RankingError(f"Gödel number must be an integer, got {number!r}")
    if not 0 <= number < GOEDEL_MAX:
        raise RankingError(
            f"Gödel number {number} out of range; expected 0 <= number < {GOEDEL_MAX}"
        )
    hands: tuple[list[Card], ...] = ([], [], [], [])
    for card, seat in zip(BIGDEAL_CARD_ORDER, subsets_unrank(number, _SIZES, "lex"), strict=True):
        hands[seat].append(card)
    return hands[0], hands[1], hands[2], hands[3]


def goedel_rank(hands: Sequence[Sequence[Card]]) -> int:
    """The Gödel number of a deal given as hands ``(N, E, S, W)`` (any order within a hand).

    >>> n, e, s, w = goedel_unrank(GOEDEL_MAX - 1)
    >>> goedel_rank([n, e, s, w]) == GOEDEL_MAX - 1
    True
    >>> goedel_rank([n, e, s])
    Traceback (most recent call last):
    ...
    croupier.errors.RankingError: a bridge deal has 4 hands (N, E, S, W), got 3
    """
    if len(hands) != 4:
        raise RankingError(f"a bridge deal has 4 hands (N, E, S, W), got {len(hands)}")
    owner: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        if len(hand) != _HAND:
            raise RankingError(
                f"hand {SEATS[seat]} has {len(hand)} cards; every bridge hand has 13"
            )
        for card in hand:
            if not isinstance(card, Card):
                raise RankingError(f"hand {SEATS[seat]} holds {card!r}, which is not a Card")
            index = bigdeal_card_index(card)
            if index in owner:
                raise RankingError(
                    f"card {card.code} appears in hand {SEATS[owner[index]]} and hand "
                    f"{SEATS[seat]}; each of the 52 cards must be dealt once"
                )
            owner[index] = seat
    return subsets_rank([owner[i] for i in range(52)], _SIZES, "lex")
