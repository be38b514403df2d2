"""How many riffles mix a deck: exact distances for the Gilbert–Shannon–Reeds model.

In the Gilbert–Shannon–Reeds (GSR) model a riffle cuts the deck binomially and
drops cards from each packet with probability proportional to its size.  An
``a``-shuffle generalises it to ``a`` packets; ``k`` ordinary riffles are
exactly one ``2**k``-shuffle.  Bayer and Diaconis showed that after an
``a``-shuffle of ``n`` cards a particular arrangement with ``r`` rising
sequences has probability ``C(a + n - r, n) / a**n``, so it depends only on
``r``.  The number of arrangements with ``r`` rising sequences is the Eulerian
number ``A(n, r)``, which turns the distance to uniform into a sum of ``n``
exact terms for any deck size:

* total variation ``TV = 1/2 * sum_r A(n, r) * |C(a+n-r, n)/a**n - 1/n!|``;
* separation ``1 - n! * min_pi P(pi) = 1 - n! * C(a, n) / a**n`` (the least
  likely arrangements are the reversals of ``n`` rising sequences).

Everything here is an exact :class:`fractions.Fraction`.

>>> point = riffle_mixing(52, 7)
>>> round(float(point.tv), 3), round(float(point.separation), 6)
(0.334, 0.999995)
>>> riffles_needed(52)
7
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

from croupier.errors import RangeError

__all__ = [
    "MAX_CARDS",
    "MAX_MIXING_WORK",
    "MAX_PACKETS",
    "MAX_RIFFLES",
    "MixingCurve",
    "MixingPoint",
    "eulerian_numbers",
    "format_probability",
    "riffle_mixing",
    "riffle_mixing_curve",
    "riffle_probability",
    "riffles_needed",
]

MAX_CARDS = 2000
"""Largest deck the exact formula is computed for (the work grows as n**2 big-int steps)."""

MAX_PACKETS = 1_000_000
"""The most packets per riffle (``base``) the exact formula takes."""

MAX_RIFFLES = 200
"""The most riffles :func:`riffle_mixing_curve` computes."""

MAX_MIXING_WORK = 2 * 10**9
"""The bound on riffles² x cards² x bits of packets, checked before computing.

The exact fractions of ``k`` riffles of ``n`` cards have about ``n k log2(packets)``
bits, and a curve up to ``k`` riffles costs about ``n² k² log2(packets)`` bit
operations: 52 cards up to 200 riffles, 300 cards up to 149, 2,000 cards up to 22.
"""


def _check_cards(n: int) -> None:
    if not 1 <= n <= MAX_CARDS:
        raise RangeError(f"deck size {_short(n)} is out of range; use 1..{MAX_CARDS} cards")


def _short(value: int) -> str:
    """``value`` for a message, or its size when it is huge (no 4,300-digit ``str()``).

    >>> _short(52), _short(10**400)
    ('52', 'a 1329-bit number')
    """
    return str(value) if abs(value) < 10**30 else f"a {value.bit_length()}-bit number"


def _check_size(n: int, k: int, base: int) -> None:
    """Refuse a computation over :data:`MAX_MIXING_WORK` before starting it.

    >>> _check_size(52, 12, 10**6)
    >>> _check_size(2000, 200, 2)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: 200 riffles of 2000 cards with 2 packets are too much work ...
    """
    if k * k * n * n * (base - 1).bit_length() > MAX_MIXING_WORK:
        raise RangeError(
            f"{k} riffles of {n} cards with {base} packets are too much work for the exact "
            f"formula (riffles² x cards² x log2(packets) must stay below {MAX_MIXING_WORK}); "
            "use fewer riffles, cards or packets"
        )


def eulerian_numbers(n: int) -> list[int]:
    """Eulerian numbers ``A(n, r)``, ``r = 1..n``: arrangements with ``r`` rising sequences.

    (Element ``r - 1`` of the list.)  They sum to ``n!``.

    >>> eulerian_numbers(4)
    [1, 11, 11, 1]
    >>> sum(eulerian_numbers(10)) == math.factorial(10)
    True
    """
    if n < 0:
        raise RangeError(f"deck size {n} is negative; use 0 or more cards")
    if n == 0:
        return []
    row = [1]
    for m in range(2, n + 1):
        # A(m, r) = r * A(m-1, r) + (m - r + 1) * A(m-1, r-1)
        new = [0] * m
        for r in range(1, m + 1):
            keep = r * row[r - 1] if r <= m - 1 else 0
            grow = (m - r + 1) * row[r - 2] if r >= 2 else 0
            new[r - 1] = keep + grow
        row = new
    return row


def riffle_probability(n: int, rising: int, a: int = 2) -> Fraction:
    """Probability that an ``a``-shuffle of ``n`` cards gives one given arrangement
    with ``rising`` rising sequences: ``C(a + n - rising, n) / a**n``.

    >>> riffle_probability(3, 1)       # the identity after one riffle of 3 cards
    Fraction(1, 2)
    >>> riffle_probability(3, 3)       # reversal: impossible in one riffle
    Fraction(0, 1)
    """
    if not 1 <= rising <= max(n, 1):
        raise RangeError(f"rising sequences {rising} out of range; use 1..{n} for {n} cards")
    if a < 1:
        raise RangeError(f"packet count a={a} is invalid; use a >= 1")
    return Fraction(math.comb(a + n - rising, n), a**n)


@dataclass(frozen=True)
class MixingPoint:
    """Exact distances to uniform after ``shuffles`` riffles (``a = base**shuffles``).

    >>> riffle_mixing(3, 1)
    MixingPoint(shuffles=1, tv=Fraction(1, 3), separation=Fraction(1, 1))
    """

    shuffles: int
    tv: Fraction
    separation: Fraction


class MixingCurve(list[MixingPoint]):
    """The points of :func:`riffle_mixing_curve`: a list that remembers its deck size and base.

    It is an ordinary list of :class:`MixingPoint` (compare, index and slice it
    as one); notebooks show it as a table and a plot.

    >>> curve = riffle_mixing_curve(52, 8)
    >>> curve.cards, curve.base, curve[6].shuffles, isinstance(curve, list)
    (52, 2, 7, True)
    """

    def __init__(self, points: Iterable[MixingPoint], *, cards: int, base: int = 2) -> None:
        super().__init__(points)
        self.cards = cards
        self.base = base

    def _repr_html_(self) -> str:
        """Notebook display: the distances after each number of riffles, and their curves.

        >>> "TV below 1/2 after 7 riffles" in riffle_mixing_curve(52, 8)._repr_html_()
        True
        """
        from croupier.analysis.display import mixing_curve_html  # it imports this module

        return mixing_curve_html(self, cards=self.cards, base=self.base)


def _mixing_point(n: int, k: int, base: int, eul: list[int]) -> MixingPoint:
    a = base**k
    n_fact = math.factorial(n)
    denom = a**n
    # TV = 1/2 sum_r A(n,r) |C(a+n-r,n)/a^n - 1/n!|, over the common denominator a^n * n!.
    # C(a+n-r, n) for r = 1, 2, ... by C(m-1, n) = C(m, n) * (m-n) / m (exact), not n combs;
    # a term is positive exactly when C >= ceil(a^n / n!), so n! and a^n multiply only sums.
    above = -(-denom // n_fact)
    ways_sum = count_sum = 0  # sum of count * C and of count, with the sign of each term
    ways = math.comb(a + n - 1, n) if eul else 0
    for r, count in enumerate(eul, start=1):
        if ways >= above:
            ways_sum += count * ways
            count_sum += count
        else:
            ways_sum -= count * ways
            count_sum -= count
        m = a + n - r
        ways = ways * (m - n) // m if ways else 0
    total = n_fact * ways_sum - denom * count_sum
    tv = Fraction(total, 2 * denom * n_fact)
    separation = 1 - Fraction(n_fact * math.comb(a, n), denom)
    return MixingPoint(k, tv, separation)


def _check_base(base: int) -> None:
    if not 2 <= base <= MAX_PACKETS:
        raise RangeError(f"packets per riffle {_short(base)} is invalid; use 2..{MAX_PACKETS}")


def riffle_mixing(n: int, k: int, base: int = 2) -> MixingPoint:
    """Exact total variation and separation after ``k`` GSR riffles of ``n`` cards.

    ``base`` packets per riffle (2 for the ordinary riffle); ``k`` of them make
    one ``base**k``-shuffle.

    >>> p = riffle_mixing(52, 8)
    >>> round(float(p.tv), 4)
    0.1672
    """
    _check_cards(n)
    _check_base(base)
    if k < 0:
        raise RangeError(f"number of riffles {k} is negative; use 0 or more")
    _check_size(n, k, base)
    return _mixing_point(n, k, base, eulerian_numbers(n))


def riffle_mixing_curve(n: int, max_k: int, base: int = 2) -> MixingCurve:
    """:func:`riffle_mixing` for ``k = 1 .. max_k`` (a list, see :class:`MixingCurve`).

    >>> [round(float(p.tv), 3) for p in riffle_mixing_curve(52, 10)][4:]
    [0.924, 0.614, 0.334, 0.167, 0.085, 0.043]
    """
    _check_cards(n)
    _check_base(base)
    if not 1 <= max_k <= MAX_RIFFLES:
        raise RangeError(f"maximum riffles {_short(max_k)} is out of range; use 1..{MAX_RIFFLES}")
    _check_size(n, max_k, base)
    eul = eulerian_numbers(n)
    return MixingCurve(
        (_mixing_point(n, k, base, eul) for k in range(1, max_k + 1)), cards=n, base=base
    )


def riffles_needed(n: int, threshold: Fraction | float = Fraction(1, 2), base: int = 2) -> int:
    """The fewest riffles after which the total variation is below ``threshold``.

    >>> riffles_needed(52), riffles_needed(52, Fraction(1, 10))
    (7, 9)
    """
    _check_cards(n)
    _check_base(base)
    limit = Fraction(threshold)
    if not 0 < limit <= 1:
        raise RangeError(f"threshold {threshold} is out of range; use a value in (0, 1]")
    eul = eulerian_numbers(n)
    k = 0
    while _mixing_point(n, k, base, eul).tv >= limit:
        k += 1
        _check_size(n, k, base)  # a tiny threshold must not grow the fractions without bound
    return k


def format_probability(value: Fraction, digits: int = 6) -> str:
    """A probability as a short decimal that keeps what matters near 0 and 1.

    >>> format_probability(Fraction(1, 3))
    '0.333333'
    >>> format_probability(1 - Fraction(1, 10**20))
    '1 - 1.00000e-20'
    >>> format_probability(Fraction(1, 10**12))
    '1.00000e-12'
    >>> format_probability(Fraction(0))
    '0'
    """
    if value == 0:
        return "0"
    if value == 1:
        return "1"
    with localcontext() as ctx:
        ctx.prec = digits + 10
        if 0 < 1 - value < Fraction(1, 10**digits):
            rest = Decimal((1 - value).numerator) / Decimal((1 - value).denominator)
            return f"1 - {rest:.{digits - 1}e}"
        dec = Decimal(value.numerator) / Decimal(value.denominator)
        if abs(value) < Fraction(1, 10**digits):
            return f"{dec:.{digits - 1}e}"
        return f"{dec:.{digits}f}"
