# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Keyed SHAKE-128 blocks (the compiled form of ``croupier.randomness.bulk_stream``'s blocks).

Block ``b`` of a stream is ``SHAKE-128(prefix || b)``, ``b`` as 8 big-endian
bytes, the prefix the stream's key and the kind (``b"main"``, ``b"retry"``).
The C kernel (``include/shake128.h``) is FIPS 202's Keccak-f[1600]; it makes
the blocks of one call with the interpreter lock released, so the threads of
bulk dealing draw their blocks at once, and where the processor has AVX-512 or
AVX2 it makes 8 or 4 blocks at once, one state in each element of its vectors
(:func:`lanes`).  The tests compare it with
:mod:`hashlib` byte for byte.
"""

from libc.stdint cimport uint8_t, uint64_t


cdef extern from "shake128.h" nogil:
    void croupier_shake128_blocks(const uint8_t *prefix, size_t n, uint64_t first,
                                  size_t count, size_t length, uint8_t *out)
    int croupier_shake128_width()


MAX_PREFIX = 159
"""The longest prefix: with the block number, the message fits one rate block."""


def shake128_blocks(const uint8_t[::1] prefix, uint64_t first, Py_ssize_t count,
                    Py_ssize_t length, uint8_t[::1] out):
    """Blocks ``first .. first + count - 1`` of the stream ``prefix``, ``length`` bytes each,
    one after the other into ``out``."""
    cdef Py_ssize_t n = prefix.shape[0]
    if n > MAX_PREFIX:
        raise ValueError(f"a prefix of {n} bytes is longer than {MAX_PREFIX}")
    if count < 0 or length < 0 or out.shape[0] < count * length:
        raise ValueError(f"{count} blocks of {length} bytes do not fit {out.shape[0]} bytes")
    if count == 0 or length == 0:
        return
    if first + <uint64_t>(count - 1) < first:
        raise ValueError("the block numbers pass 2**64 - 1")
    with nogil:
        croupier_shake128_blocks(&prefix[0], <size_t>n, first, <size_t>count, <size_t>length,
                                 &out[0])


def lanes():
    """How many blocks this processor makes at once: 8 (AVX-512), 4 (AVX2) or 1."""
    return croupier_shake128_width()
