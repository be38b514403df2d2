/* SHAKE-128 (FIPS 202) of short messages: Keccak-f[1600], rate 168 bytes.
 *
 * croupier_shake128_blocks() makes the keyed blocks of the croupier-bulk streams:
 * block b is SHAKE-128(prefix || b as 8 big-endian bytes), its first `length`
 * bytes written at out + b * length.  The message fits one rate block (the
 * prefix is at most 159 bytes), so absorbing is one permutation; every further
 * 168 bytes squeezed is one more.  Lanes are little-endian, as FIPS 202 reads them.
 */
#ifndef CROUPIER_SHAKE128_H
#define CROUPIER_SHAKE128_H

#include <stdint.h>
#include <string.h>

#define CROUPIER_SHAKE128_RATE 168

static const uint64_t croupier_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define CROUPIER_ROTL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/* The 24 rounds, the lanes held in locals (theta, rho and pi, chi, iota), for lanes of
 * type T: uint64_t (one state), or a vector of 4 or 8 of them (that many states at once,
 * each vector element a state; GCC's vector extensions, compiled for AVX2 or AVX-512 and
 * chosen when the processor has it). */
#define CROUPIER_KECCAK_F1600(NAME, T, ATTR) \
    ATTR static inline void NAME(T s[25]) { \
    T a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4]; \
    T a05 = s[5], a06 = s[6], a07 = s[7], a08 = s[8], a09 = s[9]; \
    T a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14]; \
    T a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19]; \
    T a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24]; \
    for (int r = 0; r < 24; r++) { \
        T c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20; \
        T c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21; \
        T c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22; \
        T c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23; \
        T c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24; \
        T d0 = c4 ^ CROUPIER_ROTL64(c1, 1); \
        T d1 = c0 ^ CROUPIER_ROTL64(c2, 1); \
        T d2 = c1 ^ CROUPIER_ROTL64(c3, 1); \
        T d3 = c2 ^ CROUPIER_ROTL64(c4, 1); \
        T d4 = c3 ^ CROUPIER_ROTL64(c0, 1); \
        /* theta applied, then rho (rotations) and pi (B[y][2x+3y] = rot(A[x][y])) */ \
        T b00 = a00 ^ d0; \
        T b10 = CROUPIER_ROTL64(a01 ^ d1, 1); \
        T b20 = CROUPIER_ROTL64(a02 ^ d2, 62); \
        T b05 = CROUPIER_ROTL64(a03 ^ d3, 28); \
        T b15 = CROUPIER_ROTL64(a04 ^ d4, 27); \
        T b16 = CROUPIER_ROTL64(a05 ^ d0, 36); \
        T b01 = CROUPIER_ROTL64(a06 ^ d1, 44); \
        T b11 = CROUPIER_ROTL64(a07 ^ d2, 6); \
        T b21 = CROUPIER_ROTL64(a08 ^ d3, 55); \
        T b06 = CROUPIER_ROTL64(a09 ^ d4, 20); \
        T b07 = CROUPIER_ROTL64(a10 ^ d0, 3); \
        T b17 = CROUPIER_ROTL64(a11 ^ d1, 10); \
        T b02 = CROUPIER_ROTL64(a12 ^ d2, 43); \
        T b12 = CROUPIER_ROTL64(a13 ^ d3, 25); \
        T b22 = CROUPIER_ROTL64(a14 ^ d4, 39); \
        T b23 = CROUPIER_ROTL64(a15 ^ d0, 41); \
        T b08 = CROUPIER_ROTL64(a16 ^ d1, 45); \
        T b18 = CROUPIER_ROTL64(a17 ^ d2, 15); \
        T b03 = CROUPIER_ROTL64(a18 ^ d3, 21); \
        T b13 = CROUPIER_ROTL64(a19 ^ d4, 8); \
        T b14 = CROUPIER_ROTL64(a20 ^ d0, 18); \
        T b24 = CROUPIER_ROTL64(a21 ^ d1, 2); \
        T b09 = CROUPIER_ROTL64(a22 ^ d2, 61); \
        T b19 = CROUPIER_ROTL64(a23 ^ d3, 56); \
        T b04 = CROUPIER_ROTL64(a24 ^ d4, 14); \
        a00 = b00 ^ (~b01 & b02) ^ croupier_keccak_rc[r]; \
        a01 = b01 ^ (~b02 & b03); \
        a02 = b02 ^ (~b03 & b04); \
        a03 = b03 ^ (~b04 & b00); \
        a04 = b04 ^ (~b00 & b01); \
        a05 = b05 ^ (~b06 & b07); \
        a06 = b06 ^ (~b07 & b08); \
        a07 = b07 ^ (~b08 & b09); \
        a08 = b08 ^ (~b09 & b05); \
        a09 = b09 ^ (~b05 & b06); \
        a10 = b10 ^ (~b11 & b12); \
        a11 = b11 ^ (~b12 & b13); \
        a12 = b12 ^ (~b13 & b14); \
        a13 = b13 ^ (~b14 & b10); \
        a14 = b14 ^ (~b10 & b11); \
        a15 = b15 ^ (~b16 & b17); \
        a16 = b16 ^ (~b17 & b18); \
        a17 = b17 ^ (~b18 & b19); \
        a18 = b18 ^ (~b19 & b15); \
        a19 = b19 ^ (~b15 & b16); \
        a20 = b20 ^ (~b21 & b22); \
        a21 = b21 ^ (~b22 & b23); \
        a22 = b22 ^ (~b23 & b24); \
        a23 = b23 ^ (~b24 & b20); \
        a24 = b24 ^ (~b20 & b21); \
    } \
    s[0] = a00; s[1] = a01; s[2] = a02; s[3] = a03; s[4] = a04; \
    s[5] = a05; s[6] = a06; s[7] = a07; s[8] = a08; s[9] = a09; \
    s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14; \
    s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19; \
    s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24; \
}

CROUPIER_KECCAK_F1600(croupier_keccak_f1600, uint64_t, )

/* The lanes as bytes, little-endian on any machine. */
static inline void croupier_keccak_xor_bytes(uint64_t s[25], const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++) s[i / 8] ^= (uint64_t)in[i] << (8 * (i % 8));
}

static inline void croupier_keccak_get_bytes(const uint64_t s[25], uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(s[i / 8] >> (8 * (i % 8)));
}

/* SHAKE-128 of a message shorter than the rate; `length` bytes out. */
static inline void croupier_shake128_short(const uint8_t *msg, size_t n, uint8_t *out,
                                           size_t length) {
    uint64_t s[25] = {0};
    croupier_keccak_xor_bytes(s, msg, n);
    s[n / 8] ^= (uint64_t)0x1F << (8 * (n % 8));
    s[(CROUPIER_SHAKE128_RATE - 1) / 8] ^= (uint64_t)0x80 << (8 * ((CROUPIER_SHAKE128_RATE - 1) % 8));
    for (;;) {
        croupier_keccak_f1600(s);
        size_t take = length < CROUPIER_SHAKE128_RATE ? length : CROUPIER_SHAKE128_RATE;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(out, s, take);
#else
        croupier_keccak_get_bytes(s, out, take);
#endif
        out += take;
        length -= take;
        if (length == 0) return;
    }
}

/* The padded state of the message prefix || block (8 big-endian bytes): one rate block. */
static inline void croupier_shake128_start(uint64_t s[25], uint8_t *msg, size_t n,
                                           uint64_t block) {
    for (int k = 0; k < 8; k++) msg[n + k] = (uint8_t)(block >> (56 - 8 * k));
    memset(s, 0, 25 * sizeof(uint64_t));
    croupier_keccak_xor_bytes(s, msg, n + 8);
    s[(n + 8) / 8] ^= (uint64_t)0x1F << (8 * ((n + 8) % 8));
    s[(CROUPIER_SHAKE128_RATE - 1) / 8] ^= (uint64_t)0x80 << (8 * ((CROUPIER_SHAKE128_RATE - 1) % 8));
}

static inline void croupier_shake128_blocks_one(const uint8_t *prefix, size_t n, uint64_t first,
                                                size_t count, size_t length, uint8_t *out) {
    uint8_t msg[CROUPIER_SHAKE128_RATE];
    memcpy(msg, prefix, n);
    for (size_t b = 0; b < count; b++) {
        uint64_t block = first + b;
        for (int k = 0; k < 8; k++) msg[n + k] = (uint8_t)(block >> (56 - 8 * k));
        croupier_shake128_short(msg, n + 8, out + b * length, length);
    }
}

#if defined(__GNUC__) && defined(__x86_64__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CROUPIER_SHAKE_LANES 1
typedef uint64_t croupier_lanes4 __attribute__((vector_size(32)));
typedef uint64_t croupier_lanes8 __attribute__((vector_size(64)));
CROUPIER_KECCAK_F1600(croupier_keccak_f1600_x4, croupier_lanes4, __attribute__((target("avx2"))))
CROUPIER_KECCAK_F1600(croupier_keccak_f1600_x8, croupier_lanes8,
                      __attribute__((target("avx512f"))))

/* N blocks at a time, one state in each element of the lanes (the rest one by one). */
#define CROUPIER_SHAKE128_BLOCKS_X(NAME, PERMUTE, T, N, ATTR)                                \
    ATTR static void NAME(const uint8_t *prefix, size_t n, uint64_t first, size_t count,    \
                          size_t length, uint8_t *out) {                                    \
        uint8_t msg[CROUPIER_SHAKE128_RATE];                                                \
        uint64_t one[25], lanes[25];                                                        \
        memcpy(msg, prefix, n);                                                             \
        size_t b = 0;                                                                       \
        for (; b + N <= count; b += N) {                                                    \
            T st[25];                                                                       \
            for (int i = 0; i < N; i++) {                                                   \
                croupier_shake128_start(one, msg, n, first + b + i);                        \
                for (int j = 0; j < 25; j++) st[j][i] = one[j];                             \
            }                                                                               \
            size_t left = length, at = 0;                                                   \
            for (;;) {                                                                      \
                PERMUTE(st);                                                                \
                size_t take = left < CROUPIER_SHAKE128_RATE ? left : CROUPIER_SHAKE128_RATE; \
                for (int i = 0; i < N; i++) {                                               \
                    for (int j = 0; j < 21; j++) lanes[j] = st[j][i];                       \
                    memcpy(out + (b + i) * length + at, lanes, take);                       \
                }                                                                           \
                at += take;                                                                 \
                left -= take;                                                               \
                if (left == 0) break;                                                       \
            }                                                                               \
        }                                                                                   \
        if (b < count)                                                                      \
            croupier_shake128_blocks_one(prefix, n, first + b, count - b, length,          \
                                         out + b * length);                                 \
    }
CROUPIER_SHAKE128_BLOCKS_X(croupier_shake128_blocks_x4, croupier_keccak_f1600_x4,
                           croupier_lanes4, 4, __attribute__((target("avx2"))))
CROUPIER_SHAKE128_BLOCKS_X(croupier_shake128_blocks_x8, croupier_keccak_f1600_x8,
                           croupier_lanes8, 8, __attribute__((target("avx512f"))))

/* 8: AVX-512, 4: AVX2, 1: neither (asked of the processor once). */
static inline int croupier_shake128_width(void) {
    static int width = 0;
    if (!width) {
        __builtin_cpu_init();
        width = __builtin_cpu_supports("avx512f") ? 8 : __builtin_cpu_supports("avx2") ? 4 : 1;
    }
    return width;
}
#else
static inline int croupier_shake128_width(void) { return 1; }
#endif

/* Blocks first .. first + count - 1 of the stream named by `prefix` (at most 159 bytes):
 * several at once in the lanes of the processor's vectors where it has AVX2 or AVX-512
 * (the same bytes: each vector element is one state). */
static inline void croupier_shake128_blocks(const uint8_t *prefix, size_t n, uint64_t first,
                                            size_t count, size_t length, uint8_t *out) {
#ifdef CROUPIER_SHAKE_LANES
    int width = croupier_shake128_width();
    if (width == 8 && count >= 8) {
        croupier_shake128_blocks_x8(prefix, n, first, count, length, out);
        return;
    }
    if (width >= 4 && count >= 4) {
        croupier_shake128_blocks_x4(prefix, n, first, count, length, out);
        return;
    }
#endif
    croupier_shake128_blocks_one(prefix, n, first, count, length, out);
}

#endif
