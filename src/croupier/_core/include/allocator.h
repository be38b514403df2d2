/* How the C library's allocator keeps memory that a run frees, to reuse it.
 *
 * glibc's malloc returns freed memory to the system as soon as the top of its heap holds
 * more than a threshold, and gives blocks above another threshold pages of their own
 * (mmap), released when they are freed.  Both thresholds start at 128 KiB and adapt.  A
 * run that makes and drops arrays of a few hundred KiB again and again (a dealer
 * script evaluates one batch of deals after another) then asks the system for the same
 * pages, zeroed again, thousands of times.  Raising the two thresholds keeps that
 * memory for the next batch; the peak is the same.
 *
 * Elsewhere (another C library) nothing is changed and 0 is returned.
 */
#ifndef CROUPIER_ALLOCATOR_H
#define CROUPIER_ALLOCATOR_H

#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Give blocks of mmap_from bytes or more pages of their own, and keep up to trim_from
 * freed bytes at the top of the heap: 1 when the allocator took both settings. */
static inline int croupier_keep_freed_memory(int mmap_from, int trim_from) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    return mallopt(M_MMAP_THRESHOLD, mmap_from) == 1 && mallopt(M_TRIM_THRESHOLD, trim_from) == 1;
#else
    (void)mmap_from;
    (void)trim_from;
    return 0;
#endif
}

#endif
