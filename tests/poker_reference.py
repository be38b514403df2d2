"""Independent references for the poker tests: the rules written out again, and phevaluator.

``rules_key`` classifies five cards straight from the rules of poker, in a
different way from ``croupier.poker.tables`` (aces are 14, the wheel's ace
counts 1, ties are broken by sorting ``(count, rank)`` pairs), so the two can
check each other.  ``phevaluator`` (a C evaluator, test-only dependency) is the
outside reference; a test without it skips, except under CI, where it fails.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

RANKS = "23456789TJQKA"
SUITS = "shdc"  # card number c: suit c // 13 in S H D C order, rank 12 - c % 13 (0 = deuce)


def number_text(c: int) -> str:
    """``As``, ``Kh``... for a croupier card number."""
    return RANKS[12 - c % 13] + SUITS[c // 13]


def rules_key(cards: Sequence[int]) -> tuple[int, ...]:
    """The strength of exactly five cards (card numbers) as a tuple: larger is better."""
    values = sorted((14 - c % 13 for c in cards), reverse=True)  # ace = 14 ... deuce = 2
    suits = {c // 13 for c in cards}
    flush = len(suits) == 1
    distinct = sorted(set(values), reverse=True)
    straight_high = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_high = 5
    groups = sorted(Counter(values).items(), key=lambda vc: (vc[1], vc[0]), reverse=True)
    counts = [c for _, c in groups]
    ordered = [v for v, _ in groups]
    if straight_high and flush:
        return (8, straight_high)
    if counts[0] == 4:
        return (7, *ordered)
    if counts == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *values)
    if straight_high:
        return (4, straight_high)
    if counts[0] == 3:
        return (3, *ordered)
    if counts == [2, 2, 1]:
        return (2, *ordered)
    if counts[0] == 2:
        return (1, *ordered)
    return (0, *values)


def rules_best(cards: Sequence[int]) -> tuple[int, ...]:
    """The best five of any number of cards, by the rules."""
    return max(rules_key(five) for five in itertools.combinations(cards, 5))


def rules_omaha(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
    """Omaha by the rules: exactly two hole cards and three board cards."""
    return max(
        rules_key((*two, *three))
        for two in itertools.combinations(hole, 2)
        for three in itertools.combinations(board, 3)
    )


def phevaluator() -> ModuleType:
    """phevaluator's compiled core (``_pheval``: the public wrappers convert each card in
    Python, five times slower), or a skip (a failure under CI)."""
    try:
        import phevaluator
        from phevaluator import _pheval  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - depends on the machine
        message = "phevaluator is missing: pip install -e '.[dev]'"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    assert phevaluator
    return _pheval  # type: ignore[no-any-return]


def phe_ids(numbers: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """phevaluator's card ids (``4 * rank + suit``, deuce first, suits c d h s) of numbers."""
    n = numbers.astype(np.int64)
    return 4 * (12 - n % 13) + (3 - n // 13)


def phe_values(ids: npt.NDArray[np.int64], size: int) -> npt.NDArray[np.int64]:
    """phevaluator's ranks (1 = royal flush) turned into croupier's scale (7462 = royal)."""
    core = phevaluator()
    f = {5: core.evaluate_5cards, 6: core.evaluate_6cards, 7: core.evaluate_7cards}[size]
    return 7463 - np.array([f(*row) for row in ids.tolist()], np.int64)
