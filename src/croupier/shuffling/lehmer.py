"""Lexicographic ranking of permutations through the Lehmer code.

The Lehmer code of a permutation ``p`` of ``0..n-1`` lists, for each position
``i``, how many later entries are smaller than ``p[i]`` — equivalently the
index of ``p[i]`` among the values not used yet.  Read as a mixed-radix
number with radices ``n, n-1, ..., 1`` it is the permutation's rank in
lexicographic order, a bijection between permutations and ``[0, n!)``.

>>> rank_permutation([2, 0, 1])
4
>>> unrank_permutation(4, 3)
[2, 0, 1]
>>> permutation_from_rank("abc", 4)
['c', 'a', 'b']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate
from operator import floordiv, mod
from typing import TypeVar

from croupier._core.lehmer import decode_rank_taking as _compiled_decode
from croupier.errors import RankingError

__all__ = [
    "decode_rank",
    "decode_rank_taking",
    "from_lehmer_code",
    "lehmer_code",
    "lehmer_digits_of_rank",
    "permutation_from_rank",
    "rank_permutation",
    "unrank_permutation",
]

T = TypeVar("T")


def _check_permutation(perm: Sequence[int]) -> None:
    n = len(perm)
    if sorted(perm) != list(range(n)):
        raise RankingError(f"{list(perm)!r} is not a permutation of 0..{n - 1}")


def lehmer_code(perm: Sequence[int]) -> list[int]:
    """The Lehmer code of a permutation of ``0..n-1``.

    >>> lehmer_code([2, 0, 1])
    [2, 0, 0]
    """
    _check_permutation(perm)
    n = len(perm)
    # Fenwick tree over values still unused: O(n log n).
    tree = [0] * (n + 1)
    for v in range(1, n + 1):
        tree[v] += 1
        parent = v + (v & -v)
        if parent <= n:
            tree[parent] += tree[v]
    code = []
    for value in perm:
        count, i = 0, value  # unused values below `value`
        while i > 0:
            count += tree[i]
            i -= i & -i
        code.append(count)
        i = value + 1
        while i <= n:
            tree[i] -= 1
            i += i & -i
    return code


def from_lehmer_code(code: Sequence[int]) -> list[int]:
    """The permutation of ``0..n-1`` with this Lehmer code.

    >>> from_lehmer_code([2, 0, 0])
    [2, 0, 1]
    """
    n = len(code)
    pool = list(range(n))
    out = []
    for i, d in enumerate(code):
        if not 0 <= d < n - i:
            raise RankingError(f"Lehmer digit {d} at position {i} must be in 0..{n - i - 1}")
        out.append(pool.pop(d))
    return out


_plans: dict[int, list[tuple[int, tuple[int, ...]]]] = {}


def _plan(n: int) -> list[tuple[int, tuple[int, ...]]]:
    """Radices ``1..n`` in consecutive groups whose product stays below ``2**30``."""
    plan = _plans.get(n)
    if plan is None:
        plan = []
        k = 1
        while k <= n:
            product, j = k, k + 1
            while j <= n and product * j < 1 << 30:
                product *= j
                j += 1
            plan.append((product, tuple(range(k, j))))
            k = j
        if n <= 4096:
            _plans[n] = plan
    return plan


def _digits_low_first(rank: int, n: int) -> list[int]:
    """Mixed-radix digits of ``rank`` for radices ``1, 2, ..., n`` (least significant first).

    One big division per group of radices; the digits of each group come from
    single-word integers, which CPython divides fastest.
    """
    digits: list[int] = []
    append = digits.append
    for product, radices in _plan(n):
        rank, c = divmod(rank, product)
        for k in radices:
            append(c % k)
            c //= k
    return digits


_SMALL_DECODE = 160
_radices_cache: dict[int, list[int]] = {}


def decode_rank(seq: Sequence[T], rank: int) -> list[T]:
    """:func:`permutation_from_rank` without the range check (``rank`` must be in ``[0, n!)``).

    Up to 160 items the digits come from two C-level passes (successive
    quotients by ``1, 2, 3, ...``, then each quotient modulo its radix); above,
    from groups of radices in single-word integers.

    >>> decode_rank("abc", 4)
    ['c', 'a', 'b']
    """
    return decode_rank_taking(list(seq), rank)


def decode_rank_taking(pool: list[T], rank: int) -> list[T]:
    """:func:`decode_rank` that takes the items out of ``pool`` (left empty): no copy.

    Run by the compiled core (``croupier._core.lehmer``); the plain-Python
    specification is :func:`decode_rank_taking_reference`.

    >>> pool = ["a", "b", "c"]
    >>> decode_rank_taking(pool, 4), pool
    (['c', 'a', 'b'], [])
    """
    return _compiled_decode(pool, rank)


def decode_rank_taking_reference(pool: list[T], rank: int) -> list[T]:
    """:func:`decode_rank_taking` in plain Python (the specification the tests hold it to).

    The digits of ``rank`` in the radices ``1, 2, ..., n`` (successive
    remainders, lowest radix first); then, from the highest radix down, the item
    at place ``digit`` of what is left of the pool is taken.

    >>> pool = ["a", "b", "c"]
    >>> decode_rank_taking_reference(pool, 4), pool
    (['c', 'a', 'b'], [])
    """
    n = len(pool)
    if n <= _SMALL_DECODE:
        radices = _radices_cache.get(n)
        if radices is None:
            radices = _radices_cache[n] = list(range(1, n + 1))
        digits = list(map(mod, accumulate(radices, floordiv, initial=rank), radices))
    else:
        digits = _digits_low_first(rank, n)
    return list(map(pool.pop, reversed(digits)))


def lehmer_digits_of_rank(rank: int, n: int) -> list[int]:
    """The Lehmer code (mixed radix ``n, ..., 1``) of ``rank`` in ``[0, n!)``.

    >>> lehmer_digits_of_rank(4, 3)
    [2, 0, 0]
    """
    if n < 0:
        raise RankingError(f"cannot rank permutations of {n} items; use n >= 0")
    if not 0 <= rank < math.factorial(n):
        raise RankingError(f"permutation rank {rank} is out of range; use 0 <= rank < {n}!")
    return _digits_low_first(rank, n)[::-1]


def rank_permutation(perm: Sequence[int]) -> int:
    """The lexicographic rank of a permutation of ``0..n-1``, in ``[0, n!)``.

    >>> rank_permutation([0, 1, 2]), rank_permutation([2, 1, 0])
    (0, 5)
    """
    code = lehmer_code(perm)
    n = len(code)
    rank = 0
    for i, d in enumerate(code):
        rank = rank * (n - i) + d
    return rank


def unrank_permutation(rank: int, n: int) -> list[int]:
    """The permutation of ``0..n-1`` with lexicographic rank ``rank``.

    >>> unrank_permutation(0, 4), unrank_permutation(23, 4)
    ([0, 1, 2, 3], [3, 2, 1, 0])
    """
    return from_lehmer_code(lehmer_digits_of_rank(rank, n))


def permutation_from_rank(seq: Sequence[T], rank: int) -> list[T]:
    """The arrangement of ``seq`` with lexicographic rank ``rank`` (by position).

    Position ``i`` of the result holds ``seq[p[i]]`` where ``p`` is
    ``unrank_permutation(rank, len(seq))``.

    >>> permutation_from_rank(["x", "y", "z"], 1)
    ['x', 'z', 'y']
    """
    n = len(seq)
    if not 0 <= rank < math.factorial(n):
        raise RankingError(f"permutation rank {rank} is out of range; use 0 <= rank < {n}!")
    return decode_rank(seq, rank)
