# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The keyed split shuffle (``croupier-keyed-split/1``), compiled: keys, order, leaves.

The plain-Python specification is :class:`croupier.scale.keyed_split.KeyedStreams`
(its ``keys`` and ``leaf_values``) with ``stable_key_order`` and
``arrange_leaves``; ``croupier.scale.keyed_split`` runs these kernels in its
place, and the tests compare the two on every path (redraws and streams made
longer included).  The streams are SHAKE-128 (``include/shake128.h``), the
draws the split shuffle's chunks (``include/split_kernels.h``); every kernel
releases the interpreter lock.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t


include "leaf_tables.pxi"


cdef extern from "keyed_split.h" nogil:
    int croupier_keyed_keys(const uint8_t *key, int k, int64_t start, int64_t count,
                            uint32_t *keys)
    int croupier_keyed_count(const uint32_t *keys, int64_t i_from, int64_t i_to,
                             int64_t *counts, int64_t size)
    int croupier_keyed_place(const uint32_t *keys, int64_t i_from, int64_t i_to, uint64_t lo,
                             uint64_t hi, int64_t *pos, int64_t size, int64_t *order,
                             int64_t places)
    int croupier_keyed_leaves(const uint8_t *key, const uint64_t *leaves, const int64_t *sizes,
                              const int64_t *starts, int64_t g_from, int64_t g_to,
                              const croupier_leaf_tables *t, const int64_t *leaf_bits,
                              int64_t *order, int64_t *bits)


MAX_KEY_BITS = 32
"""The widest keys these kernels draw (wider ones are drawn by the plain specification)."""


cdef const uint8_t *_key(const uint8_t[::1] key) except NULL:
    if key.shape[0] != 32:
        raise ValueError(f"a keyed split key has 32 bytes, not {key.shape[0]}")
    return &key[0]


def keys(const uint8_t[::1] key, int k, int64_t start, uint32_t[::1] out):
    """The ``k``-bit keys (1 to 32 bits) of items ``start .. start + len(out) - 1`` into ``out``."""
    cdef const uint8_t *p = _key(key)
    cdef int got = 0
    if not 1 <= k <= MAX_KEY_BITS or start < 0:
        raise ValueError(f"keys of 1 to {MAX_KEY_BITS} bits from item 0 on, not {k} bits")
    if out.shape[0] == 0:
        return
    with nogil:
        got = croupier_keyed_keys(p, k, start, out.shape[0], &out[0])
    if got:
        raise MemoryError("no memory for a key block")


def count(const uint32_t[::1] keys, Py_ssize_t i_from, Py_ssize_t i_to, int64_t[::1] counts):
    """Items ``i_from .. i_to - 1`` counted by key: ``counts[key]`` grows by their number."""
    cdef int bad = 0
    if not 0 <= i_from <= i_to <= keys.shape[0]:
        raise ValueError(f"items {i_from} .. {i_to} are not among the {keys.shape[0]} keys")
    if i_to == i_from:
        return
    if counts.shape[0] == 0:
        raise ValueError("no counters")
    with nogil:
        bad = croupier_keyed_count(&keys[0], i_from, i_to, &counts[0], counts.shape[0])
    if bad:
        raise ValueError(f"a key has no counter (of {counts.shape[0]})")


def place(const uint32_t[::1] keys, Py_ssize_t i_from, Py_ssize_t i_to, int64_t[::1] pos,
          int64_t[::1] order, uint64_t lo=0, object hi=None):
    """Items ``i_from .. i_to - 1`` with a key in ``lo .. hi - 1`` (default: every key) put
    in ``order`` at ``pos[key]``, ``pos`` advancing (a stable counting sort of them when
    ``pos`` holds each key's first place for them)."""
    cdef int bad = 0
    cdef uint64_t top = pos.shape[0] if hi is None else hi
    if not 0 <= i_from <= i_to <= keys.shape[0]:
        raise ValueError(f"items {i_from} .. {i_to} are not among the {keys.shape[0]} keys")
    if i_to == i_from or lo >= top:
        return
    if pos.shape[0] == 0 or order.shape[0] == 0:
        raise ValueError("no places")
    with nogil:
        bad = croupier_keyed_place(&keys[0], i_from, i_to, lo, top, &pos[0], pos.shape[0],
                                   &order[0], order.shape[0])
    if bad:
        raise ValueError("a key has no place, or its places pass the end of the order")


def arrange(const uint8_t[::1] key, const uint64_t[::1] leaves, const int64_t[::1] sizes,
            const int64_t[::1] starts, Py_ssize_t g_from, Py_ssize_t g_to,
            const int64_t[::1] first, const int64_t[::1] count, const int64_t[::1] leaf_bits,
            const uint64_t[::1] ranges, const int64_t[::1] widths,
            const uint64_t[::1] highest, const int64_t[::1] top, const int64_t[::1] bottom,
            const uint64_t[::1] magic, const uint64_t[::1] shift, int64_t[::1] order):
    """Leaves ``g_from .. g_to - 1`` arranged in ``order`` from their streams; the bits read.

    Leaf ``g`` (stream ``leaves[g]``) holds ``order[starts[g] : starts[g] + sizes[g]]``.
    The tables are the split shuffle's (``leaf_tables``) covering every size; digits
    are taken by ``magic`` and ``shift`` when they are given (draws below ``2**60``),
    else by division.
    """
    cdef const uint8_t *p = _key(key)
    cdef croupier_leaf_tables t
    cdef int64_t bits = 0, biggest = 0
    cdef int failed = 0
    cdef Py_ssize_t g
    if not (0 <= g_from <= g_to <= leaves.shape[0] == sizes.shape[0] == starts.shape[0]):
        raise ValueError("arrange takes leaves, sizes and starts of one length")
    if g_to == g_from:
        return 0
    for g in range(g_from, g_to):
        if sizes[g] < 0 or starts[g] < 0 or starts[g] + sizes[g] > order.shape[0]:
            raise ValueError(f"leaf {g} lies outside the order")
        if sizes[g] > biggest:
            biggest = sizes[g]
    if biggest >= first.shape[0] or biggest >= count.shape[0] or biggest >= leaf_bits.shape[0]:
        raise ValueError(f"the tables do not cover leaves of {biggest} items")
    if magic.shape[0] and (magic.shape[0] <= biggest or shift.shape[0] <= biggest):
        raise ValueError(f"the reciprocals do not cover radices up to {biggest}")
    t.first = &first[0]
    t.count = &count[0]
    t.widths = &widths[0] if widths.shape[0] else NULL
    t.top = &top[0] if top.shape[0] else NULL
    t.bottom = &bottom[0] if bottom.shape[0] else NULL
    t.ranges = &ranges[0] if ranges.shape[0] else NULL
    t.highest = &highest[0] if highest.shape[0] else NULL
    t.magic = &magic[0] if magic.shape[0] else NULL
    t.shift = &shift[0] if magic.shape[0] else NULL
    with nogil:
        failed = croupier_keyed_leaves(p, &leaves[0], &sizes[0], &starts[0], g_from, g_to, &t,
                                       &leaf_bits[0], &order[0], &bits)
    if failed:
        raise MemoryError("no memory for a leaf's stream")
    return bits
