# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The kernels of bulk dealing (``croupier-bulk/1`` and ``/2``): digits, unranking, masks, stacks.

The compiled forms of the plain-Python specifications of :mod:`croupier.bulk`:

* :func:`accepted_digits`: ``croupier.bulk.digits.accepted_digits_reference``;
* :func:`redraw`: ``croupier.bulk.generate._retry`` (the redraws of one block);
* :func:`unrank_narrow` and :func:`unrank_wide`: ``croupier.bulk.unrank.unrank_reference``;
* :func:`pile_masks`: ``croupier.bulk.array.pile_masks_reference``;
* :func:`order_stacks`: ``croupier.bulk.stacks.order_reference``.

Every kernel works on rows ``lo .. hi - 1`` of arrays the caller made and checks
their shapes first; the loops run with the interpreter lock released, so two
threads fill two parts of one output at once.

Unranking walks each pile's digit over the cards still undealt, in deck order:
at the ``q``-th of them, with ``j`` cards still to pick, the card is skipped when the
digit is at least ``T[q, j]`` (``croupier.bulk.lex_tables.pick_table``), which is then
subtracted, else picked.  Decks of at most 64 cards keep each pile's cards as a
bitmask and walk 32 deals at once (``include/bulk_unrank.h``: with AVX-512 where the
processor has it and every pile but the last holds at most 15 cards).
"""

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc


cdef extern from "bulk_unrank.h" nogil:
    int CROUPIER_BULK_ROW
    void croupier_bulk_init()
    int croupier_bulk_level()
    void croupier_bulk_labels(const uint64_t *cards, int piles, int deck, uint8_t *row)
    uint64_t croupier_bulk_be8(const uint8_t *p, int w)
    uint64_t croupier_bulk_mod53(uint64_t value, uint64_t c, double reciprocal)
    void croupier_bulk_unrank_avx512(
        const uint64_t *digits, int64_t n, int64_t lo, int64_t hi, const int64_t *sizes,
        int piles, int deck, const uint64_t *tables, const int64_t *at,
        const int64_t *stride, uint8_t *out, uint64_t *masks, int64_t mn, int64_t shift)
    void croupier_bulk_unrank_lanes(
        const uint64_t *digits, int64_t n, int64_t lo, int64_t hi, const int64_t *sizes,
        int piles, int deck, const uint64_t *tables, const int64_t *at,
        const int64_t *stride, uint8_t *out, uint64_t *masks, int64_t mn, int64_t shift)


croupier_bulk_init()
cdef int _LEVEL = croupier_bulk_level()

LEVEL = _LEVEL
"""The fastest walk of :func:`unrank_narrow` this processor runs: 2 (AVX-512 and BMI2,
tables of :data:`ROW` a row), else 1 (32 deals side by side); 0 is the scalar walk."""

ROW = CROUPIER_BULK_ROW
"""The row of a pile's table the AVX-512 walk takes: 16 thresholds (picks left 0 .. 15)."""

ctypedef fused card_t:
    uint8_t
    uint16_t


cdef int _check_rows(Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t n) except -1:
    if not 0 <= lo <= hi <= n:
        raise ValueError(f"rows {lo} .. {hi} are not within 0 .. {n}")
    return 0


cdef int _check_dest(Py_ssize_t dest, Py_ssize_t count, Py_ssize_t n) except -1:
    if dest < 0 or dest + count > n:
        raise ValueError(f"{count} rows from row {dest} do not fit an output of {n} rows")
    return 0


def accepted_digits(
    const uint8_t[:, ::1] rows,
    const int64_t[::1] widths,
    const int64_t[::1] offsets,
    const uint64_t[::1] ranges,
    const uint64_t[::1] limits,
    uint64_t[:, ::1] digits,
    int64_t[::1] rejected,
    Py_ssize_t lo,
    Py_ssize_t hi,
):
    """Every digit of rows ``lo .. hi - 1``; returns how many were rejected.

    Digit ``p`` of row ``i`` is bytes ``offsets[p] .. offsets[p] + widths[p] - 1``
    (big-endian, at most 8) modulo ``ranges[p]``, into ``digits[p, i]``.  It is
    rejected when the value is at least ``limits[p]`` (a limit of 0 stands for
    2**64: nothing rejected); the rejected ones are listed in ``rejected``, in
    order, as ``i * piles + p`` (room for one a digit).
    """
    cdef Py_ssize_t piles = widths.shape[0], width = rows.shape[1], i, p, j, o
    cdef Py_ssize_t count = 0, safe
    cdef int w
    cdef uint64_t value, limit, c
    cdef const uint8_t *row
    cdef double reciprocal[256]
    _check_rows(lo, hi, rows.shape[0])
    if (offsets.shape[0] != piles or ranges.shape[0] != piles or limits.shape[0] != piles
            or digits.shape[0] != piles or piles > 256):
        raise ValueError("widths, offsets, ranges, limits and digits disagree (at most 256)")
    if digits.shape[1] < hi or rejected.shape[0] < (hi - lo) * piles:
        raise ValueError("digits need a column for every deal, rejected room for every digit")
    for p in range(piles):
        if not 0 <= widths[p] <= 8 or offsets[p] < 0 or (
                offsets[p] + widths[p] > width) or ranges[p] == 0:
            raise ValueError(f"digit {p} does not fit the rows (width {widths[p]})")
        reciprocal[p] = 1.0 / <double>ranges[p]
    # rows whose every digit can be read as 8 bytes without passing the end of the rows
    safe = hi
    while safe > lo and (rows.shape[0] - safe) * width < 8:
        safe -= 1
    with nogil:
        for i in range(lo, hi):
            row = &rows[i, 0]
            for p in range(piles):
                w = <int>widths[p]
                o = offsets[p]
                if i < safe:
                    value = croupier_bulk_be8(row + o, w)
                else:
                    value = 0
                    for j in range(w):
                        value = (value << 8) | row[o + j]
                limit = limits[p]
                if limit != 0 and value >= limit:
                    rejected[count] = i * piles + p
                    count += 1
                c = ranges[p]
                if value < (<uint64_t>1) << 53:
                    digits[p, i] = croupier_bulk_mod53(value, c, reciprocal[p])
                else:
                    digits[p, i] = value % c
    return count


def redraw(
    const int64_t[::1] rejected,
    const int64_t[::1] widths,
    const uint64_t[::1] ranges,
    const uint64_t[::1] limits,
    uint64_t[:, ::1] digits,
    uint32_t[::1] bits,
    const uint8_t[::1] retry,
    const int64_t[::1] retry_at,
    Py_ssize_t rows_per_block,
):
    """Redraw the ``rejected`` digits (``deal * piles + pile``, ascending: as
    :func:`accepted_digits` lists them) from their blocks' retry streams, in place.

    Block ``b`` (deals ``b * rows_per_block ..``) reads its retry bytes from
    ``retry[retry_at[b] : retry_at[b + 1]]``: its rejected digits in order, each
    redrawn from the next ``widths[p]`` bytes until one is accepted (below
    ``limits[p]``, 0 standing for 2**64; then taken modulo ``ranges[p]``), and
    ``8 * widths[p]`` added to ``bits[deal]`` for every draw.  Returns -1, or the
    first block whose bytes ran out: blocks before it are done, it and the
    blocks after are untouched.
    """
    cdef Py_ssize_t piles = widths.shape[0], count = rejected.shape[0]
    cdef Py_ssize_t blocks = retry_at.shape[0] - 1, k = 0, k2, t, i, p, b, pos, avail, j, w
    cdef int phase
    cdef bint short = False
    cdef Py_ssize_t found = -1
    cdef uint64_t value, limit
    cdef const uint8_t *data
    if ranges.shape[0] != piles or limits.shape[0] != piles or digits.shape[0] != piles or (
            rows_per_block < 1 or blocks < 0):
        raise ValueError("widths, ranges, limits and digits disagree on the piles")
    for p in range(piles):
        if not 0 <= widths[p] <= 8 or ranges[p] == 0:
            raise ValueError(f"digit {p} has width {widths[p]}")
    for b in range(blocks):
        if not 0 <= retry_at[b] <= retry_at[b + 1] <= retry.shape[0]:
            raise ValueError("retry_at is not a run of offsets into retry")
    for t in range(count):
        if not 0 <= rejected[t] < digits.shape[1] * piles or rejected[t] // piles >= bits.shape[0] or (
                rejected[t] // piles // rows_per_block >= blocks) or (t and rejected[t] <= rejected[t - 1]):
            raise ValueError("rejected lists digits of the deals and blocks given, ascending")
    with nogil:
        while k < count:
            b = rejected[k] // piles // rows_per_block
            k2 = k
            while k2 < count and rejected[k2] // piles // rows_per_block == b:
                k2 += 1
            data = &retry[0] + retry_at[b]
            avail = retry_at[b + 1] - retry_at[b]
            for phase in range(2):  # 0: are the bytes enough?  1: redraw
                pos = 0
                short = False
                for t in range(k, k2):
                    i = rejected[t] // piles
                    p = rejected[t] % piles
                    w = widths[p]
                    limit = limits[p]
                    while True:
                        if pos + w > avail:
                            short = True
                            break
                        value = 0
                        for j in range(w):
                            value = (value << 8) | data[pos + j]
                        pos += w
                        if phase:
                            bits[i] += <uint32_t>(8 * w)
                        if limit == 0 or value < limit:
                            if phase:
                                digits[p, i] = value % ranges[p]
                            break
                    if short:
                        break
                if short:
                    break
            if short:
                found = b
                break
            k = k2
    return found


cdef int _check_tables(const int64_t[::1] sizes, const uint64_t[::1] tables,
                       const int64_t[::1] at, const int64_t[::1] stride, int deck) except -1:
    """Every pile's table within ``tables``: a row of ``stride[p] > sizes[p]`` per card left."""
    cdef Py_ssize_t p, left = deck
    if at.shape[0] < sizes.shape[0] or stride.shape[0] < sizes.shape[0]:
        raise ValueError("at and stride need an entry for every pile")
    for p in range(sizes.shape[0] - 1):
        if sizes[p] < 0 or sizes[p] > left or stride[p] <= sizes[p] or at[p] < 0 or (
                at[p] + left * stride[p] > tables.shape[0]):
            raise ValueError(f"the table of pile {p} does not fit (size {sizes[p]})")
        left -= sizes[p]
    if sizes[sizes.shape[0] - 1] != left:
        raise ValueError("the pile sizes do not add up to the deck")
    return 0


def unrank_narrow(
    const uint64_t[:, ::1] digits,
    const int64_t[::1] sizes,
    const uint64_t[::1] tables,
    const int64_t[::1] at,
    const int64_t[::1] stride,
    uint8_t[:, ::1] out,
    uint64_t[:, ::1] masks,
    Py_ssize_t lo,
    Py_ssize_t hi,
    Py_ssize_t dest,
    int level=-1,
):
    """Deals ``lo .. hi - 1`` of the digits ``(piles, n)`` of a deck of at most 64 cards,
    into rows ``dest ..`` of ``out`` (the pile of every card) and ``masks`` ``(piles, rows)``
    (every pile's cards as a bitmask).

    Pile ``p``'s thresholds are ``tables[at[p] + q * stride[p] + j]``.  The fastest walk
    up to ``level`` runs (-1: :data:`LEVEL`; 2 needs every stride :data:`ROW`; 0: the
    scalar walk): the same deals.
    """
    cdef int piles = sizes.shape[0], deck = out.shape[1]
    cdef Py_ssize_t n = digits.shape[1], rows = out.shape[0], i, p, q, left, row_at
    cdef uint64_t full, rest, it, bit, picked, d, t, skip
    cdef int64_t j, s
    cdef const uint64_t *table
    cdef uint64_t cards[64]
    cdef int walk = _LEVEL if level < 0 or level > _LEVEL else level
    _check_rows(lo, hi, n)
    _check_dest(dest, hi - lo, rows)
    if deck > 64 or not 1 <= piles <= 64:
        raise ValueError("unrank_narrow takes decks of at most 64 cards and 1 .. 64 piles")
    if digits.shape[0] < piles - 1 or masks.shape[0] != piles or masks.shape[1] != rows:
        raise ValueError("digits, out and masks disagree on the deals or the piles")
    _check_tables(sizes, tables, at, stride, deck)
    for p in range(piles - 1):
        if stride[p] != CROUPIER_BULK_ROW and walk == 2:
            walk = 1
    if hi == lo:
        return
    if walk and piles > 1:
        with nogil:
            if walk == 2:
                croupier_bulk_unrank_avx512(&digits[0, 0], n, lo, hi, &sizes[0], piles, deck,
                                            &tables[0], &at[0], &stride[0], &out[0, 0],
                                            &masks[0, 0], rows, dest - lo)
            else:
                croupier_bulk_unrank_lanes(&digits[0, 0], n, lo, hi, &sizes[0], piles, deck,
                                           &tables[0], &at[0], &stride[0], &out[0, 0],
                                           &masks[0, 0], rows, dest - lo)
        return
    full = ~(<uint64_t>0) if deck == 64 else ((<uint64_t>1) << deck) - 1
    with nogil:
        for i in range(lo, hi):
            row_at = dest + i - lo
            rest = full
            left = deck
            for p in range(piles - 1):
                d = digits[p, i]
                j = sizes[p]
                s = stride[p]
                table = &tables[at[p]]
                it = rest
                picked = 0
                for q in range(left):
                    bit = it & (~it + 1)  # the next card still undealt
                    it ^= bit
                    t = table[q * s + j]
                    skip = d >= t  # branch-free: 1 skips the card, 0 picks it
                    d -= t & (0 - skip)
                    picked |= bit & (skip - 1)
                    j -= <int64_t>(1 - skip)
                cards[p] = picked
                masks[p, row_at] = picked
                rest &= ~picked
                left -= sizes[p]
            cards[piles - 1] = rest
            masks[piles - 1, row_at] = rest
            croupier_bulk_labels(cards, piles, deck, &out[row_at, 0])


def unrank_wide(
    const uint64_t[:, ::1] digits,
    const int64_t[::1] sizes,
    const uint64_t[::1] tables,
    const int64_t[::1] at,
    const int64_t[::1] stride,
    uint8_t[:, ::1] out,
    Py_ssize_t lo,
    Py_ssize_t hi,
    Py_ssize_t dest,
):
    """Deals ``lo .. hi - 1`` of the digits ``(piles, n)`` of any deck (1 .. 255 piles), into
    rows ``dest ..`` of ``out`` (the pile of every card); tables as for :func:`unrank_narrow`."""
    cdef int piles = sizes.shape[0], deck = out.shape[1]
    cdef Py_ssize_t n = digits.shape[1], i, p, q, left, kept, row_at
    cdef uint64_t d, t
    cdef int64_t j, s, c
    cdef const uint64_t *table
    cdef int64_t *undealt
    _check_rows(lo, hi, n)
    _check_dest(dest, hi - lo, out.shape[0])
    if not 1 <= piles <= 255 or digits.shape[0] < piles - 1:
        raise ValueError("unrank_wide takes 1 .. 255 piles and a row of digits for each")
    _check_tables(sizes, tables, at, stride, deck)
    undealt = <int64_t *>malloc((deck + 1) * sizeof(int64_t))  # the cards still undealt
    if undealt == NULL:
        raise MemoryError()
    with nogil:
        for i in range(lo, hi):
            row_at = dest + i - lo
            for q in range(deck):
                undealt[q] = q
            left = deck
            for p in range(piles - 1):
                d = digits[p, i]
                j = sizes[p]
                s = stride[p]
                table = &tables[at[p]]
                kept = 0
                for q in range(left):
                    c = undealt[q]
                    t = table[q * s + j]
                    if d >= t:  # skipped: still undealt, kept in order
                        d -= t
                        undealt[kept] = c
                        kept += 1
                    else:
                        out[row_at, c] = <uint8_t>p
                        j -= 1
                left = kept
            for q in range(left):
                out[row_at, undealt[q]] = <uint8_t>(piles - 1)
    free(undealt)


def pile_masks(const uint8_t[:, ::1] piles, uint64_t[:, ::1] out, Py_ssize_t lo, Py_ssize_t hi):
    """Rows ``lo .. hi - 1`` of ``out`` ``(n, count)`` from the deal array ``piles``: bit ``c``
    of ``out[i, p]`` is set when card ``c`` is in pile ``p`` (decks of at most 64 cards;
    the rows are overwritten)."""
    cdef Py_ssize_t i, c, p, deck = piles.shape[1], count = out.shape[1]
    cdef uint8_t owner
    _check_rows(lo, hi, piles.shape[0])
    if deck > 64 or out.shape[0] != piles.shape[0]:
        raise ValueError("pile_masks takes decks of at most 64 cards and one row a deal")
    with nogil:
        for i in range(lo, hi):
            for p in range(count):
                out[i, p] = 0
            for c in range(deck):
                owner = piles[i, c]
                if owner < count:
                    out[i, owner] |= (<uint64_t>1) << c


def order_stacks(
    const card_t[:, ::1] cards,
    const uint64_t[:, ::1] digits,
    const int64_t[::1] radices,
    const int64_t[::1] chunk_sizes,
    const int64_t[::1] stack_sizes,
    card_t[:, ::1] out,
    Py_ssize_t lo,
    Py_ssize_t hi,
    Py_ssize_t dest,
):
    """Deals ``lo .. hi - 1``: every stack's cards (side by side in ``cards``, each in deck
    order) swapped into the order of the deal's chunk digits ``(chunks, n)``, into rows
    ``dest ..`` of ``out``.

    Chunk ``c`` is the next ``chunk_sizes[c]`` Fisher–Yates offsets in mixed radix
    (``radices``, the first most significant); a stack of ``k`` cards swaps position
    ``a`` with ``a + offset`` for its first ``k - 1`` positions, in order.
    """
    cdef Py_ssize_t n = cards.shape[0], width = cards.shape[1], i, c, t, at, s, k, x, a, b
    cdef Py_ssize_t start, used, row_at, total = 0, chunks = chunk_sizes.shape[0]
    cdef uint64_t value, q
    cdef card_t top
    cdef int64_t *offsets
    _check_rows(lo, hi, n)
    _check_dest(dest, hi - lo, out.shape[0])
    for c in range(chunks):
        total += chunk_sizes[c]
    if total != radices.shape[0] or digits.shape[0] != chunks or (
            chunks and digits.shape[1] != n) or out.shape[1] != width:
        raise ValueError("cards, digits, radices, chunk sizes and out disagree")
    total = 0
    for s in range(stack_sizes.shape[0]):
        if stack_sizes[s] < 1:
            raise ValueError("a stack holds at least one card")
        total += stack_sizes[s] - 1
    if total != radices.shape[0]:
        raise ValueError("the stacks need one radix for each card but their last")
    total = 0
    for s in range(stack_sizes.shape[0]):
        total += stack_sizes[s]
    if total != width:
        raise ValueError("the stack sizes do not add up to the cards of a row")
    for x in range(radices.shape[0]):
        if radices[x] < 1:
            raise ValueError("a radix is at least 1")
    offsets = <int64_t *>malloc((radices.shape[0] + 1) * sizeof(int64_t))  # one deal's
    if offsets == NULL:
        raise MemoryError()
    with nogil:
        for i in range(lo, hi):
            row_at = dest + i - lo
            at = 0
            for c in range(chunks):
                value = digits[c, i]
                for t in range(chunk_sizes[c] - 1, -1, -1):
                    q = <uint64_t>radices[at + t]
                    offsets[at + t] = <int64_t>(value % q)
                    value = value // q
                at += chunk_sizes[c]
            for x in range(width):
                out[row_at, x] = cards[i, x]
            start = 0
            used = 0
            for s in range(stack_sizes.shape[0]):
                k = stack_sizes[s]
                for x in range(k - 1):
                    a = start + x
                    b = a + offsets[used + x]
                    if b >= start + k:  # an offset past the stack: a digit out of range
                        b = start + k - 1
                    top = out[row_at, a]
                    out[row_at, a] = out[row_at, b]
                    out[row_at, b] = top
                start += k
                used += k - 1
    free(offsets)
