"""Sources (OS, entropy, numpy) and the exactness of UniformSampler at the bit level."""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError, EntropyExhaustedError
from croupier.randomness import (
    EntropySource,
    EntropySpecError,
    NumpySource,
    OsRandomSource,
    SeededSource,
    UniformSampler,
    exact_distribution,
    exact_distribution_bits,
    exact_distribution_truncated,
    make_source,
)
from croupier.randomness.uniform import below_once
from croupier.randomness.walk import WalkTooLargeError
from croupier.shuffling import SHUFFLE_METHODS, lehmer_shuffle

# --- exactness of UniformSampler, by enumerating every bit string ---------------------------


def test_walks_past_max_leaves_name_the_parameter_plainly() -> None:
    """The message names ``max_leaves=`` (which the CLI can turn into a flag), not call syntax."""
    expected = "more than 2 random paths; use a smaller case or a larger max_leaves="
    with pytest.raises(WalkTooLargeError) as tree:
        exact_distribution(lambda c: c.below(3), max_leaves=2)
    with pytest.raises(WalkTooLargeError) as truncated:
        exact_distribution_truncated(lambda c: c.below(3), 5, max_leaves=2)
    with pytest.raises(WalkTooLargeError) as bits:
        exact_distribution_bits(lambda s: s.bits(2), 4, max_leaves=2)
    assert str(tree.value) == str(truncated.value) == str(bits.value) == expected


@pytest.mark.parametrize("n", [*range(1, 14), 52, 100])
@pytest.mark.parametrize("mode", ["default", "no-recycle", "margin", "once"])
def test_below_is_exactly_uniform_over_all_bit_strings(n: int, mode: str) -> None:
    def draw(source: OsRandomSource) -> int:
        if mode == "once":
            return below_once(source, n)
        if mode == "margin":
            return UniformSampler(source, margin_bits=3).below(n)
        if mode == "no-recycle":
            return UniformSampler(source, recycle=False).below(n)
        return UniformSampler(source).below(n)

    max_bits = (n - 1).bit_length() + (3 if mode == "margin" else 0) + 8
    done, unfinished = exact_distribution_bits(draw, max_bits)  # type: ignore[arg-type]
    probs = {k: p for k, (p, _) in done.items()}
    assert set(probs) == set(range(n))
    assert len(set(probs.values())) == 1  # every value equally likely, exactly
    assert sum(probs.values()) + unfinished == 1  # the unfinished mass, accounted for exactly
    assert unfinished < Fraction(1, 64)


def test_second_draw_is_exactly_uniform_and_independent_of_first() -> None:
    def two(source: OsRandomSource) -> tuple[int, int]:
        s = UniformSampler(source)
        return s.below(3), s.below(5)

    done, unfinished = exact_distribution_bits(two, 14)  # type: ignore[arg-type]
    probs = {k: p for k, (p, _) in done.items()}
    assert set(probs) == set(itertools.product(range(3), range(5)))
    assert len(set(probs.values())) == 1
    assert sum(probs.values()) + unfinished == 1


def _chain(n: int, max_bits: int) -> tuple[Fraction, Fraction, Fraction]:
    """One fresh draw below ``n`` (margin 0) as the chain of states of docs/reproducibility.md §2.

    Independent of the sampler's code and of the bit walk: follows the held range ``m``
    with exact probabilities and returns (probability of finishing within ``max_bits``
    bits, probability of needing more, expected bits over the finished runs).
    """
    m, used, reach = 1, 0, Fraction(1)
    finished = expected = Fraction(0)
    while reach:
        if m < n:
            k = 0
            while m << k < n:
                k += 1
            if used + k > max_bits:
                return finished, reach, expected
            used, m = used + k, m << k
        q = m // n
        accept = reach * Fraction(q * n, m)
        finished, expected, reach = finished + accept, expected + accept * used, reach - accept
        m -= q * n
    return finished, Fraction(0), expected


@pytest.mark.parametrize("n", [*range(1, 14), 52, 100, 720])
def test_unfinished_mass_and_expected_bits_match_the_state_chain(n: int) -> None:
    # The bit walk enumerates every bit string; the chain computes the same quantities from
    # the specification with exact fractions: they must agree exactly.
    max_bits = (n - 1).bit_length() + 9
    done, unfinished = exact_distribution_bits(
        lambda s: UniformSampler(s).below(n),  # type: ignore[misc]
        max_bits,
    )
    finished, chain_unfinished, chain_expected = _chain(n, max_bits)
    assert unfinished == chain_unfinished
    assert {p for p, _ in done.values()} == {finished / n}
    assert sum(e for _, e in done.values()) == chain_expected


def test_one_shot_draw_below_52_factorial_costs_at_most_log2_plus_two_bits_exactly() -> None:
    # Expected bits of one fresh draw below 52!, exactly up to a tail below 2**-250.  Each
    # round accepts with probability > 1/2 and reads at most 226 bits, so the tail after
    # `left` adds at most left * 2 * 226 bits.
    n = math.factorial(52)
    finished, left, expected = _chain(n, 500)
    assert left < Fraction(1, 2**250) and finished + left == 1
    log2_n = math.lgamma(53) / math.log(2)
    assert log2_n < expected and expected + left * 2 * 226 <= log2_n + 2
    assert round(float(expected), 3) == 226.680  # +1.099 bits: the figure in docs/randomness.md


UNIFORM_BIT_WALKS = [
    *[(name, 4, 14) for name, m in SHUFFLE_METHODS.items() if m.uniform],
    ("lehmer", 5, 16),
    ("lehmer", 6, 16),
    ("fisher-yates", 5, 16),
    ("fisher-yates", 6, 16),
]


@pytest.mark.parametrize(("name", "n", "max_bits"), UNIFORM_BIT_WALKS)
def test_uniform_shuffles_driven_by_bits_are_exactly_uniform(
    name: str, n: int, max_bits: int
) -> None:
    # Every bit string up to max_bits, through the real UniformSampler: each of the n!
    # orders finishes with exactly the same probability; the rest is the unfinished mass.
    method = SHUFFLE_METHODS[name]

    def run(source: OsRandomSource) -> tuple[int, ...]:
        return tuple(method(range(n), UniformSampler(source)))

    done, unfinished = exact_distribution_bits(run, max_bits)  # type: ignore[arg-type]
    probs = {order: p for order, (p, _) in done.items()}
    assert set(probs) == set(itertools.permutations(range(n)))
    assert len(set(probs.values())) == 1
    assert sum(probs.values()) + unfinished == 1
    if name == "lehmer":  # one draw below n!: the unfinished mass is the chain's, exactly
        assert unfinished == _chain(math.factorial(n), max_bits)[1]


def test_sampler_rejects_empty_ranges_and_between_is_inclusive() -> None:
    s = UniformSampler(SeededSource("x"))
    with pytest.raises(CroupierError, match="empty"):
        s.below(0)
    with pytest.raises(CroupierError, match="empty"):
        s.between(3, 2)
    assert {s.between(5, 6) for _ in range(50)} == {5, 6}
    assert s.below(1) == 0
    with pytest.raises(CroupierError, match="margin"):
        UniformSampler(SeededSource("x"), margin_bits=-1)


def test_discard_and_leftover_bits() -> None:
    s = UniformSampler(SeededSource("x"), margin_bits=20)
    s.below(10)
    assert s.leftover_bits >= 20
    s.discard()
    assert s.leftover_bits == 0


# --- finite user entropy ----------------------------------------------------------------------


def test_entropy_spec_parsing() -> None:
    assert EntropySource.parse("dice:3,6,1").digits == (2, 5, 0)
    assert EntropySource.parse("dice:361").digits == (2, 5, 0)
    assert EntropySource.parse("d6: 3 6 1").digits == (2, 5, 0)
    assert EntropySource.parse("d20:20,1,13").digits == (19, 0, 12)
    assert EntropySource.parse("d20:20,1,13").radix == 20
    assert EntropySource.parse("coins:HT ht").digits == (0, 1, 0, 1)
    assert EntropySource.parse("bits:0110").digits == (0, 1, 1, 0)
    assert EntropySource.parse("hex:f0").digits == (1, 1, 1, 1, 0, 0, 0, 0)
    for bad in ("dice:7", "dice:0", "d20:21", "coins:HX", "hex:g", "bits:2", "tarot:1", "dice"):
        with pytest.raises(EntropySpecError) as info:
            EntropySource.parse(bad)
        assert "\n" not in str(info.value)


def test_dice_are_used_exactly_in_mixed_radix() -> None:
    # Every sequence of 3 d6 rolls, drawn below 216, gives a distinct value: nothing wasted.
    seen = set()
    for rolls in itertools.product(range(1, 7), repeat=3):
        src = EntropySource.parse("dice:" + ",".join(map(str, rolls)))
        value = UniformSampler(src).below(216)
        assert src.remaining == 0
        seen.add(value)
    assert seen == set(range(216))
    # one d6 roll decides a shuffle of three items (6 = 3!), every roll a different order
    orders = {
        tuple(lehmer_shuffle("abc", UniformSampler(EntropySource.parse(f"dice:{r}"))))
        for r in range(1, 7)
    }
    assert len(orders) == 6


@pytest.mark.parametrize("n", [4, 5, 7, 36, 100])
def test_dice_draws_are_exactly_uniform_with_exhaustion_accounted(n: int) -> None:
    counts: dict[int, int] = {}
    exhausted = 0
    for rolls in itertools.product(range(6), repeat=4):
        src = EntropySource(list(rolls), 6)
        try:
            v = UniformSampler(src).below(n)
        except EntropyExhaustedError:
            exhausted += 1
            continue
        counts[v] = counts.get(v, 0) + 1
    assert set(counts) == set(range(n))
    assert len(set(counts.values())) == 1
    assert sum(counts.values()) + exhausted == 6**4


def test_entropy_exhaustion_message_and_no_reuse() -> None:
    src = EntropySource.parse("dice:1,2")
    s = UniformSampler(src)
    with pytest.raises(EntropyExhaustedError, match=r"need at least 2 more d6 roll"):
        s.below(1000)  # 36 * 6**2 >= 1000 > 36 * 6
    with pytest.raises(EntropyExhaustedError):
        s.below(1000)  # never reused: still exhausted
    coins = EntropySource.parse("coins:HT")
    with pytest.raises(EntropyExhaustedError, match=r"need at least 4 more coin flip"):
        UniformSampler(coins).below(64)
    msg = EntropySource.parse("hex:ff").shortfall(1, total_bits=225.58)
    assert msg.endswith("need at least 218 more bit(s) (55 more hex digit(s))")
    hexes = EntropySource.parse("hex:f")  # 1111: below(24) needs 5 bits, rejects 15 >= 8
    with pytest.raises(EntropyExhaustedError, match=r"at least 1 more bit\(s\) \(1 more hex digit"):
        UniformSampler(hexes).below(24)


def test_below_once_draws_what_a_fresh_sampler_draws() -> None:
    # the same value and bits as UniformSampler(source).below(n), and the same shortfall
    for n in [1, 2, 3, 52, 2**64 - 1, 2**64 + 1, math.factorial(52), 10**30]:
        for seed in range(30):
            once, fresh = SeededSource(f"once {seed}"), SeededSource(f"once {seed}")
            assert below_once(once, n) == UniformSampler(fresh).below(n)
            assert once.bits_used == fresh.bits_used
    with pytest.raises(EntropyExhaustedError, match=r"need at least 2 more d6 roll"):
        below_once(EntropySource.parse("dice:1,2"), 1000)
    with pytest.raises(CroupierError, match=r"range \[0, 0\) is empty"):
        below_once(OsRandomSource(), 0)


def test_entropy_source_accounting() -> None:
    src = EntropySource.parse("dice:1,2,3")
    assert src.total_bits == pytest.approx(3 * math.log2(6))
    UniformSampler(src).below(6)
    assert src.remaining == 2 and src.bits_used == pytest.approx(math.log2(6))
    assert src.kind == "entropy" and "3 d6 roll(s)" in src.describe()


# --- OS, numpy, make_source -------------------------------------------------------------------


def test_os_source_counts_bits_and_differs_between_calls() -> None:
    src = OsRandomSource()
    values = {src.bits(128) for _ in range(4)}
    assert len(values) == 4
    src.bits(5)
    src.draw(100)
    assert src.bits_used == 4 * 128 + 5 + 100
    assert src.bits(0) == 0


def _in_child(draw: Callable[[], int]) -> int:
    """Fork; run ``draw`` in the child and return its value (64 bits at most)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.write(w, draw().to_bytes(8, "big"))
        os._exit(0)
    os.close(w)
    value = int.from_bytes(os.read(r, 8), "big")
    os.waitpid(pid, 0)
    os.close(r)
    return value


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_os_source_drops_its_buffer_in_a_forked_child() -> None:
    src = OsRandomSource()
    src.bits(3)  # fills the buffer
    child = _in_child(lambda: src.bits(60))
    assert child != src.bits(60)  # equal with probability 2**-60 if the buffer were dropped


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_sampler_forgets_held_os_randomness_in_a_forked_child() -> None:
    # After below(2) with a 64-bit margin the sampler holds 64 bits; with the margin then
    # off, below(2**32) answers from them alone.  A child must not reuse them.
    sampler = UniformSampler(OsRandomSource(), margin_bits=64)
    sampler.below(2)
    sampler.margin_bits = 0
    child = _in_child(lambda: sampler.below(2**32))
    assert child != sampler.below(2**32)  # false alarm 2**-32
    # a reproducible source continues identically in parent and child (that is the point)
    seeded = UniformSampler(SeededSource("fork"), margin_bits=64)
    seeded.below(2)
    seeded.margin_bits = 0
    assert _in_child(lambda: seeded.below(2**32)) == seeded.below(2**32)


def test_numpy_source_is_reproducible_and_counts() -> None:
    import numpy as np

    a = NumpySource(np.random.default_rng(5))
    b = NumpySource(5)
    assert [a.bits(k) for k in (3, 64, 200)] == [b.bits(k) for k in (3, 64, 200)]
    assert a.bits_used == 267 and a.kind == "numpy" and "NOT secret" in a.describe()
    # the first 64 bits are the generator's first raw word
    raw = int(np.random.default_rng(9).bit_generator.random_raw())
    assert NumpySource(9).bits(64) == raw


def test_make_source_kinds() -> None:
    assert make_source().kind == "os-csprng"
    assert make_source(seed="s").kind == "seeded"
    assert make_source(entropy="coins:HT").kind == "entropy"
    with pytest.raises(CroupierError, match="not both"):
        make_source(seed="s", entropy="coins:H")
    a = make_source(seed="s", purpose="p", index=3)
    assert a.bits(64) == SeededSource("s", "p", 3).bits(64)  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=2**200), st.integers(min_value=0, max_value=40))
def test_below_stays_in_range_for_huge_n(n: int, margin: int) -> None:
    s = UniformSampler(SeededSource(str(n)), margin_bits=margin)
    assert all(0 <= s.below(n) < n for _ in range(5))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=6), max_size=40), st.integers(2, 12))
def test_dice_are_never_reused_or_padded(rolls: list[int], n: int) -> None:
    src = EntropySource.parse("dice:" + ",".join(map(str, rolls)))
    sampler = UniformSampler(src)
    try:
        out = lehmer_shuffle(range(n), sampler)
    except EntropyExhaustedError as exc:
        assert src.remaining == 0 and "need at least" in str(exc)
        assert src.total_bits < math.log2(math.factorial(n)) + 64
    else:
        assert sorted(out) == list(range(n))
        assert src.bits_used <= src.total_bits
        # the digits used are a prefix: a source with only those digits gives the same order
        used = len(rolls) - src.remaining
        again = EntropySource.parse("dice:" + ",".join(map(str, rolls[:used])))
        assert lehmer_shuffle(range(n), UniformSampler(again)) == out


def test_copies_have_their_own_lock_and_never_share_os_bits() -> None:
    import copy
    import pickle

    os_source = OsRandomSource()
    os_source.bits(5)  # a block is now held
    twins = [copy.deepcopy(os_source), pickle.loads(pickle.dumps(os_source))]
    draws = [s.bits(256) for s in (os_source, *twins)]
    assert len(set(draws)) == 3  # a copy forgets the held OS block, like a forked child
    sampler = UniformSampler(OsRandomSource(), margin_bits=64)
    sampler.below(6)
    assert sampler.leftover_bits > 60
    assert copy.deepcopy(sampler).leftover_bits == 0  # held OS randomness is not copied
    # reproducible sources and their samplers continue identically, as copies should
    seeded_like = UniformSampler(NumpySource(7), margin_bits=32)
    seeded_like.below(52)
    twin = pickle.loads(pickle.dumps(seeded_like))
    assert [twin.below(1000) for _ in range(20)] == [seeded_like.below(1000) for _ in range(20)]
    dice = EntropySource.parse("dice:1,2,3")
    dice.draw(1)
    assert copy.deepcopy(dice).draw(1) == dice.draw(1) == (1, 6)
