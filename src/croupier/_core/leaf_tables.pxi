# The split shuffle's leaf tables as the C kernels take them (include/split_kernels.h):
# included by the kernels that draw and arrange leaves (split.pyx, keyed.pyx).
from libc.stdint cimport int64_t, uint64_t


cdef extern from "split_kernels.h" nogil:
    ctypedef struct croupier_leaf_tables:
        const int64_t *first
        const int64_t *count
        const int64_t *widths
        const int64_t *top
        const int64_t *bottom
        const uint64_t *ranges
        const uint64_t *highest
        const uint64_t *magic
        const uint64_t *shift
