"""Benchmark: ``croupier shuffle --file`` against GNU ``shuf``, and the Dask shuffle against Dask's.

Files (each program a child process, its wall time and peak resident memory
from ``os.wait4``; rounds interleaved, medians printed, ratios in the same run):

* in memory: a file of random text lines (``--size``, default 100M), shuffled
  by ``shuf FILE > OUT`` and ``croupier shuffle --file FILE > OUT``, and with
  ``-o OUT`` (croupier's ``-o`` writes atomically and syncs the file);
* out of core: a larger file (``--big``, default 1G) with ``--memory`` a tenth
  of it (``--big-memory``, default 100M) against ``shuf`` (which holds it all);
* bits per record (croupier's note) against ``log2(n!)/n``, the minimum.

Dask (``--dask``): ``croupier.scale.shuffle`` of a DataFrame against Dask's own
``DataFrame.shuffle`` on a column of random numbers (not exactly uniform), the
same partitions, on a local cluster of two workers, each forced to compute.

croupier runs as an installed program does, with its byte code cached (an untimed
first run writes the cache; ``PYTHONDONTWRITEBYTECODE`` is removed).

Speed ratios are the alternative's time over croupier's (above 1: croupier is
faster); memory ratios croupier's peak over the alternative's.

Run: ``.venv/bin/python bench/bench_file_shuffle.py [--size 100M] [--big 1G] [--rounds 3]``
and ``.venv/bin/python bench/bench_file_shuffle.py --dask [--rows 2000000]``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_external_shuffle import make_lines
from croupier.scale.workspace import parse_size

SHUF = "/usr/bin/shuf"


def timed(
    command: list[str], stdout: Path | None, env: dict[str, str] | None = None
) -> tuple[float, int, str]:
    """Run ``command`` (standard output to ``stdout``): seconds, peak RSS bytes, stderr.

    The peak is the command's own, measured by GNU ``time`` (a child forked from this
    process would count this process's memory too).
    """
    with open(stdout or os.devnull, "wb") as out:
        start = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "peak-kb %M", *command], stdout=out, stderr=subprocess.PIPE,
            check=False, env=env,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
    err = done.stderr.decode()
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{err}")
    lines = err.rstrip("\n").splitlines()
    peak = int(lines[-1].split()[-1]) * 1024
    return elapsed, peak, "\n".join(lines[:-1])


def _bits(note: str) -> float:
    match = re.search(r"bits used: ([0-9,]+)", note)
    return float(match.group(1).replace(",", "")) if match else math.nan


def files(args: argparse.Namespace) -> None:
    """The file benchmarks: in memory and out of core, against shuf."""
    folder = Path(tempfile.mkdtemp(prefix="bench-fileshuffle-", dir=args.dir))
    croupier = [sys.executable, "-m", "croupier", "shuffle", "--file"]
    # as installed: byte code cached (a first run, untimed, writes the cache)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    try:
        (folder / "warm.txt").write_bytes(b"a\nb\n")
        timed([*croupier, str(folder / "warm.txt")], None, env)
        small, big = folder / "small.txt", folder / "big.txt"
        n_small = make_lines(small, parse_size(args.size))
        n_big = make_lines(big, parse_size(args.big)) if args.big != "0" else 0
        out = folder / "out.txt"
        runs: dict[str, tuple[list[str], Path | None]] = {
            "shuf > out": ([SHUF, str(small)], out),
            "croupier > out": ([*croupier, str(small)], out),
            "shuf -o out": ([SHUF, str(small), "-o", str(out)], None),
            "croupier -o out": ([*croupier, str(small), "-o", str(out), "--overwrite"], None),
        }
        if n_big:
            runs["shuf big > out"] = ([SHUF, str(big)], out)
            runs[f"croupier big --memory {args.big_memory} > out"] = (
                [*croupier, str(big), "--memory", args.big_memory],
                out,
            )
        times: dict[str, list[float]] = {name: [] for name in runs}
        peaks: dict[str, list[int]] = {name: [] for name in runs}
        notes: dict[str, str] = {}
        for _ in range(args.rounds):
            for name, (command, stdout) in runs.items():
                seconds, peak, err = timed(command, stdout, env)
                times[name].append(seconds)
                peaks[name].append(peak)
                notes[name] = err
                out.unlink(missing_ok=True)
        print(
            f"small: {parse_size(args.size) / 2**20:,.0f} MiB, {n_small:,} lines; "
            f"big: {parse_size(args.big) / 2**20:,.0f} MiB, {n_big:,} lines; "
            f"{args.rounds} rounds (medians; min..max)"
        )
        print(f"{'run':<36} {'seconds':>16} {'peak RSS':>10}")
        for name in runs:
            t = times[name]
            print(
                f"{name:<36} {statistics.median(t):7.2f} ({min(t):.2f}..{max(t):.2f}) "
                f"{statistics.median(peaks[name]) / 2**20:8.0f}MB"
            )

        def ratio(a: str, b: str) -> str:
            speed = statistics.median(times[a]) / statistics.median(times[b])
            memory = statistics.median(peaks[b]) / statistics.median(peaks[a])
            each = sorted(x / y for x, y in zip(times[a], times[b], strict=True))
            return (
                f"speed {speed:.2f}x (rounds {each[0]:.2f}..{each[-1]:.2f}), "
                f"memory {memory:.2f}x of {a.split()[0]}'s"
            )

        print(f"in memory, > out:  croupier vs shuf: {ratio('shuf > out', 'croupier > out')}")
        print(f"in memory, -o out: croupier vs shuf: {ratio('shuf -o out', 'croupier -o out')}")
        if n_big:
            name = f"croupier big --memory {args.big_memory} > out"
            print(f"out of core:       croupier vs shuf: {ratio('shuf big > out', name)}")
            seconds = statistics.median(times[name])
            print(f"  croupier out of core: {parse_size(args.big) / 2**20 / seconds:.0f} MB/s")
        for name, n in (
            ("croupier > out", n_small),
            (f"croupier big --memory {args.big_memory} > out", n_big),
        ):
            if name in notes and n:
                bound = math.lgamma(n + 1) / math.log(2) / n
                print(
                    f"bits per record ({name.split(' >')[0]}): {_bits(notes[name]) / n:.2f} "
                    f"against log2(n!)/n = {bound:.2f} (+{_bits(notes[name]) / n - bound:.2f}); "
                    "shuf reads 64 per line"
                )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def dask_bench(args: argparse.Namespace) -> None:
    """croupier.scale.shuffle against DataFrame.shuffle on a random column."""
    import dask.dataframe as dd
    import numpy as np
    import pandas as pd

    from croupier.cluster import open_client
    from croupier.scale import shuffle

    n, parts = args.rows, args.partitions
    frame = pd.DataFrame({"x": np.arange(n), "y": np.arange(n) * 0.5})
    data = dd.from_pandas(frame, npartitions=parts)

    def theirs() -> object:
        def add_random(part: pd.DataFrame) -> pd.DataFrame:
            return part.assign(r=np.random.default_rng().random(len(part)))

        return data.map_partitions(add_random).shuffle(on="r", npartitions=parts)

    def ours() -> object:
        return shuffle(data, npartitions=parts)

    times: dict[str, list[float]] = {
        "dask shuffle(on=random column)": [],
        "croupier.scale.shuffle": [],
    }
    with open_client(workers=2) as client:
        for _ in range(args.rounds):
            for name, make in (
                ("dask shuffle(on=random column)", theirs),
                ("croupier.scale.shuffle", ours),
            ):
                start = time.perf_counter()
                result = client.persist(make())
                client.compute(result.map_partitions(len)).result()
                times[name].append(time.perf_counter() - start)
                del result
    print(f"Dask: {n:,} rows, {parts} partitions, local cluster of 2 workers, {args.rounds} rounds")
    for name, t in times.items():
        print(f"{name:<34} {statistics.median(t):7.2f} s ({min(t):.2f}..{max(t):.2f})")
    a = statistics.median(times["dask shuffle(on=random column)"])
    b = statistics.median(times["croupier.scale.shuffle"])
    print(f"croupier vs Dask's shuffle on a random column: speed {a / b:.2f}x")


def main() -> None:
    """Run the benchmarks asked for and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", default="100M", help="the in-memory file (100M)")
    parser.add_argument("--big", default="1G", help="the out-of-core file (1G; 0: none)")
    parser.add_argument("--big-memory", default="100M", help="--memory of the big run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=None, help="folder for the files (default: temp)")
    parser.add_argument("--dask", action="store_true", help="the Dask benchmark instead")
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--partitions", type=int, default=16)
    args = parser.parse_args()
    if args.dask:
        dask_bench(args)
    else:
        files(args)


if __name__ == "__main__":
    main()
