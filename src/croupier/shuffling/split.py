"""The split shuffle ``croupier-shuffle-split/1``: random buckets, then exact small shuffles.

A vectorised Rao–Sandelius shuffle for large ``n``, exactly uniform, using
about ``log2(n!) + 0.85 n`` random bits (``docs/shuffling-at-scale.md`` has
the proof and the bit count):

1. **Split.**  Every item draws a key of ``K`` random bits (``K`` grows with
   ``log2 n`` so that about 512 to 1024 items share a key), in one or two
   levels; the items are stably sorted by key.  Items with the same key form
   a *leaf*, in their input order.
2. **Leaves.**  Every leaf of ``m`` items gets a uniform arrangement by
   Fisher–Yates, its ``m - 1`` choices taken from a few exact uniform draws
   below products of consecutive radices ``m, m-1, ..., 2`` (mixed radix; each
   draw reads a fixed number of bits and is redrawn when it falls past the
   last whole multiple of its range, so nothing is reduced with bias).

Given the keys the leaves are shuffled uniformly and independently, and
every arrangement is reached through exactly one key assignment per vector
of leaf sizes, so every arrangement of the ``n`` items has the same
probability.  The first level is also the natural unit of work for memory
levels (each first-level bucket fits the cache) and for out-of-core runs.

The algorithm reads its bits straight from the source, in this order: the
keys of each level (item by item, in the order of the level before), the
first attempt of every leaf draw (leaf by leaf, in output order), then
redraws in rounds.  The compiled core runs it (:mod:`croupier.shuffling.split_move`);
the plain Python here is its specification (``engine="python"``, and any
chooser), and gives the same result from the same bits.

>>> from croupier.randomness import SeededSource
>>> order = split_order(10, SeededSource("doc"))
>>> sorted(order.tolist()) == list(range(10))
True
>>> split_levels(52), split_levels(3000), split_levels(10**6), split_levels(10**8)
((), (2,), (10,), (9, 8))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, TypeVar

from croupier._core.engines import Engine, resolve
from croupier.algorithm_ids import SHUFFLE_SPLIT
from croupier.errors import CroupierError
from croupier.randomness.source import BitSource, RandomSource
from croupier.randomness.uniform import Chooser, UniformSampler

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CHACHA_FROM",
    "CHUNK_BITS",
    "LEAF_TARGET",
    "MARGIN_BITS",
    "SPLIT_ALGORITHM_ID",
    "Engine",
    "SplitParams",
    "chunk_plan",
    "default_source",
    "split_levels",
    "split_order",
    "split_shuffle",
]

T = TypeVar("T")

SPLIT_ALGORITHM_ID = SHUFFLE_SPLIT
"""Id and version of the split shuffle (``docs/reproducibility.md``)."""

LEAF_TARGET = 512
"""The split uses ``K = max(0, bit_length(n // 512) - 1)`` key bits: 512 to 1024 items a leaf."""

LEVEL_BITS = 14
"""Up to this many key bits make one level; more are split into two nearly equal levels."""

CHUNK_BITS = 60
"""A leaf draw is below a product of consecutive radices of at most ``2**60``."""

MARGIN_BITS = 4
"""A leaf draw below ``R`` reads ``bit_length(R - 1) + 4`` bits (redrawn with chance < 1/16)."""

CHACHA_FROM = 4096
"""An unseeded split of this many items or more reads ChaCha20 keyed from the OS
(:func:`default_source`); smaller ones read the OS directly."""


@dataclass(frozen=True)
class SplitParams:
    """The parameters of a split shuffle: key bits per level, chunk bound and margin.

    ``croupier-shuffle-split/1`` is :meth:`standard` (levels from
    :func:`split_levels`, ``chunk_bits`` 60, ``margin_bits`` 4); other
    values give other exactly uniform shuffles (the tests use them to reach
    every path on a few items).

    >>> SplitParams.standard(3000)
    SplitParams(levels=(2,), chunk_bits=60, margin_bits=4)
    """

    levels: tuple[int, ...]
    chunk_bits: int = CHUNK_BITS
    margin_bits: int = MARGIN_BITS

    def __post_init__(self) -> None:
        if any(not 1 <= k <= 16 for k in self.levels):
            raise CroupierError(f"split levels take 1 to 16 key bits each, got {self.levels}")
        if not self.chunk_bits >= 1 or self.chunk_bits + self.margin_bits > 64:
            raise CroupierError(
                "split draws need 1 <= chunk_bits and chunk_bits + margin_bits <= 64, got "
                f"{self.chunk_bits} and {self.margin_bits}"
            )
        if self.margin_bits < 0:
            raise CroupierError(f"margin_bits must be >= 0, got {self.margin_bits}")

    @classmethod
    def standard(cls, n: int) -> SplitParams:
        """The parameters of ``croupier-shuffle-split/1`` for ``n`` items."""
        levels = split_levels(n)
        found = _STANDARD.get(levels)
        if found is None or type(found) is not cls:
            found = _STANDARD[levels] = cls(levels)
        return found


_STANDARD: dict[tuple[int, ...], SplitParams] = {}
"""The standard parameters made so far, by their levels (they are immutable)."""


def split_levels(n: int) -> tuple[int, ...]:
    """The key bits of each level for ``n`` items (``croupier-shuffle-split/1``).

    ``K = max(0, bit_length(n // 512) - 1)`` bits in all, so the expected leaf
    size ``n / 2**K`` is between 512 and 1024; up to 14 bits make one level,
    more make two of ``ceil(K/2)`` and ``floor(K/2)`` bits.

    >>> split_levels(1023), split_levels(1024), split_levels(2**24 - 1), split_levels(2**24)
    ((), (1,), (14,), (8, 7))
    """
    k = max(0, (n // LEAF_TARGET).bit_length() - 1)
    if k == 0:
        return ()
    if k <= LEVEL_BITS:
        return (k,)
    return ((k + 1) // 2, k // 2)


@lru_cache(maxsize=4096)
def chunk_plan(m: int, chunk_bits: int = CHUNK_BITS) -> tuple[tuple[int, int, int], ...]:
    """How a leaf of ``m`` items draws its Fisher–Yates choices: ``(R, top, bottom)`` chunks.

    The radices ``m, m-1, ..., 2`` are taken in order, greedily, into chunks
    whose product ``R`` stays at most ``2**chunk_bits`` (a chunk takes at
    least one radix); a chunk covers the radices ``top`` down to ``bottom``.
    One uniform draw below ``R`` gives them all (mixed radix, ``top`` least
    significant).

    >>> chunk_plan(4)
    ((24, 4, 2),)
    >>> [(top, bottom) for _, top, bottom in chunk_plan(40)]
    [(40, 30), (29, 17), (16, 2)]
    >>> chunk_plan(4, 3), chunk_plan(10, 3)[:2]
    (((4, 4, 4), (6, 3, 2)), ((10, 10, 10), (9, 9, 9)))
    """
    limit = 1 << chunk_bits
    chunks: list[tuple[int, int, int]] = []
    product, top = 1, m
    for r in range(m, 1, -1):
        if product > 1 and product * r > limit:
            chunks.append((product, top, r + 1))
            product, top = 1, r
        product *= r
    if product > 1:
        chunks.append((product, top, 2))
    return tuple(chunks)


def draw_width(r: int, margin_bits: int = MARGIN_BITS) -> int:
    """The bits one attempt of a draw below ``r`` reads: ``bit_length(r - 1) + margin_bits``.

    >>> draw_width(24), draw_width(2**60)
    (9, 64)
    """
    return (r - 1).bit_length() + margin_bits


def accept_limit(r: int, width: int) -> int:
    """A draw of ``width`` bits ``v`` is accepted when ``v < limit``: the last multiple of ``r``.

    >>> accept_limit(24, 9), accept_limit(2, 5)
    (504, 32)
    """
    space = 1 << width
    return space - space % r


def _bit_fields(data: bytes, widths: Sequence[int]) -> list[int]:
    """Consecutive big-endian bit fields of ``data`` with these widths."""
    bits = format(int.from_bytes(data, "big"), f"0{8 * len(data)}b") if data else ""
    out = []
    pos = 0
    for w in widths:
        out.append(int(bits[pos : pos + w], 2) if w else 0)
        pos += w
    return out


class _Draws:
    """Where the split's random values come from (bits of a source, or a chooser)."""

    def keys(self, count: int, k: int) -> list[int]:  # pragma: no cover - interface
        raise NotImplementedError

    def chunks(self, ranges: list[int]) -> list[int]:  # pragma: no cover - interface
        raise NotImplementedError


class _BitDraws(_Draws):
    """The bit-level algorithm: fixed-width fields of the source's stream, rounds of redraws."""

    def __init__(self, source: BitSource, margin_bits: int) -> None:
        self.source = source
        self.margin_bits = margin_bits

    def keys(self, count: int, k: int) -> list[int]:
        return _bit_fields(self.source.bits_as_bytes(count * k), [k] * count)

    def chunks(self, ranges: list[int]) -> list[int]:
        values = [0] * len(ranges)
        todo = list(range(len(ranges)))
        while todo:  # round 1: every first attempt; then the rejected ones, in order
            widths = [draw_width(ranges[i], self.margin_bits) for i in todo]
            raw = _bit_fields(self.source.bits_as_bytes(sum(widths)), widths)
            again = []
            for i, w, v in zip(todo, widths, raw, strict=True):
                if v < accept_limit(ranges[i], w):
                    values[i] = v % ranges[i]
                else:
                    again.append(i)
            todo = again
        return values


class _ChooserDraws(_Draws):
    """The same choices from any chooser: ``below(2**k)`` per key, ``below(R)`` per chunk."""

    def __init__(self, chooser: Chooser) -> None:
        self.chooser = chooser

    def keys(self, count: int, k: int) -> list[int]:
        below = self.chooser.below
        return [below(1 << k) for _ in range(count)]

    def chunks(self, ranges: list[int]) -> list[int]:
        below = self.chooser.below
        return [below(r) for r in ranges]


def _python_order(n: int, draws: _Draws, params: SplitParams) -> list[int]:
    """The split in plain Python: position ``q`` of the result holds item ``order[q]``."""
    order = list(range(n))
    if n <= 1:
        return order
    sizes = [n]  # the current segments (leaves-to-be), in order
    for k in params.levels:
        keys = draws.keys(n, k)
        new_order: list[int] = []
        new_sizes: list[int] = []
        start = 0
        for size in sizes:
            part = sorted(range(start, start + size), key=keys.__getitem__)  # stable
            new_order.extend(order[p] for p in part)
            run = 1
            for a, b in pairwise(part):
                if keys[a] == keys[b]:
                    run += 1
                else:
                    new_sizes.append(run)
                    run = 1
            new_sizes.append(run)
            start += size
        order, sizes = new_order, new_sizes
    plans = [chunk_plan(m, params.chunk_bits) for m in sizes]
    values = draws.chunks([r for plan in plans for r, _, _ in plan])
    start = 0
    pos = 0
    for m, plan in zip(sizes, plans, strict=True):
        for _, top, bottom in plan:
            value = values[pos]
            pos += 1
            for r in range(top, bottom - 1, -1):  # Fisher–Yates: swap r-1 with a digit below r
                value, d = divmod(value, r)
                a, b = start + r - 1, start + d
                order[a], order[b] = order[b], order[a]
        start += m
    return order


def _bit_source_of(chooser: Chooser | RandomSource) -> BitSource | None:
    """The bit source to read from directly, if any (else the chooser form is used)."""
    if isinstance(chooser, BitSource):
        return chooser
    if isinstance(chooser, UniformSampler) and isinstance(chooser.source, BitSource):
        return chooser.source
    return None


def default_source(n: int) -> RandomSource:
    """The randomness of an unseeded split of ``n`` items: the OS CSPRNG, read fast.

    From :data:`CHACHA_FROM` items on the bits come from ChaCha20 keyed with
    256 bits from the OS (:class:`~croupier.randomness.chacha.ChaChaSource`,
    re-keyed in a forked child), several times faster than reading the OS;
    below, straight from the OS.  Either is a secret, non-reproducible stream:
    only the speed differs.

    >>> default_source(10).kind == "os-csprng"
    True
    """
    from croupier.randomness.source import OsRandomSource

    if n >= CHACHA_FROM:
        from croupier.randomness.chacha import ChaChaSource

        return ChaChaSource()
    return OsRandomSource()


def split_order(
    n: int,
    randomness: Chooser | RandomSource,
    *,
    params: SplitParams | None = None,
    engine: Engine = "auto",
    small: bool = False,
) -> npt.NDArray[np.intp]:
    """The arrangement of ``range(n)`` made by the split shuffle, as a numpy array.

    ``randomness`` is a bit source (read directly), a
    :class:`~croupier.randomness.UniformSampler` over one (its source is read
    directly; the sampler's leftover is neither used nor changed) or any other
    chooser (the same choices through ``below``: keys ``below(2**k)``, leaf
    draws ``below(R)``).  Position ``q`` of the result holds item ``order[q]``.
    The array is of ``numpy.intp``, or with ``small`` of 32-bit integers when
    they hold ``n`` (half the memory traffic, for callers that convert it).

    >>> from croupier.randomness import ScriptedChooser
    >>> split_order(3, ScriptedChooser([0])).tolist()  # one leaf: a draw below 3! = 6
    [1, 2, 0]
    """
    import numpy as np

    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise CroupierError(f"n must be a whole number >= 0, got {n!r}")
    implementation = resolve(engine)
    p = SplitParams.standard(n) if params is None else params
    source = _bit_source_of(randomness)
    dtype = np.int32 if small and n < 2**31 else np.intp
    if source is None:
        if not isinstance(randomness, RandomSource):
            return np.array(_python_order(n, _ChooserDraws(randomness), p), dtype)
        randomness = UniformSampler(randomness)
        return np.array(_python_order(n, _ChooserDraws(randomness), p), dtype)
    if implementation == "python":
        return np.array(_python_order(n, _BitDraws(source, p.margin_bits), p), dtype)
    from croupier.shuffling.split_move import split_move

    out = np.empty((n, 1), dtype=dtype)
    split_move(None, out, source, p, in_place=False)
    return out.reshape(n)


def split_shuffle(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """A shuffled copy of ``seq`` by the split shuffle (``croupier-shuffle-split/1``).

    Exactly uniform; about ``log2(n!) + 0.85 n`` bits for large ``n``.  With a
    sampler over a bit source, the bits are read from the source directly.

    >>> from croupier.randomness import ScriptedChooser
    >>> split_shuffle("abc", ScriptedChooser([0]))
    ['b', 'c', 'a']
    """
    from croupier.shuffling.take import take_in_order

    items = list(seq)
    return take_in_order(items, split_order(len(items), chooser, small=True))


def expected_bits_per_item(lam: float, chunk_bits: int = CHUNK_BITS) -> float:
    """Expected bits per item above ``log2(n!)/n`` for leaves of mean size ``lam`` (large ``n``).

    A Poisson approximation of the leaf sizes, used in the documentation's
    bit count: about 0.8 for the standard parameters.

    >>> 0.75 < expected_bits_per_item(768) < 0.9
    True
    """
    total = 0.0
    spread = 12 * math.sqrt(lam) + 10  # the Poisson weight beyond is negligible
    for m in range(max(0, int(lam - spread)), int(lam + spread) + 1):
        weight = math.exp(-lam + m * math.log(lam) - math.lgamma(m + 1))
        cost = 0.0
        for r, _, _ in chunk_plan(m, chunk_bits):
            w = draw_width(r)
            cost += w / (accept_limit(r, w) / 2**w)  # expected bits, redraws included
        total += weight * cost
    return -math.log2(lam) + math.log2(math.e) + total / lam
