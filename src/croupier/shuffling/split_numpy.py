"""Vectorised pieces of the split shuffle (``croupier-shuffle-split/1``), with numpy.

Keys read as bit fields (:func:`key_fields`), stable sorts by 16-bit radix
passes (:func:`stable_key_order`), leaf tables (:func:`leaf_tables`), rounds of
redraws (:func:`redraw`) and Fisher–Yates over all leaves at once, one radix a
step (:func:`arrange_leaves`).  The keyed split of the file shuffle
(:mod:`croupier.scale.keyed_split`) is built from them; the tests hold them to
the plain-Python specification of :mod:`croupier.shuffling.split`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.randomness.source import BitSource
from croupier.shuffling.split import SplitParams, accept_limit, draw_width
from croupier.shuffling.split_move import LeafTables

__all__ = [
    "LeafTables",
    "arrange_leaves",
    "bit_fields",
    "distinct",
    "key_fields",
    "leaf_tables",
    "redraw",
    "stable_key_order",
]

_U64 = np.uint64


_BY_TOP: dict[tuple[int, int], tuple[Any, ...]] = {}
_CHAINS: dict[tuple[int, int], dict[int, npt.NDArray[np.int64]]] = {}


def _chunks_by_top(biggest: int, chunk_bits: int, margin_bits: int) -> tuple[Any, ...]:
    """For every ``top`` up to ``biggest``: the first chunk of a leaf of ``top`` items.

    ``(bottom list, R, width, highest)``, indexed by ``top`` (kept, and grown).
    """
    key = (chunk_bits, margin_bits)
    known = _BY_TOP.get(key)
    if known is not None and len(known[0]) > biggest:
        return known
    size = max(2048, 1 << biggest.bit_length())
    limit = 1 << chunk_bits
    bottoms, products = [1, 1], [1, 1]
    product, bottom = 1, 2  # the chunk from top down to bottom: the next one's grows from it
    for top in range(2, size):
        product *= top
        while product > limit and bottom < top:  # too large: drop radices from the bottom
            product //= bottom
            bottom += 1
        while bottom > 2 and product * (bottom - 1) <= limit:  # (only while the chunk grows)
            bottom -= 1
            product *= bottom
        bottoms.append(bottom)
        products.append(product)
    widths = [draw_width(p, margin_bits) for p in products]
    highest = [accept_limit(p, w) - 1 for p, w in zip(products, widths, strict=True)]
    made = (
        bottoms,
        np.array(products, np.uint64),
        np.array(widths, np.int64),
        np.array(highest, np.uint64),
    )
    _BY_TOP[key] = made
    return made


def leaf_tables(sizes: npt.NDArray[np.int64], params: SplitParams) -> LeafTables:
    """Tables covering every leaf size in ``sizes``: each leaf's chunks as
    :func:`~croupier.shuffling.split.chunk_plan` makes them.

    A leaf's chunks are its first chunk followed by the chunks of a leaf as
    large as that chunk's lowest radix minus one, so the first chunk of every
    size is computed once (kept for the process) and the tables are gathered
    from it.  (The tests compare them with tables built from ``chunk_plan``.)

    >>> t = leaf_tables(np.array([0, 3, 40]), SplitParams(()))
    >>> [int(x) for x in t.top[t.first[40] : t.first[40] + t.count[40]]]
    [40, 29, 16]
    >>> int(t.count[3]), int(t.ranges[t.first[3]]), int(t.leaf_bits[3])
    (1, 6, 7)
    """
    unique = distinct(sizes).tolist()
    biggest = int(unique[-1]) if unique else 0
    bottoms, products, widths, highest = _chunks_by_top(
        biggest, params.chunk_bits, params.margin_bits
    )
    first = np.zeros(biggest + 1, np.int64)
    count = np.zeros(biggest + 1, np.int64)
    chains = _CHAINS.setdefault((params.chunk_bits, params.margin_bits), {})
    pieces = []
    at = 0
    for m in unique:
        chain = chains.get(m)
        if chain is None:  # the first radix of each chunk of a leaf of m items
            tops: list[int] = []
            top = m
            while top >= 2:
                tops.append(top)
                top = bottoms[top] - 1
            chain = chains.setdefault(m, np.array(tops, np.int64))
        first[m] = at
        count[m] = chain.size
        at += chain.size
        pieces.append(chain)
    rows = np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
    bottom = np.array(bottoms, np.int64)[rows]
    chunk_widths = widths[rows]
    leaf_bits = np.zeros(biggest + 1, np.int64)
    sums = np.concatenate(([0], np.cumsum(chunk_widths)))
    used = np.array(unique, np.int64)
    leaf_bits[used] = sums[first[used] + count[used]] - sums[first[used]]
    return LeafTables(
        first, count, leaf_bits, products[rows], chunk_widths, highest[rows], rows, bottom
    )


def distinct(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The distinct values, sorted (``numpy.unique`` without its first-call import)."""
    ordered = np.sort(values)
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def stable_key_order(keys: npt.NDArray[Any], k: int) -> npt.NDArray[np.intp]:
    """The stable sorting order of ``k``-bit keys: 16-bit radix passes, least significant first.

    >>> stable_key_order(np.array([2, 1, 2, 0], np.uint64), 2).tolist()
    [3, 1, 0, 2]
    """
    n = keys.size
    order: npt.NDArray[np.intp] = np.arange(n, dtype=np.intp)
    if k == 0 or n < 2:
        return order
    if k <= 16:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    for low in range(0, k, 16):
        digit = ((keys[order] >> _U64(low)) & _U64(0xFFFF)).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


def key_fields(data: bytes | bytearray, first: int, count: int, k: int) -> npt.NDArray[Any]:
    """``count`` consecutive ``k``-bit big-endian fields of ``data``, from field ``first`` on.

    Of 16 bits for ``k <= 16``, 32 bits to ``k = 25`` (one 4-byte window per field), else 64.

    >>> key_fields(bytes([0b10110011]), 1, 2, 3).tolist()
    [4, 6]
    """
    if k == 0:
        return np.zeros(count, _U64)
    positions = (np.arange(first, first + count, dtype=np.int64)) * k
    if k <= 25:  # a 4-byte window holds every field: one gather and two shifts
        buf = np.frombuffer(bytes(data) + bytes(4), np.uint8)
        words = np.ndarray((buf.size - 3,), ">u4", buffer=buf, strides=(1,))[positions >> 3]
        shift = (32 - k - (positions & 7)).astype(np.uint32)
        out: npt.NDArray[Any] = (words.astype(np.uint32) >> shift) & np.uint32((1 << k) - 1)
        return out.astype(np.uint16) if k <= 16 else out
    return bit_fields(bytes(data), positions, k)


def bit_fields(
    data: bytes, offsets: npt.NDArray[np.int64], widths: npt.NDArray[np.int64] | int
) -> npt.NDArray[np.uint64]:
    """Big-endian bit fields of ``data`` (1 to 64 bits each) at these bit offsets.

    >>> bit_fields(bytes([0b10110011, 0xFF]), np.array([0, 3, 7]), np.array([3, 4, 9])).tolist()
    [5, 9, 511]
    """
    buf = np.frombuffer(bytes(data) + bytes(9), np.uint8)
    start = offsets >> 3
    shift = (offsets & 7).astype(_U64)
    windows = np.lib.stride_tricks.sliding_window_view(buf, 9)[start]
    hi = np.ascontiguousarray(windows[:, :8]).view(">u8").reshape(-1).astype(_U64)
    lo = windows[:, 8].astype(_U64)
    word = (hi << shift) | (lo >> (_U64(8) - shift))
    out: npt.NDArray[np.uint64] = word >> (_U64(64) - np.asarray(widths, np.int64).astype(_U64))
    return out


def redraw(
    source: BitSource,
    values: npt.NDArray[np.uint64],
    rejected: npt.NDArray[np.int64],
    ranges: npt.NDArray[np.uint64],
    widths: npt.NDArray[np.int64],
    highest: npt.NDArray[np.uint64],
) -> None:
    """Rounds of redraws: every rejected draw, in order, reads its width again until accepted.

    ``ranges``, ``widths`` and ``highest`` describe the rejected draws only;
    accepted values are written into ``values`` at the ``rejected`` positions.
    """
    todo = np.arange(len(rejected))
    while len(todo):
        w = widths[todo]
        ends = np.cumsum(w)
        data = source.bits_as_bytes(int(ends[-1]))
        v = bit_fields(data, ends - w, w)
        ok = v <= highest[todo]
        done = todo[ok]
        values[rejected[done]] = v[ok] % ranges[done]
        todo = todo[~ok]


def arrange_leaves(
    order: npt.NDArray[np.intp],
    starts: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    values: npt.NDArray[np.uint64],
    tables: LeafTables,
) -> None:
    """Fisher–Yates in every leaf of ``order`` (in place), from the leaves' chunk values.

    Leaf ``g`` holds ``order[starts[g] : starts[g] + sizes[g]]``; ``values`` are the
    accepted draws of its chunks (table rows ``first[m] ...``), leaf by leaf.  A
    chunk's value is split into its mixed-radix digits, and step ``t`` of every
    leaf of more than ``t + 1`` items swaps its position ``m - 1 - t`` with the
    position its digit names; each step runs over all leaves at once.
    """
    count = tables.count[sizes]
    chunks = int(count.sum())
    if chunks == 0:
        return
    leaf_of = np.repeat(np.arange(sizes.size), count)
    chunk_start = np.cumsum(count) - count
    row = tables.first[sizes][leaf_of] + (np.arange(chunks) - chunk_start[leaf_of])
    # the digits: position s + r - 1 of a leaf starting at s takes the digit below r
    length = tables.top[row] - tables.bottom[row] + 1
    by_length = np.argsort(-length, kind="stable")
    top = tables.top[row][by_length]
    at = (starts[leaf_of] + tables.top[row] - 1)[by_length]
    rest = values[by_length]
    live = np.searchsorted(-length[by_length], -np.arange(1, int(length.max()) + 1), side="right")
    digit = np.zeros(order.size, np.int32 if order.size < 2**31 else np.int64)
    for j, many in enumerate(live.tolist()):
        quotient, digit[at[:many] - j] = np.divmod(rest[:many], (top[:many] - j).astype(_U64))
        rest[:many] = quotient
    # Fisher–Yates over all leaves at once: step t swaps position m - 1 - t with its digit
    by_size = np.argsort(-sizes, kind="stable")
    desc = sizes[by_size]
    s_desc = starts[by_size]
    ends = s_desc + desc - 1
    steps = np.searchsorted(-desc, -np.arange(2, int(desc[0]) + 1), side="right")
    for t, many in enumerate(steps.tolist()):  # leaves of more than t + 1 items
        a = ends[:many] - t
        b = s_desc[:many] + digit[a]
        held = order[a]
        order[a] = order[b]
        order[b] = held
