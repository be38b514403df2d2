"""How a run goes fast never changes what it deals: long runs (compiled kernel, the next batch
sampled in another thread), short runs (the first batch in pieces), the bitmasks carried along."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.bulk import deal_array
from croupier.bulk.array import DealArray
from croupier.bulk.evaluate import hcp, shape
from croupier.simulate import run
from croupier.simulate.parse import parse_script
from croupier.simulate.run import RunBatch, Simulation

BALANCED = "any 4333 + any 4432 + any 5332"
SCRIPTS = [
    f"condition shape(north, {BALANCED}) && hcp(north) >= 15 && hcp(north) <= 17",
    "predeal east ST9854, HK86, DT765, CT\ncondition hcp(west) >= 16",
]


def _batches(text: str, *, long: bool, produce: int, generate: int) -> list[RunBatch]:
    sim = Simulation(parse_script(text), seed="speed", strategy="rejection")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(run, "LONG_RUN", 1 if long else 10**12)
        return list(sim.batches(produce=produce, generate=generate, batch=4096))


@pytest.mark.parametrize("text", SCRIPTS)
def test_long_and_short_runs_deal_the_same(text: str) -> None:
    # produce stops in the middle of a batch; the long run samples one batch ahead
    for produce, generate in ((700, 60_000), (10**6, 20_000)):
        short = _batches(text, long=False, produce=produce, generate=generate)
        long = _batches(text, long=True, produce=produce, generate=generate)
        assert [(b.generated, b.produced, b.bits) for b in short] == [
            (b.generated, b.produced, b.bits) for b in long
        ]
        for a, b in zip(short, long, strict=True):
            assert a.deals == b.deals


@pytest.mark.parametrize("text", SCRIPTS)
def test_kept_deals_carry_the_right_bitmasks(text: str) -> None:
    for b in _batches(text, long=True, produce=300, generate=20_000):
        plain = DealArray(b.deals.layout, b.deals.piles)  # masks from the piles alone
        assert np.array_equal(b.deals.masks(), plain.masks())


def test_a_short_run_stops_at_the_row_that_gave_its_deal() -> None:
    # the first deal of the plain seeded stream with North 20+ balanced, found independently
    plain = deal_array(50_000, seed="first")
    passing = np.flatnonzero((hcp(plain, "N") >= 20) & shape(plain, "N", BALANCED))
    text = f"condition hcp(north) >= 20 && shape(north, {BALANCED})"
    sim = Simulation(parse_script(text), seed="first", strategy="rejection")
    (only,) = list(sim.batches(produce=1))
    assert only.generated == int(passing[0]) + 1
    assert only.deals == plain[passing[:1]]
    assert only.bits == int(plain.bits[: only.generated].sum())  # type: ignore[index]
