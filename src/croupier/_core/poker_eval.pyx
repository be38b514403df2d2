# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Poker hand evaluation: the compiled forms of the plain-Python scalar evaluator of
:mod:`croupier.poker.evaluate` (``_best_value``, ``_omaha_value``).

* :func:`evaluate_rows`: the best five of each row of 5, 6 or 7 card numbers;
* :func:`evaluate_masks`: the same from card bitmasks (5 to 7 bits a row);
* :func:`evaluate_codes`: the same from sums of card codes and card bitmasks;
* :func:`evaluate_omaha`: Omaha, exactly two hole cards and three of the board;
* :func:`holdem_boards` and :func:`holdem_trials`: hold'em showdowns tallied, every
  matchup on every board (exact equity) or one matchup on one board a trial (Monte Carlo);
* :func:`omaha_boards`: Omaha showdowns of fixed hands tallied, one board at a time.

The tables are :mod:`croupier.poker.tables`' (a :class:`Lookup` holds them for one hand
size): a hand's card codes add up to a rank key and four suit counters; a suit with five
cards gives the value from the flush table (indexed by that suit's cards), else the rank
key is looked up in the no-flush table through a row-displacement perfect hash
(``values[offsets[key >> shift] + key % 2**shift]``, :func:`place_rows`), small enough
to stay in the processor's cache.

Every kernel works on rows ``lo .. hi - 1`` and runs its loops with the interpreter lock
released, so two threads fill two parts of one output at once.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

cdef extern from *:
    int _ctz "__builtin_ctzll"(unsigned long long) nogil

cdef enum:
    KEY_MASK = 0xFFFFFF      # the rank key: bits 0 .. 23 of a sum of card codes
    SUIT_SHIFT = 24          # the suit counters: 3 bits a suit above the rank key
    BAD_BIT = 40             # set in the code of a number above 51 (seven of them fit)
    MOST_PLAYERS = 10


cdef struct Tabs:
    const uint64_t *code         # 256 entries: the card codes, BAD for 52 .. 255
    const uint32_t *suit_sum     # 8192: one suit's cards (ace first) to the sum of their
                                 # rank keys plus their count times 2**24
    const int8_t *flush_suit     # 4096: suit counters to the suit with five cards, else 4
    const uint16_t *flush        # 8192: one suit's cards (ace first) to the best flush
    const uint32_t *offsets      # a row of the rank-key space to its place in values
    const uint16_t *values       # the no-flush values, rows overlaid
    uint32_t shift
    uint32_t columns             # 2**shift - 1


cdef class Lookup:
    """The tables of one hand size (5, 6 or 7 cards), as the kernels read them.

    ``card_code`` (52 card codes), ``flush_suit`` and ``flush`` are
    :class:`croupier.poker.tables.Tables`' arrays; ``offsets`` and ``values`` the perfect
    hash of the no-flush table of that size, ``shift`` the bits of a row's column.
    """

    cdef uint64_t _code[256]
    cdef uint32_t _suit_sum[8192]
    cdef const int8_t[::1] _flush_suit
    cdef const uint16_t[::1] _flush
    cdef const uint32_t[::1] _offsets
    cdef const uint16_t[::1] _values
    cdef Tabs tabs
    cdef readonly int size

    def __init__(
        self,
        int size,
        const uint64_t[::1] card_code,
        const int8_t[::1] flush_suit,
        const uint16_t[::1] flush,
        const uint32_t[::1] offsets,
        const uint16_t[::1] values,
        int shift,
    ):
        cdef Py_ssize_t i, j, top = 0
        cdef uint32_t key
        if not 5 <= size <= 7:
            raise ValueError(f"a hand has 5, 6 or 7 cards, not {size}")
        if card_code.shape[0] != 52 or flush_suit.shape[0] != 4096 or flush.shape[0] != 8192:
            raise ValueError("card_code, flush_suit and flush must have 52, 4096 and 8192 entries")
        if not 1 <= shift <= 24 or offsets.shape[0] != (1 << (24 - shift)):
            raise ValueError("offsets must have one entry for each of the 2**(24 - shift) rows")
        for i in range(offsets.shape[0]):
            if offsets[i] > top:
                top = offsets[i]
        if values.shape[0] < top + (1 << shift):
            raise ValueError("values must hold every row at its offset")
        for i in range(4096):
            if not 0 <= flush_suit[i] <= 4:
                raise ValueError("flush_suit holds suits 0..3 or 4")
        self.size = size
        for i in range(256):
            self._code[i] = card_code[i] if i < 52 else (1ULL << BAD_BIT)
        for i in range(8192):
            key = 0
            for j in range(13):
                if i >> j & 1:
                    key += <uint32_t>(card_code[j] & KEY_MASK) + (1U << SUIT_SHIFT)
            self._suit_sum[i] = key
        self._flush_suit = flush_suit
        self._flush = flush
        self._offsets = offsets
        self._values = values
        self.tabs.code = self._code
        self.tabs.suit_sum = self._suit_sum
        self.tabs.flush_suit = &flush_suit[0]
        self.tabs.flush = &flush[0]
        self.tabs.offsets = &offsets[0]
        self.tabs.values = &values[0]
        self.tabs.shift = shift
        self.tabs.columns = (1U << shift) - 1


cdef inline uint64_t _bits_at(const uint64_t *bits, Py_ssize_t at) noexcept nogil:
    """The 64 bits of a bitset from bit ``at`` on (bit 0 of the result is bit ``at``)."""
    cdef Py_ssize_t word = at >> 6
    cdef int shift = at & 63
    if shift == 0:
        return bits[word]
    return (bits[word] >> shift) | (bits[word + 1] << (64 - shift))


def place_rows(
    const int64_t[::1] starts,
    const uint32_t[::1] columns,
    const int64_t[::1] order,
    int width,
    uint32_t[::1] offsets,
):
    """Row displacement: place the rows of a sparse table side by side in one array.

    Row ``r`` holds the columns ``columns[starts[r]:starts[r + 1]]`` (ascending, below
    ``width``).  The rows are placed in ``order``, each at the first offset (from the first
    free cell on, less its first column) where none of its columns meets a cell taken
    before; ``offsets[r]`` is set for every row of ``order`` (the others are left as they
    are).  Returns the cells used (``max(offsets[r] + last column) + 1``, 0 for none).
    """
    cdef Py_ssize_t rows = starts.shape[0] - 1, count = order.shape[0], i, j, r
    cdef Py_ssize_t first, last, cells = 0, free_at = 0, size = columns.shape[0]
    cdef Py_ssize_t words, base, at = 0, filled = 0
    cdef uint64_t clash
    cdef uint64_t *bits
    if offsets.shape[0] < rows:
        raise ValueError("offsets must have a place for every row")
    if width < 1:
        raise ValueError("width must be at least 1")
    for i in range(count):
        r = order[i]
        if not 0 <= r < rows or not 0 <= starts[r] <= starts[r + 1] <= size:
            raise ValueError("order and starts must name rows of columns")
        filled += starts[r + 1] > starts[r]
        for j in range(starts[r], starts[r + 1]):
            if columns[j] >= <uint32_t>width or (j > starts[r] and columns[j] <= columns[j - 1]):
                raise ValueError("a row's columns must ascend below width")
    # a row always fits at ``cells`` (past every cell taken) and is placed at most 63
    # past it, so each row adds at most ``width + 64`` cells; the bitset holds them all
    # and the 64 bits read past the last
    words = (filled * (<Py_ssize_t>width + 64) + width + 128) // 64 + 3
    bits = <uint64_t *>malloc(words * sizeof(uint64_t))
    if bits == NULL:
        raise MemoryError()
    memset(bits, 0, words * sizeof(uint64_t))
    with nogil:
        for i in range(count):
            r = order[i]
            first = starts[r]
            last = starts[r + 1]
            if first == last:
                continue
            while bits[free_at >> 6] >> (free_at & 63) & 1:
                free_at += 1
            base = free_at - columns[first]
            if base < 0:
                base = 0
            while True:  # 64 offsets at a time: bit b of clash says base + b is taken
                if base >= cells:
                    break
                clash = 0
                for j in range(first, last):
                    clash |= _bits_at(bits, base + columns[j])
                    if clash == 0xFFFFFFFFFFFFFFFFULL:
                        break
                if clash != 0xFFFFFFFFFFFFFFFFULL:
                    base += _ctz(~clash)
                    break
                base += 64
            for j in range(first, last):
                at = base + columns[j]
                bits[at >> 6] |= 1ULL << (at & 63)
            offsets[r] = <uint32_t>base
            if at + 1 > cells:
                cells = at + 1
    free(bits)
    return cells


# -- one hand ---------------------------------------------------------------------------


cdef inline uint16_t _plain(const Tabs *t, uint64_t total) noexcept nogil:
    """The value of a hand with no five cards of a suit, from its code sum."""
    cdef uint32_t key = <uint32_t>(total & KEY_MASK)
    return t.values[t.offsets[key >> t.shift] + (key & t.columns)]


cdef inline int _suit(const Tabs *t, uint64_t total) noexcept nogil:
    """The suit with five or more cards of a code sum, else 4."""
    return t.flush_suit[(total >> SUIT_SHIFT) & 0xFFF]


cdef inline uint16_t _of_mask(const Tabs *t, uint64_t total, uint64_t mask) noexcept nogil:
    """The value of a hand from its code sum and its card bitmask."""
    cdef int s = _suit(t, total)
    if s < 4:
        return t.flush[(mask >> (13 * s)) & 0x1FFF]
    return _plain(t, total)


cdef inline uint16_t _flush_of_cards(const Tabs *t, const uint8_t *row, int k, int s) noexcept nogil:
    """The best flush of suit ``s`` among the ``k`` cards of ``row``."""
    cdef uint32_t m = 0, c
    cdef uint32_t base = 13 * s
    cdef int j
    for j in range(k):
        c = row[j] - base  # unsigned: cards of other suits are far above 12
        if c < 13:
            m |= 1U << c
    return t.flush[m]


cdef inline uint64_t _sum(const uint64_t *code, const uint8_t *row, int k) noexcept nogil:
    cdef uint64_t total = code[row[0]] + code[row[1]] + code[row[2]] + code[row[3]] + code[row[4]]
    if k > 5:
        total += code[row[5]]
        if k > 6:
            total += code[row[6]]
    return total


cdef Py_ssize_t _rows(const Tabs *t, const uint8_t *cards, int k, uint16_t *out,
                      Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Rows ``lo .. hi - 1`` of ``cards`` (``k`` a row); the first bad row, or -1."""
    cdef Py_ssize_t i
    cdef const uint8_t *row
    cdef const uint64_t *code = t.code
    cdef uint64_t total
    cdef int s
    for i in range(lo, hi):
        row = cards + i * k
        if k == 7:
            total = (code[row[0]] + code[row[1]] + code[row[2]] + code[row[3]]
                     + code[row[4]] + code[row[5]] + code[row[6]])
        else:
            total = _sum(code, row, k)
        if total >> BAD_BIT:
            return i
        s = _suit(t, total)
        if s < 4:
            out[i] = _flush_of_cards(t, row, k, s)
        else:
            out[i] = _plain(t, total)
    return -1


cdef int _check_rows(Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t n) except -1:
    if not 0 <= lo <= hi <= n:
        raise ValueError(f"rows {lo}..{hi} are not within 0..{n}")
    return 0


def evaluate_rows(Lookup lookup, const uint8_t[:, ::1] cards, uint16_t[::1] out,
                  Py_ssize_t lo, Py_ssize_t hi):
    """Write the value of rows ``lo .. hi - 1`` of ``cards`` (``(n, size)`` card numbers)
    to ``out``; return the first of those rows holding a number above 51, or -1 (rows
    after it are not written)."""
    cdef Py_ssize_t n = cards.shape[0], bad
    cdef int k = cards.shape[1]
    if k != lookup.size:
        raise ValueError(f"rows of {k} cards need the tables of {k}, not {lookup.size}")
    if out.shape[0] != n:
        raise ValueError("out must have one entry a row")
    _check_rows(lo, hi, n)
    if lo == hi:
        return -1
    with nogil:
        bad = _rows(&lookup.tabs, &cards[0, 0], k, &out[0], lo, hi)
    return bad


def evaluate_masks(Lookup five, Lookup six, Lookup seven, const uint64_t[::1] masks,
                   uint16_t[::1] out, Py_ssize_t lo, Py_ssize_t hi):
    """Write the value of card bitmasks ``lo .. hi - 1`` (bit ``c`` is card number ``c``) to
    ``out``; return the first mask with a bit above 51, fewer than 5 or more than 7 bits, or
    a size whose :class:`Lookup` is ``None``, or -1 (masks after it are not written).

    Each suit's 13 bits give the sum of their rank keys and their count at once
    (``suit_sum``); the four add up to the hand's rank key and size."""
    cdef Py_ssize_t n = masks.shape[0], i, bad = -1
    cdef const Tabs *by_size[8]
    cdef const uint32_t *suit_sum = NULL
    cdef uint64_t m
    cdef uint32_t a0, a1, a2, a3, total
    cdef int k, s
    if out.shape[0] != n:
        raise ValueError("out must have one entry a mask")
    _check_rows(lo, hi, n)
    for k in range(8):
        by_size[k] = NULL
    for k, lookup in ((5, five), (6, six), (7, seven)):
        if lookup is not None:
            if (<Lookup>lookup).size != k:
                raise ValueError("five, six and seven are the tables of 5, 6 and 7 cards")
            by_size[k] = &(<Lookup>lookup).tabs
            suit_sum = by_size[k].suit_sum  # the same in every size's tables
    if suit_sum == NULL:
        raise ValueError("evaluate_masks() needs the tables of at least one size")
    with nogil:
        for i in range(lo, hi):
            m = masks[i]
            a0 = suit_sum[m & 0x1FFF]
            a1 = suit_sum[(m >> 13) & 0x1FFF]
            a2 = suit_sum[(m >> 26) & 0x1FFF]
            a3 = suit_sum[(m >> 39) & 0x1FFF]
            total = a0 + a1 + a2 + a3  # the counts (at most 52) sit above the rank keys
            k = total >> SUIT_SHIFT
            if m >> 52 or k < 5 or k > 7 or by_size[k] == NULL:
                bad = i
                break
            if ((a0 >> SUIT_SHIFT) > 4) | ((a1 >> SUIT_SHIFT) > 4) | (
                (a2 >> SUIT_SHIFT) > 4) | ((a3 >> SUIT_SHIFT) > 4):
                s = 0
                while (suit_sum[(m >> (13 * s)) & 0x1FFF] >> SUIT_SHIFT) < 5:
                    s += 1
                out[i] = by_size[k].flush[(m >> (13 * s)) & 0x1FFF]
            else:
                out[i] = _plain(by_size[k], total)
    return bad


def evaluate_codes(Lookup lookup, const uint64_t[::1] totals, const uint64_t[::1] masks,
                   uint16_t[::1] out, Py_ssize_t lo, Py_ssize_t hi):
    """Write the value of hands ``lo .. hi - 1`` given as sums of card codes and card
    bitmasks (of ``lookup.size`` cards) to ``out``."""
    cdef Py_ssize_t n = totals.shape[0], i
    cdef const Tabs *t = &lookup.tabs
    if masks.shape[0] != n or out.shape[0] != n:
        raise ValueError("totals, masks and out must have one entry a hand")
    _check_rows(lo, hi, n)
    with nogil:
        for i in range(lo, hi):
            out[i] = _of_mask(t, totals[i], masks[i])


# -- Omaha ------------------------------------------------------------------------------


cdef inline uint16_t _omaha(const Tabs *t, const uint8_t *hole, int h, const uint8_t *board,
                            int b) noexcept nogil:
    """The best Omaha hand of ``h`` hole cards and ``b`` board cards (numbers 0..51)."""
    cdef uint64_t pair_code[15]
    cdef uint64_t pair_mask[15]
    cdef uint64_t three_code[10]
    cdef uint64_t three_mask[10]
    cdef int pairs = 0, threes = 0, x, y, z, p, q, s
    cdef const uint64_t *code = t.code
    cdef uint64_t total
    cdef uint16_t best = 0, v
    for x in range(h):
        for y in range(x + 1, h):
            pair_code[pairs] = code[hole[x]] + code[hole[y]]
            pair_mask[pairs] = (1ULL << hole[x]) | (1ULL << hole[y])
            pairs += 1
    for x in range(b):
        for y in range(x + 1, b):
            for z in range(y + 1, b):
                three_code[threes] = code[board[x]] + code[board[y]] + code[board[z]]
                three_mask[threes] = (1ULL << board[x]) | (1ULL << board[y]) | (1ULL << board[z])
                threes += 1
    for p in range(pairs):
        for q in range(threes):
            total = pair_code[p] + three_code[q]
            s = _suit(t, total)
            if s < 4:
                v = t.flush[((pair_mask[p] | three_mask[q]) >> (13 * s)) & 0x1FFF]
            else:
                v = _plain(t, total)
            if v > best:
                best = v
    return best


cdef inline bint _numbers_ok(const uint8_t *row, int k) noexcept nogil:
    cdef int j
    for j in range(k):
        if row[j] > 51:
            return False
    return True


def evaluate_omaha(Lookup five, const uint8_t[:, ::1] hole, const uint8_t[:, ::1] board,
                   uint16_t[::1] out, Py_ssize_t lo, Py_ssize_t hi):
    """Write the Omaha value (two of the 4 to 6 ``hole`` cards, three of the 3 to 5
    ``board`` cards of the same row) of rows ``lo .. hi - 1`` to ``out``; return the first
    row holding a number above 51, or -1."""
    cdef Py_ssize_t n = hole.shape[0], i, bad = -1
    cdef int h = hole.shape[1], b = board.shape[1]
    if five.size != 5:
        raise ValueError("Omaha needs the tables of 5 cards")
    if board.shape[0] != n or out.shape[0] != n:
        raise ValueError("hole, board and out must have the same rows")
    if not (4 <= h <= 6 and 3 <= b <= 5):
        raise ValueError("Omaha has 4 to 6 hole cards and 3 to 5 board cards")
    _check_rows(lo, hi, n)
    if lo == hi:
        return -1
    with nogil:
        for i in range(lo, hi):
            if not (_numbers_ok(&hole[i, 0], h) and _numbers_ok(&board[i, 0], b)):
                bad = i
                break
            out[i] = _omaha(&five.tabs, &hole[i, 0], h, &board[i, 0], b)
    return bad


# -- showdowns --------------------------------------------------------------------------


cdef inline void _tally(const uint16_t *values, int players, int64_t *counts) noexcept nogil:
    """Add one showdown: ``counts[p * players + w - 1]`` for each of the ``w`` winners."""
    cdef uint16_t best = 0
    cdef int p, w = 0
    for p in range(players):
        if values[p] > best:
            best = values[p]
    for p in range(players):
        w += values[p] == best
    for p in range(players):
        if values[p] == best:
            counts[p * players + w - 1] += 1


cdef int _check_counts(int64_t[:, ::1] counts, int players) except -1:
    if not 2 <= players <= MOST_PLAYERS:
        raise ValueError(f"a showdown has 2 to {MOST_PLAYERS} hands, not {players}")
    if counts.shape[0] != players or counts.shape[1] != players:
        raise ValueError("counts must be (players, players)")
    return 0


cdef inline void _add_counts(int64_t[:, ::1] counts, const int64_t *local, int players) noexcept nogil:
    cdef int p, w
    for p in range(players):
        for w in range(players):
            counts[p, w] += local[p * players + w]


def holdem_boards(
    Lookup seven,
    const uint64_t[::1] board_total,
    const uint64_t[::1] board_mask,
    const uint64_t[::1] combo_code,
    const uint64_t[::1] combo_mask,
    const int32_t[:, ::1] matchups,
    const uint64_t[::1] held,
    int64_t[:, ::1] counts,
    Py_ssize_t lo,
    Py_ssize_t hi,
):
    """Hold'em showdowns of every matchup on every board ``lo .. hi - 1``, added to
    ``counts[p, w - 1]`` (hand ``p`` is one of ``w`` winners); returns the showdowns counted.

    A board is a code sum and a card mask of five cards; a combo (two hole cards) is a code
    sum and a mask; a matchup is one combo for each hand (indices into the combos) and the
    mask ``held`` of the cards its ranged hands hold: a board meeting it is skipped.
    """
    cdef Py_ssize_t n = board_total.shape[0], combos = combo_code.shape[0]
    cdef Py_ssize_t matches = matchups.shape[0], i, m, c
    cdef int players = matchups.shape[1], p
    cdef int64_t done = 0, wins0 = 0, wins1 = 0
    cdef int64_t local[MOST_PLAYERS * MOST_PLAYERS]
    cdef uint16_t values[MOST_PLAYERS]
    cdef uint16_t a, b
    cdef uint64_t bt, bm
    cdef int64_t *stamp
    cdef uint16_t *memo
    cdef const int32_t *row
    cdef const Tabs *t = &seven.tabs
    cdef bint every = combos <= matchups.shape[0] * matchups.shape[1]
    if seven.size != 7:
        raise ValueError("hold'em showdowns need the tables of 7 cards")
    if board_mask.shape[0] != n or combo_mask.shape[0] != combos or held.shape[0] != matches:
        raise ValueError("totals and masks must come in pairs, held one a matchup")
    _check_counts(counts, players)
    _check_rows(lo, hi, n)
    for m in range(matches):
        for p in range(players):
            if not 0 <= matchups[m, p] < combos:
                raise ValueError("a matchup names a combo that is not there")
    if lo == hi or matches == 0:
        return 0
    stamp = <int64_t *>malloc(combos * sizeof(int64_t))
    memo = <uint16_t *>malloc(combos * sizeof(uint16_t))
    if stamp == NULL or memo == NULL:
        free(stamp)
        free(memo)
        raise MemoryError()
    memset(local, 0, sizeof(local))
    with nogil:
        for c in range(combos):
            stamp[c] = -1
        if players == 2 and matches == 1:  # two fixed hands: the common case, no memo
            for i in range(lo, hi):
                bt = board_total[i]
                bm = board_mask[i]
                if held[0] & bm:
                    continue
                c = matchups[0, 0]
                a = _of_mask(t, bt + combo_code[c], bm | combo_mask[c])
                c = matchups[0, 1]
                b = _of_mask(t, bt + combo_code[c], bm | combo_mask[c])
                wins0 += a > b
                wins1 += b > a
                done += 1
            local[0] = wins0
            local[2] = wins1
            local[1] = local[3] = done - wins0 - wins1
        else:
            for i in range(lo, hi):
                bt = board_total[i]
                bm = board_mask[i]
                if every:  # fewer combos than the matchups' hands: value them all at once
                    for c in range(combos):
                        memo[c] = _of_mask(t, bt + combo_code[c], bm | combo_mask[c])
                for m in range(matches):
                    if held[m] & bm:
                        continue
                    row = &matchups[m, 0]
                    if not every:
                        for p in range(players):
                            c = row[p]
                            if stamp[c] != i:
                                stamp[c] = i
                                memo[c] = _of_mask(t, bt + combo_code[c], bm | combo_mask[c])
                    if players == 2:
                        a = memo[row[0]]
                        b = memo[row[1]]
                        wins0 += a > b
                        wins1 += b > a
                    else:
                        for p in range(players):
                            values[p] = memo[row[p]]
                        _tally(values, players, local)
                    done += 1
            if players == 2:
                local[0] = wins0
                local[2] = wins1
                local[1] = local[3] = done - wins0 - wins1
        _add_counts(counts, local, players)
    free(stamp)
    free(memo)
    return done


def holdem_trials(
    Lookup seven,
    const uint64_t[::1] board_total,
    const uint64_t[::1] board_mask,
    const uint64_t[::1] combo_code,
    const uint64_t[::1] combo_mask,
    const int32_t[:, ::1] picks,
    int64_t[:, ::1] counts,
    Py_ssize_t lo,
    Py_ssize_t hi,
):
    """Hold'em showdowns of trials ``lo .. hi - 1``: trial ``i`` is board ``i`` (code sum and
    mask) and combo ``picks[i, p]`` for each hand ``p``; added to ``counts[p, w - 1]``."""
    cdef Py_ssize_t n = board_total.shape[0], combos = combo_code.shape[0], i, c
    cdef int players = picks.shape[1], p
    cdef int64_t local[MOST_PLAYERS * MOST_PLAYERS]
    cdef uint16_t values[MOST_PLAYERS]
    cdef uint64_t bt, bm
    cdef const Tabs *t = &seven.tabs
    if seven.size != 7:
        raise ValueError("hold'em showdowns need the tables of 7 cards")
    if board_mask.shape[0] != n or picks.shape[0] != n or combo_mask.shape[0] != combos:
        raise ValueError("boards and picks must have one row a trial")
    _check_counts(counts, players)
    _check_rows(lo, hi, n)
    for i in range(lo, hi):
        for p in range(players):
            if not 0 <= picks[i, p] < combos:
                raise ValueError("a trial names a combo that is not there")
    memset(local, 0, sizeof(local))
    with nogil:
        for i in range(lo, hi):
            bt = board_total[i]
            bm = board_mask[i]
            for p in range(players):
                c = picks[i, p]
                values[p] = _of_mask(t, bt + combo_code[c], bm | combo_mask[c])
            _tally(values, players, local)
        _add_counts(counts, local, players)


def omaha_boards(
    Lookup five,
    const uint8_t[:, ::1] boards,
    const uint8_t[:, ::1] holes,
    const int32_t[::1] sizes,
    int64_t[:, ::1] counts,
    Py_ssize_t lo,
    Py_ssize_t hi,
):
    """Omaha showdowns of fixed hands on boards ``lo .. hi - 1`` (five card numbers a row):
    hand ``p`` is ``holes[p, :sizes[p]]`` (4 to 6 cards); added to ``counts[p, w - 1]``."""
    cdef Py_ssize_t n = boards.shape[0], i
    cdef int players = holes.shape[0], p
    cdef int64_t local[MOST_PLAYERS * MOST_PLAYERS]
    cdef uint16_t values[MOST_PLAYERS]
    cdef const Tabs *t = &five.tabs
    if five.size != 5:
        raise ValueError("Omaha needs the tables of 5 cards")
    if boards.shape[1] != 5 or sizes.shape[0] != players or holes.shape[1] < 6:
        raise ValueError("boards have 5 cards a row, holes 6 columns and a size a hand")
    _check_counts(counts, players)
    _check_rows(lo, hi, n)
    for p in range(players):
        if not 4 <= sizes[p] <= 6 or not _numbers_ok(&holes[p, 0], sizes[p]):
            raise ValueError("an Omaha hand has 4 to 6 card numbers 0..51")
    for i in range(lo, hi):
        if not _numbers_ok(&boards[i, 0], 5):
            raise ValueError("boards must hold card numbers 0..51")
    memset(local, 0, sizeof(local))
    with nogil:
        for i in range(lo, hi):
            for p in range(players):
                values[p] = _omaha(t, &holes[p, 0], sizes[p], &boards[i, 0], 5)
            _tally(values, players, local)
        _add_counts(counts, local, players)
