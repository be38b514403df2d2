"""Benchmark: shuffling arrays, lists and deals against numpy, the standard library and endplay.

Every target is printed as a ratio against its anchor measured in the same
run, interleaved (one round of each in turn), as the median of the rounds:

* arrays of int64 (``croupier.shuffle``, the split shuffle from the OS CSPRNG)
  against numpy's ``Generator.permutation`` (a copy) and ``Generator.shuffle``
  (in place) for n = 1e4 .. 1e8; ``croupier.permutation(n)`` against
  ``Generator.permutation(n)``.  Targets: at least 1x at 1e4 and 1e5, at
  least 2x from 1e6 on (aim 4x at 1e7);
* bits per element against ``log2(n!)/n`` (target: at most ``log2(n!)/n + 2``);
* peak resident memory of one shuffle, in a fresh process per case, as a
  multiple of the array's size (target: at most 2.25x, input included);
* lists: 52 items and 1e6 items against ``random.shuffle`` (targets: at
  least 1.5x at 52, at least 2x at 1e6);
* ``croupier.deal()`` in a loop against the ``croupier.deals`` iterator and
  endplay's ``generate_deals`` iterator (target: at least 100,000 deals/s).

Small arrays are timed over enough calls in a row to fill about a second's
work per round.  Everything runs in the compiled core of the default install.
Run: ``.venv/bin/python bench/bench_shuffle_arrays.py [--sizes 1e4,1e5,1e6,1e7,1e8] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

import croupier
from croupier.randomness import OsRandomSource


def _median_times(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Median seconds per call of each function, over ``rounds`` interleaved rounds."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def _median_rate(
    fns: dict[str, Callable[[int], object]], count: int, rounds: int
) -> dict[str, float]:
    """Median calls per second of each function run ``count`` times, interleaved."""
    rates: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(count)
            rates[name].append(count / (time.perf_counter() - start))
    return {name: statistics.median(r) for name, r in rates.items()}


def _log2_factorial(n: int) -> float:
    return math.lgamma(n + 1) / math.log(2)


_MEMORY_CASE = """
import sys, numpy as np
import croupier
def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])  # KiB
kind, n = sys.argv[1], int(sys.argv[2])
if kind.startswith("croupier"):  # warm the tables first (not counted)
    croupier.shuffle(np.arange(300_000, dtype=np.int64))
    croupier.shuffle_in_place(np.arange(300_000, dtype=np.int64))
a = np.arange(n, dtype=np.int64)
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak resident size to the current one
base = status("VmRSS:")
if kind == "croupier":
    b = croupier.shuffle(a)
elif kind == "croupier-in-place":
    croupier.shuffle_in_place(a)
elif kind == "numpy":
    b = np.random.default_rng().permutation(a)
else:
    np.random.default_rng().shuffle(a)
print(base, status("VmHWM:"))
"""


def memory_report(n: int) -> None:
    """Peak resident memory of one shuffle of ``n`` int64 (a fresh process per case, Linux)."""
    size_kib = 8 * n / 1024
    parts = []
    for kind in ("croupier", "numpy", "croupier-in-place", "numpy-in-place"):
        done = subprocess.run(
            [sys.executable, "-c", _MEMORY_CASE, kind, str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        base, peak = map(int, done.stdout.split())
        # KiB; the base already holds the input array
        parts.append(f"{kind} {(peak - base) / size_kib + 1:.2f}x")
    print(f"  peak memory, input included (array = {8 * n / 2**20:,.0f} MiB): " + ", ".join(parts))


def array_report(n: int, rounds: int, memory: bool) -> None:
    rng = np.random.default_rng()
    a = np.arange(n, dtype=np.int64)
    b = a.copy()
    c = a.copy()
    repeat = max(1, 10**6 // n)  # calls in a row per timing (small arrays)

    def calls(fn: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            for _ in range(repeat):
                fn()

        return run

    t = _median_times(
        {
            "croupier.shuffle": calls(lambda: croupier.shuffle(a)),
            "Generator.permutation": calls(lambda: rng.permutation(a)),
            "croupier.shuffle_in_place": calls(lambda: croupier.shuffle_in_place(b)),
            "Generator.shuffle": calls(lambda: rng.shuffle(c)),
            "croupier.permutation": calls(lambda: croupier.permutation(n)),
            "Generator.permutation(n)": calls(lambda: rng.permutation(n)),
        },
        rounds,
    )
    t = {name: seconds / repeat for name, seconds in t.items()}
    target = "target >= 1x" if n < 10**6 else "target >= 2x, aim 4x at 1e7"
    src = OsRandomSource()
    croupier.shuffle(a, source=src)
    bits = src.bits_used / n
    bound = _log2_factorial(n) / n
    print(f"n = {n:,} (int64, {rounds} rounds, medians)")
    for ours, theirs in (
        ("croupier.shuffle", "Generator.permutation"),
        ("croupier.shuffle_in_place", "Generator.shuffle"),
        ("croupier.permutation", "Generator.permutation(n)"),
    ):
        print(
            f"  {ours:<26} {t[ours] * 1e3:10.2f} ms   {theirs:<25} {t[theirs] * 1e3:10.2f} ms"
            f"   -> {t[theirs] / t[ours]:.2f}x ({target})"
        )
    print(
        f"  bits per element {bits:.3f}, log2(n!)/n = {bound:.3f}: +{bits - bound:.3f} "
        "(target <= +2; numpy reads 64 per element)"
    )
    if memory:
        memory_report(n)


def list_report(rounds: int) -> None:
    deck = list(range(52))
    count = 20_000

    def ours(k: int) -> None:
        for _ in range(k):
            croupier.shuffle(deck)

    def theirs(k: int) -> None:
        for _ in range(k):
            random.shuffle(deck)

    fns: dict[str, Callable[[int], object]] = {"croupier.shuffle": ours, "random.shuffle": theirs}
    r = _median_rate(fns, count, rounds)
    us = {name: 1e6 / rate for name, rate in r.items()}
    print(
        f"52 items: croupier.shuffle {us['croupier.shuffle']:.2f} us, random.shuffle "
        f"{us['random.shuffle']:.2f} us -> {us['random.shuffle'] / us['croupier.shuffle']:.2f}x "
        "(target >= 1.5x)"
    )
    items = list(range(1_000_000))
    t = _median_times(
        {
            "croupier.shuffle": lambda: croupier.shuffle(items),
            "random.shuffle": lambda: random.shuffle(items),
        },
        rounds,
    )
    print(
        f"1e6 items: croupier.shuffle {t['croupier.shuffle'] * 1e3:.1f} ms, random.shuffle "
        f"{t['random.shuffle'] * 1e3:.1f} ms -> "
        f"{t['random.shuffle'] / t['croupier.shuffle']:.2f}x (target >= 2x)"
    )


def deal_report(rounds: int) -> None:
    count = 20_000

    def loop(k: int) -> None:
        for _ in range(k):
            croupier.deal()

    def iterator(k: int) -> None:
        for _ in croupier.deals("bridge", k):
            pass

    fns: dict[str, Callable[[int], object]] = {"deal() loop": loop, "deals()": iterator}
    try:
        from endplay.dealer import generate_deal, generate_deals
    except ImportError:
        print("endplay: not installed, skipped")
        endplay = None
    else:

        def endplay_iterator(k: int) -> None:
            for _ in generate_deals(produce=k):
                pass

        fns["endplay generate_deals"] = endplay_iterator
        endplay = generate_deal
    loop(1000)
    r = _median_rate(fns, count, rounds)
    line = (
        f"deals/s: croupier.deal() in a loop {r['deal() loop']:,.0f} (target >= 100,000), "
        f"croupier.deals {r['deals()']:,.0f} ({r['deal() loop'] / r['deals()']:.2f}x of it)"
    )
    if "endplay generate_deals" in r:
        e = r["endplay generate_deals"]
        line += f", endplay generate_deals {e:,.0f} ({r['deal() loop'] / e:.2f}x)"
    print(line)
    if endplay is not None:  # endplay's one-deal call, in a loop (slow: a few calls only)
        start = time.perf_counter()
        for _ in range(50):
            endplay()
        print(f"  endplay generate_deal() in a loop: {50 / (time.perf_counter() - start):,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="1e4,1e5,1e6,1e7,1e8", help="array sizes, comma-separated"
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per case")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory runs")
    parser.add_argument("--only", choices=["arrays", "lists", "deals"], help="run one part")
    args = parser.parse_args()
    croupier.shuffle(np.arange(300_000))  # warm the caches and tables before timing
    croupier.shuffle_in_place(np.arange(300_000))
    if args.only in (None, "lists"):
        list_report(args.rounds)
    if args.only in (None, "deals"):
        deal_report(args.rounds)
    if args.only in (None, "arrays"):
        for size in args.sizes.split(","):
            n = int(float(size))
            rounds = args.rounds if n < 10**8 else max(3, args.rounds // 2)
            array_report(n, rounds, not args.no_memory)


if __name__ == "__main__":
    main()
