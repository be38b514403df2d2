"""Golden vectors: seeded runs under a condition keep their deals (croupier-stack/1, bulk).

``tests/vectors/simulate.json`` holds, for a few conditions, predeals, seeds
and row numbers, the sampler rows a seeded simulation gave when the algorithm
was fixed.  A change to any of them fails here; a deliberate change needs a new
algorithm id (:data:`croupier.simulate.stacking.STACKING_ALGORITHM_ID`).
The rows are also checked for what they must be whatever the vectors say:
every row satisfies the stacked condition and holds the predealt cards.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from croupier.bulk import BULK_ALGORITHM_ID
from croupier.simulate import Simulation, compile_expression, parse_expression
from croupier.simulate.ast import Script
from croupier.simulate.predeal import Predeal
from croupier.simulate.stacking import STACKING_ALGORITHM_ID
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
