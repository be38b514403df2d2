/* The keyed split shuffle (croupier-keyed-split/1): keys, the stable order by key, and each
 * leaf's draws and Fisher-Yates from its own SHAKE-128 stream.
 *
 * Streams, under a 32-byte key:
 *   key block b:   the first 8192 * k bytes of SHAKE-128(key || KEYS_LABEL || b);
 *   leaf stream j: SHAKE-128(key || LEAF_LABEL || j),
 * b and j as 8 big-endian bytes.  Item i's key is the k-bit big-endian field at bit
 * (i % 65536) * k of key block i / 65536.
 *
 * A leaf of m items reads its chunks' first attempts from bit 0 of its stream, in order;
 * then, round by round, every chunk still rejected reads its width again from where the
 * stream stands, in order.  A chunk's value splits into mixed-radix digits (radix top down
 * to bottom) and digit d below radix r swaps the leaf's places r - 1 and d.
 */
#ifndef CROUPIER_KEYED_SPLIT_H
#define CROUPIER_KEYED_SPLIT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shake128.h"
#include "split_kernels.h"

#define CROUPIER_KEYED_BLOCK 65536
#define CROUPIER_KEYED_LABEL_BYTES 27
static const uint8_t croupier_keyed_keys_label[] = "croupier-keyed-split/1 keys";
static const uint8_t croupier_keyed_leaf_label[] = "croupier-keyed-split/1 leaf";

/* The SHAKE-128 stream key || label || number (8 big-endian bytes), length bytes. */
static inline void croupier_keyed_stream(const uint8_t *key, const uint8_t *label,
                                         uint64_t number, uint8_t *out, size_t length) {
    uint8_t msg[32 + CROUPIER_KEYED_LABEL_BYTES + 8];
    memcpy(msg, key, 32);
    memcpy(msg + 32, label, CROUPIER_KEYED_LABEL_BYTES);
    for (int i = 0; i < 8; i++) msg[32 + CROUPIER_KEYED_LABEL_BYTES + i] = (uint8_t)(number >> (56 - 8 * i));
    croupier_shake128_short(msg, sizeof msg, out, length);
}

/* The k-bit (1..32) keys of items start .. start + count - 1 into keys, the key blocks made
 * 8 at a time (several at once where the processor's vectors allow).  Returns 0, or -1
 * when memory ran out. */
static inline int croupier_keyed_keys(const uint8_t *key, int k, int64_t start, int64_t count,
                                      uint32_t *restrict keys) {
    enum { GROUP = 8 };
    size_t length = (size_t)CROUPIER_KEYED_BLOCK * (size_t)k / 8;
    uint8_t *blocks = (uint8_t *)malloc(GROUP * length + 16);
    if (!blocks) return -1;
    memset(blocks + GROUP * length, 0, 16);
    uint8_t prefix[32 + CROUPIER_KEYED_LABEL_BYTES];
    memcpy(prefix, key, 32);
    memcpy(prefix + 32, croupier_keyed_keys_label, CROUPIER_KEYED_LABEL_BYTES);
    int64_t done = 0;
    while (done < count) {
        int64_t item = start + done;
        int64_t b0 = item / CROUPIER_KEYED_BLOCK;
        int64_t b_last = (start + count - 1) / CROUPIER_KEYED_BLOCK;
        int64_t many = b_last - b0 + 1 < GROUP ? b_last - b0 + 1 : GROUP;
        croupier_shake128_blocks(prefix, sizeof prefix, (uint64_t)b0, (size_t)many, length,
                                 blocks);
        for (int64_t b = 0; b < many && done < count; b++) {
            const uint8_t *block = blocks + b * length;
            int64_t offset = (start + done) % CROUPIER_KEYED_BLOCK;
            int64_t take = CROUPIER_KEYED_BLOCK - offset;
            if (take > count - done) take = count - done;
            /* (a field of the last block may read up to 8 bytes past it: the next block's,
             * or the zeros after the last) */
            for (int64_t i = 0; i < take; i++)
                keys[done + i] = (uint32_t)croupier_field(block, (offset + i) * k, k);
            done += take;
        }
    }
    free(blocks);
    return 0;
}

/* The items i_from .. i_to - 1 counted by key into counts (`size` of them): 0, or -1 at
 * a key with no counter. */
static inline int croupier_keyed_count(const uint32_t *restrict keys, int64_t i_from, int64_t i_to,
                                int64_t *restrict counts, int64_t size) {
    for (int64_t i = i_from; i < i_to; i++) {
        if (keys[i] >= (uint64_t)size) return -1;
        counts[keys[i]]++;
    }
    return 0;
}

/* Items i_from .. i_to - 1 with a key in lo .. hi - 1 put at order[pos[key]] (`places`
 * of them; pos has `size` counters), pos advancing: a stable counting sort of those items
 * when pos holds each key's first place for them.  0, or -1 at a key with no counter or
 * a place past the order. */
static inline int croupier_keyed_place(const uint32_t *restrict keys, int64_t i_from,
                                       int64_t i_to, uint64_t lo, uint64_t hi,
                                       int64_t *restrict pos, int64_t size,
                                       int64_t *restrict order, int64_t places) {
    if (hi > (uint64_t)size) return -1;
    for (int64_t i = i_from; i < i_to; i++) {
        uint64_t key = keys[i];
        if (key < lo || key >= hi) continue;
        int64_t p = pos[key]++;
        if ((uint64_t)p >= (uint64_t)places) return -1;
        order[p] = i;
    }
    return 0;
}

/* The w-bit field at bit `bit` of a leaf's stream, made longer (as Python does: twice
 * as long, and 64 bytes more) while the field passes its end.  Returns -1 when memory ran
 * out, else 0 with the field in *out. */
static inline int croupier_keyed_read(const uint8_t *key, uint64_t leaf, uint8_t **stream,
                               size_t *length, size_t *room, int64_t bit, int w,
                               uint64_t *out) {
    while ((uint64_t)(bit + w) > 8 * (uint64_t)*length) {
        size_t longer = 2 * *length + 64;
        if (longer + 16 > *room) {
            uint8_t *grown = (uint8_t *)realloc(*stream, longer + 16);
            if (!grown) return -1;
            *stream = grown;
            *room = longer + 16;
        }
        croupier_keyed_stream(key, croupier_keyed_leaf_label, leaf, *stream, longer);
        memset(*stream + longer, 0, 16);
        *length = longer;
    }
    *out = croupier_field(*stream, bit, w);
    return 0;
}

/* Leaves g_from .. g_to - 1 arranged in place: leaf g (number leaves[g]) holds
 * order[starts[g] .. starts[g] + sizes[g] - 1].  leaf_bits[m] is the first attempts' bits
 * of a leaf of m items; magic/shift divide values below 2**60 by a radix (NULL: divide).
 * The bits read go to *bits.  Returns 0, or -1 when memory ran out. */
static inline int croupier_keyed_leaves(const uint8_t *key, const uint64_t *restrict leaves,
                                 const int64_t *restrict sizes, const int64_t *restrict starts,
                                 int64_t g_from, int64_t g_to, const croupier_leaf_tables *t,
                                 const int64_t *restrict leaf_bits, int64_t *restrict order,
                                 int64_t *bits) {
    const uint64_t *restrict magic = t->magic;
    const uint64_t *restrict shift = t->shift;
    int64_t most = 0, total = 0;
    uint32_t digits[CROUPIER_DIGITS + 64]; /* a chunk has fewer than 64 radices */
    for (int64_t g = g_from; g < g_to; g++)
        if (sizes[g] >= 2 && t->count[sizes[g]] > most) most = t->count[sizes[g]];
    uint64_t *values = (uint64_t *)malloc((size_t)(most + 1) * sizeof(uint64_t));
    int64_t *todo = (int64_t *)malloc((size_t)(most + 1) * sizeof(int64_t));
    uint8_t *stream = NULL;
    size_t room = 0;
    int failed = values == NULL || todo == NULL;
    for (int64_t g = g_from; g < g_to && !failed; g++) {
        int64_t m = sizes[g];
        if (m < 2) continue;
        int64_t f = t->first[m], chunks = t->count[m], need = leaf_bits[m];
        size_t length = (size_t)((need + 7) / 8 + 16 + need / 64);
        if (length + 16 > room) {
            uint8_t *grown = (uint8_t *)realloc(stream, length + 16);
            if (!grown) {
                failed = 1;
                break;
            }
            stream = grown;
            room = length + 16;
        }
        croupier_keyed_stream(key, croupier_keyed_leaf_label, leaves[g], stream, length);
        memset(stream + length, 0, 16);
        int64_t bit = 0, left = 0;
        for (int64_t c = 0; c < chunks; c++) {
            int w = (int)t->widths[f + c];
            uint64_t v = croupier_field(stream, bit, w);
            bit += w;
            if (v <= t->highest[f + c]) values[c] = v % t->ranges[f + c];
            else todo[left++] = c;
        }
        total += need;
        while (left && !failed) { /* rounds of redraws, reading on in the leaf's stream */
            int64_t still = 0;
            for (int64_t j = 0; j < left; j++) {
                int64_t c = todo[j];
                int w = (int)t->widths[f + c];
                uint64_t v;
                if (croupier_keyed_read(key, leaves[g], &stream, &length, &room, bit, w, &v)) {
                    failed = 1;
                    break;
                }
                bit += w;
                total += w;
                if (v <= t->highest[f + c]) values[c] = v % t->ranges[f + c];
                else todo[still++] = c;
            }
            left = still;
        }
        int64_t *items = order + starts[g];
        int64_t held = 0, from = m; /* digits[j] is the digit of radix from - j */
        for (int64_t c = 0; c < chunks; c++) { /* digits first, then their swaps in order */
            held += croupier_chunk_digits(values[c], t->top[f + c], t->bottom[f + c], magic, shift,
                                          digits + held);
            if (held >= CROUPIER_DIGITS || c + 1 == chunks) {
                for (int64_t j = 0; j < held; j++) {
                    int64_t r = from - j, d = digits[j];
                    int64_t swapped = items[r - 1];
                    items[r - 1] = items[d];
                    items[d] = swapped;
                }
                from -= held;
                held = 0;
            }
        }
    }
    free(values);
    free(todo);
    free(stream);
    *bits = total;
    return failed ? -1 : 0;
}

#endif
