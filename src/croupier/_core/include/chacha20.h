/* The ChaCha20 block function (Bernstein's original layout: words 12-13 a 64-bit
 * block counter, words 14-15 the nonce), eight blocks at a time.
 *
 * Each of the 16 state words is a vector holding that word of eight consecutive
 * blocks (GCC/Clang vector extensions), so the quarter rounds run as vector
 * instructions on any target (SSE2 or NEON at least).
 */
#ifndef CROUPIER_CHACHA20_H
#define CROUPIER_CHACHA20_H

#include <stdint.h>
#include <string.h>

typedef uint32_t croupier_u32x8 __attribute__((vector_size(32)));

#define CROUPIER_ROTL(v, c) (((v) << (c)) | ((v) >> (32 - (c))))
#define CROUPIER_QUARTER(a, b, c, d)                                                   \
    do {                                                                               \
        a += b; d ^= a; d = CROUPIER_ROTL(d, 16);                                      \
        c += d; b ^= c; b = CROUPIER_ROTL(b, 12);                                      \
        a += b; d ^= a; d = CROUPIER_ROTL(d, 8);                                       \
        c += d; b ^= c; b = CROUPIER_ROTL(b, 7);                                       \
    } while (0)

/* x86-64 Linux builds also carry AVX2 and AVX-512 copies of the block function; the
 * loader picks the best the processor has (GCC's function multi-versioning). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define CROUPIER_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CROUPIER_CLONES
#endif

/* Blocks first .. first + m - 1 (m <= 8) of state into out, 16 words each. */
CROUPIER_CLONES static void croupier_chacha20_eight(const uint32_t *state, uint64_t first,
                                                    uint32_t *out, int m) {
    croupier_u32x8 s[16], x[16];
    for (int w = 0; w < 16; w++) {
        for (int j = 0; j < 8; j++) s[w][j] = state[w];
    }
    for (int j = 0; j < 8; j++) {
        uint64_t block = first + (uint64_t)j;
        s[12][j] = (uint32_t)block;
        s[13][j] = (uint32_t)(block >> 32);
    }
    for (int w = 0; w < 16; w++) x[w] = s[w];
    for (int r = 0; r < 10; r++) { /* column rounds, then diagonal rounds */
        CROUPIER_QUARTER(x[0], x[4], x[8], x[12]);
        CROUPIER_QUARTER(x[1], x[5], x[9], x[13]);
        CROUPIER_QUARTER(x[2], x[6], x[10], x[14]);
        CROUPIER_QUARTER(x[3], x[7], x[11], x[15]);
        CROUPIER_QUARTER(x[0], x[5], x[10], x[15]);
        CROUPIER_QUARTER(x[1], x[6], x[11], x[12]);
        CROUPIER_QUARTER(x[2], x[7], x[8], x[13]);
        CROUPIER_QUARTER(x[3], x[4], x[9], x[14]);
    }
    for (int w = 0; w < 16; w++) x[w] += s[w];
    for (int j = 0; j < m; j++) {
        for (int w = 0; w < 16; w++) out[16 * j + w] = x[w][j];
    }
}

/* count blocks from state (words 12-13: the first block's counter) into out. */
static inline void croupier_chacha20_blocks(const uint32_t *state, uint64_t count, uint32_t *out) {
    uint64_t first = (uint64_t)state[12] | ((uint64_t)state[13] << 32);
    for (uint64_t base = 0; base < count; base += 8) {
        int m = count - base >= 8 ? 8 : (int)(count - base);
        croupier_chacha20_eight(state, first + base, out + 16 * base, m);
    }
}

#endif
