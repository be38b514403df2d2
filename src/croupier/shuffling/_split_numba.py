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

import threading
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

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
def _pass1(src: Any, dst: Any, region: Any, k: int, counts: Any) -> None:  # pragma: no cover
    """First level: a stable counting sort of the rows of ``src`` into ``dst`` by ``k``-bit keys.

    The keys are decoded from ``region`` a chunk at a time, twice (to count,
    then to move), so no array of keys is kept.
    """
    n = src.shape[0]
    w = src.shape[1]
    keys = np.empty(_CHUNK, np.int64)
    for i0 in range(0, n, _CHUNK):
        m = min(_CHUNK, n - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        for i in range(m):
            counts[keys[i]] += 1
    pos = np.empty(counts.shape[0], np.int64)
    acc = 0
    for b in range(counts.shape[0]):
        pos[b] = acc
        acc += counts[b]
    for i0 in range(0, n, _CHUNK):
        m = min(_CHUNK, n - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        if w == 1:
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
def _pass1_identity(dst: Any, region: Any, k: int, counts: Any) -> None:  # pragma: no cover
    """:func:`_pass1` of the rows ``0, 1, ..., n-1`` (a permutation), without reading them."""
    n = dst.shape[0]
    keys = np.empty(_CHUNK, np.int64)
    for i0 in range(0, n, _CHUNK):
        m = min(_CHUNK, n - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        for i in range(m):
            counts[keys[i]] += 1
    pos = np.empty(counts.shape[0], np.int64)
    acc = 0
    for b in range(counts.shape[0]):
        pos[b] = acc
        acc += counts[b]
    for i0 in range(0, n, _CHUNK):
        m = min(_CHUNK, n - i0)
        _decode(region[(i0 // 8) * k :], k, m, keys)
        for i in range(m):
            key = keys[i]
            dst[pos[key], 0] = i0 + i
            pos[key] += 1


@numba.njit(nogil=True, cache=True)
def _pass2(
    mid: Any, fin: Any, region: Any, k: int, counts: Any, leaf_sizes: Any, temp: Any, same: bool
) -> None:  # pragma: no cover - compiled
    """Second level: each bucket of ``mid`` stably sorted by its items' keys, into ``fin``.

    Item ``p`` (in ``mid``'s order) has the ``p``-th ``k``-bit key of
    ``region``.  Bucket ``b``'s leaves are ``leaf_sizes[b << k :]``, counted
    here while the bucket sits in the cache.
    """
    w = mid.shape[1]
    pos = np.empty(1 << k, np.int64)
    keys = np.empty(int(counts.max()) + 8 if counts.shape[0] else 8, np.int64)
    start = 0
    for b in range(counts.shape[0]):
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
    leaf_sizes: Any, first: Any, count: Any, widths: Any, highest: Any, bottom: Any, out: Any
) -> int:  # pragma: no cover - compiled
    """Every leaf draw's first attempt: the table rows of the rejected ones, in order, in ``out``.

    Returns how many were rejected, or -1 when ``out`` is too small.
    """
    bit = 0
    rejected = 0
    for g in range(leaf_sizes.shape[0]):
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
    (:func:`_fisher_yates_all`).
    """
    w = fin.shape[1]
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
                    q = value // ur
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


PARALLEL_FROM = 250_000
"""Items from which Fisher–Yates runs in two threads (each over half of the leaves)."""


def _fisher_yates_all(
    fin: npt.NDArray[Any],
    leaf_sizes: npt.NDArray[np.int64],
    tables: LeafTables,
    bottom: npt.NDArray[np.uint8],
    redrawn: npt.NDArray[np.uint64],
) -> None:
    """Fisher–Yates in every leaf: the second half of the leaves in another thread when
    there are :data:`PARALLEL_FROM` items or more (the same result: leaves are apart).

    The second half starts at its first leaf's first item, at the bits the leaves
    before it drew first, and at the redrawn value after their rejected draws
    (counted again by :func:`_first_attempts` over those leaves).
    """
    t = tables
    common = (t.first, t.count, t.ranges, t.widths, t.highest, t.top, t.bottom, bottom, redrawn)
    leaves = leaf_sizes.shape[0]
    n = fin.shape[0]
    if n < PARALLEL_FROM or leaves < 2:
        _fisher_yates(fin, leaf_sizes, *common, 0, leaves, 0, 0, 0)
        return
    middle = int(np.searchsorted(np.cumsum(leaf_sizes), n // 2))
    middle = min(max(middle, 1), leaves - 1)
    before = leaf_sizes[:middle]
    start = int(before.sum())
    bit = int(t.leaf_bits[before].sum())
    rows = np.empty(redrawn.shape[0] + 1, np.int64)  # (they are some of all the rejected)
    rejected = _first_attempts(before, t.first, t.count, t.widths, t.highest, bottom, rows)
    second = threading.Thread(
        target=_fisher_yates, args=(fin, leaf_sizes, *common, middle, leaves, start, bit, rejected)
    )
    second.start()
    try:
        _fisher_yates(fin, leaf_sizes, *common, 0, middle, 0, 0, 0)
    finally:
        second.join()


_cache: dict[tuple[int, int], LeafTables] = {}
_cache_lock = threading.Lock()


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


def _region(source: BitSource, nbits: int) -> npt.NDArray[np.uint8]:
    """The next ``nbits`` bits of ``source``, followed by 16 zero bytes (the kernels read ahead)."""
    region: npt.NDArray[np.uint8] = source.bits_as_array(nbits, pad=16)
    return region


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
    if n <= 1 or not levels:
        assert src is not None
        fin = src if in_place else dst
        if not in_place:
            fin[...] = src
        leaf_sizes = np.array([n], np.int64)
    else:
        k1 = levels[0]
        counts = np.zeros(1 << k1, np.int64)
        if src is None:
            _pass1_identity(dst, _region(source, n * k1), k1, counts)
        else:
            _pass1(src, dst, _region(source, n * k1), k1, counts)
        if len(levels) == 1:
            fin = dst
            leaf_sizes = counts
        else:
            k2 = levels[1]
            leaf_sizes = np.zeros(1 << (k1 + k2), np.int64)
            assert src is not None
            fin = src if in_place else dst
            same = fin is dst
            temp = np.empty((int(counts.max()) if same else 0, dst.shape[1]), dst.dtype)
            _pass2(dst, fin, _region(source, n * k2), k2, counts, leaf_sizes, temp, same)
    if n >= 2:
        tables = _tables(int(leaf_sizes.max()), params)
        bottom = _region(source, int(tables.leaf_bits[leaf_sizes].sum()))
        chunks = int(tables.count[leaf_sizes].sum())
        rows = np.empty(chunks // 8 + 64, np.int64)  # rejections have chance < 1/16 each
        bad = _first_attempts(
            leaf_sizes, tables.first, tables.count, tables.widths, tables.highest, bottom, rows
        )
        if bad < 0:  # (practically never) more than fit: count them all
            rows = np.empty(chunks, np.int64)
            bad = _first_attempts(
                leaf_sizes, tables.first, tables.count, tables.widths, tables.highest, bottom, rows
            )
        rows = rows[:bad]
        redrawn = np.zeros(bad, _U64)
        todo = np.arange(bad, dtype=np.int64)
        while len(todo):  # rounds of redraws, each one request
            data = _region(source, int(tables.widths[rows[todo]].sum()))
            left = _redraw_round(
                data, todo, rows, tables.ranges, tables.widths, tables.highest, redrawn
            )
            todo = todo[:left]
        _fisher_yates_all(fin, leaf_sizes, tables, bottom, redrawn)
    if in_place and src is not None and fin is not src:
        src[...] = fin
