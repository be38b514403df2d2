"""Benchmark: croupier.poker against phevaluator, eval7 and treys, measured in the same run.

a. seven-card evaluations per second: ``evaluate_array`` on ``(n, 7)`` card
   numbers (numpy engine, and the compiled one of the optional extra ``fast``;
   one core) against phevaluator's C evaluator, eval7's Cython
   one and treys (pure Python), each called once per hand from Python (their
   way of use: none of them takes arrays); every value is checked against
   phevaluator's on the hands timed;
b. heads-up preflop exact equity, AsAh against KsKh: ``croupier.poker.equity``
   (every one of the 1,712,304 boards) against phevaluator and eval7
   enumerating the same boards (two evaluations per board, Python loop);
   the counts must agree;
c. with ``--full``: every one of the 133,784,560 seven-card hands, counted by
   category, against the textbook numbers.

Targets: 20,000,000 seven-card evaluations a second vectorised; heads-up
preflop exact in at most 2 s on one core.  Timings are best of ``--repeat``;
the machine may be shared, so ratios from the same run are what counts.

Run: ``.venv/bin/python bench/bench_poker.py [--n 2000000] [--repeat 3] [--full]``
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from importlib.util import find_spec
from math import comb

import numpy as np

from croupier.poker import Category, HandValue, equity, evaluate_array
from croupier.poker.equity import _colex
from croupier.poker.tables import tables

RANKS = "23456789TJQKA"
SUITS = "shdc"
TARGET_RATE = 20_000_000
TARGET_SECONDS = 2.0
SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def text(c: int) -> str:
    return RANKS[12 - c % 13] + SUITS[c // 13]


def phe_id(c: int) -> int:
    return 4 * (12 - c % 13) + (3 - c // 13)


def best_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def evaluations(n: int, repeat: int) -> list[tuple[str, float, bool]]:
    rng = np.random.default_rng(2026)
    hands = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)[:, :7]
    tables().nonflush(7)  # built once, outside the timing
    ours = best_time(lambda: evaluate_array(hands, engine="numpy"), repeat)
    values = evaluate_array(hands, engine="numpy")
    rows: list[tuple[str, float, bool]] = [("croupier evaluate_array (numpy)", n / ours, True)]
    if find_spec("numba"):
        evaluate_array(hands[:10], engine="compiled")  # numba's start-up, outside the timing
        took = best_time(lambda: evaluate_array(hands, engine="compiled"), repeat)
        same = np.array_equal(evaluate_array(hands, engine="compiled"), values)
        rows.append(("croupier evaluate_array (compiled)", n / took, same))
    sample = min(n, 300_000)
    if find_spec("phevaluator"):
        from phevaluator import _pheval  # type: ignore[import-untyped]

        ids = [[phe_id(c) for c in row] for row in hands[:sample].tolist()]
        f = _pheval.evaluate_7cards
        took = best_time(lambda: [f(*row) for row in ids], repeat)
        same = np.array_equal(7463 - np.array([f(*row) for row in ids]), values[:sample])
        rows.append(("phevaluator (C, per call)", sample / took, same))
    if find_spec("eval7"):
        import eval7  # type: ignore[import-untyped]

        deck = [eval7.Card(text(c)) for c in range(52)]
        cards = [[deck[c] for c in row] for row in hands[:sample].tolist()]
        took = best_time(lambda: [eval7.evaluate(row) for row in cards], repeat)
        theirs = np.array([eval7.evaluate(row) for row in cards])
        order = np.lexsort((theirs, values[:sample]))
        steps = np.diff(values[:sample][order].astype(np.int64)), np.diff(theirs[order])
        same = bool((steps[1] >= 0).all() and np.array_equal(steps[0] > 0, steps[1] > 0))
        rows.append(("eval7 (Cython, per call)", sample / took, same))
    if find_spec("treys"):
        from treys import Card, Evaluator  # type: ignore[import-untyped]

        evaluator = Evaluator()
        small = min(n, 20_000)
        deck = [Card.new(text(c)) for c in range(52)]
        cards = [[deck[c] for c in row] for row in hands[:small].tolist()]
        took = best_time(lambda: [evaluator.evaluate(r[:2], r[2:]) for r in cards], 1)
        theirs = 7463 - np.array([evaluator.evaluate(r[:2], r[2:]) for r in cards])
        rows.append(("treys (pure Python)", small / took, np.array_equal(theirs, values[:small])))
    return rows


def preflop(repeat: int) -> list[tuple[str, float, bool]]:
    hero, villain = [0, 13], [1, 14]  # As Ah, Ks Kh (croupier card numbers)
    equity(["AsAh", "KsKh"], board="2c3c4c")  # tables built once, outside the timing
    ours = best_time(lambda: equity(["AsAh", "KsKh"]), repeat)
    result = equity(["AsAh", "KsKh"])
    expected = (result.hands[0].shares[0], result.hands[1].shares[0])
    rest = [c for c in range(52) if c not in hero + villain]
    rows = [("croupier equity (exact, numpy)", ours, True)]
    if find_spec("phevaluator"):
        from phevaluator import _pheval

        f = _pheval.evaluate_7cards
        a, k = [phe_id(c) for c in hero], [phe_id(c) for c in villain]
        ids = [phe_id(c) for c in rest]

        def run_phe() -> tuple[int, int]:
            won = lost = 0
            for board in itertools.combinations(ids, 5):
                x, y = f(*a, *board), f(*k, *board)
                won += x < y
                lost += y < x
            return won, lost

        start = time.perf_counter()
        counts = run_phe()
        rows.append(("phevaluator, same boards", time.perf_counter() - start, counts == expected))
    if find_spec("eval7"):
        import eval7

        deck = [eval7.Card(text(c)) for c in range(52)]
        mine, theirs = [deck[c] for c in hero], [deck[c] for c in villain]
        cards = [deck[c] for c in rest]

        def run_eval7() -> tuple[int, int]:
            won = lost = 0
            for board in itertools.combinations(cards, 5):
                b = list(board)
                x, y = eval7.evaluate(mine + b), eval7.evaluate(theirs + b)
                won += x > y
                lost += y > x
            return won, lost

        start = time.perf_counter()
        counts = run_eval7()
        rows.append(("eval7, same boards", time.perf_counter() - start, counts == expected))
    return rows


def full_count() -> bool:
    """Every seven-card hand by category: code sums of the 7-subsets, top card by top card."""
    t = tables()
    found = dict.fromkeys(Category, 0)
    codes, bits = t.card_code, t.card_bit
    start = time.perf_counter()
    for top in range(6, 52):
        total = _colex(codes[:top], 6) + codes[top]
        masks = _colex(bits[:top], 6) | bits[top]
        from croupier.poker.evaluate import values_from_codes

        values = values_from_codes(total, 7, masks=masks)
        edges = [c.first_value for c in Category] + [7463]
        counts = np.histogram(values, bins=edges)[0]
        for c, k in zip(Category, counts.tolist(), strict=True):
            found[c] += k
    took = time.perf_counter() - start
    ok = found == SEVEN_CARD_COUNTS and sum(found.values()) == comb(52, 7)
    print(f"c. all {comb(52, 7):,} seven-card hands in {took:.1f} s: categories {ok and 'match'}")
    for c in Category:
        print(f"   {c.label:<16} {found[c]:>12,}  (textbook {SEVEN_CARD_COUNTS[c]:,})")
    assert HandValue(7462).category is Category.STRAIGHT_FLUSH
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    ok = True

    print(f"a. seven-card evaluations per second ({args.n:,} random hands; best of {args.repeat})")
    rows = evaluations(args.n, args.repeat)
    ours = rows[0][1]
    for name, rate, same in rows:
        ratio = "" if name.startswith("croupier") else f"   numpy engine {ours / rate:6.1f}x faster"
        print(f"   {name:<34} {rate:>14,.0f}/s   agrees {same}{ratio}")
        ok &= same
    passed = ours >= TARGET_RATE
    print(f"   target {TARGET_RATE:,}/s vectorised: {'PASS' if passed else 'FAIL'}")
    ok &= passed

    print("b. heads-up preflop exact equity, AsAh vs KsKh, 1,712,304 boards")
    rows = preflop(args.repeat)
    ours = rows[0][1]
    for name, seconds, same in rows:
        ratio = "" if seconds == ours else f"   croupier is {seconds / ours:6.1f}x faster"
        print(f"   {name:<34} {seconds:>10.3f} s   agrees {same}{ratio}")
        ok &= same
    passed = ours <= TARGET_SECONDS
    print(f"   target at most {TARGET_SECONDS} s: {'PASS' if passed else 'FAIL'}")
    ok &= passed

    if args.full:
        ok &= full_count()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
