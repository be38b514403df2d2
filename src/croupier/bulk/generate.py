"""Bulk dealing (``croupier-bulk/1``, ``/2``): exact, prefix-stable deal arrays from a keyed stream.

Deal ``i`` of a stream (counting from 0) lives in block ``b = i // 4096`` at
row ``t = i % 4096``.  Its digits (see :mod:`croupier.bulk.digits`) are read
from bytes ``t * S .. t * S + S - 1`` of the block's main stream (``S`` bytes
per deal); a rejected digit is drawn again, as often as needed, from the
block's retry stream, which the rejected digits of the block consume in
order (deal, then pile).  The digits, pile 0 most significant, are the deal's
number under the ``croupier`` scheme (:mod:`croupier.bulk.unrank`).  So
every deal depends only on the key and its index: dealing 10 and then 10
more gives the same 20 deals as dealing 20, whatever the batch sizes.

A layout with stacks is dealt by ``croupier-bulk/2``: the piles exactly as
above, then the order of every stack from a stream of its own, read the same
way (:mod:`croupier.bulk.stacks`).

>>> from croupier.dealing.layout import make_layout
>>> dealer = BulkDealer(make_layout("bridge"), seed="demo")
>>> first = dealer.deal(10)
>>> both = DealArray.concatenate([first, dealer.deal(10)])
>>> both == BulkDealer(make_layout("bridge"), seed="demo").deal(20)
True
>>> dealer.deals, dealer.bits_used // dealer.deals >= 120
(20, True)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

import croupier.randomness.source as _source_module
from croupier._core import bulk_kernels
from croupier._core.engines import Engine, resolve
from croupier.bulk.array import (
    BULK_ALGORITHM_ID,
    BULK_STACKS_ALGORITHM_ID,
    DealArray,
    StackArray,
    bulk_algorithm,
    card_dtype,
)
from croupier.bulk.digits import (
    DigitPlan,
    accepted_digits,
    digit_plan,
    digits_and_rejections,
    kernel_plan,
)
from croupier.bulk.stacks import STACK_STREAM, StackPlan, order_into, stack_plan
from croupier.bulk.unrank import tables_fit, unrank_into
from croupier.dealing.layout import Layout, make_layout
from croupier.errors import CroupierError
from croupier.randomness.bulk_stream import ROWS_PER_BLOCK, BulkStream
from croupier.randomness.seeded import Seed
from croupier.randomness.source import ForkAware

if TYPE_CHECKING:
    from concurrent.futures import Executor  # imported when threads are first used

__all__ = [
    "BULK_ALGORITHM_ID",
    "BULK_STACKS_ALGORITHM_ID",
    "DEFAULT_BATCH",
    "MAX_ARRAY_BYTES",
    "MAX_DEALS",
    "PARALLEL_FROM",
    "BulkDealer",
    "deal_array",
    "retry_group",
]


MAX_DEALS = 2**62
"""The largest index a bulk stream deals."""

MAX_ARRAY_BYTES = 2**34
"""The largest deal array one call returns (16 GiB); deal more with :meth:`BulkDealer.batches`."""

DEFAULT_BATCH = 65_536
"""Deals per batch where a long run is cut into batches (:meth:`BulkDealer.batches`, chunk
files, simulations, ``croupier deal`` and ``croupier dealer``): 3.4 MB of bridge deals."""

_RETRY_CHUNK = 256
_GROUP_BLOCKS = 16  # blocks dealt together (65,536 deals): the work of one kernel call
_MAX_THREADS = 256
PARALLEL_FROM = 2 * _GROUP_BLOCKS * ROWS_PER_BLOCK
"""``threads=None`` (the default): calls of this many deals or more are dealt by two threads
when the process may use two cores (the same deals; shorter calls gain nothing)."""


def _cores() -> int:
    """How many cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


class _Pools:
    """The worker threads of bulk dealing, kept for the process (made again after a fork)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pools: dict[int, Executor] = {}

    def get(self, workers: int) -> Executor:
        with self.lock:
            pool = self.pools.get(workers)
            if pool is None:
                from concurrent.futures import ThreadPoolExecutor  # not in a short run's start-up

                pool = ThreadPoolExecutor(workers, thread_name_prefix="croupier-bulk")
                self.pools[workers] = pool
            return pool

    def forget(self) -> None:
        """In a forked child: the parent's threads are gone, so are their pools."""
        self.lock = threading.Lock()
        self.pools = {}


_POOLS = _Pools()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOLS.forget)


def _retry(
    stream: BulkStream,
    block: int,
    plan: DigitPlan,
    digits: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
    rejected: npt.NDArray[np.bool_],
    bits: npt.NDArray[np.uint32],
) -> None:
    """Redraw one block's rejected digits from its retry stream, in (deal, pile) order.

    ``digits``, ``rejected`` and ``bits`` are views of this block's rows.
    Usually every redraw is accepted at once; that case is read in one go.
    """
    rows, piles = np.nonzero(rejected)
    _retry_rows(stream, block, plan, digits, rows, piles, bits)


def _retry_rows(
    stream: BulkStream,
    block: int,
    plan: DigitPlan,
    digits: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
    rows: npt.NDArray[np.intp],
    piles: npt.NDArray[np.intp],
    bits: npt.NDArray[np.uint32],
) -> None:
    """:func:`_retry` of the rejected digits listed by row (ascending) and pile."""
    if rows.size == 0:
        return
    widths = [plan.widths[p] for p in piles.tolist()]
    need = sum(widths) * 2 + _RETRY_CHUNK
    data = stream.retry(block, need)
    pos = 0
    values = []
    for w in widths:
        values.append(int.from_bytes(data[pos : pos + w], "big"))
        pos += w
    limits = [plan.limits[p] for p in piles.tolist()]
    if all(v < lim for v, lim in zip(values, limits, strict=True)):
        for row, pile, value, w in zip(rows.tolist(), piles.tolist(), values, widths, strict=True):
            digits[pile][row] = value % plan.ranges[pile]
            bits[row] += 8 * w
        return
    pos = 0
    for row, pile in zip(rows.tolist(), piles.tolist(), strict=True):
        c, w, limit = plan.ranges[pile], plan.widths[pile], plan.limits[pile]
        while True:
            if pos + w > len(data):
                need *= 2
                data = stream.retry(block, need)
            value = int.from_bytes(data[pos : pos + w], "big")
            pos += w
            bits[row] += 8 * w
            if value < limit:
                digits[pile][row] = value % c
                break


def retry_group(
    stream: BulkStream,
    first: int,
    plan: DigitPlan,
    digits: npt.NDArray[np.uint64],
    rejected: npt.NDArray[np.bool_],
    bits: npt.NDArray[np.uint32],
) -> None:
    """Redraw the ``rejected`` digits of a group of blocks from their retry streams, in place.

    The group is the blocks from block ``first`` on: ``digits`` holds one row per
    pile and one column per deal, ``rejected`` and ``bits`` one row per deal.
    Every rejected digit is redrawn from its block's retry stream, as
    ``croupier-bulk/1`` specifies, and the bits read are added to its deal's
    count (smart stacking redraws its own digits with it too).  The compiled
    kernel (``croupier._core.bulk_kernels.redraw``) does what :func:`_retry`, the
    rule in plain Python, does block by block.
    """
    where = np.flatnonzero(np.ascontiguousarray(rejected, dtype=bool))
    _redraw(stream, first, plan, digits, where, bits)


def _retry_bytes(plan: DigitPlan) -> int:
    """The retry bytes fetched at first for a block: twice what its redraws read on
    average, and some more (a block that needs more fetches more)."""
    mean = 0.0
    for w, limit in zip(plan.widths, plan.limits, strict=True):
        rate = 1 - limit / (1 << (8 * w))
        mean += ROWS_PER_BLOCK * rate / (1 - rate) * w if rate < 1 else 0
    return int(2 * mean) + 32 * max(plan.widths, default=0) + 64


def _redraw(
    stream: BulkStream,
    first: int,
    plan: DigitPlan,
    digits: npt.NDArray[np.uint64],
    where: npt.NDArray[np.int64],
    bits: npt.NDArray[np.uint32],
) -> None:
    """Redraw the rejected digits ``where`` lists (``deal * piles + pile``, ascending), from
    the retry streams of the blocks from ``first`` on, by the compiled kernel."""
    if where.size == 0:
        return
    piles = len(plan.sizes)
    blocks = -(-bits.shape[0] // ROWS_PER_BLOCK)
    lengths = [0] * blocks
    of_block = where // (piles * ROWS_PER_BLOCK)  # ascending, as ``where``
    for b in of_block[np.r_[True, of_block[1:] != of_block[:-1]]].tolist():
        lengths[b] = _retry_bytes(plan)
    widths, _, ranges, limits = kernel_plan(plan)
    todo = np.ascontiguousarray(where, dtype=np.int64)
    while True:
        chunks = [stream.retry(first + b, n) if n else b"" for b, n in enumerate(lengths)]
        retry = np.frombuffer(b"".join(chunks), np.uint8)
        at = np.zeros(blocks + 1, np.int64)
        np.cumsum(lengths, out=at[1:])
        short = bulk_kernels.redraw(
            todo, widths, ranges, limits, digits, bits, retry, at, ROWS_PER_BLOCK
        )
        if short < 0:
            return
        lengths[short] *= 4  # that block's redraws were rejected again and again
        todo = todo[todo // (piles * ROWS_PER_BLOCK) >= short]


def _stack_digits(
    stream: BulkStream,
    first: int,
    count: int,
    plan: StackPlan,
    bits: npt.NDArray[np.uint32],
    engine: Engine = "auto",
) -> npt.NDArray[np.uint64]:
    """The stack digits ``(chunks, n)`` of every deal of ``count`` blocks from block ``first``
    on (``stream``: the stacks' own stream); the bits read are added to ``bits``."""
    digits = plan.digits
    n = count * ROWS_PER_BLOCK
    data = stream.main_blocks(first, count, ROWS_PER_BLOCK * digits.row_bytes, engine)
    rows = data.reshape(n, digits.row_bytes)
    bits += np.uint32(8 * digits.row_bytes)
    if resolve(engine) == "python":
        values, rejected = accepted_digits(rows, digits, engine)
        retry_group(stream, first, digits, values, rejected, bits)
        return values
    values, where = digits_and_rejections(rows, digits)
    _redraw(stream, first, digits, values, where, bits)
    return values


def _block_numbers(
    stream: BulkStream,
    block: int,
    plan: DigitPlan,
    rows: npt.NDArray[np.uint8],
    bits: npt.NDArray[np.uint32],
) -> list[int]:
    """One block's deal numbers by the same rule in Python integers (digits beyond 64 bits,
    huge tables); the deals are unranked later, only those asked for."""
    n = rows.shape[0]
    piles = len(plan.sizes)
    values = [
        [
            int.from_bytes(bytes(r[o : o + w]), "big")
            for o, w in zip(plan.offsets, plan.widths, strict=True)
        ]
        for r in rows
    ]
    rejected = np.array(
        [[v >= lim for v, lim in zip(vs, plan.limits, strict=True)] for vs in values], bool
    ).reshape(n, piles)
    digits = np.array(
        [[vs[p] % plan.ranges[p] for vs in values] for p in range(piles)], object
    ).reshape(piles, n)
    _retry(stream, block, plan, digits, rejected, bits)
    return [plan.number([int(d[i]) for d in digits]) for i in range(n)]


class _Group:
    """Consecutive blocks of the stream, drawn: every deal's digits after the redraws (or its
    number, in Python integers, for layouts beyond the kernels), its stack digits, and the
    bits it used.  Unranking them into deals is left to :func:`_fill`."""

    __slots__ = ("bits", "count", "digits", "first", "numbers", "stack_digits")

    def __init__(
        self,
        first: int,
        count: int,
        bits: npt.NDArray[np.uint32],
        digits: npt.NDArray[np.uint64] | None,
        numbers: list[int] | None,
        stack_digits: npt.NDArray[np.uint64] | None,
    ) -> None:
        self.first = first
        self.count = count
        self.bits = bits
        self.digits = digits
        self.numbers = numbers
        self.stack_digits = stack_digits


def _machine(layout: Layout, plan: DigitPlan) -> bool:
    """Whether the kernels deal ``layout``: digits of at most 8 bytes and tables that fit."""
    return plan.machine_sized and tables_fit(layout.sizes)


def _draw(
    stream: BulkStream,
    first: int,
    count: int,
    layout: Layout,
    plan: DigitPlan,
    stacks: tuple[BulkStream, StackPlan] | None,
    engine: Engine,
) -> _Group:
    """The digits of every deal of ``count`` blocks from block ``first`` on (``stacks``: the
    stacks' stream and plan, for a layout with stacks)."""
    n = count * ROWS_PER_BLOCK
    data = stream.main_blocks(first, count, ROWS_PER_BLOCK * plan.row_bytes, engine)
    rows = data.reshape(n, plan.row_bytes)
    bits = np.full(n, 8 * plan.row_bytes, np.uint32)
    digits = None
    numbers: list[int] | None = None
    if _machine(layout, plan):
        if resolve(engine) == "python":
            digits, rejected = accepted_digits(rows, plan, engine)
            retry_group(stream, first, plan, digits, rejected, bits)
        else:
            digits, where = digits_and_rejections(rows, plan)
            _redraw(stream, first, plan, digits, where, bits)
    else:
        numbers = []
        for b in range(count):
            part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
            numbers += _block_numbers(stream, first + b, plan, rows[part], bits[part])
    stack_digits = None
    if stacks is not None:
        stack_stream, splan = stacks
        stack_digits = _stack_digits(stack_stream, first, count, splan, bits, engine)
    return _Group(first, count, bits, digits, numbers, stack_digits)


class _Output:
    """The arrays one call of :meth:`BulkDealer.rows` fills, a part per group of blocks."""

    __slots__ = ("bits", "masks", "piles", "stacks")

    def __init__(self, layout: Layout, n: int, machine: bool, splan: StackPlan | None) -> None:
        deck = len(layout.deck)
        self.piles = np.empty((n, deck), np.uint8)
        self.bits = np.empty(n, np.uint32)
        self.masks = np.empty((len(layout.piles), n), np.uint64) if machine and deck <= 64 else None
        width = 0 if splan is None else sum(k for _, k in splan.stacks)
        self.stacks = np.empty((n, width), card_dtype(layout))


def _fill(
    group: _Group,
    lo: int,
    hi: int,
    dest: int,
    layout: Layout,
    splan: StackPlan | None,
    out: _Output,
    engine: Engine,
) -> None:
    """Deals ``lo .. hi - 1`` of ``group`` (counted from its first deal) into rows ``dest ..``
    of ``out``; the compiled kernels run without the interpreter lock."""
    m = hi - lo
    out.bits[dest : dest + m] = group.bits[lo:hi]
    sizes = layout.sizes
    if group.digits is not None:
        unrank_into(group.digits, sizes, out.piles, out.masks, lo, hi, dest, engine)
    elif group.numbers is not None:
        from croupier.ranking.partitions import subsets_unrank

        for i in range(lo, hi):
            out.piles[dest + i - lo] = subsets_unrank(group.numbers[i], sizes, "lex")
    if splan is not None and group.stack_digits is not None:
        rows = out.piles[dest : dest + m]
        order_into(rows, sizes, group.stack_digits[:, lo:hi], splan, out.stacks, dest, engine)


class BulkDealer(ForkAware):
    """Deals of one layout from one ``croupier-bulk/1`` stream, in order, as deal arrays.

    ``seed`` makes the stream reproducible (only as secret as the seed);
    without it the key comes from the OS CSPRNG.  :meth:`deal` returns the
    next deals; :meth:`rows` any range by index.  ``engine`` picks the code
    (:func:`croupier._core.engines.resolve`: ``"auto"`` and ``"compiled"`` the
    compiled core, ``"python"`` the plain-Python specification, slow);
    ``threads`` how many threads deal the groups of 65,536 deals of one call
    (``None``: two for calls of :data:`PARALLEL_FROM` deals or more, when the
    process may use two cores; else one).  Neither changes a single deal.
    Thread-safe, and fork-safe: without a seed, a forked child deals from a
    fresh key (the stream re-keys itself and the dealer forgets the digits it
    keeps from the parent's key); with one, parent and child continue the same
    stream.  A layout with stacks is dealt by ``croupier-bulk/2``: the same
    piles, and every stack's order.

    >>> from croupier.dealing.layout import make_layout
    >>> d = BulkDealer(make_layout("holdem", players=6), seed="table 1")
    >>> d.rows(5000, 5002) == BulkDealer(make_layout("holdem", players=6), seed="table 1").rows(
    ...     0, 5002)[5000:]
    True
    >>> d.describe()
    'croupier-bulk/2, seeded stream'
    >>> BulkDealer("bridge", seed="x", engine="python").deal(3) == BulkDealer(
    ...     "bridge", seed="x").deal(3)
    True
    """

    def __init__(
        self,
        layout: Layout | str = "bridge",
        *,
        seed: Seed | None = None,
        stream: BulkStream | None = None,
        start: int = 0,
        engine: Engine = "auto",
        threads: int | None = None,
    ) -> None:
        if seed is not None and stream is not None:
            raise CroupierError("give seed= or stream=, not both")
        if not isinstance(layout, str | Layout):
            raise CroupierError(f"layout= is a game name or a Layout, not {type(layout).__name__}")
        resolve(engine)  # refuses anything but auto, compiled and python
        if threads is not None and not 1 <= threads <= _MAX_THREADS:
            raise CroupierError(f"threads={threads} must be 1..{_MAX_THREADS}")
        self.layout = make_layout(layout) if isinstance(layout, str) else layout
        if stream is None:
            stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
        self.stream = stream
        self.plan = digit_plan(self.layout.sizes)
        self.algorithm = bulk_algorithm(self.layout)
        self.stack_plan: StackPlan | None = None
        if self.layout.ordered:
            piles = self.layout.piles
            self.stack_plan = stack_plan(tuple((i, piles[i].size) for i in self.layout.stack_piles))
        _check_index(start, "start")
        self.position = start
        self.deals = 0
        self.bits_used = 0
        self.engine: Engine = engine
        self.threads = threads
        self._lock = threading.Lock()
        self._cache: _Group | None = None
        self._fork_seen = _source_module.fork_generation

    def _after_fork(self) -> None:
        """In a forked child: a fresh lock, and forget the digits drawn with the parent's key."""
        self._lock = threading.Lock()
        self._cache = None

    def describe(self) -> str:
        """The algorithm and the kind of stream, for notes and file headers."""
        return f"{self.algorithm}, {self.stream.label} stream"

    def _jobs(self, start: int, stop: int) -> list[tuple[_Group | None, int, int, int, int, int]]:
        """The groups of blocks covering deals ``start .. stop - 1``: each as (the cached group
        or ``None``, first block, blocks, first and stop deal within it, row of the output)."""
        cached = self._cache
        jobs: list[tuple[_Group | None, int, int, int, int, int]] = []
        block = start // ROWS_PER_BLOCK
        last = (stop - 1) // ROWS_PER_BLOCK
        while block <= last:
            group: _Group | None = None
            if cached is not None and cached.first <= block < cached.first + cached.count:
                group, first, count = cached, cached.first, cached.count
            else:
                first, count = block, min(_GROUP_BLOCKS, last - block + 1)
                if cached is not None and first < cached.first < first + count:
                    count = cached.first - first  # up to the cached group
            low = first * ROWS_PER_BLOCK
            high = low + count * ROWS_PER_BLOCK
            lo, hi = max(start, low) - low, min(stop, high) - low
            jobs.append((group, first, count, lo, hi, max(start, low) - start))
            block = first + count
        return jobs

    def _threads(self, deals: int, jobs: int) -> int:
        """How many threads deal ``jobs`` groups of ``deals`` deals in all."""
        if self.threads is not None:
            wanted = self.threads
        else:
            wanted = 2 if deals >= PARALLEL_FROM and _cores() >= 2 else 1
        return max(1, min(wanted, jobs))

    def _deal_into(self, start: int, stop: int, out: _Output) -> None:
        """Deals ``start .. stop - 1`` into ``out``: the groups shared by the threads."""
        jobs = self._jobs(start, stop)
        stacks = None
        if self.stack_plan is not None:
            stacks = (self.stream.derive(STACK_STREAM), self.stack_plan)
        engine, layout, splan = self.engine, self.layout, self.stack_plan
        groups: list[_Group | None] = [None] * len(jobs)
        todo = iter(range(len(jobs)))  # taken by every thread in turn (next() holds the GIL)

        def work() -> None:
            for index in todo:
                group, first, count, lo, hi, dest = jobs[index]
                if group is None:
                    group = _draw(self.stream, first, count, layout, self.plan, stacks, engine)
                groups[index] = group
                _fill(group, lo, hi, dest, layout, splan, out, engine)

        threads = self._threads(stop - start, len(jobs))
        if threads > 1:
            pool = _POOLS.get(threads - 1)
            helpers = [pool.submit(work) for _ in range(threads - 1)]
            try:
                work()
            finally:
                for _ in todo:  # interrupted: leave the helpers nothing more to start
                    pass
                for helper in helpers:
                    helper.result()
        else:
            work()
        self._cache = groups[-1] if groups else self._cache

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` to ``stop - 1`` of the stream (does not move :attr:`position`)."""
        _check_index(start, "start")
        _check_index(stop, "stop")
        if stop < start:
            raise CroupierError(f"stop={stop} is before start={start}")
        self._check_size(stop - start)
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        n = stop - start
        out = _Output(self.layout, n, _machine(self.layout, self.plan), self.stack_plan)
        if n:
            with self._lock:
                self._deal_into(start, stop, out)
        stacks: dict[int, StackArray] = {}
        if self.stack_plan is not None:
            at = 0
            for pile, k in self.stack_plan.stacks:
                stacks[pile] = out.stacks[:, at : at + k]
                at += k
        return DealArray._dealt(self.layout, out.piles, out.bits, out.masks, stacks)

    def _check_size(self, count: int) -> None:
        if count * len(self.layout.deck) > MAX_ARRAY_BYTES:
            raise CroupierError(
                f"{count} deals of {len(self.layout.deck)} cards exceed one array's "
                f"{MAX_ARRAY_BYTES // 2**30} GiB; deal them in batches (batches())"
            )

    def deal(self, count: int) -> DealArray:
        """The next ``count`` deals."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise CroupierError(f"count={count!r} must be a whole number of at least 0")
        self._check_size(count)
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        with self._lock:
            start = self.position
            self.position += count
        result = self.rows(start, start + count)
        with self._lock:
            self.deals += count
            if result.bits is not None:
                self.bits_used += int(result.bits.sum(dtype=np.uint64))
        return result

    def batches(self, count: int, batch: int = DEFAULT_BATCH) -> Iterator[DealArray]:
        """The next ``count`` deals in deal arrays of at most ``batch`` rows."""
        if batch < 1:
            raise CroupierError(f"batch={batch} must be at least 1")
        left = count
        while left > 0:
            step = min(batch, left)
            yield self.deal(step)
            left -= step


def _check_index(index: int, name: str) -> None:
    if isinstance(index, bool) or not isinstance(index, int):
        raise CroupierError(f"{name}= must be a whole number, got {type(index).__name__}")
    if not 0 <= index <= MAX_DEALS:
        raise CroupierError(f"{name}={index} is out of range 0..2**62")


def deal_array(
    count: int,
    layout: Layout | str = "bridge",
    *,
    seed: Seed | None = None,
    start: int = 0,
) -> DealArray:
    """``count`` exactly uniform deals of ``layout`` as a :class:`DealArray` (``croupier-bulk/1``).

    Deals come from the OS CSPRNG, or reproducibly from ``seed`` (text, bytes
    or a whole number); ``start`` skips to a later part of the seeded stream.
    This is the bulk layer's function, count first; the public
    :func:`croupier.deal_array` takes the game first and gives the same deals.

    >>> a = deal_array(1000, "bridge", seed="demo")
    >>> a.piles.shape, (a.counts() == 13).all()
    ((1000, 52), np.True_)
    >>> deal_array(2, seed="demo", start=998) == a[998:]
    True
    >>> deal_array("bridge", 1000)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: croupier.bulk.deal_array takes the count first: \
deal_array(1000, 'bridge') (croupier.deal_array takes the game first)
    """
    if isinstance(count, str) and isinstance(layout, int) and not isinstance(layout, bool):
        raise CroupierError(
            f"croupier.bulk.deal_array takes the count first: deal_array({layout}, {count!r}) "
            "(croupier.deal_array takes the game first)"
        )
    if isinstance(layout, int) and not isinstance(layout, bool):
        raise CroupierError(
            f"layout= is a game name or a Layout, not the number {layout}; "
            "the count comes first: deal_array(1000, 'bridge')"
        )
    dealer = BulkDealer(layout, seed=seed, start=start)
    return dealer.deal(count)
