"""Monte Carlo tests and the exact game-level tables they compare against."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.stats import (
    bridge_pattern_probabilities,
    category_test,
    hand_pattern,
    poker_category,
    poker_category_counts,
    poker_category_probabilities,
    position_counts,
    position_test,
)
from croupier.errors import RangeError
from croupier.randomness import Chooser, SeededSource, UniformSampler


def _fisher_yates(deck: list[int], chooser: Chooser) -> list[int]:
    deck = list(deck)
    for i in range(len(deck) - 1, 0, -1):
        j = chooser.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _swap_with_any(deck: list[int], chooser: Chooser) -> list[int]:
    deck = list(deck)
    for i in range(len(deck)):
        j = chooser.below(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_poker_counts_are_the_textbook_numbers() -> None:
    assert poker_category_counts() == {
        "straight flush": 40,
        "four of a kind": 624,
        "full house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three of a kind": 54912,
        "two pair": 123552,
        "one pair": 1098240,
        "high card": 1302540,
    }
    assert sum(poker_category_probabilities().values()) == 1


@pytest.mark.parametrize(("ranks", "suits"), [(6, 4), (7, 3), (8, 2)])
def test_poker_formula_matches_classifying_every_hand_of_a_small_deck(
    ranks: int, suits: int
) -> None:
    deck = [(r, s) for r in range(ranks) for s in range(suits)]
    tally = Counter(poker_category(h, ranks) for h in itertools.combinations(deck, 5))
    formula = poker_category_counts(ranks, suits)
    assert {k: v for k, v in formula.items() if v} == dict(tally)


def test_bridge_patterns_match_brute_force_on_a_small_deck() -> None:
    suits, size, hand = 4, 4, 5
    deck = [s for s in range(suits) for _ in range(size)]
    tally = Counter(
        hand_pattern((deck[i] for i in h), suits)
        for h in itertools.combinations(range(len(deck)), hand)
    )
    total = math.comb(len(deck), hand)
    expected = {k: Fraction(v, total) for k, v in tally.items()}
    assert bridge_pattern_probabilities(suits, size, hand) == expected


def test_bridge_patterns_of_52_cards() -> None:
    p = bridge_pattern_probabilities()
    assert sum(p.values()) == 1
    # the familiar table: 4-4-3-2 21.55%, 5-3-3-2 15.52%, 5-4-3-1 12.93%, 4-3-3-3 10.54%
    assert [k for k, _ in list(p.items())[:4]] == [
        (4, 4, 3, 2),
        (5, 3, 3, 2),
        (5, 4, 3, 1),
        (5, 4, 2, 2),
    ]
    assert round(float(p[(4, 3, 3, 3)]), 4) == 0.1054
    assert round(float(p[(5, 4, 3, 1)]), 4) == 0.1293


def test_scaled_position_statistic_has_mean_equal_to_its_degrees_of_freedom() -> None:
    # Exactly: average the statistic of one uniform shuffle over all n! arrangements.
    # Without the (n-1)/n correction the mean would be n(n-1), not (n-1)**2.
    n = 4
    stats = []
    for p in itertools.permutations(range(n)):
        counts = np.zeros((n, n), dtype=int)
        counts[list(p), range(n)] = 1
        chi, _ = position_test(counts)
        stats.append(chi.statistic)
    assert abs(sum(stats) / len(stats) - (n - 1) ** 2) < 1e-9
    assert chi.df == (n - 1) ** 2


def test_fair_shuffle_passes_and_swap_with_any_fails() -> None:
    # Fixed seeds.  A fair shuffle fails at alpha = 0.001 with probability 0.1%;
    # swap-with-any on 8 cards is biased enough that 4000 trials reject it
    # overwhelmingly (the exact bias is about 10% on the diagonal).
    fair = position_counts(_fisher_yates, 8, 4000, UniformSampler(SeededSource("fair")))
    assert (fair.sum(axis=0) == 4000).all() and (fair.sum(axis=1) == 4000).all()
    for test in position_test(fair):
        assert test.p_value > 0.001, test
    bad = position_counts(_swap_with_any, 8, 4000, UniformSampler(SeededSource("bad")))
    for test in position_test(bad):
        assert test.p_value < 1e-6, test
        assert test.verdict().startswith("biased")


def test_category_test_pools_rare_categories_and_detects_bias() -> None:
    expected = poker_category_probabilities()
    fair_like = {k: round(float(p) * 100000) for k, p in expected.items()}
    chi, g = category_test(fair_like, expected)
    assert chi.p_value > 0.5 and g.p_value > 0.5
    assert chi.df < len(expected) - 1  # straight flushes etc. were pooled
    skewed = dict(fair_like)
    skewed["one pair"] += 2000
    skewed["high card"] -= 2000
    chi, g = category_test(skewed, expected)
    assert chi.p_value < 1e-6 and g.p_value < 1e-6


def test_bad_inputs() -> None:
    with pytest.raises(RangeError, match="no expectation"):
        category_test({"x": 3}, {"y": Fraction(1)})
    with pytest.raises(RangeError, match="impossible"):
        bridge_pattern_probabilities(4, 13, 60)
    with pytest.raises(RangeError, match="5 cards"):
        poker_category([(0, 0)])
    with pytest.raises(RangeError, match="trials 0"):
        position_counts(_fisher_yates, 4, 0, UniformSampler(SeededSource("x")))


def test_scaled_card_by_hand_statistic_has_mean_equal_to_its_degrees_of_freedom() -> None:
    # Every deal of 5 cards into hands of 2, 2 and 1, equally likely: the mean must be
    # exactly (n-1)(hands-1) = 8 if the (n-1)/n scaling of a deal's counts is right.
    n, sizes = 5, (2, 2, 1)
    deals = set(itertools.permutations([0, 0, 1, 1, 2]))
    stats = []
    for owners in deals:
        counts = np.zeros((n, len(sizes)), dtype=int)
        counts[range(n), list(owners)] = 1
        chi, _ = position_test(counts)
        stats.append(chi.statistic)
    assert abs(sum(stats) / len(stats) - (n - 1) * (len(sizes) - 1)) < 1e-9
    assert chi.df == 8


def test_game_level_tests_catch_the_open_players_deal_that_card_by_hand_counts_miss() -> None:
    # Fixed seeds.  deal:optimal is exactly uniform, so each of its tests flags it with
    # probability 0.1% (alpha = 0.001); deal:open-players over-deals long suits so much
    # (about 4x too many 6-4-3-0 hands) that 3000 deals reject it at p < 1e-20.
    from croupier.analysis.run import monte_carlo

    fair = monte_carlo("deal:optimal", 52, 3000, SeededSource("fair-deal"), (13, 13, 13, 13))
    assert fair.chi_square.p_value > 0.001 and fair.games[0].chi_square.p_value > 0.001
    bad = monte_carlo("deal:open-players", 52, 3000, SeededSource("bad-deal"), (13, 13, 13, 13))
    assert bad.games[0].game == "bridge suit patterns"
    assert bad.games[0].chi_square.p_value < 1e-20 and bad.games[0].g_test.p_value < 1e-20
    assert bad.counts.sum() == 52 * 3000 and bad.counts.shape == (52, 4)


def test_missing_optional_dependency_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from croupier.analysis.stats import require
    from croupier.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # makes the import fail
    with pytest.raises(MissingExtraError, match=r"croupier\[analysis\]"):
        require("scipy.stats")
    with pytest.raises(MissingExtraError, match="'scipy' is not installed"):
        position_test(np.ones((3, 3)))


def test_poker_categories_catch_three_riffles_that_bridge_patterns_miss() -> None:
    # Fixed seeds.  Fisher–Yates is exactly uniform: each of its four game tests would flag
    # it with probability 0.1% (alpha = 0.001).  Three GSR riffles leave the top five cards
    # far too often in runs (straights, pairs of neighbours): 6000 shuffles reject it at
    # p < 1e-6 on poker categories, while the round-robin bridge hand looks fair.
    from croupier.analysis.run import monte_carlo

    fair = monte_carlo("fisher-yates", 52, 3000, SeededSource("games-fisher-yates"))
    assert [g.game for g in fair.games] == ["bridge suit patterns", "poker hand categories"]
    for game in fair.games:
        assert game.chi_square.p_value > 0.001 and game.g_test.p_value > 0.001
        assert sum(game.observed.values()) == 3000
    riffled = monte_carlo("riffle3", 52, 6000, SeededSource("games-riffle3"))
    bridge, poker = riffled.games
    assert poker.chi_square.p_value < 1e-6 and poker.g_test.p_value < 1e-6
    assert bridge.chi_square.p_value > 0.001
