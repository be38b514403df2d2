"""Samplers: numbered sequences of deals, each row exactly uniform over the sampler's support.

A simulation draws deals from a :class:`Sampler` and keeps those that pass
its condition.  Row ``i`` of a sampler depends only on its stream's key and
``i``, so any range can be dealt on its own (prefix stability, chunked runs).
:class:`RejectionSampler` deals the free cards of a :class:`Predeal` with the
bulk engine (``croupier-bulk/1``): its support is every deal that holds the
predealt cards, so its :attr:`~RejectionSampler.probability` is 1.  Smart
stacking (:mod:`croupier.simulate.stacking`) narrows the support.

>>> from croupier.bulk import BulkStream
>>> from croupier.simulate.predeal import Predeal
>>> sampler = RejectionSampler(Predeal.parse("N:AKQ.-.-.-"), BulkStream.seeded("demo"))
>>> deals = sampler.rows(0, 1000)
>>> bool((deals.piles[:, :3] == 0).all()), sampler.name, sampler.probability
(True, 'rejection', Fraction(1, 1))
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from croupier._core.engines import Engine
from croupier.bulk.array import DealArray
from croupier.bulk.generate import BULK_ALGORITHM_ID, BulkDealer
from croupier.dealing.layout import Layout
from croupier.randomness.bulk_stream import BulkStream
from croupier.simulate.predeal import Predeal

__all__ = ["RejectionSampler", "Sampler"]


@runtime_checkable
class Sampler(Protocol):
    """A numbered sequence of deals of one layout, each exactly uniform over the support.

    ``name`` says what it is, for summaries (``"rejection"``, ``"smart
    stacking (north)"``); ``algorithm`` is the id of the reproducible
    algorithm behind its rows (``croupier-bulk/1``, ``croupier-stack/2``);
    ``probability`` is the exact probability that a
    uniform deal holding the predealt cards lies in the support.
    :meth:`rows` gives deals ``start`` to ``stop - 1``: independent rows,
    row ``i`` depending only on the stream's key and ``i``; :meth:`bits` the
    random bits those rows consumed.

    >>> from croupier.bulk import BulkStream
    >>> from croupier.simulate.predeal import Predeal
    >>> isinstance(RejectionSampler(Predeal.none(), BulkStream.seeded("s")), Sampler)
    True
    """

    name: str
    algorithm: str
    layout: Layout
    probability: Fraction

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` .. ``stop - 1`` of this sampler's sequence."""
        ...

    def bits(self, start: int, stop: int) -> int:
        """Random bits consumed by deals ``start`` .. ``stop - 1``."""
        ...


class RejectionSampler:
    """Deals holding the predealt cards, exactly uniform: the bulk engine over the free cards.

    A :class:`~croupier.bulk.BulkDealer` deals the predeal's
    :attr:`~Predeal.free_layout` (the free cards into the piles' free sizes)
    from ``stream``; :meth:`Predeal.merge` puts the predealt cards back.
    Every deal holding the predealt cards comes from exactly one deal of the
    free cards, so each row is exactly uniform over them.  With nothing
    predealt the rows are the bulk engine's own: the deals of
    ``BulkDealer(layout, stream=stream)``.

    >>> from croupier.bulk import BulkStream, deal_array
    >>> from croupier.simulate.predeal import Predeal
    >>> plain = RejectionSampler(Predeal.none(), BulkStream.seeded("demo"))
    >>> plain.rows(0, 5) == deal_array(5, seed="demo")
    True
    """

    name = "rejection"
    algorithm = BULK_ALGORITHM_ID
    probability = Fraction(1)

    def __init__(self, predeal: Predeal, stream: BulkStream, *, engine: Engine = "auto") -> None:
        self.predeal = predeal
        self.layout = predeal.layout
        self.stream = stream
        self.dealer = BulkDealer(predeal.free_layout, stream=stream, engine=engine)

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` .. ``stop - 1``: the free cards dealt by the bulk engine, merged.

        The pile bitmasks the bulk engine computed for the free cards come
        along, moved to the cards' places in the whole deck.

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate.predeal import Predeal
        >>> sampler = RejectionSampler(Predeal.parse("W:AKQ.-.-.-"), BulkStream.seeded("m"))
        >>> deals = sampler.rows(0, 100)
        >>> plain = DealArray(deals.layout, deals.piles)  # masks computed from the piles
        >>> bool((deals.masks() == plain.masks()).all())
        True
        """
        free = self.dealer.rows(start, stop)
        if free.layout is self.layout:
            return free
        deals = self.predeal.merge(free.piles, bits=free.bits, check=False)
        known = free._masks  # the free cards' masks the engine computed, by pile
        if self._deposit is None or len(known) < len(self.layout.piles) or deals.bits is None:
            return deals
        fixed, tables = self._deposit
        masks = np.empty((len(fixed), len(deals)), np.uint64)
        for p, held in enumerate(fixed):
            free_mask = known[p]
            out = np.full(len(deals), held, np.uint64)
            for b, table in enumerate(tables):
                out |= table[(free_mask >> np.uint64(8 * b)) & np.uint64(0xFF)]
            masks[p] = out
        return DealArray._dealt(self.layout, deals.piles, deals.bits, masks)

    @cached_property
    def _deposit(self) -> tuple[list[int], npt.NDArray[np.uint64]] | None:
        """Each pile's mask of predealt cards, and per byte of a free-card mask the mask of
        the same cards in the whole deck (``None`` for decks beyond 64 cards)."""
        if len(self.layout.deck) > 64:
            return None
        places = self.predeal.free_cards
        tables = np.zeros(((len(places) + 7) // 8, 256), np.uint64)
        values = np.arange(256)
        for j, card in enumerate(places):
            b, bit = divmod(j, 8)
            tables[b, (values >> bit) & 1 == 1] |= np.uint64(1 << card)
        fixed = [0] * len(self.layout.piles)
        for card, pile in enumerate(self.predeal.owners):
            if pile >= 0:
                fixed[pile] |= 1 << card
        return fixed, tables

    def bits(self, start: int, stop: int) -> int:
        """Random bits the bulk engine read for deals ``start`` .. ``stop - 1`` (exact).

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate.predeal import Predeal
        >>> every = Predeal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.")
        >>> RejectionSampler(every, BulkStream.seeded("s")).bits(0, 10)  # nothing left to choose
        0
        """
        dealt = self.dealer.rows(start, stop).bits
        return 0 if dealt is None else int(dealt.sum(dtype=np.uint64))

    def describe(self) -> str:
        """The algorithm and stream, for summaries.

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate.predeal import Predeal
        >>> RejectionSampler(Predeal.none(), BulkStream.seeded("s")).describe()
        'rejection over croupier-bulk/1, seeded stream'
        """
        return f"{self.name} over {self.dealer.describe()}"
