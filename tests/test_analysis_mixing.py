"""GSR riffle mixing: the rising-sequence formula against brute force and published values."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.analysis.mixing import (
    eulerian_numbers,
    format_probability,
    riffle_mixing,
    riffle_mixing_curve,
    riffle_probability,
    riffles_needed,
)
from croupier.errors import RangeError
from croupier.perm import Permutation
from croupier.randomness import Chooser, exact_distribution


def _brute_rising(arrangement: tuple[int, ...]) -> int:
    """Count rising sequences by following them card by card (definition, not formula)."""
    remaining = set(arrangement)
    count = 0
    while remaining:
        count += 1
        value = min(remaining)
        position = arrangement.index(value)
        remaining.discard(value)
        while value + 1 in remaining and arrangement.index(value + 1) > position:
            value += 1
            position = arrangement.index(value)
            remaining.discard(value)
    return count


def _a_shuffle(deck: list[int], chooser: Chooser, a: int) -> list[int]:
    """An independent a-shuffle: every position gets a uniform packet label 0..a-1,
    positions labelled j receive packet j (cut in order from the top) in order."""
    labels = [chooser.below(a) for _ in deck]
    sizes = [labels.count(j) for j in range(a)]
    starts = [sum(sizes[:j]) for j in range(a)]
    out = []
    for label in labels:
        out.append(deck[starts[label]])
        starts[label] += 1
    return out


def _riffles(n: int, k: int, a: int = 2) -> dict[tuple[int, ...], Fraction]:
    def algorithm(chooser: Chooser) -> tuple[int, ...]:
        deck = list(range(n))
        for _ in range(k):
            deck = _a_shuffle(deck, chooser, a)
        return tuple(deck)

    return exact_distribution(algorithm)


def _tv(dist: dict[tuple[int, ...], Fraction], n: int) -> Fraction:
    u = Fraction(1, math.factorial(n))
    return (
        sum(
            (abs(dist.get(p, Fraction(0)) - u) for p in itertools.permutations(range(n))),
            Fraction(0),
        )
        / 2
    )


@pytest.mark.parametrize("n", range(1, 7))
def test_eulerian_numbers_count_rising_sequences(n: int) -> None:
    tally = [0] * n
    for p in itertools.permutations(range(n)):
        r = _brute_rising(p)
        assert Permutation(p).rising_sequences() == r
        tally[r - 1] += 1
    assert eulerian_numbers(n) == tally


@pytest.mark.parametrize(("n", "k", "a"), [(3, 1, 2), (4, 1, 2), (4, 2, 2), (5, 1, 2), (3, 1, 3)])
def test_formula_matches_walk_of_every_riffle(n: int, k: int, a: int) -> None:
    dist = _riffles(n, k, a)
    assert sum(dist.values()) == 1
    for p in itertools.permutations(range(n)):
        expected = riffle_probability(n, Permutation(p).rising_sequences(), a**k)
        assert dist.get(p, Fraction(0)) == expected
    if a == 2:
        point = riffle_mixing(n, k)
        assert point.tv == _tv(dist, n)
        least = min(dist.get(p, Fraction(0)) for p in itertools.permutations(range(n)))
        assert point.separation == 1 - least * math.factorial(n)


def test_two_riffles_of_four_cards_brute_force_curve() -> None:
    curve = riffle_mixing_curve(4, 3)
    for point in curve:
        assert point.tv == _tv(_riffles(4, point.shuffles), 4)


def test_fifty_two_cards_match_bayer_diaconis_table() -> None:
    # Bayer & Diaconis (1992), Table 1: total variation after k riffles of 52 cards.
    published = {5: 0.924, 6: 0.614, 7: 0.334, 8: 0.167, 9: 0.085, 10: 0.043}
    curve = riffle_mixing_curve(52, 10)
    for point in curve:
        if point.shuffles in published:
            assert round(float(point.tv), 3) == published[point.shuffles]
        else:
            assert point.tv > Fraction(99, 100)
    assert riffles_needed(52) == 7
    # separation drops below 1/2 only after 11 riffles (Aldous & Diaconis)
    assert riffle_mixing(52, 10).separation > Fraction(1, 2) > riffle_mixing(52, 11).separation


def test_distances_fall_and_stay_between_zero_and_one() -> None:
    curve = riffle_mixing_curve(30, 15)
    for before, after in itertools.pairwise(curve):
        assert 0 <= after.tv < before.tv <= 1
        assert after.tv <= after.separation <= 1
    assert riffle_mixing(10, 0).tv == 1 - Fraction(1, math.factorial(10))


def test_bigger_decks_need_more_riffles() -> None:
    assert riffles_needed(13) < riffles_needed(52) < riffles_needed(104) <= riffles_needed(208)


def test_bad_inputs_raise_one_line_errors() -> None:
    with pytest.raises(RangeError, match="deck size 0"):
        riffle_mixing(0, 3)
    with pytest.raises(RangeError, match="packets per riffle 1"):
        riffle_mixing(5, 3, base=1)
    with pytest.raises(RangeError, match="maximum riffles 0"):
        riffle_mixing_curve(5, 0)
    with pytest.raises(RangeError, match="rising sequences 7"):
        riffle_probability(5, 7)


def test_format_probability_keeps_digits_near_one() -> None:
    assert format_probability(Fraction(2, 3), 3) == "0.667"
    assert format_probability(1 - Fraction(3, 10**9)) == "1 - 3.00000e-9"


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), a=st.integers(1, 60))
def test_worpitzky_identity_makes_the_formula_a_distribution(n: int, a: int) -> None:
    # sum_r A(n, r) C(a + n - r, n) = a**n: the a-shuffle probabilities sum to 1.
    total = sum(
        count * riffle_probability(n, r, a) for r, count in enumerate(eulerian_numbers(n), 1)
    )
    assert total == 1
