"""Sources (OS, entropy, numpy) and the exactness of UniformSampler at the bit level."""

from __future__ import annotations

import itertools
import math
import os
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
    exact_distribution_bits,
    make_source,
)
from croupier.shuffling import fisher_yates, lehmer_shuffle

# --- exactness of UniformSampler, by enumerating every bit string ---------------------------


@pytest.mark.parametrize("n", [*range(1, 14), 52, 100])
@pytest.mark.parametrize("mode", ["default", "no-recycle", "margin"])
def test_below_is_exactly_uniform_over_all_bit_strings(n: int, mode: str) -> None:
    def draw(source: OsRandomSource) -> int:
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


@pytest.mark.parametrize("shuffle", [lehmer_shuffle, fisher_yates])
def test_shuffles_driven_by_bits_are_exactly_uniform(shuffle: object) -> None:
    def run(source: OsRandomSource) -> tuple[int, ...]:
        return tuple(shuffle(range(4), UniformSampler(source)))  # type: ignore[operator]

    done, unfinished = exact_distribution_bits(run, 12)  # type: ignore[arg-type]
    probs = [p for p, _ in done.values()]
    assert len(probs) == 24 and len(set(probs)) == 1
    assert sum(probs) + unfinished == 1


def test_one_draw_expected_bits_is_at_most_log2_plus_two() -> None:
    # Exact expectation over the walked tree, plus a bound for the unwalked tail.
    for n in (3, 5, 6, 7, 11, 13, 24):
        done, unfinished = exact_distribution_bits(
            lambda s, n=n: UniformSampler(s).below(n),  # type: ignore[misc]
            (n - 1).bit_length() + 14,
        )
        partial = sum(e for _, e in done.values())
        assert unfinished < Fraction(1, 1000)
        assert float(partial) <= math.log2(n) + 2


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
    assert "need at least 218 more bit(s)" in msg


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


def test_os_source_drops_its_buffer_in_a_forked_child() -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    src = OsRandomSource()
    src.bits(3)  # fills the buffer
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.write(w, src.bits(60).to_bytes(8, "big"))
        os._exit(0)
    os.close(w)
    child = int.from_bytes(os.read(r, 8), "big")
    os.waitpid(pid, 0)
    os.close(r)
    assert child != src.bits(60)


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
