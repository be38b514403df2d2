"""Poker: hand values (best five of 5 to 7 cards, Omaha), hand ranges and exact equity.

>>> from croupier.poker import evaluate, equity
>>> str(evaluate("Ah Kh", board="Qh Jh Th 2c 2d"))
'Royal Flush'
>>> r = equity(["AsKs", "QhQd"], board="2s7sQc")
>>> r.method, [str(h.equity) for h in r.hands]
('exact', ['23/90', '67/90'])

See ``docs/poker.md``.
"""

from croupier.poker.equity import (
    DEFAULT_TRIALS,
    EXACT_LIMIT,
    MC_ALGORITHM_ID,
    MC_TIME_BUDGET,
    EquityPlan,
    EquityResult,
    HandEquity,
    equity,
    plan_equity,
)
from croupier.poker.evaluate import (
    card_number,
    card_numbers,
    evaluate,
    evaluate_array,
    evaluate_deals,
    evaluate_masks,
    evaluate_omaha,
    evaluate_omaha_array,
    hand_value,
    number_card,
)
from croupier.poker.ranges import HandRange, RangeNotationError, format_range, parse_range
from croupier.poker.values import HAND_VALUES, Category, HandValue, PokerError

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "HAND_VALUES",
    "MC_ALGORITHM_ID",
    "MC_TIME_BUDGET",
    "Category",
    "EquityPlan",
    "EquityResult",
    "HandEquity",
    "HandRange",
    "HandValue",
    "PokerError",
    "RangeNotationError",
    "card_number",
    "card_numbers",
    "equity",
    "evaluate",
    "evaluate_array",
    "evaluate_deals",
    "evaluate_masks",
    "evaluate_omaha",
    "evaluate_omaha_array",
    "format_range",
    "hand_value",
    "number_card",
    "parse_range",
    "plan_equity",
]
