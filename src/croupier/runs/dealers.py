"""The dealers of a run: one protocol for every engine and condition.

A :class:`RunDealer` hands out the run's deals either as :class:`Deal` objects
(:meth:`~RunDealer.deals`) or as :class:`DealArray` batches
(:meth:`~RunDealer.arrays`) — the same deals in the same order either way, so a
writer takes whichever suits it — and says where its randomness came from.

* :class:`MinimalBitsDealer` — the deal engine (``croupier-deal/2``): deal by deal,
  every deal method, the fewest random bits, user entropy;
* :class:`BulkRunDealer` — the bulk engine (``croupier-bulk/1``): batches dealt in a
  second thread, a batch ahead of the writer;
* :class:`ConditionedDealer` — a simulation (``where``, ``predeal``) presented the
  same way: only the deals that pass, in order (:mod:`croupier.runs.conditioned`).

>>> from croupier.dealing import make_layout
>>> from croupier.runs.request import DealRequest
>>> dealer = BulkRunDealer(DealRequest.make(make_layout("bridge"), 3, seed="x"))
>>> [len(a) for a in dealer.arrays(3)], dealer.source_kind, dealer.algorithm
([3], 'seeded', 'croupier-bulk/1')
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, cast

import numpy as np

from croupier.bulk import BulkDealer, DealArray
from croupier.bulk.generate import DEFAULT_BATCH
from croupier.dealing import Deal, Layout, deal_many
from croupier.errors import CroupierError, EntropyExhaustedError
from croupier.randomness import RandomSource
from croupier.randomness.bulk_stream import BulkStream
from croupier.runs.request import DealRequest, dice_note

__all__ = [
    "BATCH",
    "DEAL_ENGINE_BATCH",
    "BulkRunDealer",
    "MinimalBitsDealer",
    "RunDealer",
    "array_deals",
    "deal_arrays",
    "dealt_ahead",
]

BATCH = DEFAULT_BATCH
"""Deals the bulk engine makes and writes at a time (memory stays a few MB)."""

DEAL_ENGINE_BATCH = 1024
"""Deals of the deal engine gathered into one array for the array writers."""


class RunDealer(Protocol):
    """What a run needs of a dealer."""

    @property
    def layout(self) -> Layout: ...

    @property
    def algorithm(self) -> str:
        """The algorithm id of the deals (``croupier-bulk/1``, ``croupier-deal/2``, ...)."""
        ...

    @property
    def method(self) -> str:
        """How the deals are made, for the note: a deal method, or the bulk algorithm."""
        ...

    @property
    def source_kind(self) -> str:
        """Where the randomness comes from: ``os-csprng``, ``seeded``, ``entropy``, ..."""
        ...

    @property
    def bits(self) -> float:
        """Random bits used so far (every deal made, rejected ones included)."""
        ...

    def describe(self) -> str:
        """The algorithm in a few words, for file headers."""
        ...

    def deals(self, count: int) -> Iterator[Deal]:
        """The next ``count`` deals one by one."""
        ...

    def arrays(self, count: int) -> Iterator[DealArray]:
        """The next ``count`` deals in batches."""
        ...

    def array(self, count: int) -> DealArray:
        """The next ``count`` deals as one deal array (the same deals as :meth:`arrays`)."""
        ...

    def notes(self) -> list[str]:
        """Lines for stderr after the run (beyond the source note)."""
        ...


class MinimalBitsDealer:
    """The deal engine: deal by deal from one source, with the fewest bits."""

    def __init__(self, request: DealRequest, source: RandomSource | None = None) -> None:
        self.request = request
        self.source = request.source() if source is None else source

    @property
    def layout(self) -> Layout:
        return self.request.layout

    @property
    def algorithm(self) -> str:
        return self.request.algorithm

    @property
    def method(self) -> str:
        return self.request.method

    @property
    def source_kind(self) -> str:
        return self.source.kind

    @property
    def bits(self) -> float:
        return float(self.source.bits_used)

    def describe(self) -> str:
        return f"{self.algorithm} (method {self.method})"

    def deals(self, count: int) -> Iterator[Deal]:
        made = deal_many(self.layout, count, method=self.method, source=self.source)
        try:
            yield from made
        except EntropyExhaustedError as exc:
            raise EntropyExhaustedError(f"{exc} ({dice_note(self.layout)})") from None

    def arrays(self, count: int) -> Iterator[DealArray]:
        return deal_arrays(self.deals(count), self.layout)

    def array(self, count: int) -> DealArray:
        return DealArray.from_deals(list(self.deals(count)), self.layout)

    def notes(self) -> list[str]:
        return []


def deal_arrays(
    deals: Iterable[Deal], layout: Layout, size: int = DEAL_ENGINE_BATCH
) -> Iterator[DealArray]:
    """``deals`` in arrays of up to ``size``.

    The deals made before an error (too little entropy) are handed over before
    the error is raised, as the deal-by-deal formats print them.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> run = [deal_from_number(make_layout("bridge"), k) for k in range(1500)]
    >>> [len(a) for a in deal_arrays(run, make_layout("bridge"))]
    [1024, 476]
    """
    batch: list[Deal] = []
    it = iter(deals)
    while True:
        try:
            deal = next(it)
        except StopIteration:
            break
        except CroupierError:
            if batch:
                yield DealArray.from_deals(batch, layout)
            raise
        batch.append(deal)
        if len(batch) == size:
            yield DealArray.from_deals(batch, layout)
            batch = []
    if batch:
        yield DealArray.from_deals(batch, layout)


def array_deals(arrays: Iterable[DealArray], *, source: str, algorithm: str) -> Iterator[Deal]:
    """The deals of ``arrays`` one by one, labelled with their source and algorithm."""
    for batch in arrays:
        for deal in batch:
            yield Deal(
                deal.layout,
                deal.piles,
                method=deal.method,
                bits_used=deal.bits_used,
                source=source,
                algorithm=algorithm,
            )


_DONE = object()  # the end of the batches dealt ahead


def dealt_ahead(make: Callable[[], Iterator[DealArray]]) -> Iterator[DealArray]:
    """The batches of ``make()``, dealt in a second thread a batch ahead of the caller.

    The dealing code releases the GIL for most of its work, so dealing and
    writing overlap.  Batches dealt ahead and never asked for are dropped; the
    deals and their order are those of ``make()``.  The thread is a daemon: a
    run stopped at once (a second Ctrl-C) does not wait for the batch it is
    dealing.

    >>> from croupier.bulk import deal_array
    >>> [len(b) for b in dealt_ahead(lambda: iter([deal_array(2), deal_array(3)]))]
    [2, 3]
    """
    import queue  # (a run of one batch deals it in this thread: see BulkRunDealer.arrays)

    ready: queue.Queue[object] = queue.Queue(maxsize=1)
    stopped = threading.Event()

    def hand_over(item: object) -> bool:
        while not stopped.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def deal() -> None:
        try:
            for batch in make():
                if not hand_over(batch):
                    return
        except BaseException as exc:  # handed to the caller, raised there
            hand_over(exc)
            return
        hand_over(_DONE)

    threading.Thread(target=deal, name="croupier-dealer", daemon=True).start()
    try:
        while True:
            item = ready.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield cast(DealArray, item)
    finally:
        stopped.set()


class BulkRunDealer:
    """The bulk engine: exact vectorised batches, dealt a batch ahead of the writer (in a
    second thread; a run of one batch is dealt in the caller's, the same deals).

    ``source`` keys the stream with its next 256 bits (else the request's seed, else
    the OS).  ``start`` skips to deal ``start`` of the stream (of a seed: the deals from
    there on are those a run from 0 makes there).
    """

    def __init__(
        self, request: DealRequest, *, start: int = 0, source: RandomSource | None = None
    ) -> None:
        self.request = request
        self.dealer = BulkDealer(
            request.layout,
            seed=request.seed,
            stream=None if source is None else BulkStream.from_source(source),
            start=start,
        )
        self._bits = 0

    @property
    def layout(self) -> Layout:
        return self.request.layout

    @property
    def algorithm(self) -> str:
        return self.dealer.algorithm

    @property
    def method(self) -> str:
        return f"{self.algorithm} ({self.dealer.stream.kind} stream)"

    @property
    def source_kind(self) -> str:
        return str(self.dealer.stream.kind)

    @property
    def bits(self) -> float:
        return float(self._bits)

    def describe(self) -> str:
        return self.dealer.describe()

    def arrays(self, count: int) -> Iterator[DealArray]:
        batches = self.dealer.batches(count, BATCH)
        # A run of one batch has nothing to overlap: it is dealt here, without a thread.
        for batch in batches if count <= BATCH else dealt_ahead(lambda: batches):
            if batch.bits is not None:
                self._bits += int(batch.bits.sum(dtype=np.uint64))
            yield batch

    def array(self, count: int) -> DealArray:
        """The next ``count`` deals in one call, in this thread (no copy, no batches)."""
        batch = self.dealer.deal(count)
        if batch.bits is not None:
            self._bits += int(batch.bits.sum(dtype=np.uint64))
        return batch

    def deals(self, count: int) -> Iterator[Deal]:
        return array_deals(self.arrays(count), source=self.source_kind, algorithm=self.algorithm)

    def notes(self) -> list[str]:
        return []
