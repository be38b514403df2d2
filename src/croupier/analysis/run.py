"""Analyses by method name: exact, repeated, Monte Carlo, and randomness budgets.

These functions are what ``croupier analyze`` calls; they look methods up by
name (:func:`croupier.analysis.methods.get_analysis_method`) and choose the
exact engine: the decision-tree walk when it is small enough, else a fast
route (:mod:`croupier.analysis.fast`) when the method has one.

>>> report = exact_report("swap-any", 3)
>>> str(report.tv), report.engine
('1/18', 'walk')
>>> repeat_report("cut", 4, 3).limit.group
4
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, get_args

from croupier.algorithm_ids import ANALYZE_MC
from croupier.analysis.exact import ExactAnalysis, Kind, exact_analysis
from croupier.analysis.fast import FAST_ROUTES, MAX_FAST, fast_distribution
from croupier.analysis.markov import (
    MAX_EXACT,
    MAX_FLOAT,
    ChainLimit,
    chain_limit,
    repeat_curve,
    stops_falling_at,
)
from croupier.analysis.methods import AnalysisMethod, get_analysis_method, hand_sizes
from croupier.analysis.stats import (
    TestResult,
    bridge_pattern_probabilities,
    category_test,
    hand_pattern,
    poker_category,
    poker_category_probabilities,
    position_test,
)
from croupier.errors import RangeError
from croupier.randomness.purposes import bits_purpose
from croupier.randomness.source import RandomSource
from croupier.randomness.uniform import UniformSampler
from croupier.randomness.walk import WalkTooLargeError

__all__ = [
    "ENGINE_CHOICES",
    "MONTE_CARLO_ID",
    "EngineChoice",
    "GameTest",
    "MonteCarloReport",
    "RepeatReport",
    "RouteChoice",
    "bits_profile",
    "exact_report",
    "monte_carlo",
    "parse_engine",
    "repeat_report",
]

MAX_EXACT_CARDS = 10

MAX_BITS_CARDS = 10_000
"""The largest deck size :func:`bits_profile` shuffles (as for Monte Carlo runs)."""

RouteChoice = Literal["auto", "walk", "fast"]
"""The ``engine=`` argument of :func:`exact_report`: the route to the exact distribution
(:data:`~croupier.analysis.exact.Route`); ``auto`` picks the walk or the fast route."""

EngineChoice = RouteChoice
"""The former name of :data:`RouteChoice` (kept for imports of it)."""

ENGINE_CHOICES: tuple[RouteChoice, ...] = get_args(RouteChoice)


def parse_engine(engine: str) -> RouteChoice:
    """Check an engine choice given as text: ``auto``, ``walk`` or ``fast``.

    >>> parse_engine("walk")
    'walk'
    >>> parse_engine("quick")
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: engine='quick' is unknown; use auto, walk, fast
    """
    for valid in ENGINE_CHOICES:
        if engine == valid:
            return valid
    raise RangeError(f"engine={engine!r} is unknown; use {', '.join(ENGINE_CHOICES)}")


MONTE_CARLO_ID = ANALYZE_MC
"""Algorithm id of :func:`monte_carlo` runs: same seed + same id => same counts."""


def exact_report(
    name: str,
    cards: int,
    hands: Sequence[int] | None = None,
    *,
    max_leaves: int = 1_000_000,
    engine: RouteChoice = "auto",
) -> ExactAnalysis:
    """The exact analysis of method ``name`` on ``cards`` cards.

    ``engine`` is ``walk`` (run the method on every path), ``fast`` (the
    method's fast route) or ``auto`` (the walk if small enough, else fast).

    >>> exact_report("fisher-yates", 4).uniform
    True
    >>> exact_report("swap-any", 8).engine
    'swap-step DP'
    """
    method = get_analysis_method(name)
    if not 1 <= cards <= MAX_EXACT_CARDS:
        raise RangeError(
            f"exact analysis of {cards} cards is out of range; use 1..{MAX_EXACT_CARDS}"
            " (Monte Carlo with trials=N for bigger decks)"
        )
    engine = parse_engine(engine)
    space = method.space(cards, hands)
    sizes = None if method.kind == "arrangement" else method_hands(method, cards, hands)
    route = FAST_ROUTES.get(method.name)

    def fast() -> ExactAnalysis:
        assert route is not None
        if cards > MAX_FAST:
            raise RangeError(f"fast route of {cards} cards is out of range; use 1..{MAX_FAST}")
        dist: dict[Any, Fraction] = dict(fast_distribution(method.name, cards))
        return ExactAnalysis(
            method.name, cards, method.kind, space, dist, Fraction(0), route[0], sizes
        )

    if engine == "fast" or (engine == "auto" and route is not None and cards > 6):
        if route is None:
            raise RangeError(f"{method.name!r} has no fast exact route; use the walk")
        return fast()
    try:
        walked = exact_analysis(
            method.algorithm(cards, hands),
            cards=cards,
            name=method.name,
            kind=method.kind,
            space=space,
            max_leaves=max_leaves,
        )
    except WalkTooLargeError:
        if route is None or engine == "walk" or cards > MAX_FAST:
            raise
        return fast()
    return dataclasses.replace(walked, hands=sizes)


@dataclass(frozen=True)
class RepeatReport:
    """Distance to uniform after each of ``1..len(curve)`` repetitions."""

    name: str
    cards: int
    curve: Sequence[Fraction | float]
    exact: bool
    limit: ChainLimit
    stops_at: int | None

    def _repr_html_(self) -> str:
        """Notebook display: the limit, the TV curve as a table and a plot.

        >>> "periodic" in repeat_report("sattolo-mistake", 4, 3)._repr_html_()
        True
        """
        from croupier.analysis.display import repeat_html  # imported here: it imports this module

        return repeat_html(self)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the curve as floats (and fractions when exact) plus the limit."""
        points = []
        for m, tv in enumerate(self.curve, start=1):
            point: dict[str, Any] = {"repetitions": m, "tv": float(tv)}
            if isinstance(tv, Fraction):
                point["tv_fraction"] = str(tv)
            points.append(point)
        return {
            "method": self.name,
            "cards": self.cards,
            "exact": self.exact,
            "curve": points,
            "reachable_group": self.limit.group,
            "period": self.limit.period,
            "limit_tv": str(self.limit.tv),
            "limit_tv_float": float(self.limit.tv),
            "stops_falling_at": self.stops_at,
        }


def repeat_report(
    name: str, cards: int, repetitions: int, *, exact: bool | None = None, tolerance: float = 1e-6
) -> RepeatReport:
    """Repeat shuffle ``name`` on ``cards`` cards: the exact TV curve and its limit.

    >>> r = repeat_report("sattolo-mistake", 4, 6)
    >>> r.limit.period, str(r.limit.tv)
    (2, '1/2')
    """
    method = get_analysis_method(name)
    if method.kind != "arrangement":
        raise RangeError(f"{method.name!r} deals hands; repeating needs a shuffle")
    if not 2 <= cards <= MAX_FLOAT:
        raise RangeError(f"repeating on {cards} cards is out of range; use 2..{MAX_FLOAT}")
    if not 1 <= repetitions <= 500:
        raise RangeError(f"repetitions {repetitions} is out of range; use 1..500")
    step = exact_report(name, cards)
    if step.unfinished:
        raise RangeError(f"{method.name!r} may retry forever; its step is not known exactly")
    use_exact = cards <= MAX_EXACT if exact is None else exact
    curve = repeat_curve(step.distribution, repetitions, exact=use_exact)
    limit = chain_limit(step.distribution)
    return RepeatReport(
        method.name, cards, curve, use_exact, limit, stops_falling_at(curve, limit.tv, tolerance)
    )


@dataclass(frozen=True)
class GameTest:
    """A game-level frequency test (bridge suit patterns or poker categories)."""

    game: str
    observed: dict[str, int]
    expected: dict[str, Fraction]
    chi_square: TestResult
    g_test: TestResult


@dataclass
class MonteCarloReport:
    """Card x position (or card x hand) counts and tests from ``trials`` shuffles."""

    name: str
    cards: int
    trials: int
    kind: Kind
    counts: Any
    chi_square: TestResult
    g_test: TestResult
    bits_per_trial: float
    bound_bits: float
    source: str
    games: list[GameTest] = field(default_factory=list)

    def _repr_html_(self) -> str:
        """Notebook display: the run and every test as tables, and the count heatmap.

        >>> from croupier.randomness import SeededSource
        >>> "G-test" in monte_carlo("fisher-yates", 4, 50, SeededSource("doc"))._repr_html_()
        True
        """
        from croupier.analysis.display import monte_carlo_html  # imported here: it imports us

        return monte_carlo_html(self)

    @property
    def min_expected(self) -> float:
        """The smallest expected cell count; below 5 the p-values are only rough."""
        rows = self.counts.sum(axis=1)
        cols = self.counts.sum(axis=0)
        return float(rows.min() * cols.min() / self.counts.sum())

    def to_json(self) -> dict[str, Any]:
        """JSON-ready summary (the count matrix included)."""
        return {
            "algorithm": MONTE_CARLO_ID,
            "method": self.name,
            "cards": self.cards,
            "trials": self.trials,
            "kind": self.kind,
            "source": self.source,
            "bits_per_trial": self.bits_per_trial,
            "bound_bits": self.bound_bits,
            "min_expected_count": self.min_expected,
            "tests": [_test_json(self.chi_square), _test_json(self.g_test)],
            "games": [
                {
                    "game": g.game,
                    "observed": g.observed,
                    "expected": {k: float(v) for k, v in g.expected.items()},
                    "tests": [_test_json(g.chi_square), _test_json(g.g_test)],
                }
                for g in self.games
            ],
            "counts": self.counts.tolist(),
        }


def _test_json(t: TestResult) -> dict[str, Any]:
    return {"test": t.name, "statistic": t.statistic, "df": t.df, "p_value": t.p_value}


def _bridge_key(pattern: tuple[int, ...]) -> str:
    return "-".join(map(str, pattern))


def monte_carlo(
    name: str,
    cards: int,
    trials: int,
    source: RandomSource,
    hands: Sequence[int] | None = None,
) -> MonteCarloReport:
    """Run method ``name`` ``trials`` times and test the results against fairness.

    For shuffles the counts are card x position; for deals card x hand.  With
    52 cards, game tests are added: bridge suit patterns of the first hand
    (dealt round-robin from the shuffled deck, or hand 0 of a 13-13-13-13
    deal) and poker categories of the top five cards.

    >>> from croupier.randomness import SeededSource
    >>> r = monte_carlo("fisher-yates", 5, 200, SeededSource("doc"))
    >>> int(r.counts.sum()), r.chi_square.df
    (1000, 16)
    """
    import numpy as np

    method = get_analysis_method(name)
    if not 2 <= cards <= 10_000:
        raise RangeError(f"deck size {cards} is out of range; use 2..10000 cards")
    if not 1 <= trials <= 10_000_000:
        raise RangeError(f"trials {trials} is out of range; use 1..10000000")
    chooser = UniformSampler(source)
    algorithm = method.algorithm(cards, hands)
    sizes = None if method.kind == "arrangement" else method_hands(method, cards, hands)
    columns = cards if sizes is None else len(sizes)
    counts = np.zeros((cards, columns), dtype=np.int64)
    positions = np.arange(cards)
    bridge: Counter[str] = Counter()
    poker: Counter[str] = Counter()
    want_bridge = cards == 52 and (sizes is None or tuple(sizes) == (13, 13, 13, 13))
    want_poker = cards == 52 and sizes is None
    for _ in range(trials):
        outcome = algorithm(chooser)
        arr = np.asarray(outcome, dtype=np.int64)
        if sizes is None:
            counts[arr, positions] += 1
            if want_bridge:
                bridge[_bridge_key(hand_pattern(int(c) // 13 for c in arr[0::4]))] += 1
            if want_poker:
                top = [(int(c) % 13, int(c) // 13) for c in arr[:5]]
                poker[poker_category(top)] += 1
        else:
            counts[positions, arr] += 1
            if want_bridge:
                north = [p // 13 for p in range(cards) if arr[p] == 0]
                bridge[_bridge_key(hand_pattern(north))] += 1
    chi, g = position_test(counts)
    games: list[GameTest] = []
    if want_bridge:
        expected = {_bridge_key(k): v for k, v in bridge_pattern_probabilities().items()}
        games.append(
            GameTest(
                "bridge suit patterns", dict(bridge), expected, *category_test(bridge, expected)
            )
        )
    if want_poker:
        expected_p = poker_category_probabilities()
        games.append(
            GameTest(
                "poker hand categories", dict(poker), expected_p, *category_test(poker, expected_p)
            )
        )
    return MonteCarloReport(
        method.name,
        cards,
        trials,
        method.kind,
        counts,
        chi,
        g,
        source.bits_used / trials,
        math.log2(method.space(cards, sizes)),
        source.describe(),
        games,
    )


def method_hands(
    method: AnalysisMethod, cards: int, hands: Sequence[int] | None
) -> tuple[int, ...]:
    """The hand sizes a deal method will use on ``cards`` cards.

    >>> method_hands(get_analysis_method("deal:optimal"), 8, None)
    (2, 2, 2, 2)
    """
    return hand_sizes(cards, hands)


def bits_profile(
    names: Sequence[str], sizes: Sequence[int], trials: int, seed: str
) -> tuple[dict[str, list[tuple[float, float]]], list[tuple[float, float]]]:
    """Average random bits per shuffle of each method at each deck size, and the bound.

    The bound is ``log2(n!)``: no fair shuffle can use fewer bits on average.
    Each (method, size) pair draws from its own seeded stream.

    >>> series, bound = bits_profile(["lehmer"], [4], 50, "doc")
    >>> series["lehmer"][0][1] >= bound[0][1] - 0.5
    True
    """
    from croupier.randomness.seeded import SeededSource

    if not 1 <= trials <= 1_000_000:
        raise RangeError(f"trials {trials} is out of range; use 1..1000000")
    for n in sizes:
        if not 0 <= n <= MAX_BITS_CARDS:
            raise RangeError(f"deck size {n} is out of range; use 0..{MAX_BITS_CARDS} cards")
    series: dict[str, list[tuple[float, float]]] = {}
    for name in names:
        method = get_analysis_method(name)
        if method.kind != "arrangement":
            raise RangeError(f"{method.name!r} deals hands; the bits chart compares shuffles")
        points = []
        for n in sizes:
            source = SeededSource(seed, bits_purpose(method.name), n)
            chooser = UniformSampler(source)
            algorithm = method.algorithm(n)
            for _ in range(trials):
                algorithm(chooser)
            points.append((float(n), source.bits_used / trials))
        series[method.name] = points
    bound = [(float(n), math.log2(math.factorial(n))) for n in sizes]
    return series, bound
