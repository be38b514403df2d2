"""Benchmark: secure bridge deals against endplay and pydealer, and the bits each method uses.

Measures in one run:

* bits: the optimal method one-shot (a fresh sampler per deal: target at most
  log2 M + 2 on average) and with recycling (one sampler for the whole run:
  target within 0.05 bit of log2 M = 95.44), plus the mean of every method;
* speed: croupier's secure deals (OS CSPRNG, pure Python, default method) per
  second, against ``endplay.dealer.generate_deals`` and pydealer's
  shuffle-and-deal (a fresh ``Deck``, ``shuffle()``, four ``deal(13)``), with
  the ratios (targets: 5x endplay, 3x pydealer; stretch: 100,000 deals/s).

endplay and pydealer are optional: a missing one is reported and skipped
(``.venv/bin/pip install pydealer``).

Run: ``.venv/bin/python bench/bench_deal.py [--deals N] [--bits-deals N]``
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

from croupier.dealing import deal_many, make_layout
from croupier.dealing.methods import method_names
from croupier.randomness import OsRandomSource, SeededSource, UniformSampler


def _rate(run: Callable[[int], None], count: int, repeats: int = 3) -> float:
    """Best-of-``repeats`` items per second of ``run(count)``."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        run(count)
        best = max(best, count / (time.perf_counter() - start))
    return best


def bits_report(count: int) -> None:
    """Print the bits the methods use on bridge deals."""
    layout = make_layout("bridge")
    log2m = math.log2(layout.count)
    print(f"bridge: log2 M = {log2m:.4f} bits, log2 52! = {math.lgamma(53) / math.log(2):.4f}")

    src = SeededSource("bench-deal", "one-shot")
    total = 0.0
    for _ in range(count):
        total += next(deal_many(layout, 1, sampler=UniformSampler(src))).bits_used
    one_shot = total / count
    print(
        f"optimal one-shot: {one_shot:.3f} bits/deal over {count} deals "
        f"(log2 M + {one_shot - log2m:.3f}; target <= +2)"
    )

    src = SeededSource("bench-deal", "recycled")
    sampler = UniformSampler(src, margin_bits=32)
    for _ in deal_many(layout, count, sampler=sampler):
        pass
    recycled = src.bits_used / count
    net = (src.bits_used - sampler.leftover_bits) / count
    print(
        f"optimal recycled: {recycled:.4f} bits/deal over {count} deals "
        f"(log2 M + {recycled - log2m:.4f}; net of the {sampler.leftover_bits:.1f} bits "
        f"still held: +{net - log2m:.4f}; target within 0.05)"
    )

    per_method = max(200, count // 20)
    for name in method_names():
        src = SeededSource("bench-deal", name)
        for _ in deal_many(layout, per_method, method=name, source=src):
            pass
        print(f"  method {name:<13} {src.bits_used / per_method:8.2f} bits/deal (recycled)")


def speed_report(count: int) -> None:
    """Print deals per second for croupier, endplay and pydealer, and the ratios."""
    layout = make_layout("bridge")

    def croupier_secure(n: int) -> None:
        for _ in deal_many(layout, n, source=OsRandomSource()):
            pass

    def croupier_secure_cards(n: int) -> None:
        for d in deal_many(layout, n, source=OsRandomSource()):
            d.piles  # noqa: B018 - build the card tuples of every pile

    croupier_secure(2000)  # warm the look-up tables
    ours = _rate(croupier_secure, count)
    print(f"croupier (secure, OS CSPRNG): {ours:10,.0f} deals/s (stretch target 100,000)")
    with_cards = _rate(croupier_secure_cards, count)
    print(
        f"  ... reading every pile:      {with_cards:10,.0f} deals/s (each Deal keeps its piles "
        "as masks and builds the card tuples on first read)"
    )

    try:
        from endplay.dealer import generate_deals
    except ImportError:
        print("endplay: not installed, skipped")
    else:

        def endplay_deals(n: int) -> None:
            for _ in generate_deals(produce=n):
                pass

        theirs = _rate(endplay_deals, count)
        print(
            f"endplay generate_deals:       {theirs:10,.0f} deals/s  ->  croupier is "
            f"{ours / theirs:.2f}x (target 5x; {with_cards / theirs:.2f}x reading every pile)"
        )

    try:
        import pydealer
    except ImportError:
        print("pydealer: not installed, skipped (.venv/bin/pip install pydealer)")
    else:

        def pydealer_deals(n: int) -> None:
            for _ in range(n):
                deck = pydealer.Deck()
                deck.shuffle()
                for _ in range(4):
                    deck.deal(13)

        small = max(1000, count // 10)
        theirs = _rate(pydealer_deals, small)
        print(
            f"pydealer shuffle-and-deal:    {theirs:10,.0f} deals/s  ->  croupier is "
            f"{ours / theirs:.2f}x (target 3x; {with_cards / theirs:.2f}x reading every pile)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000, help="deals per speed run")
    parser.add_argument("--bits-deals", type=int, default=10_000, help="deals for the bits")
    args = parser.parse_args()
    bits_report(args.bits_deals)
    speed_report(args.deals)


if __name__ == "__main__":
    main()
