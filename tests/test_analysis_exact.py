"""Exact distributions of croupier's shuffles and deals, checked by independent brute force."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from croupier.analysis.exact import exact_analysis, permutation_parity
from croupier.analysis.fast import FAST_ROUTES, fast_distribution, swap_steps_distribution
from croupier.analysis.methods import analysis_methods, get_analysis_method
from croupier.analysis.run import exact_report
from croupier.errors import CroupierError
from croupier.moves import randomize_list
from croupier.randomness.walk import WalkTooLargeError


def _swaps(n: int, choices: tuple[int, ...]) -> tuple[int, ...]:
    deck = list(range(n))
    for i, j in enumerate(choices):
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _brute(n: int, ranges: int, repeat: int) -> dict[tuple[int, ...], Fraction]:
    """Every choice sequence of ``repeat`` swaps of position i with j < ranges, equally likely."""
    tally = Counter(_swaps(n, c) for c in itertools.product(range(ranges), repeat=repeat))
    total = ranges**repeat
    return {k: Fraction(v, total) for k, v in tally.items()}


@pytest.mark.parametrize("name", ["lehmer", "fisher-yates", "merge-shuffle"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fair_shuffles_are_exactly_uniform(name: str, n: int) -> None:
    report = exact_report(name, n, engine="walk")
    assert report.uniform and report.tv == 0
    assert set(report.distribution.values()) == {Fraction(1, math.factorial(n))}
    assert sum(report.distribution.values()) == 1
    assert report.obstructions() == []


@pytest.mark.parametrize(
    "name", ["deal:optimal", "deal:block", "deal:round-robin", "deal:proportional", "deal:fraction"]
)
@pytest.mark.parametrize("hands", [(2, 2, 2), (3, 2, 1)])
def test_fair_deal_methods_are_exactly_uniform(name: str, hands: tuple[int, ...]) -> None:
    report = exact_report(name, 6, hands)
    assert report.space == math.factorial(6) // math.prod(math.factorial(k) for k in hands)
    assert report.uniform


def test_retrying_methods_are_even_on_every_finished_path() -> None:
    for name, n in (("rao-sandelius", 3), ("deal:interval", 4)):
        report = exact_report(name, n)
        assert report.even_so_far and not report.uniform
        assert 0 < report.unfinished < Fraction(1, 20)
        low, high = report.tv_bounds
        assert low == 0 and high <= report.unfinished


def test_swap_with_any_on_three_cards_is_biased_by_one_eighteenth() -> None:
    report = exact_report("swap-any", 3)
    assert report.distribution == _brute(3, 3, 3)
    assert report.tv == Fraction(1, 18)
    assert report.reachable == 6 and not report.uniform
    assert report.max_probability == Fraction(5, 27) and report.min_probability == Fraction(4, 27)


def test_poker_1999_brute_force_and_its_unmovable_last_card() -> None:
    report = exact_report("poker-1999", 4)
    assert report.distribution == _brute(4, 3, 4)
    matrix = report.position_matrix()
    assert matrix[3][3] == 0  # the last card can never stay last
    assert any("card 3 never reaches" in note for note in report.obstructions())


def test_sattolo_mistake_only_reaches_cycles_with_fixed_parity() -> None:
    for n in (4, 5):
        report = exact_report("sattolo-mistake", n)
        assert report.reachable == math.factorial(n - 1)
        assert report.parity == ("odd" if n % 2 == 0 else "even")
        assert any("parity is fixed" in note for note in report.obstructions())
        for arrangement in report.distribution:
            assert all(arrangement[i] != i for i in range(n))


def test_randomize_list_reaches_what_its_cut_points_reach() -> None:
    n = 5
    reachable = {
        tuple(randomize_list(list(range(n)), ks)) for ks in itertools.product(range(n), repeat=3)
    }
    tally = Counter(
        tuple(randomize_list(list(range(n)), ks)) for ks in itertools.product(range(n), repeat=3)
    )
    report = exact_report("randomize-list", n)
    assert set(report.distribution) == reachable
    assert report.distribution == {k: Fraction(v, n**3) for k, v in tally.items()}
    assert report.reachable < math.factorial(n)


def test_open_players_deal_matches_product_of_its_choice_odds() -> None:
    hands = (2, 2, 2)
    n = sum(hands)
    expected: dict[tuple[int, ...], Fraction] = {}
    for owners in set(itertools.permutations([p for p, k in enumerate(hands) for _ in range(k)])):
        left = list(hands)
        prob = Fraction(1)
        for pile in owners:
            prob /= sum(1 for k in left if k > 0)
            left[pile] -= 1
        expected[owners] = prob
    report = exact_report("deal:open-players", n, hands)
    assert report.distribution == expected
    assert report.tv > Fraction(1, 10) and not report.uniform
    # the fair rule (probability proportional to open slots) is uniform on the same layout
    assert exact_report("deal:proportional", n, hands).uniform


@pytest.mark.parametrize(
    "name",
    [
        "swap-any",
        "poker-1999",
        "modulo-bias-3",
        "random-comparator",
        "randomize-list",
        "sattolo-mistake",
        "cut",
        "riffle",
        "overhand",
    ],
)
def test_flawed_and_model_shuffles_are_biased(name: str) -> None:
    assert get_analysis_method(name).fair is False
    for n in (3, 4):
        report = exact_report(name, n)
        assert report.tv > 0 and not report.uniform
        assert sum(report.distribution.values()) == 1


@pytest.mark.parametrize("name", sorted(FAST_ROUTES))
def test_fast_routes_agree_with_the_walk(name: str) -> None:
    if name == "modulo-bias":  # 2**15-way choices: checked through its 3-bit twin
        assert fast_distribution(name, 3) != fast_distribution("fisher-yates", 3)
        return
    for n in (1, 2, 3, 4):
        if (name == "riffle7" and n > 2) or (name == "riffle3" and n > 3):
            break
        assert fast_distribution(name, n) == exact_report(name, n, engine="walk").distribution


def test_swap_steps_distribution_is_the_brute_force() -> None:
    steps = [(i, [1] * 4) for i in range(4)]
    assert swap_steps_distribution(4, steps) == _brute(4, 4, 4)


def test_auto_engine_switches_to_fast_routes_for_big_walks() -> None:
    report = exact_report("swap-any", 7)
    assert report.engine == "swap-step DP" and sum(report.distribution.values()) == 1
    assert report.reachable == math.factorial(7)


def test_parity_of_arrangements() -> None:
    for p in itertools.permutations(range(5)):
        inversions = sum(1 for i, j in itertools.combinations(range(5), 2) if p[i] > p[j])
        assert permutation_parity(p) == inversions % 2


def test_walks_that_are_too_large_are_refused_quickly() -> None:
    with pytest.raises(WalkTooLargeError, match="86400000 values"):
        exact_report("time-seeded-32", 3)
    with pytest.raises(WalkTooLargeError, match="random paths"):
        exact_report("merge-shuffle", 6, max_leaves=1000, engine="walk")
    with pytest.raises(CroupierError, match="out of range"):
        exact_report("fisher-yates", 11)


def test_every_registered_method_is_listed_with_a_description() -> None:
    methods = analysis_methods()
    from croupier.dealing.methods import METHODS
    from croupier.shuffling.registry import FLAWED_METHODS, SHUFFLE_METHODS

    for name in [*SHUFFLE_METHODS, *FLAWED_METHODS, *(f"deal:{d}" for d in METHODS)]:
        assert methods[name].description


def test_exact_analysis_rejects_non_arrangements() -> None:
    with pytest.raises(CroupierError, match="not an arrangement"):
        exact_analysis(lambda c: (0, 0), cards=2)


def test_json_has_reachable_tv_and_outcomes() -> None:
    data = exact_report("cut", 4).to_json()
    assert (
        data["reachable"] == 4 and data["tv"] == "5/6" and data["tv_float"] == pytest.approx(5 / 6)
    )
    assert sum(Fraction(o["probability"]) for o in data["outcomes"]) == 1
    assert len(data["position_matrix"]) == 4
