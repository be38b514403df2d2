"""The digits of a bulk deal: one uniform number per pile, drawn from whole bytes by rejection.

A deal of a layout with pile sizes ``k_0 .. k_{P-1}`` from ``D`` cards is a
choice, pile after pile, of ``k_p`` cards among the ``r_p = D - k_0 - ... -
k_{p-1}`` still undealt: ``c_p = C(r_p, k_p)`` possibilities.  Digit ``p`` is
uniform on ``0 .. c_p - 1``; it is read from ``w_p`` bytes (big-endian), the
fewest bytes whose rejection rate is at most 1/64, and accepted when it is
below the largest multiple of ``c_p`` that fits (then taken modulo ``c_p``),
so no value is favoured.

>>> plan = digit_plan((13, 13, 13, 13))
>>> plan.widths, plan.row_bytes
((6, 5, 4, 0), 15)
>>> plan.ranges[0] == 635013559600 and plan.limits[0] % plan.ranges[0] == 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from croupier._core import bulk_kernels
from croupier._core.engines import Engine, resolve

__all__ = [
    "REJECT_AT_MOST",
    "DigitPlan",
    "accepted_digits",
    "accepted_digits_reference",
    "digit_plan",
    "digit_width",
    "digits_and_rejections",
    "kernel_plan",
    "plan_for_ranges",
]

REJECT_AT_MOST = 64
"""A digit's width is the fewest bytes that reject at most one value in this many."""


def digit_width(c: int) -> int:
    """Bytes read for a digit below ``c``: 0 when ``c == 1``, else the fewest ``w`` with
    ``64 * (256**w mod c) <= 256**w``.

    >>> [digit_width(c) for c in (1, 2, 6, 15, 200, 10400600)]
    [0, 1, 1, 1, 2, 4]
    """
    if c < 1:
        raise ValueError(f"a digit range is at least 1, not {c}")
    if c == 1:
        return 0
    w = 1
    while REJECT_AT_MOST * ((1 << (8 * w)) % c) > (1 << (8 * w)):
        w += 1
    return w


@dataclass(frozen=True)
class DigitPlan:
    """How the digits of one deal are read from its bytes.

    ``ranges[p]`` is ``c_p``, ``widths[p]`` the bytes read, ``limits[p]`` the
    first rejected value, ``offsets[p]`` where digit ``p`` starts in the
    deal's ``row_bytes`` bytes of the main stream.
    """

    sizes: tuple[int, ...]
    ranges: tuple[int, ...]
    widths: tuple[int, ...]
    limits: tuple[int, ...]
    offsets: tuple[int, ...]
    row_bytes: int

    @property
    def machine_sized(self) -> bool:
        """Whether every digit fits 64 bits (the compiled kernels; else exact Python ints)."""
        return all(w <= 8 for w in self.widths)

    def number(self, digits: Sequence[int]) -> int:
        """The deal number (``croupier`` scheme) of one deal's digits: pile 0 most significant.

        >>> digit_plan((2, 2, 2)).number([14, 5, 0])
        89
        """
        n = 0
        for d, c in zip(digits, self.ranges, strict=True):
            n = n * c + d
        return n


@lru_cache(maxsize=64)
def digit_plan(sizes: tuple[int, ...]) -> DigitPlan:
    """The :class:`DigitPlan` of a layout's pile sizes (the last pile gets what is left)."""
    left = sum(sizes)
    ranges = []
    for k in sizes:
        ranges.append(comb(left, k))
        left -= k
    return plan_for_ranges(sizes, ranges)


def plan_for_ranges(sizes: Sequence[int], ranges: Sequence[int]) -> DigitPlan:
    """The :class:`DigitPlan` of digits below ``ranges`` (``sizes``: what the digits are of).

    >>> plan_for_ranges((3,), (6,)).widths
    (1,)
    """
    widths, limits, offsets = [], [], []
    offset = 0
    for c in ranges:
        w = digit_width(c)
        widths.append(w)
        limits.append((1 << (8 * w)) - (1 << (8 * w)) % c)
        offsets.append(offset)
        offset += w
    return DigitPlan(
        tuple(sizes), tuple(ranges), tuple(widths), tuple(limits), tuple(offsets), offset
    )


def accepted_digits_reference(
    rows: Sequence[bytes], plan: DigitPlan
) -> tuple[list[list[int]], list[list[bool]]]:
    """The rule of :func:`accepted_digits` in plain Python (the executable specification).

    For every row of ``plan.row_bytes`` bytes: each digit's value (its bytes,
    big-endian) modulo its range, and whether the value was rejected (at least
    the digit's limit).  Returns the digits ``[pile][deal]`` and the rejections
    ``[deal][pile]``.

    >>> accepted_digits_reference([bytes([17, 250]), bytes([255, 3])], digit_plan((2, 2, 2)))
    ([[2, 0], [4, 3], [0, 0]], [[False, False, False], [True, False, False]])
    """
    digits: list[list[int]] = [[] for _ in plan.ranges]
    rejected: list[list[bool]] = []
    for row in rows:
        flags = []
        for p, (c, w, limit, o) in enumerate(
            zip(plan.ranges, plan.widths, plan.limits, plan.offsets, strict=True)
        ):
            value = int.from_bytes(row[o : o + w], "big")
            digits[p].append(value % c)
            flags.append(value >= limit)
        rejected.append(flags)
    return digits, rejected


@lru_cache(maxsize=64)
def kernel_plan(
    plan: DigitPlan,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]
]:
    """A machine-sized plan's widths, offsets, ranges and limits as the kernels read them
    (a limit of 2**64 is 0: nothing rejected).

    >>> [a.tolist() for a in kernel_plan(digit_plan((2, 2, 2)))]
    [[1, 1, 0], [0, 1, 2], [15, 6, 1], [255, 252, 1]]
    """
    arrays = (
        np.array(plan.widths, np.int64),
        np.array(plan.offsets, np.int64),
        np.array(plan.ranges, np.uint64),
        np.array([lim if lim < 1 << 64 else 0 for lim in plan.limits], np.uint64),
    )
    for array in arrays:
        array.flags.writeable = False
    return arrays


def accepted_digits(
    rows: npt.NDArray[np.uint8], plan: DigitPlan, engine: Engine = "auto"
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.bool_]]:
    """Every deal's first-try digits from its main-stream bytes, and which were rejected.

    ``rows`` has shape ``(n, plan.row_bytes)``.  Returns the digits as a
    ``uint64`` array ``(piles, n)`` (rejected entries hold the value modulo the
    range) and a boolean ``(n, piles)`` array of rejections.  Needs
    ``plan.machine_sized``.  The compiled kernel
    (``croupier._core.bulk_kernels.accepted_digits``) runs it; ``engine="python"``
    runs :func:`accepted_digits_reference`: the same arrays.

    >>> plan = digit_plan((2, 2, 2))
    >>> digits, rejected = accepted_digits(np.array([[17, 250], [255, 3]], np.uint8), plan)
    >>> [d.tolist() for d in digits[:2]], rejected[:, :2].tolist()
    ([[2, 0], [4, 3]], [[False, False], [True, False]])
    """
    if not plan.machine_sized:
        raise ValueError("accepted_digits() needs digits of at most 8 bytes (machine_sized)")
    table = np.ascontiguousarray(rows, dtype=np.uint8)
    n = table.shape[0]
    piles = len(plan.sizes)
    if resolve(engine) == "python":
        values, flags = accepted_digits_reference([bytes(r) for r in table.tolist()], plan)
        digits = np.array(values, np.uint64).reshape(piles, n)
        return digits, np.array(flags, bool).reshape(n, piles)
    digits, where = digits_and_rejections(table, plan)
    rejected = np.zeros((n, piles), bool)
    rejected.reshape(-1)[where] = True
    return digits, rejected


def digits_and_rejections(
    rows: npt.NDArray[np.uint8], plan: DigitPlan
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """:func:`accepted_digits` by the compiled kernel, the rejections listed: the digits
    ``(piles, n)`` and, in order, ``deal * piles + pile`` of every rejected digit.

    >>> digits, where = digits_and_rejections(np.array([[17, 250], [255, 3]], np.uint8),
    ...                                       digit_plan((2, 2, 2)))
    >>> digits[:2].tolist(), where.tolist()
    ([[2, 0], [4, 3]], [3])
    """
    n = rows.shape[0]
    piles = len(plan.sizes)
    digits = np.empty((piles, n), np.uint64)
    where = np.empty(n * piles, np.int64)
    count = bulk_kernels.accepted_digits(rows, *kernel_plan(plan), digits, where, 0, n)
    return digits, where[:count]
