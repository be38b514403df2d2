"""Exact distributions of croupier's shuffles and deals, checked by independent brute force."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from croupier.analysis.exact import UNFINISHED, ExactAnalysis, Unfinished, exact_analysis
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
    if name == "time-seeded-32":  # one choice among 86,400,000: checked seed by seed below
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
        report = exact_analysis(lambda c, p=p: p, cards=5)
        assert report.parity == ("odd" if inversions % 2 else "even")


def test_parity_is_both_when_outcomes_differ() -> None:
    report = exact_analysis(lambda c: (1, 0, 2) if c.below(2) else (0, 1, 2), cards=3)
    assert report.parity == "both"
    assert exact_report("deal:optimal", 3, (2, 1)).parity is None


def test_unfinished_is_an_object_sentinel_not_a_string() -> None:
    assert Unfinished() is UNFINISHED and repr(UNFINISHED) == "UNFINISHED"
    assert UNFINISHED != "<unfinished>"

    # a method whose real outcome is the old string sentinel is not mistaken for a cut-off path
    def retry_then_string(chooser: object) -> object:
        while chooser.below(2):  # type: ignore[attr-defined]
            pass
        return "<unfinished>"

    report = exact_analysis(retry_then_string, cards=1, kind="deal", space=1, max_leaves=1000)
    assert report.distribution["<unfinished>"] == 1 - report.unfinished
    assert 0 < report.unfinished < Fraction(1, 100)


def test_walks_that_are_too_large_are_refused_quickly() -> None:
    with pytest.raises(WalkTooLargeError, match="86400000 values"):
        exact_report("time-seeded-32", 3, engine="walk")
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


# --- independent brute force for every remaining method -----------------------------------


def _is_one_cycle(p: tuple[int, ...]) -> bool:
    seen, i = 1, p[0]
    while i != 0:
        seen, i = seen + 1, p[i]
    return seen == len(p)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sattolo_mistake_is_exactly_uniform_over_the_single_cycles(n: int) -> None:
    cycles = {p for p in itertools.permutations(range(n)) if _is_one_cycle(p)}
    assert len(cycles) == math.factorial(n - 1)
    report = exact_report("sattolo-mistake", n, engine="walk")
    assert report.distribution == {p: Fraction(1, len(cycles)) for p in cycles}


@pytest.mark.parametrize("n", [2, 3, 5])
def test_random_cut_gives_each_rotation_one_nth(n: int) -> None:
    rotations = {tuple((i + k) % n for i in range(n)) for k in range(n)}
    assert exact_report("cut", n).distribution == {r: Fraction(1, n) for r in rotations}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_overhand_is_uniform_over_its_packet_reversals(n: int) -> None:
    # Pemantle's model with p = 1/2: each of the 2**(n-1) sets of cut gaps is equally likely,
    # and the packets are stacked in reverse order.
    expected: Counter[tuple[int, ...]] = Counter()
    for gaps in itertools.product((False, True), repeat=n - 1):
        packets, current = [], [0]
        for card, cut_here in zip(range(1, n), gaps, strict=True):
            if cut_here:
                packets.append(current)
                current = []
            current.append(card)
        packets.append(current)
        expected[tuple(c for packet in packets[::-1] for c in packet)] += 1
    total = 2 ** (n - 1)
    report = exact_report("overhand", n)
    assert report.distribution == {k: Fraction(v, total) for k, v in expected.items()}
    assert report.reachable == total


def test_random_comparator_brute_force_over_every_coin_sequence() -> None:
    # Enumerate coin strings of a fixed length; a run uses a prefix of k coins, so each
    # string of length L stands for probability 2**-L of its run (which used k <= L coins).
    n, length = 4, 12
    tally: dict[tuple[int, ...], Fraction] = {}
    for coins in itertools.product((0, 1), repeat=length):
        it = iter(coins)

        def compare(_a: int, _b: int, it=it) -> int:  # type: ignore[no-untyped-def]
            return 1 if next(it) else -1

        out = tuple(sorted(range(n), key=functools.cmp_to_key(compare)))
        tally[out] = tally.get(out, Fraction(0)) + Fraction(1, 2**length)
    report = exact_report("random-comparator", n)
    assert report.distribution == tally and report.verdict == "biased"


@pytest.mark.parametrize("n", [3, 4])
def test_modulo_bias_three_bits_brute_force_over_raw_values(n: int) -> None:
    tally: Counter[tuple[int, ...]] = Counter()
    for raws in itertools.product(range(8), repeat=n - 1):
        deck = list(range(n))
        for i, raw in zip(range(n - 1, 0, -1), raws, strict=True):
            j = raw % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        tally[tuple(deck)] += 1
    expected = {k: Fraction(v, 8 ** (n - 1)) for k, v in tally.items()}
    assert exact_report("modulo-bias-3", n, engine="walk").distribution == expected
    assert fast_distribution("modulo-bias-3", n) == expected


def _elm_dealers_move(k: int, deck: list[int]) -> list[int]:
    """The dealer's move written out again: cut at k mod n, then split at n // 2 and interweave."""
    n = len(deck)
    k %= n
    cut = deck[k:] + deck[:k]
    a, b = cut[: n // 2], cut[n // 2 :]
    woven = [x for pair in zip(a, b, strict=False) for x in pair]
    return woven + a[len(b) :] + b[len(a) :]


def test_dealers_move_rewritten_reproduces_the_worked_examples() -> None:
    assert _elm_dealers_move(2, [1, 2, 3, 4, 5, 6]) == [3, 6, 4, 1, 5, 2]
    deck = [1, 2, 3, 4, 5, 6, 7, 9, 10]
    for k in (2, 5):
        deck = _elm_dealers_move(k, deck)
    assert deck == [10, 3, 6, 7, 1, 4, 2, 9, 5]
    deck = [1, 2, 3, 4, 5, 6]
    for k in (2, 4, 3):
        deck = _elm_dealers_move(k, deck)
    assert deck == [4, 5, 3, 6, 1, 2]


@pytest.mark.parametrize(("name", "rounds"), [("randomize-list-1", 1), ("randomize-list", 3)])
@pytest.mark.parametrize("n", [4, 5, 6])
def test_randomize_list_matches_the_rewritten_dealers_move_over_every_cut_point(
    name: str, rounds: int, n: int
) -> None:
    tally: Counter[tuple[int, ...]] = Counter()
    for ks in itertools.product(range(n), repeat=rounds):
        deck = list(range(n))
        for k in ks:
            deck = _elm_dealers_move(k, deck)
        tally[tuple(deck)] += 1
    report = exact_report(name, n)
    assert report.distribution == {k: Fraction(v, n**rounds) for k, v in tally.items()}
    assert report.verdict == "biased" and report.reachable <= n**rounds


def test_time_seeded_enumeration_matches_running_the_shuffle_seed_by_seed() -> None:
    from croupier.analysis.fast import time_seeded_counts
    from croupier.shuffling.flawed import time_seeded_shuffle

    for n in (2, 3, 5, 8):
        seeds = range(86_399_000 - 3 * 2000, 86_399_000, 3)
        direct = Counter(tuple(time_seeded_shuffle(list(range(n)), s)) for s in seeds)
        assert time_seeded_counts(n, seeds) == dict(direct)


@functools.cache
def _exact(name: str, n: int, hands: tuple[int, ...] | None = None) -> ExactAnalysis:
    """Exact reports, computed once per test run (the 86,400,000-seed enumeration takes seconds)."""
    return exact_report(name, n, hands, max_leaves=20_000)


def test_time_seeded_exact_distribution_is_biased_like_the_1999_shuffle() -> None:
    report = _exact("time-seeded-32", 3, None)
    assert sum(report.distribution.values()) == 1
    assert all((p * 86_400_000).denominator == 1 for p in report.distribution.values())
    # the 32-bit generator can only reach what the off-by-one shuffle itself reaches
    assert set(report.distribution) <= set(exact_report("poker-1999", 3).distribution)
    assert report.verdict == "biased" and report.position_matrix()[2][2] == 0


def test_fair_methods_that_retry_are_never_called_biased() -> None:
    # deal:arithmetic and deal:interval are exactly uniform, but a cut-off walk can leave
    # some deals short; the verdict must then be undecided, never biased, and no deal may
    # ever be above 1/M on the finished paths (that would prove bias).
    for name, n, hands in (("deal:arithmetic", 6, (2, 2, 2)), ("deal:interval", 6, (3, 3))):
        small = exact_report(name, n, hands, max_leaves=2_000)
        large = exact_report(name, n, hands, max_leaves=200_000)
        for report in (small, large):
            assert report.verdict in ("even-so-far", "undecided"), (name, report.verdict)
            assert report.tv_bounds[0] == 0
            assert max(report.distribution.values()) <= Fraction(1, report.space)
        assert large.unfinished < small.unfinished


def test_a_cut_off_walk_proves_bias_only_when_an_outcome_is_over_represented() -> None:
    def biased_retry(chooser):  # type: ignore[no-untyped-def]
        while chooser.below(2):  # unbounded retries, then a 2:1 choice
            pass
        return (0, 1) if chooser.below(3) else (1, 0)

    report = exact_analysis(biased_retry, cards=2, max_leaves=1000)
    assert report.unfinished > 0 and report.verdict == "biased"
    assert report.tv_bounds[0] > 0
    text = report.summary()
    assert "between" in text and "verdict: biased" in text


@pytest.mark.parametrize("name", sorted(analysis_methods()))
def test_every_method_verdict_agrees_with_its_registry_claim(name: str) -> None:
    method = get_analysis_method(name)
    n = 3 if name == "time-seeded-32" else 4
    hands = (2, 1, 1) if method.kind == "deal" else None
    report = _exact(name, n, hands)
    assert sum(report.distribution.values()) + report.unfinished == 1
    if method.fair:
        assert report.verdict in ("uniform", "even-so-far", "undecided"), report.verdict
        assert report.tv_bounds[0] == 0
    else:
        assert report.verdict == "biased", report.summary()


def test_deal_obstructions_name_cards_that_cannot_reach_a_hand() -> None:
    # A "deal" of 4 cards into two hands of 2 that always keeps card 0 in hand 0.
    def keep_first(chooser):  # type: ignore[no-untyped-def]
        partner = 1 + chooser.below(3)
        return tuple(0 if c in (0, partner) else 1 for c in range(4))

    walked = exact_analysis(keep_first, cards=4, kind="deal", space=6)
    report = dataclasses.replace(walked, hands=(2, 2))
    assert report.hand_matrix()[0] == [1, 0]
    assert report.hand_matrix()[1] == [Fraction(1, 3), Fraction(2, 3)]
    notes = report.obstructions()
    assert "only 3 of 6 outcomes can happen (3 never occur)" in notes
    assert "card 0 always ends at hand 0" in notes
    assert report.to_json()["hand_matrix"][0] == ["1", "0"]
    fair = exact_report("deal:optimal", 4, (2, 2))
    assert fair.hand_matrix() == [[Fraction(1, 2)] * 2] * 4 and fair.obstructions() == []


def test_engine_and_verdict_are_closed_sets_of_words() -> None:
    from typing import get_args

    from croupier.analysis.exact import Engine, Verdict
    from croupier.analysis.run import ENGINE_CHOICES, parse_engine

    assert ENGINE_CHOICES == ("auto", "walk", "fast")
    assert {route[0] for route in FAST_ROUTES.values()} | {"walk"} == set(get_args(Engine))
    assert set(get_args(Verdict)) == {"uniform", "biased", "even-so-far", "undecided"}
    with pytest.raises(CroupierError, match=r"^engine='quick' is unknown; use auto, walk, fast$"):
        exact_report("fisher-yates", 3, engine="quick")  # type: ignore[arg-type]
    assert parse_engine("fast") == "fast"


def test_library_errors_name_parameters_not_flags() -> None:
    with pytest.raises(WalkTooLargeError) as info:
        exact_report("merge-shuffle", 6, max_leaves=1000, engine="walk")
    assert "--" not in str(info.value) and "trials=" in str(info.value)
    with pytest.raises(CroupierError) as info2:
        exact_report("fisher-yates", 11)
    assert "--" not in str(info2.value) and "trials=" in str(info2.value)
    with pytest.raises(CroupierError) as info3:
        get_analysis_method("bogo")
    assert "--" not in str(info3.value)


def test_one_registry_lookup_per_layer() -> None:
    import croupier.dealing as dealing
    import croupier.shuffling as shuffling

    assert not hasattr(dealing, "get_method") and not hasattr(shuffling, "get_method")
    assert dealing.get_deal_method("round-robin").name == "round-robin"
    assert shuffling.get_shuffle_method("riffle7").uniform is False


def test_plot_paths_refuse_existing_files_naming_the_parameter(tmp_path: object) -> None:
    from pathlib import Path

    from croupier.analysis.plots import check_plot_path

    taken = Path(str(tmp_path)) / "tv.png"
    taken.write_bytes(b"")
    with pytest.raises(CroupierError, match="overwrite=") as info:
        check_plot_path(taken)
    assert "--" not in str(info.value)
    assert check_plot_path(taken, overwrite=True) == taken
