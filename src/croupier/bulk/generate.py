"""Bulk dealing (``croupier-bulk/1``): exact, prefix-stable deal arrays from a keyed stream.

Deal ``i`` of a stream (counting from 0) lives in block ``b = i // 4096`` at
row ``t = i % 4096``.  Its digits (see :mod:`croupier.bulk.digits`) are read
from bytes ``t * S .. t * S + S - 1`` of the block's main stream (``S`` bytes
per deal); a rejected digit is drawn again, as often as needed, from the
block's retry stream, which the rejected digits of the block consume in
order (deal, then pile).  The digits, pile 0 most significant, are the deal's
number under the ``croupier`` scheme (:mod:`croupier.bulk.unrank`).  So
every deal depends only on the key and its index: dealing 10 and then 10
more gives the same 20 deals as dealing 20, whatever the batch sizes.

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

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.bulk.digits import DigitPlan, accepted_digits, digit_plan
from croupier.bulk.stream import ROWS_PER_BLOCK, BulkStream
from croupier.bulk.unrank import Engine, tables_fit, unrank_with_masks, use_compiled
from croupier.dealing.layout import Layout, make_layout
from croupier.errors import CroupierError

__all__ = [
    "BULK_ALGORITHM_ID",
    "COMPILED_FROM",
    "MAX_ARRAY_BYTES",
    "MAX_DEALS",
    "BulkDealer",
    "deal_array",
]

BULK_ALGORITHM_ID = "croupier-bulk/1"
"""Id and version of the bulk dealing algorithm; bumped whenever a seed would give other deals."""

MAX_DEALS = 2**62
"""The largest index a bulk stream deals."""

MAX_ARRAY_BYTES = 2**34
"""The largest deal array one call returns (16 GiB); deal more with :meth:`BulkDealer.batches`."""

_RETRY_CHUNK = 256
_GROUP_BLOCKS = 16  # blocks dealt together (65,536 deals): vectorised work per call
_MAX_THREADS = 256
COMPILED_FROM = 2_000_000
"""``engine="auto"``: the deals one call must ask for before the compiled kernel is loaded.

Loading it costs about a second once per process (numba's start-up); after
that, ``auto`` uses it for every call.  Both engines give the same deals.
"""
_WARM = threading.Event()  # set once the compiled kernel has run in this process


class _Blocks:
    """Consecutive blocks of the stream, dealt: their rows and the bits each used.

    Blocks dealt in Python integers keep their deal ``numbers`` and unrank a
    row only when it is asked for (:meth:`ensure`): such deals are slow to make.
    """

    __slots__ = ("bits", "first", "masks", "numbers", "piles", "sizes", "unranked")

    def __init__(
        self,
        first: int,
        piles: npt.NDArray[np.uint8],
        bits: npt.NDArray[np.uint32],
        numbers: list[int] | None = None,
        sizes: tuple[int, ...] = (),
        masks: npt.NDArray[np.uint64] | None = None,
    ) -> None:
        self.first = first
        self.piles = piles
        self.bits = bits
        self.masks = masks
        self.numbers = numbers
        self.sizes = sizes
        self.unranked = None if numbers is None else np.zeros(len(numbers), bool)

    def ensure(self, lo: int, hi: int) -> None:
        """Unrank rows ``lo .. hi - 1`` (offsets in these blocks) not unranked yet."""
        if self.numbers is None or self.unranked is None:
            return
        from croupier.ranking.partitions import subsets_unrank

        for i in range(lo, hi):
            if not self.unranked[i]:
                self.piles[i] = subsets_unrank(self.numbers[i], self.sizes, "lex")
                self.unranked[i] = True

    @property
    def stop(self) -> int:
        """The index of the first deal after these blocks."""
        return self.first * ROWS_PER_BLOCK + int(self.piles.shape[0])


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


def _retry_group(
    stream: BulkStream,
    first: int,
    plan: DigitPlan,
    digits: npt.NDArray[np.uint64],
    rejected: npt.NDArray[np.bool_],
    bits: npt.NDArray[np.uint32],
) -> None:
    """:func:`_retry` for every block of a group at once, vectorised.

    Nearly always every redraw is accepted at its first try; then each
    rejected digit's bytes sit at a known place of its block's retry stream,
    read all together.  A block where a redraw is rejected again is redone
    one digit at a time by :func:`_retry`.
    """
    rows, piles = np.nonzero(rejected)
    if rows.size == 0:
        return
    blocks = rows // ROWS_PER_BLOCK
    widths = np.array(plan.widths, np.int64)[piles]
    before = np.cumsum(widths) - widths
    starts = np.r_[True, blocks[1:] != blocks[:-1]]
    offset = before - np.maximum.accumulate(np.where(starts, before, 0))
    ends = np.r_[starts[1:], True]
    chunks, base = [], {}
    size = 0
    for b, need in zip(blocks[ends].tolist(), (offset + widths)[ends].tolist(), strict=True):
        base[b] = size
        chunks.append(stream.retry(first + b, need))
        size += need
    data = np.frombuffer(b"".join(chunks) + bytes(8), np.uint8)
    where = np.array([base[b] for b in blocks.tolist()], np.int64) + offset
    lead = 8 - widths
    columns = np.arange(8)
    index = where[:, None] + columns[None, :] - lead[:, None]
    octets = np.where(columns[None, :] >= lead[:, None], data[np.maximum(index, 0)], 0)
    values = np.ascontiguousarray(octets.astype(np.uint8)).view(">u8").reshape(-1).astype(np.uint64)
    limits = np.array([min(lim, (1 << 64) - 1) for lim in plan.limits], np.uint64)[piles]
    wide = np.array([lim >= 1 << 64 for lim in plan.limits])[piles]
    ok = (values < limits) | wide
    again = np.unique(blocks[~ok])
    keep = ~np.isin(blocks, again)
    ranges = np.array(plan.ranges, np.uint64)[piles]
    digits[piles[keep], rows[keep]] = values[keep] % ranges[keep]
    np.add.at(bits, rows[keep], (8 * widths[keep]).astype(np.uint32))
    for b in again.tolist():
        part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
        _retry(stream, first + b, plan, digits[:, part], rejected[part], bits[part])


def _deal_blocks(
    stream: BulkStream, first: int, count: int, layout: Layout, plan: DigitPlan, engine: Engine
) -> _Blocks:
    """All deals of ``count`` blocks from block ``first`` on."""
    n = count * ROWS_PER_BLOCK
    data = b"".join(stream.main(first + b, ROWS_PER_BLOCK * plan.row_bytes) for b in range(count))
    rows = np.frombuffer(data, np.uint8).reshape(n, plan.row_bytes)
    bits = np.full(n, 8 * plan.row_bytes, np.uint32)
    if plan.machine_sized and tables_fit(layout.sizes):
        if use_compiled(engine, layout.sizes):
            from croupier.bulk._numba import digits_compiled

            digits, rejected = digits_compiled(rows, plan)
        else:
            digits, rejected = accepted_digits(rows, plan)
        _retry_group(stream, first, plan, digits, rejected, bits)
        piles, masks = unrank_with_masks(digits, layout.sizes, engine)
        if engine != "numpy" and use_compiled(engine, layout.sizes):
            _WARM.set()
        return _Blocks(first, piles, bits, masks=masks)
    else:
        numbers: list[int] = []
        for b in range(count):
            part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
            numbers += _block_numbers(stream, first + b, plan, rows[part], bits[part])
        piles = np.zeros((n, len(layout.deck)), np.uint8)
        return _Blocks(first, piles, bits, numbers, layout.sizes)
    return _Blocks(first, piles, bits)


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


class BulkDealer:
    """Deals of one layout from one ``croupier-bulk/1`` stream, in order, as deal arrays.

    ``seed`` makes the stream reproducible (only as secret as the seed);
    without it the key comes from the OS CSPRNG.  :meth:`deal` returns the
    next deals; :meth:`rows` any range by index.  ``engine`` picks the
    unranking code (``"compiled"`` needs the ``fast`` extra; ``"auto"`` uses it
    when installed, from :data:`COMPILED_FROM` deals a call or once it is
    loaded); ``threads`` deals groups of 65,536 deals in parallel.
    Neither changes a single deal.  Thread-safe.

    >>> from croupier.dealing.layout import make_layout
    >>> d = BulkDealer(make_layout("holdem", players=6), seed="table 1")
    >>> d.rows(5000, 5002) == BulkDealer(make_layout("holdem", players=6), seed="table 1").rows(
    ...     0, 5002)[5000:]
    True
    >>> d.describe()
    'croupier-bulk/1, seeded stream'
    """

    def __init__(
        self,
        layout: Layout | str = "bridge",
        *,
        seed: str | bytes | None = None,
        stream: BulkStream | None = None,
        start: int = 0,
        engine: Engine = "auto",
        threads: int = 1,
    ) -> None:
        if seed is not None and stream is not None:
            raise CroupierError("give seed= or stream=, not both")
        self.layout = make_layout(layout) if isinstance(layout, str) else layout
        if stream is None:
            stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
        self.stream = stream
        self.plan = digit_plan(self.layout.sizes)
        _check_index(start, "start")
        self.position = start
        self.deals = 0
        self.bits_used = 0
        self.engine: Engine = engine
        if engine == "compiled":
            use_compiled(engine, self.layout.sizes)  # refuses sizes the kernel cannot pack
        if not 1 <= threads <= _MAX_THREADS:
            raise CroupierError(f"threads={threads} must be 1..{_MAX_THREADS}")
        self.threads = threads
        self._lock = threading.Lock()
        self._cache: _Blocks | None = None

    def describe(self) -> str:
        """The algorithm and the kind of stream, for notes and file headers."""
        return f"{BULK_ALGORITHM_ID}, {self.stream.label} stream"

    def _groups(self, start: int, stop: int) -> list[_Blocks]:
        """Dealt groups of blocks covering deals ``start .. stop - 1`` (the last one is cached)."""
        cached = self._cache
        groups: list[_Blocks] = []
        todo: list[tuple[int, int]] = []
        block = start // ROWS_PER_BLOCK
        last = (stop - 1) // ROWS_PER_BLOCK
        while block <= last:
            done = cached is not None and cached.first <= block
            if done and cached is not None and block * ROWS_PER_BLOCK < cached.stop:
                todo.append((-1, 0))
                block = cached.stop // ROWS_PER_BLOCK
                continue
            count = min(_GROUP_BLOCKS, last - block + 1)
            todo.append((block, count))
            block += count

        engine = self.engine
        if engine == "auto" and not _WARM.is_set() and stop - start < COMPILED_FROM:
            engine = "numpy"  # not worth loading the compiled kernel (the same deals either way)

        def deal(job: tuple[int, int]) -> _Blocks:
            if job[0] < 0 and cached is not None:
                return cached
            return _deal_blocks(self.stream, job[0], job[1], self.layout, self.plan, engine)

        if self.threads > 1 and len(todo) > 1:
            with ThreadPoolExecutor(self.threads) as pool:
                groups = list(pool.map(deal, todo))
        else:
            groups = [deal(job) for job in todo]
        if groups:
            self._cache = groups[-1]
        return groups

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` to ``stop - 1`` of the stream (does not move :attr:`position`)."""
        _check_index(start, "start")
        _check_index(stop, "stop")
        if stop < start:
            raise CroupierError(f"stop={stop} is before start={start}")
        self._check_size(stop - start)
        parts: list[npt.NDArray[np.uint8]] = []
        bits: list[npt.NDArray[np.uint32]] = []
        masks: list[npt.NDArray[np.uint64] | None] = []
        with self._lock:
            groups = self._groups(start, stop) if stop > start else []
        for dealt in groups:
            offset = dealt.first * ROWS_PER_BLOCK
            lo, hi = max(start, offset), min(stop, dealt.stop)
            with self._lock:
                dealt.ensure(lo - offset, hi - offset)
            parts.append(dealt.piles[lo - offset : hi - offset])
            bits.append(dealt.bits[lo - offset : hi - offset])
            masks.append(None if dealt.masks is None else dealt.masks[:, lo - offset : hi - offset])
        if not parts:
            empty = np.zeros((0, len(self.layout.deck)), np.uint8)
            return DealArray(self.layout, empty, bits=np.zeros(0, np.uint32), check=False)
        if len(parts) == 1:
            return DealArray._dealt(self.layout, parts[0], bits[0], masks[0])
        known = None
        if all(m is not None for m in masks):
            known = np.concatenate([m for m in masks if m is not None], axis=1)
        return DealArray._dealt(self.layout, np.concatenate(parts), np.concatenate(bits), known)

    def _check_size(self, count: int) -> None:
        if count * len(self.layout.deck) > MAX_ARRAY_BYTES:
            raise CroupierError(
                f"{count} deals of {len(self.layout.deck)} cards exceed one array's "
                f"{MAX_ARRAY_BYTES // 2**30} GiB; deal them in batches (batches())"
            )

    def deal(self, count: int) -> DealArray:
        """The next ``count`` deals."""
        if count < 0:
            raise CroupierError(f"count={count} must be at least 0")
        self._check_size(count)
        with self._lock:
            start = self.position
            self.position += count
        result = self.rows(start, start + count)
        with self._lock:
            self.deals += count
            if result.bits is not None:
                self.bits_used += int(result.bits.sum(dtype=np.uint64))
        return result

    def batches(self, count: int, batch: int = 65536) -> Iterator[DealArray]:
        """The next ``count`` deals in deal arrays of at most ``batch`` rows."""
        if batch < 1:
            raise CroupierError(f"batch={batch} must be at least 1")
        left = count
        while left > 0:
            step = min(batch, left)
            yield self.deal(step)
            left -= step


def _check_index(index: int, name: str) -> None:
    if not 0 <= index <= MAX_DEALS:
        raise CroupierError(f"{name}={index} is out of range 0..2**62")


def deal_array(
    count: int,
    layout: Layout | str = "bridge",
    *,
    seed: str | bytes | None = None,
    start: int = 0,
) -> DealArray:
    """``count`` exactly uniform deals of ``layout`` as a :class:`DealArray` (``croupier-bulk/1``).

    Deals come from the OS CSPRNG, or reproducibly from ``seed``; ``start``
    skips to a later part of the seeded stream.

    >>> a = deal_array(1000, "bridge", seed="demo")
    >>> a.piles.shape, (a.counts() == 13).all()
    ((1000, 52), np.True_)
    >>> deal_array(2, seed="demo", start=998) == a[998:]
    True
    """
    dealer = BulkDealer(layout, seed=seed, start=start)
    return dealer.deal(count)
