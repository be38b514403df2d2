"""Benchmark: croupier.poker against phevaluator, eval7 and treys, measured in the same run.

Every rate is printed with its ratio against an anchor measured in the same run,
interleaved (one round of each in turn), best of ``--repeat`` rounds (the machine
may be shared: ratios from the same run are what counts):

a. seven-card evaluations per second: ``evaluate_array`` on ``(n, 7)`` card
   numbers (the compiled kernel of ``croupier._core.poker_eval``, on the threads
   the process may use and on one), against the anchor, numpy adding up the card
   codes of the same hands in cache-sized chunks (the first pass of any table
   evaluator, and the first step of the numpy engine it replaces); against
   phevaluator's C evaluator, eval7's Cython one and treys (pure Python), each
   called once per hand from Python (their way of use: none of them takes
   arrays); and the plain-Python scalar evaluator (``engine="python"``, the
   specification) on a sample.  Every value is checked against phevaluator's
   and the specification's;
b. heads-up preflop exact equity, AsAh against KsKh: ``croupier.poker.equity``
   (every one of the 1,712,304 boards) against the anchor, numpy listing the
   boards' code sums alone (``_colex``), and against phevaluator and eval7
   enumerating the same boards (two evaluations per board, Python loop); the
   counts must agree;
c. with ``--full``: every one of the 133,784,560 seven-card hands, counted by
   category, against the textbook numbers.

Targets: 200,000,000 seven-card evaluations a second on two cores (10,000,000
random hands); heads-up preflop exact in at most 0.08 s.

Run: ``.venv/bin/python bench/bench_poker.py [--n 10000000] [--repeat 5] [--full]``
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from importlib.util import find_spec
from math import comb

import numpy as np

from croupier.poker import Category, HandValue, _threads, equity, evaluate_array
from croupier.poker.equity import _colex
from croupier.poker.evaluate import values_from_codes
from croupier.poker.tables import tables

RANKS = "23456789TJQKA"
SUITS = "shdc"
TARGET_RATE = 200_000_000
TARGET_SECONDS = 0.08
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


def best_times(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Best seconds of each function over ``repeat`` interleaved rounds."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: min(t) for name, t in times.items()}


def one_thread(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        most = _threads.MAX_THREADS
        _threads.MAX_THREADS = 1
        try:
            return fn()
        finally:
            _threads.MAX_THREADS = most

    return run


def random_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    step = 1_000_000
    parts = [
        rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (min(step, n - at), 1)), axis=1)[:, :7]
        for at in range(0, n, step)
    ]
    return np.ascontiguousarray(np.concatenate(parts))


def code_sums(hands: np.ndarray) -> np.ndarray:
    """The anchor: each hand's sum of card codes, by numpy in cache-sized chunks of rows
    (a pass over the hands that every table evaluator makes, and nothing more)."""
    code = tables().card_code
    out = np.empty(len(hands), np.uint64)
    for start in range(0, len(hands), 1 << 15):
        part = np.ascontiguousarray(hands[start : start + (1 << 15)].T)
        total = code[part[0]] + code[part[1]]
        for column in part[2:]:
            total += code[column]
        out[start : start + (1 << 15)] = total
    return out


def evaluations(n: int, repeat: int) -> list[tuple[str, float, bool]]:
    """``(name, evaluations a second, agrees)``, the anchor first."""
    hands = random_hands(n, 2026)
    values = evaluate_array(hands)  # the tables are built once, outside the timing
    timed = best_times(
        {
            "anchor": lambda: code_sums(hands),
            "compiled": lambda: evaluate_array(hands),
            "compiled, one thread": one_thread(lambda: evaluate_array(hands)),
        },
        repeat,
    )
    cores = min(_threads.cores(), _threads.MAX_THREADS)
    rows: list[tuple[str, float, bool]] = [
        ("anchor: numpy code sums", n / timed["anchor"], True),
        (f"croupier evaluate_array ({cores} threads)", n / timed["compiled"], True),
        ("croupier evaluate_array (1 thread)", n / timed["compiled, one thread"], True),
    ]
    small = min(n, 5000)
    took = best_time(lambda: evaluate_array(hands[:small], engine="python"), 1)
    same = np.array_equal(evaluate_array(hands[:small], engine="python"), values[:small])
    rows.append(("croupier engine='python' (spec)", small / took, same))
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
    code = tables().card_code[[c for c in range(52) if c not in hero + villain]]
    timed = best_times(
        {
            "anchor": lambda: _colex(code, 5),
            "croupier": lambda: equity(["AsAh", "KsKh"]),
            "one thread": one_thread(lambda: equity(["AsAh", "KsKh"])),
        },
        repeat,
    )
    result = equity(["AsAh", "KsKh"])
    expected = (result.hands[0].shares[0], result.hands[1].shares[0])
    rest = [c for c in range(52) if c not in hero + villain]
    cores = min(_threads.cores(), _threads.MAX_THREADS)
    rows = [
        ("anchor: numpy board code sums", timed["anchor"], True),
        (f"croupier equity (exact, {cores} threads)", timed["croupier"], True),
        ("croupier equity (exact, 1 thread)", timed["one thread"], True),
    ]
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
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    ok = True

    print(f"a. seven-card evaluations per second ({args.n:,} random hands; best of {args.repeat})")
    rows = evaluations(args.n, args.repeat)
    anchor, ours = rows[0][1], rows[1][1]
    for name, rate, same in rows:
        ratio = f"{rate / anchor:8.3g}x anchor"
        if not name.startswith(("croupier", "anchor")):
            ratio += f"   croupier {ours / rate:6.1f}x faster"
        print(f"   {name:<40} {rate:>14,.0f}/s   agrees {same}  {ratio}")
        ok &= same
    passed = ours >= TARGET_RATE
    print(f"   target {TARGET_RATE:,}/s on two cores: {'PASS' if passed else 'FAIL'}")
    ok &= passed

    print("b. heads-up preflop exact equity, AsAh vs KsKh, 1,712,304 boards")
    rows = preflop(args.repeat)
    anchor, ours = rows[0][1], rows[1][1]
    for name, seconds, same in rows:
        ratio = f"{seconds / anchor:8.3g}x anchor"
        if not name.startswith(("croupier", "anchor")):
            ratio += f"   croupier {seconds / ours:6.1f}x faster"
        print(f"   {name:<40} {seconds:>10.4f} s   agrees {same}  {ratio}")
        ok &= same
    passed = ours <= TARGET_SECONDS
    print(f"   target at most {TARGET_SECONDS} s: {'PASS' if passed else 'FAIL'}")
    ok &= passed

    if args.full:
        ok &= full_count()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
