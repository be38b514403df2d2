"""Deal methods: exact uniformity by walking decision trees, bits, and the flawed deal's bias."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest

from croupier.dealing import deal, deal_many, make_layout, method_names
from croupier.dealing.methods import (
    deal_interval,
    deal_proportional,
    get_deal_method,
    interval_attempt,
)
from croupier.errors import CroupierError, EntropyExhaustedError
from croupier.randomness import (
    Chooser,
    EntropySource,
    ScriptedChooser,
    SeededSource,
    UniformSampler,
    exact_distribution,
)
from croupier.ranking.partitions import multinomial

SMALL_LAYOUTS = [(2, 2, 2), (1, 2, 3), (3, 1), (2, 0, 2), (1, 1, 1, 1)]


def _all_deals(sizes: tuple[int, ...]) -> set[tuple[int, ...]]:
    word = [pile for pile, k in enumerate(sizes) for _ in range(k)]
    return set(permutations(word))


# interval and arithmetic have infinite decision trees (retries / unbounded flips on a
# null set); they are checked exactly by other means below.
FINITE_TREE_METHODS = [m for m in method_names() if m not in ("interval", "arithmetic")]


@pytest.mark.parametrize("name", FINITE_TREE_METHODS)
@pytest.mark.parametrize("sizes", SMALL_LAYOUTS)
def test_each_method_is_exactly_uniform(name: str, sizes: tuple[int, ...]) -> None:
    run = get_deal_method(name).run

    def algorithm(chooser: Chooser) -> tuple[int, ...]:
        return tuple(run(sizes, chooser)[0])

    dist = exact_distribution(algorithm)
    m = multinomial(sizes)
    assert set(dist) == _all_deals(sizes)
    assert all(p == Fraction(1, m) for p in dist.values())


def test_the_90_deals_of_2_2_2() -> None:
    for name in FINITE_TREE_METHODS:
        dist = exact_distribution(
            lambda ch, n=name: tuple(get_deal_method(n).run((2, 2, 2), ch)[0])
        )
        assert len(dist) == 90 and set(dist.values()) == {Fraction(1, 90)}


def _interval_exact(sizes: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
    """The exact distribution of deal_interval, conditioning each card's retries away.

    deal_interval repeats interval_attempt (a finite tree, walked exactly) until
    it returns a pile; a retry restarts from the same state, so the chance of
    pile i is P(attempt = i) / P(attempt != None).  Multiplying along the cards
    gives the exact probability of every deal.
    """
    out: dict[tuple[int, ...], Fraction] = {}

    def walk(left: list[int], prefix: tuple[int, ...], weight: Fraction) -> None:
        if not any(left):
            out[prefix] = out.get(prefix, Fraction(0)) + weight
            return
        attempt = exact_distribution(lambda ch: interval_attempt(left, ch))
        accept = 1 - attempt.get(None, Fraction(0))
        assert accept > 0
        for pile, p in attempt.items():
            if pile is None:
                continue
            nxt = list(left)
            nxt[pile] -= 1
            walk(nxt, (*prefix, pile), weight * p / accept)

    walk(list(sizes), (), Fraction(1))
    return out


@pytest.mark.parametrize("sizes", SMALL_LAYOUTS)
def test_interval_method_is_exactly_uniform(sizes: tuple[int, ...]) -> None:
    dist = _interval_exact(sizes)
    assert set(dist) == _all_deals(sizes)
    assert set(dist.values()) == {Fraction(1, multinomial(sizes))}


@pytest.mark.parametrize(
    "left", [[1, 2], [13, 13, 13, 13], [12, 13, 7, 1], [0, 5, 0, 3], [3, 3, 3]]
)
def test_interval_attempt_odds_are_proportional_to_open_slots(left: list[int]) -> None:
    dist = exact_distribution(lambda ch: interval_attempt(left, ch))
    accept = 1 - dist.get(None, Fraction(0))
    total = sum(left)
    for pile, k in enumerate(left):
        assert dist.get(pile, Fraction(0)) / accept == Fraction(k, total)


def test_deal_interval_matches_its_attempts() -> None:
    # The driver really is "repeat the attempt until it gives a pile".
    assert deal_interval((1, 1), ScriptedChooser([0]))[0] == [0, 1]
    assert deal_interval((1, 1), ScriptedChooser([1]))[0] == [1, 0]
    # 3 slots padded to 4: the coin path 1,1 lands on the padding and is retried.
    assert deal_interval((1, 2), ScriptedChooser([1, 1, 0, 0]))[0] == [0, 1, 1]


def test_proportional_splits_the_draw_by_open_slots() -> None:
    # First card: pile chosen by a draw below 6 split 2:2:2.
    owners, _ = deal_proportional((2, 2, 2), ScriptedChooser([4, 0, 0, 0, 0]))
    assert owners[0] == 2


def test_flawed_uniform_among_open_players_is_biased() -> None:
    from croupier.shuffling.flawed import uniform_among_open_players_deal

    def algorithm(chooser: Chooser) -> tuple[tuple[int, ...], ...]:
        hands = uniform_among_open_players_deal(range(6), [2, 2, 2], chooser)
        return tuple(tuple(h) for h in hands)

    dist = exact_distribution(algorithm)
    assert len(dist) == 90  # every deal can happen...
    probs = sorted(set(dist.values()))
    assert probs[0] < Fraction(1, 90) < probs[-1]  # ...but not equally often
    # Blocky deals are favoured: 0,1 to P1 (1/3 * 1/3), then 2,3 to P2 (1/2 * 1/2).
    assert dist[((0, 1), (2, 3), (4, 5))] == Fraction(1, 36)
    # Interleaved ones are not: 0 to P1, 1 to P2, 2 to P1 (1/3 each), then 1/2 * 1/2.
    assert dist[((0, 2), (1, 4), (3, 5))] == Fraction(1, 108)


def test_bits_used_are_reported_and_add_up() -> None:
    lay = make_layout("bridge")
    src = SeededSource("bits", "test")
    deals = list(deal_many(lay, 50, source=src))
    assert math.isclose(sum(d.bits_used for d in deals), src.bits_used)
    # One-shot optimal draws at least ceil(log2 M) = 96 bits.
    one = deal(lay, source=SeededSource("one", "test"))
    assert one.bits_used >= 96


def test_recycled_optimal_deals_cost_about_log2_m() -> None:
    # Deterministic (seeded); the bound has a wide margin over the expected
    # 95.44 + 32/200 bits per deal.
    lay = make_layout("bridge")
    src = SeededSource("recycle", "test")
    for _ in deal_many(lay, 200, source=src):
        pass
    assert src.bits_used / 200 < math.log2(lay.count) + 0.25


def test_entropy_shortfall_says_how_many_more_rolls() -> None:
    lay = make_layout("bridge")
    src = EntropySource.parse("dice:" + ",".join("3" * 20))
    with pytest.raises(EntropyExhaustedError, match="need at least 17 more d6"):
        deal(lay, sampler=UniformSampler(src))


def test_unknown_method_and_bad_count() -> None:
    with pytest.raises(CroupierError, match="unknown deal method"):
        get_deal_method("riffle-ish")
    with pytest.raises(CroupierError, match="count"):
        list(deal_many(make_layout("war"), -1))


def test_methods_give_every_pile_its_size_on_real_layouts() -> None:
    src = SeededSource("sizes", "test")
    sampler = UniformSampler(src)
    for game in ["holdem", "skat", "pinochle", "cribbage", "ratscrew"]:
        lay = make_layout(game)
        for name in method_names():
            d = deal(lay, method=name, sampler=sampler)
            assert tuple(len(p) for p in d.piles) == lay.sizes
            assert sorted(c for p in d.piles for c in p) == sorted(lay.deck)


class _WalkingSampler:
    """Duck-types a UniformSampler over the walker's chooser (no bits are drawn)."""

    def __init__(self, chooser: Chooser) -> None:
        from croupier.randomness import OsRandomSource

        self.chooser = chooser
        self.source = OsRandomSource()

    def below(self, n: int) -> int:
        return self.chooser.below(n)


@pytest.mark.parametrize("name", FINITE_TREE_METHODS)
def test_public_deal_path_is_exactly_uniform(name: str) -> None:
    # The full public path (layout, fast unranker, Deal objects) on 6 cards into 2+2+2.
    from croupier.cards import parse_cards

    lay = make_layout(hands=[2, 2], deck=parse_cards("AS KS QS JS TS 9S"))

    def algorithm(chooser: Chooser) -> tuple[tuple[str, ...], ...]:
        d = deal(lay, method=name, sampler=_WalkingSampler(chooser))  # type: ignore[arg-type]
        return tuple(tuple(c.code for c in p) for p in d.piles)

    dist = exact_distribution(algorithm)
    assert len(dist) == 90 and set(dist.values()) == {Fraction(1, 90)}


@pytest.mark.parametrize("sizes", [(2, 2, 2), (13, 13, 13, 13), (5, 5, 5, 5, 4), (10, 10, 10, 2)])
def test_arithmetic_method_deals_floor_x_times_m(sizes: tuple[int, ...]) -> None:
    # x = a fixed long run of seeded bits read as a binary fraction; the method must
    # deal the sequence-scheme deal number floor(x * M), whose law is exactly uniform.
    from croupier.dealing.methods import deal_arithmetic
    from croupier.ranking.partitions import sequence_unrank

    m = multinomial(sizes)
    src = SeededSource("arithmetic", str(sizes))
    width = m.bit_length() + 64
    for _ in range(40):
        bits = src.bits(width)
        script = [(bits >> (width - 1 - i)) & 1 for i in range(width)]
        owners, _ = deal_arithmetic(sizes, ScriptedChooser(script))
        assert owners == sequence_unrank(bits * m >> width, sizes)


def test_arithmetic_method_uses_about_log2_m_plus_2_bits() -> None:
    # Seeded, so deterministic; expected mean is at most about log2 M + 2.
    lay = make_layout("bridge")
    src = SeededSource("arithmetic bits", "test")
    for _ in deal_many(lay, 100, method="arithmetic", sampler=UniformSampler(src)):
        pass
    assert math.log2(lay.count) <= src.bits_used / 100 < math.log2(lay.count) + 2.5


class _Recording:
    """A chooser that remembers the answers it passed on (the coin flips of a path)."""

    def __init__(self, chooser: Chooser) -> None:
        self.chooser = chooser
        self.flips: list[int] = []

    def below(self, n: int) -> int:
        value = self.chooser.below(n)
        self.flips.append(value)
        return value


@pytest.mark.parametrize("sizes", [(2, 2, 2), (1, 2, 3), (3, 1)])
def test_arithmetic_method_is_exactly_uniform_on_every_path(sizes: tuple[int, ...]) -> None:
    # Walk every coin path up to 14 flips.  A path that stops after flips a (d bits) covers
    # x in [a/2^d, (a+1)/2^d); it must lie inside the interval [k/M, (k+1)/M) of the deal
    # k it dealt (sequence numbering).  Those intervals are disjoint and the unfinished
    # mass shrinks to 0 as paths grow, so each deal has probability exactly 1/M.
    from croupier.dealing.methods import deal_arithmetic
    from croupier.randomness import exact_distribution_truncated
    from croupier.ranking.partitions import sequence_rank

    def algorithm(chooser: Chooser) -> tuple[tuple[int, ...], tuple[int, ...]]:
        rec = _Recording(chooser)
        owners, _ = deal_arithmetic(sizes, rec)
        return tuple(owners), tuple(rec.flips)

    m = multinomial(sizes)
    depth = 14
    done, unfinished = exact_distribution_truncated(algorithm, depth)
    mass: dict[int, Fraction] = {}
    for (owners, flips), p in done.items():
        d = len(flips)
        assert p == Fraction(1, 2**d)
        a = int("".join(map(str, flips)) or "0", 2)
        k = sequence_rank(owners, sizes)
        assert a * m >= k * 2**d and (a + 1) * m <= (k + 1) * 2**d
        mass[k] = mass.get(k, Fraction(0)) + p
    assert set(mass) == set(range(m))
    assert all(p <= Fraction(1, m) for p in mass.values())
    # At most two unresolved dyadic intervals straddle each of the M - 1 inner boundaries.
    assert unfinished <= Fraction(2 * (m - 1), 2**depth)


def _rounded_fraction_swaps(n: int, d: int, e_bits: int, f: int) -> tuple[int, ...]:
    """Partial Fisher–Yates read off an ``e_bits`` binary fraction (the biased shortcut)."""
    frac = Fraction(f, 2**e_bits)
    items = list(range(n))
    for i in range(d):
        frac *= n - i
        r = int(frac)
        frac -= r
        items[i], items[i + r] = items[i + r], items[i]
    return tuple(items[:d])


def test_swaps_read_off_a_rounded_binary_fraction_are_biased() -> None:
    # 4 cards into 1 + 1 + 2: d = 2 swaps with ranges 4 and 3, so 12 deals.  The shortcut
    # takes E = ceil(log2(d!)) = 1 bit (too few: 2 deals of 12); even E = ceil(log2 12) = 4
    # bits gives 16 equally likely fractions for 12 deals, so some come twice as often.
    from collections import Counter

    assert len({_rounded_fraction_swaps(4, 2, 1, f) for f in range(2)}) == 2
    counts = Counter(_rounded_fraction_swaps(4, 2, 4, f) for f in range(16))
    assert len(counts) == 12 and sorted(set(counts.values())) == [1, 2]
    # croupier's fraction method: one exact draw below 12, every deal 1/12.
    from croupier.dealing.methods import deal_fraction

    dist = exact_distribution(lambda ch: tuple(deal_fraction((1, 1, 2), ch)[0]))
    assert len(dist) == 12 and set(dist.values()) == {Fraction(1, 12)}


def test_optimal_deals_on_big_decks_use_the_same_numbering() -> None:
    # 104 cards: past the table-driven fast path, dealt by plain unranking.
    from croupier.dealing.deal import FAST_UNRANK_CARDS, _FastUnranker
    from croupier.ranking.partitions import subsets_unrank

    lay = make_layout(hands=[26, 26, 26], deck="shoe:2")
    assert len(lay.deck) > FAST_UNRANK_CARDS
    d = deal(lay, source=SeededSource("big deck", "test"))
    number = UniformSampler(SeededSource("big deck", "test")).below(lay.count)
    assert d.number == number and d.method == "optimal"
    assert d.owners() == subsets_unrank(number, lay.sizes)
    assert _FastUnranker(lay).piles(number) == d.piles


def test_compiled_masks_match_the_tables_walk() -> None:
    # number_masks (mixed-radix digits and masks in C) against the plain walk, on the edges
    # of the range and random numbers, for layouts of 1 to 64 cards with empty piles too
    import random as _random

    from croupier._core.subsets import number_masks
    from croupier.dealing.deal import _FastUnranker

    rng = _random.Random(34)
    layouts = [
        make_layout("bridge"),
        make_layout("skat"),
        make_layout(hands=[1], deck="stripped:A"),
        make_layout(hands=[0, 3, 0], deck="stripped:89"),
        make_layout(hands=[32], deck="piquet"),
        make_layout(hands=[1] * 51),  # 52!: four limbs of digits
    ]
    for lay in layouts:
        fast = _FastUnranker(lay)
        last = lay.count // lay.arrangements - 1
        for number in {
            0,
            min(1, last),
            last,
            last // 2,
            *(rng.randrange(last + 1) for _ in range(200)),
        }:
            expected = fast.masks_reference(number)
            got = number_masks(number, lay.sizes, len(lay.deck))
            width = [len(m) for m in got]
            assert got == tuple(m + bytes(w - len(m)) for m, w in zip(expected, width, strict=True))
        with pytest.raises(ValueError, match="not below the number of deals"):
            number_masks(last + 1, lay.sizes, len(lay.deck))
    with pytest.raises(ValueError, match="at most 64 positions"):
        number_masks(0, (65,), 65)


@pytest.mark.parametrize("game", ["bridge", "skat", "war", "euchre", "holdem"])
def test_one_deal_is_the_first_deal_of_a_run(game: str) -> None:
    # deal() takes a direct path for the optimal method; it must give deal_many's first deal,
    # card for card and bit for bit (stacks and remainders included)
    lay = make_layout(game)
    for seed in range(20):
        one = deal(lay, source=SeededSource(f"first {seed}", "deal"))
        src = SeededSource(f"first {seed}", "deal")
        first = next(deal_many(lay, 1, source=src))
        assert one.piles == first.piles and one.number == first.number
        assert one.bits_used == first.bits_used == src.bits_used
        assert (one.algorithm, one.source, one.method) == (first.algorithm, first.source, "optimal")
