"""Dealing: turn randomness into a :class:`Deal` of a layout, counting the bits used.

>>> from croupier.dealing.layout import make_layout
>>> from croupier.randomness import resolve_source
>>> d = deal(make_layout("bridge"), source=resolve_source(seed="demo", purpose="deal"))
>>> [len(h) for h in d.hands], d.method, d.algorithm
([13, 13, 13, 13], 'optimal', 'croupier-deal/2')
>>> 0 <= d.number < d.layout.count
True

Stacks (a stock, a pond, War's piles) come in the order they were dealt, top
first; layouts with stacks are dealt by ``croupier-deal/3``:

>>> pond = deal("go-fish", source=resolve_source(seed="demo", purpose="deal")).remainder
>>> len(pond), pond == sorted(pond, key=make_layout("go-fish").index), deal_algorithm("go-fish")
(31, False, 'croupier-deal/3')

The same seed, layout, method and algorithm version always give the same deal.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import compress
from typing import TYPE_CHECKING

from croupier._core.subsets import number_masks
from croupier.algorithm_ids import DEAL, DEAL_STACKS
from croupier.cards import Card, format_cards
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError, DealNotationError, RankingError
from croupier.randomness.source import OsRandomSource
from croupier.randomness.uniform import below_once
from croupier.ranking.partitions import decimal, lex_table, subsets_rank
from croupier.ranking.stacks import stacks_code, stacks_from_code

if TYPE_CHECKING:  # the deal methods, numbering schemes and notations: imported where used
    from croupier.randomness.source import RandomSource
    from croupier.randomness.uniform import UniformSampler

__all__ = [
    "ALGORITHM_ID",
    "DEFAULT_SCHEME",
    "RUN_MARGIN_BITS",
    "STACKS_ALGORITHM_ID",
    "Deal",
    "deal",
    "deal_algorithm",
    "deal_from_number",
    "deal_from_piles",
    "deal_many",
]

ALGORITHM_ID = DEAL
"""Id and version of the dealing algorithm of layouts without stacks; bumped whenever a
seed would give another deal.

Version 2: the 32-bit margin starts at a run's second deal, whatever the count
(version 1 chose it by count, so ``--count 1`` and ``--count 2`` began differently).
"""

STACKS_ALGORITHM_ID = DEAL_STACKS
"""Id of the dealing algorithm of layouts with stacks (:attr:`Layout.ordered`): version 2
extended to deal every stack's order too (``docs/dealing.md``).  Without stacks version 3
makes the deals of version 2, so those deals keep the id ``croupier-deal/2``.
"""


def deal_algorithm(layout: Layout | str) -> str:
    """The id of the deals of ``layout``: ``croupier-deal/3`` when it has stacks, else ``/2``.

    >>> deal_algorithm("bridge"), deal_algorithm("war")
    ('croupier-deal/2', 'croupier-deal/3')
    """
    if isinstance(layout, str):
        from croupier.dealing.layout import make_layout

        layout = make_layout(layout)
    return STACKS_ALGORITHM_ID if layout.ordered else ALGORITHM_ID


RUN_MARGIN_BITS = 32
"""The margin (in bits) of the uniform draws of a run's second and later deals."""

DEFAULT_SCHEME = "croupier"
"""The scheme of :attr:`Deal.number`."""


class Deal:
    """One deal of a layout: the cards of every pile, and how they were dealt.

    ``piles[i]`` holds the cards of ``layout.piles[i]``: a set in the deck's
    canonical order, a stack in its dealt order, top first.  ``number`` is the
    deal's number under the ``croupier`` scheme
    (:meth:`number_in` gives it under any other).  ``bits_used`` is the
    randomness spent on this deal, ``source`` the kind of source it came from.
    Treat a deal as immutable.  Two deals are equal when their layouts and
    cards are.

    >>> from croupier.dealing.layout import make_layout
    >>> d = deal_from_number(make_layout(hands=[1, 1], deck="stripped:A"), 0)
    >>> [[c.code for c in p] for p in d.piles], d.remainder
    ([['AS'], ['AH'], ['AD', 'AC']], [Card.parse('AD'), Card.parse('AC')])
    """

    __slots__ = (
        "_masks",
        "_number",
        "_piles",
        "algorithm",
        "bits_used",
        "layout",
        "method",
        "source",
    )

    def __init__(
        self,
        layout: Layout,
        piles: tuple[tuple[Card, ...], ...] | None,
        method: str = "number",
        bits_used: float = 0.0,
        source: str = "none",
        number: int | None = None,
        algorithm: str | None = None,
        masks: tuple[bytes, ...] | None = None,
    ) -> None:
        if piles is None and (masks is None or number is None):
            raise CroupierError("a deal needs its piles, or their masks and its number")
        self.layout = layout
        self._piles = piles
        self._masks = masks
        self.method = method
        self.bits_used = bits_used
        self.source = source
        self._number = number
        self.algorithm = deal_algorithm(layout) if algorithm is None else algorithm

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of every pile of the layout: sets in deck order, stacks top first.

        The fast dealing path stores each pile as a 0/1 mask over the cards the
        earlier piles left (with the deal's number, a complete, compact record of
        the deal); the card tuples are built from it the first time they are read.
        """
        piles = self._piles
        if piles is None:
            masks = self._masks if self._masks is not None else ()
            piles = _piles_from_masks(self.layout.deck, masks)
            if self.layout.ordered and self._number is not None:
                piles = _ordered(self.layout, piles, self._number % self.layout.arrangements)
            self._piles = piles
        return piles

    def __repr__(self) -> str:
        return (
            f"<Deal {self.layout.game} number={self.number} method={self.method} "
            f"bits={self.bits_used:g}>"
        )

    def __str__(self) -> str:
        """The deal for people: a header, then a line per pile.

        Cards are shown with suit symbols: a set sorted in the game's order,
        highest first, a stack in its order, top first; the header gives the
        game, the deal number (``croupier`` scheme) and the method.

        >>> from croupier.dealing.layout import make_layout
        >>> print(deal_from_number(make_layout("war").without_stacks(), 0))
        war deal 0 (method number)
        P1  A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥
        P2  A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣
        >>> lay = make_layout(hands=[1], deck="stripped:A").with_stacks("stock")
        >>> print(deal_from_number(lay, 5))
        custom deal 5 (method number)
        P1     A♠
        stock  A♣ A♥ A♦ (top first)
        """
        from croupier.orders import sort_cards

        layout = self.layout
        width = max((len(p.name) for p in layout.piles), default=0)
        lines = [f"{layout.game} deal {decimal(self.number)} (method {self.method})"]
        for pile, cards in zip(layout.piles, self.piles, strict=True):
            if pile.ordered:
                shown = format_cards(cards, "symbol") + " (top first)"
            else:
                shown = format_cards(sort_cards(cards, layout.order, descending=True), "symbol")
            lines.append(f"{pile.name:<{width}}  {shown or '—'}")
        return "\n".join(lines)

    @property
    def pbn(self) -> str:
        """The PBN deal string, North first: ``N:<N> <E> <S> <W>`` (bridge-like layouts only).

        What ``croupier deal --format pbn-deal`` prints and every PBN reader takes.

        >>> from croupier.dealing.layout import make_layout
        >>> deal_from_number(make_layout("bridge"), 1).pbn
        'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.A ..2.KQJT98765432'
        >>> deal_from_number(make_layout("euchre"), 0).pbn
        Traceback (most recent call last):
        ...
        croupier.errors.DealNotationError: a PBN deal holds four bridge hands (N, E, S, W of 13 \
cards of the standard deck), not a euchre deal; use .oneline
        """
        if not self.layout.bridge_like:
            raise DealNotationError(
                "a PBN deal holds four bridge hands (N, E, S, W of 13 cards of the standard "
                f"deck), not a {self.layout.game} deal; use .oneline"
            )
        from croupier.dealing.notation import format_pbn_deal

        return format_pbn_deal(self.piles)

    @property
    def oneline(self) -> str:
        """The deal on one line, as ``croupier deal --format oneline`` writes it (no line end).

        Bridge-like layouts: dealer's ``printoneline``, ``n <N> e <E> s <S> w <W>``
        with hands as in PBN (dealer adds a space before the line end).  Any
        other layout: every pile with its cards highest first, piles separated
        by `` | ``.

        >>> from croupier.dealing.layout import make_layout
        >>> deal_from_number(make_layout("bridge"), 0).oneline
        'n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432'
        >>> deal_from_number(make_layout(hands=[2, 1], deck="stripped:AK"), 0).oneline
        'P1 AS KS | P2 AH | stock KH AD KD AC KC'
        """
        from croupier.dealing.notation import format_oneline

        return format_oneline(self.layout, self.piles)

    def _repr_html_(self) -> str:
        """Notebook display: a compass diagram for bridge-like deals, else a table of piles.

        >>> from croupier.dealing.layout import make_layout
        >>> deal_from_number(make_layout("bridge"), 0)._repr_html_().count("data-card=")
        52
        """
        from croupier.dealing.display import deal_html  # imported here: it imports Deal

        return deal_html(self)

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
        """The cards of the remainder pile (stock, pond, kitty…), empty if there is none;
        top first when the pile is a stack."""
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

    def stack_code(self) -> int:
        """The code of the stacks' orders (``0`` without stacks; :mod:`croupier.ranking.stacks`).

        >>> from croupier.dealing.layout import make_layout
        >>> deal_from_number(make_layout("euchre"), 23).stack_code()
        23
        """
        layout = self.layout
        if not layout.ordered:
            return 0
        if self._number is not None:
            return self._number % layout.arrangements
        index = layout.index
        perms = []
        for i in layout.stack_piles:
            cards = [index(c) for c in self.piles[i]]
            place = {pos: rank for rank, pos in enumerate(sorted(cards))}
            perms.append([place[pos] for pos in cards])
        return stacks_code(perms)

    @property
    def number(self) -> int:
        """The deal number under the ``croupier`` scheme (base 0): with stacks, the number of
        the piles' cards times ``∏ k!`` plus :meth:`stack_code` (``docs/deal-numbers.md``)."""
        if self._number is None:
            owners = subsets_rank(self.owners(), self.layout.sizes, "lex")
            self._number = owners * self.layout.arrangements + self.stack_code()
        return self._number

    def number_in(self, scheme: str) -> int:
        """The deal's number under ``scheme`` (see :mod:`croupier.ranking.schemes`).

        With stacks, the scheme numbers the piles' cards and the stack code is
        appended as for the ``croupier`` scheme: ``(n - base) · ∏ k! + code + base``.

        >>> from croupier.dealing.layout import make_layout
        >>> d = deal_from_number(make_layout("bridge"), 0)
        >>> d.number_in("pavlicek"), d.number_in("pavlicek-1")
        (0, 1)
        """
        if scheme == DEFAULT_SCHEME:
            return self.number
        from croupier.ranking.schemes import get_scheme

        s = get_scheme(scheme)
        number = s.rank(self.layout.deck, self.layout.sizes, self.owners())
        if not self.layout.ordered:
            return number
        return (number - s.base) * self.layout.arrangements + self.stack_code() + s.base


def _ordered(
    layout: Layout, piles: tuple[tuple[Card, ...], ...], code: int
) -> tuple[tuple[Card, ...], ...]:
    """``piles`` (every pile in deck order) with the stacks put in the order ``code`` names."""
    stacks = layout.stack_piles
    perms = stacks_from_code(code, [layout.piles[i].size for i in stacks])
    out = list(piles)
    for i, perm in zip(stacks, perms, strict=True):
        out[i] = tuple(piles[i][place] for place in perm)
    return tuple(out)


def _piles_from_owners(
    layout: Layout, owners: Sequence[int], orders: dict[int, list[int]] | None = None
) -> tuple[tuple[Card, ...], ...]:
    piles: list[list[Card]] = [[] for _ in layout.piles]
    for card, owner in zip(layout.deck, owners, strict=True):
        piles[owner].append(card)
    if orders:
        deck = layout.deck
        for i, positions in orders.items():
            piles[i] = [deck[pos] for pos in positions]
    return tuple(tuple(p) for p in piles)


_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")

FAST_UNRANK_CARDS = 64
"""Decks up to this size deal through :class:`_FastUnranker`'s cached tables.

Its tables pay off when they are reused, deal after deal, on a small deck
(bridge: 52 cards); on bigger decks they are rarely reused, and unranking
directly (:func:`~croupier.ranking.partitions.subsets_unrank`, the same
numbering) is several times faster.
"""


class _FastUnranker:
    """Number -> piles under the ``croupier`` scheme, a run of positions per table look-up.

    The same numbering as :func:`croupier.ranking.partitions.subsets_unrank`
    with ``order="lex"`` (the tests check the two agree), inlined for speed:
    the tables of :func:`~croupier.ranking.partitions.lex_table` are kept in a
    flat list indexed by ``n * width + k``.
    """

    __slots__ = ("deck", "radices", "sizes", "tables", "width")

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
        self.width = max(self.sizes, default=0) + 1
        self.tables: list[tuple[list[int], list[tuple[int, bytes, int]]] | None] = [None] * (
            (len(self.deck) + 1) * self.width
        )

    def _table(self, key: int) -> tuple[list[int], list[tuple[int, bytes, int]]]:
        n, k = divmod(key, self.width)
        cums, entries = lex_table(n, k)
        table = (cums, [(c, m, n2 * self.width + k2 if k2 else -1) for c, m, n2, k2 in entries])
        self.tables[key] = table
        return table

    def _digits(self, number: int) -> list[int]:
        """Deal ``number``'s digit of each pile: the rank of its subset of the cards left."""
        radices = self.radices
        last = len(radices) - 1
        digits = [0] * (last + 1)
        for j in range(last, 0, -1):
            number, digits[j] = divmod(number, radices[j])
        digits[0] = number
        return digits

    def masks(self, number: int) -> tuple[bytes, ...]:
        """The 0/1 masks of deal ``number``: pile ``j`` over the cards the piles before it left.

        Made by the compiled core (``croupier._core.subsets``); :meth:`masks_reference` is
        the same walk in plain Python, through the cached tables.
        """
        if len(self.deck) > FAST_UNRANK_CARDS or len(self.sizes) > FAST_UNRANK_CARDS + 1:
            return self.masks_reference(number)  # (ranks past 64 bits: the tables' walk)
        return number_masks(number, self.sizes, len(self.deck))

    def masks_reference(self, number: int) -> tuple[bytes, ...]:
        """:meth:`masks` in plain Python (its masks may stop short: the rest are 0)."""
        sizes = self.sizes
        last = len(sizes) - 1
        digits = self._digits(number)
        size = len(self.deck)
        tables = self.tables
        width = self.width
        join = b"".join
        out: list[bytes] = []
        for j in range(last):
            rank = digits[j]
            k = sizes[j]
            key = size * width + k if k else -1
            parts: list[bytes] = []
            while key >= 0:
                table = tables[key] or self._table(key)
                cum, part, key = table[1][bisect_right(table[0], rank) - 1]
                rank -= cum
                parts.append(part)
            out.append(join(parts))
            size -= k
        return tuple(out)

    def piles(self, number: int) -> tuple[tuple[Card, ...], ...]:
        """The piles of the deal with ``number`` under the ``croupier`` scheme."""
        return _piles_from_masks(self.deck, self.masks(number))


_UNRANKERS: dict[int, tuple[Layout, _FastUnranker]] = {}
"""Unrankers (and the tables they fill in) of recent layouts, by identity: a layout is immutable."""


def _fast_unranker(layout: Layout) -> _FastUnranker:
    """The unranker of ``layout``, kept for the next deal of the same layout object."""
    kept = _UNRANKERS.get(id(layout))
    if kept is not None and kept[0] is layout:
        return kept[1]
    fast = _FastUnranker(layout)
    if len(_UNRANKERS) >= 64:
        _UNRANKERS.clear()
    _UNRANKERS[id(layout)] = (layout, fast)
    return fast


def _piles_from_masks(
    deck: tuple[Card, ...], masks: tuple[bytes, ...]
) -> tuple[tuple[Card, ...], ...]:
    remaining = deck
    out: list[tuple[Card, ...]] = []
    for mask in masks:
        out.append(tuple(compress(remaining, mask)))
        keep = mask.translate(_FLIP) + b"\x01" * (len(remaining) - len(mask))
        remaining = tuple(compress(remaining, keep))
    out.append(remaining)
    return tuple(out)


def deal_from_piles(layout: Layout, piles: Sequence[Sequence[Card]]) -> Deal:
    """The deal giving ``piles[i]`` to ``layout.piles[i]`` (the remainder may be left out).

    A stack keeps the order given (top first); a set's order does not matter.
    A remainder left out takes the cards left, in deck order.  Every card must
    be in the layout's deck, appear once, and every pile must have its size;
    otherwise :class:`~croupier.errors.DealNotationError`.

    >>> from croupier.cards import parse_cards
    >>> from croupier.dealing.layout import make_layout
    >>> lay = make_layout(hands=[1, 1], deck="stripped:A")
    >>> deal_from_piles(lay, [parse_cards("AH"), parse_cards("AS")]).number
    3
    >>> deal_from_piles(lay, [parse_cards("AH"), parse_cards("AH")])
    Traceback (most recent call last):
    ...
    croupier.errors.DealNotationError: card AH is dealt twice (to P1 and P2)
    """
    names = [p.name for p in layout.piles]
    given = [list(p) for p in piles]
    if layout.remainder_name is not None and len(given) == len(names) - 1:
        seen = {c for p in given for c in p}
        given.append([c for c in layout.deck if c not in seen])
    if len(given) != len(names):
        raise DealNotationError(
            f"expected {len(names)} piles ({', '.join(names)}), got {len(given)}"
        )
    owner: dict[Card, int] = {}
    for i, cards in enumerate(given):
        for card in cards:
            if card not in layout:
                raise DealNotationError(
                    f"card {card.code} is not in the {layout.deck_name} deck of {layout.game}"
                )
            if card in owner:
                raise DealNotationError(
                    f"card {card.code} is dealt twice (to {names[owner[card]]} and {names[i]})"
                )
            owner[card] = i
    for i, cards in enumerate(given):
        if len(cards) != layout.piles[i].size:
            raise DealNotationError(
                f"{names[i]} has {len(cards)} cards; {layout.game} gives it {layout.piles[i].size}"
            )
    owners = [owner[c] for c in layout.deck]
    index = layout.index
    orders = {i: [index(c) for c in given[i]] for i in layout.stack_piles}
    return Deal(layout, _piles_from_owners(layout, owners, orders), "given", 0.0, "none")


def deal_from_number(layout: Layout, number: int, scheme: str = DEFAULT_SCHEME) -> Deal:
    """The deal with ``number`` under ``scheme`` (no randomness).

    With stacks, ``number - base`` is read as ``n · ∏ k! + code``: ``n + base`` the
    scheme's number of the piles' cards, ``code`` the stacks' orders
    (``docs/deal-numbers.md``).

    >>> from croupier.dealing.layout import make_layout
    >>> d = deal_from_number(make_layout("bridge"), 1, "bigdeal")
    >>> [c.code for c in d.piles[3]][:2]
    ['2D', 'KC']
    >>> [c.code for c in deal_from_number(make_layout("euchre"), 23).remainder]
    ['9C', 'QC', 'JC', 'TC']
    """
    from croupier.ranking.schemes import get_scheme

    s = get_scheme(scheme)
    known = number if scheme == DEFAULT_SCHEME else None
    if not layout.ordered:
        owners = s.unrank(layout.deck, layout.sizes, number)
        return Deal(layout, _piles_from_owners(layout, owners), "number", 0.0, "none", known)
    if isinstance(number, bool) or not isinstance(number, int):
        raise RankingError(f"deal number must be an integer, got {number!r}")
    if not s.base <= number < s.base + layout.count:
        raise RankingError(
            f"deal number {decimal(number)} out of range for scheme {s.name!r}; "
            f"expected {s.base} <= number <= {decimal(s.base + layout.count - 1)}"
        )
    high, code = divmod(number - s.base, layout.arrangements)
    owners = s.unrank(layout.deck, layout.sizes, high + s.base)
    piles = _ordered(layout, _piles_from_owners(layout, owners), code)
    return Deal(layout, piles, "number", 0.0, "none", known)


def deal_many(
    layout: Layout | str,
    count: int,
    *,
    method: str = "optimal",
    source: RandomSource | None = None,
    sampler: UniformSampler | None = None,
) -> Iterator[Deal]:
    """``count`` independent uniform deals from ONE sampler (leftover randomness carries over).

    Each deal's ``bits_used`` is what the source handed out while it was made;
    their sum is the source's total.  Without a ``sampler``, the first deal is
    drawn with the fewest bits and every later one with a
    :data:`RUN_MARGIN_BITS`-bit margin (see
    :class:`~croupier.randomness.UniformSampler`), so over a long run the
    optimal method costs ``log2 M`` bits per deal plus almost nothing, and the
    first K deals are the same whatever ``count`` is (prefix stability).

    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.randomness import resolve_source
    >>> src = resolve_source(seed="many", purpose="deal")
    >>> deals = list(deal_many(make_layout("euchre"), 3, source=src))
    >>> len(deals), sum(d.bits_used for d in deals) == src.bits_used
    (3, True)
    """
    if isinstance(layout, str):
        from croupier.dealing.layout import make_layout

        layout = make_layout(layout)
    if count < 0:
        raise CroupierError(f"count must be >= 0, got {count}")
    from croupier.dealing.methods import get_deal_method

    run_margin: int | None = None  # the margin from the second deal on, when ours to set
    if sampler is None:
        from croupier.randomness.source import OsRandomSource
        from croupier.randomness.uniform import UniformSampler

        # The first deal takes the fewest bits (no margin); from the second deal on,
        # a 32-bit margin means almost nothing is ever rejected and the leftover
        # carries over.  The switch is by position, never by count, so the first K
        # deals of a run do not depend on how many are dealt.  Finite user entropy
        # (dice) is never spent on a margin.
        src_ = source if source is not None else OsRandomSource()
        sampler = UniformSampler(src_, margin_bits=0)
        run_margin = RUN_MARGIN_BITS if src_.kind != "entropy" else 0
    src = sampler.source
    kind = src.kind
    m = get_deal_method(method)
    algorithm = deal_algorithm(layout)
    if m.name == "optimal" and len(layout.deck) <= FAST_UNRANK_CARDS:
        fast = _fast_unranker(layout)
        for i in range(count):
            if i == 1 and run_margin is not None:
                sampler.margin_bits = run_margin
            yield _optimal_deal(layout, fast, sampler, algorithm)
        return
    # Other methods, and the optimal one on big decks (plain unranking, no tables).
    stacks = layout.stack_piles
    for i in range(count):
        if i == 1 and run_margin is not None:
            sampler.margin_bits = run_margin
        before = src.bits_used
        owners, orders_, known = m.deal(layout.sizes, sampler, stacks)
        piles = _piles_from_owners(layout, owners, orders_)
        yield Deal(layout, piles, m.name, src.bits_used - before, kind, known, algorithm)


def _optimal_deal(
    layout: Layout, fast: _FastUnranker, sampler: UniformSampler, algorithm: str
) -> Deal:
    """One deal of the optimal method: a uniform number below the count, unranked by
    ``fast``; its bits are what ``sampler``'s source handed out meanwhile."""
    src = sampler.source
    before = src.bits_used
    number = sampler.below(layout.count)
    orders = layout.arrangements  # 1 without stacks: the number is the piles' number
    masks = fast.masks(number if orders == 1 else number // orders)
    bits = src.bits_used - before
    return Deal(layout, None, "optimal", bits, src.kind, number, algorithm, masks)


def _first_optimal_deal(layout: Layout, source: RandomSource | None) -> Deal:
    """:func:`_optimal_deal` of a fresh sampler with no margin (a run's first deal)."""
    src = source if source is not None else OsRandomSource()
    before = src.bits_used
    number = below_once(src, layout.count)
    orders = layout.arrangements  # 1 without stacks: the number is the piles' number
    masks = _fast_unranker(layout).masks(number if orders == 1 else number // orders)
    algorithm = STACKS_ALGORITHM_ID if layout.ordered else ALGORITHM_ID
    return Deal(layout, None, "optimal", src.bits_used - before, src.kind, number, algorithm, masks)


def deal(
    layout: Layout | str,
    *,
    method: str = "optimal",
    source: RandomSource | None = None,
    sampler: UniformSampler | None = None,
) -> Deal:
    """One uniform deal of ``layout`` (default: optimal method, OS CSPRNG).

    ``layout`` is a :class:`Layout` or a game name (``"bridge"``, ``"skat"`` …).

    >>> d = deal("skat", method="interval")
    >>> [len(p) for p in d.piles], d.bits_used > 0
    ([10, 10, 10, 2], True)
    >>> len(deal("bridge").hands[0])
    13
    """
    if (
        sampler is None
        and method == "optimal"
        and not isinstance(layout, str)
        and len(layout.deck) <= FAST_UNRANK_CARDS
    ):  # deal_many's first deal, without its loop
        return _first_optimal_deal(layout, source)
    return next(deal_many(layout, 1, method=method, source=source, sampler=sampler))
