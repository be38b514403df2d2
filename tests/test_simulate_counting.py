"""dealer's meaning of ``generate`` and ``Generated`` under every strategy.

A run looks at uniform deals one by one, as dealer does.  Under smart stacking each
deal looked at falls in the stacked support with the support's exact probability
(:class:`croupier.simulate.support.SupportTrials`) and only those are dealt, so the
counts and the deals kept have rejection's distribution exactly.  Tested:

* exactly on a 6-card deck: the distribution of (generated, produced, deals kept) of
  a stacked run, every support pattern and every stacked row enumerated with its
  exact weight, equals rejection's, enumerated over every sequence of uniform deals;
* exactly: a trial falls in the support with probability ``p`` (every 16-bit word,
  and the comparison that decides a tie, enumerated);
* statistically on bridge, with fixed seeds (false-alarm rate 1e-6 per test): the
  number of deals produced from ``generate G`` is Binomial(G, a) for the exact
  acceptance ``a``, and the deals generated to ``produce P`` follow the negative
  binomial distribution, under smart stacking and rejection alike.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import binom, chisquare, nbinom

from croupier.bulk import BulkStream, DealArray
from croupier.cards import parse_cards
from croupier.dealing.layout import make_layout
from croupier.simulate import Simulation, compile_expression, parse_expression, parse_script
from croupier.simulate.ast import Script
from croupier.simulate.predeal import Predeal
from croupier.simulate.run import AUTO_PILOT
from croupier.simulate.support import WORD_BITS, SupportTrials, decide

FALSE_ALARM = 1e-6

# -- exactly, on a 6-card deck ---------------------------------------------------------------

DECK = parse_cards("AS KS QS AH KH QH")
LAYOUT = make_layout(hands=[2, 2, 2], deck=DECK, names=["N", "E", "S"])
PREDEAL = Predeal.parse("N:A...", LAYOUT)  # North holds the spade ace
CONDITION = "hcp(north) >= 7 && hcp(east) >= 3"  # North's part is stacked


def _every_deal() -> list[tuple[int, ...]]:
    deals = sorted(set(itertools.permutations([0, 0, 1, 1, 2, 2])))
    return [d for d in deals if d[0] == 0]


def _rejection_outcomes(produce: int, generate: int) -> dict[object, Fraction]:
    """dealer's run over i.i.d. uniform deals, enumerated: (generated, produced, kept)."""
    deals = _every_deal()
    every = DealArray(LAYOUT, np.array(deals, np.uint8))
    passing = compile_expression(parse_expression(CONDITION))(every) != 0
    weight = Fraction(1, len(deals)) ** generate
    out: Counter[object] = Counter()
    for sequence in itertools.product(range(len(deals)), repeat=generate):
        kept: list[tuple[int, ...]] = []
        looked = 0
        for index in sequence:
            looked += 1
            if passing[index]:
                kept.append(deals[index])
                if len(kept) == produce:
                    break
        out[(looked, len(kept), tuple(kept))] += weight  # type: ignore[operator]
    return dict(out)


class _Pattern:
    """Support trials that follow a given pattern (the enumeration chooses it)."""

    def __init__(self, pattern: tuple[bool, ...]) -> None:
        self.pattern = np.array(pattern, np.bool_)

    def mask(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        return self.pattern[start:stop], np.full(stop - start, WORD_BITS, np.uint32)


def _stacked_outcomes(produce: int, generate: int) -> dict[object, Fraction]:
    """The stacked Simulation's run, over every support pattern and stacked row."""
    sim = Simulation(
        Script(condition=parse_expression(CONDITION)),
        seed="exact",
        strategy="stacking",
        predeal=PREDEAL,
    )
    sampler = sim.sampler
    p = sampler.probability
    size = sampler.hand_count * sampler.rest_count  # type: ignore[attr-defined]
    assert 0 < p < 1 and Fraction(size, len(_every_deal())) == p
    out: Counter[object] = Counter()
    for pattern in itertools.product((False, True), repeat=generate):
        k = sum(pattern)
        weight = p**k * (1 - p) ** (generate - k)
        sim._support = _Pattern(pattern)  # type: ignore[assignment]
        for numbers in itertools.product(range(size), repeat=k):
            rows = list(numbers)
            sampler.rows = lambda a, b, rows=rows: sampler.deals_of(rows[a:b])  # type: ignore[method-assign]
            result = sim.run(produce=produce, generate=generate)
            kept = tuple(tuple(d) for d in result.deals.piles.tolist())
            out[(result.generated, result.produced, kept)] += weight / size**k  # type: ignore[operator]
    return dict(out)


@pytest.mark.parametrize(("produce", "generate"), [(1, 2), (2, 2), (1, 3)])
def test_a_stacked_run_has_rejections_exact_distribution(produce: int, generate: int) -> None:
    expected = _rejection_outcomes(produce, generate)
    found = _stacked_outcomes(produce, generate)
    assert sum(found.values()) == 1 == sum(expected.values())
    assert found == expected


def test_support_trials_fall_in_the_support_with_probability_p_exactly() -> None:
    # every 16-bit word once: trial t reads word t
    class EveryWord(BulkStream):
        def __init__(self, tie_bytes: bytes) -> None:
            super().__init__(bytes(32))
            self.tie = tie_bytes

        def derive(self, label: str) -> BulkStream:
            return self

        def main(self, block: int, length: int) -> bytes:
            if length == 8192:
                words = np.arange(block * 4096, block * 4096 + 4096) % 65536
                return words.astype(">u2").tobytes()
            return (self.tie * (length // len(self.tie) + 1))[:length]

    p = Fraction(3, 7)
    head = (p * 65536).numerator // (p * 65536).denominator
    rest = p * 65536 - head
    for v, inside in ((rest - Fraction(1, 2**70), True), (rest, False)):
        tie = (v.numerator * 2**128 // v.denominator).to_bytes(16, "big")
        mask, bits = SupportTrials(p, EveryWord(tie)).mask(0, 65536)
        assert int(mask[:head].sum()) == head and not mask[head + 1 :].any()
        assert bool(mask[head]) is inside and int(bits[head]) > WORD_BITS
    # the tie is decided with probability `rest`: V < rest exactly, digit by digit
    for r in (Fraction(1, 3), Fraction(5, 8), Fraction(0)):
        for prefix in range(256):
            more = bytes([prefix]) + bytes(15)
            low = Fraction(prefix, 256)  # V lies in [low, low + 1/256) given its first byte
            if r <= low or r >= low + Fraction(1, 256):
                assert decide(r, more)[0] is (low < r)


def test_decide_reads_64_bits_at_a_time_until_the_comparison_is_decided() -> None:
    third = bytes([0x55] * 8)  # the first 64 bits of 1/3
    with pytest.raises(ValueError):
        decide(Fraction(1, 3), third)
    assert decide(Fraction(1, 3), third + bytes([0x55] * 7 + [0x54])) == (True, 128)
    assert decide(Fraction(1, 3), third + bytes([0x55] * 7 + [0x56])) == (False, 128)
    # 1/2 has no digit after its first: a word equal to it decides (V >= 1/2)
    assert decide(Fraction(1, 2), bytes([0x80]) + bytes(7)) == (False, 64)


# -- statistically, on bridge ------------------------------------------------------------------

BALANCED = "shape(north, any 4333 + any 4432 + any 5332)"
STRONG = f"hcp(north) >= 20 && {BALANCED}"  # every part stacked: acceptance = p exactly


def _acceptance() -> Fraction:
    sim = Simulation(parse_script(f"condition {STRONG}"), seed="a", strategy="stacking")
    return sim.sampler.probability


@pytest.mark.parametrize("strategy", ["stacking", "rejection"])
def test_produced_from_generate_is_binomial(strategy: str) -> None:
    a = float(_acceptance())
    generate, runs = 20_000, 150 if strategy == "stacking" else 40
    produced = [
        Simulation(
            parse_script(f"generate {generate}\naction average 1\ncondition {STRONG}"),
            seed=f"binomial {k}",
            strategy=strategy,
        )  # type: ignore[arg-type]
        .run()
        .produced
        for k in range(runs)
    ]
    # cells of the exact Binomial(G, a), merged to expect at least 5 runs each
    edges = [int(binom.ppf(q, generate, a)) for q in np.linspace(0, 1, 7)[1:-1]]
    cells = np.searchsorted(edges, produced, side="left")
    observed = np.bincount(cells, minlength=len(edges) + 1)
    bounds = [-1, *edges, generate]
    expected = [
        runs * (binom.cdf(hi, generate, a) - binom.cdf(lo, generate, a))
        for lo, hi in itertools.pairwise(bounds)
    ]
    assert chisquare(observed, expected).pvalue > FALSE_ALARM


def test_generated_to_produce_is_negative_binomial_under_stacking() -> None:
    a = float(_acceptance())
    produce, runs = 5, 300
    failures = []
    for k in range(runs):
        result = Simulation(
            parse_script(f"produce {produce}\ncondition {STRONG}"),
            seed=f"negative binomial {k}",
            strategy="stacking",
        ).run()
        assert result.produced == produce
        failures.append(result.generated - produce)
    qs = np.linspace(0, 1, 9)[1:-1]
    edges = [int(nbinom.ppf(q, produce, a)) for q in qs]
    cells = np.searchsorted(edges, failures, side="left")
    observed = np.bincount(cells, minlength=len(edges) + 1)
    bounds = [-1, *edges, 10**12]
    expected = [
        runs * (nbinom.cdf(hi, produce, a) - nbinom.cdf(lo, produce, a))
        for lo, hi in itertools.pairwise(bounds)
    ]
    assert chisquare(observed, expected).pvalue > FALSE_ALARM


def test_a_long_stacked_run_reports_the_share_of_uniform_deals() -> None:
    result = Simulation(
        parse_script(f"generate 2000000\naction average 1\ncondition {STRONG}"),
        seed="share",
        strategy="stacking",
    ).run()
    a = _acceptance()
    assert result.generated == 2_000_000 and result.strategy == "smart stacking (north)"
    sd = (float(a) * (1 - float(a)) / 2_000_000) ** 0.5
    assert abs(float(result.acceptance) - float(a)) < 5.3 * sd  # two-sided 1e-7


def test_auto_deals_its_first_deals_by_rejection_and_plans_only_beyond() -> None:
    text = f"condition {STRONG}"
    sim = Simulation(parse_script(text), seed="pilot")
    short = sim.run(produce=3)
    assert not sim.planned and short.strategy == "rejection" and short.generated < AUTO_PILOT
    rejection = Simulation(parse_script(text), seed="pilot", strategy="rejection").run(produce=3)
    assert short.deals == rejection.deals and short.generated == rejection.generated
    long = sim.run(produce=800)
    assert sim.planned and long.strategy == "smart stacking (north)"
    assert long.deals[:3] == short.deals  # prefix-stable across the pilot
    assert long.generated > AUTO_PILOT


def test_an_impossible_stacked_part_looks_at_every_deal_and_deals_none() -> None:
    sim = Simulation(parse_script("condition hcp(north) > 37"), seed="none", strategy="stacking")
    batches = list(sim.batches(produce=5, generate=10**9))
    assert [(b.generated, b.produced, b.sampled) for b in batches] == [(10**9, 0, 0)]


def test_prefix_stability_and_batch_sizes_under_stacking() -> None:
    text = f"condition {STRONG} && hcp(south) >= 8"
    sim = Simulation(parse_script(text), seed="prefix", strategy="stacking")
    long = sim.run(produce=60)
    short = sim.run(produce=20, generate=long.generated)
    assert short.deals == long.deals[:20]
    cut = sim.run(produce=1000, generate=short.generated)
    assert cut.deals == short.deals and cut.generated == short.generated
    small = list(sim.batches(produce=60, batch=777))
    assert small[-1].generated == long.generated
    assert sum(len(b.deals) for b in small) == 60
