"""Shuffles of numpy arrays, permutations of ``range(n)`` and samples, by any shuffle method.

A method of :mod:`croupier.shuffling.registry` shuffles ``range(n)``; the
result is the *order* (position ``q`` of the output holds item ``order[q]``),
applied to a list, to an array along an axis, or in place.  So a list and an
array of the same items shuffled from the same stream come out in the same
order.  For ``split`` (:mod:`croupier.shuffling.split`) and a C-contiguous
array shuffled along its first axis, the compiled engine moves the rows
themselves (no index array, two passes over memory), and the order is the
same as the one it would compute.

>>> import numpy as np
>>> from croupier.randomness import SeededSource
>>> a = shuffle_array(np.arange(5) * 10, SeededSource("doc"))
>>> a.tolist(), a.dtype == np.arange(5).dtype
([40, 10, 30, 0, 20], True)
>>> shuffle_order(5, SeededSource("doc")).tolist()
[4, 1, 3, 0, 2]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from croupier._core.engines import Engine, resolve
from croupier.algorithm_ids import SAMPLE
from croupier.errors import CroupierError, RangeError
from croupier.randomness.source import RandomSource
from croupier.randomness.uniform import Chooser, UniformSampler
from croupier.shuffling.registry import ShuffleMethod, default_shuffle_method, get_shuffle_method
from croupier.shuffling.split import SplitParams, _bit_source_of, split_order
from croupier.shuffling.split_move import split_move
from croupier.shuffling.take import take_in_order

__all__ = [
    "SAMPLE_ALGORITHM_ID",
    "sample_indices",
    "shuffle_array",
    "shuffle_array_in_place",
    "shuffle_order",
]

T = TypeVar("T")

SAMPLE_ALGORITHM_ID = SAMPLE
"""Id and version of :func:`sample_indices` (``docs/reproducibility.md``)."""


def _method(method: str | ShuffleMethod | None, n: int) -> ShuffleMethod:
    if method is None:
        return default_shuffle_method(n)
    if isinstance(method, ShuffleMethod):
        return method
    return get_shuffle_method(method)


def shuffle_order(
    n: int,
    source: RandomSource | Chooser,
    *,
    method: str | ShuffleMethod | None = None,
    engine: Engine = "auto",
    small: bool = False,
) -> npt.NDArray[np.intp]:
    """The order ``method`` makes of ``range(n)``: position ``q`` holds item ``order[q]``.

    The default method is :func:`~croupier.shuffling.registry.default_shuffle_method`'s
    (``lehmer`` up to 2,048 items, ``split`` above).  ``source`` is a random
    source (drawn through a fresh sampler) or any chooser.  With ``small`` the
    array may be of 32-bit integers (for callers that convert it anyway).

    >>> from croupier.randomness import ScriptedChooser
    >>> shuffle_order(3, ScriptedChooser([4])).tolist()  # lehmer: rank 4 of 3! = 6
    [2, 0, 1]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RangeError(f"n must be a whole number >= 0, got {n!r}")
    chosen = _method(method, n)
    chooser = UniformSampler(source) if isinstance(source, RandomSource) else source
    if chosen.name == "split":
        return split_order(n, chooser, engine=engine, small=small)
    return np.array(chosen(range(n), chooser), dtype=np.intp)


def _word_rows(a: npt.NDArray[Any]) -> npt.NDArray[Any] | None:
    """``a`` (C-contiguous, not of objects) as ``(n, w)`` unsigned words, one row per item."""
    if a.dtype.hasobject or not a.flags.c_contiguous or a.ndim == 0 or a.shape[0] == 0:
        return None
    row = a.dtype.itemsize * (a.size // a.shape[0])
    if row == 0:
        return None
    rows = a.reshape(a.shape[0], -1)
    aligned = a.dtype.alignment if a.flags.aligned else 1  # (the address is a multiple)
    address = -1
    for word in (8, 4, 2):
        if row % word:
            continue
        if aligned % word:
            if address < 0:
                address = a.__array_interface__["data"][0]  # (cheaper than .ctypes)
            if address % word:
                continue
        words: npt.NDArray[Any] = rows.view(_WORDS[word])
        return words
    return rows.view(np.uint8)


_WORDS: dict[int, np.dtype[np.unsignedinteger[Any]]] = {
    8: np.dtype(np.uint64),
    4: np.dtype(np.uint32),
    2: np.dtype(np.uint16),
}


def _moves_rows(
    a: npt.NDArray[Any], axis: int, chosen: ShuffleMethod, source: Any, engine: Engine
) -> npt.NDArray[Any] | None:
    """``a``'s rows when the compiled split can move them directly, else ``None``."""
    if chosen.name != "split" or axis != 0 or _bit_source_of(source) is None:
        return None
    if a.shape[0] < 2 or resolve(engine) != "compiled":
        return None
    return _word_rows(a)


def _axis(a: npt.NDArray[Any], axis: int) -> int:
    if a.ndim == 0:
        raise CroupierError("cannot shuffle a 0-dimensional array: it holds one item, no order")
    if isinstance(axis, bool) or not isinstance(axis, int) or not -a.ndim <= axis < a.ndim:
        raise RangeError(f"axis={axis!r} is out of range for an array of {a.ndim} dimension(s)")
    return axis % a.ndim


def shuffle_array(
    a: npt.NDArray[Any],
    source: RandomSource | Chooser,
    *,
    axis: int = 0,
    method: str | ShuffleMethod | None = None,
    engine: Engine = "auto",
) -> npt.NDArray[Any]:
    """A shuffled copy of ``a`` along ``axis`` (same shape and dtype); ``a`` is not changed.

    Rows of a 2-D array (``axis=0``) move whole; ``axis=1`` shuffles columns.

    >>> from croupier.randomness import SeededSource
    >>> m = np.arange(6).reshape(3, 2)
    >>> shuffle_array(m, SeededSource("doc")).tolist()
    [[2, 3], [0, 1], [4, 5]]
    """
    ax = _axis(a, axis)
    n = a.shape[ax]
    chosen = _method(method, n)
    chooser = UniformSampler(source) if isinstance(source, RandomSource) else source
    src = np.ascontiguousarray(a) if ax == 0 and not a.flags.c_contiguous else a
    rows = _moves_rows(src, ax, chosen, chooser, engine)
    if rows is not None:
        out = np.empty_like(src, order="C")
        bits = _bit_source_of(chooser)
        assert bits is not None
        out_rows = _word_rows(out)
        if out_rows is not None and out_rows.dtype == rows.dtype:
            split_move(rows, out_rows, bits, SplitParams.standard(n), in_place=False)
            return out
    order = shuffle_order(n, chooser, method=chosen, engine=engine)
    return np.take(a, order, axis=ax)


def shuffle_array_in_place(
    a: npt.NDArray[Any],
    source: RandomSource | Chooser,
    *,
    axis: int = 0,
    method: str | ShuffleMethod | None = None,
    engine: Engine = "auto",
) -> None:
    """Shuffle ``a`` in place along ``axis``: the same order :func:`shuffle_array` would give.

    Needs at most one more array's worth of memory.

    >>> from croupier.randomness import SeededSource
    >>> a = np.arange(5) * 10
    >>> shuffle_array_in_place(a, SeededSource("doc"))
    >>> a.tolist()
    [40, 10, 30, 0, 20]
    """
    ax = _axis(a, axis)
    if not a.flags.writeable:
        raise CroupierError("cannot shuffle a read-only array in place; shuffle a copy")
    n = a.shape[ax]
    chosen = _method(method, n)
    chooser = UniformSampler(source) if isinstance(source, RandomSource) else source
    rows = _moves_rows(a, ax, chosen, chooser, engine)
    if rows is not None:
        bits = _bit_source_of(chooser)
        assert bits is not None
        split_move(rows, np.empty_like(rows), bits, SplitParams.standard(n), in_place=True)
        return
    order = shuffle_order(n, chooser, method=chosen, engine=engine)
    shuffled = np.take(a, order, axis=ax)
    a[...] = shuffled


def shuffle_sequence_in_place(
    items: MutableSequence[T],
    source: RandomSource | Chooser,
    *,
    method: str | ShuffleMethod | None = None,
    engine: Engine = "auto",
) -> None:
    """Shuffle a mutable sequence (a list) in place, in the order :func:`shuffle_order` gives.

    >>> from croupier.randomness import SeededSource
    >>> names = ["a", "b", "c", "d", "e"]
    >>> shuffle_sequence_in_place(names, SeededSource("doc"))
    >>> names
    ['e', 'b', 'd', 'a', 'c']
    """
    values = list(items)
    order = shuffle_order(len(values), source, method=method, engine=engine, small=True)
    items[:] = take_in_order(values, order)


def sample_indices(n: int, k: int, chooser: Chooser) -> list[int]:
    """``k`` distinct positions of ``range(n)`` in random order: ``croupier-sample/1``.

    Each of the ``n!/(n-k)!`` ordered selections is equally likely.  The
    first ``k`` steps of a forward Fisher–Yates over the positions
    ``0..n-1``: step ``i`` swaps position ``i`` with ``i + below(n - i)``;
    only the positions touched are stored, so ``n`` may be huge.  The same
    selection as :func:`croupier.shuffling.sample` from the same chooser.

    >>> from croupier.randomness import ScriptedChooser
    >>> sample_indices(4, 2, ScriptedChooser([3, 0]))
    [3, 1]
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
        raise RangeError(f"sample size k={k!r} is out of range; use 0 <= k <= {n}")
    moved: dict[int, int] = {}
    out = []
    below = chooser.below
    for i in range(k):
        j = i + below(n - i)
        at_j = moved.get(j, j)
        moved[j] = moved.get(i, i)
        out.append(at_j)
    return out


def sample_sequence(population: Sequence[T], k: int, chooser: Chooser) -> list[T]:
    """``k`` distinct items of ``population`` in random order (:func:`sample_indices`).

    >>> from croupier.randomness import ScriptedChooser
    >>> sample_sequence("abcd", 2, ScriptedChooser([3, 0]))
    ['d', 'b']
    """
    return [population[i] for i in sample_indices(len(population), k, chooser)]
