"""Dealing: turn randomness into a :class:`Deal` of a layout, counting the bits used.

>>> from croupier.dealing.layout import make_layout
>>> from croupier.randomness import make_source
>>> d = deal(make_layout("bridge"), source=make_source(seed="demo", purpose="deal"))
>>> [len(h) for h in d.hands], d.method, d.algorithm
([13, 13, 13, 13], 'optimal', 'croupier-deal/1')
>>> 0 <= d.number < d.layout.count
True

The same seed, layout, method and algorithm version always give the same deal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress

from croupier.cards import Card
from croupier.dealing.layout import Layout
from croupier.dealing.methods import get_method
from croupier.errors import CroupierError
from croupier.randomness.source import OsRandomSource, RandomSource
from croupier.randomness.uniform import UniformSampler
from croupier.ranking.partitions import subsets_rank, unrank_lex_mask
from croupier.ranking.schemes import get_scheme

__all__ = ["ALGORITHM_ID", "DEFAULT_SCHEME", "Deal", "deal", "deal_from_number", "deal_many"]

ALGORITHM_ID = "croupier-deal/1"
"""Id and version of the dealing algorithm; bumped whenever a seed would give another deal."""

DEFAULT_SCHEME = "croupier"
"""The scheme of :attr:`Deal.number`."""


@dataclass(frozen=True, eq=False)
class Deal:
    """One deal of a layout: the cards of every pile, and how they were dealt.

    ``piles[i]`` holds the cards of ``layout.piles[i]`` in the deck's canonical
    order.  ``number`` is the deal's number under the ``croupier`` scheme
    (:meth:`number_in` gives it under any other).  Two deals are equal when
    their layouts and cards are.

    >>> from croupier.dealing.layout import make_layout
    >>> d = deal_from_number(make_layout(hands=[1, 1], deck="stripped:A"), 0)
    >>> [[c.code for c in p] for p in d.piles], d.remainder
    ([['AS'], ['AH'], ['AD', 'AC']], [Card.parse('AD'), Card.parse('AC')])
    """

    layout: Layout
    piles: tuple[tuple[Card, ...], ...]
    method: str = "number"
    bits_used: float = 0.0
    source: str = "none"
    algorithm: str = ALGORITHM_ID
    _number: list[int] = field(default_factory=list, repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self.layout == other.layout and self.piles == other.piles

    def __hash__(self) -> int:
        return hash(self.piles)

    @property
    def hands(self) -> list[tuple[Card, ...]]:
        """The players' hands (piles marked as hands), in seat order."""
        piles = zip(self.layout.piles, self.piles, strict=True)
        return [cards for pile, cards in piles if pile.is_hand]

    @property
    def remainder(self) -> list[Card]:
        """The cards of the remainder pile (stock, pond, kitty…), empty if there is none."""
        if self.layout.remainder_name is None:
            return []
        return list(self.piles[-1])

    def owners(self) -> list[int]:
        """The pile index of every deck position.

        >>> from croupier.dealing.layout import make_layout
        >>> deal_from_number(make_layout(hands=[1, 1], deck="stripped:A"), 11).owners()
        [2, 2, 1, 0]
        """
        owners = [0] * len(self.layout.deck)
        index = self.layout.index
        for i, cards in enumerate(self.piles):
            for card in cards:
                owners[index(card)] = i
        return owners

    @property
    def number(self) -> int:
        """The deal number under the ``croupier`` scheme (base 0)."""
        if not self._number:
            self._number.append(subsets_rank(self.owners(), self.layout.sizes, "lex"))
        return self._number[0]

    def number_in(self, scheme: str) -> int:
        """The deal's number under ``scheme`` (see :mod:`croupier.ranking.schemes`).

        >>> from croupier.dealing.layout import make_layout
        >>> d = deal_from_number(make_layout("bridge"), 0)
        >>> d.number_in("pavlicek"), d.number_in("pavlicek-1")
        (0, 1)
        """
        if scheme == DEFAULT_SCHEME:
            return self.number
        return get_scheme(scheme).rank(self.layout.deck, self.layout.sizes, self.owners())


def _piles_from_owners(layout: Layout, owners: Sequence[int]) -> tuple[tuple[Card, ...], ...]:
    piles: list[list[Card]] = [[] for _ in layout.piles]
    for card, owner in zip(layout.deck, owners, strict=True):
        piles[owner].append(card)
    return tuple(tuple(p) for p in piles)


_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


class _FastUnranker:
    """Number -> piles under the ``croupier`` scheme, eight positions per table look-up."""

    __slots__ = ("deck", "radices", "sizes")

    def __init__(self, layout: Layout) -> None:
        from math import comb

        self.deck = layout.deck
        self.sizes = layout.sizes
        radices = []
        left = len(layout.deck)
        for k in self.sizes:
            radices.append(comb(left, k))
            left -= k
        self.radices = radices

    def piles(self, number: int) -> tuple[tuple[Card, ...], ...]:
        digits = [0] * len(self.sizes)
        for j in range(len(self.sizes) - 1, 0, -1):
            number, digits[j] = divmod(number, self.radices[j])
        digits[0] = number
        remaining: Sequence[Card] = self.deck
        out: list[tuple[Card, ...]] = []
        last = len(self.sizes) - 1
        for j, k in enumerate(self.sizes):
            if j == last:
                out.append(tuple(remaining))
                break
            n = len(remaining)
            mask = unrank_lex_mask(digits[j], n, k)
            out.append(tuple(compress(remaining, mask)))
            remaining = tuple(compress(remaining, mask.translate(_FLIP)))
        return tuple(out)


def deal_from_number(layout: Layout, number: int, scheme: str = DEFAULT_SCHEME) -> Deal:
    """The deal with ``number`` under ``scheme`` (no randomness).

    >>> from croupier.dealing.layout import make_layout
    >>> d = deal_from_number(make_layout("bridge"), 1, "bigdeal")
    >>> [c.code for c in d.piles[3]][:2]
    ['2D', 'KC']
    """
    s = get_scheme(scheme)
    owners = s.unrank(layout.deck, layout.sizes, number)
    d = Deal(layout, _piles_from_owners(layout, owners), method="number", source="none")
    if scheme == DEFAULT_SCHEME:
        d._number.append(number)
    return d


def deal_many(
    layout: Layout,
    count: int,
    *,
    method: str = "optimal",
    source: RandomSource | None = None,
    sampler: UniformSampler | None = None,
) -> Iterator[Deal]:
    """``count`` independent uniform deals from ONE sampler (leftover randomness carries over).

    Each deal's ``bits_used`` is what the source handed out while it was made;
    their sum is the source's total.

    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.randomness import make_source
    >>> src = make_source(seed="many", purpose="deal")
    >>> deals = list(deal_many(make_layout("euchre"), 3, source=src))
    >>> len(deals), sum(d.bits_used for d in deals) == src.bits_used
    (3, True)
    """
    if count < 0:
        raise CroupierError(f"count must be >= 0, got {count}")
    if sampler is None:
        sampler = UniformSampler(source if source is not None else OsRandomSource())
    src = sampler.source
    kind = src.kind
    m = get_method(method)
    total = layout.count
    if m.name == "optimal":
        fast = _FastUnranker(layout)
        below = sampler.below
        for _ in range(count):
            before = src.bits_used
            number = below(total)
            d = Deal(layout, fast.piles(number), "optimal", src.bits_used - before, kind)
            d._number.append(number)
            yield d
        return
    for _ in range(count):
        before = src.bits_used
        owners, number = m.run(layout.sizes, sampler)
        d = Deal(layout, _piles_from_owners(layout, owners), m.name, src.bits_used - before, kind)
        if number is not None:
            d._number.append(number)
        yield d


def deal(
    layout: Layout,
    *,
    method: str = "optimal",
    source: RandomSource | None = None,
    sampler: UniformSampler | None = None,
) -> Deal:
    """One uniform deal of ``layout`` (default: optimal method, OS CSPRNG).

    >>> from croupier.dealing.layout import make_layout
    >>> d = deal(make_layout("skat"), method="interval")
    >>> [len(p) for p in d.piles], d.bits_used > 0
    ([10, 10, 10, 2], True)
    """
    return next(deal_many(layout, 1, method=method, source=source, sampler=sampler))
