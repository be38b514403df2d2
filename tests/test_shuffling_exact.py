"""Exact distributions of every shuffle (walked decision trees, exact fractions)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import LayoutError, RangeError, RankingError, ShuffleSpecError
from croupier.randomness import Chooser, ScriptedChooser, exact_distribution
from croupier.randomness.walk import exact_distribution_truncated
from croupier.shuffling import (
    FLAWED_METHODS,
    SHUFFLE_METHODS,
    fair,
    fisher_yates,
    fisher_yates_inplace,
    flawed,
    get_shuffle_method,
    gsr_riffle,
    lehmer_shuffle,
    merge_shuffle,
    overhand_pemantle,
    permutation_from_rank,
    random_cut,
    rank_permutation,
    rao_sandelius,
    sample,
    unrank_permutation,
)
from croupier.shuffling.lehmer import from_lehmer_code, lehmer_code

Shuffle = Callable[[Sequence[Any], Chooser], list[Any]]


def _dist(shuffle: Shuffle, n: int) -> dict[tuple[int, ...], Fraction]:
    return exact_distribution(lambda c: tuple(shuffle(range(n), c)))


def _assert_uniform(dist: dict[tuple[int, ...], Fraction], n: int) -> None:
    assert set(dist) == set(itertools.permutations(range(n)))
    assert all(p == Fraction(1, math.factorial(n)) for p in dist.values())


# --- fair shuffles: exactly uniform -----------------------------------------------------------


def _fy_inplace(seq: Sequence[Any], chooser: Chooser) -> list[Any]:
    items = list(seq)
    fisher_yates_inplace(items, chooser)
    return items


@pytest.mark.parametrize("n", range(7))
@pytest.mark.parametrize("shuffle", [fisher_yates, _fy_inplace, lehmer_shuffle])
def test_one_draw_per_step_shuffles_are_exactly_uniform(shuffle: Shuffle, n: int) -> None:
    _assert_uniform(_dist(shuffle, n), n)


@pytest.mark.parametrize("n", range(7))
def test_lehmer_block_mode_is_exactly_uniform(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fair, "LEHMER_ONE_DRAW_LIMIT", 0)
    monkeypatch.setattr(fair, "_BLOCK_BITS", 5)  # blocks of radices with product < 32
    dist = _dist(lehmer_shuffle, n)
    _assert_uniform(dist, n)
    # block mode decodes to the same lexicographic arrangement as one draw would: the
    # blocks (radices 5*4, then 3*2) are the digits of the rank in radix (20, 6)
    assert lehmer_shuffle(range(5), ScriptedChooser([4, 3])) == unrank_permutation(4 * 6 + 3, 5)


@pytest.mark.parametrize("n", range(7))
def test_sample_is_exactly_uniform_over_ordered_selections(n: int) -> None:
    for k in range(n + 1):
        dist = exact_distribution(lambda c, k=k: tuple(sample(range(n), k, c)))
        assert set(dist) == set(itertools.permutations(range(n), k))
        assert set(dist.values()) == {Fraction(math.factorial(n - k), math.factorial(n))}
    with pytest.raises(RangeError):
        sample("abc", 4, ScriptedChooser([]))


@pytest.mark.parametrize("n", range(5))
def test_merge_shuffle_is_exactly_uniform_small(n: int) -> None:
    _assert_uniform(_dist(merge_shuffle, n), n)


@pytest.mark.parametrize(
    ("a", "b"), [(a, b) for a in range(1, 6) for b in range(1, 6) if a + b <= 6]
)
def test_merge_step_turns_uniform_halves_into_a_uniform_whole(a: int, b: int) -> None:
    # MergeShuffle's merge is data-oblivious: walk it on positions, then average over
    # uniformly shuffled halves.  Uniform for every (a, b) with a + b <= 6 proves, by
    # induction over the bottom-up merges, that merge_shuffle is uniform for n <= 6.
    def run(c: Chooser) -> tuple[int, ...]:
        items = list(range(a + b))
        fair._merge(items, 0, a, a + b, c)
        return tuple(items)

    positions = exact_distribution(run)
    total: Counter[tuple[int, ...]] = Counter()
    weight: dict[tuple[int, ...], Fraction] = {}
    for left in itertools.permutations(range(a)):
        for right in itertools.permutations(range(a, a + b)):
            deck = left + right
            for arrangement, p in positions.items():
                out = tuple(deck[i] for i in arrangement)
                weight[out] = weight.get(out, Fraction(0)) + p
                total[out] += 1
    halves = math.factorial(a) * math.factorial(b)
    assert set(weight) == set(itertools.permutations(range(a + b)))
    assert {w / halves for w in weight.values()} == {Fraction(1, math.factorial(a + b))}


@pytest.mark.parametrize(
    ("n", "depth"), [(0, 1), (1, 1), (2, 12), (3, 14), (4, 16), (5, 12), (6, 16)]
)
def test_rao_sandelius_is_exactly_uniform_with_unfinished_mass(n: int, depth: int) -> None:
    done, unfinished = exact_distribution_truncated(
        lambda c: tuple(rao_sandelius(range(n), c)), depth
    )
    assert set(done) == set(itertools.permutations(range(n)))
    assert len(set(done.values())) == 1  # equal at every depth => uniform in the limit
    assert sum(done.values()) + unfinished == 1
    assert unfinished < 1 and (unfinished == 0) == (n <= 1)


def test_rao_sandelius_three_piles_and_argument_check() -> None:
    done, unfinished = exact_distribution_truncated(
        lambda c: tuple(rao_sandelius(range(4), c, piles=3)), 10
    )
    assert len(done) == 24 and len(set(done.values())) == 1
    assert sum(done.values()) + unfinished == 1
    with pytest.raises(RangeError):
        rao_sandelius("ab", ScriptedChooser([]), piles=1)


def test_every_registered_uniform_method_is_checked_exactly() -> None:
    # the registry's claims: walk each uniform one (truncated where the tree is infinite)
    for name, method in SHUFFLE_METHODS.items():
        if not method.uniform:
            continue
        done, unfinished = exact_distribution_truncated(
            lambda c, m=method: tuple(m(range(4), c)), 16
        )
        assert set(done) == set(itertools.permutations(range(4))), name
        assert len(set(done.values())) == 1, name
        assert sum(done.values()) + unfinished == 1, name
        assert unfinished < Fraction(1, 5), name


def test_registered_non_uniform_methods_are_not_uniform() -> None:
    for name, method in {**SHUFFLE_METHODS, **FLAWED_METHODS}.items():
        if method.uniform or name in ("riffle7", "time-seeded-32", "modulo-bias"):
            continue  # too many paths to walk; covered by the tests below
        dist = exact_distribution(lambda c, m=method: tuple(m(range(4), c)))
        assert sum(dist.values()) == 1
        uniform = len(dist) == 24 and set(dist.values()) == {Fraction(1, 24)}
        assert not uniform, name
    assert get_shuffle_method("riffle7").uniform is False
    with pytest.raises(ShuffleSpecError, match="unknown shuffle method 'bogo'"):
        get_shuffle_method("bogo")


# --- human shuffle models ---------------------------------------------------------------------


def _rising_sequences(arrangement: Sequence[int]) -> int:
    pos = {v: i for i, v in enumerate(arrangement)}
    return 1 + sum(1 for v in range(len(arrangement) - 1) if pos[v + 1] < pos[v])


@pytest.mark.parametrize(("n", "a"), [(3, 2), (4, 2), (5, 2), (4, 3), (3, 4)])
def test_gsr_riffle_matches_bayer_diaconis(n: int, a: int) -> None:
    dist = exact_distribution(lambda c: tuple(gsr_riffle(range(n), c, a=a)))
    for arrangement in itertools.permutations(range(n)):
        r = _rising_sequences(arrangement)
        expected = Fraction(math.comb(a + n - r, n), a**n)
        assert dist.get(arrangement, Fraction(0)) == expected


def test_gsr_riffle_one_packet_is_identity() -> None:
    assert gsr_riffle("abc", ScriptedChooser([]), a=1) == ["a", "b", "c"]
    with pytest.raises(RangeError):
        gsr_riffle("abc", ScriptedChooser([]), a=0)


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 3), Fraction(0), Fraction(1)])
def test_overhand_matches_pemantle_model(p: Fraction) -> None:
    n = 5
    dist = exact_distribution(lambda c: tuple(overhand_pemantle(range(n), c, p)))
    expected: dict[tuple[int, ...], Fraction] = {}
    for cuts in itertools.product([False, True], repeat=n - 1):
        packets = [[0]]
        for card, cut in zip(range(1, n), cuts, strict=True):
            (packets.append([card]) if cut else packets[-1].append(card))
        out = tuple(x for packet in reversed(packets) for x in packet)
        k = sum(cuts)
        prob = p**k * (1 - p) ** (n - 1 - k)
        if prob:
            expected[out] = expected.get(out, Fraction(0)) + prob
    assert dist == expected
    with pytest.raises(RangeError):
        overhand_pemantle("ab", ScriptedChooser([]), Fraction(3, 2))


def test_random_cut_gives_each_rotation_once() -> None:
    dist = _dist(random_cut, 5)
    assert set(dist.values()) == {Fraction(1, 5)}
    assert set(dist) == {tuple((i + c) % 5 for i in range(5)) for c in range(5)}
    assert random_cut([], ScriptedChooser([])) == []


# --- known-flawed methods: the exact deviation ------------------------------------------------


def test_swap_with_any_on_three_cards_exact_deviation() -> None:
    dist = _dist(flawed.swap_with_any, 3)
    brute: Counter[tuple[int, ...]] = Counter()  # independent: all 27 paths by hand
    for js in itertools.product(range(3), repeat=3):
        deck = [0, 1, 2]
        for i, j in enumerate(js):
            deck[i], deck[j] = deck[j], deck[i]
        brute[tuple(deck)] += 1
    assert dist == {k: Fraction(v, 27) for k, v in brute.items()}
    assert sorted(dist.values()) == [Fraction(4, 27)] * 3 + [Fraction(5, 27)] * 3
    assert dist[(0, 2, 1)] == dist[(1, 0, 2)] == dist[(1, 2, 0)] == Fraction(5, 27)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_poker_1999_exact_deviation(n: int) -> None:
    dist = _dist(flawed.poker_1999_shuffle, n)
    brute: Counter[tuple[int, ...]] = Counter()  # the published loop, 1-based, by hand
    for rs in itertools.product(range(n - 1), repeat=n):
        card = [None, *range(n)]
        for ctr in range(1, n + 1):
            random_number = rs[ctr - 1] + 1  # random(n-1) + 1: never n
            card[ctr], card[random_number] = card[random_number], card[ctr]
        brute[tuple(card[1:])] += 1  # type: ignore[arg-type]
    assert dist == {k: Fraction(v, (n - 1) ** n) for k, v in brute.items()}
    assert all(arr[n - 1] != n - 1 for arr in dist)  # the last card always moves
    assert len(dist) < math.factorial(n)
    if n == 3:  # 8 paths on 6 orders: four orders 1/4 each, two never
        assert sorted(dist.values()) == [Fraction(1, 4)] * 4
    assert flawed.poker_1999_shuffle("a", ScriptedChooser([])) == ["a"]


def test_sattolo_mistake_only_gives_cycles() -> None:
    dist = _dist(flawed.sattolo_by_mistake, 5)
    assert len(dist) == math.factorial(4)
    assert set(dist.values()) == {Fraction(1, 24)}
    for arr in dist:  # a single n-cycle: following i -> arr[i] visits every position
        seen, i = set(), 0
        while i not in seen:
            seen.add(i)
            i = arr[i]
        assert len(seen) == 5


def test_modulo_bias_exact_against_enumeration() -> None:
    bits, n = 3, 4
    dist = exact_distribution(
        lambda c: tuple(flawed.modulo_biased_fisher_yates(range(n), c, bits=bits))
    )
    brute: Counter[tuple[int, ...]] = Counter()
    for raws in itertools.product(range(2**bits), repeat=n - 1):
        deck = list(range(n))
        for i, raw in zip(range(n - 1, 0, -1), raws, strict=True):
            j = raw % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        brute[tuple(deck)] += 1
    assert dist == {k: Fraction(v, 2 ** (bits * (n - 1))) for k, v in brute.items()}
    assert len(set(dist.values())) > 1
    with pytest.raises(RangeError):
        flawed.ModuloBiasedChooser(ScriptedChooser([]), bits=0)


@pytest.mark.parametrize("n", [3, 4])
def test_random_comparator_sort_is_biased(n: int) -> None:
    # Every comparison is a coin flip and the sort makes a bounded number of them, so every
    # probability is a multiple of a power of 1/2, and 1/n! (n >= 3) never is: no sorting
    # algorithm driven by a fair coin comparator can be uniform.  The exact deviation:
    dist = _dist(flawed.random_comparator_sort, n)
    assert sum(dist.values()) == 1 and len(dist) == math.factorial(n)
    assert all(p.denominator & (p.denominator - 1) == 0 for p in dist.values())  # dyadic
    assert Fraction(1, math.factorial(n)) not in set(dist.values())
    assert max(dist.values()) >= 4 * min(dist.values())  # e.g. 3/8 against 1/16 on 3 items


def test_open_players_deal_is_biased_exactly() -> None:
    dist = exact_distribution(
        lambda c: tuple(tuple(h) for h in flawed.uniform_among_open_players_deal("abcd", [2, 2], c))
    )
    assert dist[(("a", "b"), ("c", "d"))] == Fraction(1, 4)
    assert dist[(("c", "d"), ("a", "b"))] == Fraction(1, 4)
    assert dist[(("a", "c"), ("b", "d"))] == Fraction(1, 8)
    assert len(dist) == 6  # every deal possible, but fair would be 1/6 each
    with pytest.raises(LayoutError):
        flawed.uniform_among_open_players_deal("abc", [2, 2], ScriptedChooser([]))


def _dealers_moves(items: list[int], ks: Sequence[int]) -> list[int]:
    """A dealer's move per cut value, written out directly: cut (k mod n), interweave the halves."""
    for k in ks:
        k %= len(items)
        items = items[k:] + items[:k]
        half = len(items) // 2
        a, b = items[:half], items[half:]
        woven = [x for pair in zip(a, b, strict=False) for x in pair]
        items = woven + a[len(b) :] + b[len(a) :]
    return items


@pytest.mark.parametrize("n", [4, 5, 6])
def test_randomize_list_exact_deviation(n: int) -> None:
    rounds = 3
    dist = exact_distribution(
        lambda c: tuple(flawed.randomize_list_shuffle(range(n), c, rounds=rounds))
    )
    brute: Counter[tuple[int, ...]] = Counter()
    for ks in itertools.product(range(n), repeat=rounds):
        brute[tuple(_dealers_moves(list(range(n)), ks))] += 1
    assert dist == {k: Fraction(v, n**rounds) for k, v in brute.items()}
    # n**3 equally likely paths cannot fall evenly on n! orders (n! does not divide n**3)
    assert set(dist.values()) != {Fraction(1, math.factorial(n))}
    if n >= 5:
        assert len(dist) < math.factorial(n)  # most orders can never appear
    assert flawed.randomize_list_shuffle([1], ScriptedChooser([])) == [1]


def test_time_seeded_shuffle_seed_is_recoverable() -> None:
    deck = list(range(52))
    dealt_at = 45_296_789  # 12:34:56.789, injected: no clock is read
    shuffled = flawed.time_seeded_shuffle(deck, dealt_at)
    assert flawed.time_seeded_shuffle(deck, dealt_at) == shuffled
    assert sorted(shuffled) == deck
    # an attacker who knows the time to within a second and sees five cards:
    window = range(dealt_at - 500, dealt_at + 500)
    matches = [t for t in window if flawed.time_seeded_shuffle(deck, t)[:5] == shuffled[:5]]
    assert matches == [dealt_at]
    assert flawed.time_seeded_from_chooser(deck, ScriptedChooser([dealt_at])) == shuffled


def test_lcg32_known_steps() -> None:
    c = flawed.Lcg32Chooser(1)
    expected_state = (1 * 134775813 + 1) % 2**32
    assert c.below(2**32) == expected_state and c.state == expected_state


# --- Lehmer ranking ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(7))
def test_rank_is_lexicographic_order(n: int) -> None:
    perms = list(itertools.permutations(range(n)))
    for rank, perm in enumerate(perms):
        assert rank_permutation(perm) == rank
        assert unrank_permutation(rank, n) == list(perm)
        assert permutation_from_rank("abcdef"[:n], rank) == ["abcdef"[i] for i in perm]


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(60))))
def test_rank_unrank_round_trip(perm: list[int]) -> None:
    rank = rank_permutation(perm)
    assert 0 <= rank < math.factorial(60)
    assert unrank_permutation(rank, 60) == perm
    assert from_lehmer_code(lehmer_code(perm)) == perm


def test_ranking_errors() -> None:
    with pytest.raises(RankingError):
        rank_permutation([0, 0, 1])
    with pytest.raises(RankingError):
        unrank_permutation(6, 3)
    with pytest.raises(RankingError):
        permutation_from_rank("abc", -1)
    with pytest.raises(RankingError):
        from_lehmer_code([3, 0, 0])
