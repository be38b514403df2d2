# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Lexicographic subsets as 0/1 masks (the compiled form of
``croupier.ranking.partitions.unrank_lex_mask``, for at most 64 positions).

Subsets are ordered by their position lists, ascending: of the subsets still
possible, those that take the next position come first.  So at each position
``q`` of ``r`` with ``k`` still to take, the ``C(r - q - 1, k - 1)`` subsets that
take it are ranked below the rest.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport uint8_t, uint64_t


cdef extern from "mixed_radix.h" nogil:
    int CROUPIER_RADIX_LIMBS
    uint64_t croupier_limbs_divmod(uint64_t *limbs, int count, uint64_t d)

DEF MOST = 64

cdef uint64_t _binomial[MOST + 1][MOST + 1]


cdef void _fill() noexcept:
    cdef int n, k
    for n in range(MOST + 1):
        _binomial[n][0] = 1
        for k in range(1, MOST + 1):
            _binomial[n][k] = 0 if n == 0 else _binomial[n - 1][k - 1] + _binomial[n - 1][k]


_fill()


cdef bytes _mask(uint64_t rank, int r, int k):
    """The mask over ``r`` positions of the ``k``-subset of lexicographic rank ``rank``."""
    cdef bytes out = PyBytes_FromStringAndSize(NULL, r)
    cdef char *p = PyBytes_AS_STRING(out)
    cdef int q
    cdef uint64_t t
    with nogil:
        for q in range(r):
            if k == 0:
                p[q] = 0
                continue
            t = _binomial[r - q - 1][k - 1]
            if rank < t:
                p[q] = 1
                k -= 1
            else:
                p[q] = 0
                rank -= t
    return out


def lex_masks(digits, sizes, int deck):
    """The masks of every pile but the last: pile ``j`` takes ``sizes[j]`` of the positions
    the piles before it left, the subset of rank ``digits[j]`` (below ``C(left, sizes[j])``).

    ``deck`` is at most 64 cards.
    """
    cdef int piles = len(sizes)
    cdef int r = deck
    cdef int j, k
    cdef uint64_t rank
    if not 0 <= deck <= MOST:
        raise ValueError(f"masks cover at most {MOST} positions, not {deck}")
    out = []
    for j in range(piles - 1):
        k = sizes[j]
        if not 0 <= k <= r:
            raise ValueError(f"pile {j} takes {k} of {r} positions")
        rank = digits[j]
        if rank >= _binomial[r][k]:
            raise ValueError(f"rank {rank} of pile {j} is not below C({r}, {k})")
        out.append(_mask(rank, r, k))
        r -= k
    return tuple(out)


def number_masks(number, sizes, int deck):
    """:func:`lex_masks` of the mixed-radix digits of ``number``: the masks of a deal's number.

    Pile ``j`` takes ``sizes[j]`` of the positions left, and the number's digits are
    read from the last pile back: digit ``j`` is the remainder of the number (divided
    by the radices after it) by ``C(left_j, sizes[j])``, and the first digit is what
    is left.  ``number`` is below the product of the radices, ``deck`` at most 64.
    """
    cdef int piles = len(sizes)
    cdef int j, k, r, q, count
    cdef uint64_t limbs[8]
    cdef uint64_t digits[MOST + 1]
    cdef int lefts[MOST + 1]
    cdef int ks[MOST + 1]
    cdef const uint8_t[:] raw
    if not 0 <= deck <= MOST:
        raise ValueError(f"masks cover at most {MOST} positions, not {deck}")
    if not 1 <= piles <= MOST + 1:
        raise ValueError(f"a deal of {deck} cards has 1 to {MOST + 1} piles, not {piles}")
    if number < 0 or number.bit_length() > 64 * CROUPIER_RADIX_LIMBS:
        raise ValueError(f"deal number {number} is out of range")
    r = deck
    for j in range(piles):
        k = sizes[j]
        if not 0 <= k <= r:
            raise ValueError(f"pile {j} takes {k} of {r} positions")
        lefts[j] = r
        ks[j] = k
        r -= k
    raw = number.to_bytes(8 * CROUPIER_RADIX_LIMBS, "little")
    for j in range(CROUPIER_RADIX_LIMBS):
        limbs[j] = 0
        for q in range(7, -1, -1):
            limbs[j] = (limbs[j] << 8) | raw[8 * j + q]
    count = CROUPIER_RADIX_LIMBS
    for j in range(piles - 1, 0, -1):
        while count > 0 and limbs[count - 1] == 0:
            count -= 1
        digits[j] = croupier_limbs_divmod(limbs, count, _binomial[lefts[j]][ks[j]])
    for j in range(1, CROUPIER_RADIX_LIMBS):
        if limbs[j]:
            raise ValueError(f"deal number {number} is not below the number of deals")
    digits[0] = limbs[0]
    if digits[0] >= _binomial[lefts[0]][ks[0]]:  # (the later digits are remainders)
        raise ValueError(f"deal number {number} is not below the number of deals")
    out = []
    for j in range(piles - 1):
        out.append(_mask(digits[j], lefts[j], ks[j]))
    return tuple(out)
