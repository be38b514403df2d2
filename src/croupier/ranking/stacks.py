"""Exact bijections between the orders of stacks and integers: the stack code.

A *stack* is a pile whose order matters (a stock, a pond, a War pile), listed
top first.  A stack of ``k`` cards has ``k!`` orders.  Its order is written as
a permutation ``perm`` of ``range(k)``: ``perm[i]`` is the place, among the
stack's cards listed in deck order, of the card at position ``i`` from the top.
So ``[0, 1, …, k-1]`` is the stack lying in deck order (its first card in deck
order on top).

The **code** of an order is the mixed-radix number of its forward Fisher–Yates
offsets: start from ``a = [0, 1, …, k-1]``; for ``i = 0 … k-2`` let ``j`` be
the position of ``perm[i]`` in ``a`` (always ``j >= i``), ``r_i = j - i``, and
swap ``a[i]`` and ``a[j]``.  Then ``r_i < k - i`` and

    code = (…((r_0 · (k-1) + r_1) · (k-2) + r_2) …) · 2 + r_{k-2}

(``r_0`` most significant; the radices are ``k, k-1, …, 2``), a bijection onto
``[0, k!)``.  Decoding reads the offsets back (the last one is ``code mod 2``)
and applies the swaps, in ``O(k)`` steps.  Several stacks (in pile order)
combine in mixed radix too, the first stack most significant:
``stacks_code = (…(c_0 · k_1! + c_1) · k_2! + …)`` — which is the same as
reading every stack's offsets, one after another, as one mixed-radix number
(radices :func:`order_radices`).

>>> order_code([0, 1, 2]), order_code([2, 1, 0]), order_from_code(5, 3)
(0, 4, [2, 0, 1])
>>> all(order_code(order_from_code(c, 4)) == c for c in range(24))
True
>>> stacks_from_code(7, (2, 3)), stacks_code([[1, 0], [0, 2, 1]])
([[1, 0], [0, 2, 1]], 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from croupier.errors import RankingError

__all__ = [
    "arrangements",
    "order_code",
    "order_from_code",
    "order_offsets",
    "order_radices",
    "stacks_code",
    "stacks_from_code",
]


def arrangements(sizes: Sequence[int]) -> int:
    """``k_0! · k_1! · …``: the orders of stacks of these sizes together.

    >>> arrangements([3, 2]), arrangements([])
    (12, 1)
    """
    total = 1
    for k in sizes:
        total *= factorial(k)
    return total


def order_radices(sizes: Sequence[int]) -> list[int]:
    """The radices of the Fisher–Yates offsets of stacks of these sizes: ``k, k-1, …, 2`` each.

    A stack of one card (or none) has no offset.

    >>> order_radices([3, 1, 2])
    [3, 2, 2]
    """
    return [k - i for k in sizes for i in range(k - 1)]


def order_offsets(perm: Sequence[int]) -> list[int]:
    """The forward Fisher–Yates offsets ``r_0 … r_{k-2}`` of an order (see the module).

    >>> order_offsets([2, 0, 1])
    [2, 1]
    """
    k = len(perm)
    a = list(range(k))
    where = list(range(k))  # where[v]: the position of v in a
    offsets = []
    for i in range(k - 1):
        value = perm[i]
        if not 0 <= value < k:
            raise RankingError(f"a stack order lists places 0..{k - 1}, not {value}")
        j = where[value]
        if j < i:
            raise RankingError(f"a stack order names place {value} twice")
        offsets.append(j - i)
        a[i], a[j] = a[j], a[i]
        where[a[i]], where[a[j]] = i, j
    if k and not 0 <= perm[k - 1] < k:
        raise RankingError(f"a stack order lists places 0..{k - 1}, not {perm[k - 1]}")
    if k and where[perm[k - 1]] != k - 1:
        raise RankingError(f"a stack order names place {perm[k - 1]} twice")
    return offsets


def order_code(perm: Sequence[int]) -> int:
    """The code (in ``[0, k!)``) of the order ``perm`` of a stack of ``k = len(perm)`` cards.

    >>> [order_code(p) for p in ([0, 1], [1, 0])]
    [0, 1]
    """
    k = len(perm)
    code = 0
    for i, r in enumerate(order_offsets(perm)):
        code = code * (k - i) + r
    return code


def order_from_code(code: int, k: int) -> list[int]:
    """The order of a stack of ``k`` cards with this code (inverse of :func:`order_code`).

    >>> order_from_code(0, 4), order_from_code(23, 4)
    ([0, 1, 2, 3], [3, 0, 1, 2])
    >>> order_from_code(6, 3)
    Traceback (most recent call last):
    ...
    croupier.errors.RankingError: stack code 6 out of range; expected 0 <= code < 6
    """
    if isinstance(code, bool) or not isinstance(code, int):
        raise RankingError(f"a stack code must be an integer, got {code!r}")
    if not 0 <= code < factorial(k):
        raise RankingError(f"stack code {code} out of range; expected 0 <= code < {factorial(k)}")
    offsets = [0] * max(k - 1, 0)
    for i in range(k - 2, -1, -1):
        code, offsets[i] = divmod(code, k - i)
    a = list(range(k))
    for i, r in enumerate(offsets):
        j = i + r
        a[i], a[j] = a[j], a[i]
    return a


def stacks_code(perms: Sequence[Sequence[int]]) -> int:
    """The combined code of several stacks' orders, the first stack most significant.

    >>> stacks_code([[0, 1], [2, 1, 0]]), stacks_code([[1, 0], [0, 1, 2]])
    (4, 6)
    """
    code = 0
    for perm in perms:
        code = code * factorial(len(perm)) + order_code(perm)
    return code


def stacks_from_code(code: int, sizes: Sequence[int]) -> list[list[int]]:
    """The orders of stacks of these sizes with this combined code (inverse of :func:`stacks_code`).

    >>> stacks_from_code(0, (2, 2))
    [[0, 1], [0, 1]]
    """
    total = arrangements(sizes)
    if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < total:
        raise RankingError(f"stack code {code!r} out of range; expected 0 <= code < {total}")
    codes = [0] * len(sizes)
    for s in range(len(sizes) - 1, -1, -1):
        code, codes[s] = divmod(code, factorial(sizes[s]))
    return [order_from_code(c, k) for c, k in zip(codes, sizes, strict=True)]
