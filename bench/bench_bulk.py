"""Benchmark: bulk dealing (``croupier-bulk/1``) against numpy and the C program ``dealer``.

Measures in one run, each target of the bulk-dealing work against its named
alternative on the same machine:

a. generation into arrays, bridge: deals/s of ``croupier.deal_array("bridge", n)``
   for n = 10**6 (the compiled core on two cores: the call's groups of deals
   shared by two threads), and of ``BulkDealer.deal`` on one thread, against
   numpy's ``Generator.permuted`` on an ``(n, 52)`` int8 array measured in the
   same run (only the ``permuted`` call is timed, in place); the speed ratio;
   random bits per deal (ours: ``bits_used / deals``; numpy's: the 64-bit words
   its bit generator gave, measured with SFC64, whose state counts them, times
   64 — a 32-bit draw takes half a word); and whether the compiled core deals
   what the plain-Python specification (``engine="python"``) deals;
b. generation plus a vectorised filter (North 15-17 HCP and balanced: any
   4333, 4432 or 5332), the matching deals written as ``printoneline`` lines,
   against ``dealer`` with ``generate N``, the same ``condition`` and
   ``action printoneline`` (skipped with a message where dealer is missing);
c. the command line, start-up included: ``croupier deal --count 1000000
   --format oneline > /dev/null`` against ``dealer`` with ``produce 1000000``
   and ``action printoneline`` (wall time of each process);
d. memory: the peak resident memory of ``croupier deal --count N --format
   oneline --out FILE`` (N = 10**8, or 10**6 with ``--quick``), read with
   ``getrusage(RUSAGE_CHILDREN)`` in a fresh helper process.

Speeds are the best of several runs (seven for a, three for the others).  The
machine may be shared, so numbers are noisy; the ratios, measured in the same
run, are what the targets are about.

Run: ``.venv/bin/python bench/bench_bulk.py [--quick]``
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import croupier
from croupier._core import bulk_kernels
from croupier.bulk import BulkDealer, DealArray
from croupier.bulk.generate import PARALLEL_FROM
from croupier.bulk.writers import oneline_bytes
from croupier.dealing import make_layout

DEALER = "/usr/games/dealer"
CONDITION = "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)"
BALANCED = "any 4333 + any 4432 + any 5332"
CLI_DEALS = 1_000_000
RSS_TARGET_MB = 500
ARRAY_DEALS = 1_000_000
"""The deals of one ``deal_array`` call in part a (the target is stated for 10**6)."""
RATE_TARGET = 10_000_000


@dataclass
class Target:
    """One line of the final table: what was measured against what, and the verdict."""

    name: str
    measured: str
    target: str
    ok: bool | None  # None: not measured (a tool is missing)


def _best(run: Callable[[], None], repeats: int = 3) -> float:
    """Best-of-``repeats`` wall time of ``run()`` in seconds."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _dealer_path() -> str | None:
    return DEALER if os.access(DEALER, os.X_OK) else shutil.which("dealer")


def _croupier_command() -> list[str]:
    """The installed ``croupier`` script next to this Python, else ``python -m croupier``."""
    script = Path(sys.executable).with_name("croupier")
    return [str(script)] if script.exists() else [sys.executable, "-m", "croupier"]


# -- a. generation --------------------------------------------------------------------------


def numpy_bits_per_row(n: int) -> float:
    """Random bits numpy's ``permuted`` draws per row of ``(n, 52)``, measured with SFC64.

    SFC64's state counts the 64-bit words it has produced; a 32-bit draw uses
    half a word and keeps the other half for the next one.
    """
    gen = np.random.Generator(np.random.SFC64(2024))
    rows = np.tile(np.arange(52, dtype=np.int8), (n, 1))
    before = gen.bit_generator.state
    gen.permuted(rows, axis=1, out=rows)
    after = gen.bit_generator.state
    words = int(after["state"]["state"][3]) - int(before["state"]["state"][3])
    halves = int(before["has_uint32"]) - int(after["has_uint32"])  # buffered half used/left
    return (64 * words + 32 * halves) / n


def generation(n: int, targets: list[Target]) -> None:
    """Part a: deals per second into arrays, bits per deal, against numpy's shuffle."""
    layout = make_layout("bridge")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"a. generation into arrays, bridge, {n:,} deals per call (best of 7; {cores} cores, "
        f"compiled walk level {bulk_kernels.LEVEL})"
    )
    croupier.deal_array("bridge", 5000, seed="warm")  # imports and tables
    if n < PARALLEL_FROM:
        print(f"   ({n:,} deals are fewer than PARALLEL_FROM = {PARALLEL_FROM:,}: one thread)")

    def ours() -> None:
        croupier.deal_array("bridge", n, seed="bench")

    rate = n / _best(ours, 7)

    def one_thread() -> None:
        BulkDealer(layout, seed="bench", threads=1).deal(n)

    single = n / _best(one_thread, 7)
    dealt = croupier.deal_array("bridge", n, seed="bench")
    assert dealt.bits is not None
    bits = float(dealt.bits.mean(dtype=np.float64))
    print(f"   croupier.deal_array (two threads): {rate:12,.0f} deals/s, {bits:.2f} bits/deal")
    print(f"   BulkDealer.deal, threads=1:        {single:12,.0f} deals/s")
    gen = np.random.default_rng(7)
    rows = np.tile(np.arange(52, dtype=np.int8), (n, 1))

    def theirs() -> None:
        gen.permuted(rows, axis=1, out=rows)

    numpy_rate = n / _best(theirs, 7)
    numpy_bits = numpy_bits_per_row(min(n, 100_000))
    print(
        f"   numpy Generator.permuted (n, 52) int8: {numpy_rate:12,.0f} deals/s, "
        f"{numpy_bits:.0f} bits/row (64-bit words drawn x 64, SFC64)"
    )
    log2m = math.log2(layout.count)
    ratio = rate / numpy_rate
    print(f"   croupier / numpy permuted: {ratio:.2f}x; log2 M = {log2m:.2f} bits")
    sample = BulkDealer(layout, seed="bench", engine="python").rows(n - 4200, n)
    same = sample == dealt[n - 4200 :]
    print(f"   the last 4,200 deals equal the plain-Python rule's: {same}")
    targets.append(
        Target(
            "a. deals/s into arrays, two cores",
            f"{rate:,.0f}",
            f">= {RATE_TARGET:,}",
            rate >= RATE_TARGET,
        )
    )
    targets.append(Target("a. vs numpy permuted", f"{ratio:.2f}x", ">= 3.5x", ratio >= 3.5))
    targets.append(
        Target(
            "a. random bits per deal",
            f"{bits:.2f} (numpy {numpy_bits:.0f})",
            f"<= 128 (log2 M = {log2m:.2f})",
            bits <= 128,
        )
    )
    targets.append(Target("a. compiled = plain Python", str(same), "identical", same))


# -- b. generation and a filter ---------------------------------------------------------------


def _north_opener(deals: DealArray) -> np.ndarray:
    """The rows where North has 15-17 HCP and a balanced hand (vectorised)."""
    from croupier.bulk.evaluate import Holdings, hcp, shape

    held = Holdings(deals)
    points = hcp(held, "N")
    mask: np.ndarray = (points >= 15) & (points <= 17) & shape(held, "N", BALANCED)
    return mask


def filtered(n: int, targets: list[Target]) -> None:
    """Part b: deal, filter by HCP and shape, print the matches, against dealer."""

    layout = make_layout("bridge")
    print(f"b. generation + filter (North 15-17 HCP, balanced) over {n:,} deals")
    found = 0

    def ours() -> None:
        nonlocal found
        found = 0
        dealer = BulkDealer(layout, seed="filter")
        for batch in dealer.batches(n, 65_536):
            mask = _north_opener(batch)
            found += int(mask.sum())
            oneline_bytes(batch[mask])

    _north_opener(BulkDealer(layout, seed="warm").deal(1000))
    mine = _best(ours)
    print(f"   croupier: {n / mine:12,.0f} deals/s, {found / n:.4%} match")
    path = _dealer_path()
    if path is None:
        print("   dealer: not installed (Debian package 'dealer'), skipped")
        targets.append(Target("b. filter vs dealer", "dealer missing", ">= 2x", None))
        return
    script = f"generate {n}\nproduce {n}\ncondition {CONDITION}\naction printoneline\n"
    matches = 0

    def theirs() -> None:
        nonlocal matches
        done = subprocess.run(
            [path, "-s", "1"], input=script, capture_output=True, text=True, check=True
        )
        matches = sum(1 for line in done.stdout.splitlines() if line.startswith("n "))

    their_time = _best(theirs)
    ratio = their_time / mine
    print(f"   dealer:   {n / their_time:12,.0f} deals/s, {matches / n:.4%} match")
    print(f"   croupier / dealer: {ratio:.2f}x")
    targets.append(Target("b. filter vs dealer", f"{ratio:.2f}x", ">= 2x", ratio >= 2))


# -- c. the command line ----------------------------------------------------------------------


def command_line(targets: list[Target]) -> None:
    """Part c: one million oneline deals to /dev/null, start-up included, against dealer."""
    print(f"c. command line, {CLI_DEALS:,} deals in printoneline layout to /dev/null")
    ours = [*_croupier_command(), "deal", "--count", str(CLI_DEALS), "--format", "oneline"]

    def run_ours() -> None:
        subprocess.run(ours, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    mine = _best(run_ours)
    print(f"   croupier deal --count {CLI_DEALS} --format oneline: {mine:.2f} s")
    path = _dealer_path()
    if path is None:
        print("   dealer: not installed, skipped")
        targets.append(Target("c. CLI vs dealer", "dealer missing", ">= 2x", None))
        return
    script = f"produce {CLI_DEALS}\naction printoneline\n"

    def run_theirs() -> None:
        subprocess.run([path], input=script, stdout=subprocess.DEVNULL, text=True, check=True)

    theirs = _best(run_theirs)
    ratio = theirs / mine
    print(f"   dealer produce {CLI_DEALS} / printoneline: {theirs:.2f} s; croupier {ratio:.2f}x")
    targets.append(Target("c. CLI vs dealer", f"{ratio:.2f}x", ">= 2x", ratio >= 2))


# -- d. memory ----------------------------------------------------------------------------------

_PEAK = """\
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def memory(n: int, targets: list[Target]) -> None:
    """Part d: peak resident memory of a long run written to a file."""
    print(f"d. memory: croupier deal --count {n:,} --format oneline --out FILE")
    with tempfile.TemporaryDirectory() as folder:
        need = n * 80
        free = shutil.disk_usage(folder).free
        if free < 2 * need:
            print(f"   skipped: the file needs {need / 1e9:.1f} GB, {free / 1e9:.1f} GB are free")
            targets.append(Target("d. peak RSS", "no disk space", "< 500 MB", None))
            return
        out = Path(folder) / "deals.txt"
        cmd = [*_croupier_command(), "deal", "-n", str(n), "-f", "oneline", "-o", str(out)]
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, *cmd], capture_output=True, text=True, check=True
        )
        took = time.perf_counter() - start
        peak_mb = int(done.stdout.strip()) / 1024  # ru_maxrss is in KiB on Linux
        size = out.stat().st_size
    print(f"   peak RSS {peak_mb:.0f} MB, {took:.1f} s, file {size / 1e6:,.0f} MB")
    targets.append(
        Target(
            f"d. peak RSS, {n:,} deals to a file",
            f"{peak_mb:.0f} MB",
            f"< {RSS_TARGET_MB} MB",
            peak_mb < RSS_TARGET_MB,
        )
    )


def report(targets: list[Target]) -> None:
    """Print the table of targets with PASS, FAIL or SKIP."""
    print()
    width = max(len(t.name) for t in targets)
    shown = max(len(t.measured) for t in targets)
    print(f"{'target':<{width}}  {'measured':<{shown}}  {'goal':<34}  verdict")
    for t in targets:
        verdict = "SKIP" if t.ok is None else ("PASS" if t.ok else "FAIL")
        print(f"{t.name:<{width}}  {t.measured:<{shown}}  {t.target:<34}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs of b to d")
    args = parser.parse_args()
    targets: list[Target] = []
    generation(ARRAY_DEALS, targets)
    filtered(1_000_000 if args.quick else 10_000_000, targets)
    command_line(targets)
    memory(10**6 if args.quick else 10**8, targets)
    report(targets)


if __name__ == "__main__":
    main()
