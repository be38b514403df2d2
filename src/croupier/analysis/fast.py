"""Faster exact engines for methods whose decision tree is too big to walk.

The walk (:func:`croupier.randomness.walk.exact_distribution`) runs a method
once per path, which is the most direct proof but costs ``n**n`` runs for
swap-with-any.  For some methods the distribution has a shorter exact route:

* **GSR riffles** (``riffle``, ``riffle2``, ``riffle3``, ``riffle7``): the
  Bayer–Diaconis formula, probability ``C(a + n - r, n) / a**n`` for an
  arrangement with ``r`` rising sequences;
* **swap sequences** (Fisher–Yates and its flawed relatives): a dynamic
  programme over arrangements, one swap step at a time, with the exact
  weights of each step's choice (modulo bias included);
* **the time-seeded 1999 shuffle** (``time-seeded-32``, up to 8 cards): every
  one of the 86,400,000 millisecond seeds is run through the 32-bit
  generator at once (numpy), its swap choices tallied, and each distinct
  choice sequence decoded once.

Each route is checked against the walk on small decks in the test suite.

>>> dist = fast_distribution("swap-any", 3)
>>> sorted(dist.values())[:2]
[Fraction(4, 27), Fraction(4, 27)]
>>> (2, 1, 0) in fast_distribution("riffle", 3)   # one riffle cannot reverse 3 cards
False
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.analysis.exact import Route
from croupier.analysis.mixing import riffle_probability
from croupier.errors import RangeError
from croupier.perm import Permutation

__all__ = ["FAST_ROUTES", "fast_distribution", "swap_steps_distribution", "time_seeded_counts"]

Arrangement = tuple[int, ...]
Step = tuple[int, list[int]]
"""``(i, weights)``: swap position ``i`` with ``j`` chosen with probability weights[j] / sum."""

MAX_FAST = 9


def swap_steps_distribution(n: int, steps: list[Step]) -> dict[Arrangement, Fraction]:
    """Exact distribution of applying weighted random swaps to ``0..n-1`` in order.

    >>> swap_steps_distribution(2, [(1, [1, 1])])
    {(0, 1): Fraction(1, 2), (1, 0): Fraction(1, 2)}
    """
    current: dict[Arrangement, int] = {tuple(range(n)): 1}
    denominator = 1
    for i, weights in steps:
        total = sum(weights)
        denominator *= total
        nxt: dict[Arrangement, int] = {}
        for deck, w in current.items():
            for j, wj in enumerate(weights):
                if wj == 0:
                    continue
                if i == j:
                    new = deck
                else:
                    lst = list(deck)
                    lst[i], lst[j] = lst[j], lst[i]
                    new = tuple(lst)
                nxt[new] = nxt.get(new, 0) + w * wj
        current = nxt
    return {k: Fraction(v, denominator) for k, v in sorted(current.items())}


def _uniform(k: int) -> list[int]:
    return [1] * k


def _modulo(bits: int, k: int) -> list[int]:
    """How many of the ``2**bits`` raw values land on each residue modulo ``k``."""
    q, r = divmod(1 << bits, k)
    return [q + (1 if j < r else 0) for j in range(k)]


def _padded(weights: list[int], n: int) -> list[int]:
    return weights + [0] * (n - len(weights))


def _fisher_yates(n: int) -> list[Step]:
    return [(i, _padded(_uniform(i + 1), n)) for i in range(n - 1, 0, -1)]


def _sattolo(n: int) -> list[Step]:
    return [(i, _padded(_uniform(i), n)) for i in range(n - 1, 0, -1)]


def _swap_any(n: int) -> list[Step]:
    return [(i, _uniform(n)) for i in range(n)]


def _poker_1999(n: int) -> list[Step]:
    if n < 2:
        return []
    return [(i, _padded(_uniform(n - 1), n)) for i in range(n)]


def _modulo_bias(bits: int) -> Callable[[int], list[Step]]:
    def steps(n: int) -> list[Step]:
        return [(i, _padded(_modulo(bits, i + 1), n)) for i in range(n - 1, 0, -1)]

    return steps


def _riffle(k: int) -> Callable[[int], dict[Arrangement, Fraction]]:
    def distribution(n: int) -> dict[Arrangement, Fraction]:
        a = 2**k
        if n == 0:
            return {(): Fraction(1)}
        by_rising = [Fraction(0)] + [riffle_probability(n, r, a) for r in range(1, n + 1)]
        out: dict[Arrangement, Fraction] = {}
        for p in itertools.permutations(range(n)):
            # p is valid by construction: wrap it without Permutation's checks (4x faster)
            perm = Permutation._wrap(np.fromiter(p, dtype=np.intp, count=n))
            prob = by_rising[perm.rising_sequences()]
            if prob:
                out[p] = prob
        return out

    return distribution


def _from_steps(make: Callable[[int], list[Step]]) -> Callable[[int], dict[Arrangement, Fraction]]:
    def distribution(n: int) -> dict[Arrangement, Fraction]:
        return swap_steps_distribution(n, make(n))

    return distribution


MAX_TIME_SEEDED = 8
"""Largest deck for the seed enumeration ((n-1)**n tallies must fit in memory)."""


def _choice_tally(n: int, seeds: range) -> np.ndarray[Any, np.dtype[np.int64]]:
    """How many of ``seeds`` give each choice sequence (a number in base ``n - 1``)."""
    from croupier.shuffling.flawed import DELPHI_LCG_MULTIPLIER

    base = n - 1
    tally = np.zeros(base**n, dtype=np.int64)
    # uint32 arithmetic wraps modulo 2**32 by itself: the generator's state needs no mask
    mult, n_choices, one = np.uint32(DELPHI_LCG_MULTIPLIER), np.uint64(base), np.uint32(1)
    block = min(1 << 20, max(len(seeds), 1))
    offsets = np.arange(block, dtype=np.uint32) * np.uint32(seeds.step & 0xFFFFFFFF)
    state = np.empty(block, dtype=np.uint32)
    choice = np.empty(block, dtype=np.uint64)
    code = np.empty(block, dtype=np.int64)
    for first in range(0, len(seeds), block):
        size = min(block, len(seeds) - first)
        st, ch, co = state[:size], choice[:size], code[:size]
        np.add(offsets[:size], np.uint32(seeds[first] & 0xFFFFFFFF), out=st)
        co[:] = 0
        for _ in range(n):
            np.multiply(st, mult, out=st)
            np.add(st, one, out=st)
            np.multiply(st, n_choices, out=ch)  # the choice: (state * (n - 1)) >> 32
            np.right_shift(ch, np.uint64(32), out=ch)
            np.multiply(co, base, out=co)
            np.add(co, ch, out=co, casting="unsafe")
        tally += np.bincount(co, minlength=len(tally))
    return tally


def time_seeded_counts(n: int, seeds: range) -> dict[Arrangement, int]:
    """How many of ``seeds`` give each arrangement of the time-seeded 1999 shuffle.

    The seeds are run through the 32-bit generator together (numpy, in
    blocks); each shuffle's ``n`` swap choices form one number in base
    ``n - 1`` (first choice first), these are tallied, and every distinct choice sequence is then
    applied to the deck once.

    >>> from croupier.shuffling.flawed import time_seeded_shuffle
    >>> counts = time_seeded_counts(3, range(1000))
    >>> sum(counts.values()), counts[tuple(time_seeded_shuffle([0, 1, 2], 7))] > 0
    (1000, True)
    """
    if not 0 <= n <= MAX_TIME_SEEDED:
        raise RangeError(
            f"{n} cards is out of range for the time-seeded enumeration; use 0..{MAX_TIME_SEEDED}"
        )
    if n < 2:  # no choices are made
        return {tuple(range(n)): len(seeds)}
    base = n - 1
    # numpy's loops release the GIL: the halves of the seeds are tallied on two threads
    halves = [seeds[: len(seeds) // 2], seeds[len(seeds) // 2 :]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(lambda part: _choice_tally(n, part), halves)
    tally = first + second
    codes = np.flatnonzero(tally)
    decks = np.tile(np.arange(n, dtype=np.int64), (len(codes), 1))
    rows = np.arange(len(codes))
    for i in range(n):
        j = codes // base ** (n - 1 - i) % base  # the first choice is the top digit
        held = decks[:, i].copy()
        decks[:, i] = decks[rows, j]
        decks[rows, j] = held
    # group equal decks: number them by their Lehmer code, then add up their seed counts
    rank = np.zeros(len(codes), dtype=np.int64)
    for i in range(n - 1):
        rank *= n - i
        rank += (decks[:, i + 1 :] < decks[:, i : i + 1]).sum(axis=1)
    ranks, firsts, where = np.unique(rank, return_index=True, return_inverse=True)
    sums = np.bincount(where, weights=tally[codes], minlength=len(ranks))
    return {
        tuple(decks[f].tolist()): int(c)
        for f, c in zip(firsts.tolist(), sums.tolist(), strict=True)
    }


def _time_seeded(n: int) -> dict[Arrangement, Fraction]:
    from croupier.shuffling.flawed import MS_PER_DAY

    counts = time_seeded_counts(n, range(MS_PER_DAY))
    return {k: Fraction(v, MS_PER_DAY) for k, v in counts.items()}


FAST_ROUTES: dict[str, tuple[Route, Callable[[int], dict[Arrangement, Fraction]]]] = {
    "fisher-yates": ("swap-step DP", _from_steps(_fisher_yates)),
    "swap-any": ("swap-step DP", _from_steps(_swap_any)),
    "poker-1999": ("swap-step DP", _from_steps(_poker_1999)),
    "sattolo-mistake": ("swap-step DP", _from_steps(_sattolo)),
    "modulo-bias": ("swap-step DP", _from_steps(_modulo_bias(15))),
    "modulo-bias-3": ("swap-step DP", _from_steps(_modulo_bias(3))),
    "riffle": ("rising-sequence formula", _riffle(1)),
    "riffle2": ("rising-sequence formula", _riffle(2)),
    "riffle3": ("rising-sequence formula", _riffle(3)),
    "riffle7": ("rising-sequence formula", _riffle(7)),
    "time-seeded-32": ("enumeration of all 86400000 seeds", _time_seeded),
}
"""Method name -> (engine name, ``n -> exact distribution``)."""


def fast_distribution(name: str, n: int) -> dict[Arrangement, Fraction]:
    """The exact distribution of method ``name`` on ``n`` cards by its fast route.

    >>> fast_distribution("modulo-bias-3", 3)[(0, 1, 2)]
    Fraction(1, 8)
    """
    route = FAST_ROUTES.get(name)
    if route is None:
        raise RangeError(
            f"no fast exact route for {name!r}; routes exist for {', '.join(FAST_ROUTES)}"
        )
    if not 0 <= n <= MAX_FAST:
        raise RangeError(f"{n} cards is out of range for an exact distribution; use 0..{MAX_FAST}")
    dist = route[1](n)
    total = sum(dist.values())
    if total != 1:  # pragma: no cover - a broken route would be caught by the tests
        raise RangeError(f"fast route for {name!r} sums to {total}, not 1")
    return dist
