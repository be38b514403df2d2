"""Dealer-script simulations on a Dask cluster: chunks of rows, merged exactly in order.

A run's sampler numbers its rows (row ``i`` depends only on the stream's key
and ``i``), so chunk ``c`` -- rows ``c * C`` to ``(c + 1) * C - 1`` -- is an
independent, pure task: a worker samples those rows, applies the whole
condition (solving double dummy where ``tricks()`` asks), and returns the
deals that pass with their places in the chunk, the bits consumed, their
double-dummy tables when the actions need them, and the chunk's statistics
(an exact :class:`~croupier.simulate.stats.Report`).

:func:`chunk_batches` merges the chunks in chunk order into the
:class:`~croupier.simulate.run.RunBatch` sequence of the single-process run:
the first ``produce`` passing deals in row order (the last chunk cut at the
``produce``-th deal), at most ``generate`` rows.  So the deals, their order,
the counts, the bits and every statistic equal the single-process run of the
same script and seed, for any number of workers, any chunk size, any
scheduling order, and after a worker is lost (its chunks run again).
``docs/scale.md`` is the guide.

>>> from croupier.simulate.parse import parse_script
>>> default_chunk(parse_script("condition hcp(north) > 20"))
1048576
>>> default_chunk(parse_script("action average tricks(north, notrump)"))
32
"""

from __future__ import annotations

import hashlib
import io
import pickle
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

import croupier.bulk.evaluate as bulk
from croupier.bulk.array import DealArray
from croupier.cluster import chunk_count, in_order, open_client, task_slots
from croupier.simulate.ast import Script
from croupier.simulate.compile import Compiled, compile_expression, scales_of, solved_tricks
from croupier.simulate.double_dummy import TricksArray
from croupier.simulate.parse import parse_script
from croupier.simulate.run import (
    RunBatch,
    Simulation,
    SimulationError,
    SimulationResult,
    Strategy,
)
from croupier.simulate.stats import Report

__all__ = [
    "DEFAULT_CHUNK",
    "DEFAULT_DD_CHUNK",
    "ChunkBatch",
    "ChunkResult",
    "ChunkSpec",
    "chunk_batches",
    "default_chunk",
    "run_distributed",
    "simulate_chunk",
]

DEFAULT_CHUNK = 1 << 20
"""Rows per chunk of a script without double dummy: about a second of work per task."""

DEFAULT_DD_CHUNK = 32
"""Rows per chunk of a script that calls ``tricks()``: a solve costs about a quarter of a
second, so a chunk is seconds of work when most rows are solved."""

_WORKER_CACHE_SIZE = 4
_WORKER_CACHE: OrderedDict[str, tuple[Simulation, Compiled | None]] = OrderedDict()


def default_chunk(script: Script) -> int:
    """The default rows per chunk: :data:`DEFAULT_DD_CHUNK` with ``tricks()``, else
    :data:`DEFAULT_CHUNK` (the chunk size never changes the result, only the speed)."""
    return DEFAULT_DD_CHUNK if script.uses_double_dummy() else DEFAULT_CHUNK


def _actions_use_double_dummy(script: Script) -> bool:
    """Whether the actions (or a named expression) call ``tricks()``."""
    return replace(script, condition=None).uses_double_dummy()


@dataclass(frozen=True)
class ChunkSpec:
    """What every chunk task of one run needs: the script, the seed, the strategy.

    ``token`` names the run's tasks; ``cache`` its sampler (a worker builds
    it once per ``cache``: the same for every run of a seeded script, new for
    each run from the OS); ``tricks``: return the passing deals' double-dummy tables;
    ``statistics``: return the chunk's statistics.  Without a seed each
    worker process keys its own stream from the OS for the run.

    >>> spec = ChunkSpec.of(parse_script("condition hcp(north) > 20"), seed="s")
    >>> spec.tricks, spec.statistics, len(spec.token)
    (False, True, 32)
    """

    script: Script
    seed: str | bytes | None
    strategy: Strategy
    token: str
    cache: str
    tricks: bool
    statistics: bool
    swap: int = 0

    @classmethod
    def of(
        cls,
        script: Script,
        *,
        seed: str | bytes | None = None,
        strategy: Strategy = "auto",
        tricks: bool = False,
        statistics: bool = True,
        swap: int = 0,
    ) -> ChunkSpec:
        """The spec of a new run (a fresh token); ``tricks`` is forced on when the
        statistics call ``tricks()``."""
        needs = _actions_use_double_dummy(script)
        token = uuid.uuid4().hex
        cache = token
        if seed is not None:
            cache = hashlib.sha256(pickle.dumps((script, seed, strategy, swap))).hexdigest()
        return cls(script, seed, strategy, token, cache, tricks or needs, statistics, swap)


@dataclass(frozen=True)
class ChunkResult:
    """One chunk's outcome: the passing deals, where they were, bits, tables, statistics.

    ``rows`` are the passing deals' places in the chunk (``0`` is deal
    ``start`` of the run); ``bits_through[k]`` the bits consumed by the chunk's
    deals up to the ``k``-th passing one, ``total_bits`` by all of them
    (``None`` when the sampler does not count); ``stacked``: whether smart
    stacking dealt any of its rows.

    >>> spec = ChunkSpec.of(parse_script("condition spades(north) >= 5"), seed="r")
    >>> part = simulate_chunk(spec, 100, 300)
    >>> part.start, part.stop, len(part.rows) == len(part.piles), bool((part.rows < 200).all())
    (100, 300, True, True)
    """

    start: int
    stop: int
    piles: npt.NDArray[np.uint8]
    row_bits: npt.NDArray[np.uint32] | None
    rows: npt.NDArray[np.int64]
    bits_through: npt.NDArray[np.uint64] | None
    total_bits: int | None
    tricks: TricksArray | None
    report: Report | None
    stacked: bool = False


def _worker_simulation(spec: ChunkSpec) -> tuple[Simulation, Compiled | None]:
    """The run's simulation and compiled condition, built once per worker process."""
    found = _WORKER_CACHE.get(spec.cache)
    if found is not None:
        _WORKER_CACHE.move_to_end(spec.cache)
        return found
    simulation = Simulation(spec.script, seed=spec.seed, strategy=spec.strategy, swap=spec.swap)
    condition = None
    if simulation.condition is not None:
        condition = compile_expression(
            simulation.condition,
            spec.script.definitions,
            scales=scales_of(spec.script),
            filename=spec.script.filename,
        )
    _WORKER_CACHE[spec.cache] = (simulation, condition)
    while len(_WORKER_CACHE) > _WORKER_CACHE_SIZE:
        _WORKER_CACHE.popitem(last=False)
    return simulation, condition


def _statistics(
    script: Script,
    deals: DealArray,
    tricks: TricksArray | None,
    numbers: npt.NDArray[np.int64] | None = None,
    simulation: Simulation | None = None,
) -> Report:
    """The statistics of ``script``'s actions over ``deals`` (tables reused when given;
    ``rnd`` in an action draws with the deals' ``numbers`` from ``simulation``'s stream)."""
    from croupier.simulate.actions import ActionRunner

    draws = None if simulation is None else simulation.draws
    runner = ActionRunner(script.statistics_only(), io.StringIO(), draws=draws)
    if len(deals):
        runner.feed(deals, 1, tricks=tricks, numbers=numbers)
    return runner.report()


def simulate_chunk(spec: ChunkSpec, start: int, stop: int, row: int = 0) -> ChunkResult:
    """The task of one chunk: deals ``start`` .. ``stop - 1`` of the run looked at (the
    stacked ones from stacked row ``row`` on), the condition applied.

    Pure: the same spec and deals give the same result (with a seed).

    >>> spec = ChunkSpec.of(parse_script("condition hcp(north) >= 20"), seed="c")
    >>> part = simulate_chunk(spec, 0, 2000)
    >>> sim = Simulation(spec.script, seed="c")
    >>> whole = sim.run(produce=2000, generate=2000).deals
    >>> bool((part.piles == whole.piles).all()), len(part.rows) == len(whole)
    (True, True)
    """
    simulation, condition = _worker_simulation(spec)
    piece = simulation.trials(start, stop, row)
    dealt = piece.deals
    holdings = bulk.Holdings(dealt)
    if condition is None:
        passed = np.ones(len(dealt), np.bool_)
    elif condition.random:
        passed = condition(holdings, simulation.draws("condition", piece.numbers, len(dealt))) != 0
    else:
        passed = condition(holdings) != 0
    kept = np.flatnonzero(passed)
    deals = dealt[kept]
    tricks = solved_tricks(holdings, passed) if spec.tricks and kept.size else None
    if spec.tricks and tricks is None:
        tricks = np.zeros((0, 4, 5), np.int8)
    places = piece.numbers[kept] - start
    bits_through = total = None
    if piece.trial_bits is not None:
        through = np.cumsum(piece.trial_bits, dtype=np.uint64)
        bits_through = through[places]
        total = int(through[-1]) if len(through) else 0
    report = None
    if spec.statistics:
        report = _statistics(spec.script, deals, tricks, piece.numbers[kept], simulation)
    return ChunkResult(
        start,
        stop,
        np.ascontiguousarray(deals.piles),
        None if deals.bits is None else np.asarray(deals.bits, np.uint32),
        places.astype(np.int64),
        bits_through,
        total,
        tricks,
        report,
        piece.stacked and len(dealt) > 0,
    )


@dataclass(frozen=True)
class ChunkBatch:
    """A merged chunk: the run's batch, the deals' double-dummy tables, the statistics.

    ``report`` is ``None`` when the chunk was cut at the ``produce``-th deal
    (its statistics cover the whole chunk); :func:`run_distributed` then
    computes the cut part's.

    >>> from croupier.cluster import InlineClient
    >>> script = parse_script("produce 30\\ncondition hcp(north) >= 12")
    >>> spec = ChunkSpec.of(script, seed="b")
    >>> merged = list(chunk_batches(Simulation(script, seed="b"), spec, InlineClient(), chunk=50))
    >>> merged[-1].batch.produced, merged[-1].report is None or merged[-1].report.produced <= 30
    (30, True)
    """

    batch: RunBatch
    tricks: TricksArray | None
    report: Report | None


def chunk_batches(
    simulation: Simulation,
    spec: ChunkSpec,
    client: Any,
    *,
    produce: int | None = None,
    generate: int | None = None,
    chunk: int | None = None,
    window: int | None = None,
) -> Iterator[ChunkBatch]:
    """The run of ``simulation`` on the cluster of ``client``, merged in chunk order.

    ``simulation`` (built in this process from ``spec``'s script, seed and
    strategy) gives the limits; ``chunk`` is the rows per task (default
    :func:`default_chunk`); ``window`` the tasks submitted ahead (default:
    twice the cluster's threads, at least 4).  The batches are those of
    ``simulation.batches()`` cut at chunk boundaries.

    >>> from croupier.cluster import InlineClient
    >>> script = parse_script("generate 1000\\ncondition hcp(north) >= 20")
    >>> sim = Simulation(script, seed="g", strategy="rejection")
    >>> spec = ChunkSpec.of(script, seed="g", strategy="rejection")
    >>> [m.batch.generated for m in chunk_batches(sim, spec, InlineClient(), chunk=400)]
    [400, 800, 1000]
    """
    if chunk is None:
        chunk = default_chunk(spec.script)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise SimulationError(f"chunk={chunk!r} must be a number of rows of at least 1")
    produce, generate = simulation.limits(produce, generate)
    if produce == 0 or generate == 0:
        return
    ahead = max(4, 2 * task_slots(client)) if window is None else window
    produced = 0
    layout = simulation.layout
    stacked = False
    for result in in_order(
        client,
        simulate_chunk,
        _tasks(simulation, spec, generate, chunk),
        key=lambda c: f"croupier-chunk-{spec.token}-{c}",
        window=ahead,
    ):
        found = len(result.rows)
        keep, stop = found, result.stop
        bits = result.total_bits
        report = result.report
        if found >= produce - produced:
            keep = produce - produced
            stop = result.start + int(result.rows[keep - 1]) + 1
            if result.bits_through is not None:
                bits = int(result.bits_through[keep - 1])
            if keep < found:
                report = None
        row_bits = None if result.row_bits is None else result.row_bits[:keep]
        deals = DealArray(layout, result.piles[:keep], bits=row_bits, check=False)
        tricks = None if result.tricks is None else result.tricks[:keep]
        produced += keep
        stacked = stacked or result.stacked
        numbers = result.start + result.rows[:keep]
        yield ChunkBatch(
            RunBatch(deals, stop, produced, bits, numbers, stacked=stacked), tricks, report
        )
        if produced >= produce:
            return
    if _hopeless(simulation, generate):  # beyond the pilot no deal can pass: none is dealt
        empty = DealArray(layout, _empty(simulation), check=False)
        yield ChunkBatch(RunBatch(empty, generate, produced, 0, stacked=stacked), None, None)


def _hopeless(simulation: Simulation, generate: int) -> bool:
    """Whether the deals from the pilot on cannot pass (an empty stacked support)."""
    return generate > simulation.pilot and simulation.sampler.probability == 0


def _tasks(
    simulation: Simulation, spec: ChunkSpec, generate: int, chunk: int
) -> Iterator[tuple[ChunkSpec, int, int, int]]:
    """The chunk tasks: deals ``lo`` .. ``hi - 1`` and the first stacked row for them
    (the coordinator counts which deals of each chunk fall in the stacked support)."""
    row = 0
    for c in range(chunk_count(generate, chunk)):
        lo, hi = c * chunk, min(generate, (c + 1) * chunk)
        if hi > simulation.pilot and _hopeless(simulation, generate):
            return
        yield spec, lo, hi, row
        start = max(lo, simulation.pilot)
        if hi > start and simulation.sampler is not simulation.rejection:
            row += simulation.support.count(start, hi)


def run_distributed(
    script: str | Script,
    *,
    seed: str | bytes | None = None,
    produce: int | None = None,
    generate: int | None = None,
    strategy: Strategy = "auto",
    client: Any = None,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
) -> SimulationResult:
    """:func:`~croupier.simulate.script_run.run_script` on a Dask cluster: the same result.

    Give one of ``client`` (a ``dask.distributed.Client``), ``workers`` (a
    local cluster of that many processes, started and stopped here) or
    ``scheduler`` (the address of a running cluster).  The deals, counts,
    bits and statistics equal the single-process run's; the statistics are
    the chunks' reports merged exactly (:meth:`Report.merge`).

    >>> from croupier.cluster import InlineClient
    >>> text = "produce 20\\ncondition hcp(north) >= 15\\naction average hcp(south)"
    >>> here = run_distributed(text, seed="d", client=InlineClient(), chunk=64)
    >>> from croupier.simulate.script_run import run_script
    >>> alone = run_script(text, seed="d")
    >>> here.deals == alone.deals, here.report == alone.report, here.generated == alone.generated
    (True, True, True)
    """
    parsed = parse_script(script) if isinstance(script, str) else script
    simulation = Simulation(parsed, seed=seed, strategy=strategy)
    spec = ChunkSpec.of(parsed, seed=seed, strategy=strategy)
    parts: list[DealArray] = []
    numbers: list[npt.NDArray[np.int64]] = []
    generated = produced = 0
    stacked = False
    bits: int | None = 0
    report = _statistics(parsed, DealArray(simulation.layout, _empty(simulation)), None)
    with open_client(workers=workers, scheduler=scheduler, client=client) as active:
        for merged in chunk_batches(
            simulation, spec, active, produce=produce, generate=generate, chunk=chunk
        ):
            part = merged.batch
            parts.append(part.deals)
            numbers.append(part.numbers)
            generated, produced, stacked = part.generated, part.produced, part.stacked
            bits = None if bits is None or part.bits is None else bits + part.bits
            chunk_report = merged.report
            if chunk_report is None:
                chunk_report = _statistics(
                    parsed, part.deals, merged.tricks, part.numbers, simulation
                )
            report = report.merge(chunk_report)
    deals = (
        DealArray.concatenate(parts) if parts else DealArray(simulation.layout, _empty(simulation))
    )
    return SimulationResult(
        deals,
        generated,
        produced,
        simulation.strategy if stacked else "rejection",
        simulation.source,
        Fraction(1),
        bits,
        report,
        np.concatenate(numbers) if numbers else np.zeros(0, np.int64),
    )


def _empty(simulation: Simulation) -> npt.NDArray[np.uint8]:
    return np.zeros((0, len(simulation.layout.deck)), np.uint8)
