"""Repeating a shuffle: the exact Markov chain on arrangements of a small deck.

Shuffling the same way again and again is a random walk on the arrangements
of the deck.  Given the exact distribution of one shuffle of ``n <= 7`` cards
(an arrangement is a tuple ``t`` with ``t[i]`` the card now at position ``i``),
:func:`repeat_curve` gives the distance to uniform after every repetition,
exactly (``Fraction``, ``n <= 6``) or in floating point (``n <= 7``), and
:func:`chain_limit` says where the curve must stop falling: a walk confined to
a subgroup (for instance the even arrangements, when every step is even) or
that alternates between cosets (every step odd) never gets closer to uniform
than ``1 - |N| / n!``, where ``N`` is the set it ends up spread over.

Repeating the shuffle applies it to the current deck: if the deck is ``d``
and the fresh random arrangement is ``t``, the new deck is
``tuple(d[i] for i in t)``.  This assumes the shuffle treats cards by position
only, which every shuffle in croupier does.

>>> from fractions import Fraction
>>> cut_any = {(0, 1, 2): Fraction(1, 3), (1, 2, 0): Fraction(1, 3), (2, 0, 1): Fraction(1, 3)}
>>> [str(tv) for tv in repeat_curve(cut_any, 3)]
['1/2', '1/2', '1/2']
>>> chain_limit(cut_any).tv
Fraction(1, 2)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.errors import RangeError

__all__ = [
    "ChainLimit",
    "arrangement_index",
    "chain_limit",
    "repeat_curve",
    "repeat_distribution",
    "stops_falling_at",
    "tv_to_uniform",
]

MAX_EXACT = 6
MAX_FLOAT = 7

Arrangement = tuple[int, ...]


def tv_to_uniform(dist: Mapping[Any, Fraction], space: int) -> Fraction:
    """Exact total variation distance between ``dist`` and uniform on ``space`` outcomes.

    Outcomes missing from ``dist`` have probability 0.

    >>> tv_to_uniform({"a": Fraction(1)}, 4)
    Fraction(3, 4)
    >>> tv_to_uniform({0: Fraction(1, 2), 1: Fraction(1, 2)}, 2)
    Fraction(0, 1)
    """
    if space < len(dist):
        raise RangeError(f"outcome space {space} is smaller than the {len(dist)} outcomes seen")
    u = Fraction(1, space)
    present = sum((abs(p - u) for p in dist.values()), Fraction(0))
    return (present + u * (space - len(dist))) / 2


def arrangement_index(n: int) -> dict[Arrangement, int]:
    """Every arrangement of ``0..n-1``, numbered in lexicographic order.

    >>> arrangement_index(3)[(0, 2, 1)]
    1
    """
    return {p: i for i, p in enumerate(itertools.permutations(range(n)))}


def _deck_size(step: Mapping[Arrangement, Fraction]) -> int:
    if not step:
        raise RangeError("empty step distribution; a shuffle must have at least one outcome")
    n = len(next(iter(step)))
    for t in step:
        if len(t) != n or sorted(t) != list(range(n)):
            raise RangeError(f"outcome {t!r} is not an arrangement of 0..{n - 1}")
    if sum(step.values()) != 1:
        raise RangeError(f"step probabilities sum to {sum(step.values())}, not 1")
    return n


def _composition_columns(n: int, support: Sequence[Arrangement]) -> list[Any]:
    """For each step ``t``: the index of ``d∘t`` for every arrangement ``d`` (numpy arrays)."""
    import numpy as np

    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64).reshape(-1, n)
    weights = [math.factorial(n - 1 - j) for j in range(n)]
    columns = []
    for t in support:
        q = perms[:, list(t)]
        rank = np.zeros(len(perms), dtype=np.int64)
        for j in range(n - 1):
            smaller_after = (q[:, j + 1 :] < q[:, j : j + 1]).sum(axis=1)
            rank += smaller_after * weights[j]
        columns.append(rank)
    return columns


def repeat_distribution(
    step: Mapping[Arrangement, Fraction], m: int
) -> dict[Arrangement, Fraction]:
    """The exact distribution of the deck after ``m`` repetitions (``n <= 6``).

    >>> swap = {(0, 1): Fraction(1, 3), (1, 0): Fraction(2, 3)}
    >>> repeat_distribution(swap, 2)
    {(0, 1): Fraction(5, 9), (1, 0): Fraction(4, 9)}
    """
    n = _deck_size(step)
    if n > MAX_EXACT:
        raise RangeError(f"exact repetition of {n} cards is too large; use {MAX_EXACT} or fewer")
    if m < 0:
        raise RangeError(f"repetitions {m} is negative; use 0 or more")
    perms = list(itertools.permutations(range(n)))
    numerators, denom = _exact_numerators(step, n, m)[-1]
    return {perms[i]: Fraction(int(v), denom) for i, v in enumerate(numerators) if v != 0}


def _exact_numerators(
    step: Mapping[Arrangement, Fraction], n: int, m: int
) -> list[tuple[Any, int]]:
    """Integer numerator vectors (numpy object arrays) and denominators for 0..m steps."""
    import numpy as np

    support = list(step)
    denom_step = math.lcm(*(p.denominator for p in step.values()))
    weights = [int(step[t] * denom_step) for t in support]
    columns = _composition_columns(n, support)
    index = arrangement_index(n)
    current = np.zeros(math.factorial(n), dtype=object)
    current[:] = 0
    current[index[tuple(range(n))]] = 1
    out: list[tuple[Any, int]] = [(current, 1)]
    denom = 1
    for _ in range(m):
        new = np.zeros(len(current), dtype=object)
        new[:] = 0
        for col, w in zip(columns, weights, strict=True):
            new[col] += current * w
        current = new
        denom *= denom_step
        out.append((current, denom))
    return out


def repeat_curve(
    step: Mapping[Arrangement, Fraction], max_m: int, *, exact: bool | None = None
) -> list[Fraction] | list[float]:
    """Total variation to uniform after ``1 .. max_m`` repetitions.

    Exact fractions when ``exact`` (the default for ``n <= 6``), floats
    otherwise (``n <= 7``).

    >>> swap = {(0, 1): Fraction(1, 3), (1, 0): Fraction(2, 3)}
    >>> repeat_curve(swap, 3)
    [Fraction(1, 6), Fraction(1, 18), Fraction(1, 54)]
    >>> [round(x, 4) for x in repeat_curve(swap, 3, exact=False)]
    [0.1667, 0.0556, 0.0185]
    """
    n = _deck_size(step)
    if max_m < 1:
        raise RangeError(f"repetitions {max_m} is invalid; use 1 or more")
    if exact is None:
        exact = n <= MAX_EXACT
    space = math.factorial(n)
    if exact:
        if n > MAX_EXACT:
            raise RangeError(
                f"exact repetition of {n} cards is too large; use {MAX_EXACT} or fewer cards"
                " or floating point"
            )
        curve: list[Fraction] = []
        for numerators, denom in _exact_numerators(step, n, max_m)[1:]:
            total = sum(abs(int(v) * space - denom) for v in numerators)
            curve.append(Fraction(total, 2 * denom * space))
        return curve
    if n > MAX_FLOAT:
        raise RangeError(f"repetition of {n} cards is too large; use {MAX_FLOAT} or fewer cards")
    import numpy as np

    support = list(step)
    probs = [float(step[t]) for t in support]
    columns = _composition_columns(n, support)
    current = np.zeros(space)
    current[arrangement_index(n)[tuple(range(n))]] = 1.0
    floats: list[float] = []
    for _ in range(max_m):
        new = np.zeros(space)
        for col, p in zip(columns, probs, strict=True):
            new[col] += current * p
        current = new
        floats.append(float(np.abs(current - 1.0 / space).sum() / 2))
    return floats


@dataclass(frozen=True)
class ChainLimit:
    """Where repeated shuffling ends up.

    ``group`` arrangements are reachable at all (the group the steps
    generate); the walk cycles with ``period`` through cosets of ``spread``
    arrangements each, so the distance to uniform tends to ``tv``.
    """

    group: int
    period: int
    spread: int
    tv: Fraction


def chain_limit(step: Mapping[Arrangement, Fraction], *, max_steps: int = 1000) -> ChainLimit:
    """The limit of repeated shuffling (``n <= 8``): reachable group, period, limiting TV.

    >>> from fractions import Fraction
    >>> flip = {(1, 0, 2): Fraction(1, 2), (0, 2, 1): Fraction(1, 2)}   # always odd
    >>> chain_limit(flip)
    ChainLimit(group=6, period=2, spread=3, tv=Fraction(1, 2))
    """
    import numpy as np

    n = _deck_size(step)
    if n > MAX_FLOAT + 1:
        raise RangeError(f"{n} cards is too many for the chain limit; use {MAX_FLOAT + 1} or fewer")
    space = math.factorial(n)
    columns = _composition_columns(n, list(step))
    current = np.zeros(space, dtype=bool)
    current[arrangement_index(n)[tuple(range(n))]] = True
    seen: dict[bytes, int] = {}
    history: list[Any] = []
    for m in range(max_steps + 1):
        key = np.packbits(current).tobytes()
        if key in seen:
            start = seen[key]
            cycle = history[start:]
            period = len(cycle)
            spread = int(cycle[0].sum())
            group = int(np.logical_or.reduce(cycle).sum())
            return ChainLimit(group, period, spread, 1 - Fraction(spread, space))
        seen[key] = m
        history.append(current)
        new = np.zeros(space, dtype=bool)
        for col in columns:
            new[col] |= current
        current = new
    raise RangeError(f"the supports did not settle within {max_steps} steps")  # pragma: no cover


def stops_falling_at(
    curve: Sequence[Fraction | float],
    limit: Fraction | float,
    tolerance: float = 1e-6,
) -> int | None:
    """The first repetition (1-based) whose distance is within ``tolerance`` of ``limit``.

    ``None`` if the curve is still falling at its end.

    >>> stops_falling_at([0.9, 0.5, 0.25000001, 0.25], 0.25)
    3
    >>> stops_falling_at([0.9, 0.5], 0.0) is None
    True
    """
    for m, value in enumerate(curve, start=1):
        if float(value) - float(limit) <= tolerance:
            return m
    return None
