"""Golden vectors: seeded runs under a condition keep their deals (croupier-stack/2, bulk).

``tests/vectors/simulate.json`` holds, for a few conditions, predeals, seeds
and row numbers, the sampler rows a seeded simulation gave when the algorithm
was fixed; which uniform deals of a run fall in a stacked support (``support``);
and whole seeded runs (``runs``: deals generated and produced, the first deals
and their numbers, ``rnd`` included).  A change to any of them fails here; a
deliberate change needs a new
algorithm id (:data:`croupier.simulate.stacking.STACKING_ALGORITHM_ID`).
The rows are also checked for what they must be whatever the vectors say:
every row satisfies the stacked condition and holds the predealt cards.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from croupier.bulk import BULK_ALGORITHM_ID, BulkStream
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.simulate import Simulation, compile_expression, parse_expression, parse_script
from croupier.simulate.ast import Script
from croupier.simulate.predeal import Predeal
from croupier.simulate.stacking import STACKING_ALGORITHM_ID
from croupier.simulate.support import SupportTrials
from tests.conftest import VECTORS

DATA = json.loads((VECTORS / "simulate.json").read_text())


def test_the_vectors_name_the_current_algorithms() -> None:
    assert DATA["algorithm"] == [BULK_ALGORITHM_ID, STACKING_ALGORITHM_ID]


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: f"{c['strategy']}-{c['start']}")
def test_seeded_rows_are_pinned(case: dict[str, object]) -> None:
    condition = parse_expression(str(case["condition"]))
    predeal = None if case["predeal"] is None else Predeal.parse(str(case["predeal"]))
    simulation = Simulation(
        Script(condition=condition),
        seed=str(case["seed"]),
        strategy=str(case["strategy"]),  # type: ignore[arg-type]
        predeal=predeal,
    )
    assert simulation.strategy == case["sampler"]
    start = int(str(case["start"]))
    rows = simulation.sampler.rows(start, start + 6)
    assert ["".join(map(str, r)) for r in rows.piles.tolist()] == case["rows"]
    if predeal is not None:
        for pile, cards in enumerate(predeal.hands):
            for card in cards:
                assert (rows.piles[:, predeal.layout.index(card)] == pile).all()
    if case["strategy"] == "stacking":  # the stacked seat's part holds in every row
        sampler = simulation.sampler
        part = compile_expression(sampler.expr)  # type: ignore[attr-defined]
        assert np.all(part(rows) != 0)


@pytest.mark.parametrize("case", DATA["support"], ids=lambda c: f"{c['probability']}-{c['start']}")
def test_support_trials_are_pinned(case: dict[str, object]) -> None:
    trials = SupportTrials(Fraction(str(case["probability"])), BulkStream.seeded(str(case["seed"])))
    start = int(str(case["start"]))
    inside, bits = trials.mask(start, start + int(str(case["count"])))
    assert np.flatnonzero(inside)[:40].tolist() == case["inside"]
    assert int(inside.sum()) == case["total_inside"] and int(bits.sum()) == case["bits"]


@pytest.mark.parametrize("case", DATA["runs"], ids=lambda c: str(c["seed"]))
def test_seeded_runs_are_pinned(case: dict[str, object]) -> None:
    simulation = Simulation(
        parse_script(str(case["script"])),
        seed=str(case["seed"]),
        strategy=str(case["strategy"]),  # type: ignore[arg-type]
    )
    result = simulation.run(produce=case["produce"], generate=case["generate"])  # type: ignore[arg-type]
    assert (result.generated, result.produced) == (case["generated"], case["produced"])
    assert result.strategy == case["result_strategy"]
    assert result.numbers[:5].tolist() == case["numbers"]
    assert [format_pbn_deal(d.piles) for d in result.deals[:5]] == case["deals"]
