/* A number held as 32-bit limbs (least significant first) divided in place by a divisor
 * below 2**32, the remainder returned: one pass from the top limb down.
 *
 * Each step divides (remainder * 2**32 + limb), below divisor * 2**32, by the divisor.  A
 * hardware division takes tens of cycles; with the divisor's reciprocal m = floor((2**64 -
 * 1) / divisor), made once a pass, the quotient is the high half of a 64 x 64-bit product,
 * at most two below the true one, and is corrected exactly.
 */
#ifndef CROUPIER_LIMB_DIVIDE_H
#define CROUPIER_LIMB_DIVIDE_H

#include <stdint.h>

static inline uint64_t croupier_limbs32_divmod(uint32_t *limbs, long top, uint64_t divisor) {
    uint64_t rem = 0;
#if defined(__SIZEOF_INT128__)
    const uint64_t m = UINT64_MAX / divisor;
    for (long i = top - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | limbs[i];
        uint64_t q = (uint64_t)(((unsigned __int128)cur * m) >> 64);
        uint64_t r = cur - q * divisor;
        while (r >= divisor) {
            q++;
            r -= divisor;
        }
        limbs[i] = (uint32_t)q;
        rem = r;
    }
#else
    for (long i = top - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | limbs[i];
        limbs[i] = (uint32_t)(cur / divisor);
        rem = cur % divisor;
    }
#endif
    return rem;
}

#endif
