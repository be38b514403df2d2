/* Lexicographic unranking of bulk deals (croupier-bulk/1), 32 deals at a time.
 *
 * The tiled forms of the narrow walk of croupier._core.bulk_kernels (decks of at most
 * 64 cards).  Each pile's digit is walked over the cards still undealt, in deck
 * order: at the q-th of them, with j cards still to pick, the threshold is T[q][j]
 * (croupier.bulk.lex_tables.pick_table); the card is skipped when the digit is at
 * least the threshold (which is then subtracted), else picked.  Every deal of a tile
 * is at the same step of the walk.  With every pile but the last of at most 15 cards
 * a row of thresholds (padded to 16) is two vectors of eight, and each deal's
 * threshold one two-vector shuffle by its picks left (vpermt2q); four vectors of
 * eight deals are walked side by side to hide the latencies.
 *
 * Two forms, the same deals:
 *
 * level 2  AVX-512 (F, BW) and BMI2, chosen at run time (GCC on x86-64 Linux): masked
 *          vector steps record the positions picked, pdep puts them on the cards still
 *          undealt, the labels are masked byte moves;
 * level 1  any processor: the 32 deals side by side in plain loops (tables of any
 *          stride), the cards still undealt carried along as bits, the labels from bit
 *          planes through a table.
 *
 * Level 0 is the scalar walk of the .pyx, one deal at a time.
 */
#ifndef CROUPIER_BULK_UNRANK_H
#define CROUPIER_BULK_UNRANK_H

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define CROUPIER_BULK_AVX512 1 /* GCC's AVX-512 intrinsics, chosen at run time */
#include <immintrin.h>
#define CROUPIER_BULK_CLONES                                                                \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CROUPIER_BULK_AVX512 0
#define CROUPIER_BULK_CLONES
#endif

#define CROUPIER_BULK_LANES 8
#define CROUPIER_BULK_VECTORS 4
#define CROUPIER_BULK_TILE (CROUPIER_BULK_LANES * CROUPIER_BULK_VECTORS)
#define CROUPIER_BULK_ROW 16 /* thresholds a row: picks left 0 .. 15 */

/* spread[v]: the 64-bit word whose byte k is bit k of v (labels from bit planes). */
static uint64_t croupier_bulk_spread[256];

static void croupier_bulk_init(void) {
    for (int v = 0; v < 256; v++) {
        uint64_t word = 0;
        for (int k = 0; k < 8; k++) word |= (uint64_t)((v >> k) & 1) << (8 * k);
        croupier_bulk_spread[v] = word;
    }
}

/* The best level this processor runs: 2 (AVX-512 and BMI2), else 1 (the tiled walk). */
static int croupier_bulk_level(void) {
#if CROUPIER_BULK_AVX512
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("bmi2")) {
        return 2;
    }
#endif
    return 1;
}

/* One deal's labels (the pile of each of its deck cards) from its pile masks. */
static inline void croupier_bulk_labels(const uint64_t *cards, int piles, int deck,
                                        uint8_t *row) {
    uint64_t planes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int count = 1;
    while ((1 << count) < piles) count++;
    for (int p = 1; p < piles; p++) {
        for (int b = 0; b < count; b++) {
            if ((p >> b) & 1) planes[b] |= cards[p];
        }
    }
    int words = deck / 8;
    for (int w = 0; w <= words; w++) {
        uint64_t v = 0;
        for (int b = 0; b < count; b++) {
            v |= croupier_bulk_spread[(planes[b] >> (8 * w)) & 255] << b;
        }
        if (w < words) {
            memcpy(row + 8 * w, &v, 8); /* little-endian: byte k is card 8w + k */
        } else {
            for (int c = 0; c < deck - 8 * w; c++) row[8 * w + c] = (uint8_t)(v >> (8 * c));
        }
    }
}

/* The value of the w <= 8 bytes at p, big-endian; the 8 bytes from p are readable. */
static inline uint64_t croupier_bulk_be8(const uint8_t *p, int w) {
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__GNUC__) || defined(__clang__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    x = __builtin_bswap64(x);
#endif
#else
    x = ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) |
        ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
        ((uint64_t)p[6] << 8) | (uint64_t)p[7];
#endif
    return w ? x >> (64 - 8 * w) : 0;
}

/* value % c for value below 2**53, by a reciprocal (1.0 / c): the quotient it gives is off
 * by at most one (value / c < 2**53, two roundings of 2**-53), corrected without branches;
 * the loops after are a guard that never runs. */
static inline uint64_t croupier_bulk_mod53(uint64_t value, uint64_t c, double reciprocal) {
    uint64_t q = (uint64_t)((double)value * reciprocal);
    int64_t r = (int64_t)(value - q * c);
    int64_t k = (int64_t)c;
    r += k & (r >> 63);        /* one too many: add c back */
    r -= k & ~((r - k) >> 63); /* one too few: take c off */
    while (r < 0) r += k;
    while (r >= k) r -= k;
    return (uint64_t)r;
}

/* A tile's digits of one pile (zero past the deals: a valid walk, never written out). */
static inline void croupier_bulk_tile(const uint64_t *row, int m, uint64_t *tile) {
    if (m == CROUPIER_BULK_TILE) {
        memcpy(tile, row, CROUPIER_BULK_TILE * sizeof(uint64_t));
    } else {
        memset(tile, 0, CROUPIER_BULK_TILE * sizeof(uint64_t));
        memcpy(tile, row, (size_t)m * sizeof(uint64_t));
    }
}

/* The signature of both forms: deals lo .. hi - 1; digits[p * n + i] is pile p's digit
 * of deal i, sizes the piles (the last takes the rest), tables + at[p] pile p's
 * thresholds (stride[p] a row; 16 for level 2); deal i is row i + shift of the output: out[(i + shift) * deck +
 * c] gets the pile of card c, masks[p * mn + i + shift] pile p's cards as a bitmask. */
#define CROUPIER_BULK_ARGS                                                                  \
    const uint64_t *digits, int64_t n, int64_t lo, int64_t hi, const int64_t *sizes,      \
        int piles, int deck, const uint64_t *tables, const int64_t *at,                   \
        const int64_t *stride, uint8_t *out, uint64_t *masks, int64_t mn, int64_t shift

#if CROUPIER_BULK_AVX512

__attribute__((target("avx512f,avx512bw,bmi2"))) static void croupier_bulk_unrank_avx512(
    CROUPIER_BULK_ARGS) {
    const uint64_t full = deck == 64 ? ~(uint64_t)0 : ((uint64_t)1 << deck) - 1;
    const __mmask64 row_bytes = deck == 64 ? ~(__mmask64)0 : ((__mmask64)1 << deck) - 1;
    const __m512i one = _mm512_set1_epi64(1);
    for (int64_t start = lo; start < hi; start += CROUPIER_BULK_TILE) {
        int m = hi - start < CROUPIER_BULK_TILE ? (int)(hi - start) : CROUPIER_BULK_TILE;
        uint64_t cards[64][CROUPIER_BULK_TILE]; /* [pile][deal of the tile] */
        uint64_t undealt[CROUPIER_BULK_TILE];
        for (int i = 0; i < CROUPIER_BULK_TILE; i++) undealt[i] = full;
        int left = deck;
        for (int p = 0; p < piles - 1; p++) {
            uint64_t tile[CROUPIER_BULK_TILE];
            __m512i d[CROUPIER_BULK_VECTORS], j[CROUPIER_BULK_VECTORS];
            __m512i place[CROUPIER_BULK_VECTORS]; /* the positions picked, as bits */
            croupier_bulk_tile(digits + p * n + start, m, tile);
            for (int g = 0; g < CROUPIER_BULK_VECTORS; g++) {
                d[g] = _mm512_loadu_si512(tile + CROUPIER_BULK_LANES * g);
                j[g] = _mm512_set1_epi64(sizes[p]);
                place[g] = _mm512_setzero_si512();
            }
            __m512i bit = one;
            const uint64_t *table = tables + at[p];
            for (int q = 0; q < left; q++) {
                __m512i low = _mm512_loadu_si512(table + CROUPIER_BULK_ROW * q);
                __m512i high = _mm512_loadu_si512(table + CROUPIER_BULK_ROW * q + 8);
                for (int g = 0; g < CROUPIER_BULK_VECTORS; g++) {
                    __m512i t = _mm512_permutex2var_epi64(low, j[g], high);
                    __mmask8 pick = _mm512_cmplt_epu64_mask(d[g], t);
                    d[g] = _mm512_mask_sub_epi64(d[g], (__mmask8)~pick, d[g], t);
                    j[g] = _mm512_mask_sub_epi64(j[g], pick, j[g], one);
                    place[g] = _mm512_mask_or_epi64(place[g], pick, place[g], bit);
                }
                bit = _mm512_add_epi64(bit, bit);
            }
            for (int g = 0; g < CROUPIER_BULK_VECTORS; g++) {
                _mm512_storeu_si512(cards[p] + CROUPIER_BULK_LANES * g, place[g]);
            }
            for (int i = 0; i < CROUPIER_BULK_TILE; i++) {
                uint64_t picked = _pdep_u64(cards[p][i], undealt[i]);
                cards[p][i] = picked;
                undealt[i] &= ~picked;
            }
            left -= (int)sizes[p];
        }
        memcpy(cards[piles - 1], undealt, sizeof undealt);
        for (int p = 0; p < piles; p++) {
            memcpy(masks + p * mn + start + shift, cards[p], (size_t)m * sizeof(uint64_t));
        }
        for (int i = 0; i < m; i++) {
            __m512i labels = _mm512_setzero_si512();
            for (int p = 1; p < piles; p++) {
                labels = _mm512_mask_mov_epi8(labels, cards[p][i], _mm512_set1_epi8((char)p));
            }
            _mm512_mask_storeu_epi8(out + (start + i + shift) * deck, row_bytes, labels);
        }
    }
}

#else

static void croupier_bulk_unrank_avx512(CROUPIER_BULK_ARGS) {
    (void)digits, (void)n, (void)lo, (void)hi, (void)sizes, (void)piles, (void)deck;
    (void)tables, (void)at, (void)stride, (void)out, (void)masks, (void)mn, (void)shift;
}

#endif

/* Level 1: the tile's deals side by side in plain loops (independent chains for the
 * processor to overlap; tables of any stride). */
CROUPIER_BULK_CLONES static void croupier_bulk_unrank_lanes(CROUPIER_BULK_ARGS) {
    const uint64_t full = deck == 64 ? ~(uint64_t)0 : ((uint64_t)1 << deck) - 1;
    for (int64_t start = lo; start < hi; start += CROUPIER_BULK_TILE) {
        int m = hi - start < CROUPIER_BULK_TILE ? (int)(hi - start) : CROUPIER_BULK_TILE;
        uint64_t cards[64][CROUPIER_BULK_TILE]; /* [pile][deal of the tile] */
        uint64_t undealt[CROUPIER_BULK_TILE];
        for (int i = 0; i < CROUPIER_BULK_TILE; i++) undealt[i] = full;
        int left = deck;
        for (int p = 0; p < piles - 1; p++) {
            uint64_t d[CROUPIER_BULK_TILE], j[CROUPIER_BULK_TILE];
            uint64_t it[CROUPIER_BULK_TILE], picked[CROUPIER_BULK_TILE];
            croupier_bulk_tile(digits + p * n + start, m, d);
            for (int i = 0; i < CROUPIER_BULK_TILE; i++) {
                j[i] = (uint64_t)sizes[p];
                it[i] = undealt[i];
                picked[i] = 0;
            }
            const uint64_t *table = tables + at[p];
            for (int q = 0; q < left; q++) {
                const uint64_t *row = table + stride[p] * q;
                for (int i = 0; i < CROUPIER_BULK_TILE; i++) {
                    uint64_t t = row[j[i]];
                    uint64_t skip = d[i] >= t; /* 1 skips the card, 0 picks it */
                    d[i] -= t & (0 - skip);
                    j[i] -= 1 - skip;
                    uint64_t bit = it[i] & (0 - it[i]); /* the next card still undealt */
                    it[i] ^= bit;
                    picked[i] |= bit & (skip - 1);
                }
            }
            for (int i = 0; i < CROUPIER_BULK_TILE; i++) {
                cards[p][i] = picked[i];
                undealt[i] &= ~picked[i];
            }
            left -= (int)sizes[p];
        }
        memcpy(cards[piles - 1], undealt, sizeof undealt);
        for (int p = 0; p < piles; p++) {
            memcpy(masks + p * mn + start + shift, cards[p], (size_t)m * sizeof(uint64_t));
        }
        for (int i = 0; i < m; i++) {
            uint64_t deal[64];
            for (int p = 0; p < piles; p++) deal[p] = cards[p][i];
            croupier_bulk_labels(deal, piles, deck, out + (start + i + shift) * deck);
        }
    }
}

#endif
