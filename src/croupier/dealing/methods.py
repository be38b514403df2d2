"""Deal methods: exactly uniform ways to split a deck into the piles of a layout.

Every method takes the pile sizes and a :class:`~croupier.randomness.Chooser`
and returns the **owner sequence** (``owners[p]`` = the pile that gets deck
position ``p``) plus the deal's number under the ``croupier`` scheme when the
method knows it for free.  Because all randomness goes through
``chooser.below(n)``, each method's exact distribution can be computed by
walking its decision tree (:func:`croupier.randomness.exact_distribution`), and
every one of them gives each of the ``M`` deals probability exactly ``1/M``.

==================  ==========================================================  ==============
method              how                                                         bits (bridge)
==================  ==========================================================  ==============
``optimal``         one uniform integer in ``[0, M)``, then unranked            95.44 (log2 M)
``block``           full Fisher–Yates shuffle, consecutive slices               225.6 (log2 52!)
``round-robin``     full shuffle, one card at a time to each pile in turn       225.6
``proportional``    card by card, pile chosen in proportion to its open slots  225.6
``interval``        card by card, coin-flip binary search, stops when known     225.56 (mean)
``fraction``        partial Fisher–Yates of the cards needed, one random        193.0
                    number read as a fraction                                   (log2 52!/13!)
``arithmetic``      coin flips read as one fraction; the interval carries       97.35 (mean)
                    over from card to card, so no flip is wasted
==================  ==========================================================  ==============

(Mean bits per deal: the exact expected number of coin flips for ``interval``
and ``arithmetic``; for the others the log2 of what they draw, which a
recycling sampler approaches.  See ``docs/dealing.md`` and
``bench/bench_deal.py``.)

>>> from croupier.randomness import exact_distribution
>>> dist = exact_distribution(lambda ch: tuple(deal_proportional((2, 2, 2), ch)[0]))
>>> len(dist), set(dist.values())
(90, {Fraction(1, 90)})

**Stacks.**  A layout's stacks (piles dealt in order, top first) are dealt by
:meth:`DealMethod.deal`, which returns the order of every stack too: ``optimal``
draws one integer below ``M · ∏ k!`` (the stack orders are its low digits, see
:mod:`croupier.ranking.stacks`); ``block``, ``round-robin`` and ``fraction``
read each stack's order off their shuffle (``fraction`` then shuffles every card
when the last pile is a stack); ``proportional``, ``interval`` and
``arithmetic`` deal the owners as above, then draw the stack orders as one
integer below ``∏ k!``.  Without stacks every method makes exactly the draws it
made before, so hand-only layouts are dealt as they always were.

>>> ordered = exact_distribution(
...     lambda ch: METHODS["block"].deal((1, 2), ch, stacks=(1,)).key())
>>> len(ordered), set(ordered.values())
(6, {Fraction(1, 6)})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from typing import NamedTuple

from croupier.errors import CroupierError
from croupier.frozen import frozen_dataclass
from croupier.randomness.uniform import Chooser
from croupier.ranking.partitions import multinomial, subsets_unrank
from croupier.ranking.stacks import arrangements, stacks_from_code

__all__ = [
    "METHODS",
    "DealMethod",
    "Dealt",
    "MethodResult",
    "deal_arithmetic",
    "deal_block",
    "deal_fraction",
    "deal_interval",
    "deal_optimal",
    "deal_proportional",
    "deal_round_robin",
    "get_deal_method",
    "interval_attempt",
    "method_names",
    "stack_orders",
]

MethodResult = tuple[list[int], int | None]
"""``(owners, number)``: the owner of each deck position, and the ``croupier``
deal number when the method produced it (else ``None``)."""


def _full_shuffle(n: int, chooser: Chooser) -> list[int]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates, ``n - 1`` draws)."""
    from croupier.shuffling.fair import fisher_yates

    return fisher_yates(list(range(n)), chooser)


def deal_optimal(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """One uniform number below ``M`` (the fewest bits), unranked pile by pile.

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_optimal((2, 2, 2), ScriptedChooser([89]))
    ([2, 2, 1, 1, 0, 0], 89)
    """
    number = chooser.below(multinomial(sizes))
    return subsets_unrank(number, sizes, "lex"), number


def deal_block(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """Shuffle the whole deck, then cut it into consecutive blocks, one per pile.

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_block((1, 1), ScriptedChooser([0]))[0]
    [1, 0]
    """
    n = sum(sizes)
    order = _full_shuffle(n, chooser)
    owners = [0] * n
    start = 0
    for pile, k in enumerate(sizes):
        for pos in order[start : start + k]:
            owners[pos] = pile
        start += k
    return owners, None


def deal_round_robin(
    sizes: Sequence[int], chooser: Chooser, hands: int | None = None
) -> MethodResult:
    """Shuffle the whole deck, then deal one card at a time to each pile in turn.

    The first ``hands`` piles (by default every pile, shared piles and the
    remainder included, which is what :func:`croupier.dealing.deal` uses) are
    dealt round-robin, skipping piles that are full; any later piles take the
    next cards in blocks, as a board or a stock does at a real table.  Any
    fixed way of handing out a uniformly shuffled deck is exactly uniform.

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_round_robin((2, 2), ScriptedChooser([0, 0, 0]))[0]
    [1, 0, 1, 0]
    """
    n = sum(sizes)
    order = _full_shuffle(n, chooser)
    if hands is None:
        hands = len(sizes)
    owners = [0] * n
    left = list(sizes[:hands])
    it = iter(order)
    while any(left):
        for pile in range(hands):
            if left[pile]:
                owners[next(it)] = pile
                left[pile] -= 1
    for pile in range(hands, len(sizes)):
        for _ in range(sizes[pile]):
            owners[next(it)] = pile
    return owners, None


def deal_proportional(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """Card by card: pile ``i`` with probability (open slots of ``i``) / (cards left).

    The fair card-by-card rule (choosing uniformly among the open piles is
    biased): one draw below the number of cards left per card, so about
    ``log2 n!`` bits in all.

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_proportional((1, 2), ScriptedChooser([2, 0]))[0]
    [1, 0, 1]
    """
    left = list(sizes)
    total = sum(sizes)
    owners: list[int] = []
    while total:
        r = chooser.below(total)
        pile = 0
        while r >= left[pile]:
            r -= left[pile]
            pile += 1
        owners.append(pile)
        left[pile] -= 1
        total -= 1
    return owners, None


def interval_attempt(left: Sequence[int], coin: Chooser) -> int | None:
    """One try of the coin-flip binary search: a pile, or ``None`` to start again.

    Positions ``0 .. T-1`` (``T`` = cards left) are laid out pile after pile,
    each pile owning as many as it has open slots, and padded with rejected
    positions up to the next power of two.  Each coin flip halves the dyadic
    interval that holds the chosen position; the search stops as soon as the
    whole interval belongs to one pile (that pile is the answer) or lies in the
    padding (``None``: try again with fresh flips).  When only one pile has open
    slots the answer is known before any flip.  So each pile comes out
    with probability exactly proportional to its open slots, and a pile that
    owns a long run is decided after a few flips.

    >>> from croupier.randomness import ScriptedChooser, exact_distribution
    >>> exact_distribution(lambda ch: interval_attempt([1, 2], ch))
    {0: Fraction(1, 4), 1: Fraction(1, 2), None: Fraction(1, 4)}
    >>> interval_attempt([0, 3, 0], ScriptedChooser([]))
    1
    """
    open_piles = [i for i, k in enumerate(left) if k > 0]
    if len(open_piles) == 1:
        return open_piles[0]  # only one pile can take the card: no flip needed
    total = sum(left)
    bounds: list[int] = []
    acc = 0
    for k in left:
        acc += k
        bounds.append(acc)
    lo, size = 0, 1
    while size < total:
        size <<= 1
    while True:
        hi = lo + size
        if lo >= total:
            return None
        # the pile owning position lo
        pile = 0
        while bounds[pile] <= lo:
            pile += 1
        if hi <= bounds[pile]:
            return pile
        size >>= 1
        if coin.below(2):
            lo += size


def deal_interval(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """Card by card with :func:`interval_attempt`: a coin-flip binary search per card.

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_interval((2, 2), ScriptedChooser([1, 0, 1, 1]))[0]
    [1, 0, 1, 0]
    """
    left = list(sizes)
    owners: list[int] = []
    for _ in range(sum(sizes)):
        pile = interval_attempt(left, chooser)
        while pile is None:
            pile = interval_attempt(left, chooser)
        owners.append(pile)
        left[pile] -= 1
    return owners, None


def deal_arithmetic(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """Coin flips read as one binary fraction ``x``, the interval carried from card to card.

    The coin-flip binary search done so that nothing is thrown away: the ``M``
    deals split ``[0, 1)`` into intervals of width ``1/M`` in card-by-card
    (``sequence``) order; each card splits the current deal interval in
    proportion to the open slots, and coins are flipped (bits of ``x``) only
    until the flipped dyadic interval lies inside one part.  The deal is the
    one whose interval holds ``x`` — deal number ``floor(x * M)`` in the
    ``sequence`` scheme — so it is exactly uniform, and it costs about
    ``log2 M + 2`` flips on average (97.35 for bridge).  (A path can be
    unbounded only on a set of probability zero, so unlike the other methods
    its decision tree is infinite; the tests check it against ``floor(x * M)``.)

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_arithmetic((1, 1), ScriptedChooser([1]))[0]
    [1, 0]
    """
    total = multinomial(sizes)
    left = list(sizes)
    cards = sum(sizes)
    low, width = 0, total  # the current deal interval [low, low + width), in units of 1/M
    a, scale = 0, 1  # the flipped bits: x lies in [a/scale, (a+1)/scale)
    owners: list[int] = []
    for _ in range(cards):
        while True:
            start = low
            found = -1
            for pile, c in enumerate(left):
                part = width * c // cards
                if (
                    part
                    and a * total >= start * scale
                    and (a + 1) * total <= (start + part) * scale
                ):
                    found = pile
                    break
                start += part
            if found >= 0:
                break
            a = 2 * a + chooser.below(2)
            scale *= 2
        owners.append(found)
        low = start
        width = width * left[found] // cards
        left[found] -= 1
        cards -= 1
    return owners, None


def deal_fraction(sizes: Sequence[int], chooser: Chooser) -> MethodResult:
    """Partial Fisher–Yates of only the cards needed, driven by one random number.

    The piles but the last need
    ``d = n - k_last`` cards, so ``d`` Fisher–Yates steps with ranges ``n, n-1,
    …, n-d+1``; their product ``P = n!/k_last!`` bounds ONE uniform integer
    ``R`` (the exact fraction ``R/P``), whose mixed-radix digits are the swap
    offsets (``F *= range; r = floor(F); F -= r`` in exact arithmetic).  Three
    easy mistakes are avoided: drawing only ``log2(39!)`` bits (too few: the
    ranges multiply to ``52!/13!``), stopping the loop one swap early (the
    last needed card is then never drawn), and reading the swaps off a rounded
    binary fraction (biased).

    >>> from croupier.randomness import ScriptedChooser
    >>> deal_fraction((1, 1, 1), ScriptedChooser([5]))[0]
    [1, 2, 0]
    """
    n = sum(sizes)
    d = n - sizes[-1] if sizes else 0
    space = 1
    for i in range(d):
        space *= n - i
    number = chooser.below(space)
    items = list(range(n))
    for i in range(d):
        space //= n - i
        r, number = divmod(number, space)
        j = i + r
        items[i], items[j] = items[j], items[i]
    owners = [len(sizes) - 1] * n
    start = 0
    for pile, k in enumerate(sizes[:-1]):
        for pos in items[start : start + k]:
            owners[pos] = pile
        start += k
    return owners, None


class Dealt(NamedTuple):
    """A deal as a method makes it: every position's pile, every stack's order, the number.

    ``owners[p]`` is the pile of deck position ``p``; ``orders[i]`` lists the deck
    positions of stack pile ``i`` top first (only stacks of two or more cards);
    ``number`` is the deal's ``croupier`` number when the method knows it.
    """

    owners: list[int]
    orders: dict[int, list[int]]
    number: int | None

    def key(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """A hashable value naming the deal: the owners and the stack orders.

        >>> Dealt([1, 0, 1], {1: [2, 0]}, None).key()
        ((1, 0, 1), ((2, 0),))
        """
        return tuple(self.owners), tuple(tuple(self.orders[i]) for i in sorted(self.orders))


_Ordered = Callable[[Sequence[int], Sequence[int], Chooser], Dealt]


def _stack_sizes(sizes: Sequence[int], stacks: Sequence[int]) -> list[int]:
    return [sizes[i] for i in stacks]


def stack_orders(
    owners: Sequence[int], sizes: Sequence[int], stacks: Sequence[int], code: int
) -> dict[int, list[int]]:
    """The deck positions of every stack, top first, from the stacks' combined code.

    Stack ``i``'s cards, taken in deck order, are put in the order that
    :func:`croupier.ranking.stacks.stacks_from_code` names.

    >>> stack_orders([1, 0, 1, 1], (1, 3), (1,), 1)
    {1: [0, 3, 2]}
    """
    perms = stacks_from_code(code, _stack_sizes(sizes, stacks))
    cards: dict[int, list[int]] = {i: [] for i in stacks}
    for pos, owner in enumerate(owners):
        if owner in cards:
            cards[owner].append(pos)
    return {i: [cards[i][place] for place in perm] for i, perm in zip(stacks, perms, strict=True)}


def _optimal_ordered(sizes: Sequence[int], stacks: Sequence[int], chooser: Chooser) -> Dealt:
    """One integer below ``M · ∏ k!``: its high part the owners, its low part the orders."""
    orders = arrangements(_stack_sizes(sizes, stacks))
    number = chooser.below(multinomial(sizes) * orders)
    high, code = divmod(number, orders)
    owners = subsets_unrank(high, sizes, "lex")
    return Dealt(owners, stack_orders(owners, sizes, stacks, code), number)


def _slices(sizes: Sequence[int], order: Sequence[int], stacks: Sequence[int]) -> Dealt:
    """Consecutive slices of a shuffled order, one per pile; a stack keeps its slice's order."""
    owners = [0] * len(order)
    orders: dict[int, list[int]] = {}
    start = 0
    for pile, k in enumerate(sizes):
        part = list(order[start : start + k])
        for pos in part:
            owners[pos] = pile
        if pile in stacks:
            orders[pile] = part
        start += k
    return Dealt(owners, orders, None)


def _block_ordered(sizes: Sequence[int], stacks: Sequence[int], chooser: Chooser) -> Dealt:
    return _slices(sizes, _full_shuffle(sum(sizes), chooser), stacks)


def _round_robin_ordered(sizes: Sequence[int], stacks: Sequence[int], chooser: Chooser) -> Dealt:
    """As :func:`deal_round_robin`; a stack lists its cards in the order it received them."""
    n = sum(sizes)
    it = iter(_full_shuffle(n, chooser))
    owners = [0] * n
    received: list[list[int]] = [[] for _ in sizes]
    left = list(sizes)
    while any(left):
        for pile in range(len(sizes)):
            if left[pile]:
                pos = next(it)
                owners[pos] = pile
                received[pile].append(pos)
                left[pile] -= 1
    return Dealt(owners, {i: received[i] for i in stacks}, None)


def _fraction_ordered(sizes: Sequence[int], stacks: Sequence[int], chooser: Chooser) -> Dealt:
    """As :func:`deal_fraction`, shuffling every card when the last pile is a stack."""
    n = sum(sizes)
    last_ordered = bool(sizes) and len(sizes) - 1 in stacks
    d = n - 1 if last_ordered else (n - sizes[-1] if sizes else 0)
    space = 1
    for i in range(d):
        space *= n - i
    number = chooser.below(space)
    items = list(range(n))
    for i in range(d):
        space //= n - i
        r, number = divmod(number, space)
        j = i + r
        items[i], items[j] = items[j], items[i]
    return _slices(sizes, items, stacks)


def _then_orders(run: Callable[[Sequence[int], Chooser], MethodResult]) -> _Ordered:
    """The owners by ``run``, then every stack's order from one draw below ``∏ k!``."""

    def deal(sizes: Sequence[int], stacks: Sequence[int], chooser: Chooser) -> Dealt:
        owners, _ = run(sizes, chooser)
        code = chooser.below(arrangements(_stack_sizes(sizes, stacks)))
        return Dealt(owners, stack_orders(owners, sizes, stacks, code), None)

    return deal


@frozen_dataclass
class DealMethod:
    """A named deal method: ``run`` deals the owners (piles as sets), :meth:`deal` any layout."""

    name: str
    run: Callable[[Sequence[int], Chooser], MethodResult]
    summary: str
    ordered: _Ordered | None = field(default=None, repr=False)

    def deal(self, sizes: Sequence[int], chooser: Chooser, stacks: Sequence[int] = ()) -> Dealt:
        """A deal of piles of ``sizes``, the piles ``stacks`` dealt in order (top first).

        Stacks of fewer than two cards have one order and are dealt as sets.
        Without stacks this is :attr:`run`, draw for draw.

        >>> from croupier.randomness import ScriptedChooser
        >>> METHODS["optimal"].deal((1, 2), ScriptedChooser([5]), stacks=(1,))
        Dealt(owners=[1, 1, 0], orders={1: [1, 0]}, number=5)
        """
        stacks = tuple(i for i in stacks if sizes[i] > 1)
        if not stacks:
            owners, number = self.run(sizes, chooser)
            return Dealt(owners, {}, number)
        ordered = self.ordered if self.ordered is not None else _then_orders(self.run)
        return ordered(sizes, stacks, chooser)


METHODS: dict[str, DealMethod] = {
    m.name: m
    for m in (
        DealMethod(
            "optimal",
            deal_optimal,
            "one uniform number below M, unranked (fewest bits)",
            _optimal_ordered,
        ),
        DealMethod("block", deal_block, "full shuffle, consecutive slices", _block_ordered),
        DealMethod(
            "round-robin",
            deal_round_robin,
            "full shuffle, one card at a time",
            _round_robin_ordered,
        ),
        DealMethod("proportional", deal_proportional, "card by card, odds = open slots"),
        DealMethod("interval", deal_interval, "card by card, coin-flip binary search"),
        DealMethod(
            "fraction",
            deal_fraction,
            "partial Fisher-Yates from one random number",
            _fraction_ordered,
        ),
        DealMethod("arithmetic", deal_arithmetic, "coin flips as one fraction, interval carried"),
    )
}


def method_names() -> list[str]:
    """The names of the deal methods.

    >>> method_names()
    ['optimal', 'block', 'round-robin', 'proportional', 'interval', 'fraction', 'arithmetic']
    """
    return list(METHODS)


def get_deal_method(name: str) -> DealMethod:
    """The method called ``name`` (``round_robin`` and ``roundrobin`` also work).

    >>> get_deal_method("Round_Robin").name
    'round-robin'
    """
    if not isinstance(name, str):
        raise CroupierError(f"method= is a deal method's name, not {type(name).__name__}")
    key = name.strip().lower().replace("_", "-")
    key = {"roundrobin": "round-robin", "shuffle": "block"}.get(key, key)
    found = METHODS.get(key)
    if found is None:
        raise CroupierError(f"unknown deal method {name!r}; expected one of {', '.join(METHODS)}")
    return found
