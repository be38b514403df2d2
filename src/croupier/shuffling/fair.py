"""Exactly uniform random shuffles over any sequence.

Every function takes a :class:`~croupier.randomness.uniform.Chooser` (anything
with ``below(n)``): a :class:`~croupier.randomness.uniform.UniformSampler`
for real randomness, or the exact decision-tree walker for analysis.  They
return new lists and never modify their input (except
:func:`fisher_yates_inplace`).

>>> from croupier.randomness import UniformSampler, SeededSource
>>> chooser = UniformSampler(SeededSource("doc"))
>>> sorted(fisher_yates("abcde", chooser)) == list("abcde")
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from croupier.errors import RangeError
from croupier.randomness.uniform import Chooser
from croupier.shuffling.lehmer import decode_rank

__all__ = [
    "LEHMER_ONE_DRAW_LIMIT",
    "fisher_yates",
    "fisher_yates_inplace",
    "lehmer_shuffle",
    "merge_shuffle",
    "random_cut",
    "rao_sandelius",
    "sample",
]

T = TypeVar("T")

LEHMER_ONE_DRAW_LIMIT = 2048
"""Largest ``n`` that :func:`lehmer_shuffle` draws as one number below ``n!``."""

_BLOCK_BITS = 4096
_factorial = functools.lru_cache(maxsize=64)(math.factorial)


def fisher_yates_inplace(items: MutableSequence[T], chooser: Chooser) -> None:
    """Shuffle ``items`` in place (Fisher–Yates / Durstenfeld).  Exactly uniform.

    For ``i = n-1, ..., 1`` swap position ``i`` with a uniform ``j`` in ``[0, i]``:
    ``n!`` equally likely paths, one per permutation.

    >>> from croupier.randomness import ScriptedChooser
    >>> deck = [1, 2, 3]
    >>> fisher_yates_inplace(deck, ScriptedChooser([0, 0]))
    >>> deck
    [2, 3, 1]
    """
    for i in range(len(items) - 1, 0, -1):
        j = chooser.below(i + 1)
        items[i], items[j] = items[j], items[i]


def fisher_yates(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """A shuffled copy of ``seq`` (Fisher–Yates).  Exactly uniform.

    >>> from croupier.randomness import ScriptedChooser
    >>> fisher_yates("abc", ScriptedChooser([0, 0]))
    ['b', 'c', 'a']
    """
    items = list(seq)
    fisher_yates_inplace(items, chooser)
    return items


def sample(seq: Sequence[T], k: int, chooser: Chooser) -> list[T]:
    """An ordered sample of ``k`` distinct positions of ``seq``.  Exactly uniform.

    Each of the ``n!/(n-k)!`` ordered selections has the same probability
    (the first ``k`` steps of a forward Fisher–Yates).

    >>> from croupier.randomness import ScriptedChooser
    >>> sample("abcd", 2, ScriptedChooser([3, 0]))
    ['d', 'b']
    """
    items = list(seq)
    n = len(items)
    if not 0 <= k <= n:
        raise RangeError(f"sample size {k} is out of range; use 0 <= k <= {n}")
    for i in range(k):
        j = i + chooser.below(n - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def lehmer_shuffle(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """One uniform draw below ``n!``, decoded with the Lehmer code.  Exactly uniform.

    The "one big number" shuffle: the rank ``r`` in ``[0, n!)`` is drawn once
    and the arrangement with lexicographic rank ``r`` is returned
    (:func:`~croupier.shuffling.lehmer.permutation_from_rank`), so a single
    shuffle costs about ``log2(n!)`` bits.  For ``n`` above
    :data:`LEHMER_ONE_DRAW_LIMIT` the Lehmer digits are drawn in blocks of
    about 4096 bits (still exactly uniform); decoding costs ``O(n**2)``
    element moves, so prefer :func:`fisher_yates` for very long sequences.

    >>> from croupier.randomness import ScriptedChooser
    >>> lehmer_shuffle("abc", ScriptedChooser([4]))
    ['c', 'a', 'b']
    """
    n = len(seq)
    if n <= LEHMER_ONE_DRAW_LIMIT:
        return decode_rank(seq, chooser.below(_factorial(n)))
    digits: list[int] = []
    radix = n
    while radix > 0:
        block = [radix]
        product = radix
        radix -= 1
        while radix > 0 and (product * radix).bit_length() <= _BLOCK_BITS:
            product *= radix
            block.append(radix)
            radix -= 1
        value = chooser.below(product)
        part = []
        for r in reversed(block):
            value, d = divmod(value, r)
            part.append(d)
        digits.extend(reversed(part))
    pool = list(seq)
    return [pool.pop(d) for d in digits]


def random_cut(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """Cut at a uniform position (one of the ``n`` rotations).  NOT uniform over arrangements.

    The top ``c`` cards (``c`` uniform in ``[0, n)``) go to the bottom; only
    ``n`` of the ``n!`` arrangements can result.

    >>> from croupier.randomness import ScriptedChooser
    >>> random_cut("abcde", ScriptedChooser([2]))
    ['c', 'd', 'e', 'a', 'b']
    """
    items = list(seq)
    if not items:
        return items
    c = chooser.below(len(items))
    return items[c:] + items[:c]


def rao_sandelius(seq: Sequence[T], chooser: Chooser, piles: int = 2) -> list[T]:
    """Rao–Sandelius: deal into random piles, shuffle each pile, stack.  Exactly uniform.

    Every item gets a uniform pile label in ``[0, piles)``; each pile is shuffled
    the same way recursively (a pile with one item is done) and the piles are
    stacked in label order.  Given the pile sizes, the labelling is uniform
    over the arrangements of labels, so the result is uniform.  It terminates
    with probability 1 (when all items land in one pile it tries again).

    >>> from croupier.randomness import ScriptedChooser
    >>> rao_sandelius("abc", ScriptedChooser([1, 0, 1, 1, 0]))
    ['b', 'c', 'a']
    """
    if piles < 2:
        raise RangeError(f"Rao–Sandelius needs at least 2 piles, got {piles}")
    out: list[T] = []
    stack: list[list[T]] = [list(seq)]
    while stack:
        items = stack.pop()
        if len(items) <= 1:
            out.extend(items)
            continue
        groups: list[list[T]] = [[] for _ in range(piles)]
        for item in items:
            groups[chooser.below(piles)].append(item)
        stack.extend(reversed(groups))
    return out


def _merge(items: list[T], start: int, mid: int, end: int, chooser: Chooser) -> None:
    i, j = start, mid
    while True:
        if chooser.below(2) == 0:
            if i == j:
                break
        else:
            if j == end:
                break
            items[i], items[j] = items[j], items[i]
            j += 1
        i += 1
    while i < end:
        k = start + chooser.below(i - start + 1)
        items[i], items[k] = items[k], items[i]
        i += 1


def merge_shuffle(seq: Sequence[T], chooser: Chooser) -> list[T]:
    """MergeShuffle (Bacher, Bodini, Hollender and Lumbroso, 2015).  Exactly uniform.

    Shuffle both halves, then merge: a fair coin says whether the next item
    comes from the first or the second half, until one half runs out; the
    remaining items are then each inserted at a uniform position among those
    placed so far (Fisher–Yates steps).  Uses about ``log2(n!) + O(n)`` bits,
    mostly single coin flips.

    >>> from croupier.randomness import ScriptedChooser
    >>> merge_shuffle("ab", ScriptedChooser([1, 0, 0]))
    ['b', 'a']
    """
    items = list(seq)
    width = 1
    n = len(items)
    while width < n:
        for start in range(0, n - width, 2 * width):
            _merge(items, start, start + width, min(start + 2 * width, n), chooser)
        width *= 2
    return items
