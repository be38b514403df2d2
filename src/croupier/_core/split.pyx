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


include "leaf_tables.pxi"


cdef extern from "split_kernels.h" nogil:
    int CROUPIER_KEYS_CHUNK
    void croupier_decode(const uint8_t *region, int k, int64_t n, uint16_t *keys)
    uint64_t croupier_field(const uint8_t *buf, int64_t bit, int w)
    void croupier_count_keys(const uint8_t *region, int k, int64_t i_from, int64_t i_to,
                             int64_t *counts)
    int64_t croupier_first_attempts(const int64_t *leaf_sizes, int64_t leaves,
                                    const croupier_leaf_tables *t, const uint8_t *bits,
                                    int64_t *out, int64_t room, int64_t mark, int64_t *marked)
    int64_t croupier_redraw_round(const uint8_t *data, int64_t *todo, int64_t many,
                                  const int64_t *rows, const croupier_leaf_tables *t,
                                  uint64_t *values)
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


cdef croupier_leaf_tables _tables(const int64_t[::1] first, const int64_t[::1] count,
                                  const int64_t[::1] widths, const uint64_t[::1] highest,
                                  const int64_t[::1] top, const int64_t[::1] bottom,
                                  const uint64_t[::1] ranges):
    """The tables as the C kernels take them (``None``: not needed; magic and shift unset)."""
    cdef croupier_leaf_tables t
    t.first = &first[0] if first is not None and first.shape[0] else NULL
    t.count = &count[0] if count is not None and count.shape[0] else NULL
    t.widths = &widths[0] if widths is not None and widths.shape[0] else NULL
    t.highest = &highest[0] if highest is not None and highest.shape[0] else NULL
    t.top = &top[0] if top is not None and top.shape[0] else NULL
    t.bottom = &bottom[0] if bottom is not None and bottom.shape[0] else NULL
    t.ranges = &ranges[0] if ranges is not None and ranges.shape[0] else NULL
    t.magic = NULL
    t.shift = NULL
    return t


def count_keys(const uint8_t[::1] region, int k, Py_ssize_t i_from, Py_ssize_t i_to,
               int64_t[::1] counts):
    """Add the number of items ``i_from .. i_to - 1`` with each ``k``-bit key to ``counts``.

    Item ``i`` has the ``i``-th key of ``region``; ``i_from`` is a multiple of 8.
    """
    if i_to > i_from:
        with nogil:
            croupier_count_keys(&region[0], k, i_from, i_to, &counts[0])


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
    cdef croupier_leaf_tables t = _tables(first, count, widths, highest, None, None, None)
    cdef int64_t got
    cdef int64_t mark_at = 0
    with nogil:
        got = croupier_first_attempts(&leaf_sizes[0], leaf_sizes.shape[0], &t, &bits[0],
                                      &out[0] if out.shape[0] else NULL, out.shape[0], mark,
                                      &mark_at)
    marked[0] = mark_at
    return got


def redraw_round(const uint8_t[::1] data, int64_t[::1] todo, const int64_t[::1] rows,
                 const uint64_t[::1] ranges, const int64_t[::1] widths,
                 const uint64_t[::1] highest, uint64_t[::1] values):
    """One round of redraws from ``data`` for the draws ``todo`` (indices into ``rows``).

    Accepted values go to ``values[i]``; the draws still rejected move to the
    front of ``todo`` and their number is returned.
    """
    cdef croupier_leaf_tables t = _tables(None, None, widths, highest, None, None, ranges)
    cdef int64_t left = 0
    if todo.shape[0] == 0:
        return 0
    with nogil:
        left = croupier_redraw_round(&data[0], &todo[0], todo.shape[0], &rows[0], &t,
                                     &values[0])
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
    cdef croupier_leaf_tables t = _tables(first, count, widths, highest, top, bottom_radix,
                                          ranges)
    if magic.shape[0]:
        t.magic = &magic[0]
        t.shift = &shift[0]
    cdef const uint64_t *again = &redrawn[0] if redrawn.shape[0] else NULL
    if fin.shape[0] == 0 or g_to <= g_from:
        return
    with nogil:
        croupier_fisher_yates(&fin[0, 0], fin.shape[1], &leaf_sizes[0], &t, &bits[0], again,
                              g_from, g_to, start, bit, next_redrawn)


def split_serial(const uint8_t[:, ::1] src, uint8_t[:, ::1] dst, bint numbers, object source,
                 int k, object tables_for, bint in_place):
    """The whole split of at most one level in this thread, with one call per request of bits.

    The same requests, in the same order, and the same arrangement as the passes
    above run one by one: the ``k``-bit keys (none when ``k`` is 0: one leaf),
    the first attempts of the leaf draws, then each round of redraws, every
    request ``source.bits_as_array(nbits, 16)``.  ``tables_for(biggest)`` gives
    ``(tables, magic, shift)`` covering leaves of up to ``biggest`` items.  With
    ``numbers`` the rows are the numbers ``0 .. n - 1`` (4 or 8 bytes) and ``src``
    is not read; with ``in_place`` the result ends in ``src`` (``dst`` is scratch
    space), else in ``dst``.
    """
    cdef Py_ssize_t n = dst.shape[0]
    cdef Py_ssize_t row = dst.shape[1]
    cdef Py_ssize_t i, g, leaves
    cdef int64_t biggest = 0, nbits = 0, chunks = 0, bad, left, need, mark_at = 0
    cdef uint64_t v8
    cdef uint32_t v4
    if n < 2 or (numbers and row not in (4, 8)) or (not numbers and src.shape[1] != row):
        raise ValueError("split_serial takes at least two rows of the same width")
    leaves = 1 << k if k else 1
    sizes_a = np.zeros(leaves, np.int64)
    cdef int64_t[::1] sizes = sizes_a
    cdef const uint8_t[::1] region
    cdef int64_t[::1] pos
    if k:
        region = source.bits_as_array(n * k, 16)
        with nogil:
            croupier_count_keys(&region[0], k, 0, n, &sizes[0])
        pos_a = np.empty(leaves, np.int64)
        pos = pos_a
        with nogil:
            need = 0
            for g in range(leaves):
                pos[g] = need
                need += sizes[g]
            if numbers:
                croupier_scatter_numbers(&dst[0, 0], row, &region[0], k, 0, n, &pos[0])
            else:
                croupier_scatter(&src[0, 0], &dst[0, 0], row, &region[0], k, 0, n, &pos[0])
    else:
        sizes[0] = n
        with nogil:
            if not numbers:
                memcpy(&dst[0, 0], &src[0, 0], n * row)
            elif row == 8:
                for i in range(n):
                    v8 = <uint64_t>i
                    memcpy(&dst[0, 0] + 8 * i, &v8, 8)
            else:
                for i in range(n):
                    v4 = <uint32_t>i
                    memcpy(&dst[0, 0] + 4 * i, &v4, 4)
    for g in range(leaves):
        if sizes[g] > biggest:
            biggest = sizes[g]
    tables, magic_a, shift_a = tables_for(biggest)
    cdef const int64_t[::1] first = tables.first
    cdef const int64_t[::1] count = tables.count
    cdef const int64_t[::1] leaf_bits = tables.leaf_bits
    cdef const uint64_t[::1] magic = magic_a
    cdef const uint64_t[::1] shift = shift_a
    cdef croupier_leaf_tables t = _tables(first, count, tables.widths, tables.highest,
                                          tables.top, tables.bottom, tables.ranges)
    if magic.shape[0]:
        t.magic = &magic[0]
        t.shift = &shift[0]
    for g in range(leaves):
        nbits += leaf_bits[sizes[g]]
        chunks += count[sizes[g]]
    cdef const uint8_t[::1] bottom = source.bits_as_array(nbits, 16)
    rows_a = np.empty(chunks + 1, np.int64)
    cdef int64_t[::1] rows = rows_a
    with nogil:
        bad = croupier_first_attempts(&sizes[0], leaves, &t, &bottom[0], &rows[0], chunks, -1,
                                      &mark_at)
    redrawn_a = np.zeros(bad + 1, np.uint64)
    cdef uint64_t[::1] redrawn = redrawn_a
    todo_a = np.arange(bad + 1, dtype=np.int64)
    cdef int64_t[::1] todo = todo_a
    cdef const uint8_t[::1] data
    left = bad
    while left:
        need = 0
        for i in range(left):
            need += t.widths[rows[todo[i]]]
        data = source.bits_as_array(need, 16)
        with nogil:
            left = croupier_redraw_round(&data[0], &todo[0], left, &rows[0], &t, &redrawn[0])
    cdef uint8_t *fin = &dst[0, 0]
    with nogil:
        croupier_fisher_yates(fin, row, &sizes[0], &t, &bottom[0], &redrawn[0], 0, leaves, 0, 0,
                              0)
    if in_place:
        memcpy(<uint8_t *>&src[0, 0], fin, n * row)
