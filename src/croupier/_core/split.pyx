# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The split shuffle's passes over memory (``croupier-shuffle-split/1``), compiled.

The plain-Python specification is ``croupier.shuffling.split._python_order``;
``croupier.shuffling.split_move`` runs these kernels in order (and in two
threads: every kernel releases the interpreter lock).  Items are rows of
``row`` bytes (``(n, row)`` arrays of ``uint8``), so one kernel moves any
dtype and whole rows of 2-D arrays.  Keys and draws are big-endian bit fields
of a region of the source's bits padded with 16 zero bytes (the kernels read
ahead).
"""

import numpy as np

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy


cdef extern from "split_kernels.h" nogil:
    ctypedef struct croupier_leaf_tables:
        const int64_t *first
        const int64_t *count
        const int64_t *widths
        const int64_t *top
        const int64_t *bottom
        const uint64_t *ranges
        const uint64_t *highest
        const uint64_t *magic
        const uint64_t *shift
    int CROUPIER_KEYS_CHUNK
    void croupier_decode(const uint8_t *region, int k, int64_t n, uint16_t *keys)
    uint64_t croupier_field(const uint8_t *buf, int64_t bit, int w)
    void croupier_scatter(const uint8_t *src, uint8_t *dst, int64_t row, const uint8_t *region,
                          int k, int64_t i_from, int64_t i_to, int64_t *pos)
    void croupier_scatter_numbers(uint8_t *dst, int64_t row, const uint8_t *region, int k,
                                  int64_t i_from, int64_t i_to, int64_t *pos)
    void croupier_sort_bucket(const uint8_t *src, uint8_t *dst, int64_t row, int64_t size,
                              const uint16_t *keys, int64_t *pos)
    void croupier_fisher_yates(uint8_t *fin, int64_t row, const int64_t *leaf_sizes,
                               const croupier_leaf_tables *t, const uint8_t *bits,
                               const uint64_t *redrawn, int64_t g_from, int64_t g_to,
                               int64_t start, int64_t bit, int64_t next_redrawn)


cdef inline int _bit_length(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x >>= 1
        n += 1
    return n


DEF CHUNK = 4096  # keys decoded at a time by count_keys


def count_keys(const uint8_t[::1] region, int k, Py_ssize_t i_from, Py_ssize_t i_to,
               int64_t[::1] counts):
    """Add the number of items ``i_from .. i_to - 1`` with each ``k``-bit key to ``counts``.

    Item ``i`` has the ``i``-th key of ``region``; ``i_from`` is a multiple of 8.
    """
    cdef uint16_t keys[CHUNK]
    cdef Py_ssize_t i0, i, m
    with nogil:
        i0 = i_from
        while i0 < i_to:
            m = CHUNK if i_to - i0 > CHUNK else i_to - i0
            croupier_decode(&region[0] + (i0 // 8) * k, k, m, keys)
            for i in range(m):
                counts[keys[i]] += 1
            i0 += CHUNK


def scatter(const uint8_t[:, ::1] src, uint8_t[:, ::1] dst, const uint8_t[::1] region, int k,
            Py_ssize_t i_from, Py_ssize_t i_to, int64_t[::1] pos, bint numbers):
    """Move rows ``i_from .. i_to - 1`` of ``src`` to ``dst[pos[key]]`` in order (``pos`` advances).

    With ``pos`` the first free place of each key's bucket, this is a stable
    counting sort of those rows.  With ``numbers`` the rows moved are the
    numbers ``i_from, i_from + 1, ...`` written as ``dst``'s row width (4 or 8
    bytes, native order): a permutation, made without reading ``src``.
    """
    cdef Py_ssize_t row = dst.shape[1]
    if numbers and row not in (4, 8):
        raise ValueError(f"numbers are written as 4 or 8 bytes, not {row}")
    if not numbers and src.shape[1] != row:
        raise ValueError("src and dst rows differ")
    if i_to <= i_from:
        return
    with nogil:
        if numbers:
            croupier_scatter_numbers(&dst[0, 0], row, &region[0], k, i_from, i_to, &pos[0])
        else:
            croupier_scatter(&src[0, 0], &dst[0, 0], row, &region[0], k, i_from, i_to, &pos[0])


def second_level(const uint8_t[:, ::1] mid, uint8_t[:, ::1] fin, const uint8_t[::1] region,
                 int k, const int64_t[::1] counts, int64_t[::1] leaf_sizes,
                 Py_ssize_t b_from, Py_ssize_t b_to, Py_ssize_t start):
    """Buckets ``b_from .. b_to - 1`` of ``mid`` each stably sorted by its items' keys into
    ``fin``; bucket ``b_from`` begins at item ``start``.

    Item ``p`` (in ``mid``'s order) has the ``p``-th ``k``-bit key of ``region``.
    Bucket ``b``'s leaves are counted into ``leaf_sizes[b << k :]`` while the
    bucket sits in the cache.  ``fin`` may be ``mid`` itself (each bucket is then
    copied aside first).
    """
    cdef Py_ssize_t row = mid.shape[1]
    cdef bint same = &fin[0, 0] == &mid[0, 0]
    cdef Py_ssize_t biggest = 0
    cdef Py_ssize_t b, i, j, size, base, aligned, skip, acc
    cdef int64_t *pos
    cdef uint16_t *keys
    cdef uint8_t *temp = NULL
    cdef const uint8_t *src
    cdef const uint8_t *bucket
    cdef uint8_t *out = &fin[0, 0]
    for b in range(b_from, b_to):
        if counts[b] > biggest:
            biggest = counts[b]
    pos = <int64_t *>malloc(sizeof(int64_t) << k)
    keys = <uint16_t *>malloc(sizeof(uint16_t) * (biggest + 8))
    if same:
        temp = <uint8_t *>malloc(biggest * row + 1)
    if pos == NULL or keys == NULL or (same and temp == NULL):
        free(pos)
        free(keys)
        free(temp)
        raise MemoryError()
    with nogil:
        for b in range(b_from, b_to):
            size = counts[b]
            if size == 0:
                continue
            base = b << k
            aligned = start - start % 8
            skip = start - aligned
            croupier_decode(&region[0] + (aligned // 8) * k, k, skip + size, keys)
            for i in range(size):
                leaf_sizes[base + keys[skip + i]] += 1
            acc = start
            for j in range(1 << k):
                pos[j] = acc
                acc += leaf_sizes[base + j]
            bucket = &mid[0, 0] + start * row
            if same:  # the bucket is read from a copy, then sorted back in place
                memcpy(temp, bucket, size * row)
                src = temp
            else:
                src = bucket
            croupier_sort_bucket(src, out, row, size, keys + skip, pos)
            start += size
    free(pos)
    free(keys)
    free(temp)


def leaf_plans(const int64_t[::1] sizes, int chunk_bits, int margin):
    """The chunk tables of every leaf size in ``sizes`` (ascending), as
    ``croupier.shuffling.split.chunk_plan`` makes them: ``first, count, leaf_bits``
    (indexed by size) and ``ranges, widths, highest, top, bottom`` (by chunk)."""
    cdef Py_ssize_t biggest = sizes[sizes.shape[0] - 1] if sizes.shape[0] else 0
    first_a = np.zeros(biggest + 1, np.int64)
    count_a = np.zeros(biggest + 1, np.int64)
    bits_a = np.zeros(biggest + 1, np.int64)
    cdef int64_t[::1] first = first_a
    cdef int64_t[::1] count = count_a
    cdef int64_t[::1] leaf_bits = bits_a
    cdef uint64_t limit = (<uint64_t>1) << chunk_bits
    cdef Py_ssize_t total = 0, at = 0, i
    cdef int64_t m, r
    cdef uint64_t product, space
    cdef int w
    for i in range(sizes.shape[0]):
        m = sizes[i]
        r = m
        while r >= 2:
            product = <uint64_t>r
            r -= 1
            while r >= 2 and product <= limit // <uint64_t>r:
                product *= <uint64_t>r
                r -= 1
            count[m] += 1
        total += count[m]
    ranges_a = np.empty(total, np.uint64)
    widths_a = np.empty(total, np.int64)
    highest_a = np.empty(total, np.uint64)
    top_a = np.empty(total, np.int64)
    bottom_a = np.empty(total, np.int64)
    cdef uint64_t[::1] ranges = ranges_a
    cdef int64_t[::1] widths = widths_a
    cdef uint64_t[::1] highest = highest_a
    cdef int64_t[::1] top = top_a
    cdef int64_t[::1] bottom = bottom_a
    for i in range(sizes.shape[0]):
        m = sizes[i]
        first[m] = at
        r = m
        while r >= 2:
            top[at] = r
            product = <uint64_t>r
            r -= 1
            while r >= 2 and product <= limit // <uint64_t>r:
                product *= <uint64_t>r
                r -= 1
            bottom[at] = r + 1
            w = _bit_length(product - 1) + margin
            if w >= 64:
                highest[at] = (<uint64_t>0) - ((<uint64_t>0) - product) % product - 1
            else:
                space = (<uint64_t>1) << w
                highest[at] = space - space % product - 1
            ranges[at] = product
            widths[at] = w
            leaf_bits[m] += w
            at += 1
    return first_a, count_a, bits_a, ranges_a, widths_a, highest_a, top_a, bottom_a


def first_attempts(const int64_t[::1] leaf_sizes, const int64_t[::1] first,
                   const int64_t[::1] count, const int64_t[::1] widths,
                   const uint64_t[::1] highest, const uint8_t[::1] bits, int64_t[::1] out,
                   Py_ssize_t mark, int64_t[::1] marked):
    """Every leaf draw's first attempt: the table rows of the rejected ones, in order, in ``out``.

    Returns how many were rejected, or -1 when ``out`` is too small.  How many
    were rejected in the leaves before leaf ``mark`` goes to ``marked[0]``.
    """
    cdef int64_t bit = 0
    cdef Py_ssize_t rejected = 0, g, j, f, room = out.shape[0]
    cdef int64_t m
    cdef int w
    cdef bint full = False
    cdef const uint8_t *data = &bits[0]
    with nogil:
        for g in range(leaf_sizes.shape[0]):
            if g == mark:
                marked[0] = rejected
            m = leaf_sizes[g]
            if m < 2:
                continue
            f = first[m]
            for j in range(count[m]):
                w = <int>widths[f + j]
                if croupier_field(data, bit, w) > highest[f + j]:
                    if rejected == room:
                        full = True
                        break
                    out[rejected] = f + j
                    rejected += 1
                bit += w
            if full:
                break
    return -1 if full else rejected


def redraw_round(const uint8_t[::1] data, int64_t[::1] todo, const int64_t[::1] rows,
                 const uint64_t[::1] ranges, const int64_t[::1] widths,
                 const uint64_t[::1] highest, uint64_t[::1] values):
    """One round of redraws from ``data`` for the draws ``todo`` (indices into ``rows``).

    Accepted values go to ``values[i]``; the draws still rejected move to the
    front of ``todo`` and their number is returned.
    """
    cdef int64_t bit = 0
    cdef Py_ssize_t left = 0, t, i, row
    cdef int w
    cdef uint64_t v
    with nogil:
        for t in range(todo.shape[0]):
            i = todo[t]
            row = rows[i]
            w = <int>widths[row]
            v = croupier_field(&data[0], bit, w)
            bit += w
            if v <= highest[row]:
                values[i] = v % ranges[row]
            else:
                todo[left] = i
                left += 1
    return left


def fisher_yates(uint8_t[:, ::1] fin, const int64_t[::1] leaf_sizes, const int64_t[::1] first,
                 const int64_t[::1] count, const uint64_t[::1] ranges,
                 const int64_t[::1] widths, const uint64_t[::1] highest,
                 const int64_t[::1] top, const int64_t[::1] bottom_radix,
                 const uint8_t[::1] bits, const uint64_t[::1] redrawn,
                 const uint64_t[::1] magic, const uint64_t[::1] shift,
                 Py_ssize_t g_from, Py_ssize_t g_to, Py_ssize_t start, int64_t bit,
                 Py_ssize_t next_redrawn):
    """Fisher–Yates in leaves ``g_from .. g_to - 1``, its choices the mixed-radix digits of
    their draws.

    A draw's value is its first attempt in ``bits`` when accepted, else the next
    value of ``redrawn`` (the rejected draws' final values, in order).
    ``start``, ``bit`` and ``next_redrawn`` are where leaf ``g_from`` begins.
    Digits are taken by multiplying with ``magic`` and shifting by ``shift``
    when ``magic`` covers every radix (draws below ``2**60``), else by division.
    """
    cdef croupier_leaf_tables t
    t.first = &first[0]
    t.count = &count[0]
    t.widths = &widths[0] if widths.shape[0] else NULL
    t.top = &top[0] if top.shape[0] else NULL
    t.bottom = &bottom_radix[0] if bottom_radix.shape[0] else NULL
    t.ranges = &ranges[0] if ranges.shape[0] else NULL
    t.highest = &highest[0] if highest.shape[0] else NULL
    t.magic = &magic[0] if magic.shape[0] else NULL
    t.shift = &shift[0] if magic.shape[0] else NULL
    cdef const uint64_t *again = &redrawn[0] if redrawn.shape[0] else NULL
    if fin.shape[0] == 0 or g_to <= g_from:
        return
    with nogil:
        croupier_fisher_yates(&fin[0, 0], fin.shape[1], &leaf_sizes[0], &t, &bits[0], again,
                              g_from, g_to, start, bit, next_redrawn)
