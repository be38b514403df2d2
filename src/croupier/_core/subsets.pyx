# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Lexicographic subsets as 0/1 masks (the compiled form of
``croupier.ranking.partitions.unrank_lex_mask``, for at most 64 positions).

Subsets are ordered by their position lists, ascending: of the subsets still
possible, those that take the next position come first.  So at each position
``q`` of ``r`` with ``k`` still to take, the ``C(r - q - 1, k - 1)`` subsets that
take it are ranked below the rest.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport uint64_t

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
