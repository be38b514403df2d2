# cython: language_level=3
"""The C allocator told to keep the memory a run frees for its next arrays
(C: ``include/allocator.h``; glibc's ``mallopt``, nothing elsewhere).

>>> keep_freed_memory(32 << 20, 64 << 20) in (True, False)
True
"""

cdef extern from "allocator.h" nogil:
    int croupier_keep_freed_memory(int mmap_from, int trim_from)


def keep_freed_memory(int mmap_from, int trim_from):
    """Blocks of ``mmap_from`` bytes or more get pages of their own; up to ``trim_from``
    freed bytes stay in the heap for reuse.  Whether the allocator took both settings
    (``False`` where the C library is not glibc)."""
    if mmap_from <= 0 or trim_from <= 0:
        raise ValueError("the thresholds are positive byte counts")
    return croupier_keep_freed_memory(mmap_from, trim_from) == 1
