"""Exact bijections between deals (ordered set partitions) and ``[0, M)``.

A *deal* of ``n`` positions into piles of sizes ``k_0, k_1, …`` (summing to
``n``) is written as its **owner sequence**: ``owners[p]`` is the pile that
receives position ``p``.  There are

    M = n! / (k_0! · k_1! · …)

of them (:func:`multinomial`).  Two classical numberings are implemented, both
exact with big integers and linear in the number of positions:

* **pile by pile** (:func:`subsets_rank` / :func:`subsets_unrank`): the number
  is read in mixed radix ``C(n, k_0) · C(n-k_0, k_1) · …``; digit ``j`` is the
  rank of pile ``j``'s positions among the positions the earlier piles left.
  Subsets are ranked **lexicographically** by their ascending position list
  (``order="lex"``, Big Deal's Gödel numbering) or **colexicographically**, the
  combinatorial number system ``Σ C(x_i, i+1)`` (``order="colex"``, Andrews').
* **card by card** (:func:`sequence_rank` / :func:`sequence_unrank`): the
  lexicographic rank of the owner sequence among all sequences with the same
  pile sizes.  Each position splits the remaining range into parts proportional
  to the open slots of each pile (Pavlicek's numbering: one number below the
  deal count, read card by card).

>>> sizes = (2, 2, 2)
>>> multinomial(sizes)
90
>>> subsets_unrank(0, sizes), sequence_unrank(89, sizes)
([0, 0, 1, 1, 2, 2], [2, 2, 1, 1, 0, 0])
>>> all(subsets_rank(subsets_unrank(r, sizes), sizes) == r for r in range(90))
True
"""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Sequence
from itertools import combinations, compress
from math import comb
from typing import Any, Literal

from croupier.errors import RankingError, excerpt

__all__ = [
    "SubsetOrder",
    "decimal",
    "decimal_json",
    "lex_table",
    "multinomial",
    "parse_decimal",
    "sequence_rank",
    "sequence_unrank",
    "short_int",
    "split_by_lex_digits",
    "subset_rank",
    "subset_unrank",
    "subsets_rank",
    "subsets_unrank",
    "unrank_lex_mask",
]

SubsetOrder = Literal["lex", "colex"]


def multinomial(sizes: Sequence[int]) -> int:
    """``n! / (k_0! k_1! …)`` with ``n = sum(sizes)``: the number of deals.

    >>> multinomial([13, 13, 13, 13])
    53644737765488792839237440000
    >>> multinomial([])
    1
    """
    total = 0
    result = 1
    for k in sizes:
        if k < 0:
            raise RankingError(f"pile sizes must be >= 0, got {list(sizes)}")
        total += k
        result *= comb(total, k)
    return result


_CHUNK = 1000
"""Digits converted at once by :func:`decimal` and :func:`parse_decimal` (at most the guard)."""


def _chunk() -> int:
    """A chunk length that ``str``/``int`` accept under the current guard (0 means none)."""
    limit = sys.get_int_max_str_digits()
    return _CHUNK if limit == 0 else min(_CHUNK, limit)


def decimal(number: int) -> str:
    """``number`` in decimal, however many digits it has.

    Python refuses ``str()`` of integers over 4,300 digits by default (a guard
    against slow conversions of untrusted text); deal numbers of big layouts
    (thousands of cards) are longer.  Longer numbers are split by divide and
    conquer (``number = high * 10**w + low``) into pieces short enough for
    ``str()``, so the process-wide guard is never changed.

    >>> decimal(53644737765488792839237440000)
    '53644737765488792839237440000'
    >>> len(decimal(10**5000)), decimal(-(10**5000))[:3]
    (5001, '-10')
    """
    try:
        return str(number)
    except ValueError:
        pass
    if number < 0:
        return "-" + decimal(-number)
    chunk = _chunk()
    powers = [10**chunk]  # powers[i] = 10 ** (chunk * 2**i)
    while powers[-1] * powers[-1] <= number:
        powers.append(powers[-1] * powers[-1])
    pieces: list[str] = []

    def write(value: int, level: int, pad: bool) -> None:
        # value < powers[level] ** 2; with pad, write exactly chunk * 2**(level + 1) digits
        if level < 0:
            text = str(value)
            pieces.append(text.zfill(chunk) if pad else text)
            return
        high, low = divmod(value, powers[level])
        if high or pad:
            write(high, level - 1, pad)
            write(low, level - 1, True)
        else:
            write(low, level - 1, False)

    write(number, len(powers) - 1, False)
    return "".join(pieces)


def parse_decimal(text: str) -> int:
    """The integer written in ASCII decimal ``text`` (inverse of :func:`decimal`).

    Callers bound the length first (a deal number has at most as many digits
    as ``M``); like :func:`decimal` it is not limited to 4,300 digits, and
    leaves the process-wide guard alone (long text is parsed in pieces).

    >>> parse_decimal("0042"), parse_decimal("-7")
    (42, -7)
    >>> import json
    >>> json.loads(decimal_json([-(10**5000)]), parse_int=parse_decimal)[0] == -(10**5000)
    True
    >>> parse_decimal(decimal(10**5000)) == 10**5000
    True
    >>> parse_decimal("4x")
    Traceback (most recent call last):
    ...
    croupier.errors.RankingError: bad number '4x'; expected decimal digits 0-9
    """
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise RankingError(f"bad number {excerpt(text)}; expected decimal digits 0-9")
    if digits is not text:
        return -parse_decimal(digits)
    chunk = _chunk()
    powers: dict[int, int] = {}

    def read(digits: str) -> int:
        if len(digits) <= chunk:
            return int(digits)
        width = chunk  # the low part: the largest chunk * 2**k shorter than the text
        while 2 * width < len(digits):
            width *= 2
        if width not in powers:
            powers[width] = 10**width
        return read(digits[:-width]) * powers[width] + read(digits[-width:])

    return read(text)


def short_int(value: int) -> str:
    """An integer for a message: in full when short, else its first digits and length.

    >>> short_int(52), short_int(10**400)
    ('52', '10000000000000000000... (401 digits)')
    """
    text = decimal(value)
    return text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"


def decimal_json(data: Any, **options: Any) -> str:
    """``json.dumps(data, **options)``, with integers of any size written exactly.

    ``json.dumps`` fails on integers over Python's 4,300-digit guard; here they
    are written with :func:`decimal` (still JSON numbers, not strings).

    >>> decimal_json({"order": 10**5000, "name": "x"})[:14]
    '{"order": 1000'
    >>> len(decimal_json([10**5000])) == 5001 + 2
    True
    """
    import json

    big: dict[str, int] = {}
    limit = sys.get_int_max_str_digits()
    max_bits = 3 * limit if limit else None  # 3 bits per digit: safely below the guard

    def swap(value: Any) -> Any:
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if is_int and max_bits is not None and value.bit_length() > max_bits:
            key = f"\x00big-int-{len(big)}\x00"
            big[key] = value
            return key
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(data), **options)
    for key, value in big.items():
        text = text.replace(json.dumps(key), decimal(value), 1)
    return text


def _check_number(number: int, bound: int, what: str = "deal number") -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise RankingError(f"{what} must be an integer, got {number!r}")
    if not 0 <= number < bound:
        raise RankingError(
            f"{what} {decimal(number)} out of range; expected 0 <= number < {decimal(bound)}"
        )


def _check_owners(owners: Sequence[int], sizes: Sequence[int]) -> None:
    if len(owners) != sum(sizes):
        raise RankingError(
            f"owner sequence has {len(owners)} positions; the pile sizes {list(sizes)} "
            f"need {sum(sizes)}"
        )
    counts = [0] * len(sizes)
    for o in owners:
        if not 0 <= o < len(sizes):
            raise RankingError(f"owner {o} is not a pile index 0..{len(sizes) - 1}")
        counts[o] += 1
    if counts != list(sizes):
        raise RankingError(f"pile sizes {counts} do not match the layout's {list(sizes)}")


# -- single subsets -------------------------------------------------------------------


def subset_rank(positions: Sequence[int], n: int, order: SubsetOrder = "lex") -> int:
    """Rank of an ascending ``k``-subset of ``range(n)`` among all ``C(n, k)``.

    ``lex`` orders by the ascending position list; ``colex`` is the
    combinatorial number system ``Σ C(x_i, i+1)``.

    >>> subset_rank([0, 1], 4), subset_rank([2, 3], 4), subset_rank([2, 3], 4, "colex")
    (0, 5, 5)
    >>> subset_rank([0, 3], 4), subset_rank([0, 3], 4, "colex")
    (2, 3)
    """
    k = len(positions)
    if order == "colex":
        return sum(comb(x, i + 1) for i, x in enumerate(positions))
    rank = 0
    start = 0
    for j, p in enumerate(positions):
        need = k - j
        rank += comb(n - start, need) - comb(n - p, need)
        start = p + 1
    return rank


def subset_unrank(rank: int, n: int, k: int, order: SubsetOrder = "lex") -> list[int]:
    """The ascending ``k``-subset of ``range(n)`` with ``rank`` (inverse of :func:`subset_rank`).

    >>> [subset_unrank(r, 4, 2) for r in range(6)]
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    >>> [subset_unrank(r, 4, 2, "colex") for r in range(6)]
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    _check_number(rank, comb(n, k), "subset rank")
    if order == "colex":
        out: list[int] = []
        x = n
        for i in range(k, 0, -1):
            x -= 1
            while comb(x, i) > rank:
                x -= 1
            rank -= comb(x, i)
            out.append(x)
        out.reverse()
        return out
    picks: list[int] = []
    q = 0
    for j in range(k):
        need = k - 1 - j
        while True:
            count = comb(n - 1 - q, need)
            if rank < count:
                break
            rank -= count
            q += 1
        picks.append(q)
        q += 1
    return picks


# -- pile by pile ---------------------------------------------------------------------


def subsets_rank(owners: Sequence[int], sizes: Sequence[int], order: SubsetOrder = "lex") -> int:
    """Pile-by-pile rank of an owner sequence (see the module docstring).

    >>> subsets_rank([0, 0, 1, 1, 2, 2], (2, 2, 2)), subsets_rank([2, 2, 1, 1, 0, 0], (2, 2, 2))
    (0, 89)
    """
    _check_owners(owners, sizes)
    remaining = list(range(len(owners)))
    number = 0
    for pile, k in enumerate(sizes):
        n = len(remaining)
        positions = [i for i, p in enumerate(remaining) if owners[p] == pile]
        number = number * comb(n, k) + subset_rank(positions, n, order)
        remaining = [p for p in remaining if owners[p] != pile]
    return number


def subsets_unrank(number: int, sizes: Sequence[int], order: SubsetOrder = "lex") -> list[int]:
    """The owner sequence with pile-by-pile rank ``number``.

    >>> subsets_unrank(1, (2, 2, 2)), subsets_unrank(6, (2, 2, 2), "colex")
    ([0, 0, 1, 2, 1, 2], [0, 1, 0, 1, 2, 2])
    """
    _check_number(number, multinomial(sizes))
    n = sum(sizes)
    radices = []
    left = n
    for k in sizes:
        radices.append(comb(left, k))
        left -= k
    digits = [0] * len(sizes)
    for j in range(len(sizes) - 1, -1, -1):
        number, digits[j] = divmod(number, radices[j])
    owners = [-1] * n
    remaining = list(range(n))
    for pile, k in enumerate(sizes):
        chosen = subset_unrank(digits[pile], len(remaining), k, order)
        for i in chosen:
            owners[remaining[i]] = pile
        taken = set(chosen)
        remaining = [p for i, p in enumerate(remaining) if i not in taken]
    return owners


# Fast lexicographic subset unranking, by table look-up.  The table of state
# (n positions left, k still to pick) is (cums, entries) with entries[i] =
# (cum, mask, n', k'): the i-th pattern of the next w positions, the number of
# subsets before it, and the state after it.  The width w is as large as keeps
# the table at most _PATTERNS patterns: about 8 positions while a pile is dense,
# many more once few cards (or few gaps) are left to place.
_PATTERNS = 256
_LexEntry = tuple[int, bytes, int, int]
_LexTable = tuple[list[int], list[_LexEntry]]
LEX_TABLES: dict[tuple[int, int], _LexTable] = {}


def _pattern_range(n: int, need: int, width: int) -> range:
    """How many of the next ``width`` positions a ``need``-subset of ``n`` can take."""
    return range(max(0, need - (n - width)), min(need, width) + 1)


def _chunk_width(n: int, need: int) -> int:
    width = 1
    while width < n:
        wider = width + 1
        if sum(comb(wider, t) for t in _pattern_range(n, need, wider)) > _PATTERNS:
            break
        width = wider
    return width


def lex_table(n: int, need: int) -> _LexTable:
    """The look-up table of choosing ``need`` of ``n`` positions (built once, then cached).

    >>> cums, entries = lex_table(3, 1)
    >>> cums, [e[1] for e in entries]
    ([0, 1, 2], [b'\\x01\\x00\\x00', b'\\x00\\x01\\x00', b'\\x00\\x00\\x01'])
    """
    found = LEX_TABLES.get((n, need))
    if found is not None:
        return found
    width = _chunk_width(n, need)
    patterns: list[tuple[int, ...]] = []
    for took in _pattern_range(n, need, width):
        patterns.extend(combinations(range(width), took))
    # Ascending lexicographic order of position lists = descending indicator value.
    patterns.sort(key=lambda pos: sum(1 << (width - 1 - i) for i in pos), reverse=True)
    cums: list[int] = []
    entries: list[_LexEntry] = []
    acc = 0
    for pos in patterns:
        bits = bytes(1 if i in pos else 0 for i in range(width))
        left = need - len(pos)
        cums.append(acc)
        entries.append((acc, bits, n - width, left))
        acc += comb(n - width, left)
    table = (cums, entries)
    LEX_TABLES[(n, need)] = table
    return table


def unrank_lex_mask(rank: int, n: int, k: int) -> bytes:
    """The lexicographic ``k``-subset of ``range(n)`` with ``rank``, as a 0/1 mask.

    The fast path behind dealing: a run of positions is decided per table
    look-up.  The mask may stop short of ``n`` (the rest are all 0).
    ``rank`` must lie in ``[0, C(n, k))`` (not checked here).

    >>> unrank_lex_mask(1, 4, 2)
    b'\\x01\\x00\\x01\\x00'
    >>> list(unrank_lex_mask(1, 4, 2)) == [int(i in subset_unrank(1, 4, 2)) for i in range(4)]
    True
    """
    parts: list[bytes] = []
    while k:
        cums, entries = lex_table(n, k)
        cum, mask, n, k = entries[bisect_right(cums, rank) - 1]
        rank -= cum
        parts.append(mask)
    return b"".join(parts)


_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


def split_by_lex_digits(
    items: Sequence[object], digits: Sequence[int], sizes: Sequence[int]
) -> list[list[object]]:
    """Piles from pile-by-pile lexicographic digits (the fast path, on any items).

    >>> split_by_lex_digits("abcdef", [0, 0, 0], (2, 2, 2))
    [['a', 'b'], ['c', 'd'], ['e', 'f']]
    """
    remaining = list(items)
    piles: list[list[object]] = []
    for digit, k in zip(digits, sizes, strict=True):
        n = len(remaining)
        mask = unrank_lex_mask(digit, n, k)
        piles.append(list(compress(remaining, mask)))
        remaining = list(compress(remaining, mask.translate(_FLIP) + b"\x01" * (n - len(mask))))
    return piles


# -- card by card ---------------------------------------------------------------------


def sequence_rank(owners: Sequence[int], sizes: Sequence[int]) -> int:
    """Lexicographic rank of an owner sequence among those with the same pile sizes.

    >>> sequence_rank([0, 0, 1, 1, 2, 2], (2, 2, 2)), sequence_rank([0, 1, 0, 1, 2, 2], (2, 2, 2))
    (0, 6)
    """
    _check_owners(owners, sizes)
    counts = list(sizes)
    total = len(owners)
    space = multinomial(sizes)
    number = 0
    for o in owners:
        for pile in range(o):
            number += space * counts[pile] // total
        space = space * counts[o] // total
        counts[o] -= 1
        total -= 1
    return number


def sequence_unrank(number: int, sizes: Sequence[int]) -> list[int]:
    """The owner sequence with lexicographic rank ``number`` (inverse of :func:`sequence_rank`).

    >>> sequence_unrank(6, (2, 2, 2))
    [0, 1, 0, 1, 2, 2]
    """
    space = multinomial(sizes)
    _check_number(number, space)
    counts = list(sizes)
    total = sum(sizes)
    owners: list[int] = []
    for _ in range(total):
        for pile, c in enumerate(counts):
            if c == 0:
                continue
            part = space * c // total
            if number < part:
                owners.append(pile)
                counts[pile] -= 1
                space = part
                break
            number -= part
        total -= 1
    return owners
