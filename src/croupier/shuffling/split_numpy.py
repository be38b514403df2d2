"""The split shuffle (``croupier-shuffle-split/1``) vectorised with numpy.

The same arrangement as the plain-Python engine of :mod:`croupier.shuffling.split`
from the same bits (the tests compare them): keys are read as bit fields,
levels are stable sorts (each item's key packed above its position, so the
sort keys are distinct and any sort gives the one stable order), leaf draws
are bit fields checked against their limits with rounds of redraws, and
Fisher–Yates runs over all leaves at once, one radix a step.

>>> from croupier.randomness import SeededSource
>>> from croupier.shuffling.split import SplitParams, split_order
>>> params = SplitParams((2,))
>>> a = numpy_order(40, SeededSource("np"), params)
>>> a.tolist() == split_order(40, SeededSource("np"), params=params, engine="python").tolist()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.randomness.source import BitSource
from croupier.shuffling.split import SplitParams, accept_limit, chunk_plan, draw_width

__all__ = ["LeafTables", "arrange_leaves", "bit_fields", "leaf_tables", "numpy_order", "redraw"]

_U64 = np.uint64


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


@lru_cache(maxsize=4096)
def _size_rows(m: int, chunk_bits: int, margin: int) -> tuple[npt.NDArray[Any], ...]:
    """The chunks of a leaf of ``m`` items: ranges, widths, highest, top, bottom."""
    plan = chunk_plan(m, chunk_bits)
    widths = [draw_width(r, margin) for r, _, _ in plan]
    return (
        np.array([r for r, _, _ in plan], _U64),
        np.array(widths, np.int64),
        np.array([accept_limit(r, w) - 1 for (r, _, _), w in zip(plan, widths, strict=True)], _U64),
        np.array([top for _, top, _ in plan], np.int64),
        np.array([bottom for _, _, bottom in plan], np.int64),
    )


def leaf_tables(leaf_sizes: npt.NDArray[np.int64], params: SplitParams) -> LeafTables:
    """Tables covering every leaf size in ``leaf_sizes`` (each size's rows are cached).

    >>> t = leaf_tables(np.array([0, 3, 5]), SplitParams(()))
    >>> int(t.count[5]), int(t.ranges[t.first[5]]), int(t.leaf_bits[3])
    (1, 120, 7)
    """
    biggest = int(leaf_sizes.max(initial=0))
    first = np.zeros(biggest + 1, np.int64)
    count = np.zeros(biggest + 1, np.int64)
    leaf_bits = np.zeros(biggest + 1, np.int64)
    parts: list[tuple[npt.NDArray[Any], ...]] = []
    at = 0
    for m in np.unique(leaf_sizes).tolist():
        rows = _size_rows(m, params.chunk_bits, params.margin_bits)
        first[m] = at
        count[m] = len(rows[0])
        leaf_bits[m] = int(rows[1].sum())
        at += len(rows[0])
        parts.append(rows)
    columns = [np.concatenate([p[i] for p in parts]) if parts else np.zeros(0) for i in range(5)]
    return LeafTables(
        first,
        count,
        leaf_bits,
        columns[0].astype(_U64),
        columns[1].astype(np.int64),
        columns[2].astype(_U64),
        columns[3].astype(np.int64),
        columns[4].astype(np.int64),
    )


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


def _stable_order(keys: npt.NDArray[np.uint64], key_bits: int) -> npt.NDArray[np.int64]:
    """The stable sorting order of ``keys`` (each below ``2**key_bits``)."""
    n = len(keys)
    index_bits = max(1, (n - 1).bit_length())
    if key_bits + index_bits <= 64:
        packed = (keys << _U64(index_bits)) | np.arange(n, dtype=_U64)
        packed.sort()
        return (packed & _U64((1 << index_bits) - 1)).astype(np.int64)
    return np.argsort(keys, kind="stable")  # pragma: no cover - beyond 2**32 items


def numpy_order(n: int, source: BitSource, params: SplitParams) -> npt.NDArray[np.int64]:
    """The split shuffle's arrangement of ``range(n)``, from ``source``'s bits, with numpy."""
    order = np.arange(n, dtype=np.int64)
    if n <= 1:
        return order
    composite = np.zeros(n, _U64)
    total = 0
    for k in params.levels:
        data = source.bits_as_bytes(n * k)
        keys = bit_fields(data, np.arange(n, dtype=np.int64) * k, k)
        total += k
        composite = (composite << _U64(k)) | keys
        pos = _stable_order(composite, total)
        order = order[pos]
        composite = composite[pos]
    if params.levels:
        cut = np.flatnonzero(composite[1:] != composite[:-1]) + 1
        sizes = np.diff(np.concatenate(([0], cut, [n]))).astype(np.int64)
    else:
        sizes = np.array([n], np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    tables = leaf_tables(sizes, params)
    # the leaf draws: chunk c of leaf g is table row first[m_g] + c
    per_leaf = tables.count[sizes]
    chunks = int(per_leaf.sum())
    if chunks == 0:
        return order
    leaf_of = np.repeat(np.arange(len(sizes)), per_leaf)
    chunk_start = np.cumsum(per_leaf) - per_leaf
    row = tables.first[sizes][leaf_of] + (np.arange(chunks) - chunk_start[leaf_of])
    widths = tables.widths[row]
    ends = np.cumsum(widths)
    data = source.bits_as_bytes(int(ends[-1]))
    raw = bit_fields(data, ends - widths, widths)
    ok = raw <= tables.highest[row]
    values = np.zeros(chunks, _U64)
    values[ok] = raw[ok] % tables.ranges[row][ok]
    bad = np.flatnonzero(~ok)
    if len(bad):
        rb = row[bad]
        redraw(source, values, bad, tables.ranges[rb], tables.widths[rb], tables.highest[rb])
    arrange_leaves(order, starts, sizes, values, tables)
    return order


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
