"""Exact-analysis engines: croupier's fast routes against the plain decision-tree walk.

The walk (``croupier.randomness.exact_distribution``) runs the method once per
random path; the fast routes compute the same exact distribution by a dynamic
programme over swap steps or by the rising-sequence formula.  Both give
identical fractions (checked here too); this prints how much faster the route is.
Also times the exact 52-card riffle curve (rising-sequence formula), for which
no walk is possible at all (2**364 paths for 7 riffles), and the enumeration of
all 86,400,000 seeds of the time-seeded 1999 shuffle against running that
shuffle seed by seed (timed on 100,000 seeds and scaled up).

Run: .venv/bin/python bench/bench_analysis.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from croupier.analysis.fast import fast_distribution, time_seeded_counts
from croupier.analysis.mixing import riffle_mixing_curve
from croupier.analysis.run import exact_report


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    print(f"{'method':<16} {'cards':>5} {'walk s':>9} {'fast s':>9} {'ratio':>7}")
    for name, n in (("swap-any", 7), ("poker-1999", 7), ("modulo-bias-3", 7), ("riffle2", 7)):
        walk_s, walk = _timed(lambda: exact_report(name, n, engine="walk").distribution)  # noqa: B023
        fast_s, fast = _timed(lambda: fast_distribution(name, n))  # noqa: B023
        assert walk == fast, name
        print(f"{name:<16} {n:>5} {walk_s:>9.3f} {fast_s:>9.3f} {walk_s / fast_s:>6.1f}x")
    curve_s, curve = _timed(lambda: riffle_mixing_curve(52, 12))
    tv7 = float(curve[6].tv)
    print(f"exact TV curve of 52 cards, 12 riffles: {curve_s:.3f} s (TV at 7: {tv7:.6f})")

    from croupier.shuffling.flawed import MS_PER_DAY, time_seeded_shuffle

    n, sample = 8, range(100_000)
    loop_s, _ = _timed(lambda: [time_seeded_shuffle(range(n), s) for s in sample])
    loop_all = loop_s * MS_PER_DAY / len(sample)
    enum_s, counts = _timed(lambda: time_seeded_counts(n, range(MS_PER_DAY)))
    assert sum(counts.values()) == MS_PER_DAY
    print(
        f"time-seeded-32, {n} cards, all {MS_PER_DAY} seeds: enumeration {enum_s:.1f} s,"
        f" seed by seed about {loop_all:.0f} s ({loop_all / enum_s:.0f}x)"
    )


if __name__ == "__main__":
    main()
