"""A dealer script run in one call (:func:`run_script`), in this process or on a Dask cluster.

The single-process run is :class:`~croupier.simulate.run.Simulation`'s; a cluster's
is :func:`croupier.simulate.distributed.run_distributed`, which builds the same
simulation on every worker and gives the same result.  This module sits above both,
so neither imports the other's caller.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from croupier.randomness.seeded import Seed, seed_value
from croupier.simulate.ast import Script
from croupier.simulate.run import (
    Simulation,
    SimulationError,
    SimulationResult,
    Strategy,
    parse_script,
    script_statistics,
)

__all__ = ["run_script"]


def run_script(
    script: str | Script,
    *,
    seed: Seed | None = None,
    produce: int | None = None,
    generate: int | None = None,
    strategy: Strategy = "auto",
    client: Any = None,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
) -> SimulationResult:
    """Run a dealer script (text or parsed) and return its produced deals, counts and statistics.

    ``produce`` and ``generate`` override the script's; without either,
    dealer's defaults apply (see :meth:`Simulation.limits`).  The script's
    ``average`` and ``frequency`` actions are computed over the produced deals
    into ``report`` (a :class:`~croupier.simulate.stats.Report`); its print
    actions are not run (see :class:`~croupier.simulate.actions.ActionRunner`).

    On a Dask cluster (extra ``cluster``): give ``client`` (a
    ``dask.distributed.Client``), ``workers`` (a local cluster of that many
    processes) or ``scheduler`` (a running cluster's address); ``chunk`` is the
    rows per task.  The result is the same as this process's, whatever the
    workers and the chunk size (:func:`croupier.simulate.distributed.run_distributed`).

    >>> r = run_script("generate 2000\\nproduce 3\\ncondition shape(north, 5xxx)", seed="x")
    >>> r.produced, bool((r.deals.suit_lengths()[:, 0, 0] == 5).all())
    (3, True)
    >>> text = "generate 5000\\ncondition hcp(north) >= 15\\naction average hcp(south)"
    >>> r = run_script(text, seed="x")
    >>> stat = r.report.results[0]
    >>> stat.count == r.produced, 6 < float(stat.mean) < 9
    (True, True)
    """
    if client is not None or workers is not None or scheduler is not None:
        from croupier.simulate.distributed import run_distributed

        return run_distributed(
            script,
            seed=seed_value(seed),
            produce=produce,
            generate=generate,
            strategy=strategy,
            client=client,
            workers=workers,
            scheduler=scheduler,
            chunk=chunk,
        )
    if chunk is not None:
        raise SimulationError(
            f"chunk={chunk!r} splits a run on a cluster; give client=, workers= or scheduler= too"
        )
    parsed = parse_script(script) if isinstance(script, str) else script
    simulation = Simulation(parsed, seed=seed, strategy=strategy)
    result = simulation.run(produce=produce, generate=generate)
    report = script_statistics(parsed, result.deals, result.numbers, simulation.draws)
    return replace(result, report=report)
