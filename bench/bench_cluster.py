"""Dealer-script simulations on a Dask LocalCluster: 1 and 2 workers against one process.

Three measurements, each checked to give the single-process result:

* (a) a script without double dummy (a 15+ opener opposite a balanced hand,
  statistics only), ``generate`` rows: rows (generated deals) per second;
* (b) a script with ``tricks()`` (the NT tricks of a 26+ point partnership),
  ``produce`` deals: solved deals per second;
* the scheduler's cost per task: many chunks of a few rows of a trivial script.

The cluster's start-up (a few seconds: worker processes import croupier) is
measured apart and not counted in the rates; each cluster first runs a small
warm-up.  Prints a table of the figures measured in this run.

Run: .venv/bin/python bench/bench_cluster.py [--rows N] [--dd-deals N]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from croupier.cluster import open_client
from croupier.simulate.run import SimulationResult
from croupier.simulate.script_run import run_script

PLAIN = """\
generate {rows}
condition hcp(north) >= 15 && shape(south, any 4333 + any 4432 + any 5332)
action average "south" hcp(south), frequency "spades" (spades(north), 0, 8)
"""

DOUBLE_DUMMY = """\
produce {deals}
condition hcp(north) + hcp(south) >= 26
action average "nt" tricks(north, notrump)
"""

TINY = "generate {rows}\ncondition hcp(north) >= 30\naction average hcp(north)\n"


def timed(script: str, **options: Any) -> tuple[SimulationResult, float]:
    """The run's result and its wall-clock seconds."""
    began = time.perf_counter()
    result = run_script(script, seed="bench cluster", **options)
    return result, time.perf_counter() - began


def same(a: SimulationResult, b: SimulationResult) -> bool:
    """Whether two runs gave the same deals, counts and statistics."""
    return bool(
        a.deals == b.deals
        and (a.generated, a.produced, a.bits) == (b.generated, b.produced, b.bits)
        and a.report == b.report
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4_000_000, help="rows of script (a)")
    parser.add_argument("--dd-deals", type=int, default=24, help="deals of script (b)")
    args = parser.parse_args()
    plain = PLAIN.format(rows=args.rows)
    dd = DOUBLE_DUMMY.format(deals=args.dd_deals)

    base_plain, plain_s = timed(plain)
    base_dd, dd_s = timed(dd)
    print(f"{'run':<28}{'start s':>9}{'(a) rows/s':>14}{'(b) DD deals/s':>16}  identical")
    print(f"{'one process':<28}{'-':>9}{args.rows / plain_s:>14,.0f}{args.dd_deals / dd_s:>16.2f}")
    for workers in (1, 2):
        began = time.perf_counter()
        with open_client(workers=workers) as client:
            start_s = time.perf_counter() - began
            run_script(TINY.format(rows=10_000), seed="warm", client=client)
            on_plain, cluster_plain_s = timed(plain, client=client)
            on_dd, cluster_dd_s = timed(dd, client=client)
            ok = same(on_plain, base_plain) and same(on_dd, base_dd)
            print(
                f"{f'LocalCluster, {workers} worker(s)':<28}{start_s:>9.1f}"
                f"{args.rows / cluster_plain_s:>14,.0f}"
                f"{args.dd_deals / cluster_dd_s:>16.2f}  {ok}"
            )
            if workers == 2:
                tasks = 2000
                _, tiny_s = timed(TINY.format(rows=tasks * 16), client=client, chunk=16)
                _, alone_s = timed(TINY.format(rows=tasks * 16))
                per_task = (tiny_s - alone_s / 2) / tasks
                print(f"scheduler overhead: {1000 * per_task:.2f} ms per task ({tasks} tasks)")


if __name__ == "__main__":
    main()
