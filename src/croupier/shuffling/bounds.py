"""The fewest random bits a uniform shuffle or draw can use: ``log2`` of the number of
outcomes.

A uniform choice among ``N`` outcomes needs at least ``log2(N)`` bits on average
(Shannon), so a shuffle of ``n`` items at least ``log2(n!)``: about 225.58 bits for 52
cards.  croupier's notes and reports print the bits a run used beside this bound.

>>> round(log2_factorial(52), 2), log2_factorial(1), log2_factorial(0)
(225.58, 0.0, 0.0)
"""

from __future__ import annotations

import math

__all__ = ["EXACT_UP_TO", "log2_factorial"]

EXACT_UP_TO = 1000
"""Up to this many items ``log2(n!)`` is taken of the integer ``n!`` itself; above, of
``lgamma(n + 1)`` (the same value to a float's precision, without the huge integer)."""


def log2_factorial(n: int) -> float:
    """``log2(n!)``, the fewest bits on average that a uniform shuffle of ``n`` items uses.

    >>> round(log2_factorial(10**6) / 10**6, 4)  # bits an item, a million items
    18.4889
    >>> log2_factorial(-1)
    Traceback (most recent call last):
    ...
    ValueError: log2(n!) needs n >= 0, not -1
    """
    if n < 0:
        raise ValueError(f"log2(n!) needs n >= 0, not {n}")
    if n <= 1:
        return 0.0
    if n <= EXACT_UP_TO:
        return math.log2(math.factorial(n))
    return math.lgamma(n + 1) / math.log(2)
