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

import threading
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

import croupier.randomness.source as _source_module
from croupier.bulk.array import (
    BULK_ALGORITHM_ID,
    BULK_STACKS_ALGORITHM_ID,
    DealArray,
    StackArray,
    bulk_algorithm,
    card_dtype,
)
from croupier.bulk.digits import DigitPlan, accepted_digits, digit_plan
from croupier.bulk.stacks import (
    STACK_STREAM,
    StackPlan,
    apply_offsets,
    grouped_cards,
    order_row,
    stack_offsets,
    stack_plan,
)
from croupier.bulk.unrank import Kernel, tables_fit, unrank_with_masks, use_compiled
from croupier.dealing.layout import Layout, make_layout
from croupier.errors import CroupierError
from croupier.randomness.bulk_stream import ROWS_PER_BLOCK, BulkStream
from croupier.randomness.seeded import Seed
from croupier.randomness.source import ForkAware

__all__ = [
    "BULK_ALGORITHM_ID",
    "BULK_STACKS_ALGORITHM_ID",
    "COMPILED_FROM",
    "DEFAULT_BATCH",
    "MAX_ARRAY_BYTES",
    "MAX_DEALS",
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

    __slots__ = (
        "bits",
        "first",
        "masks",
        "numbers",
        "offsets",
        "piles",
        "plan",
        "sizes",
        "stacks",
        "unranked",
    )

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
        self.stacks: dict[int, StackArray] = {}
        self.offsets: npt.NDArray[np.uint16] | None = None  # stacks of rows unranked later
        self.plan: StackPlan | None = None

    def ensure(self, lo: int, hi: int) -> None:
        """Unrank rows ``lo .. hi - 1`` (offsets in these blocks) not unranked yet."""
        if self.numbers is None or self.unranked is None:
            return
        from croupier.ranking.partitions import subsets_unrank

        for i in range(lo, hi):
            if not self.unranked[i]:
                self.piles[i] = subsets_unrank(self.numbers[i], self.sizes, "lex")
                if self.offsets is not None and self.plan is not None:
                    owners = self.piles[i].tolist()
                    rows = order_row(owners, self.offsets[i].tolist(), self.plan)
                    for (pile, _), cards in zip(self.plan.stacks, rows, strict=True):
                        self.stacks[pile][i] = cards
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
    count (smart stacking redraws its own digits with it too).
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
    # the distinct blocks to redo; ``blocks`` ascends (np.nonzero goes row by row), and
    # np.unique would import numpy.ma (tens of milliseconds of a short run's start-up)
    bad = blocks[~ok]
    again = bad[np.r_[True, bad[1:] != bad[:-1]]] if bad.size else bad
    keep = ~np.isin(blocks, again)
    ranges = np.array(plan.ranges, np.uint64)[piles]
    digits[piles[keep], rows[keep]] = values[keep] % ranges[keep]
    np.add.at(bits, rows[keep], (8 * widths[keep]).astype(np.uint32))
    for b in again.tolist():
        part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
        _retry(stream, first + b, plan, digits[:, part], rejected[part], bits[part])


def _stack_digits(
    stream: BulkStream, first: int, count: int, plan: StackPlan, bits: npt.NDArray[np.uint32]
) -> npt.NDArray[np.uint64]:
    """The stack digits ``(chunks, n)`` of every deal of ``count`` blocks from block ``first``
    on (``stream``: the stacks' own stream); the bits read are added to ``bits``."""
    digits = plan.digits
    n = count * ROWS_PER_BLOCK
    data = b"".join(stream.main(first + b, ROWS_PER_BLOCK * digits.row_bytes) for b in range(count))
    rows = np.frombuffer(data, np.uint8).reshape(n, digits.row_bytes)
    bits += np.uint32(8 * digits.row_bytes)
    values, rejected = accepted_digits(rows, digits)
    retry_group(stream, first, digits, values, rejected, bits)
    return values


def _order_stacks(
    blocks: _Blocks,
    layout: Layout,
    plan: StackPlan,
    digits: npt.NDArray[np.uint64],
    compiled: bool = False,
) -> None:
    """Put the stacks of ``blocks`` in the order their chunk ``digits`` name (owners known);
    ``compiled``: by the compiled kernel (the same orders)."""
    grouped = grouped_cards(blocks.piles, len(layout.piles))
    starts = np.cumsum([0, *layout.sizes]).tolist()
    dtype = card_dtype(layout)
    sizes = [k for _, k in plan.stacks]
    cards = np.concatenate(
        [grouped[:, starts[pile] : starts[pile] + k] for pile, k in plan.stacks], axis=1
    ).astype(dtype)
    if compiled:
        from croupier.bulk._numba import stacks_compiled

        ordered = stacks_compiled(cards, digits, plan.chunks, sizes)
    else:
        offsets = stack_offsets(digits, plan)
        parts, at, used = [], 0, 0
        for k in sizes:
            parts.append(apply_offsets(cards[:, at : at + k], offsets[:, used : used + k - 1]))
            at += k
            used += k - 1
        ordered = np.concatenate(parts, axis=1)
    at = 0
    for pile, k in plan.stacks:
        blocks.stacks[pile] = np.ascontiguousarray(ordered[:, at : at + k])
        at += k


def _deal_blocks(
    stream: BulkStream,
    first: int,
    count: int,
    layout: Layout,
    plan: DigitPlan,
    engine: Kernel,
    stacks: tuple[BulkStream, StackPlan] | None = None,
) -> _Blocks:
    """All deals of ``count`` blocks from block ``first`` on (``stacks``: the stacks' stream
    and plan, for a layout with stacks)."""
    blocks = _deal_piles(stream, first, count, layout, plan, engine)
    if stacks is not None:
        stack_stream, splan = stacks
        digits = _stack_digits(stack_stream, first, count, splan, blocks.bits)
        if blocks.numbers is None:
            compiled = engine != "numpy" and use_compiled(engine, layout.sizes)
            _order_stacks(blocks, layout, splan, digits, compiled)
        else:  # ordered as the rows are unranked (ensure)
            n = digits.shape[1]
            dtype = card_dtype(layout)
            blocks.stacks = {pile: np.zeros((n, k), dtype) for pile, k in splan.stacks}
            blocks.offsets, blocks.plan = stack_offsets(digits, splan), splan
    return blocks


def _deal_piles(
    stream: BulkStream, first: int, count: int, layout: Layout, plan: DigitPlan, engine: Kernel
) -> _Blocks:
    """The piles of every deal of ``count`` blocks from block ``first`` on."""
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
        retry_group(stream, first, plan, digits, rejected, bits)
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


class BulkDealer(ForkAware):
    """Deals of one layout from one ``croupier-bulk/1`` stream, in order, as deal arrays.

    ``seed`` makes the stream reproducible (only as secret as the seed);
    without it the key comes from the OS CSPRNG.  :meth:`deal` returns the
    next deals; :meth:`rows` any range by index.  ``engine`` picks the
    unranking code (``"compiled"`` needs the ``fast`` extra; ``"auto"`` uses it
    when installed, from :data:`COMPILED_FROM` deals a call or once it is
    loaded); ``threads`` deals groups of 65,536 deals in parallel.
    Neither changes a single deal.  Thread-safe, and fork-safe: without a
    seed, a forked child deals from a fresh key (the stream re-keys itself and
    the dealer forgets the deals it keeps from the parent's key); with one,
    parent and child continue the same stream.  A layout with stacks is dealt
    by ``croupier-bulk/2``: the same piles, and every stack's order.

    >>> from croupier.dealing.layout import make_layout
    >>> d = BulkDealer(make_layout("holdem", players=6), seed="table 1")
    >>> d.rows(5000, 5002) == BulkDealer(make_layout("holdem", players=6), seed="table 1").rows(
    ...     0, 5002)[5000:]
    True
    >>> d.describe()
    'croupier-bulk/2, seeded stream'
    """

    def __init__(
        self,
        layout: Layout | str = "bridge",
        *,
        seed: Seed | None = None,
        stream: BulkStream | None = None,
        start: int = 0,
        engine: Kernel = "auto",
        threads: int = 1,
    ) -> None:
        if seed is not None and stream is not None:
            raise CroupierError("give seed= or stream=, not both")
        if not isinstance(layout, str | Layout):
            raise CroupierError(f"layout= is a game name or a Layout, not {type(layout).__name__}")
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
        self.engine: Kernel = engine
        if engine == "compiled":
            use_compiled(engine, self.layout.sizes)  # refuses sizes the kernel cannot pack
        if not 1 <= threads <= _MAX_THREADS:
            raise CroupierError(f"threads={threads} must be 1..{_MAX_THREADS}")
        self.threads = threads
        self._lock = threading.Lock()
        self._cache: _Blocks | None = None
        self._fork_seen = _source_module.fork_generation

    def _after_fork(self) -> None:
        """In a forked child: a fresh lock, and forget the deals made with the parent's key."""
        self._lock = threading.Lock()
        self._cache = None

    def describe(self) -> str:
        """The algorithm and the kind of stream, for notes and file headers."""
        return f"{self.algorithm}, {self.stream.label} stream"

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

        stacks = None
        if self.stack_plan is not None:
            stacks = (self.stream.derive(STACK_STREAM), self.stack_plan)

        def deal(job: tuple[int, int]) -> _Blocks:
            if job[0] < 0 and cached is not None:
                return cached
            return _deal_blocks(self.stream, job[0], job[1], self.layout, self.plan, engine, stacks)

        if self.threads > 1 and len(todo) > 1:
            from concurrent.futures import ThreadPoolExecutor  # not in a short run's start-up

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
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        parts: list[npt.NDArray[np.uint8]] = []
        bits: list[npt.NDArray[np.uint32]] = []
        masks: list[npt.NDArray[np.uint64] | None] = []
        stacks: dict[int, list[StackArray]] = {p: [] for p in self.layout.stack_piles}
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
            for p, taken in stacks.items():
                taken.append(dealt.stacks[p][lo - offset : hi - offset])
        if not parts:
            empty = np.zeros((0, len(self.layout.deck)), np.uint8)
            return DealArray(self.layout, empty, bits=np.zeros(0, np.uint32), check=False)
        if len(parts) == 1:
            first = {p: taken[0] for p, taken in stacks.items()}
            return DealArray._dealt(self.layout, parts[0], bits[0], masks[0], first)
        known = None
        if all(m is not None for m in masks):
            known = np.concatenate([m for m in masks if m is not None], axis=1)
        joined = {p: np.concatenate(taken) for p, taken in stacks.items()}
        piles = np.concatenate(parts)
        return DealArray._dealt(self.layout, piles, np.concatenate(bits), known, joined)

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
