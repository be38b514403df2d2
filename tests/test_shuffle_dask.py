"""croupier.scale.shuffle of Dask collections: exactly uniform, and the same on any cluster.

The enumerations run on Dask's synchronous scheduler; the identity checks on
local clusters of one and two worker processes (started once for the module).
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import dask
import dask.bag as db
import pytest

from croupier.errors import CroupierError
from croupier.randomness import SeededSource, exact_distribution
from croupier.scale import shuffle, shuffle_stream
from croupier.scale.keyed_split import KeyedParams, SourceDraws


class _Draws(SourceDraws):
    """Draws from a chooser, with a fixed Dask token (so the task graph is the same each run)."""

    def __dask_tokenize__(self) -> str:
        return "draws"


def _file_order(n: int, seed: str) -> list[int]:
    """The order ``croupier shuffle --file`` gives the lines ``0 .. n-1`` under ``seed``."""
    text = b"".join(b"%d\n" % i for i in range(n))
    out = io.BytesIO()
    shuffle_stream(io.BytesIO(text), out.write, source=SeededSource(seed, "shuffle-file"))
    return [int(x) for x in out.getvalue().split()]


@pytest.mark.parametrize(
    ("n", "k", "parts", "targets"),
    [(3, 1, 2, 2), (3, 2, 3, 4), (3, 2, 1, 4), (4, 1, 2, 2), (4, 1, 3, 2), (3, 0, 2, 1)],
)
def test_every_global_order_has_probability_one_over_n_factorial(
    n: int, k: int, parts: int, targets: int
) -> None:
    params = KeyedParams(key_bits=k)

    def run(chooser: Any) -> tuple[int, ...]:
        with dask.config.set(scheduler="sync"):
            bag = db.from_sequence(range(n), npartitions=parts)
            shuffled = shuffle(bag, draws=_Draws(chooser), params=params, npartitions=targets)
            return tuple(shuffled.compute())

    dist = exact_distribution(run, max_leaves=50_000)
    assert dist == {p: Fraction(1, math.factorial(n)) for p in itertools.permutations(range(n))}


def test_the_order_is_the_file_shuffles_for_any_partitions() -> None:
    n = 5000
    want = _file_order(n, "partitions")
    with dask.config.set(scheduler="sync"):
        for parts, targets in [(1, None), (7, None), (3, 1), (2, 16), (40, 5)]:
            bag = db.from_sequence(range(n), npartitions=parts)
            got = shuffle(bag, seed="partitions", npartitions=targets)
            assert got.compute() == want, (parts, targets)
    assert sorted(want) == list(range(n)) and want != list(range(n))


def test_a_dataframe_keeps_its_rows_whole() -> None:
    import dask.dataframe as dd
    import pandas as pd

    n = 3000
    frame = pd.DataFrame({"x": range(n), "y": [f"row {i}" for i in range(n)]})
    with dask.config.set(scheduler="sync"):
        got = shuffle(dd.from_pandas(frame, npartitions=4), seed="frame").compute()
    assert got["x"].tolist() == _file_order(n, "frame")
    assert (got["y"] == "row " + got["x"].astype(str)).all()
    assert got.index.tolist() == got["x"].tolist()  # the index moves with its row
    series = shuffle(dd.from_pandas(frame["x"], npartitions=3), seed="frame")
    with dask.config.set(scheduler="sync"):
        assert series.compute().tolist() == _file_order(n, "frame")


def test_refusals() -> None:
    with pytest.raises(CroupierError, match="takes a Dask Bag, DataFrame or Series"):
        shuffle([1, 2, 3])
    bag = db.from_sequence(range(5), npartitions=2)
    with pytest.raises(CroupierError, match="npartitions=0"):
        shuffle(bag, npartitions=0)
    with pytest.raises(CroupierError, match="not both"):
        shuffle(bag, seed="x", source=SeededSource("y"))


@pytest.fixture(scope="module")
def clusters() -> Iterator[dict[int, Any]]:
    from croupier.cluster import ClusterUnavailable, open_client

    try:
        with open_client(workers=1) as one, open_client(workers=2) as two:
            yield {1: one, 2: two}
    except ClusterUnavailable:  # pragma: no cover - the extra is part of [dev]
        pytest.skip("dask.distributed is not installed")


def test_one_and_two_workers_give_the_same_order(clusters: dict[int, Any]) -> None:
    n = 20_000
    want = _file_order(n, "workers")
    for workers, client in clusters.items():
        bag = db.from_sequence(range(n), npartitions=6)
        got = client.compute(shuffle(bag, seed="workers", npartitions=8)).result()
        assert got == want, workers
    # unseeded: exactly uniform, not reproducible, the same elements
    unseeded = clusters[2].compute(shuffle(db.from_sequence(range(n), npartitions=6))).result()
    assert sorted(unseeded) == list(range(n)) and unseeded != want
