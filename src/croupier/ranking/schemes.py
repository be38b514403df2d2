"""Named deal-numbering schemes: a deal number always travels with its scheme.

A scheme is a bijection between the deals of a layout and the integers
``[base, base + M)``.  It sees a deal as a deck (a sequence of distinct cards in
the layout's order), the pile sizes and the owner of each deck position.

=================  =======  ======  ====================================================
scheme             layouts  base    numbering
=================  =======  ======  ====================================================
``croupier``       any      0       pile by pile, lexicographic subsets, deck order
``sequence``       any      0       card by card, lexicographic owner sequence
``bigdeal``        bridge   0       Big Deal's Gödel numbers (Kuipers)
``pavlicek``       bridge   0       Pavlicek's card-by-card numbering
``pavlicek-1``     bridge   1       the same, counted from 1 (page numbers)
``andrews``        bridge   0       Andrews' pile-by-pile colex numbering
``andrews-1``      bridge   1       the same, counted from 1 (page numbers)
=================  =======  ======  ====================================================

The bridge schemes number cards ``SA SK … S2 HA … C2`` (index 0..51) and seats
``N E S W`` whatever the layout's own order.  For a bridge layout in that order
``croupier`` coincides with ``bigdeal`` and ``sequence`` with ``pavlicek``.

>>> from croupier.cards import parse_cards
>>> deck = parse_cards("AS KS QS JS")
>>> get_scheme("croupier").rank(deck, (2, 2), [1, 0, 1, 0])
4
>>> get_scheme("croupier").unrank(deck, (2, 2), 4)
[1, 0, 1, 0]
>>> sorted(scheme_names())
['andrews', 'andrews-1', 'bigdeal', 'croupier', 'pavlicek', 'pavlicek-1', 'sequence']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.cards import BRIDGE_DECK, Card
from croupier.errors import RankingError, excerpt
from croupier.frozen import frozen_dataclass
from croupier.ranking.partitions import (
    decimal,
    multinomial,
    sequence_rank,
    sequence_unrank,
    subsets_rank,
    subsets_unrank,
)

__all__ = ["BRIDGE_SIZES", "DealScheme", "get_scheme", "is_bridge_deck", "scheme_names"]

BRIDGE_SIZES = (13, 13, 13, 13)

_RankFn = Callable[[Sequence[int], Sequence[int]], int]
_UnrankFn = Callable[[int, Sequence[int]], list[int]]


def is_bridge_deck(deck: Sequence[Card], sizes: Sequence[int]) -> bool:
    """True when ``deck`` is the 52 standard cards and the sizes are four 13s.

    >>> from croupier.cards import BRIDGE_DECK, Card
    >>> is_bridge_deck([Card.from_index(i) for i in range(52)], (13, 13, 13, 13))
    True
    """
    return tuple(sizes) == BRIDGE_SIZES and len(deck) == 52 and set(deck) == set(BRIDGE_DECK)


@frozen_dataclass
class DealScheme:
    """A named numbering of deals; numbers lie in ``[base, base + M)``.

    >>> s = get_scheme("pavlicek-1")
    >>> s.name, s.base, s.bridge_only
    ('pavlicek-1', 1, True)
    """

    name: str
    base: int
    bridge_only: bool
    summary: str
    verified: str
    _rank: _RankFn
    _unrank: _UnrankFn

    def _to_scheme_order(self, deck: Sequence[Card], sizes: Sequence[int]) -> list[int] | None:
        """Positions in ``deck`` of the scheme's cards (``None``: deck order is used)."""
        if not self.bridge_only:
            return None
        if not is_bridge_deck(deck, sizes):
            raise RankingError(
                f"scheme {self.name!r} numbers bridge deals only (4 hands of 13 from the 52 "
                f"standard cards); use scheme 'croupier' or 'sequence' for this layout"
            )
        where = {card: i for i, card in enumerate(deck)}
        return [where[c] for c in BRIDGE_DECK]

    def count(self, sizes: Sequence[int]) -> int:
        """How many deals (and numbers) there are.

        >>> get_scheme("croupier").count((2, 2, 2))
        90
        """
        return multinomial(sizes)

    def rank(self, deck: Sequence[Card], sizes: Sequence[int], owners: Sequence[int]) -> int:
        """The number (in this scheme's base) of the deal giving ``deck[p]`` to pile ``owners[p]``.

        >>> from croupier.cards import parse_cards
        >>> get_scheme("sequence").rank(parse_cards("AS KS QS"), (1, 2), [1, 1, 0])
        2
        """
        if len(owners) != len(deck):
            raise RankingError(
                f"a deal of {len(deck)} cards needs {len(deck)} owners, got {len(owners)}"
            )
        order = self._to_scheme_order(deck, sizes)
        if order is not None:
            owners = [owners[i] for i in order]
        return self._rank(owners, sizes) + self.base

    def unrank(self, deck: Sequence[Card], sizes: Sequence[int], number: int) -> list[int]:
        """The owners (per position of ``deck``) of the deal with ``number``.

        >>> from croupier.cards import parse_cards
        >>> get_scheme("sequence").unrank(parse_cards("AS KS QS"), (1, 2), 2)
        [1, 1, 0]
        >>> get_scheme("sequence").unrank(parse_cards("AS KS QS"), (1, 2), 3)
        Traceback (most recent call last):
        ...
        croupier.errors.RankingError: deal number 3 out of range for scheme 'sequence'; ...
        """
        if isinstance(number, bool) or not isinstance(number, int):
            raise RankingError(f"deal number must be an integer, got {number!r}")
        total = multinomial(sizes)
        if not self.base <= number < self.base + total:
            raise RankingError(
                f"deal number {decimal(number)} out of range for scheme {self.name!r}; "
                f"expected {self.base} <= number <= {decimal(self.base + total - 1)}"
            )
        if sum(sizes) != len(deck):
            raise RankingError(f"pile sizes {list(sizes)} do not add up to {len(deck)} cards")
        order = self._to_scheme_order(deck, sizes)
        owners = self._unrank(number - self.base, sizes)
        if order is None:
            return owners
        result = [0] * len(deck)
        for i, pos in enumerate(order):
            result[pos] = owners[i]
        return result


def _bigdeal_rank(owners: Sequence[int], sizes: Sequence[int]) -> int:
    from croupier.ranking.bigdeal import goedel_rank

    order = BRIDGE_DECK
    hands: list[list[Card]] = [[], [], [], []]
    for card, owner in zip(order, owners, strict=True):
        hands[owner].append(card)
    return goedel_rank(hands)


def _bigdeal_unrank(number: int, sizes: Sequence[int]) -> list[int]:
    from croupier.ranking.bigdeal import goedel_unrank

    seat_of = {card: seat for seat, hand in enumerate(goedel_unrank(number)) for card in hand}
    return [seat_of[c] for c in BRIDGE_DECK]


def _lex_rank(owners: Sequence[int], sizes: Sequence[int]) -> int:
    return subsets_rank(owners, sizes, "lex")


def _lex_unrank(number: int, sizes: Sequence[int]) -> list[int]:
    return subsets_unrank(number, sizes, "lex")


def _colex_rank(owners: Sequence[int], sizes: Sequence[int]) -> int:
    return subsets_rank(owners, sizes, "colex")


def _colex_unrank(number: int, sizes: Sequence[int]) -> list[int]:
    return subsets_unrank(number, sizes, "colex")


_SCHEMES: dict[str, DealScheme] = {
    s.name: s
    for s in (
        DealScheme(
            "croupier",
            0,
            False,
            "pile by pile: mixed radix of lexicographic subset ranks, in the layout's deck order",
            "equals 'bigdeal' on bridge deals (tested against Big Deal's own vectors)",
            _lex_rank,
            _lex_unrank,
        ),
        DealScheme(
            "sequence",
            0,
            False,
            "card by card: lexicographic rank of the owner sequence, in the layout's deck order",
            "equals 'pavlicek' on bridge deals",
            sequence_rank,
            sequence_unrank,
        ),
        DealScheme(
            "bigdeal",
            0,
            True,
            "Big Deal's Gödel numbering (Kuipers): North, East, South as lexicographic subsets",
            "Big Deal 2.0's own Gödel vectors",
            _bigdeal_rank,
            _bigdeal_unrank,
        ),
        DealScheme(
            "pavlicek",
            0,
            True,
            "Pavlicek's numbering: card by card from the spade ace, seats N E S W",
            "published example numbers 1, 10 and 10**27 (as page numbers, base 1)",
            sequence_rank,
            sequence_unrank,
        ),
        DealScheme(
            "pavlicek-1",
            1,
            True,
            "Pavlicek's numbering counted from 1, as pages of a book of all deals",
            "published example numbers 1, 10 and 10**27",
            sequence_rank,
            sequence_unrank,
        ),
        DealScheme(
            "andrews",
            0,
            True,
            "Andrews' numbering: N, E, S as colexicographic subsets (combinatorial number system)",
            "published example numbers 1, 10 and 10**27 (as page numbers, base 1)",
            _colex_rank,
            _colex_unrank,
        ),
        DealScheme(
            "andrews-1",
            1,
            True,
            "Andrews' numbering counted from 1, as pages of a book of all deals",
            "published example numbers 1, 10 and 10**27",
            _colex_rank,
            _colex_unrank,
        ),
    )
}


def scheme_names() -> list[str]:
    """The names of every registered scheme.

    >>> "bigdeal" in scheme_names()
    True
    """
    return list(_SCHEMES)


def get_scheme(name: str) -> DealScheme:
    """The scheme called ``name`` (case-insensitive).

    >>> get_scheme("BigDeal").name
    'bigdeal'
    >>> get_scheme("nope")
    Traceback (most recent call last):
    ...
    croupier.errors.RankingError: unknown deal-number scheme 'nope'; expected one of ...
    """
    if not isinstance(name, str):
        raise RankingError(f"scheme= is a scheme's name, not {type(name).__name__}")
    found = _SCHEMES.get(name.strip().lower())
    if found is None:
        raise RankingError(
            f"unknown deal-number scheme {excerpt(name)}; expected one of {', '.join(_SCHEMES)}"
        )
    return found
