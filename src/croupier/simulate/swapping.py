"""dealer's swapping (``-2``, ``-3``): every shuffled deal followed by its hands swapped.

dealer's ``-2`` follows each shuffled deal by the same deal with East's and
West's hands exchanged; ``-3`` follows it by five more, East, South and West
permuted every which way with North in place.  dealer swaps the whole hands,
predealt cards too (its manual: "not fully compatible with predeal"), one pair
at a time in the order East-West, South-West, East-South, East-West, South-West,
each from the deal before.  :class:`SwapSampler` does the same to rejection's
rows: deal ``k * b + v`` is row ``b`` with swap ``v`` applied.  Every deal is
uniform, but the deals of one group are **not independent** of each other, so
the statistics of a swapped run are not those of independent deals: a count or
a mean has a larger spread than the same number of independent deals give.

>>> from croupier.randomness.bulk_stream import BulkStream
>>> from croupier.simulate.predeal import Predeal
>>> from croupier.simulate.sampler import RejectionSampler
>>> plain = RejectionSampler(Predeal.none(), BulkStream.seeded("swap"))
>>> swapped = SwapSampler(plain, 3).rows(0, 6)
>>> first = swapped.piles[0]
>>> bool((swapped.piles[1][first == 1] == 3).all())  # East's hand is West's in deal 1
True
>>> bool((swapped.piles[:, first == 0] == 0).all())  # North never moves
True
>>> SWAP_OWNERS[2]
((0, 1, 2, 3), (0, 3, 2, 1))
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from croupier.bulk.array import DealArray
from croupier.dealing.layout import Layout
from croupier.simulate.sampler import RejectionSampler

__all__ = ["SWAP_OWNERS", "SwapSampler"]

_SWAPS = ((1, 3), (2, 3), (1, 2), (1, 3), (2, 3))  # dealer's swap2 calls, in its order


def _owners(group: int) -> tuple[tuple[int, ...], ...]:
    """Where each seat's hand of the shuffled deal is in each deal of the group."""
    maps: list[tuple[int, ...]] = [(0, 1, 2, 3)]
    for a, b in _SWAPS[: group - 1]:
        swap = {a: b, b: a}
        maps.append(tuple(swap.get(seat, seat) for seat in maps[-1]))
    return tuple(maps)


SWAP_OWNERS: dict[int, tuple[tuple[int, ...], ...]] = {2: _owners(2), 3: _owners(6)}
"""For ``-2`` and ``-3``: the seat holding each seat's shuffled hand, deal by deal."""


class SwapSampler:
    """Rejection's rows, each followed by its swaps (``mode`` 2: one; 3: five)."""

    def __init__(self, rejection: RejectionSampler, mode: int) -> None:
        if mode not in SWAP_OWNERS:
            raise ValueError(f"swapping mode {mode} is not 2 or 3")
        if not rejection.layout.bridge_like:
            raise ValueError("dealer's swapping exchanges bridge hands")
        self.inner = rejection
        self.mode = mode
        self.maps = np.array(SWAP_OWNERS[mode], np.uint8)
        self.group = len(self.maps)
        self.dealer = rejection.dealer
        self.layout: Layout = rejection.layout
        self.name = f"rejection with dealer's {'2-way' if mode == 2 else '3-way'} swapping"
        self.algorithm = rejection.algorithm
        self.probability = Fraction(1)

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` .. ``stop - 1``: deal ``g * b + v`` is shuffled row ``b`` swapped
        ``v`` times (the bits of the shuffle are counted on its first deal)."""
        if stop <= start:
            return self.inner.rows(0, 0)
        first, last = start // self.group, (stop - 1) // self.group
        base = self.inner.rows(first, last + 1)
        piles = self.maps[:, base.piles]  # (group, rows, cards)
        piles = piles.transpose(1, 0, 2).reshape(-1, base.piles.shape[1])
        lo = start - first * self.group
        bits = None
        if base.bits is not None:
            every = np.zeros((len(base), self.group), np.uint32)
            every[:, 0] = base.bits
            bits = every.reshape(-1)[lo : lo + stop - start]
        return DealArray(self.layout, piles[lo : lo + stop - start], bits=bits, check=False)

    def bits(self, start: int, stop: int) -> int:
        """Random bits read for deals ``start`` .. ``stop - 1``."""
        dealt = self.rows(start, stop).bits
        return 0 if dealt is None else int(dealt.sum(dtype=np.uint64))
