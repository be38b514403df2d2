"""Statistical tests of shuffles and deals on real deck sizes (Monte Carlo).

Where exact enumeration is out of reach, croupier tests a shuffle the way
gaming laboratories test card dealers: shuffle many times from a fixed seed
and compare what comes out with what a perfect shuffle would give.

* :func:`position_counts` — how often each card lands in each position.
  :func:`position_test` turns the matrix into Pearson chi-square and G-test
  p-values.  The cells of one shuffle are a permutation matrix, not
  independent counts, so the plain statistic is ``n/(n-1)`` times a
  chi-square with ``(n-1)**2`` degrees of freedom; croupier rescales it.
* :func:`bridge_pattern_probabilities` — the exact chance of every suit
  pattern (4-4-3-2, 5-3-3-2, ...) in a bridge hand, and
  :func:`poker_category_counts` — the exact number of five-card hands of each
  category (1,302,540 high-card hands, ...).  :func:`category_test` compares
  observed frequencies with them.

Statistics come from scipy (the ``analysis`` extra), imported only when used.

>>> probs = bridge_pattern_probabilities()
>>> round(float(probs[(4, 4, 3, 2)]), 4)
0.2155
>>> poker_category_counts()["high card"]
1302540
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from croupier.errors import MissingExtraError, RangeError
from croupier.randomness.uniform import Chooser

__all__ = [
    "POKER_CATEGORIES",
    "TestResult",
    "bridge_pattern_probabilities",
    "category_test",
    "enumerate_poker_categories",
    "hand_pattern",
    "poker_category",
    "poker_category_counts",
    "poker_category_probabilities",
    "position_counts",
    "position_test",
    "require",
]

POKER_CATEGORIES = (
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "one pair",
    "high card",
)


def require(module: str) -> Any:
    """Import an optional dependency of the ``analysis`` extra, or explain how to get it.

    >>> require("math").sqrt(4)
    2.0
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise MissingExtraError(
            f"module {top!r} is not installed; install the analysis extra:"
            " pip install 'croupier[analysis]'"
        ) from exc


@dataclass(frozen=True)
class TestResult:
    """A goodness-of-fit test: statistic, degrees of freedom and p-value.

    A small p-value (say below 0.001) means the observed counts are unlikely
    under a fair shuffle.

    >>> TestResult("chi-square", 3.0, 3, 0.39).verdict()
    'consistent with fair (p = 0.39)'
    """

    __test__ = False  # not a pytest class

    name: str
    statistic: float
    df: int
    p_value: float

    def verdict(self, alpha: float = 0.001) -> str:
        """``'consistent with fair'`` or ``'biased'`` at significance level ``alpha``."""
        word = "biased" if self.p_value < alpha else "consistent with fair"
        return f"{word} (p = {self.p_value:.3g})"


def position_counts(
    shuffle: Callable[[list[int], Chooser], Sequence[int]],
    n: int,
    trials: int,
    chooser: Chooser,
) -> Any:
    """Shuffle ``0..n-1`` ``trials`` times; ``counts[card, position]`` (a numpy array).

    >>> from croupier.randomness.walk import ScriptedChooser
    >>> position_counts(lambda deck, c: deck[::-1], 3, 2, ScriptedChooser([])).tolist()
    [[0, 0, 2], [0, 2, 0], [2, 0, 0]]
    """
    import numpy as np

    if n < 2:
        raise RangeError(f"deck size {n} is too small; use 2 or more cards")
    if trials < 1:
        raise RangeError(f"trials {trials} is invalid; use 1 or more")
    counts = np.zeros((n, n), dtype=np.int64)
    positions = np.arange(n)
    for _ in range(trials):
        deck = shuffle(list(range(n)), chooser)
        counts[np.asarray(deck, dtype=np.int64), positions] += 1
    return counts


def position_test(counts: Any) -> tuple[TestResult, TestResult]:
    """Chi-square and G-test of a card x position (or card x hand) count matrix.

    Each trial puts every card (row) in exactly one column, and each column
    gets the same number of cards every trial (1 per position, or the hand
    size), so the expected count is ``row total * column total / grand total``.
    Both statistics are scaled by ``(n-1)/n`` (``n`` cards) and referred to a
    chi-square with ``(n-1)*(columns-1)`` degrees of freedom: the exact
    covariance of a uniformly random permutation or deal; see the module notes.

    >>> import numpy as np
    >>> chi, g = position_test(np.array([[50, 50], [50, 50]]))
    >>> chi.p_value, g.p_value
    (1.0, 1.0)
    """
    np = require("numpy")
    stats = require("scipy.stats")
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or min(counts.shape) < 2:
        raise RangeError(f"count matrix of shape {counts.shape} needs at least 2 rows and columns")
    n, columns = counts.shape
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / counts.sum()
    if (expected <= 0).any():
        raise RangeError(
            "count matrix has an empty row or column; every card and column must occur"
        )
    scale = (n - 1) / n
    df = (n - 1) * (columns - 1)
    chi = float(((counts - expected) ** 2 / expected).sum()) * scale
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * np.log(counts / expected), 0.0)
    g = float(2 * terms.sum()) * scale
    return (
        TestResult("chi-square", chi, df, float(stats.chi2.sf(chi, df))),
        TestResult("G-test", g, df, float(stats.chi2.sf(g, df))),
    )


def category_test(
    observed: Mapping[Any, int], expected: Mapping[Any, Fraction], *, min_expected: float = 5.0
) -> tuple[TestResult, TestResult]:
    """Chi-square and G-test of observed category counts against exact probabilities.

    Categories whose expected count is below ``min_expected`` are pooled into
    one (the usual rule for the chi-square approximation).

    >>> chi, g = category_test({"H": 50, "T": 50}, {"H": Fraction(1, 2), "T": Fraction(1, 2)})
    >>> chi.statistic, chi.df, chi.p_value
    (0.0, 1, 1.0)
    """
    np = require("numpy")
    stats = require("scipy.stats")
    unknown = set(observed) - set(expected)
    if unknown:
        raise RangeError(f"observed categories {sorted(map(str, unknown))} have no expectation")
    total = sum(observed.values())
    if total < 1:
        raise RangeError("no observations to test")
    if sum(expected.values()) != 1:
        raise RangeError(f"expected probabilities sum to {sum(expected.values())}, not 1")
    obs: list[float] = []
    exp: list[float] = []
    pool_obs = 0.0
    pool_exp = 0.0
    for key, p in expected.items():
        e = float(p) * total
        o = float(observed.get(key, 0))
        if e < min_expected:
            pool_obs += o
            pool_exp += e
        else:
            obs.append(o)
            exp.append(e)
    if pool_exp > 0:
        if pool_exp < min_expected and exp:
            # still too small: merge it into the smallest remaining category
            smallest = min(range(len(exp)), key=exp.__getitem__)
            obs[smallest] += pool_obs
            exp[smallest] += pool_exp
        else:
            obs.append(pool_obs)
            exp.append(pool_exp)
    if len(obs) < 2:
        raise RangeError(f"too few observations ({total}) for a test; use more trials")
    o_arr, e_arr = np.array(obs), np.array(exp)
    chi = stats.power_divergence(o_arr, e_arr, lambda_="pearson")
    g = stats.power_divergence(o_arr, e_arr, lambda_="log-likelihood")
    df = len(obs) - 1
    return (
        TestResult("chi-square", float(chi.statistic), df, float(chi.pvalue)),
        TestResult("G-test", float(g.statistic), df, float(g.pvalue)),
    )


def bridge_pattern_probabilities(
    suits: int = 4, suit_size: int = 13, hand: int = 13
) -> dict[tuple[int, ...], Fraction]:
    """Exact probability of each suit pattern (longest suit first) of one hand.

    >>> p = bridge_pattern_probabilities()
    >>> len(p), sum(p.values())
    (39, Fraction(1, 1))
    >>> str(p[(13, 0, 0, 0)])
    '1/158753389900'
    """
    if suits < 1 or suit_size < 1 or not 0 <= hand <= suits * suit_size:
        raise RangeError(
            f"hand of {hand} from {suits} suits of {suit_size} is impossible;"
            " use 0 <= hand <= suits * suit_size"
        )
    total = math.comb(suits * suit_size, hand)
    result: dict[tuple[int, ...], Fraction] = {}
    for pattern in _partitions(hand, suits, suit_size):
        ways = math.prod(math.comb(suit_size, x) for x in pattern)
        orders = math.factorial(suits)
        for count in Counter(pattern).values():
            orders //= math.factorial(count)
        result[pattern] = Fraction(ways * orders, total)
    return dict(sorted(result.items(), key=lambda kv: (-kv[1], kv[0])))


def _partitions(total: int, parts: int, cap: int) -> Iterable[tuple[int, ...]]:
    """Non-increasing tuples of ``parts`` integers in ``[0, cap]`` summing to ``total``."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(min(total, cap), -1, -1):
        if first * parts < total:
            break
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def hand_pattern(suits_of_cards: Iterable[int], suits: int = 4) -> tuple[int, ...]:
    """The suit pattern of a hand given each card's suit (``0..suits-1``).

    >>> hand_pattern([0, 0, 1, 3, 3, 3])
    (3, 2, 1, 0)
    """
    tally = Counter(suits_of_cards)
    return tuple(sorted((tally.get(s, 0) for s in range(suits)), reverse=True))


def poker_category_counts(ranks: int = 13, suits: int = 4) -> dict[str, int]:
    """Exact number of five-card hands in each category, for ``ranks`` x ``suits`` decks.

    The top rank plays high or low in straights (A-2-3-4-5), as in poker.

    >>> counts = poker_category_counts()
    >>> counts["straight flush"], counts["four of a kind"], counts["full house"]
    (40, 624, 3744)
    >>> sum(counts.values()) == math.comb(52, 5)
    True
    """
    if ranks < 5 or suits < 1:
        raise RangeError(f"a deck of {ranks} ranks x {suits} suits cannot hold poker hands")
    straights = ranks - 3  # runs of 5 consecutive ranks, ace low and high
    c = math.comb
    plain_ranks = c(ranks, 5) - straights  # five distinct ranks, not a run
    return {
        "straight flush": straights * suits,
        "four of a kind": ranks * c(suits, 4) * (ranks - 1) * suits,
        "full house": ranks * c(suits, 3) * (ranks - 1) * c(suits, 2),
        "flush": plain_ranks * suits,
        "straight": straights * (suits**5 - suits),
        "three of a kind": ranks * c(suits, 3) * c(ranks - 1, 2) * suits**2,
        "two pair": c(ranks, 2) * c(suits, 2) ** 2 * (ranks - 2) * suits,
        "one pair": ranks * c(suits, 2) * c(ranks - 1, 3) * suits**3,
        "high card": plain_ranks * (suits**5 - suits),
    }


def poker_category(hand: Sequence[tuple[int, int]], ranks: int = 13) -> str:
    """The category of a five-card hand of ``(rank, suit)`` pairs, ranks ``0..ranks-1``.

    Rank ``ranks - 1`` is the ace: it also plays low in ``A-2-3-4-5``.

    >>> poker_category([(12, 0), (0, 1), (1, 2), (2, 3), (3, 0)])
    'straight'
    >>> poker_category([(5, 0), (5, 1), (7, 2), (7, 3), (7, 0)])
    'full house'
    """
    if len(hand) != 5:
        raise RangeError(f"a poker hand has 5 cards, got {len(hand)}")
    values = sorted(r for r, _ in hand)
    shape = sorted(Counter(values).values(), reverse=True)
    flush = len({s for _, s in hand}) == 1
    distinct = len(set(values)) == 5
    straight = distinct and (values[4] - values[0] == 4 or values == [0, 1, 2, 3, ranks - 1])
    if straight and flush:
        return "straight flush"
    if shape[0] == 4:
        return "four of a kind"
    if shape == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if shape[0] == 3:
        return "three of a kind"
    if shape == [2, 2, 1]:
        return "two pair"
    if shape[0] == 2:
        return "one pair"
    return "high card"


def poker_category_probabilities(ranks: int = 13, suits: int = 4) -> dict[str, Fraction]:
    """:func:`poker_category_counts` divided by the number of hands.

    >>> str(poker_category_probabilities()["one pair"])
    '352/833'
    """
    counts = poker_category_counts(ranks, suits)
    total = math.comb(ranks * suits, 5)
    return {k: Fraction(v, total) for k, v in counts.items()}


def enumerate_poker_categories(ranks: int, suits: int) -> dict[str, int]:
    """Brute force: classify every five-card hand of a small deck (an independent check).

    >>> enumerate_poker_categories(6, 4) == poker_category_counts(6, 4)
    True
    """
    deck = [(r, s) for r in range(ranks) for s in range(suits)]
    tally = Counter(poker_category(h, ranks) for h in combinations(deck, 5))
    return {k: tally.get(k, 0) for k in POKER_CATEGORIES}
