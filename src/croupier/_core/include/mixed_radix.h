/* A whole number of up to 512 bits split into mixed-radix digits (each radix below 2**64).
 *
 * The number is held as 64-bit limbs, least significant first.  Dividing it by a radix d
 * walks the limbs from the top: each step divides (remainder * 2**64 + limb) by d, whose
 * quotient fits one limb because the remainder is below d.
 */
#ifndef CROUPIER_MIXED_RADIX_H
#define CROUPIER_MIXED_RADIX_H

#include <stdint.h>

#define CROUPIER_RADIX_LIMBS 8

/* (high * 2**64 + low) divided by d, for high < d: the quotient, and the remainder in *rem. */
static inline uint64_t croupier_div_128_64(uint64_t high, uint64_t low, uint64_t d, uint64_t *rem) {
#if defined(__SIZEOF_INT128__)
    unsigned __int128 cur = ((unsigned __int128)high << 64) | low;
    *rem = (uint64_t)(cur % d);
    return (uint64_t)(cur / d);
#else
    uint64_t q = 0;
    for (int i = 63; i >= 0; i--) { /* shift one bit of low in at a time */
        uint64_t carry = high >> 63;
        high = (high << 1) | ((low >> i) & 1);
        q <<= 1;
        if (carry || high >= d) {
            high -= d;
            q |= 1;
        }
    }
    *rem = high;
    return q;
#endif
}

/* limbs[0 .. count - 1] divided by d (> 0) in place; returns the remainder. */
static inline uint64_t croupier_limbs_divmod(uint64_t *limbs, int count, uint64_t d) {
    uint64_t rem = 0;
    for (int i = count - 1; i >= 0; i--) limbs[i] = croupier_div_128_64(rem, limbs[i], d, &rem);
    return rem;
}

#endif
