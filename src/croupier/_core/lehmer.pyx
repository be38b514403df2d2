# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""A permutation from its rank (the compiled form of
``croupier.shuffling.lehmer.decode_rank_taking_reference``).

The rank's mixed-radix digits ``1, 2, ..., n`` (successive remainders, the
lowest radix first) are taken by dividing the rank, held as 32-bit limbs, by
each radix in turn; the item at place ``digit`` of what is left of the pool is
taken for each digit from the highest radix down.
"""

from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memmove


cdef extern from "limb_divide.h" nogil:
    uint64_t croupier_limbs32_divmod(uint32_t *limbs, long top, uint64_t divisor)


cdef int _digits(const unsigned char *data, Py_ssize_t nbytes, Py_ssize_t n,
                 Py_ssize_t *digits) noexcept nogil:
    """The digits of the little-endian number ``data`` in radices ``1 .. n`` into ``digits``;
    0 when the number is below ``n!``, else 1."""
    cdef Py_ssize_t count = (nbytes + 3) // 4
    cdef uint32_t *limbs = <uint32_t *>malloc(sizeof(uint32_t) * (count + 1))
    cdef Py_ssize_t i, top, r
    cdef uint64_t rem, cur, product
    cdef Py_ssize_t last
    cdef uint32_t limb
    if limbs == NULL:
        return -1
    for i in range(count):
        limb = 0
        for r in range(3, -1, -1):
            if 4 * i + r < nbytes:
                limb = (limb << 8) | data[4 * i + r]
            else:
                limb = limb << 8
        limbs[i] = limb
    top = count
    while top > 0 and limbs[top - 1] == 0:
        top -= 1
    r = 1
    while r <= n:
        # The radices r, r + 1, ..., last whose product fits 32 bits divide the number in one
        # pass; the remainder (below that product) is then split into their digits, lowest
        # radix first: the same digits as one pass per radix, in a fraction of the passes.
        product = r
        last = r
        while last < n and product * <uint64_t>(last + 1) < (<uint64_t>1 << 32):
            last += 1
            product *= <uint64_t>last
        rem = croupier_limbs32_divmod(limbs, top, product)
        while r <= last:
            digits[r - 1] = <Py_ssize_t>(rem % <uint64_t>r)
            rem //= <uint64_t>r
            r += 1
        while top > 0 and limbs[top - 1] == 0:
            top -= 1
    free(limbs)
    return 1 if top > 0 else 0


def decode_rank_taking(list pool, rank):
    """The permutation of rank ``rank`` (``0 <= rank < n!``) of ``pool``'s items, taking them
    out of ``pool`` (left empty)."""
    cdef Py_ssize_t n = len(pool)
    if rank < 0:
        raise ValueError(f"a rank is >= 0, not {rank}")
    cdef bytes data = rank.to_bytes((rank.bit_length() + 7) // 8, "little")
    cdef Py_ssize_t *digits = <Py_ssize_t *>malloc(sizeof(Py_ssize_t) * (n + 1))
    cdef Py_ssize_t *places = <Py_ssize_t *>malloc(sizeof(Py_ssize_t) * (n + 1))
    cdef Py_ssize_t j, d, left
    cdef int past
    if digits == NULL or places == NULL:
        free(digits)
        free(places)
        raise MemoryError()
    past = _digits(data, len(data), n, digits)
    if past != 0:
        free(digits)
        free(places)
        if past < 0:
            raise MemoryError()
        raise ValueError(f"rank {rank} is not below {n}!")
    for j in range(n):
        places[j] = j
    out = PyList_New(n)
    left = n
    for j in range(n):
        d = digits[n - 1 - j]
        item = <object>PyList_GET_ITEM(pool, places[d])
        Py_INCREF(item)
        PyList_SET_ITEM(out, j, item)
        left -= 1
        memmove(&places[d], &places[d + 1], sizeof(Py_ssize_t) * (left - d))
    free(digits)
    free(places)
    del pool[:]
    return out
