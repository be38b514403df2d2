"""Statistical checks on 52 cards and the measured randomness cost of shuffling."""

from __future__ import annotations

import math

import pytest

from croupier.randomness import SeededSource, UniformSampler
from croupier.shuffling import SHUFFLE_METHODS, fisher_yates, gsr_riffle, lehmer_shuffle

N = 52
LOG2_52 = math.lgamma(N + 1) / math.log(2)  # 225.581...


def _chi_square(counts: list[list[int]], shuffles: int) -> float:
    expected = shuffles / N
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


def _threshold() -> float:
    from scipy.stats import chi2

    # Card x position table with fixed margins: (52-1)**2 = 2601 degrees of freedom.
    # Threshold at false-alarm rate 1e-6 per method (for a truly uniform shuffle).
    return float(chi2.isf(1e-6, (N - 1) ** 2))


def _table(method_name: str, shuffles: int) -> list[list[int]]:
    counts = [[0] * N for _ in range(N)]
    sampler = UniformSampler(SeededSource("chi-square", purpose=method_name), margin_bits=32)
    method = SHUFFLE_METHODS[method_name]
    deck = list(range(N))
    for _ in range(shuffles):
        for position, card in enumerate(method(deck, sampler)):
            counts[card][position] += 1
    return counts


@pytest.mark.parametrize(
    ("name", "shuffles"),
    [("lehmer", 5200), ("fisher-yates", 5200), ("merge-shuffle", 2600), ("rao-sandelius", 2600)],
)
def test_card_position_counts_pass_chi_square(name: str, shuffles: int) -> None:
    # Fixed seeds, so the test is deterministic; for a uniform shuffle the chance that a
    # fresh seed fails is 1e-6 per method (the threshold's false-alarm rate), at most 4e-6
    # for the four methods together.  Expected counts are 100 (or 50) per cell, where the
    # chi-square approximation with (52-1)**2 degrees of freedom is good.
    stat = _chi_square(_table(name, shuffles), shuffles)
    assert stat < _threshold(), (name, stat)


def test_chi_square_catches_a_single_riffle() -> None:
    # the same check must fail for a shuffle known to be far from uniform
    counts = [[0] * N for _ in range(N)]
    sampler = UniformSampler(SeededSource("riffle"))
    for _ in range(520):
        for position, card in enumerate(gsr_riffle(range(N), sampler)):
            counts[card][position] += 1
    assert _chi_square(counts, 520) > 10 * _threshold()


def test_one_shot_lehmer_uses_at_most_log2_52_factorial_plus_two_bits() -> None:
    source = SeededSource("one-shot bits")
    rounds = 2000
    for _ in range(rounds):
        lehmer_shuffle(range(N), UniformSampler(source))  # a fresh sampler: nothing carried
    mean = source.bits_used / rounds
    # measured: 226.637 bits (log2(52!) = 225.581); exact expectation 226.680
    # (tests/test_random_sources.py), at most + 2 on average
    assert LOG2_52 <= mean <= LOG2_52 + 2


def test_recycled_lehmer_approaches_log2_52_factorial() -> None:
    source = SeededSource("recycled bits")
    sampler = UniformSampler(source, margin_bits=32)
    rounds = 10_000
    for _ in range(rounds):
        lehmer_shuffle(range(N), sampler)
    mean = source.bits_used / rounds  # includes the <= 40 bits still held at the end
    assert LOG2_52 - 0.01 <= mean <= LOG2_52 + 0.1  # measured: 225.584


def test_fisher_yates_per_step_draws_cost_about_one_bit_per_card_extra() -> None:
    source = SeededSource("per-step bits")
    sampler = UniformSampler(source, recycle=False)  # every draw on its own
    rounds = 1000
    for _ in range(rounds):
        fisher_yates(range(N), sampler)
    extra_per_draw = (source.bits_used / rounds - LOG2_52) / (N - 1)
    assert 0 < extra_per_draw <= 1.2  # measured: 1.027 bits per card


def test_every_uniform_method_costs_at_least_log2_n_factorial() -> None:
    for name, method in SHUFFLE_METHODS.items():
        if not method.uniform:
            continue
        source = SeededSource("cost", purpose=name)
        for _ in range(50):
            method(range(N), UniformSampler(source))
        assert source.bits_used / 50 >= LOG2_52 - 1, name
