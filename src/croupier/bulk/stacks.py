"""The stacks of bulk deals (``croupier-bulk/2``): every stack's order from a keyed stream.

A layout's stacks (piles of two or more cards dealt in order, top first) are
ordered after the piles' cards are dealt.  Their forward Fisher–Yates offsets
(:mod:`croupier.ranking.stacks`: radices ``k, k-1, …, 2`` for every stack, in
pile order) are cut into **chunks** of consecutive radices, each with a
product of at most ``2**56`` (a new chunk starts when the next radix would
pass it; chunks run on from one stack to the next).  Each chunk is one digit,
uniform below that product, read from the
stream :meth:`~croupier.randomness.BulkStream.derive` ``("croupier-bulk/2
stacks")`` exactly as ``croupier-bulk/1`` reads its pile digits (whole bytes,
at most one value in 64 rejected, rejected digits drawn again from the
block's retry stream, in order of deal and chunk).  A chunk's digit is its
offsets in mixed radix, the first most significant; stack ``p``'s cards,
taken in deck order, are then swapped into place: for ``i = 0 … k-2``, swap
positions ``i`` and ``i + r_i``.

The digits in order are the stacks' code, so a deal's number (``croupier``
scheme) is its piles' number times ``∏ k!`` plus the chunks read in mixed
radix.

>>> plan = stack_plan(((4, 26), (5, 3)))
>>> [len(c) for c in plan.chunks], plan.digits.row_bytes
([13, 14], 13)
>>> row_offsets([0, 5], plan)[-2:]
[2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from croupier._core import bulk_kernels
from croupier._core.engines import Engine, resolve
from croupier.bulk.digits import DigitPlan, plan_for_ranges
from croupier.ranking.stacks import order_radices

__all__ = [
    "CHUNK_BOUND",
    "STACK_STREAM",
    "StackPlan",
    "grouped_cards",
    "order_into",
    "order_reference",
    "order_row",
    "row_offsets",
    "stack_plan",
]

CHUNK_BOUND = 1 << 56
"""The largest product of the radices of one chunk (its digit is read from at most 8 bytes)."""

STACK_STREAM = "croupier-bulk/2 stacks"
"""The label of the stream the stack digits come from (``BulkStream.derive``)."""


@dataclass(frozen=True)
class StackPlan:
    """How the orders of a layout's stacks are read: ``stacks`` (pile, size) in pile order,
    ``chunks`` the radices of every digit, ``digits`` how the digits are read."""

    stacks: tuple[tuple[int, int], ...]
    chunks: tuple[tuple[int, ...], ...]
    digits: DigitPlan

    @property
    def radices(self) -> int:
        """How many offsets a deal has (the sum of ``k - 1`` over the stacks)."""
        return sum(len(c) for c in self.chunks)


@lru_cache(maxsize=64)
def stack_plan(stacks: tuple[tuple[int, int], ...]) -> StackPlan:
    """The :class:`StackPlan` of stacks ``(pile, size)`` (stacks of one card have no digit)."""
    chunks: list[tuple[int, ...]] = []
    current: list[int] = []
    product = 1
    for q in order_radices([k for _, k in stacks]):
        if current and product * q > CHUNK_BOUND:
            chunks.append(tuple(current))
            current, product = [], 1
        current.append(q)
        product *= q
    if current:
        chunks.append(tuple(current))
    ranges = []
    for chunk in chunks:
        r = 1
        for q in chunk:
            r *= q
        ranges.append(r)
    digits = plan_for_ranges(tuple(len(c) for c in chunks), ranges)
    return StackPlan(tuple(stacks), tuple(chunks), digits)


def row_offsets(digits: Sequence[int], plan: StackPlan) -> list[int]:
    """One deal's Fisher–Yates offsets from its chunk digits (plain Python, the rule).

    Each chunk's digit is its offsets in mixed radix, the first most significant.

    >>> row_offsets([5], stack_plan(((0, 3),)))
    [2, 1]
    """
    out: list[int] = []
    for chunk, digit in zip(plan.chunks, digits, strict=True):
        value, part = int(digit), []
        for q in reversed(chunk):
            value, r = divmod(value, q)
            part.append(r)
        out += reversed(part)
    return out


def order_reference(
    owners: Sequence[int], digits: Sequence[int], plan: StackPlan
) -> list[list[int]]:
    """One deal's stacks (deck positions, top first) from its owners and chunk digits: the
    executable specification of the compiled kernel (``croupier._core.bulk_kernels.order_stacks``).

    >>> order_reference([1, 0, 1, 1], [5], stack_plan(((1, 3),)))
    [[3, 0, 2]]
    """
    return order_row(owners, row_offsets(digits, plan), plan)


@lru_cache(maxsize=64)
def _kernel_plan(
    plan: StackPlan,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The radices, chunk sizes and stack sizes of a plan, as the kernel reads them."""
    arrays = (
        np.array([q for chunk in plan.chunks for q in chunk], np.int64),
        np.array([len(c) for c in plan.chunks], np.int64),
        np.array([k for _, k in plan.stacks], np.int64),
    )
    for array in arrays:
        array.flags.writeable = False
    return arrays


def order_into(
    piles: npt.NDArray[np.uint8],
    sizes: Sequence[int],
    digits: npt.NDArray[np.uint64],
    plan: StackPlan,
    out: npt.NDArray[np.unsignedinteger],
    dest: int = 0,
    engine: Engine = "auto",
) -> None:
    """Every deal's stacks in order, side by side in rows ``dest ..`` of ``out``.

    ``piles`` ``(m, deck)`` holds the deals' owners (``sizes`` the layout's pile
    sizes), ``digits`` ``(chunks, m)`` their chunk digits; each stack's cards are
    taken in deck order and swapped into place.

    >>> plan = stack_plan(((1, 3),))
    >>> out = np.zeros((1, 3), np.uint8)
    >>> order_into(np.array([[1, 0, 1, 1]], np.uint8), (1, 3), np.array([[5]], np.uint64),
    ...            plan, out)
    >>> out.tolist()
    [[3, 0, 2]]
    """
    m = piles.shape[0]
    if resolve(engine) == "python":
        columns = digits.T.tolist() if digits.shape[0] else [[] for _ in range(m)]
        for i, (owners, row) in enumerate(zip(piles.tolist(), columns, strict=True)):
            out[dest + i] = [c for stack in order_reference(owners, row, plan) for c in stack]
        return
    grouped = grouped_cards(piles, len(sizes))
    starts = np.cumsum([0, *sizes]).tolist()
    cards = np.concatenate(
        [grouped[:, starts[pile] : starts[pile] + k] for pile, k in plan.stacks], axis=1
    ).astype(out.dtype)
    chunk_digits = np.ascontiguousarray(digits, dtype=np.uint64)
    bulk_kernels.order_stacks(cards, chunk_digits, *_kernel_plan(plan), out, 0, m, dest)


def grouped_cards(piles: npt.NDArray[np.uint8], pile_count: int) -> npt.NDArray[np.unsignedinteger]:
    """Per deal, the deck indices of every pile's cards, pile after pile, each in deck order.

    Pile ``p`` takes the same columns in every row (its size is the layout's).

    >>> grouped_cards(np.array([[1, 0, 1, 0]], np.uint8), 2).tolist()
    [[1, 3, 0, 2]]
    """
    deck = piles.shape[1]
    shift = max(1, int(deck - 1).bit_length())
    dtype = np.dtype(np.uint16 if pile_count << shift <= 1 << 16 else np.uint32)
    keys: npt.NDArray[np.unsignedinteger] = piles.astype(dtype)
    keys <<= shift
    keys |= np.arange(deck, dtype=dtype)
    keys.sort(axis=1)
    keys &= (1 << shift) - 1
    return keys


def order_row(owners: Sequence[int], offsets: Sequence[int], plan: StackPlan) -> list[list[int]]:
    """One deal's stacks (deck positions, top first) from its owners and offsets.

    >>> plan = stack_plan(((1, 3),))
    >>> order_row([1, 0, 1, 1], [2, 1], plan)
    [[3, 0, 2]]
    """
    out = []
    at = 0
    for pile, k in plan.stacks:
        a = [pos for pos, owner in enumerate(owners) if owner == pile]
        for i in range(k - 1):
            j = i + int(offsets[at + i])
            a[i], a[j] = a[j], a[i]
        out.append(a)
        at += max(k - 1, 0)
    return out
