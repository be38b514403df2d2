"""The split shuffle run by the compiled core, moving the items themselves.

The same arrangement as the plain-Python specification of
:mod:`croupier.shuffling.split` from the same bits (the tests compare them),
computed in cache-friendly passes of the kernels of ``croupier._core.split``:
the first level scatters the items into their buckets (a counting sort), the
second level sorts each bucket while it sits in the cache, and Fisher–Yates
runs leaf by leaf.  Items are rows of bytes (``(n, row)`` arrays of
``uint8``), so one kernel moves any dtype, and whole rows of 2-D arrays.  The
kernels release the interpreter lock, so large shuffles run each pass in two
threads.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

import croupier._core.split as kernels
from croupier.randomness.source import BitSource

__all__ = ["LeafTables", "SplitShape", "in_two", "split_move"]

_U64 = np.uint64


class SplitShape(Protocol):
    """What a split needs of its parameters (:class:`croupier.shuffling.split.SplitShape`)."""

    @property
    def levels(self) -> tuple[int, ...]: ...

    @property
    def chunk_bits(self) -> int: ...

    @property
    def margin_bits(self) -> int: ...


@dataclass(frozen=True)
class LeafTables:
    """The leaf draws of every leaf size ``m <= size``, flattened for vectorised code.

    Size ``m`` has ``count[m]`` chunks from ``first[m]`` on; chunk ``c`` is a
    draw below ``ranges[c]`` of ``widths[c]`` bits, accepted up to
    ``highest[c]`` (the limit minus one), covering radices ``top[c]`` down to
    ``bottom[c]``; a leaf of ``m`` items reads ``leaf_bits[m]`` bits in all.
    """

    first: npt.NDArray[np.int64]
    count: npt.NDArray[np.int64]
    leaf_bits: npt.NDArray[np.int64]
    ranges: npt.NDArray[np.uint64]
    widths: npt.NDArray[np.int64]
    highest: npt.NDArray[np.uint64]
    top: npt.NDArray[np.int64]
    bottom: npt.NDArray[np.int64]


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


PARALLEL_FROM = 65_536
"""Items from which each pass runs in two threads, each over half of the items or leaves.

The result is the same in one thread or two (the tests compare them); the
second thread is a helper kept for the process (:func:`in_two`).
"""

BESIDE_BELOW = 1 << 19
"""Items below which the leaf draws are made beside the first level's move (one level).

Their bits are then held at the same time as the keys' (about 1.1 bytes an
item more at the peak), so larger shuffles make them after the move.
"""

_helper: tuple[int, ThreadPoolExecutor] | None = None


def in_two(parallel: bool, first: Callable[[], object], second: Callable[[], object]) -> None:
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
    in_two(
        parallel,
        lambda: kernels.count_keys(region, k, 0, half, counts),
        lambda: kernels.count_keys(region, k, half, n, second),
    )
    first_place = np.cumsum(counts + second) - (counts + second)  # each bucket's start
    second_place = first_place + counts
    counts += second

    def move_first() -> None:
        kernels.scatter(_rows(src, dst), dst, region, k, 0, half, first_place, src is None)

    def move_second() -> None:
        kernels.scatter(_rows(src, dst), dst, region, k, half, n, second_place, src is None)

    def move_both() -> None:
        move_first()
        move_second()

    if beside is None:
        in_two(parallel, move_first, move_second)
    else:
        in_two(parallel, move_both, beside)


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
    middle = _middle(counts)
    start = int(counts[:middle].sum())

    def run(b_from: int, b_to: int, at: int) -> None:
        kernels.second_level(mid, fin, region, k, counts, leaf_sizes, b_from, b_to, at)

    in_two(
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
        kernels.fisher_yates(
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

    in_two(
        fin.shape[0] >= PARALLEL_FROM,
        lambda: run(0, middle, 0, 0, 0),
        lambda: run(middle, end, start, bit, again),
    )


_cache: dict[tuple[int, int], LeafTables] = {}
_reciprocal_cache: dict[int, tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]] = {}
_cache_lock = threading.Lock()
_NO_RECIPROCALS = (np.zeros(0, _U64), np.zeros(0, _U64))


def _tables(biggest: int, params: SplitShape) -> LeafTables:
    """Leaf tables for every size up to ``biggest`` (kept, and grown by powers of two)."""
    key = (params.chunk_bits, params.margin_bits)
    tables = _cache.get(key)
    if tables is not None and tables.first.shape[0] > biggest:
        return tables
    size = max(2048, 1 << biggest.bit_length())
    tables = LeafTables(*kernels.leaf_plans(np.arange(size, dtype=np.int64), *key))
    if size <= 1 << 16:  # a giant leaf's tables are not kept
        with _cache_lock:
            _cache[key] = tables
    return tables


def _reciprocals_for(
    tables: LeafTables, params: SplitShape
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


def _tables_and_reciprocals(
    biggest: int, params: SplitShape
) -> tuple[LeafTables, npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """:func:`_tables` for leaves of up to ``biggest`` items, and their reciprocals."""
    tables = _tables(biggest, params)
    return (tables, *_reciprocals_for(tables, params))


def _region(source: BitSource, nbits: int) -> npt.NDArray[np.uint8]:
    """The next ``nbits`` bits of ``source``, followed by 16 zero bytes (the kernels read ahead)."""
    region: npt.NDArray[np.uint8] = source.bits_as_array(nbits, pad=16)
    return region


def _leaf_draws(sizes: npt.NDArray[np.int64], source: BitSource, params: SplitShape) -> _Leaves:
    """Every draw of the leaves of these sizes: the first attempts' bits, then the rejected
    draws' final values (in rounds of redraws, each one request)."""
    tables = _tables(int(sizes.max()), params)
    middle = _middle(sizes)
    bottom = _region(source, int(tables.leaf_bits[sizes].sum()))
    chunks = int(tables.count[sizes].sum())
    marked = np.zeros(1, np.int64)
    first_attempts = (tables.first, tables.count, tables.widths, tables.highest, bottom)
    rows = np.empty(chunks // 8 + 64, np.int64)  # rejections have chance < 1/16 each
    bad = kernels.first_attempts(sizes, *first_attempts, rows, middle, marked)
    if bad < 0:  # (practically never) more than fit: count them all
        rows = np.empty(chunks, np.int64)
        bad = kernels.first_attempts(sizes, *first_attempts, rows, middle, marked)
    rows = rows[:bad]
    redrawn = np.zeros(bad, _U64)
    todo = np.arange(bad, dtype=np.int64)
    while len(todo):
        data = _region(source, int(tables.widths[rows[todo]].sum()))
        left = kernels.redraw_round(
            data, todo, rows, tables.ranges, tables.widths, tables.highest, redrawn
        )
        todo = todo[:left]
    reciprocal = _reciprocals_for(tables, params)
    return _Leaves(sizes, tables, bottom, redrawn, middle, int(marked[0]), reciprocal)


def _rows(src: npt.NDArray[np.uint8] | None, dst: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The rows a scatter reads: ``src``, or (making a permutation, nothing is read) ``dst``."""
    return dst if src is None else src


def _byte_rows(a: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """The rows of a C-contiguous ``(n, w)`` array as rows of bytes, without a copy."""
    return a.view(np.uint8).reshape(a.shape[0], a.dtype.itemsize * (a.size // max(a.shape[0], 1)))


def split_move(
    src: npt.NDArray[Any] | None,
    dst: npt.NDArray[Any],
    source: BitSource,
    params: SplitShape,
    *,
    in_place: bool,
) -> None:
    """Shuffle the rows of ``src`` by the split shuffle, reading ``source``'s bits.

    ``src`` and ``dst`` are C-contiguous ``(n, w)`` arrays of one dtype.  With
    ``in_place`` the result ends in ``src`` (``dst`` is scratch space);
    otherwise in ``dst`` (``src`` is not changed).  ``src=None`` stands for
    the rows ``0, 1, ..., n-1`` of ``dst``'s dtype (4- or 8-byte integers, one
    column): a permutation, made without an input array; not in place.
    """
    n = dst.shape[0]
    levels = params.levels
    if src is None:
        if in_place or dst.shape[1] != 1 or dst.dtype.itemsize not in (4, 8):
            raise ValueError("a permutation is made into dst, one column of 4- or 8-byte numbers")
        if n <= 1 or not levels:  # an input array after all
            src = np.arange(n, dtype=dst.dtype).reshape(n, 1)
    dst = _byte_rows(dst)
    src = None if src is None else _byte_rows(src)
    if 2 <= n < PARALLEL_FROM and len(levels) <= 1:  # one thread: one call does it all
        kernels.split_serial(
            dst if src is None else src,
            dst,
            src is None,
            source,
            levels[0] if levels else 0,
            lambda biggest: _tables_and_reciprocals(biggest, params),
            in_place,
        )
        return
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
        else:  # (a permutation's first level writes the numbers: no input array is made)
            _first_level(src, dst, _region(source, n * k1), k1, counts)
            k2 = levels[1]
            leaf_sizes = np.zeros(1 << (k1 + k2), np.int64)
            fin = src if in_place and src is not None else dst
            _second_level(dst, fin, _region(source, n * k2), k2, counts, leaf_sizes)
    if n >= 2:
        _fisher_yates_all(fin, found[0] if found else _leaf_draws(leaf_sizes, source, params))
    if in_place and src is not None and fin is not src:
        src[...] = fin
