"""The keyed split shuffle ``croupier-keyed-split/1``: a split shuffle whose parts stand alone.

The permutation behind ``croupier shuffle --file`` and :func:`croupier.scale.shuffle`
(``docs/scale.md`` has the proof).  It is the split shuffle of
``croupier-shuffle-split/1`` (:mod:`croupier.shuffling.split`) with all its key
bits in one level and its randomness laid out so that every piece can be
made alone, in any order, on any machine:

1. **Keys.**  ``K = max(0, bit_length(n // 512) - 1)`` (:func:`key_bits`);
   item ``i`` (counting from 0, in input order) gets the ``K``-bit key at bits
   ``(i % 65536) * K ...`` of block ``i // 65536`` of the key stream, a pure
   function of the stream key and ``i``.
2. **Leaves.**  The items are sorted stably by key; the items with key ``j``
   form leaf ``j``, in input order.  Leaf ``j`` is arranged by Fisher–Yates,
   its choices drawn exactly as the split shuffle draws a leaf's, from its own
   stream (leaf stream ``j``).

The output is leaf 0, leaf 1, ... in key order.  A leaf's arrangement depends
only on the stream key, ``j`` and the leaf's items, so any set of whole leaves
(an out-of-core bucket: the keys' top bits; a partition of a cluster) is
ordered alone and the result never depends on how the work was cut.

>>> from croupier.randomness import SeededSource
>>> streams = KeyedStreams.from_source(SeededSource("doc", "shuffle-file"))
>>> order, bits = keyed_order(streams.keys(0, 5, 0), 0, streams)
>>> sorted(order.tolist()), bits  # one leaf of 5: one draw below 5! = 120, 11 bits
([0, 1, 2, 3, 4], 11)
>>> key_bits(1023), key_bits(1024), key_bits(10**6), key_bits(10**9)
(0, 1, 10, 20)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from croupier._core.engines import Engine, resolve
from croupier.algorithm_ids import KEYED_SPLIT
from croupier.errors import CroupierError
from croupier.randomness.keyed_blocks import KeyedBlocks, keyed_block
from croupier.randomness.options import stream_key
from croupier.randomness.source import BitSource, RandomSource
from croupier.randomness.uniform import Chooser
from croupier.shuffling.split import (
    CHUNK_BITS,
    MARGIN_BITS,
    SplitParams,
    _BitDraws,
    _ChooserDraws,
    split_levels,
)
from croupier.shuffling.split_move import PARALLEL_FROM, RECIPROCAL_BITS, in_two, reciprocals
from croupier.shuffling.split_numpy import (
    LeafTables,
    arrange_leaves,
    bit_fields,
    distinct,
    key_fields,
    leaf_tables,
    stable_key_order,
)

__all__ = [
    "KEYED_SPLIT_ALGORITHM_ID",
    "KEY_BLOCK",
    "KeyedParams",
    "KeyedStreams",
    "LeafDraws",
    "SourceDraws",
    "key_bits",
    "keyed_order",
    "keyed_pieces",
    "leaf_tables_for",
    "stable_key_order",
]

KEYED_SPLIT_ALGORITHM_ID = KEYED_SPLIT
"""Id and version of the keyed split shuffle (``docs/reproducibility.md``)."""

KEY_BLOCK = 65536
"""Items per block of the key stream: block ``b`` holds the keys of items ``b * 65536 ...``."""

KEY_LABEL = b"croupier-keyed-split/1 keys"
LEAF_LABEL = b"croupier-keyed-split/1 leaf"
_U64 = np.uint64
_SLACK = 16  # bytes made past a leaf's first attempts (and 1/8 more), for its redraws


def key_bits(n: int) -> int:
    """``K``, the key bits of ``n`` items (the split shuffle's): ``max(0, bit_length(n//512) - 1)``.

    About 512 to 1024 items share a key (a leaf).

    >>> key_bits(0), key_bits(3000), key_bits(2**24)
    (0, 2, 15)
    """
    return sum(split_levels(n))


@dataclass(frozen=True)
class KeyedParams:
    """The parameters: key bits (``None``: :func:`key_bits` of the count), chunk bound, margin.

    ``croupier-keyed-split/1`` is the default; other values give other exactly
    uniform shuffles (the tests use them to reach every path with a few items).

    >>> KeyedParams().resolve(3000), KeyedParams(key_bits=1).resolve(3000)
    (2, 1)
    """

    key_bits: int | None = None
    chunk_bits: int = CHUNK_BITS
    margin_bits: int = MARGIN_BITS

    def __post_init__(self) -> None:
        if self.key_bits is not None and not 0 <= self.key_bits <= 48:
            raise CroupierError(f"key_bits takes 0 to 48 bits, got {self.key_bits}")
        SplitParams((), self.chunk_bits, self.margin_bits)  # checks the draw parameters

    def resolve(self, n: int) -> int:
        """The key bits for ``n`` items."""
        return key_bits(n) if self.key_bits is None else self.key_bits

    @property
    def split(self) -> SplitParams:
        """The split shuffle's leaf-draw parameters."""
        return SplitParams((), self.chunk_bits, self.margin_bits)


class LeafDraws(Protocol):
    """Where keys and leaf draws come from (the streams; a source or a chooser in tests).

    ``engine`` names who sorts the keys and arranges the leaves (:mod:`croupier._core.engines`);
    the result never depends on it.
    """

    engine: Engine

    def keys(self, start: int, count: int, k: int) -> npt.NDArray[Any]:
        """The ``k``-bit keys of items ``start .. start + count - 1`` (any unsigned type)."""
        ...

    def leaf_values(
        self, leaves: npt.NDArray[np.uint64], sizes: npt.NDArray[np.int64], tables: LeafTables
    ) -> tuple[npt.NDArray[np.uint64], int]:
        """The accepted value of every chunk of these leaves (leaf by leaf), and the bits read."""
        ...

    def arrange(
        self,
        order: npt.NDArray[np.intp],
        leaves: npt.NDArray[np.uint64],
        sizes: npt.NDArray[np.int64],
        starts: npt.NDArray[np.int64],
        tables: LeafTables,
    ) -> int:
        """Fisher–Yates in these leaves of ``order`` (in place) from their draws; the bits read."""
        ...


def _arrange_by_values(
    draws: LeafDraws,
    order: npt.NDArray[np.intp],
    leaves: npt.NDArray[np.uint64],
    sizes: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    tables: LeafTables,
) -> int:
    """:meth:`LeafDraws.arrange` from :meth:`LeafDraws.leaf_values` (the specification)."""
    values, bits = draws.leaf_values(leaves, sizes, tables)
    arrange_leaves(order, starts, sizes, values, tables)
    return bits


class KeyedStreams:
    """The streams of ``croupier-keyed-split/1`` under one 32-byte key.

    * key block ``b``: the first ``8192 * K`` bytes of
      ``SHAKE-128(key || "croupier-keyed-split/1 keys" || b)``;
    * leaf stream ``j``: ``SHAKE-128(key || "croupier-keyed-split/1 leaf" || j)``,

    ``b`` and ``j`` as 8-byte big-endian numbers.  The key is the first 256
    bits of the random source (:meth:`from_source`).  Objects of this class
    are plain data (the key): they pickle, so cluster workers get the same
    streams.  ``engine`` runs the keys, the sort and the leaves in the
    compiled core (``"auto"``) or in the plain specification (``"python"``):
    the same results either way.

    >>> s = KeyedStreams(bytes(32))
    >>> s.keys(3, 2, 4).tolist() == s.keys(0, 5, 4).tolist()[3:]
    True
    """

    def __init__(
        self, key: bytes, *, params: KeyedParams | None = None, engine: Engine = "auto"
    ) -> None:
        if len(key) != 32:
            raise CroupierError(f"a keyed split key has 32 bytes, not {len(key)}")
        self.key = bytes(key)
        self.params = params or KeyedParams()
        self.engine: Engine = engine
        self._compiled = resolve(engine) == "compiled"
        self._block: tuple[int, int, bytes] = (-1, -1, b"")
        self._reciprocals: tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]] | None = None

    def __getstate__(self) -> dict[str, object]:
        return {"key": self.key, "params": self.params, "engine": self.engine}

    def __setstate__(self, state: dict[str, object]) -> None:
        key, params, engine = state["key"], state["params"], state.get("engine", "auto")
        assert isinstance(key, bytes) and isinstance(params, KeyedParams)
        self.__init__(key, params=params, engine=engine)  # type: ignore[misc]

    @classmethod
    def from_source(
        cls, source: RandomSource, params: KeyedParams | None = None, engine: Engine = "auto"
    ) -> KeyedStreams:
        """The streams keyed by the next 256 bits of ``source``
        (:func:`~croupier.randomness.options.stream_key`)."""
        return cls(stream_key(source), params=params, engine=engine)

    def key_block(self, block: int, k: int) -> bytes:
        """Block ``block`` of the key stream for ``k``-bit keys (the last one made is kept)."""
        if self._block[:2] != (block, k):
            self._block = (block, k, keyed_block(self.key, KEY_LABEL, block, KEY_BLOCK * k // 8))
        return self._block[2]

    def keys(self, start: int, count: int, k: int) -> npt.NDArray[Any]:
        """The ``k``-bit keys of items ``start .. start + count - 1``.

        Of the smallest unsigned type that holds them (16, 32 or 64 bits).
        """
        dtype = np.uint16 if k <= 16 else np.uint32 if k <= 25 else _U64
        if self._compiled and 0 < k <= 32 and count:
            from croupier._core import keyed

            wide = np.empty(count, np.uint32)
            # (two threads, each over whole blocks of the key stream)
            middle = min(count, max(0, -(-(start + count // 2) // KEY_BLOCK) * KEY_BLOCK - start))
            in_two(
                count >= PARALLEL_FROM and 0 < middle < count,
                lambda: keyed.keys(self.key, k, start, wide[:middle]),
                lambda: keyed.keys(self.key, k, start + middle, wide[middle:]),
            )
            return wide if dtype is np.uint32 else wide.astype(dtype)
        out = np.empty(count, dtype)
        done = 0
        while done < count:
            block, offset = divmod(start + done, KEY_BLOCK)
            take = min(count - done, KEY_BLOCK - offset)
            out[done : done + take] = key_fields(
                self.key_block(block, k) if k else b"", offset, take, k
            )
            done += take
        return out

    def leaf_stream(self, leaf: int, nbytes: int) -> bytes:
        """The first ``nbytes`` bytes of leaf stream ``leaf``."""
        return keyed_block(self.key, LEAF_LABEL, leaf, nbytes)

    def _redraw(
        self,
        data: bytes,
        parts: list[bytes],
        leaves: npt.NDArray[np.uint64],
        need: npt.NDArray[np.int64],
        leaf_start: npt.NDArray[np.int64],
        leaf_of: npt.NDArray[np.int64],
        row: npt.NDArray[np.int64],
        todo: npt.NDArray[np.int64],
        values: npt.NDArray[np.uint64],
        tables: LeafTables,
    ) -> int:
        """Rounds of redraws of the rejected chunks ``todo``; each leaf reads on in its stream.

        In a round every rejected chunk of a leaf, in order, reads its width
        again from where the leaf's stream stands.  Returns the bits read.
        """
        cursor = need.copy()  # where each leaf's stream stands (bits)
        room = 8 * np.array([len(p) for p in parts], np.int64)
        bits = 0
        while todo.size:
            leaf = leaf_of[todo]
            w = tables.widths[row[todo]]
            ends = np.cumsum(w)
            first = np.flatnonzero(np.diff(leaf, prepend=-1))  # each leaf's first chunk here
            group = np.cumsum(np.diff(leaf, prepend=-1) != 0) - 1
            at = cursor[leaf] + (ends - w) - (ends - w)[first][group]
            short = distinct(leaf[at + w > room[leaf]])
            for g in short.tolist():  # (rare) a leaf reads past what was made: make more
                longer = self.leaf_stream(int(leaves[g]), 2 * len(parts[g]) + 64)
                parts[g] = longer
                room[g] = 8 * len(longer)
            if short.size:
                data = b"".join(parts)
                sizes = np.array([len(p) for p in parts], np.int64)
                leaf_start = (np.cumsum(sizes) - sizes) * 8
            v = bit_fields(data, leaf_start[leaf] + at, w)
            cursor += np.bincount(leaf, weights=w, minlength=cursor.size).astype(np.int64)
            bits += int(w.sum())
            ok = v <= tables.highest[row[todo]]
            values[todo[ok]] = v[ok] % tables.ranges[row[todo[ok]]]
            todo = todo[~ok]
        return bits

    def leaf_values(
        self, leaves: npt.NDArray[np.uint64], sizes: npt.NDArray[np.int64], tables: LeafTables
    ) -> tuple[npt.NDArray[np.uint64], int]:
        """Every chunk of these leaves drawn from its leaf stream: first attempts, then redraws."""
        count = tables.count[sizes]
        chunks = int(count.sum())
        if chunks == 0:
            return np.zeros(0, _U64), 0
        need = tables.leaf_bits[sizes]
        live = np.flatnonzero(count)
        nbytes = (need[live] + 7) // 8 + _SLACK + need[live] // 64  # room for redraws
        streams = KeyedBlocks(self.key, LEAF_LABEL)
        parts = [
            streams.block(leaf, size)
            for leaf, size in zip(leaves[live].tolist(), nbytes.tolist(), strict=True)
        ]
        data = b"".join(parts)
        leaf_start = (np.cumsum(nbytes) - nbytes) * 8  # bit offset of each live leaf's stream
        per_leaf = count[live]
        leaf_of = np.repeat(np.arange(live.size), per_leaf)
        chunk_start = np.cumsum(per_leaf) - per_leaf
        row = tables.first[sizes[live]][leaf_of] + (np.arange(chunks) - chunk_start[leaf_of])
        widths = tables.widths[row]
        within = np.cumsum(widths) - widths
        within -= within[chunk_start][leaf_of]  # bit offset inside the leaf's stream
        raw = bit_fields(data, leaf_start[leaf_of] + within, widths)
        ok = raw <= tables.highest[row]
        values = np.zeros(chunks, _U64)
        values[ok] = raw[ok] % tables.ranges[row][ok]
        bits = int(need.sum())
        bad = np.flatnonzero(~ok)
        if bad.size:
            bits += self._redraw(
                data, parts, leaves[live], need[live], leaf_start, leaf_of, row, bad, values,
                tables,
            )  # fmt: skip
        return values, bits

    def arrange(
        self,
        order: npt.NDArray[np.intp],
        leaves: npt.NDArray[np.uint64],
        sizes: npt.NDArray[np.int64],
        starts: npt.NDArray[np.int64],
        tables: LeafTables,
    ) -> int:
        """Fisher–Yates in these leaves of ``order`` (in place) from their streams; the bits read.

        Leaf ``g`` holds ``order[starts[g] : starts[g] + sizes[g]]``.  Compiled: each
        leaf's stream, draws and swaps in one pass (``croupier._core.keyed``); plain:
        :meth:`leaf_values` and ``arrange_leaves``.
        """
        if not self._compiled or order.dtype != np.int64 or not order.flags.c_contiguous:
            return _arrange_by_values(self, order, leaves, sizes, starts, tables)
        from croupier._core import keyed

        biggest = int(sizes.max()) if sizes.size else 0
        magic, shift = np.zeros(0, _U64), np.zeros(0, _U64)
        if self.params.chunk_bits <= RECIPROCAL_BITS:
            if self._reciprocals is None or self._reciprocals[0].size <= biggest:
                self._reciprocals = reciprocals(max(2048, 2 * biggest + 1))
            magic, shift = self._reciprocals
        return int(
            keyed.arrange(
                self.key,
                np.ascontiguousarray(leaves, _U64),
                np.ascontiguousarray(sizes, np.int64),
                np.ascontiguousarray(starts, np.int64),
                0,
                int(sizes.size),
                tables.first,
                tables.count,
                tables.leaf_bits,
                tables.ranges,
                tables.widths,
                tables.highest,
                tables.top,
                tables.bottom,
                magic,
                shift,
                order,
            )
        )


class SourceDraws:
    """Keys and leaf draws read in request order from one source or chooser (tests, examples).

    A bit source gives the bit-level draws (keys as ``k``-bit fields, each
    leaf's chunks as the split shuffle draws them, redraws included); any other
    chooser gives the same choices through ``below``: keys ``below(2**k)``,
    chunks ``below(R)``.

    >>> from croupier.randomness import ScriptedChooser
    >>> draws = SourceDraws(ScriptedChooser([1, 0, 1, 3]))
    >>> draws.keys(0, 3, 1).tolist()
    [1, 0, 1]
    """

    def __init__(
        self, source: BitSource | Chooser, margin_bits: int = MARGIN_BITS, engine: Engine = "auto"
    ) -> None:
        self.source = source
        self.engine: Engine = engine
        self.draws = (
            _BitDraws(source, margin_bits)
            if isinstance(source, BitSource)
            else _ChooserDraws(source)
        )
        self.bits = 0

    def keys(self, start: int, count: int, k: int) -> npt.NDArray[Any]:
        if k == 0:
            return np.zeros(count, _U64)
        return np.array(self.draws.keys(count, k), _U64)

    def leaf_values(
        self, leaves: npt.NDArray[np.uint64], sizes: npt.NDArray[np.int64], tables: LeafTables
    ) -> tuple[npt.NDArray[np.uint64], int]:
        out: list[int] = []
        before = self.source.bits_used if isinstance(self.source, BitSource) else 0.0
        for m in sizes.tolist():
            f, c = int(tables.first[m]), int(tables.count[m])
            if c:
                out += self.draws.chunks([int(r) for r in tables.ranges[f : f + c]])
        after = self.source.bits_used if isinstance(self.source, BitSource) else 0.0
        return np.array(out, _U64), int(after - before)

    def arrange(
        self,
        order: npt.NDArray[np.intp],
        leaves: npt.NDArray[np.uint64],
        sizes: npt.NDArray[np.int64],
        starts: npt.NDArray[np.int64],
        tables: LeafTables,
    ) -> int:
        return _arrange_by_values(self, order, leaves, sizes, starts, tables)


def leaf_tables_for(sizes: npt.NDArray[np.int64], params: KeyedParams) -> LeafTables:
    """The leaf tables of these sizes under ``params``: the split shuffle's
    (:func:`~croupier.shuffling.split_numpy.leaf_tables`).

    >>> t = leaf_tables_for(np.array([0, 3, 40]), KeyedParams())
    >>> [int(x) for x in t.top[t.first[40] : t.first[40] + t.count[40]]]
    [40, 29, 16]
    """
    return leaf_tables(sizes, params.split)


_Fill = Callable[[int, int], None]
"""Puts the items of the leaves with keys ``lo .. hi - 1`` in their places of the order."""


def _order_and_leaves(
    keys: npt.NDArray[Any], k: int, engine: Engine
) -> tuple[
    npt.NDArray[np.intp],
    npt.NDArray[np.uint64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    _Fill | None,
]:
    """The stable order of the keys, and the leaves: their keys, sizes and first places.

    Compiled (``croupier._core.keyed``), when every key has a counter (``2**k`` at
    most four times the items): the keys are counted (in two halves), and the order is
    *not filled yet*: the returned ``fill(lo, hi)`` puts the items of keys ``lo .. hi - 1``
    in their places (each half of the items in one thread), so the first leaves can be
    arranged while the order of the later ones is still to be made.  Else the order is
    made whole by radix passes and ``fill`` is ``None``.
    """
    n = keys.size
    if resolve(engine) == "compiled" and 0 < k <= 32 and n >= 2 and 1 << k <= 4 * n:
        from croupier._core import keyed

        wide = np.ascontiguousarray(keys, np.uint32)
        half = n // 2
        counts, second = np.zeros(1 << k, np.int64), np.zeros(1 << k, np.int64)
        parallel = n >= PARALLEL_FROM
        in_two(
            parallel,
            lambda: keyed.count(wide, 0, half, counts),
            lambda: keyed.count(wide, half, n, second),
        )
        total = counts + second
        first_place = np.cumsum(total) - total
        second_place = first_place + counts
        order: npt.NDArray[np.intp] = np.empty(n, np.int64)

        def fill(lo: int, hi: int) -> None:
            in_two(
                parallel,
                lambda: keyed.place(wide, 0, half, first_place, order, lo, hi),
                lambda: keyed.place(wide, half, n, second_place, order, lo, hi),
            )

        leaves = np.flatnonzero(total)
        sizes = total[leaves]
        return order, leaves.astype(_U64), sizes, np.cumsum(sizes) - sizes, fill
    order = stable_key_order(keys, k)
    if n < 2:
        return order, np.zeros(0, _U64), np.zeros(0, np.int64), np.zeros(0, np.int64), None
    return (order, *_leaves(keys, k, order), None)


def _leaves(
    keys: npt.NDArray[Any], k: int, order: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The leaves of these keys (sorted by ``order``): their keys, sizes and first places."""
    n = keys.size
    if k and 1 << k <= 4 * n:  # the leaves from a count of every key (no sorted copy)
        counts = np.zeros(1 << k, np.int64)
        for a in range(0, n, 1 << 20):  # a million at a time: bincount copies to intp
            counts += np.bincount(keys[a : a + (1 << 20)].astype(np.intp), minlength=1 << k)
        leaves = np.flatnonzero(counts).astype(_U64)
        sizes = counts[leaves.astype(np.intp)].astype(np.int64)
        return leaves, sizes, np.cumsum(sizes) - sizes
    if k:
        sorted_keys = keys[order]
        cut = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1
        starts = np.concatenate(([0], cut)).astype(np.int64)
        leaves = sorted_keys[starts].astype(_U64)
    else:
        starts = np.zeros(1, np.int64)
        leaves = np.zeros(1, _U64)
    return leaves, np.diff(np.append(starts, n)).astype(np.int64), starts


def keyed_pieces(
    keys: npt.NDArray[Any],
    k: int,
    draws: LeafDraws,
    params: KeyedParams | None = None,
    *,
    piece: int = 0,
    most: int = 0,
) -> Iterator[tuple[npt.NDArray[np.intp], int]]:
    """:func:`keyed_order` made a piece at a time: the arrangement's pieces, in order, and
    the leaf bits of each.

    A piece is a run of whole leaves of about ``piece`` items (``0``: all of them),
    or, with ``most``, of ``piece`` items at first and twice as many each time
    after, up to ``most`` (the first piece comes soon, and the later, larger ones
    cost less each: every piece runs as many vector steps as its largest leaf has
    items).  The pieces are views of one array, each arranged when it is asked
    for, so the first pieces can be written while the next ones are made.  The draws are
    requested in the same order as by :func:`keyed_order`, and the pieces put end to
    end are its arrangement.

    >>> from croupier.randomness import SeededSource
    >>> streams = KeyedStreams.from_source(SeededSource("doc", "pieces"))
    >>> keys = streams.keys(0, 3000, 2)
    >>> whole, bits = keyed_order(keys, 2, streams)
    >>> parts = list(keyed_pieces(keys, 2, streams, piece=1000))
    >>> len(parts), np.concatenate([p for p, _ in parts]).tolist() == whole.tolist()
    (3, True)
    >>> sum(b for _, b in parts) == bits
    True
    """
    p = params or KeyedParams()
    n = keys.size
    order, leaves, sizes, starts, fill = _order_and_leaves(keys, k, draws.engine)
    if n < 2:
        yield order, 0
        return
    if piece <= 0 or piece >= n:
        cuts = [0, leaves.size]
    else:  # the first leaf starting at or after each mark
        marks = np.searchsorted(starts, _piece_marks(n, piece, most), side="left")
        cuts = sorted({0, leaves.size, *marks.tolist()})
    for i, j in itertools.pairwise(cuts):
        a = int(starts[i])
        b = int(starts[j - 1] + sizes[j - 1])
        part = order[a:b]
        if fill is not None:
            fill(int(leaves[i]), int(leaves[j - 1]) + 1)
        tables = leaf_tables_for(sizes[i:j], p)
        bits = draws.arrange(part, leaves[i:j], sizes[i:j], starts[i:j] - a, tables)
        yield part, bits


def _piece_marks(n: int, piece: int, most: int) -> list[int]:
    """Where the pieces of :func:`keyed_pieces` end: every ``piece`` items, or growing
    from ``piece`` to ``most``.

    >>> _piece_marks(100, 10, 0), _piece_marks(100, 10, 40)
    ([10, 20, 30, 40, 50, 60, 70, 80, 90], [10, 30, 70])
    """
    marks, at, size = [], piece, piece
    while at < n:
        marks.append(at)
        size = min(2 * size, most) if most > size else size
        at += size
    return marks


def keyed_order(
    keys: npt.NDArray[Any],
    k: int,
    draws: LeafDraws,
    params: KeyedParams | None = None,
) -> tuple[npt.NDArray[np.intp], int]:
    """The arrangement of items with these ``k``-bit keys (in input order), and the leaf bits.

    Position ``q`` of the result holds item ``order[q]``.  The items may be any
    set of whole leaves (all items, or an out-of-core bucket): the leaves are
    the runs of equal keys after a stable sort, each arranged from its own
    draws.

    >>> from croupier.randomness import ScriptedChooser
    >>> keyed_order(np.array([1, 0, 1], np.uint64), 1, SourceDraws(ScriptedChooser([0])))
    (array([1, 2, 0]), 0)
    """
    ((order, bits),) = keyed_pieces(keys, k, draws, params)
    return order, bits
