"""Permutations of positions ``0..n-1``: the algebra behind every deterministic shuffle.

A :class:`Permutation` of size ``n`` is stored in *one-line notation*: the tuple
``p = (p[0], ..., p[n-1])`` is what you get by applying the permutation to the
deck ``0, 1, ..., n-1``.  Position ``i`` of the result holds the card that was at
position ``p[i]``::

    p.apply(seq)[i] == seq[p[i]]          (numpy: seq[p])

Composition convention
    ``p * q`` is the function composition ``i -> p[q[i]]`` (numpy: ``p[q]``), and
    applying ``p * q`` to a deck does **p first, then q**::

        (p * q).apply(seq) == q.apply(p.apply(seq))

    ``p.then(q)`` is a readable synonym for ``p * q``.  Powers follow:
    ``p ** 3 == p * p * p`` and ``p ** -1 == p.inverse()``.

Cycle notation
    ``(a b c)`` means ``p[a] == b``, ``p[b] == c``, ``p[c] == a`` (the cycles of
    the function ``i -> p[i]``); fixed points are left out.  In deck terms,
    position ``a`` receives the card from position ``b``.  Where a card *goes*
    (``y = f(x)``, new position ``y`` of the card at ``x``) is
    :meth:`Permutation.destination`, the inverse map.

>>> p = Permutation([1, 2, 0])
>>> p.apply("abc")
['b', 'c', 'a']
>>> q = Permutation([0, 2, 1])
>>> (p * q).apply("abc") == q.apply(p.apply("abc"))
True
>>> p.format("cycles"), p.order(), p.sign()
('(0 1 2)', 3, 1)
>>> Permutation.parse("(0 1)(2 3)", n=5).cycle_type()
(2, 2, 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError, excerpt

__all__ = ["MAX_PERMUTATION_SIZE", "IndexArray", "Notation", "Permutation", "PermutationError"]

T = TypeVar("T")
IndexArray = npt.NDArray[np.intp]
Notation = Literal["one-line", "cycles"]

# Below this size, plain Python lists beat the numpy round trip when applying.
_SMALL = 64

# Notebook display: entries (and cycle elements) shown, and the size above which
# the cycles are not listed (only the cycle type, which numpy finds quickly).
_HTML_SHOWN = 64
_HTML_LIST_CYCLES = 1_000_000


MAX_PERMUTATION_SIZE = 10_000_000
"""The largest size a permutation is built with from a number (``n=``, cycle notation).

Cycle notation names its size by its largest element (``"(1000000000)"`` would
be a billion positions, 7.5 GiB), so sizes are checked against this limit
before anything is allocated (see ``docs/limits.md``).
"""


class PermutationError(CroupierError):
    """A permutation is malformed, or sizes do not match."""


def _check_size(size: int, what: str) -> None:
    """Refuse a size outside ``0..MAX_PERMUTATION_SIZE`` before allocating it.

    >>> Permutation.parse("(1000000000)")
    Traceback (most recent call last):
    ...
    croupier.perm.PermutationError: size 1000000001 is too large; permutations have at most ...
    """
    if size < 0:
        raise PermutationError(f"{what} must be >= 0, got {size}")
    if size > MAX_PERMUTATION_SIZE:
        raise PermutationError(
            f"{what} {size} is too large; permutations have at most "
            f"{MAX_PERMUTATION_SIZE} positions"
        )


def _frozen(a: IndexArray) -> IndexArray:
    a.flags.writeable = False
    return a


class Permutation:
    """An immutable permutation of ``0..n-1`` in one-line notation (see the module docs).

    Build one from its one-line notation (any iterable of ints or an integer
    numpy array), or with :meth:`identity`, :meth:`from_positions`,
    :meth:`from_cycles`, :meth:`between` or :meth:`parse`.

    >>> p = Permutation([2, 0, 1])
    >>> len(p), p[0], list(p)
    (3, 2, [2, 0, 1])
    >>> p.apply([10, 20, 30])
    [30, 10, 20]
    >>> p.inverse()
    Permutation([1, 2, 0])
    >>> Permutation([0, 0, 1])
    Traceback (most recent call last):
    ...
    croupier.perm.PermutationError: not a permutation of 0..2: [0, 0, 1] (every value ...)
    """

    __slots__ = ("_a", "_cycles", "_hash", "_lengths")

    _a: IndexArray
    _cycles: tuple[IndexArray, IndexArray] | None
    _lengths: IndexArray | None
    _hash: int | None

    def __init__(self, one_line: Iterable[int] | npt.NDArray[Any]) -> None:
        if not isinstance(one_line, np.ndarray | Iterable):
            raise PermutationError(
                f"a permutation is a list of the integers 0..n-1 (one-line notation), "
                f"not {type(one_line).__name__}"
            )
        raw = one_line if isinstance(one_line, np.ndarray) else np.asarray(list(one_line))
        n = raw.size
        if raw.ndim != 1 or (n and raw.dtype.kind not in "iu"):
            shown = _short(raw.tolist())
            raise PermutationError(
                f"not a permutation: {shown} (expected a flat list of the integers 0..n-1)"
            )
        a = raw.astype(np.intp, copy=True)
        if n:
            ok = bool(a.min() >= 0) and bool(a.max() < n)
            if ok:
                ok = bool(np.all(np.bincount(a, minlength=n) == 1))
            if not ok:
                raise PermutationError(
                    f"not a permutation of 0..{n - 1}: {_short(a.tolist())} "
                    f"(every value 0..{n - 1} must appear once)"
                )
        self._a = _frozen(a)
        self._cycles = None
        self._lengths = None
        self._hash = None

    # ----------------------------------------------------------------- builders
    @classmethod
    def _wrap(cls, a: IndexArray) -> Permutation:
        """Wrap a fresh, valid index array without checking it (internal)."""
        p = object.__new__(cls)
        p._a = _frozen(a)
        p._cycles = None
        p._lengths = None
        p._hash = None
        return p

    @classmethod
    def identity(cls, n: int) -> Permutation:
        """The permutation that leaves all ``n`` positions alone.

        >>> Permutation.identity(4)
        Permutation([0, 1, 2, 3])
        """
        _check_size(n, "size")
        return cls._wrap(np.arange(n, dtype=np.intp))

    @classmethod
    def from_positions(cls, positions: Iterable[int] | npt.NDArray[Any]) -> Permutation:
        """Build from where each card *goes*: ``positions[x]`` is the new position of card ``x``.

        This is the ``y = f(x)`` form, card ``x`` moves to position ``y`` (the inverse of
        one-line notation).

        >>> p = Permutation.from_positions([0, 2, 4, 1, 3, 5])  # out-faro of 6: f(x) = 2x ...
        >>> p.apply("abcdef")
        ['a', 'd', 'b', 'e', 'c', 'f']
        >>> p.destination(1)
        2
        """
        return cls(positions).inverse()

    @classmethod
    def from_cycles(
        cls, cycles: Iterable[Iterable[int]], n: int | None = None, base: int = 0
    ) -> Permutation:
        """Build from disjoint cycles: ``(a b c)`` means ``p[a] = b``, ``p[b] = c``, ``p[c] = a``.

        ``n`` defaults to the largest element + 1; ``base=1`` reads 1-based labels.

        >>> Permutation.from_cycles([(0, 2)], n=4)
        Permutation([2, 1, 0, 3])
        >>> Permutation.from_cycles([(1, 2, 3)], base=1)
        Permutation([1, 2, 0])
        """
        cyc = [[int(x) - base for x in c] for c in cycles]
        flat = [x for c in cyc for x in c]
        size = n if n is not None else (max(flat) + 1 if flat else 0)
        _check_size(size, "size")
        bad = [x + base for x in flat if not 0 <= x < size]
        if bad:
            raise PermutationError(
                f"cycle element {bad[0]} is outside {base}..{size - 1 + base} (size {size})"
            )
        if len(set(flat)) != len(flat):
            raise PermutationError(
                f"cycles are not disjoint: {[tuple(x + base for x in c) for c in cyc]}"
            )
        a = np.arange(size, dtype=np.intp)
        for c in cyc:
            for i, x in enumerate(c):
                a[x] = c[(i + 1) % len(c)]
        return cls._wrap(a)

    @classmethod
    def between(cls, before: Sequence[Hashable], after: Sequence[Hashable]) -> Permutation:
        """The permutation ``p`` with ``p.apply(before) == list(after)`` (items must be distinct).

        >>> Permutation.between("abcd", "cadb")
        Permutation([2, 0, 3, 1])
        """
        where = {x: i for i, x in enumerate(before)}
        if len(where) != len(before):
            raise PermutationError(f"items of {_short(list(before))} are not distinct")
        if len(after) != len(before) or set(after) != set(where):
            raise PermutationError(
                f"{_short(list(after))} is not a rearrangement of {_short(list(before))}"
            )
        return cls._wrap(np.fromiter((where[x] for x in after), dtype=np.intp, count=len(after)))

    @classmethod
    def parse(cls, text: str, n: int | None = None, base: int = 0) -> Permutation:
        """Parse one-line (``"[2, 0, 1]"``, ``"2 0 1"``) or cycle notation (``"(0 2)(1 3)"``).

        Cycle notation omits fixed points, so give ``n`` when the largest element is fixed;
        ``"()"`` is the identity.  ``base=1`` reads 1-based labels.

        >>> Permutation.parse("[2, 0, 1]")
        Permutation([2, 0, 1])
        >>> Permutation.parse("(1 3)", n=4)
        Permutation([0, 3, 2, 1])
        >>> Permutation.parse("3 1 2", base=1)
        Permutation([2, 0, 1])
        """
        s = text.strip()
        if "(" in s or ")" in s:
            if not re.fullmatch(r"(\(\s*[0-9\s,]*\)\s*)*", s) or re.search(r"[0-9]{19}", s):
                raise PermutationError(
                    f"bad cycle notation {excerpt(text)}; expected e.g. '(0 2 1)(3 4)'"
                )
            cycles = [
                [int(x) for x in re.split(r"[\s,]+", body.strip()) if x]
                for body in re.findall(r"\(([^)]*)\)", s)
            ]
            return cls.from_cycles([c for c in cycles if c], n=n, base=base)
        body = s[1:-1] if s.startswith("[") and s.endswith("]") else s
        tokens = [t for t in re.split(r"[\s,]+", body.strip()) if t]
        if not all(re.fullmatch(r"-?[0-9]{1,18}", t) for t in tokens):
            raise PermutationError(
                f"bad one-line notation {excerpt(text)}; expected e.g. '[2, 0, 1]' or '2 0 1'"
            )
        _check_size(len(tokens), "size")
        p = cls([int(t) - base for t in tokens])
        if n is not None and len(p) != n:
            raise PermutationError(f"{excerpt(text)} has {len(p)} elements, expected {n}")
        return p

    # ------------------------------------------------------------ basic access
    @property
    def array(self) -> IndexArray:
        """The one-line notation as a read-only numpy array (no copy).

        >>> Permutation([1, 0]).array.tolist()
        [1, 0]
        """
        return self._a

    def __len__(self) -> int:
        return int(self._a.size)

    @property
    def size(self) -> int:
        """The number of positions ``n``.

        >>> Permutation.identity(5).size
        5
        """
        return int(self._a.size)

    def __getitem__(self, i: int) -> int:
        return int(self._a[i])

    def __iter__(self) -> Iterator[int]:
        return iter(self._a.tolist())

    def tolist(self) -> list[int]:
        """The one-line notation as a list of ints.

        >>> Permutation([2, 0, 1]).tolist()
        [2, 0, 1]
        """
        return list(self._a.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Permutation):
            return NotImplemented
        return bool(self._a.size == other._a.size and np.array_equal(self._a, other._a))

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._a.size, self._a.tobytes()))
        return self._hash

    def __repr__(self) -> str:
        if self._a.size <= 40:
            return f"Permutation({self.tolist()})"
        head = ", ".join(str(x) for x in self._a[:5].tolist())
        return f"<Permutation of {self._a.size}: [{head}, ...]>"

    def __str__(self) -> str:
        return self.format("one-line")

    def format(self, notation: Notation = "one-line", base: int = 0) -> str:
        """Format in one-line notation (``"[2, 0, 1]"``) or cycle notation (``"(0 2 1)"``).

        >>> p = Permutation([2, 3, 0, 1, 4])
        >>> p.format(), p.format("cycles"), p.format("cycles", base=1)
        ('[2, 3, 0, 1, 4]', '(0 2)(1 3)', '(1 3)(2 4)')
        >>> Permutation.identity(3).format("cycles")
        '()'
        """
        if notation == "one-line":
            return "[" + ", ".join(str(x + base) for x in self._a.tolist()) + "]"
        if notation == "cycles":
            cyc = self.cycles()
            if not cyc:
                return "()"
            return "".join("(" + " ".join(str(x + base) for x in c) + ")" for c in cyc)
        raise PermutationError(f"unknown notation {notation!r}; expected 'one-line' or 'cycles'")

    # ----------------------------------------------------------------- acting
    @overload
    def apply(self, seq: npt.NDArray[Any]) -> npt.NDArray[Any]: ...
    @overload
    def apply(self, seq: Sequence[T]) -> list[T]: ...
    def apply(self, seq: Sequence[T] | npt.NDArray[Any]) -> list[T] | npt.NDArray[Any]:
        """Rearrange ``seq``: ``result[i] = seq[p[i]]``.  Returns a new list (an array for arrays).

        >>> Permutation([1, 2, 0]).apply(("x", "y", "z"))
        ['y', 'z', 'x']
        >>> Permutation([1, 0]).apply([1, 2, 3])
        Traceback (most recent call last):
        ...
        croupier.perm.PermutationError: a permutation of 2 cannot rearrange 3 items
        """
        n = self._a.size
        if not isinstance(seq, Sequence | np.ndarray):
            raise PermutationError(
                f"a permutation rearranges a sequence (a list, string, array), "
                f"not {type(seq).__name__}"
            )
        if len(seq) != n:
            raise PermutationError(f"a permutation of {n} cannot rearrange {len(seq)} items")
        if isinstance(seq, np.ndarray):
            return seq[self._a]
        if n <= _SMALL:
            return [seq[i] for i in self._a.tolist()]
        out: list[T] = np.fromiter(seq, dtype=object, count=n)[self._a].tolist()
        return out

    def __call__(self, seq: Sequence[T]) -> list[T]:
        """Same as :meth:`apply`.

        >>> Permutation([1, 0])("ab")
        ['b', 'a']
        """
        return self.apply(seq)

    def destination(self, x: int) -> int:
        """Where the card now at position ``x`` ends up: ``f(x)``, the new position.

        >>> Permutation([2, 0, 1]).destination(0)
        1
        """
        n = self._a.size
        if not 0 <= x < n:
            raise PermutationError(f"position {x} is outside 0..{n - 1}")
        return int(np.flatnonzero(self._a == x)[0])

    def positions(self) -> IndexArray:
        """Where every card goes: ``positions()[x] == destination(x)`` (the inverse's one-line).

        >>> Permutation([2, 0, 1]).positions().tolist()
        [1, 2, 0]
        """
        return self.inverse()._a

    # ---------------------------------------------------------------- algebra
    def _check_same(self, other: Permutation) -> None:
        if self._a.size != other._a.size:
            raise PermutationError(
                f"cannot compose permutations of sizes {self._a.size} and {other._a.size}"
            )

    def __mul__(self, other: Permutation) -> Permutation:
        if not isinstance(other, Permutation):
            return NotImplemented
        self._check_same(other)
        return Permutation._wrap(self._a[other._a])

    def then(self, other: Permutation) -> Permutation:
        """``self`` followed by ``other``: the same as ``self * other``.

        >>> cut1 = Permutation([1, 2, 0])
        >>> swap = Permutation([1, 0, 2])
        >>> cut1.then(swap).apply("abc") == swap.apply(cut1.apply("abc"))
        True
        """
        return self * other

    def inverse(self) -> Permutation:
        """The permutation that undoes this one: ``p * p.inverse()`` is the identity.

        >>> p = Permutation([2, 0, 1])
        >>> p.inverse().apply(p.apply("abc"))
        ['a', 'b', 'c']
        """
        inv = np.empty_like(self._a)
        inv[self._a] = np.arange(self._a.size, dtype=np.intp)
        return Permutation._wrap(inv)

    def __invert__(self) -> Permutation:
        return self.inverse()

    def __pow__(self, k: int) -> Permutation:
        """``p ** k`` for any integer ``k`` (negative too), in O(n) time however big ``k`` is.

        >>> p = Permutation([1, 2, 3, 0])
        >>> p ** 2, p ** -1, p ** (10 ** 30 + 1) == p
        (Permutation([2, 3, 0, 1]), Permutation([3, 0, 1, 2]), True)
        """
        if isinstance(k, bool) or not isinstance(k, int | np.integer):
            raise PermutationError(f"a permutation's power is a whole number, not {k!r:.40}")
        k = int(k)
        n = self._a.size
        if k == 0 or n == 0:
            return Permutation.identity(n)
        if k < 0:
            return self.inverse() ** (-k)
        if k.bit_length() <= 6 and self._cycles is None:
            result = self._a
            base = self._a
            e = k - 1
            while e:
                if e & 1:
                    result = result[base]
                e >>= 1
                if e:
                    base = base[base]
            return Permutation._wrap(result.copy() if result is self._a else result)
        return Permutation._wrap(self._power_by_cycles(k))

    def _power_by_cycles(self, k: int) -> IndexArray:
        flat, lens = self._cycle_arrays()
        starts = np.cumsum(lens) - lens
        distinct, which = np.unique(lens, return_inverse=True)
        shift = np.array([k % int(length) for length in distinct.tolist()], dtype=np.intp)
        per_elem_start = np.repeat(starts, lens)
        per_elem_len = np.repeat(lens, lens)
        per_elem_shift = np.repeat(shift[which], lens)
        offset = np.arange(flat.size, dtype=np.intp) - per_elem_start
        target = per_elem_start + (offset + per_elem_shift) % per_elem_len
        out = np.empty_like(self._a)
        out[flat] = flat[target]
        return out

    # ----------------------------------------------------------------- cycles
    def _cycle_arrays(self) -> tuple[IndexArray, IndexArray]:
        """(elements of all cycles, concatenated; cycle lengths), each cycle from its minimum."""
        if self._cycles is None:
            a = self._a.tolist()
            n = len(a)
            seen = bytearray(n)
            flat: list[int] = []
            lens: list[int] = []
            append = flat.append
            for i in range(n):
                if seen[i]:
                    continue
                j = i
                length = 0
                while not seen[j]:
                    seen[j] = 1
                    append(j)
                    j = a[j]
                    length += 1
                lens.append(length)
            self._cycles = (
                _frozen(np.array(flat, dtype=np.intp)),
                _frozen(np.array(lens, dtype=np.intp)),
            )
        return self._cycles

    def _cycle_lengths(self) -> IndexArray:
        """The length of every cycle (in no particular order), without listing the cycles.

        Each position is labelled with the smallest position on its cycle by pointer
        doubling: after step ``k`` a label is the minimum over the next ``2**k`` positions
        on the cycle, and no label changing means every cycle is covered.  That is
        ``O(n log L)`` numpy work for a longest cycle ``L``, much faster than a Python walk.
        """
        if self._cycles is not None:
            return self._cycles[1]
        if self._lengths is None:
            label = np.arange(self._a.size, dtype=np.intp)
            jump = self._a
            while True:
                new = np.minimum(label, label[jump])
                if np.array_equal(new, label):
                    break
                label = new
                jump = jump[jump]
            counts = np.bincount(label, minlength=self._a.size)
            self._lengths = _frozen(counts[counts > 0].astype(np.intp))
        return self._lengths

    def cycles(self, include_fixed: bool = False) -> list[tuple[int, ...]]:
        """The disjoint cycles, each starting at its smallest element, ordered by that element.

        >>> Permutation([2, 1, 0, 4, 3]).cycles()
        [(0, 2), (3, 4)]
        >>> Permutation([2, 1, 0]).cycles(include_fixed=True)
        [(0, 2), (1,)]
        """
        flat, lens = self._cycle_arrays()
        out: list[tuple[int, ...]] = []
        pos = 0
        items = flat.tolist()
        for length in lens.tolist():
            if length > 1 or include_fixed:
                out.append(tuple(items[pos : pos + length]))
            pos += length
        return out

    def cycle_type(self) -> tuple[int, ...]:
        """The cycle lengths in decreasing order, fixed points included (a partition of ``n``).

        >>> Permutation([1, 2, 0, 4, 3, 5]).cycle_type()
        (3, 2, 1)
        """
        return tuple(sorted(self._cycle_lengths().tolist(), reverse=True))

    def cycle_counts(self) -> dict[int, int]:
        """How many cycles of each length, longest first: ``{length: count}``.

        >>> Permutation([1, 0, 3, 2, 4]).cycle_counts()
        {2: 2, 1: 1}
        """
        values, counts = np.unique(self._cycle_lengths(), return_counts=True)
        return {int(v): int(c) for v, c in zip(values[::-1], counts[::-1], strict=True)}

    def order(self) -> int:
        """The least ``k >= 1`` with ``p ** k`` the identity: the lcm of the cycle lengths.

        >>> Permutation([1, 2, 0, 4, 3]).order()
        6
        """
        return math.lcm(1, *self.cycle_counts())

    def sign(self) -> int:
        """``+1`` for an even permutation, ``-1`` for an odd one: ``(-1) ** (n - #cycles)``.

        >>> Permutation([1, 0, 2]).sign(), Permutation([1, 2, 0]).sign()
        (-1, 1)
        """
        return -1 if (self._a.size - self._cycle_lengths().size) % 2 else 1

    def parity(self) -> int:
        """``0`` for an even permutation, ``1`` for an odd one.

        >>> Permutation([1, 0, 2]).parity(), Permutation.identity(3).parity()
        (1, 0)
        """
        return 0 if self.sign() == 1 else 1

    def is_even(self) -> bool:
        """Whether the permutation is a product of an even number of transpositions.

        >>> Permutation([1, 2, 0]).is_even()
        True
        """
        return self.sign() == 1

    def is_identity(self) -> bool:
        """Whether every position is fixed.

        >>> Permutation([0, 1]).is_identity(), Permutation([1, 0]).is_identity()
        (True, False)
        """
        return bool(np.array_equal(self._a, np.arange(self._a.size)))

    def fixed_points(self) -> list[int]:
        """Positions whose card does not move.

        >>> Permutation([0, 2, 1, 3]).fixed_points()
        [0, 3]
        """
        return list(np.flatnonzero(self._a == np.arange(self._a.size)).tolist())

    def descents(self) -> list[int]:
        """Positions ``i`` with ``p[i] > p[i + 1]``.

        >>> Permutation([2, 0, 3, 1]).descents()
        [0, 2]
        """
        return list(np.flatnonzero(self._a[:-1] > self._a[1:]).tolist())

    def rising_sequences(self) -> int:
        """The number of rising sequences of the arrangement ``p`` (Bayer–Diaconis).

        A rising sequence is a maximal run of consecutive card labels ``x, x+1, ...``
        that appear in increasing positions; their number is one more than the
        number of descents of the inverse.  A riffle shuffle leaves at most two.

        >>> Permutation([0, 3, 1, 4, 2, 5]).rising_sequences()
        2
        >>> Permutation([3, 2, 1, 0]).rising_sequences()
        4
        """
        if self._a.size == 0:
            return 0
        return len(self.inverse().descents()) + 1

    # --------------------------------------------------------------- notebooks
    def _repr_html_(self) -> str:
        """Notebook display: a table of the size, order, sign, cycle type, one-line
        notation and cycles (fixed points left out, as in :meth:`cycles`).

        A big permutation is cut short, and the table says so: the first 64
        entries of the one-line notation, cycles up to about 64 elements (``…``
        marks a cut), and above a million positions only the cycle type.

        >>> html = Permutation([2, 0, 1, 4, 3, 5])._repr_html_()
        >>> html.count('class="croupier-cycle"'), "(0 2 1)</span>" in html
        (2, True)
        """
        from croupier.html import table_html

        n = self.size
        one_line = ", ".join(map(str, self._a[:_HTML_SHOWN].tolist()))
        if n > _HTML_SHOWN:
            one_line += f", … <i>({n - _HTML_SHOWN:,} more)</i>"
        kinds = list(self.cycle_counts().items())
        cycle_type = " ".join(
            f"{k}<sup>{c}</sup>" if c > 1 else str(k) for k, c in kinds[:_HTML_SHOWN]
        )
        if len(kinds) > _HTML_SHOWN:
            cycle_type += " …"
        order = self.order()
        if order.bit_length() <= 200:
            order_text = f"{order:,}"
        else:  # too long to read (and beyond str() for the largest n): its size
            exponent = math.log10(order)
            order_text = f"≈ {10 ** (exponent % 1):.3f} × 10<sup>{int(exponent)}</sup>"
        rows = [
            ["size", f"{n:,}"],
            ["order", order_text],
            ["sign", "+1 (even)" if self.sign() == 1 else "−1 (odd)"],
            ["cycle type", cycle_type or "—"],
            ["one-line", f"<code>[{one_line}]</code>"],
            ["cycles", self._cycles_html()],
        ]
        return table_html(rows, caption=f"Permutation of {n:,}", kind="permutation")

    def _cycles_html(self) -> str:
        """The cycles for :meth:`_repr_html_`, one span each, cut after about 64 elements."""
        if self.size > _HTML_LIST_CYCLES:
            return f"<i>not listed above {_HTML_LIST_CYCLES:,} positions; see the cycle type</i>"
        flat, lens = self._cycle_arrays()
        total = int(np.count_nonzero(lens > 1))
        if not total:
            return "<code>()</code> (the identity)"
        spans: list[str] = []
        budget, pos, cut = _HTML_SHOWN, 0, False
        for length in lens.tolist():
            if length > 1:
                if budget <= 0:
                    break
                shown = flat[pos : pos + min(length, budget)].tolist()
                text = " ".join(map(str, shown))
                if length > budget:
                    text, cut = text + " …", True
                spans.append(f'<span class="croupier-cycle">({text})</span>')
                budget -= len(shown)
            pos += length
        out = "<code>" + "".join(spans) + "</code>"
        if cut or len(spans) < total:
            out += f" <i>(first {len(spans):,} of {total:,} cycles; … marks a cut)</i>"
        return out


def _short(items: list[Any], limit: int = 12) -> str:
    if len(items) <= limit:
        return repr(items)
    return "[" + ", ".join(repr(x) for x in items[:limit]) + ", ...]"
