/* The split shuffle's inner loops (croupier-shuffle-split/1): keys read as bit fields,
 * a stable counting sort of rows by key, and Fisher-Yates within leaves.
 *
 * Rows are `row` bytes; the loops are written once and instantiated for rows of 1, 2,
 * 4, 8 and 16 bytes (a constant-size memcpy is one load and one store) and for any other
 * width.  Pointers are restrict-qualified: the rows never overlap the counters, keys or
 * tables, which lets the compiler keep those in registers.
 */
#ifndef CROUPIER_SPLIT_KERNELS_H
#define CROUPIER_SPLIT_KERNELS_H

#include <stdint.h>
#include <string.h>

/* The n consecutive k-bit (1..16) big-endian keys of region into keys; eight keys at a
 * time fill exactly k bytes.  region is readable 16 bytes past the last key. */
static inline void croupier_decode(const uint8_t *restrict region, int k, int64_t n,
                                   uint16_t *restrict keys) {
    const uint64_t mask = ((uint64_t)1 << k) - 1;
    const int64_t full = n / 8;
    for (int64_t g = 0; g < full; g++) {
        const uint8_t *p = region + g * k;
        uint64_t hi = 0;
        for (int i = 0; i < 8; i++) hi = (hi << 8) | p[i];
        if (k <= 8) {
            uint64_t word = hi >> (64 - 8 * k);
            for (int j = 0; j < 8; j++) keys[8 * g + j] = (uint16_t)((word >> (k * (7 - j))) & mask);
        } else {
            uint64_t lo = 0;
            for (int i = 0; i < 8; i++) lo = (lo << 8) | p[8 + i];
            for (int j = 0; j < 8; j++) {
                int end = k * (j + 1);
                uint64_t x;
                if (end <= 64) x = hi >> (64 - end);
                else if (end - k >= 64) x = lo >> (128 - end);
                else x = (hi << (end - 64)) | (lo >> (128 - end));
                keys[8 * g + j] = (uint16_t)(x & mask);
            }
        }
    }
    for (int64_t i = full * 8; i < n; i++) {
        int64_t bit = i * k;
        const uint8_t *p = region + (bit >> 3);
        uint64_t v = ((uint64_t)p[0] << 16) | ((uint64_t)p[1] << 8) | p[2];
        keys[i] = (uint16_t)((v >> (24 - (bit & 7) - k)) & mask);
    }
}

/* The w-bit (1..64) big-endian field of buf at bit offset bit (buf readable 9 bytes on). */
static inline uint64_t croupier_field(const uint8_t *buf, int64_t bit, int w) {
    const uint8_t *p = buf + (bit >> 3);
    uint64_t hi = 0;
    int s = (int)(bit & 7);
    for (int i = 0; i < 8; i++) hi = (hi << 8) | p[i];
    if (s) hi = (hi << s) | (p[8] >> (8 - s));
    return hi >> (64 - w);
}

static inline uint64_t croupier_high_product(uint64_t a, uint64_t b) {
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* The tables of every leaf size: size m has count[m] chunks from first[m] on; chunk c is a
 * draw below ranges[c] of widths[c] bits, accepted up to highest[c], covering the radices
 * top[c] down to bottom[c].  magic/shift divide by a radix with a multiply (NULL: divide). */
typedef struct {
    const int64_t *first, *count, *widths, *top, *bottom;
    const uint64_t *ranges, *highest, *magic, *shift;
} croupier_leaf_tables;

#define CROUPIER_KEYS_CHUNK 4096 /* keys decoded at a time (a multiple of 8) */

/* The number of items i_from .. i_to - 1 with each k-bit key added to counts (item i has
 * the i-th key of region; i_from a multiple of 8). */
static inline void croupier_count_keys(const uint8_t *restrict region, int k, int64_t i_from,
                                int64_t i_to, int64_t *restrict counts) {
    uint16_t keys[CROUPIER_KEYS_CHUNK];
    for (int64_t i0 = i_from; i0 < i_to; i0 += CROUPIER_KEYS_CHUNK) {
        int64_t m = i_to - i0 < CROUPIER_KEYS_CHUNK ? i_to - i0 : CROUPIER_KEYS_CHUNK;
        croupier_decode(region + (i0 / 8) * k, k, m, keys);
        for (int64_t i = 0; i < m; i++) counts[keys[i]]++;
    }
}

/* The first attempt of every leaf draw (leaf by leaf, each leaf's chunks in order, read
 * from bits): the table rows of the rejected ones go to out, in order.  Returns how many
 * were rejected, or -1 when more than room were; how many were rejected in the leaves
 * before leaf mark goes to *marked. */
static inline int64_t croupier_first_attempts(const int64_t *restrict leaf_sizes, int64_t leaves,
                                       const croupier_leaf_tables *t,
                                       const uint8_t *restrict bits, int64_t *restrict out,
                                       int64_t room, int64_t mark, int64_t *marked) {
    int64_t bit = 0, rejected = 0;
    for (int64_t g = 0; g < leaves; g++) {
        if (g == mark) *marked = rejected;
        int64_t m = leaf_sizes[g];
        if (m < 2) continue;
        int64_t f = t->first[m];
        for (int64_t c = f; c < f + t->count[m]; c++) {
            int w = (int)t->widths[c];
            if (croupier_field(bits, bit, w) > t->highest[c]) {
                if (rejected == room) return -1;
                out[rejected++] = c;
            }
            bit += w;
        }
    }
    return rejected;
}

/* One round of redraws from data for the draws todo[0 .. many - 1] (indices into rows, the
 * draws' table rows): accepted values go to values[i], the draws still rejected move to the
 * front of todo; returns how many. */
static inline int64_t croupier_redraw_round(const uint8_t *restrict data, int64_t *restrict todo,
                                     int64_t many, const int64_t *restrict rows,
                                     const croupier_leaf_tables *t,
                                     uint64_t *restrict values) {
    int64_t bit = 0, left = 0;
    for (int64_t j = 0; j < many; j++) {
        int64_t i = todo[j], c = rows[i];
        int w = (int)t->widths[c];
        uint64_t v = croupier_field(data, bit, w);
        bit += w;
        if (v <= t->highest[c]) values[i] = v % t->ranges[c];
        else todo[left++] = i;
    }
    return left;
}

/* Rows i_from .. i_to - 1 of src moved to dst[pos[key]] in order, pos advancing (a stable
 * counting sort when pos holds each bucket's first free place); item i has the i-th key of
 * region, i_from a multiple of 8. */
#define CROUPIER_SCATTER(ROW)                                                                \
    for (int64_t i0 = i_from; i0 < i_to; i0 += CROUPIER_KEYS_CHUNK) {                     \
        int64_t m = i_to - i0 < CROUPIER_KEYS_CHUNK ? i_to - i0 : CROUPIER_KEYS_CHUNK;    \
        croupier_decode(region + (i0 / 8) * k, k, m, keys);                                \
        const uint8_t *restrict in = src + i0 * (ROW);                                     \
        for (int64_t i = 0; i < m; i++) {                                                  \
            int64_t p = pos[keys[i]]++;                                                    \
            memcpy(dst + p * (ROW), in + i * (ROW), (ROW));                                \
        }                                                                                  \
    }

static inline void croupier_scatter(const uint8_t *restrict src, uint8_t *restrict dst, int64_t row,
                             const uint8_t *restrict region, int k, int64_t i_from,
                             int64_t i_to, int64_t *restrict pos) {
    uint16_t keys[CROUPIER_KEYS_CHUNK];
    switch (row) {
    case 8: CROUPIER_SCATTER(8) break;
    case 4: CROUPIER_SCATTER(4) break;
    case 16: CROUPIER_SCATTER(16) break;
    case 2: CROUPIER_SCATTER(2) break;
    case 1: CROUPIER_SCATTER(1) break;
    default: CROUPIER_SCATTER(row) break;
    }
}

/* The same move for the rows 0, 1, 2, ...: the numbers i_from .. i_to - 1 written as
 * NUMBER (uint32_t or uint64_t) into dst. */
#define CROUPIER_SCATTER_NUMBERS(NUMBER)                                                    \
    for (int64_t i0 = i_from; i0 < i_to; i0 += CROUPIER_KEYS_CHUNK) {                     \
        int64_t m = i_to - i0 < CROUPIER_KEYS_CHUNK ? i_to - i0 : CROUPIER_KEYS_CHUNK;    \
        croupier_decode(region + (i0 / 8) * k, k, m, keys);                                \
        for (int64_t i = 0; i < m; i++) {                                                  \
            NUMBER v = (NUMBER)(i0 + i);                                                   \
            memcpy(dst + pos[keys[i]]++ * sizeof(NUMBER), &v, sizeof(NUMBER));             \
        }                                                                                  \
    }

static inline void croupier_scatter_numbers(uint8_t *restrict dst, int64_t row,
                                     const uint8_t *restrict region, int k, int64_t i_from,
                                     int64_t i_to, int64_t *restrict pos) {
    uint16_t keys[CROUPIER_KEYS_CHUNK];
    if (row == 8) {
        CROUPIER_SCATTER_NUMBERS(uint64_t)
    } else {
        CROUPIER_SCATTER_NUMBERS(uint32_t)
    }
}

/* One bucket of `size` rows at src, with keys `keys`, stably sorted by key into dst rows
 * pos[key] (advancing). */
#define CROUPIER_SORT_BUCKET(ROW)                                                            \
    for (int64_t i = 0; i < size; i++) {                                                   \
        int64_t p = pos[keys[i]]++;                                                        \
        memcpy(dst + p * (ROW), src + i * (ROW), (ROW));                                   \
    }

static inline void croupier_sort_bucket(const uint8_t *restrict src, uint8_t *restrict dst,
                                 int64_t row, int64_t size, const uint16_t *restrict keys,
                                 int64_t *restrict pos) {
    switch (row) {
    case 8: CROUPIER_SORT_BUCKET(8) break;
    case 4: CROUPIER_SORT_BUCKET(4) break;
    case 16: CROUPIER_SORT_BUCKET(16) break;
    case 2: CROUPIER_SORT_BUCKET(2) break;
    case 1: CROUPIER_SORT_BUCKET(1) break;
    default: CROUPIER_SORT_BUCKET(row) break;
    }
}

static inline void croupier_swap(uint8_t *restrict a, uint8_t *restrict b, int64_t row) {
    uint8_t t[64];
    for (int64_t at = 0; at < row; at += 64) {
        int64_t step = row - at < 64 ? row - at : 64;
        memcpy(t, a + at, step);
        memcpy(a + at, b + at, step);
        memcpy(b + at, t, step);
    }
}

/* The mixed-radix digits of a chunk's value, radix top down to low, into out; returns
 * how many (top - low + 1).  magic/shift divide by a radix with a multiply (NULL: divide). */
static inline int64_t croupier_chunk_digits(uint64_t value, int64_t top, int64_t low,
                                            const uint64_t *restrict magic,
                                            const uint64_t *restrict shift,
                                            uint32_t *restrict out) {
    int64_t j = 0;
    for (int64_t r = top; r >= low; r--) {
        uint64_t q = magic ? croupier_high_product(value, magic[r]) >> shift[r] : value / (uint64_t)r;
        out[j++] = (uint32_t)(value - q * (uint64_t)r);
        value = q;
    }
    return j;
}

#define CROUPIER_DIGITS 4096 /* digits decoded before their swaps are made */
#define CROUPIER_PREFETCH_MOST (1 << 18) /* bytes of a leaf fetched ahead of its swaps */

/* Fisher-Yates in leaves g_from .. g_to - 1 of the rows at fin, its choices the mixed-radix
 * digits of the leaves' draws: a draw's first attempt is read from bits when accepted, else
 * the next value of redrawn.  start, bit and next_redrawn are where leaf g_from begins.
 *
 * The digits of up to CROUPIER_DIGITS radices are decoded into digits[] first and their
 * swaps made after, in the same order: a swap's load then never waits on a store whose
 * address is still being divided out, and the divisions of several draws overlap. */
#define CROUPIER_FISHER_YATES(ROW, SWAP)                                                     \
    for (int64_t g = g_from; g < g_to; g++) {                                              \
        int64_t m = leaf_sizes[g];                                                         \
        if (m >= 2) {                                                                      \
            uint8_t *leaf = fin + start * (ROW);                                           \
            int64_t f = t->first[m], chunks = t->count[m];                                 \
            int64_t held = 0, from = m; /* digits[j] is the digit of radix from - j */     \
            if (m * (ROW) <= CROUPIER_PREFETCH_MOST) /* (fetched while dividing) */        \
                for (int64_t at = 0; at < m * (ROW); at += 64) __builtin_prefetch(leaf + at, 1); \
            for (int64_t c = f; c < f + chunks; c++) {                                     \
                int width = (int)t->widths[c];                                             \
                uint64_t value = croupier_field(bits, bit, width);                         \
                bit += width;                                                              \
                if (value <= t->highest[c]) value %= t->ranges[c];                         \
                else value = redrawn[next_redrawn++];                                      \
                held += croupier_chunk_digits(value, t->top[c], t->bottom[c], magic, shift, \
                                              digits + held);                              \
                if (held >= CROUPIER_DIGITS || c + 1 == f + chunks) {                      \
                    for (int64_t j = 0; j < held; j++)                                     \
                        SWAP(leaf + (from - j - 1) * (ROW), leaf + digits[j] * (ROW), (ROW)); \
                    from -= held;                                                          \
                    held = 0;                                                              \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        start += m;                                                                        \
    }

#define CROUPIER_SWAP_FIXED(a, b, ROW)                                                       \
    do {                                                                                   \
        uint8_t tmp_[ROW];                                                                 \
        memcpy(tmp_, (a), ROW);                                                            \
        memcpy((a), (b), ROW);                                                             \
        memcpy((b), tmp_, ROW);                                                            \
    } while (0)
#define CROUPIER_SWAP_ANY(a, b, ROW)                                                         \
    do {                                                                                   \
        if ((a) != (b)) croupier_swap((a), (b), (ROW));                                    \
    } while (0)

static inline void croupier_fisher_yates(uint8_t *fin, int64_t row, const int64_t *restrict leaf_sizes,
                                  const croupier_leaf_tables *t, const uint8_t *restrict bits,
                                  const uint64_t *restrict redrawn, int64_t g_from, int64_t g_to,
                                  int64_t start, int64_t bit, int64_t next_redrawn) {
    const uint64_t *restrict magic = t->magic;
    const uint64_t *restrict shift = t->shift;
    uint32_t digits[CROUPIER_DIGITS + 64]; /* a chunk has fewer than 64 radices */
    switch (row) {
    case 8: CROUPIER_FISHER_YATES(8, CROUPIER_SWAP_FIXED) break;
    case 4: CROUPIER_FISHER_YATES(4, CROUPIER_SWAP_FIXED) break;
    case 16: CROUPIER_FISHER_YATES(16, CROUPIER_SWAP_FIXED) break;
    case 2: CROUPIER_FISHER_YATES(2, CROUPIER_SWAP_FIXED) break;
    case 1: CROUPIER_FISHER_YATES(1, CROUPIER_SWAP_FIXED) break;
    default: CROUPIER_FISHER_YATES(row, CROUPIER_SWAP_ANY) break;
    }
}

#endif
