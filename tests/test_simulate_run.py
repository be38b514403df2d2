"""Dealing under a condition: exact uniformity, produce/generate, prefix stability, the API."""

from __future__ import annotations

import hashlib
import pickle
import sys
import types
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from itertools import permutations
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from scipy.stats import chisquare

from croupier.bulk import BulkDealer, BulkStream, DealArray, deal_array
from croupier.bulk.digits import digit_plan
from croupier.bulk.evaluate import hcp
from croupier.bulk.stream import ROWS_PER_BLOCK
from croupier.cards import parse_cards
from croupier.dealing.layout import Layout, make_layout
from croupier.errors import CroupierError
from croupier.simulate import parse_expression, parse_script
from croupier.simulate.ast import Script
from croupier.simulate.predeal import Predeal
from croupier.simulate.run import (
    AUTO_PILOT,
    DEFAULT_GENERATE,
    RunBatch,
    Simulation,
    SimulationError,
    Strategy,
    deal_where,
)
from croupier.simulate.sampler import RejectionSampler, Sampler
from croupier.simulate.script_run import run_script

FALSE_ALARM = 1e-6  # per chi-square test: a correct implementation fails it once in a million

# -- exact uniformity: every accepted input replayed through the whole pipeline ----------

SMALL_DECK = parse_cards("AS KS QS AH KH QH")
POINTS = {"A": 4, "K": 3, "Q": 2}


class EveryInput(BulkStream):
    """Row ``i`` reads the ``i``-th byte pair ``(a, b)`` with ``a < 255``, ``b < 252``.

    For 5 free cards dealt 1 + 2 + 2 those are exactly the inputs whose two digits
    (below 5 and below 6, one byte each) are accepted at once: 255 * 252 = 64,260 rows.
    """

    ROWS = 255 * 252

    def __init__(self) -> None:
        super().__init__(bytes(32))

    def main(self, block: int, length: int) -> bytes:
        i = block * ROWS_PER_BLOCK + np.arange(length // 2)
        a, b = np.divmod(i, 252)
        pairs = np.where((i < self.ROWS)[:, None], np.stack([a, b], axis=1), 0)
        return pairs.astype(np.uint8).tobytes()

    def retry(self, block: int, length: int) -> bytes:
        raise AssertionError("no digit of these inputs is rejected")


def small_layout() -> tuple[Layout, Predeal]:
    lay = make_layout(hands=[2, 2, 2], deck=SMALL_DECK, names=["N", "E", "S"])
    predeal = Predeal.parse("N:A...", lay)
    return lay, predeal


def brute_force_deals(predeal: Predeal) -> list[tuple[int, ...]]:
    """Every deal (owner of each card) of the 6-card layout that holds the predealt card."""
    deals = sorted(set(permutations([0, 0, 1, 1, 2, 2])))
    return [d for d in deals if all(d[c] == o for c, o in enumerate(predeal.owners) if o >= 0)]


def test_rejection_with_predeal_is_exactly_uniform_over_every_input() -> None:
    _, predeal = small_layout()
    assert digit_plan(predeal.free_sizes).limits[:2] == (255, 252)
    rows = RejectionSampler(predeal, EveryInput()).rows(0, EveryInput.ROWS)
    counts = Counter(map(tuple, rows.piles.tolist()))
    expected = brute_force_deals(predeal)
    assert len(expected) == 5 * 6 == predeal.count
    assert set(counts) == set(expected)
    assert set(counts.values()) == {EveryInput.ROWS // 30}


def test_condition_and_predeal_runs_are_exactly_uniform_over_every_input() -> None:
    lay, predeal = small_layout()
    script = Script(condition=parse_expression("hcp(east) >= hcp(south) && hascard(south, QH)"))
    sim = Simulation(script, predeal=predeal, stream=EveryInput(), strategy="rejection")
    result = sim.run(produce=10**6, generate=EveryInput.ROWS)
    counts = Counter(map(tuple, result.deals.piles.tolist()))

    def passes(deal: tuple[int, ...]) -> bool:
        points = [0, 0, 0]
        for card, owner in zip(lay.deck, deal, strict=True):
            points[owner] += POINTS[card.rank.letter]
        qh = lay.index(parse_cards("QH")[0])
        return points[1] >= points[2] and deal[qh] == 2

    expected = [d for d in brute_force_deals(predeal) if passes(d)]
    assert 0 < len(expected) < 30
    assert set(counts) == set(expected)
    assert set(counts.values()) == {EveryInput.ROWS // 30}
    assert result.generated == EveryInput.ROWS


# -- conditional uniformity on bridge against exact distributions -------------------------


def hand_counts(cards: list[tuple[int, bool]], take: int) -> npt.NDArray[np.int64]:
    """Hands of ``take`` cards from ``cards`` (points, is a spade), counted by (points, spades)."""
    table = np.zeros((take + 1, 41, 14), np.int64)
    table[0, 0, 0] = 1
    for points, spade in cards:
        shifted = np.zeros_like(table)
        shifted[1:, points:, int(spade) :] = table[:-1, : 41 - points, : 14 - int(spade)]
        table = table + shifted
    counts: npt.NDArray[np.int64] = table[take]
    return counts


def bridge_cards(exclude: set[str]) -> list[tuple[int, bool]]:
    out = []
    for suit in "SHDC":
        for rank in "AKQJT98765432":
            if rank + suit not in exclude:
                out.append(({"A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0), suit == "S"))
    return out


def pooled_chisquare(
    observed: Mapping[tuple[int, int], int], expected: Mapping[tuple[int, int], float]
) -> float:
    """Chi-square p-value with the cells expecting fewer than 5 pooled into one."""
    big = [k for k, e in expected.items() if e >= 5]
    small = [k for k in expected if k not in big]
    assert set(observed) <= set(expected), "a value that cannot occur"
    obs = [observed.get(k, 0) for k in big] + [sum(observed.get(k, 0) for k in small)]
    exp = [expected[k] for k in big] + [sum(expected[k] for k in small)]
    return float(chisquare(obs, exp).pvalue)


@pytest.mark.parametrize("strategy", ["rejection", "auto"])
@pytest.mark.parametrize(
    ("predeal", "held_points", "held_spades"), [("", 0, 0), ("N:AK.-.-.-", 7, 2)]
)
def test_deals_follow_the_exact_conditional_distribution(
    predeal: str, held_points: int, held_spades: int, strategy: Strategy
) -> None:
    n = 2000
    deals = deal_where(
        "hcp(north) >= 20", n, predeal=predeal or None, seed="conditional", strategy=strategy
    )
    north_points = hcp(deals, "N").tolist()
    lengths = deals.suit_lengths()
    north_spades, south_spades = lengths[:, 0, 0].tolist(), lengths[:, 2, 0].tolist()
    # North's (points, spades): the hands of the free cards, shifted by the predealt ones.
    exclude = {"AS", "KS"} if predeal else set()
    table = hand_counts(bridge_cards(exclude), 13 - len(exclude))
    joint = {
        (h + held_points, s + held_spades): int(table[h, s])
        for h in range(41)
        for s in range(14)
        if table[h, s] and h + held_points >= 20
    }
    total = sum(joint.values())
    expected = {k: n * v / total for k, v in joint.items()}
    observed = Counter(zip(north_points, north_spades, strict=True))
    assert pooled_chisquare(observed, expected) > FALSE_ALARM
    # South's spades given North's: hypergeometric over the 39 cards North does not hold.
    by_spades: dict[int, int] = Counter()
    for (_, s), v in joint.items():
        by_spades[s] += v
    pairs = {
        (s, t): n * v / total * comb(13 - s, t) * comb(26 + s, 13 - t) / comb(39, 13)
        for s, v in by_spades.items()
        for t in range(0, 14 - s)
    }
    observed_pairs = Counter(zip(north_spades, south_spades, strict=True))
    assert pooled_chisquare(observed_pairs, pairs) > FALSE_ALARM


# -- produce, generate, batches, prefix stability ---------------------------------------


def test_produce_stops_at_the_row_of_the_last_deal() -> None:
    result = run_script("produce 25\ncondition hcp(north) >= 16", seed="stop", strategy="rejection")
    plain = deal_array(result.generated, seed="stop")
    passing = hcp(plain, "N") >= 16
    assert result.produced == 25 and bool(passing[-1])
    assert result.deals == plain[passing]
    assert result.source == "seeded" and result.strategy == "rejection"
    assert result.acceptance == Fraction(25, result.generated)


def test_generate_stops_at_that_many_rows() -> None:
    result = run_script(
        "generate 3000\nproduce 1000\ncondition hcp(north) >= 16", seed="g", strategy="rejection"
    )
    plain = deal_array(3000, seed="g")
    assert result.generated == 3000
    assert result.deals == plain[hcp(plain, "N") >= 16]
    assert result.produced == len(result.deals) < 1000


def test_caller_limits_override_the_script_and_defaults_follow_dealer() -> None:
    def limits(text: str, **kw: int) -> tuple[int, int]:
        return Simulation(parse_script(text), seed="l").limits(**kw)

    assert limits("condition hcp(north) > 5") == (40, DEFAULT_GENERATE)  # printall by default
    assert limits("action printoneline") == (40, DEFAULT_GENERATE)
    assert limits("action average hcp(north)") == (DEFAULT_GENERATE, DEFAULT_GENERATE)
    assert limits("generate 500\naction frequency (hcp(north), 0, 37)") == (500, 500)
    assert limits("generate 500\nproduce 7") == (7, 500)
    assert limits("generate 500\nproduce 7", produce=3, generate=9) == (3, 9)
    assert DEFAULT_GENERATE == 10_000_000
    with pytest.raises(SimulationError, match="produce=-1"):
        limits("", produce=-1)


def test_batches_have_a_fixed_size_and_do_not_change_the_deals() -> None:
    sim = Simulation(parse_script("condition hcp(north) >= 12"), seed="batch")
    runs = {}
    for size in (1, 7, 1000, 65536):
        batches = list(sim.batches(produce=60, generate=5000, batch=size))
        assert all(isinstance(b, RunBatch) for b in batches)
        assert [b.generated for b in batches[:-1]] == [
            size * (k + 1) for k in range(len(batches) - 1)
        ]
        runs[size] = (DealArray.concatenate([b.deals for b in batches]), batches[-1].generated)
    assert len({(len(d), g) for d, g in runs.values()}) == 1
    first = runs[1][0]
    assert all(d == first for d, _ in runs.values())
    with pytest.raises(SimulationError, match="batch=0"):
        next(sim.batches(batch=0))


def test_seeded_runs_are_reproducible_and_prefix_stable() -> None:
    text = "predeal south SK\ncondition hcp(north) >= 14 && spades(south) >= 3"
    long = run_script(text, seed="prefix", produce=80)
    short = run_script(text, seed="prefix", produce=30, generate=long.generated)
    again = run_script(text, seed="prefix", produce=80)
    assert again.deals == long.deals
    assert short.deals == long.deals[:30]
    cut = run_script(text, seed="prefix", produce=1000, generate=short.generated)
    assert cut.deals == short.deals
    other = run_script(text, seed="prefix 2", produce=30)
    assert other.deals != short.deals


def test_bits_are_those_of_the_sampled_rows() -> None:
    sim = Simulation(parse_script("condition hcp(north) >= 12"), seed="bits")
    result = sim.run(produce=20)
    rows = BulkDealer("bridge", seed="bits").rows(0, result.generated)
    assert rows.bits is not None and result.bits == int(rows.bits.sum())


def test_suit_length_predeals_are_a_condition() -> None:
    result = run_script(
        "produce 40\npredeal spades(north)==1\npredeal north HA\ncondition hcp(south) >= 10",
        seed="len",
        strategy="rejection",
    )
    plain = deal_array(result.generated, seed="len").piles
    # North's heart ace is predealt, so the stream deals the other 51 cards.
    predeal = Predeal.parse("N:.A..")
    free = BulkDealer(predeal.free_layout, seed="len").rows(0, result.generated)
    merged = predeal.merge(free.piles)
    keep = (merged.suit_lengths()[:, 0, 0] == 1) & (hcp(merged, "S") >= 10)
    assert result.deals == merged[keep]
    assert not np.array_equal(plain[: len(result.deals)], result.deals.piles)


def test_the_os_stream_is_the_default() -> None:
    sim = Simulation(parse_script("condition hcp(north) >= 10"))
    assert sim.source == "os-csprng"
    a, b = sim.run(produce=5), Simulation(parse_script("condition hcp(north) >= 10")).run(produce=5)
    assert a.deals != b.deals


# -- the strategy -------------------------------------------------------------------------


class FakePlan:
    """A stand-in for smart stacking: claims a small support but samples every deal."""

    def __init__(self, probability: Fraction, stream: BulkStream) -> None:
        self.name = "smart stacking (test)"
        self.algorithm = "croupier-test/1"
        self.probability = probability
        self.inner = RejectionSampler(Predeal.none(), stream)
        self.layout = self.inner.layout

    def rows(self, start: int, stop: int) -> DealArray:
        return self.inner.rows(start, stop)

    def bits(self, start: int, stop: int) -> int:
        return self.inner.bits(start, stop)


def fake_stacking(monkeypatch: pytest.MonkeyPatch, probability: Fraction | None) -> list[str]:
    seen: list[str] = []
    module = types.ModuleType("croupier.simulate.stacking")

    def plan_stacking(condition, definitions, scales, predeal, stream):  # type: ignore[no-untyped-def]
        seen.append(str(condition))
        return None if probability is None else FakePlan(probability, stream)

    module.plan_stacking = plan_stacking  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "croupier.simulate.stacking", module)
    return seen


def test_auto_stacks_only_a_plan_of_at_most_a_quarter(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "predeal hearts(south)==4\ncondition hcp(north) >= 18"
    seen = fake_stacking(monkeypatch, Fraction(1, 4))
    sim = Simulation(parse_script(text), seed="auto")
    # a run that ends within the first AUTO_PILOT deals never plans: all rejection
    short = sim.run(produce=30)
    assert seen == [] and short.strategy == "rejection" and short.generated < AUTO_PILOT
    assert sim.strategy == "smart stacking (test)" and isinstance(sim.sampler, Sampler)
    assert seen == ["hearts(south) == 4 && hcp(north) >= 18"]
    # the run still applies the whole condition to every dealt row
    result = sim.run(produce=10**6, generate=AUTO_PILOT + 5000)
    assert result.strategy == "smart stacking (test)" and result.generated == AUTO_PILOT + 5000
    assert (hcp(result.deals, "N") >= 18).all()
    assert (result.deals.suit_lengths()[:, 2, 1] == 4).all()
    assert result.acceptance == Fraction(result.produced, result.generated)
    assert result.deals[: len(short.deals)] == short.deals
    fake_stacking(monkeypatch, Fraction(1, 4) + Fraction(1, 10**9))
    assert Simulation(parse_script(text), seed="auto").strategy == "rejection"
    fake_stacking(monkeypatch, Fraction(1, 100))
    assert Simulation(parse_script(text), seed="auto", strategy="rejection").strategy == "rejection"


def test_stacking_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stacking(monkeypatch, None)
    script = parse_script("condition hcp(north) >= 18")
    assert Simulation(script, seed="s").strategy == "rejection"
    with pytest.raises(SimulationError, match="no part of the condition"):
        Simulation(script, seed="s", strategy="stacking")
    monkeypatch.setitem(sys.modules, "croupier.simulate.stacking", None)
    assert Simulation(script, seed="s").strategy == "rejection"
    with pytest.raises(SimulationError, match="not available"):
        Simulation(script, seed="s", strategy="stacking")
    with pytest.raises(SimulationError, match="cannot be stacked"):
        deal_where(lambda d: hcp(d, "N") > 5, 1, strategy="stacking")
    fake_stacking(monkeypatch, Fraction(0))
    empty = Simulation(script, seed="s", strategy="stacking")
    assert empty.impossible
    # dealer's count: every deal is looked at, none is dealt, none passes
    assert [(b.generated, b.produced) for b in empty.batches()] == [(DEFAULT_GENERATE, 0)]
    assert empty.run(generate=500).generated == 500 and empty.run().produced == 0
    with pytest.raises(SimulationError, match="no deal satisfies the condition 'hcp"):
        deal_where("hcp(north) >= 38", 1, seed="s")  # none in the pilot, then the plan
    assert len(deal_where("hcp(north) >= 18", 0, seed="s")) == 0
    with pytest.raises(SimulationError, match="strategy='fast'"):
        Simulation(script, strategy="fast")  # type: ignore[arg-type]


# -- the Python API ------------------------------------------------------------------------


def test_deal_where_with_text_or_a_function_gives_the_same_deals() -> None:
    text = deal_where(
        "hcp(north) >= 18 && spades(south) >= 4", 50, seed="api", strategy="rejection"
    )
    function = deal_where(
        lambda d: (hcp(d, "N") >= 18) & (d.suit_lengths()[:, 2, 0] >= 4), 50, seed="api"
    )
    assert text == function and len(text) == 50
    plain = deal_array(200_000, seed="api")
    keep = (hcp(plain, "N") >= 18) & (plain.suit_lengths()[:, 2, 0] >= 4)
    assert text == plain[keep][:50]


def test_deal_where_with_predeal_and_other_layouts() -> None:
    deals = deal_where("hcp(north) >= 12", 20, predeal={"S": "AS KS QS"}, seed="p")
    assert (deals.piles[:, :3] == 2).all() and (hcp(deals, "N") >= 12).all()
    euchre = deal_where(
        lambda d: d.suit_lengths()[:, 0, 0] >= 3, 10, layout="euchre", predeal="N:J...", seed="e"
    )
    assert euchre.layout == make_layout("euchre") and len(euchre) == 10
    assert (euchre.suit_lengths()[:, 0, 0] >= 3).all()
    assert len(deal_where("hcp(north) > 10", 0, seed="z")) == 0


def test_deal_where_errors() -> None:
    with pytest.raises(SimulationError, match=r"found 0 of the 2 deals asked in 500 .*acceptance"):
        deal_where("hcp(north) >= 37", 2, generate=500, seed="cap", strategy="rejection")
    with pytest.raises(SimulationError, match="count=-1"):
        deal_where("1", -1)
    with pytest.raises(SimulationError, match="condition= must be"):
        deal_where(3, 1)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="one truth value per deal"):
        deal_where(lambda d: np.ones(3, bool), 1, seed="x")
    with pytest.raises(SimulationError, match="float64"):
        deal_where(lambda d: np.ones(len(d)), 1, seed="x")
    with pytest.raises(CroupierError, match="predealt to both"):
        deal_where("1", 1, predeal="N:A... S:A...")
    with pytest.raises(SimulationError, match="the script has a predeal"):
        Simulation(parse_script("predeal north SA"), predeal=Predeal.none())


def test_rejection_without_predeal_is_the_bulk_engine() -> None:
    stream = BulkStream.seeded("same")
    sampler = RejectionSampler(Predeal.none(), stream)
    assert sampler.rows(4090, 4200) == BulkDealer("bridge", stream=stream).rows(4090, 4200)
    assert sampler.bits(0, 100) == int(BulkDealer("bridge", seed="same").rows(0, 100).bits.sum())  # type: ignore[union-attr]


# -- BulkStream.derive -----------------------------------------------------------------


def test_derived_streams_follow_their_definition() -> None:
    key = bytes(range(32))
    child = BulkStream(key).derive("simulate")
    child_key = hashlib.shake_128(key + b"derive:simulate").digest(32)
    main = hashlib.shake_128(child_key + b"main" + (5).to_bytes(8, "big")).digest(40)
    assert child.main(5, 40) == main
    assert child.retry(5, 40) == hashlib.shake_128(
        child_key + b"retry" + (5).to_bytes(8, "big")
    ).digest(40)
    assert BulkStream(key).derive("other").main(5, 40) != main
    seeded = BulkStream.seeded("s").derive("x")
    assert seeded.reproducible and pickle.loads(pickle.dumps(seeded)).main(0, 16) == seeded.main(
        0, 16
    )
    os_child = BulkStream.from_os().derive("x")
    assert not os_child.reproducible and os_child.kind == "os-csprng"
    assert pickle.loads(pickle.dumps(os_child)).main(0, 16) != os_child.main(0, 16)


def test_run_script_reports_the_scripts_statistics_over_its_deals() -> None:
    from fractions import Fraction as F

    from croupier.dealing.evaluation import hcp as hand_hcp

    text = (
        "generate 3000\ncondition hcp(north) >= 14\n"
        'action average "s" hcp(south), frequency (spades(north), 0, 13), printall\n'
    )
    result = run_script(text, seed="stats")
    assert result.report is not None
    average, frequency = result.report.results
    south = [hand_hcp(deal.piles[2]) for deal in result.deals]  # scalar evaluation, per hand
    assert average.count == len(south) == result.produced > 0
    assert average.mean == F(sum(south), len(south))
    spades = [sum(c.code[-1] == "S" for c in deal.piles[0]) for deal in result.deals]
    assert [hits for _, hits in frequency.rows()] == [spades.count(k) for k in range(14)]


# -- runs of one simulation: a seeded one repeats exactly, an unseeded one never repeats ----


def _deal_rows(deals: DealArray) -> set[bytes]:
    return {row.tobytes() for row in deals.piles}


@pytest.mark.parametrize("strategy", ["rejection", "stacking"])
def test_every_run_of_an_unseeded_simulation_deals_afresh(strategy: Strategy) -> None:
    sim = Simulation(parse_script("condition hcp(north) >= 19"), strategy=strategy)
    first, second = sim.run(produce=40), sim.run(produce=40)
    assert first.source == second.source == "os-csprng"
    assert len(first.deals) == len(second.deals) == 40
    assert not _deal_rows(first.deals) & _deal_rows(second.deals)
    third = DealArray.concatenate([b.deals for b in sim.batches(produce=40)])
    assert not _deal_rows(third) & (_deal_rows(first.deals) | _deal_rows(second.deals))
    # an OS stream given as stream= is the same: it is not reproducible
    given = Simulation(parse_script("condition hcp(north) >= 19"), stream=BulkStream.from_os())
    assert given.run(produce=10).deals != given.run(produce=10).deals


def test_unseeded_runs_that_overlap_share_no_deal() -> None:
    sim = Simulation(parse_script("condition hcp(north) >= 12"), strategy="rejection")
    one, two = sim.batches(produce=30, batch=50), sim.batches(produce=30, batch=50)
    parts: list[DealArray] = []
    for a, b in zip(one, two, strict=False):
        parts += [a.deals, b.deals]
    rows = [row.tobytes() for part in parts for row in part.piles]
    assert len(rows) >= 30 and len(set(rows)) == len(rows)


@pytest.mark.parametrize("strategy", ["rejection", "stacking"])
def test_every_run_of_a_seeded_simulation_is_the_same(strategy: Strategy) -> None:
    script = parse_script("condition hcp(north) >= 19")
    sim = Simulation(script, seed="again", strategy=strategy)
    first = sim.run(produce=40)
    second = sim.run(produce=40)
    assert first.deals == second.deals and first.generated == second.generated
    assert first.bits == second.bits
    assert Simulation(script, seed="again", strategy=strategy).run(produce=40).deals == first.deals
    again = DealArray.concatenate([b.deals for b in sim.batches(produce=40)])
    assert again == first.deals
    keyed = Simulation(script, stream=BulkStream.seeded("again"), strategy=strategy)
    assert keyed.run(produce=40).deals == keyed.run(produce=40).deals == first.deals


def test_deal_where_and_bulk_dealers_without_a_seed_never_repeat() -> None:
    a, b = deal_where("hcp(north) >= 15", 20), deal_where("hcp(north) >= 15", 20)
    assert not _deal_rows(a) & _deal_rows(b)
    dealer = BulkDealer("bridge")
    assert not _deal_rows(dealer.deal(50)) & _deal_rows(dealer.deal(50))
    assert not _deal_rows(deal_array(50)) & _deal_rows(deal_array(50))
