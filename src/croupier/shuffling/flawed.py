"""Known-flawed shuffles and deals, kept apart so analysis can show what goes wrong.

NONE of these is uniform; never use them to shuffle for real.  Each takes a
:class:`~croupier.randomness.uniform.Chooser`, so
:func:`~croupier.randomness.walk.exact_distribution` can compute its exact
(biased) distribution.

>>> from croupier.randomness import exact_distribution
>>> dist = exact_distribution(lambda c: tuple(swap_with_any("abc", c)))
>>> dist[("b", "a", "c")], dist[("c", "a", "b")]
(Fraction(5, 27), Fraction(4, 27))
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypeVar

from croupier.errors import LayoutError, RangeError
from croupier.randomness.uniform import Chooser

__all__ = [
    "DELPHI_LCG_MULTIPLIER",
    "Lcg32Chooser",
    "ModuloBiasedChooser",
    "modulo_biased_fisher_yates",
    "poker_1999_shuffle",
    "random_comparator_sort",
    "randomize_list_shuffle",
    "sattolo_by_mistake",
    "swap_with_any",
    "time_seeded_from_chooser",
    "time_seeded_shuffle",
    "uniform_among_open_players_deal",
]

T = TypeVar("T")

DELPHI_LCG_MULTIPLIER = 134775813
"""Multiplier of the 32-bit linear congruential generator behind Delphi's ``Random``."""

MS_PER_DAY = 86_400_000


def swap_with_any(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """FLAWED: swap every position with a uniform position anywhere (``n**n`` paths).

    ``n**n`` equally likely paths cannot fall evenly on ``n!`` arrangements
    (``n**n`` is not a multiple of ``n!`` for ``n >= 3``): on 3 cards three
    arrangements have probability 5/27 and three 4/27.

    >>> from croupier.randomness import ScriptedChooser
    >>> swap_with_any("abc", ScriptedChooser([1, 0, 2]))
    ['a', 'b', 'c']
    """
    items = list(seq)
    n = len(items)
    for i in range(n):
        j = chooser.below(n)
        items[i], items[j] = items[j], items[i]
    return items


def poker_1999_shuffle(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """FLAWED: the 1999 online-poker shuffle (swap with any position but the last).

    The published Pascal code swapped card ``i`` (1..52) with card
    ``random(51) + 1``, which is never 52: ``(n-1)**n`` paths over ``n!``
    arrangements, and the last card can never stay where it started.

    >>> from croupier.randomness import ScriptedChooser
    >>> poker_1999_shuffle("abc", ScriptedChooser([0, 0, 0]))
    ['c', 'a', 'b']
    """
    items = list(seq)
    n = len(items)
    if n < 2:
        return items
    for i in range(n):
        j = chooser.below(n - 1)
        items[i], items[j] = items[j], items[i]
    return items


def sattolo_by_mistake(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """FLAWED: Fisher–Yates with ``j < i`` instead of ``j <= i`` (Sattolo's algorithm).

    Uniform over the ``(n-1)!`` cyclic arrangements only: no item ever stays in place.

    >>> from croupier.randomness import ScriptedChooser
    >>> sattolo_by_mistake("abc", ScriptedChooser([0, 0]))
    ['b', 'c', 'a']
    """
    items = list(seq)
    for i in range(len(items) - 1, 0, -1):
        j = chooser.below(i)
        items[i], items[j] = items[j], items[i]
    return items


class ModuloBiasedChooser:
    """FLAWED: ``below(n)`` as ``(random bits) % n``, the classic modulo bias.

    ``bits`` fresh bits (like C's ``rand()`` with ``RAND_MAX = 2**bits - 1``)
    reduced modulo ``n``: small results are more likely unless ``n`` divides
    ``2**bits``, and results at or above ``2**bits`` never occur.

    >>> from croupier.randomness import exact_distribution
    >>> exact_distribution(lambda c: ModuloBiasedChooser(c, bits=2).below(3))
    {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
    """

    __slots__ = ("bits", "inner")

    def __init__(self, inner: Chooser, bits: int = 15) -> None:
        if bits < 1:
            raise RangeError(f"bits must be >= 1, got {bits}")
        self.inner = inner
        self.bits = bits

    def below(self, n: int) -> int:
        return self.inner.below(1 << self.bits) % n


def modulo_biased_fisher_yates(seq: Sequence[T], chooser: Chooser, bits: int = 15) -> list[T]:
    """FLAWED: Fisher–Yates whose bounded integers are ``rand() % n`` with ``bits``-bit ``rand``.

    >>> from croupier.randomness import ScriptedChooser
    >>> modulo_biased_fisher_yates("abc", ScriptedChooser([4, 5]), bits=3)
    ['a', 'c', 'b']
    """
    items = list(seq)
    biased = ModuloBiasedChooser(chooser, bits)
    for i in range(len(items) - 1, 0, -1):
        j = biased.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def random_comparator_sort(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """FLAWED: sort with a comparator that answers at random (Python's ``sorted``).

    The result depends on the sorting algorithm's comparisons, not on
    fairness: a bounded number of coin flips gives probabilities that are
    multiples of a power of 1/2, never 1/n! for n >= 3.  With CPython 3.11's
    sort, 3 items stay in order with probability 3/8, come out reversed with
    5/16, and three of the six orders have only 1/16.

    >>> from croupier.randomness import ScriptedChooser
    >>> random_comparator_sort("ab", ScriptedChooser([0]))
    ['b', 'a']
    """

    def compare(_a: T, _b: T) -> int:
        return 1 if chooser.below(2) else -1

    return sorted(seq, key=functools.cmp_to_key(compare))


def uniform_among_open_players_deal(
    cards: Sequence[T], hand_sizes: Sequence[int], chooser: Chooser
) -> list[list[T]]:
    """FLAWED: each card to a player chosen uniformly among those not yet full.

    Deals ``cards`` in order; each goes to a player chosen uniformly among
    those whose hands are not full.  Not uniform over deals: a player who
    fills up early leaves the others more likely to get the late cards (the
    fair rule chooses player ``p`` with probability proportional to the
    cards ``p`` still needs).

    >>> from croupier.randomness import ScriptedChooser
    >>> uniform_among_open_players_deal("abcd", [2, 2], ScriptedChooser([0, 0]))
    [['a', 'b'], ['c', 'd']]
    """
    if any(h < 0 for h in hand_sizes) or sum(hand_sizes) != len(cards):
        raise LayoutError(
            f"hand sizes {list(hand_sizes)} must be >= 0 and add up to {len(cards)} cards"
        )
    hands: list[list[T]] = [[] for _ in hand_sizes]
    for card in cards:
        open_players = [p for p, size in enumerate(hand_sizes) if len(hands[p]) < size]
        hands[open_players[chooser.below(len(open_players))]].append(card)
    return hands


def randomize_list_shuffle(seq: Sequence[T], chooser: Chooser, rounds: int = 3) -> list[T]:
    """FLAWED: ``rounds`` dealer's moves, each at a uniformly chosen cut point.

    Each round is the dealer's move (cut at a uniform point, then interweave
    the halves, :func:`croupier.moves.randomize_list`), so at most
    ``n**rounds`` arrangements can appear.  The moves themselves are not the
    problem: for 52 cards (and most sizes) they generate all of ``S_n``, for
    some odd ``n`` such as 3, 9 and 11 the even arrangements; what is small is
    the set a few moves reach.

    >>> from croupier.randomness import ScriptedChooser
    >>> randomize_list_shuffle([1, 2, 3, 4, 5, 6], ScriptedChooser([2, 4, 3]))
    [4, 5, 3, 6, 1, 2]
    """
    from croupier.moves import randomize_list

    items = list(seq)
    if len(items) < 2:
        return items
    ks = [chooser.below(len(items)) for _ in range(rounds)]
    return randomize_list(items, ks)


class Lcg32Chooser:
    """FLAWED: a 32-bit linear congruential generator like Delphi's ``Random``.

    ``state = state * 134775813 + 1 (mod 2**32)``; ``below(n)`` is
    ``(state * n) >> 32``.  Its whole future is fixed by a 32-bit seed.

    >>> c = Lcg32Chooser(0)
    >>> c.below(52), c.below(52), c.state
    (0, 1, 134775814)
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**32

    def below(self, n: int) -> int:
        self.state = (self.state * DELPHI_LCG_MULTIPLIER + 1) % 2**32
        return (self.state * n) >> 32


def time_seeded_shuffle(seq: Sequence[T], milliseconds: int) -> list[T]:
    """FLAWED: the 1999 online-poker shuffle seeded with the time (ms since midnight).

    The clock reading is passed in (never read here).  Only 86,400,000 seeds
    exist, so at most that many decks — against 52! ≈ 2**225.6 — and anyone
    who knows the time to within a second and sees a few cards can find the
    seed by trying the 1000 candidates.

    >>> time_seeded_shuffle("abcdef", 0) == time_seeded_shuffle("abcdef", 0)
    True
    """
    return poker_1999_shuffle(seq, Lcg32Chooser(milliseconds))


def time_seeded_from_chooser(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """FLAWED: :func:`time_seeded_shuffle` at a uniform millisecond of the day.

    >>> from croupier.randomness import ScriptedChooser
    >>> time_seeded_from_chooser("abc", ScriptedChooser([7])) == time_seeded_shuffle("abc", 7)
    True
    """
    return time_seeded_shuffle(seq, chooser.below(MS_PER_DAY))
