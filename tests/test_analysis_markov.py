"""Repeated shuffling as a Markov chain: exact curves against walks of the repeated method."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from croupier.analysis.markov import (
    chain_limit,
    repeat_curve,
    repeat_distribution,
    stops_falling_at,
    tv_to_uniform,
)
from croupier.errors import RangeError
from croupier.randomness import Chooser, exact_distribution


def _random_adjacent_swap(deck: list[int], chooser: Chooser) -> list[int]:
    """Swap a uniformly chosen adjacent pair: every step is odd."""
    i = chooser.below(len(deck) - 1)
    deck = list(deck)
    deck[i], deck[i + 1] = deck[i + 1], deck[i]
    return deck


def _lazy_top_to_random(deck: list[int], chooser: Chooser) -> list[int]:
    """Move the top card to a uniform position (possibly back on top)."""
    deck = list(deck)
    top = deck.pop(0)
    deck.insert(chooser.below(len(deck) + 1), top)
    return deck


def _random_cut(deck: list[int], chooser: Chooser) -> list[int]:
    k = chooser.below(len(deck))
    return deck[k:] + deck[:k]


def _walk(step, n: int, m: int) -> dict[tuple[int, ...], Fraction]:  # type: ignore[no-untyped-def]
    def algorithm(chooser: Chooser) -> tuple[int, ...]:
        deck = list(range(n))
        for _ in range(m):
            deck = step(deck, chooser)
        return tuple(deck)

    return exact_distribution(algorithm)


@pytest.mark.parametrize("step", [_random_adjacent_swap, _lazy_top_to_random, _random_cut])
@pytest.mark.parametrize("n", [3, 4])
def test_repeat_distribution_equals_walk_of_repeated_method(step, n: int) -> None:  # type: ignore[no-untyped-def]
    one = _walk(step, n, 1)
    for m in (0, 1, 2, 3):
        assert repeat_distribution(one, m) == _walk(step, n, m)


def test_exact_and_float_curves_agree() -> None:
    one = _walk(_lazy_top_to_random, 5, 1)
    exact = repeat_curve(one, 8)
    floats = repeat_curve(one, 8, exact=False)
    assert all(isinstance(x, Fraction) for x in exact)
    for a, b in zip(exact, floats, strict=True):
        assert abs(float(a) - b) < 1e-12
    # top-to-random reaches exactly uniform never, but keeps falling
    assert all(y < x for x, y in itertools.pairwise(exact))


def test_odd_steps_never_mix_and_the_limit_says_why() -> None:
    one = _walk(_random_adjacent_swap, 4, 1)
    limit = chain_limit(one)
    assert (limit.group, limit.period, limit.spread) == (24, 2, 12)
    assert limit.tv == Fraction(1, 2)
    curve = repeat_curve(one, 30)
    assert all(tv >= Fraction(1, 2) for tv in curve)
    at = stops_falling_at(curve, limit.tv, 1e-6)
    assert at is not None and at > 1
    assert float(curve[-1]) - 0.5 < 1e-6


def test_cuts_only_reach_a_subgroup() -> None:
    one = _walk(_random_cut, 5, 1)
    limit = chain_limit(one)
    assert limit.group == 5 and limit.period == 1
    assert limit.tv == 1 - Fraction(5, 120)
    assert repeat_curve(one, 3) == [limit.tv] * 3
    assert stops_falling_at(repeat_curve(one, 3), limit.tv) == 1


def test_tv_to_uniform_counts_missing_outcomes() -> None:
    dist = {p: Fraction(1, 3) for p in list(itertools.permutations(range(3)))[:3]}
    assert tv_to_uniform(dist, math.factorial(3)) == Fraction(1, 2)
    with pytest.raises(RangeError, match="smaller than"):
        tv_to_uniform(dist, 2)


def test_bad_step_distributions_are_refused() -> None:
    with pytest.raises(RangeError, match="not an arrangement"):
        repeat_curve({(0, 0): Fraction(1)}, 2)
    with pytest.raises(RangeError, match="sum to"):
        repeat_curve({(0, 1): Fraction(1, 2)}, 2)
    big = {tuple(range(8)): Fraction(1)}
    with pytest.raises(RangeError, match="too large"):
        repeat_curve(big, 2)
