"""The compiled split shuffle (optional extra ``fast``: numba).

The same arrangement as :mod:`croupier.shuffling.split`'s other engines from
the same bits (the tests compare them), computed while moving the items
themselves, in cache-friendly passes: the first level scatters the items into
their buckets (a counting sort), the second level sorts each bucket while it
sits in the cache, and Fisher–Yates runs leaf by leaf.  Items are rows of
machine words (``(n, w)`` arrays of unsigned integers), so one compiled kernel
moves any dtype, and whole rows of 2-D arrays.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba.extending import intrinsic

from croupier.randomness.source import BitSource
from croupier.shuffling.split import SplitParams
from croupier.shuffling.split_numpy import LeafTables

__all__ = ["split_move"]

_U64 = np.uint64


@numba.njit(nogil=True, cache=True)
def _decode(region: Any, k: int, n: int, keys: Any) -> None:  # pragma: no cover - compiled
    """The ``n`` consecutive ``k``-bit (<= 16) big-endian keys of ``region`` (padded) into ``keys``.

    Eight keys at a time: they fill exactly ``k`` bytes.
    """
    mask = (1 << k) - 1
    full = n // 8
    for g in range(full):
        b = g * k
        hi = np.uint64(0)
        for i in range(8):
            hi = (hi << np.uint64(8)) | np.uint64(region[b + i])
        if k <= 8:
            word = hi >> np.uint64(64 - 8 * k)
            for j in range(8):
                keys[8 * g + j] = np.int64(word >> np.uint64(k * (7 - j))) & mask
        else:
            lo = np.uint64(0)
            for i in range(8):
                lo = (lo << np.uint64(8)) | np.uint64(region[b + 8 + i])
            for j in range(8):
                end = k * (j + 1)
                if end <= 64:
                    keys[8 * g + j] = np.int64(hi >> np.uint64(64 - end)) & mask
                elif end - k >= 64:
                    keys[8 * g + j] = np.int64(lo >> np.uint64(128 - end)) & mask
                else:
                    x = (hi << np.uint64(end - 64)) | (lo >> np.uint64(128 - end))
                    keys[8 * g + j] = np.int64(x) & mask
    for i in range(full * 8, n):
        bit = i * k
        b = bit >> 3
        v = (np.int64(region[b]) << 16) | (np.int64(region[b + 1]) << 8) | np.int64(region[b + 2])
        keys[i] = (v >> (24 - (bit & 7) - k)) & mask


@numba.njit(nogil=True, cache=True)
def _field(buf: Any, bit: int, w: int) -> Any:  # pragma: no cover - compiled
    """The ``w``-bit (1..64) big-endian field of ``buf`` at bit offset ``bit``, as uint64."""
    b = bit >> 3
    hi = np.uint64(0)
    for i in range(8):
        hi = (hi << np.uint64(8)) | np.uint64(buf[b + i])
    s = np.uint64(bit & 7)
    hi = (hi << s) | (np.uint64(buf[b + 8]) >> (np.uint64(8) - s))
    return hi >> np.uint64(64 - w)


_CHUNK = 4096  # keys decoded at a time (a multiple of 8: whole bytes of the region)


@numba.njit(nogil=True, cache=True)
def _count(region: Any, k: int, i_from: int, i_to: int, counts: Any) -> None:  # pragma: no cover
    """Add the number of items ``i_from .. i_to - 1`` with each ``k``-bit key to ``counts``.

    Item ``i`` has the ``i``-th key of ``region``; ``i_from`` is a multiple of 8.
    The keys are decoded a chunk at a time (no array of keys is kept).
    """
    keys = np.empty(_CHUNK, np.uint16)
    for i0 in range(i_from, i_to, _CHUNK):
        m = min(_CHUNK, i_to - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        for i in range(m):
            counts[keys[i]] += 1


@numba.njit(nogil=True, cache=True)
def _scatter(
    src: Any, dst: Any, region: Any, k: int, i_from: int, i_to: int, pos: Any
) -> None:  # pragma: no cover - compiled
    """Move rows ``i_from .. i_to - 1`` of ``src`` to ``dst[pos[key]]`` in order (``pos`` advances).

    With ``pos`` the first free place of each key's bucket, this is a stable
    counting sort of those rows; ``src=None`` stands for the rows ``0, 1, ...``
    (a permutation, made without reading an input).
    """
    w = dst.shape[1]
    keys = np.empty(_CHUNK, np.uint16)
    for i0 in range(i_from, i_to, _CHUNK):
        m = min(_CHUNK, i_to - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        if src is None:
            for i in range(m):
                key = keys[i]
                dst[pos[key], 0] = i0 + i
                pos[key] += 1
        elif w == 1:
            for i in range(m):
                key = keys[i]
                dst[pos[key], 0] = src[i0 + i, 0]
                pos[key] += 1
        else:
            for i in range(m):
                key = keys[i]
                p = pos[key]
                for c in range(w):
                    dst[p, c] = src[i0 + i, c]
                pos[key] = p + 1


@numba.njit(nogil=True, cache=True)
def _pass2(
    mid: Any,
    fin: Any,
    region: Any,
    k: int,
    counts: Any,
    leaf_sizes: Any,
    temp: Any,
    same: bool,
    b_from: int,
    b_to: int,
    start: int,
) -> None:  # pragma: no cover - compiled
    """Second level: buckets ``b_from .. b_to - 1`` of ``mid`` each stably sorted by its
    items' keys, into ``fin``; bucket ``b_from`` begins at item ``start``.

    Item ``p`` (in ``mid``'s order) has the ``p``-th ``k``-bit key of
    ``region``.  Bucket ``b``'s leaves are ``leaf_sizes[b << k :]``, counted
    here while the bucket sits in the cache.
    """
    w = mid.shape[1]
    pos = np.empty(1 << k, np.int64)
    biggest = 0
    for b in range(b_from, b_to):
        biggest = max(biggest, counts[b])
    keys = np.empty(biggest + 8, np.uint16)
    for b in range(b_from, b_to):
        size = counts[b]
        if size == 0:
            continue
        base = b << k
        aligned = start - start % 8
        skip = start - aligned
        _decode(region[(aligned // 8) * k :], k, skip + size, keys)
        for i in range(size):
            leaf_sizes[base + keys[skip + i]] += 1
        acc = start
        for j in range(1 << k):
            pos[j] = acc
            acc += leaf_sizes[base + j]
        if same:  # the bucket is read from a copy, then sorted back in place
            for i in range(size):
                for c in range(w):
                    temp[i, c] = mid[start + i, c]
            src = temp
            off = 0
        else:
            src = mid
            off = start
        if w == 1:
            for i in range(size):
                key = keys[skip + i]
                fin[pos[key], 0] = src[off + i, 0]
                pos[key] += 1
        else:
            for i in range(size):
                key = keys[skip + i]
                p = pos[key]
                for c in range(w):
                    fin[p, c] = src[off + i, c]
                pos[key] = p + 1
        start += size


@numba.njit(nogil=True, cache=True)
def _bit_length(x: Any) -> int:  # pragma: no cover - compiled
    n = 0
    while x:
        x = x >> np.uint64(1)
        n += 1
    return n


@numba.njit(nogil=True, cache=True)
def _plans(sizes: Any, chunk_bits: int, margin: int) -> Any:  # pragma: no cover - compiled
    """The chunk tables of :func:`croupier.shuffling.split_numpy.leaf_tables`, for sorted sizes."""
    biggest = sizes[-1] if sizes.shape[0] else 0
    first = np.zeros(biggest + 1, np.int64)
    count = np.zeros(biggest + 1, np.int64)
    leaf_bits = np.zeros(biggest + 1, np.int64)
    limit = np.uint64(1) << np.uint64(chunk_bits)
    total = 0
    for m in sizes:
        r = m
        while r >= 2:
            product = np.uint64(r)
            r -= 1
            while r >= 2 and product <= limit // np.uint64(r):
                product *= np.uint64(r)
                r -= 1
            count[m] += 1
        total += count[m]
    ranges = np.empty(total, np.uint64)
    widths = np.empty(total, np.int64)
    highest = np.empty(total, np.uint64)
    top = np.empty(total, np.int64)
    bottom = np.empty(total, np.int64)
    at = 0
    for m in sizes:
        first[m] = at
        r = m
        while r >= 2:
            top[at] = r
            product = np.uint64(r)
            r -= 1
            while r >= 2 and product <= limit // np.uint64(r):
                product *= np.uint64(r)
                r -= 1
            bottom[at] = r + 1
            w = _bit_length(product - np.uint64(1)) + margin
            if w >= 64:
                rem = (np.uint64(0) - product) % product
                highest[at] = np.uint64(0) - rem - np.uint64(1)
            else:
                space = np.uint64(1) << np.uint64(w)
                highest[at] = space - space % product - np.uint64(1)
            ranges[at] = product
            widths[at] = w
            leaf_bits[m] += w
            at += 1
    return first, count, leaf_bits, ranges, widths, highest, top, bottom


@numba.njit(nogil=True, cache=True)
def _first_attempts(
    leaf_sizes: Any,
    first: Any,
    count: Any,
    widths: Any,
    highest: Any,
    bottom: Any,
    out: Any,
    mark: int,
    marked: Any,
) -> int:  # pragma: no cover - compiled
    """Every leaf draw's first attempt: the table rows of the rejected ones, in order, in ``out``.

    Returns how many were rejected, or -1 when ``out`` is too small.  How many
    were rejected in the leaves before leaf ``mark`` goes to ``marked[0]``.
    """
    bit = 0
    rejected = 0
    for g in range(leaf_sizes.shape[0]):
        if g == mark:
            marked[0] = rejected
        m = leaf_sizes[g]
        if m < 2:
            continue
        f = first[m]
        for j in range(count[m]):
            w = widths[f + j]
            if _field(bottom, bit, w) > highest[f + j]:
                if rejected == out.shape[0]:
                    return -1
                out[rejected] = f + j
                rejected += 1
            bit += w
    return rejected


@numba.njit(nogil=True, cache=True)
def _redraw_round(
    data: Any, todo: Any, rows: Any, ranges: Any, widths: Any, highest: Any, values: Any
) -> int:  # pragma: no cover - compiled
    """One round of redraws from ``data`` for the draws ``todo`` (indices into ``rows``).

    Accepted values go to ``values[i]``; the draws still rejected move to the
    front of ``todo`` and their number is returned.
    """
    bit = 0
    left = 0
    for t in range(todo.shape[0]):
        i = todo[t]
        row = rows[i]
        w = widths[row]
        v = _field(data, bit, w)
        bit += w
        if v <= highest[row]:
            values[i] = v % ranges[row]
        else:
            todo[left] = i
            left += 1
    return left


@intrinsic
def _high_product(typingctx: Any, a: Any, b: Any) -> Any:  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product of two uint64 (one multiply instruction)."""
    signature = numba.types.uint64(numba.types.uint64, numba.types.uint64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return signature, codegen


RECIPROCAL_BITS = 60
"""Dividends below ``2**60`` are divided by a multiply (:func:`reciprocals`)."""


def reciprocals(size: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """Multipliers and shifts that divide any ``x < 2**60`` by ``r`` (``2 <= r < size``) exactly.

    With ``l = max(bit_length(r - 1), 4)`` and ``m = ceil(2**(60 + l) / r)``
    (less than ``2**64``), ``x // r == (x * m) >> (60 + l)`` for every
    ``x < 2**60``, because ``m * r - 2**(60 + l) < r <= 2**l`` (Granlund and
    Montgomery, "Division by invariant integers using multiplication", 1994,
    theorem 4.2); the kernel takes the high word of ``x * m`` and shifts it by
    ``l - 4``.

    >>> magic, shift = reciprocals(8)
    >>> x = 2**60 - 1
    >>> [(x * int(magic[r]) >> 64) >> int(shift[r]) == x // r for r in range(2, 8)]
    [True, True, True, True, True, True]
    """
    magic = np.zeros(size, _U64)
    shift = np.zeros(size, _U64)
    for r in range(2, size):
        bits = max((r - 1).bit_length(), 4)
        magic[r] = -(-(1 << (RECIPROCAL_BITS + bits)) // r)
        shift[r] = bits - 4
    return magic, shift


@numba.njit(nogil=True, cache=True)
def _fisher_yates(
    fin: Any,
    leaf_sizes: Any,
    first: Any,
    count: Any,
    ranges: Any,
    widths: Any,
    highest: Any,
    top: Any,
    bottom_radix: Any,
    bottom: Any,
    redrawn: Any,
    magic: Any,
    shift: Any,
    g_from: int,
    g_to: int,
    start: int,
    bit: int,
    next_redrawn: int,
) -> None:  # pragma: no cover - compiled
    """Fisher–Yates in leaves ``g_from .. g_to - 1``, its choices the mixed-radix digits of
    their draws.

    A draw's value is its first attempt in ``bottom`` when accepted, else the
    next value of ``redrawn`` (the rejected draws' final values, in order).
    ``start``, ``bit`` and ``next_redrawn`` are where leaf ``g_from`` begins: its
    first item, its first draw's bit in ``bottom``, its first redrawn value
    (:func:`_fisher_yates_all`).  Digits are taken by :func:`reciprocals`'
    multiplies when ``magic`` covers every radix (draws below ``2**60``), else
    by division.
    """
    w = fin.shape[1]
    multiply = magic.shape[0] > 0
    for g in range(g_from, g_to):
        m = leaf_sizes[g]
        if m >= 2:
            f = first[m]
            for j in range(count[m]):
                row = f + j
                width = widths[row]
                value = _field(bottom, bit, width)
                bit += width
                if value <= highest[row]:
                    value = value % ranges[row]
                else:
                    value = redrawn[next_redrawn]
                    next_redrawn += 1
                for r in range(top[row], bottom_radix[row] - 1, -1):
                    ur = np.uint64(r)
                    q = _high_product(value, magic[r]) >> shift[r] if multiply else value // ur  # type: ignore[call-arg]
                    d = np.int64(value - q * ur)
                    value = q
                    a = start + r - 1
                    b = start + d
                    if w == 1:
                        t = fin[a, 0]
                        fin[a, 0] = fin[b, 0]
                        fin[b, 0] = t
                    else:
                        for c in range(w):
                            t = fin[a, c]
                            fin[a, c] = fin[b, c]
                            fin[b, c] = t
        start += m


PARALLEL_FROM = 65_536
"""Items from which each pass runs in two threads, each over half of the items or leaves.

The result is the same in one thread or two (the tests compare them); the
second thread is a helper kept for the process (:func:`_in_two`).
"""

BESIDE_BELOW = 1 << 19
"""Items below which the leaf draws are made beside the first level's move (one level).

Their bits are then held at the same time as the keys' (about 1.1 bytes an
item more at the peak), so larger shuffles make them after the move.
"""

_helper: tuple[int, ThreadPoolExecutor] | None = None


def _in_two(parallel: bool, first: Callable[[], None], second: Callable[[], None]) -> None:
    """Run ``first`` and ``second`` (which touch separate data): in two threads when
    ``parallel``, else one after the other.

    The second thread is one helper kept for the process, made again in a
    forked child (a fork copies no threads).
    """
    global _helper
    if not parallel:
        first()
        second()
        return
    if _helper is None or _helper[0] != os.getpid():
        _helper = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="croupier-split"))
    done = _helper[1].submit(second)
    try:
        first()
    finally:
        done.result()


def _middle(sizes: npt.NDArray[np.int64]) -> int:
    """The index that splits ``sizes`` (of leaves or buckets) into halves of about equal sums."""
    if sizes.shape[0] < 2:
        return int(sizes.shape[0])
    middle = int(np.searchsorted(np.cumsum(sizes), int(sizes.sum()) // 2))
    return min(max(middle, 1), int(sizes.shape[0]) - 1)


def _first_level(
    src: npt.NDArray[Any] | None,
    dst: npt.NDArray[Any],
    region: npt.NDArray[np.uint8],
    k: int,
    counts: npt.NDArray[np.int64],
    beside: Callable[[], None] | None = None,
) -> None:
    """A stable counting sort of the rows of ``src`` into ``dst`` by ``k``-bit keys.

    The two halves of the items are counted side by side, then moved: the
    second half's items go after the first half's in every bucket, so the
    order is the one-thread order.  The halves move side by side too, unless
    there is work to do ``beside`` the move once ``counts`` is known (then
    that work takes the other thread).
    """
    n = dst.shape[0]
    parallel = n >= PARALLEL_FROM
    half = (n // 2) - (n // 2) % 8
    second = np.zeros_like(counts)
    _in_two(
        parallel,
        lambda: _count(region, k, 0, half, counts),
        lambda: _count(region, k, half, n, second),
    )
    first_place = np.cumsum(counts + second) - (counts + second)  # each bucket's start
    second_place = first_place + counts
    counts += second

    def move_first() -> None:
        _scatter(src, dst, region, k, 0, half, first_place)

    def move_second() -> None:
        _scatter(src, dst, region, k, half, n, second_place)

    def move_both() -> None:
        move_first()
        move_second()

    if beside is None:
        _in_two(parallel, move_first, move_second)
    else:
        _in_two(parallel, move_both, beside)


def _second_level(
    mid: npt.NDArray[Any],
    fin: npt.NDArray[Any],
    region: npt.NDArray[np.uint8],
    k: int,
    counts: npt.NDArray[np.int64],
    leaf_sizes: npt.NDArray[np.int64],
) -> None:
    """Every bucket of ``mid`` stably sorted by its items' keys into ``fin`` (the leaves
    counted into ``leaf_sizes``): the two halves of the buckets side by side."""
    n = mid.shape[0]
    same = fin is mid
    middle = _middle(counts)
    start = int(counts[:middle].sum())

    def run(b_from: int, b_to: int, at: int) -> None:
        biggest = int(counts[b_from:b_to].max(initial=0)) if same else 0
        temp = np.empty((biggest, mid.shape[1]), mid.dtype)
        _pass2(mid, fin, region, k, counts, leaf_sizes, temp, same, b_from, b_to, at)

    _in_two(
        n >= PARALLEL_FROM,
        lambda: run(0, middle, 0),
        lambda: run(middle, counts.shape[0], start),
    )


@dataclass(frozen=True)
class _Leaves:
    """Everything Fisher–Yates needs besides the items: the tables, the draws' bits, the
    rejected draws' final values, and where the second thread starts."""

    sizes: npt.NDArray[np.int64]
    tables: LeafTables
    bottom: npt.NDArray[np.uint8]
    redrawn: npt.NDArray[np.uint64]
    middle: int
    redrawn_before: int
    reciprocal: tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]


def _fisher_yates_all(fin: npt.NDArray[Any], leaves: _Leaves) -> None:
    """Fisher–Yates in every leaf: the leaves from ``leaves.middle`` on in the helper
    thread when there are :data:`PARALLEL_FROM` items or more (the same result: leaves
    are apart).

    The second half starts at its first leaf's first item, at the bits the leaves
    before it drew first, and at the redrawn value after their rejected draws.
    """
    t = leaves.tables
    sizes = leaves.sizes
    middle = leaves.middle
    before = sizes[:middle]
    start = int(before.sum())
    bit = int(t.leaf_bits[before].sum())
    end = sizes.shape[0]
    again = leaves.redrawn_before
    magic, shift = leaves.reciprocal

    def run(g_from: int, g_to: int, at: int, at_bit: int, at_redrawn: int) -> None:
        _fisher_yates(
            fin,
            sizes,
            t.first,
            t.count,
            t.ranges,
            t.widths,
            t.highest,
            t.top,
            t.bottom,
            leaves.bottom,
            leaves.redrawn,
            magic,
            shift,
            g_from,
            g_to,
            at,
            at_bit,
            at_redrawn,
        )

    _in_two(
        fin.shape[0] >= PARALLEL_FROM,
        lambda: run(0, middle, 0, 0, 0),
        lambda: run(middle, end, start, bit, again),
    )


_cache: dict[tuple[int, int], LeafTables] = {}
_reciprocal_cache: dict[int, tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]] = {}
_cache_lock = threading.Lock()
_NO_RECIPROCALS = (np.zeros(0, _U64), np.zeros(0, _U64))


def _tables(biggest: int, params: SplitParams) -> LeafTables:
    """Leaf tables for every size up to ``biggest`` (kept, and grown by powers of two)."""
    key = (params.chunk_bits, params.margin_bits)
    tables = _cache.get(key)
    if tables is not None and tables.first.shape[0] > biggest:
        return tables
    size = max(2048, 1 << biggest.bit_length())
    tables = LeafTables(*_plans(np.arange(size, dtype=np.int64), *key))
    if size <= 1 << 16:  # a giant leaf's tables are not kept
        with _cache_lock:
            _cache[key] = tables
    return tables


def _reciprocals_for(
    tables: LeafTables, params: SplitParams
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """:func:`reciprocals` covering ``tables``' radices (kept), or none: divide instead (a
    giant leaf, or draws that may reach ``2**60``)."""
    size = tables.first.shape[0]
    if params.chunk_bits > RECIPROCAL_BITS or size > 1 << 16:
        return _NO_RECIPROCALS
    found = _reciprocal_cache.get(size)
    if found is None:
        found = reciprocals(size)
        with _cache_lock:
            _reciprocal_cache[size] = found
    return found


def _region(source: BitSource, nbits: int) -> npt.NDArray[np.uint8]:
    """The next ``nbits`` bits of ``source``, followed by 16 zero bytes (the kernels read ahead)."""
    region: npt.NDArray[np.uint8] = source.bits_as_array(nbits, pad=16)
    return region


def _leaf_draws(sizes: npt.NDArray[np.int64], source: BitSource, params: SplitParams) -> _Leaves:
    """Every draw of the leaves of these sizes: the first attempts' bits, then the rejected
    draws' final values (in rounds of redraws, each one request)."""
    tables = _tables(int(sizes.max()), params)
    middle = _middle(sizes)
    bottom = _region(source, int(tables.leaf_bits[sizes].sum()))
    chunks = int(tables.count[sizes].sum())
    marked = np.zeros(1, np.int64)
    first_attempts = (tables.first, tables.count, tables.widths, tables.highest, bottom)
    rows = np.empty(chunks // 8 + 64, np.int64)  # rejections have chance < 1/16 each
    bad = _first_attempts(sizes, *first_attempts, rows, middle, marked)
    if bad < 0:  # (practically never) more than fit: count them all
        rows = np.empty(chunks, np.int64)
        bad = _first_attempts(sizes, *first_attempts, rows, middle, marked)
    rows = rows[:bad]
    redrawn = np.zeros(bad, _U64)
    todo = np.arange(bad, dtype=np.int64)
    while len(todo):
        data = _region(source, int(tables.widths[rows[todo]].sum()))
        left = _redraw_round(
            data, todo, rows, tables.ranges, tables.widths, tables.highest, redrawn
        )
        todo = todo[:left]
    reciprocal = _reciprocals_for(tables, params)
    return _Leaves(sizes, tables, bottom, redrawn, middle, int(marked[0]), reciprocal)


def split_move(
    src: npt.NDArray[Any] | None,
    dst: npt.NDArray[Any],
    source: BitSource,
    params: SplitParams,
    *,
    in_place: bool,
) -> None:
    """Shuffle the rows of ``src`` by the split shuffle, reading ``source``'s bits.

    ``src`` and ``dst`` are ``(n, w)`` arrays of one unsigned integer type.
    With ``in_place`` the result ends in ``src`` (``dst`` is scratch space);
    otherwise in ``dst`` (``src`` is not changed).  ``src=None`` stands for
    the rows ``0, 1, ..., n-1`` of ``dst``'s shape (a permutation, made
    without an input array; not in place).
    """
    n = dst.shape[0]
    levels = params.levels
    if src is None:
        if in_place or dst.shape[1] != 1:
            raise ValueError("a permutation is made into dst, as one column")
        if n <= 1 or not levels or len(levels) > 1:  # an input array after all
            src = np.arange(n, dtype=dst.dtype).reshape(n, 1)
    found: list[_Leaves] = []
    if n <= 1 or not levels:
        assert src is not None
        fin = src if in_place else dst
        if not in_place:
            fin[...] = src
        leaf_sizes = np.array([n], np.int64)
    else:
        k1 = levels[0]
        counts = np.zeros(1 << k1, np.int64)
        if len(levels) == 1:  # the buckets are the leaves
            fin = dst
            leaf_sizes = counts
            beside = None
            if n < BESIDE_BELOW:  # draw for the leaves while the items move
                beside = lambda: found.append(_leaf_draws(counts, source, params))  # noqa: E731
            _first_level(src, dst, _region(source, n * k1), k1, counts, beside)
        else:
            _first_level(src, dst, _region(source, n * k1), k1, counts)
            k2 = levels[1]
            leaf_sizes = np.zeros(1 << (k1 + k2), np.int64)
            assert src is not None
            fin = src if in_place else dst
            _second_level(dst, fin, _region(source, n * k2), k2, counts, leaf_sizes)
    if n >= 2:
        _fisher_yates_all(fin, found[0] if found else _leaf_draws(leaf_sizes, source, params))
    if in_place and src is not None and fin is not src:
        src[...] = fin
