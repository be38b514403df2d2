"""Deterministic shuffles: cuts, riffles, perfect (faro) shuffles, Monge, milk, piles, ...

Every move exists twice:

* as a function over any sequence (list, tuple, string, range, ...) that returns a
  new list and never touches its input: ``cut(seq, k)``, ``riffle(seq)``, ...;
* as a :class:`~croupier.perm.Permutation` of size ``n``: ``cut_perm(n, k)``,
  ``riffle_perm(n)``, ... with ``move(seq) == move_perm(len(seq)).apply(seq)``.

Positions count from the top of the deck, starting at 0; the first item of a
sequence is the top card.  Empty and one-card decks are fine everywhere.

The dealer's move: cut the deck at ``k`` (wrapping around), then riffle it (split at
``n // 2`` and interweave the halves); ``randomize_list`` applies one move per cut value:

>>> cut([1, 2, 3, 4, 5, 6, 7, 8], 3)
[4, 5, 6, 7, 8, 1, 2, 3]
>>> interweave([1, 2, 3], [4, 5, 6])
[1, 4, 2, 5, 3, 6]
>>> riffle([1, 2, 3, 4, 5])
[1, 3, 2, 4, 5]
>>> dealers_move([1, 2, 3, 4, 5, 6], 2)
[3, 6, 4, 1, 5, 2]
>>> randomize_list([1, 2, 3, 4, 5, 6, 7, 9, 10], [2, 5])
[10, 3, 6, 7, 1, 4, 2, 9, 5]

Perfect shuffles interlace two exact halves; eight out-shuffles restore 52 cards.

>>> (faro_perm(52, "out") ** 8).is_identity()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar, get_args

import numpy as np

from croupier.errors import RangeError, ShuffleSpecError, excerpt
from croupier.perm import MAX_PERMUTATION_SIZE, IndexArray, Permutation

__all__ = [
    "FARO_MODES",
    "FaroMode",
    "cut",
    "cut_perm",
    "dealers_move",
    "dealers_move_perm",
    "faro",
    "faro_inverse",
    "faro_perm",
    "interweave",
    "interweave_perm",
    "kway_faro",
    "kway_faro_perm",
    "milk",
    "milk_perm",
    "monge",
    "monge_perm",
    "parse_faro_mode",
    "pile_perm",
    "pile_shuffle",
    "randomize_list",
    "randomize_list_perm",
    "reverse",
    "reverse_perm",
    "riffle",
    "riffle_perm",
    "unfaro",
    "unfaro_perm",
]

T = TypeVar("T")

FaroMode = Literal["out", "in"]
"""Perfect shuffle: the top card stays on top (``"out"``) or goes to second place (``"in"``)."""

FARO_MODES: tuple[FaroMode, ...] = get_args(FaroMode)


def parse_faro_mode(mode: str) -> FaroMode:
    """Check a faro mode given as text: ``"out"`` or ``"in"``, else a one-line error.

    Every function that takes a faro mode checks it with this, whatever the deck size.

    >>> parse_faro_mode("in")
    'in'
    >>> parse_faro_mode("sideways")
    Traceback (most recent call last):
    ...
    croupier.errors.ShuffleSpecError: unknown faro mode 'sideways'; expected 'out' or 'in'
    """
    for valid in FARO_MODES:
        if mode == valid:
            return valid
    raise ShuffleSpecError(
        f"unknown faro mode {excerpt(mode) if isinstance(mode, str) else type(mode).__name__}; "
        f"expected {' or '.join(map(repr, FARO_MODES))}"
    )


def _size(n: int) -> int:
    """A deck size checked before anything is built: ``0..MAX_PERMUTATION_SIZE``.

    >>> _size(52)
    52
    >>> _size(10**12)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: deck size 1000000000000 is too large; use at most 10000000 cards
    """
    n = int(n)
    if n < 0:
        raise RangeError(f"deck size must be >= 0, got {n}")
    if n > MAX_PERMUTATION_SIZE:
        raise RangeError(f"deck size {n} is too large; use at most {MAX_PERMUTATION_SIZE} cards")
    return n


def _wrap(a: IndexArray) -> Permutation:
    return Permutation._wrap(a)


# ----------------------------------------------------------------------- cut
def cut_perm(n: int, k: int) -> Permutation:
    """Cut ``k`` cards from the top to the bottom (``k`` taken mod ``n``; negative cuts from below).

    >>> cut_perm(5, 2).tolist(), cut_perm(5, -1).tolist()
    ([2, 3, 4, 0, 1], [4, 0, 1, 2, 3])
    """
    n = _size(n)
    if n == 0:
        return Permutation.identity(0)
    shift = int(k) % n
    a = np.arange(n, dtype=np.intp) + shift
    a[n - shift :] -= n
    return _wrap(a)


def cut(seq: Sequence[T], k: int) -> list[T]:
    """Cut the deck: the top ``k`` cards go to the bottom, with wrap-around.

    ``k`` is taken mod ``len(seq)``, so ``k = n + 3`` is the same cut as ``3`` and
    ``k = -1`` brings the bottom card to the top.  The cut always wraps around: a
    cut that split at ``k`` without reducing it would do nothing for ``k >= n``.

    >>> cut([1, 2, 3, 4, 5, 6, 7, 8], 3)
    [4, 5, 6, 7, 8, 1, 2, 3]
    >>> cut(["Red", "Green", "Blue", "Black", "White"], 3)
    ['Black', 'White', 'Red', 'Green', 'Blue']
    >>> cut("abcde", 7), cut("abcde", -1), cut([], 4)
    (['c', 'd', 'e', 'a', 'b'], ['e', 'a', 'b', 'c', 'd'], [])
    """
    return cut_perm(len(seq), k).apply(seq)


# ---------------------------------------------------------------- interweave
def interweave_perm(m: int, k: int) -> Permutation:
    """Interweave the first ``m`` positions with the next ``k``; the longer packet's rest goes last.

    >>> interweave_perm(2, 3).tolist()
    [0, 2, 1, 3, 4]
    """
    m, k = _size(m), _size(k)
    c = min(m, k)
    a = np.empty(m + k, dtype=np.intp)
    a[0 : 2 * c : 2] = np.arange(c)
    a[1 : 2 * c : 2] = np.arange(m, m + c)
    a[2 * c :] = np.arange(c, m) if m > k else np.arange(m + c, m + k)
    return _wrap(a)


def interweave(a: Sequence[T], b: Sequence[T]) -> list[T]:
    """Alternate items of ``a`` and ``b``, starting with ``a``; the rest of the longer one follows.

    >>> interweave([1, 2, 3], [4, 5, 6])
    [1, 4, 2, 5, 3, 6]
    >>> interweave([1, 2], [3, 4, 5]), interweave("abc", "x")
    ([1, 3, 2, 4, 5], ['a', 'x', 'b', 'c'])
    """
    items: list[T] = [*a, *b]
    return interweave_perm(len(a), len(b)).apply(items)


# -------------------------------------------------------------------- riffle
def riffle_perm(n: int) -> Permutation:
    """The riffle: split at ``n // 2`` and interweave (top packet first).

    For odd ``n`` the bottom packet has the extra card, which ends at the bottom.

    >>> riffle_perm(5).tolist()
    [0, 2, 1, 3, 4]
    """
    n = _size(n)
    return interweave_perm(n // 2, n - n // 2)


def riffle(seq: Sequence[T]) -> list[T]:
    """The riffle: split at ``len // 2`` and :func:`interweave` the halves.

    For an even deck this is the out-faro; for an odd deck the bottom half is
    one card longer and its last card stays at the bottom.

    >>> riffle([1, 2, 3, 4, 5, 6])
    [1, 4, 2, 5, 3, 6]
    >>> riffle([1, 2, 3, 4, 5])
    [1, 3, 2, 4, 5]
    """
    return riffle_perm(len(seq)).apply(seq)


# -------------------------------------------------------------- dealer's move
def dealers_move_perm(n: int, k: int) -> Permutation:
    """:func:`cut_perm` by ``k``, then :func:`riffle_perm`.

    >>> dealers_move_perm(6, 2).tolist()
    [2, 5, 3, 0, 4, 1]
    """
    return cut_perm(n, k) * riffle_perm(n)


def dealers_move(seq: Sequence[T], k: int) -> list[T]:
    """The dealer's move: cut by ``k`` (wrapping around), then riffle.

    >>> dealers_move([1, 2, 3, 4, 5, 6], 2)
    [3, 6, 4, 1, 5, 2]
    """
    return dealers_move_perm(len(seq), k).apply(seq)


def randomize_list_perm(n: int, ks: Iterable[int]) -> Permutation:
    """The composite of :func:`dealers_move_perm` for each ``k`` in ``ks``, in order.

    >>> randomize_list_perm(6, [2, 4, 3]).tolist()
    [3, 4, 2, 5, 0, 1]
    """
    p = Permutation.identity(_size(n))
    for k in ks:
        p = p * dealers_move_perm(n, k)
    return p


def randomize_list(seq: Sequence[T], ks: Iterable[int]) -> list[T]:
    """A left fold of :func:`dealers_move` over the cut values ``ks``.

    The cut points decide everything: with random ``ks`` this becomes a (flawed)
    random shuffle, ``randomize-list`` in :mod:`croupier.shuffling`; here it is
    the deterministic fold.

    >>> randomize_list([1, 2, 3, 4, 5, 6, 7, 9, 10], [2, 5])
    [10, 3, 6, 7, 1, 4, 2, 9, 5]
    >>> randomize_list([1, 2, 3, 4, 5, 6], [2, 4, 3])
    [4, 5, 3, 6, 1, 2]
    """
    return randomize_list_perm(len(seq), ks).apply(seq)


# ---------------------------------------------------------------------- faro
def faro_perm(n: int, mode: FaroMode = "out") -> Permutation:
    """The perfect (faro) shuffle of ``n`` cards as a permutation; see :func:`faro`.

    >>> faro_perm(6, "out").tolist(), faro_perm(6, "in").tolist()
    ([0, 3, 1, 4, 2, 5], [3, 0, 4, 1, 5, 2])
    >>> faro_perm(5, "out").tolist(), faro_perm(5, "in").tolist()
    ([0, 3, 1, 4, 2], [2, 0, 3, 1, 4])
    """
    n, mode = _size(n), parse_faro_mode(mode)
    top = (n + 1) // 2 if mode == "out" else n // 2
    a = np.empty(n, dtype=np.intp)
    if mode == "out":
        a[0::2] = np.arange(top)
        a[1::2] = np.arange(top, n)
    else:
        a[0::2] = np.arange(top, n)
        a[1::2] = np.arange(top)
    return _wrap(a)


def faro(seq: Sequence[T], mode: FaroMode = "out") -> list[T]:
    """The perfect shuffle: cut into two packets and interlace them exactly, one card each.

    * ``"out"``: the top card stays on top (``f(x) = 2x`` for ``x < N``,
      ``2x - 2N + 1`` otherwise, for ``2N`` cards);
    * ``"in"``: the top card goes to second place (``f(x) = 2x + 1``, ``2x - 2N``).

    Odd decks (``2N + 1`` cards): the packet that supplies the first card of the
    result gets the extra card, so the interlacing is still perfect.  The
    out-shuffle's top packet has ``N + 1`` cards (``f(x) = 2x mod n``: the top card
    stays); the in-shuffle's bottom packet has ``N + 1`` (the bottom card stays).

    >>> faro([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "out")
    [0, 5, 1, 6, 2, 7, 3, 8, 4, 9]
    >>> faro("abcdef", "in")
    ['d', 'a', 'e', 'b', 'f', 'c']
    >>> faro("abcde", "out"), faro("abcde", "in")
    (['a', 'd', 'b', 'e', 'c'], ['c', 'a', 'd', 'b', 'e'])
    """
    return faro_perm(len(seq), mode).apply(seq)


def unfaro_perm(n: int, mode: FaroMode = "out") -> Permutation:
    """The inverse of :func:`faro_perm` (same ``mode``).

    >>> unfaro_perm(6, "out").tolist()
    [0, 2, 4, 1, 3, 5]
    """
    return faro_perm(n, mode).inverse()


def unfaro(seq: Sequence[T], mode: FaroMode = "out") -> list[T]:
    """Undo a :func:`faro`: deal alternate cards into two packets and stack them back.

    >>> unfaro(faro("abcdefg", "in"), "in")
    ['a', 'b', 'c', 'd', 'e', 'f', 'g']
    >>> unfaro([1, 4, 2, 5, 3, 6])
    [1, 2, 3, 4, 5, 6]
    """
    return unfaro_perm(len(seq), mode).apply(seq)


faro_inverse = unfaro


# --------------------------------------------------------------------- monge
def monge_perm(n: int) -> Permutation:
    """The Monge (over/under) shuffle as a permutation; see :func:`monge`.

    >>> monge_perm(8).tolist()
    [7, 5, 3, 1, 0, 2, 4, 6]
    """
    n = _size(n)
    odd = np.arange(1, n, 2)[::-1]
    even = np.arange(0, n, 2)
    return _wrap(np.concatenate([odd, even]).astype(np.intp))


def monge(seq: Sequence[T]) -> list[T]:
    """Monge's shuffle: take the top card, then put each next card alternately above and below.

    The second card goes on top of the new pile, the third below, the fourth on
    top, and so on.  Cards ``1..2N`` end as ``2N, 2N-2, ..., 2, 1, 3, ..., 2N-1``.

    >>> monge([1, 2, 3, 4, 5, 6, 7, 8])
    [8, 6, 4, 2, 1, 3, 5, 7]
    >>> monge("abcde")
    ['d', 'b', 'a', 'c', 'e']
    """
    return monge_perm(len(seq)).apply(seq)


# ---------------------------------------------------------------------- milk
def milk_perm(n: int) -> Permutation:
    """The milk shuffle as a permutation; see :func:`milk`.

    >>> milk_perm(6).tolist()
    [2, 3, 1, 4, 0, 5]
    """
    n = _size(n)
    half = n // 2
    j = np.arange(half - 1, -1, -1)
    pairs = np.empty(2 * half, dtype=np.intp)
    pairs[0::2] = j
    pairs[1::2] = n - 1 - j
    head = np.array([half] if n % 2 else [], dtype=np.intp)
    return _wrap(np.concatenate([head, pairs]).astype(np.intp))


def milk(seq: Sequence[T]) -> list[T]:
    """The milk (Klondike) shuffle: pull off the top and bottom cards together, again and again.

    Each pair (the top card above the bottom card) is dropped on top of a new
    pile; with an odd deck the middle card comes last, on top.  Cards ``1..8``
    end as ``4 5 3 6 2 7 1 8``.

    >>> milk([1, 2, 3, 4, 5, 6, 7, 8])
    [4, 5, 3, 6, 2, 7, 1, 8]
    >>> milk("abcde")
    ['c', 'b', 'd', 'a', 'e']
    """
    return milk_perm(len(seq)).apply(seq)


# ------------------------------------------------------------------- reverse
def reverse_perm(n: int) -> Permutation:
    """Turn the order upside down (deal every card onto one pile).

    >>> reverse_perm(4).tolist()
    [3, 2, 1, 0]
    """
    n = _size(n)
    return _wrap(np.arange(n - 1, -1, -1, dtype=np.intp))


def reverse(seq: Sequence[T]) -> list[T]:
    """The deck in reverse order, as a new list.

    >>> reverse("abc")
    ['c', 'b', 'a']
    """
    return reverse_perm(len(seq)).apply(seq)


# ---------------------------------------------------------------------- piles
def pile_perm(n: int, piles: int, order: Sequence[int] | None = None) -> Permutation:
    """The pile shuffle as a permutation; see :func:`pile_shuffle`.

    >>> pile_perm(7, 3).tolist()
    [6, 3, 0, 4, 1, 5, 2]
    >>> pile_perm(3, 10**18) == pile_perm(3, 3)
    True
    """
    n = _size(n)
    p = int(piles)
    if p < 1:
        raise RangeError(f"number of piles must be >= 1, got {piles}")
    # piles beyond the n-th stay empty, so P > n cards deals like P = n (and stays cheap)
    ordering = list(range(min(p, n))) if order is None else [int(x) for x in order]
    if order is not None and sorted(ordering) != list(range(p)):
        raise RangeError(
            f"pile order {list(order or [])} must list each pile 0..{p - 1} exactly once"
        )
    parts = [np.arange(j, n, p)[::-1] for j in ordering]
    return _wrap(np.concatenate([np.empty(0, dtype=np.intp), *parts]).astype(np.intp))


def pile_shuffle(seq: Sequence[T], piles: int, order: Sequence[int] | None = None) -> list[T]:
    """Deal the cards round-robin face down onto ``piles`` piles, then stack the piles.

    Card 0 goes onto pile 0, card 1 onto pile 1, ..., card ``piles`` onto pile 0
    again; each card lands on top of its pile, so every pile comes out reversed.
    The piles are then gathered with pile 0 on top, pile 1 under it, and so on
    (pick up pile 0, drop it on pile 1, pick up both, ...).  ``order`` lists the
    piles from top to bottom to gather them differently.

    >>> pile_shuffle([1, 2, 3, 4, 5, 6, 7], 3)
    [7, 4, 1, 5, 2, 6, 3]
    >>> pile_shuffle([1, 2, 3, 4, 5, 6, 7], 3, order=[2, 1, 0])
    [6, 3, 5, 2, 7, 4, 1]
    """
    return pile_perm(len(seq), piles, order).apply(seq)


# -------------------------------------------------------------- k-way faro
def kway_faro_perm(n: int, k: int, mode: FaroMode = "out") -> Permutation:
    """The ``k``-way perfect shuffle as a permutation; see :func:`kway_faro`.

    >>> kway_faro_perm(7, 3).tolist()
    [0, 3, 5, 1, 4, 6, 2]
    >>> kway_faro_perm(10, 2, "in") == faro_perm(10, "in")
    True
    >>> kway_faro_perm(4, 10**18, "in").tolist()
    [3, 2, 1, 0]
    """
    n, k, mode = _size(n), int(k), parse_faro_mode(mode)
    if k < 1:
        raise RangeError(f"number of packets must be >= 1, got {k}")
    k = max(1, min(k, n))  # packets beyond the n-th are empty: K > n acts like K = n
    q, r = divmod(n, k)
    sizes = np.full(k, q, dtype=np.intp)
    if mode == "out":
        sizes[:r] += 1
    elif r:
        sizes[k - r :] += 1
    starts = np.cumsum(sizes) - sizes
    i = np.arange(n, dtype=np.intp)
    slot = i % k
    packet = slot if mode == "out" else k - 1 - slot
    return _wrap((starts[packet] + i // k).astype(np.intp))


def kway_faro(seq: Sequence[T], k: int, mode: FaroMode = "out") -> list[T]:
    """Cut into ``k`` packets and interlace them perfectly, one card from each in turn.

    ``"out"`` takes the top packet's card first (the top card stays on top);
    ``"in"`` takes the packets bottom-first.  When ``k`` does not divide the deck,
    the packets taken first in each round hold one extra card, so the interlacing
    stays perfect.  ``k = 2`` is :func:`faro`.

    >>> kway_faro([1, 2, 3, 4, 5, 6, 7, 8, 9], 3)
    [1, 4, 7, 2, 5, 8, 3, 6, 9]
    >>> kway_faro([1, 2, 3, 4, 5, 6, 7, 8, 9], 3, "in")
    [7, 4, 1, 8, 5, 2, 9, 6, 3]
    """
    return kway_faro_perm(len(seq), k, mode).apply(seq)
