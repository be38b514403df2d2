"""An exactly uniform global shuffle of a Dask Bag or DataFrame (``croupier-keyed-split/1``).

Dask's own ``sample(frac=1)`` shuffles only inside each partition, and a
shuffle on a column of random numbers is not exactly uniform (ties, and
floats).  :func:`shuffle` puts the elements of the whole collection in the
order of the keyed split shuffle (:mod:`croupier.scale.keyed_split`), the same
order ``croupier shuffle --file`` gives ``n`` records under the same seed:

1. the partitions' lengths are counted (one pass), so element ``i`` (counting
   across the partitions, in order) is known by its number, and ``K`` is fixed;
2. every input partition gives each element its ``K``-bit key, a pure function
   of the stream key and ``i``, and splits its elements by the keys' top bits
   into the output partitions (each output partition holds whole leaves);
3. every output partition gathers its pieces in input order, sorts them
   stably by key and arranges each leaf from its own stream.

Every task is a pure function of the stream key and its inputs, so the result
is the same for any number of workers, any scheduling, and a lost worker's
tasks run again give the same pieces.  Without a seed the stream key comes from
the OS CSPRNG once, in this process, and travels with the task graph.

>>> import dask.bag as db
>>> bag = db.from_sequence(range(10), npartitions=3)
>>> shuffled = shuffle(bag, seed="doc")
>>> sorted(shuffled.compute()) == list(range(10))
True
>>> shuffled.compute() == shuffle(db.from_sequence(range(10), npartitions=1), seed="doc").compute()
True
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError, MissingExtraError
from croupier.randomness.options import resolve_source
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import Seed
from croupier.randomness.source import RandomSource
from croupier.scale.keyed_split import KeyedParams, KeyedStreams, LeafDraws, keyed_order

__all__ = ["SEED_PURPOSE", "shuffle"]

SEED_PURPOSE = Purpose.SHUFFLE_FILE
"""The ``croupier-seeded/1`` purpose of ``seed=``: the one of ``croupier shuffle --file``."""

MAX_PARTITION_BITS = 12
"""At most ``2**12`` output partitions."""


def _kind(collection: Any) -> str:
    """``"bag"`` or ``"dataframe"`` (Dask's classes, looked up without importing Dask here)."""
    module = type(collection).__module__
    name = type(collection).__name__
    if module.startswith("dask.bag") and name == "Bag":
        return "bag"
    if module.startswith(("dask.dataframe", "dask_expr")) and name == "DataFrame":
        return "dataframe"
    if module.startswith(("dask.dataframe", "dask_expr")) and name == "Series":
        return "dataframe"
    raise CroupierError(
        f"shuffle() takes a Dask Bag, DataFrame or Series, not {type(collection).__name__}"
    )


def _split(
    part: Any, offset: int, draws: LeafDraws, k: int, shift: int, targets: int, frame: bool
) -> list[tuple[npt.NDArray[np.uint64], Any]]:
    """One input partition: each element's key (by its number), and its pieces per target."""
    items: Any = part if frame else list(part)
    count = len(items)
    keys = draws.keys(offset, count, k)
    which = (keys >> np.uint64(shift)).astype(np.intp) if targets > 1 else np.zeros(count, np.intp)
    by_target = np.argsort(which, kind="stable")
    bounds = np.searchsorted(which[by_target], np.arange(targets + 1))
    pieces = []
    for j in range(targets):
        rows = by_target[bounds[j] : bounds[j + 1]]
        chosen = items.iloc[rows] if frame else [items[r] for r in rows.tolist()]
        pieces.append((keys[rows], chosen))
    return pieces


def _order(
    pieces: list[tuple[npt.NDArray[np.uint64], Any]],
    draws: LeafDraws,
    k: int,
    params: KeyedParams,
    frame: bool,
) -> Any:
    """One output partition: its pieces in input order, in the keyed split's order."""
    keys = (np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.uint64)).astype(
        np.uint64
    )
    order, _ = keyed_order(keys, k, draws, params)
    if frame:
        concat = importlib.import_module("pandas").concat
        whole = concat([p[1] for p in pieces]) if pieces else None
        return whole.iloc[order] if whole is not None else None
    from croupier.shuffling.take import take_in_order

    return take_in_order([x for p in pieces for x in p[1]], order)


def _piece(pieces: list[Any], j: int) -> Any:
    return pieces[j]


def shuffle(
    collection: Any,
    *,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    npartitions: int | None = None,
    draws: LeafDraws | None = None,
    params: KeyedParams | None = None,
) -> Any:
    """``collection`` (a Dask Bag, DataFrame or Series) in an exactly uniform global order.

    Lazy, like Dask's own methods: the result is a collection of the same kind
    (a DataFrame keeps its columns and index values, in the new order).  The
    partitions' lengths are counted at once (one pass over the input).
    ``seed=`` makes the order reproducible (the ``croupier-seeded/1`` stream
    with purpose ``shuffle-file``: the order ``croupier shuffle --file`` gives
    the same number of records); ``source=`` or ``entropy=`` give another random
    source or your own randomness (256 bits are read; at most one of the three:
    :func:`croupier.randomness.resolve_source`); ``npartitions=`` the number of output partitions
    (rounded down to a power of two; by default the input's, rounded up).
    Neither the partitions nor the workers change the order.  ``draws=`` and
    ``params=`` are for tests (other randomness, other parameters).

    See the module docstring for an example.
    """
    try:
        dask = importlib.import_module("dask")
    except ImportError as exc:  # pragma: no cover - dask is the extra "cluster"
        raise MissingExtraError(
            "shuffling a Dask collection needs dask: pip install 'croupier[cluster]'"
        ) from exc
    kind = _kind(collection)
    frame = kind == "dataframe"
    params = params or KeyedParams()
    random = resolve_source(seed, entropy, source, purpose=SEED_PURPOSE)  # (the one door)
    if draws is None:
        draws = KeyedStreams.from_source(random, params)
    if frame:
        lengths = [int(x) for x in collection.map_partitions(len).compute().tolist()]
    else:
        lengths = [int(x) for x in collection.map_partitions(lambda p: [len(list(p))]).compute()]
    n = sum(lengths)
    k = params.resolve(n)
    wanted = collection.npartitions if npartitions is None else npartitions
    if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
        raise CroupierError(
            f"npartitions={npartitions!r} is not a number of partitions (1 or more)"
        )
    bits = min(k, MAX_PARTITION_BITS, max(0, (wanted - 1).bit_length() if npartitions is None
                                          else wanted.bit_length() - 1))  # fmt: skip
    targets = 1 << bits
    shift = k - bits
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64).tolist()
    delayed = dask.delayed
    split = [
        delayed(_split, pure=True)(part, offset, draws, k, shift, targets, frame)
        for part, offset in zip(collection.to_delayed(), offsets, strict=True)
    ]
    ordered = [
        delayed(_order, pure=True)(
            [delayed(_piece, pure=True)(s, j) for s in split], draws, k, params, frame
        )
        for j in range(targets)
    ]
    if frame:
        frames = importlib.import_module("dask.dataframe")
        return frames.from_delayed(ordered, meta=collection._meta, verify_meta=False)
    return importlib.import_module("dask.bag").from_delayed(ordered)
