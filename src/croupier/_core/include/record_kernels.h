/* Records of a buffer: counting and finding their separators, and gathering them in a new
 * order (the file shuffle and the file sample).
 *
 * A record ends one byte past its separator; a gather copies record order[q] (bytes
 * starts[i] .. starts[i] + lengths[i] - 1 of data) to the output, q after q, prefetching
 * the records a few places ahead (the reads are random, the writes in order).
 */
#ifndef CROUPIER_RECORD_KERNELS_H
#define CROUPIER_RECORD_KERNELS_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The bytes of p[0 .. 63] equal to sep, as the bits of a mask (bit i: byte i). */
static inline uint64_t croupier_byte_mask64(const uint8_t *p, uint8_t sep) {
#if defined(__SSE2__)
    const __m128i s = _mm_set1_epi8((char)sep);
    uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), s));
    uint64_t m1 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), s));
    uint64_t m2 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), s));
    uint64_t m3 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), s));
    return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
#else
    uint64_t m = 0;
    for (int i = 0; i < 64; i++) m |= (uint64_t)(p[i] == sep) << i;
    return m;
#endif
}

/* How many bytes of data[0 .. n - 1] equal sep (with the popcnt instruction where the
 * processor has it, chosen when the module loads). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static int64_t croupier_count_byte(const uint8_t *restrict data, int64_t n, uint8_t sep) {
    int64_t total = 0, i = 0;
    for (; i + 64 <= n; i += 64) total += __builtin_popcountll(croupier_byte_mask64(data + i, sep));
    for (; i < n; i++) total += data[i] == sep;
    return total;
}

/* How many bytes of data[0 .. n - 1] equal sep, and where the first and the last are
 * (-1 when there is none). */
static inline int64_t croupier_separator_span(const uint8_t *restrict data, int64_t n,
                                              uint8_t sep, int64_t *first, int64_t *last) {
    int64_t count = croupier_count_byte(data, n, sep);
    *first = *last = -1;
    if (!count) return 0;
    const uint8_t *p = (const uint8_t *)memchr(data, sep, (size_t)n);
    *first = p - data;
    for (int64_t i = n - 1; i >= 0; i--)
        if (data[i] == sep) {
            *last = i;
            break;
        }
    return count;
}

/* One past each sep in data[0 .. n - 1], plus offset, into ends (room for `room`):
 * how many were found, or -1 when there were more than room. */
#define CROUPIER_BYTE_ENDS(TYPE)                                                            \
    static inline int64_t croupier_byte_ends_##TYPE(const uint8_t *data, int64_t n, uint8_t sep,  \
                                              int64_t offset, TYPE *restrict ends,          \
                                              int64_t room) {                               \
        int64_t found = 0, i = 0;                                                          \
        for (; i + 64 <= n; i += 64) {                                                     \
            uint64_t mask = croupier_byte_mask64(data + i, sep);                           \
            if (room - found < 64 && found + __builtin_popcountll(mask) > room) return -1; \
            while (mask) {                                                                 \
                ends[found++] = (TYPE)(i + __builtin_ctzll(mask) + 1 + offset);            \
                mask &= mask - 1;                                                          \
            }                                                                              \
        }                                                                                  \
        for (; i < n; i++)                                                                 \
            if (data[i] == sep) {                                                          \
                if (found == room) return -1;                                              \
                ends[found++] = (TYPE)(i + 1 + offset);                                    \
            }                                                                              \
        return found;                                                                      \
    }
CROUPIER_BYTE_ENDS(int32_t)
CROUPIER_BYTE_ENDS(int64_t)

#define CROUPIER_GATHER_AHEAD 24 /* records prefetched ahead (their first and last bytes) */
#define CROUPIER_PLACES_AHEAD 64 /* places of records prefetched further ahead */

/* Records order[a .. b - 1] (of `records`; data has `size` bytes) copied one after the
 * other to out (room bytes): the bytes written, -1 when they would pass room, or -2 for
 * a record outside data (nothing is read or written out of bounds). */
#define CROUPIER_GATHER(TYPE)                                                               \
    static inline int64_t croupier_gather_##TYPE(const uint8_t *restrict data,                    \
                                          const TYPE *restrict starts,                     \
                                          const uint32_t *restrict lengths,                \
                                          int64_t records, int64_t size,                   \
                                          const int64_t *restrict order, int64_t a,        \
                                          int64_t b, uint8_t *restrict out, int64_t room) { \
        int64_t at = 0;                                                                    \
        for (int64_t q = a; q < b; q++) {                                                  \
            if (q + CROUPIER_PLACES_AHEAD < b) {                                           \
                int64_t far = order[q + CROUPIER_PLACES_AHEAD];                            \
                if ((uint64_t)far < (uint64_t)records) {                                   \
                    __builtin_prefetch(starts + far);                                      \
                    __builtin_prefetch(lengths + far);                                     \
                }                                                                          \
            }                                                                              \
            if (q + CROUPIER_GATHER_AHEAD < b) {                                           \
                int64_t ahead = order[q + CROUPIER_GATHER_AHEAD];                          \
                if ((uint64_t)ahead < (uint64_t)records) {                                 \
                    const uint8_t *at_ = data + starts[ahead];                             \
                    __builtin_prefetch(at_);                                               \
                    __builtin_prefetch(at_ + lengths[ahead] - 1);                          \
                }                                                                          \
            }                                                                              \
            int64_t i = order[q];                                                          \
            if ((uint64_t)i >= (uint64_t)records) return -2;                               \
            int64_t start = starts[i], length = lengths[i];                                \
            if (start < 0 || start + length > size) return -2;                             \
            if (at + length > room) return -1;                                             \
            memcpy(out + at, data + start, (size_t)length);                            \
            at += length;                                                                  \
        }                                                                                  \
        return at;                                                                         \
    }
CROUPIER_GATHER(int32_t)
CROUPIER_GATHER(int64_t)

/* The same for records that lie end to end: record i is bytes bounds[i] .. bounds[i + 1] - 1
 * (records + 1 bounds, rising), so a record's place and length are read from one spot
 * (one cache miss a record fewer than with separate starts and lengths). */
#define CROUPIER_GATHER_BOUNDS(TYPE)                                                        \
    static inline int64_t croupier_gather_bounds_##TYPE(const uint8_t *restrict data,             \
                                                 const TYPE *restrict bounds,              \
                                                 int64_t records, int64_t size,            \
                                                 const int64_t *restrict order, int64_t a, \
                                                 int64_t b, uint8_t *restrict out,         \
                                                 int64_t room) {                           \
        int64_t at = 0;                                                                    \
        for (int64_t q = a; q < b; q++) {                                                  \
            if (q + CROUPIER_PLACES_AHEAD < b) {                                           \
                int64_t far = order[q + CROUPIER_PLACES_AHEAD];                            \
                if ((uint64_t)far < (uint64_t)records) __builtin_prefetch(bounds + far);   \
            }                                                                              \
            if (q + CROUPIER_GATHER_AHEAD < b) {                                           \
                int64_t ahead = order[q + CROUPIER_GATHER_AHEAD];                          \
                if ((uint64_t)ahead < (uint64_t)records) {                                 \
                    const uint8_t *at_ = data + bounds[ahead];                             \
                    __builtin_prefetch(at_);                                               \
                    __builtin_prefetch(data + bounds[ahead + 1] - 1);                      \
                }                                                                          \
            }                                                                              \
            int64_t i = order[q];                                                          \
            if ((uint64_t)i >= (uint64_t)records) return -2;                               \
            int64_t start = bounds[i], end = bounds[i + 1];                                \
            if (start < 0 || start > end || end > size) return -2;                         \
            if (at + (end - start) > room) return -1;                                      \
            memcpy(out + at, data + start, (size_t)(end - start));                         \
            at += end - start;                                                             \
        }                                                                                  \
        return at;                                                                         \
    }
CROUPIER_GATHER_BOUNDS(int32_t)
CROUPIER_GATHER_BOUNDS(int64_t)

/* Slices of order[a .. b - 1] to gather and write at once: about slice_bytes each, a record
 * of long_record bytes or more alone.  Slice j ends at order place ends[j] and holds
 * bytes[j] bytes; returns how many slices (at most b - a), or -1 for a record outside
 * lengths (of `records`). */
static inline int64_t croupier_cut_slices(const uint32_t *restrict lengths, int64_t records,
                                   const int64_t *restrict order, int64_t a, int64_t b,
                                   int64_t slice_bytes, int64_t long_record,
                                   int64_t *restrict ends, int64_t *restrict bytes) {
    int64_t made = 0, held = 0, from = a;
    for (int64_t q = a; q < b; q++) {
        int64_t i = order[q];
        if ((uint64_t)i >= (uint64_t)records) return -1;
        int64_t length = lengths[i];
        if (length >= long_record) {
            if (q > from) {
                ends[made] = q;
                bytes[made++] = held;
            }
            ends[made] = q + 1;
            bytes[made++] = length;
            held = 0;
            from = q + 1;
            continue;
        }
        held += length;
        if (held >= slice_bytes) {
            ends[made] = q + 1;
            bytes[made++] = held;
            held = 0;
            from = q + 1;
        }
    }
    if (b > from) {
        ends[made] = b;
        bytes[made++] = held;
    }
    return made;
}

#endif
