"""Benchmark: the former file shuffle (``--method keys``) against GNU ``shuf``, time and memory.

(``croupier-extshuffle/1``; the default file shuffle, ``croupier-keyed-split/1``, is
measured by ``bench/bench_file_shuffle.py``.)

Writes a file of random text lines (``--size``, default 64M), then shuffles it
in the same run with ``croupier shuffle --file F --out O`` (in memory, with
``--memory`` large enough), with ``--memory`` a tenth of the file (two passes
through temporary buckets) and with GNU ``shuf`` (which reads the whole file
into memory).  Each runs as a child process; its wall time and peak resident
memory (``resource.getrusage(RUSAGE_CHILDREN)`` for that child) are printed,
with the speed ratios against ``shuf``.

Targets: croupier at least half of ``shuf``'s speed where ``shuf`` fits in
memory, and a file ten times larger than ``--memory`` at disk-speed order.
The full run of the design is ``--size 2G --memory 200M``.

Run: ``.venv/bin/python bench/bench_external_shuffle.py [--size 64M] [--memory SIZE]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from croupier.scale.workspace import parse_size


def make_lines(path: Path, size: int, seed: int = 1) -> int:
    """Write ``size`` bytes of lines (random letters, 1 to 120 per line); the line count."""
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789 ", np.uint8)
    lines = 0
    with open(path, "wb") as out:
        left = size
        while left:
            n = min(left, 64 * 2**20)
            data = letters[rng.integers(0, letters.size, n)]
            ends = np.cumsum(rng.integers(2, 122, n // 2 + 1))
            ends = ends[ends <= n] - 1
            data[ends] = 10
            data[-1] = 10
            lines += int(ends.size) + int(ends.size == 0 or ends[-1] != n - 1)
            out.write(data.tobytes())
            left -= n
    return lines


def timed(command: list[str]) -> tuple[float, int]:
    """Run ``command``; its wall time in seconds and peak resident memory in bytes."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # child: run the command, report its own peak memory through the exit
        os.execvp(command[0], command)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return elapsed, int(usage.ru_maxrss) * 1024


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="64M", help="file size (64M, 2G, ...)")
    parser.add_argument("--memory", default=None, help="--memory of the out-of-core run")
    parser.add_argument("--dir", default=None, help="folder for the files (default: temp)")
    args = parser.parse_args()
    size = parse_size(args.size)
    memory = args.memory or f"{max(1, size // 10 // 2**20)}M"
    folder = Path(tempfile.mkdtemp(prefix="bench-extshuffle-", dir=args.dir))
    try:
        src = folder / "lines.txt"
        lines = make_lines(src, size)
        print(f"file: {size / 2**20:,.0f} MiB, {lines:,} lines, in {folder}")
        croupier = [
            sys.executable,
            "-m",
            "croupier",
            "shuffle",
            "--file",
            str(src),
            "--quiet",
            "--method",
            "keys",
        ]  # croupier-extshuffle/1 (bench_file_shuffle.py: the default)
        runs = {
            "shuf": ["/usr/bin/shuf", str(src), "-o", str(folder / "shuf.txt")],
            "croupier (in memory)": [*croupier, "--out", str(folder / "a.txt"),
                                     "--memory", f"{4 * size // 2**20 + 64}M"],
            f"croupier --memory {memory}": [*croupier, "--out", str(folder / "b.txt"),
                                            "--memory", memory],
        }  # fmt: skip
        results = {}
        for name, command in runs.items():
            results[name] = timed(command)
            for out in folder.glob("*.txt"):
                if out != src:
                    out.unlink()
        base = results["shuf"][0]
        print(f"{'program':<28} {'seconds':>8} {'MB/s':>8} {'peak RSS':>10} {'speed vs shuf':>14}")
        for name, (seconds, rss) in results.items():
            print(
                f"{name:<28} {seconds:8.2f} {size / 2**20 / seconds:8.1f} "
                f"{rss / 2**20:8.0f}MB {base / seconds:13.2f}x"
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _ = resource  # getrusage per child comes from os.wait4


if __name__ == "__main__":
    main()
