"""Benchmark: a secure 52-card shuffle against the standard library, with bits used.

Runs croupier's default secure shuffle (one exact draw below 52! from the OS
CSPRNG, decoded with the Lehmer code) and the standard library's shuffles in
the same process and prints times and ratios, plus the bits croupier used.

Targets: at least 2x faster than ``random.SystemRandom().shuffle``, no
slower than ``random.shuffle`` (Mersenne Twister, not secure), and under
1.02 x log2(52!) bits per shuffle.  It also measures the bit targets on
fixed seeds (reproducible): one-shot ``lehmer`` at most log2(52!) + 2 bits on
average, ``lehmer`` with recycling over 10,000 shuffles within 0.1 bit of
log2(52!), and Fisher–Yates with each draw on its own within about 1 bit per
card.

Run: ``.venv/bin/python bench/bench_shuffle.py [--rounds N]``
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

from croupier.randomness import OsRandomSource, SeededSource, UniformSampler
from croupier.shuffling import SHUFFLE_METHODS, fisher_yates, lehmer_shuffle

LOG2_52 = math.lgamma(53) / math.log(2)


def _time_all(fns: dict[str, Callable[[], object]], rounds: int, repeats: int) -> dict[str, float]:
    """Best mean seconds per call for each function, measured in interleaved batches.

    Interleaving (a batch of each in turn, ``repeats`` times) keeps the ratios
    fair when the machine's load changes during the run.
    """
    best = dict.fromkeys(fns, math.inf)
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(rounds):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / rounds)
    return best


def bit_targets() -> None:
    """Print the measured bit costs (seeded, so every run prints the same numbers)."""
    deck = list(range(52))
    source = SeededSource("one-shot bits")
    for _ in range(2000):
        lehmer_shuffle(deck, UniformSampler(source))  # a fresh sampler: nothing carried over
    one_shot = source.bits_used / 2000
    source = SeededSource("recycled bits")
    sampler = UniformSampler(source, margin_bits=32)
    for _ in range(10_000):
        lehmer_shuffle(deck, sampler)
    recycled = source.bits_used / 10_000  # includes the few bits still held at the end
    source = SeededSource("recycled fisher-yates")
    sampler = UniformSampler(source, margin_bits=32)
    for _ in range(10_000):
        fisher_yates(deck, sampler)
    recycled_fy = source.bits_used / 10_000
    source = SeededSource("per-step bits")
    per_step = UniformSampler(source, recycle=False)
    for _ in range(1000):
        fisher_yates(deck, per_step)
    extra = (source.bits_used / 1000 - LOG2_52) / 51
    print(f"bit targets (seeded; log2(52!) = {LOG2_52:.3f}):")
    print(
        f"  one-shot lehmer, 2000 shuffles:        {one_shot:8.3f}  "
        f"(+{one_shot - LOG2_52:.3f}; target <= +2)"
    )
    print(
        f"  lehmer with recycling, 10,000 shuffles: {recycled:8.3f}  "
        f"(+{recycled - LOG2_52:.4f}; target within 0.1)"
    )
    print(
        f"  fisher-yates with recycling, 10,000:    {recycled_fy:8.3f}  "
        f"(+{recycled_fy - LOG2_52:.4f})"
    )
    print(f"  fisher-yates, each draw on its own:     +{extra:.3f} bits per card (target about 1)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=25)
    args = parser.parse_args()
    rounds = args.rounds
    deck = list(range(52))

    os_source = OsRandomSource()
    sampler = UniformSampler(os_source)

    def croupier_secure() -> object:
        return lehmer_shuffle(deck, sampler)

    fresh_source = OsRandomSource()

    def croupier_secure_fresh() -> object:
        return lehmer_shuffle(deck, UniformSampler(fresh_source))

    system = random.SystemRandom()
    mt = random.Random(12345)

    def system_shuffle() -> object:
        d = deck[:]
        system.shuffle(d)
        return d

    def mt_shuffle() -> object:
        d = deck[:]
        mt.shuffle(d)
        return d

    fy_sampler = UniformSampler(OsRandomSource(), margin_bits=32)

    def croupier_fy() -> object:
        return fisher_yates(deck, fy_sampler)

    before = os_source.bits_used
    calls = 0

    def counted() -> object:
        nonlocal calls
        calls += 1
        return croupier_secure()

    times = _time_all(
        {
            "lehmer": counted,
            "fresh": croupier_secure_fresh,
            "fy": croupier_fy,
            "system": system_shuffle,
            "mt": mt_shuffle,
        },
        rounds // 5,
        args.repeats,
    )
    bits_per = (os_source.bits_used - before) / calls
    t_croupier, t_system, t_mt = times["lehmer"], times["system"], times["mt"]

    print(f"52-card shuffle, best of {args.repeats} interleaved batches of {rounds // 5}")
    print("(microseconds per shuffle)")
    print(f"  croupier lehmer, OS CSPRNG        {t_croupier * 1e6:8.2f}")
    print(f"  croupier lehmer, fresh sampler    {times['fresh'] * 1e6:8.2f}")
    print(f"  croupier fisher-yates, OS CSPRNG  {times['fy'] * 1e6:8.2f}")
    print(f"  random.SystemRandom().shuffle     {t_system * 1e6:8.2f}")
    print(f"  random.shuffle (Mersenne Twister) {t_mt * 1e6:8.2f}")
    print(f"speed-up vs SystemRandom().shuffle: {t_system / t_croupier:5.2f}x  (target >= 2)")
    print(f"speed-up vs random.shuffle:         {t_mt / t_croupier:5.2f}x  (target >= 1)")
    print(
        f"bits per shuffle: {bits_per:.3f} = {bits_per / LOG2_52:.4f} x log2(52!) "
        f"({LOG2_52:.3f}; target < 1.02)"
    )
    bit_targets()
    print("bits per 52-card shuffle by method (seeded, 1000 shuffles, fresh sampler each):")
    for name, method in SHUFFLE_METHODS.items():
        source = SeededSource("bench", purpose=name)
        for _ in range(1000):
            method(deck, UniformSampler(source))
        print(f"  {name:15s} {source.bits_used / 1000:9.2f}")


if __name__ == "__main__":
    main()
