# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The ChaCha20 keystream (the compiled form of ``croupier.randomness.chacha.chacha_block_reference``).

Bernstein's original layout: 16 little-endian words of state, words 12-13 a
64-bit block counter, 20 rounds (10 double rounds), the input added to the
output.  The block function is the small C kernel ``include/chacha20.h``: eight
blocks at a time, each state word a vector over them.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, uintptr_t
from libc.string cimport memcpy, memset


cdef extern from "chacha20.h" nogil:
    void croupier_chacha20_blocks(const uint32_t *state, uint64_t count, uint32_t *out)


def keystream(const uint32_t[::1] state, Py_ssize_t count, uint32_t[::1] out):
    """``count`` keystream blocks from the 16-word ``state`` into ``out`` (``16 * count`` words).

    The block counter of the first block is in words 12-13 of ``state``; the
    interpreter lock is released while the blocks are made.
    """
    if state.shape[0] != 16:
        raise ValueError(f"a ChaCha20 state has 16 words, not {state.shape[0]}")
    if count < 0 or out.shape[0] < 16 * count:
        raise ValueError(f"{count} blocks need {16 * count} words, the output has {out.shape[0]}")
    if count == 0:
        return
    with nogil:
        croupier_chacha20_blocks(&state[0], <uint64_t>count, &out[0])


cdef bint _big_endian() noexcept nogil:
    cdef uint32_t one = 1
    return (<uint8_t *>&one)[0] == 0


def keystream_bits(const uint8_t[::1] key, uint64_t first, Py_ssize_t count, uint8_t[::1] out,
                   Py_ssize_t k):
    """The first ``k`` bits of blocks ``first .. first + count - 1`` under the 32-byte ``key``
    (the nonce zero) as bytes in ``out``: the keystream's bytes, the unused low bits of the
    last byte and every byte after it zero.

    ``out`` is 4-byte aligned and holds at least ``64 * count`` bytes; ``k`` is at most
    ``512 * count``.  The interpreter lock is released while the blocks are made.
    """
    cdef uint32_t state[16]
    cdef uint32_t *words
    cdef Py_ssize_t nbytes = (k + 7) >> 3, i
    cdef uint32_t w
    if key.shape[0] != 32:
        raise ValueError(f"a ChaCha20 key has 32 bytes, not {key.shape[0]}")
    if count < 0 or out.shape[0] < 64 * count or not 0 <= k <= 512 * count:
        raise ValueError(f"{count} blocks of {k} bits do not fit {out.shape[0]} bytes")
    if count and (<uintptr_t>&out[0]) % 4:
        raise ValueError("the keystream's output is not 4-byte aligned")
    if count and first + <uint64_t>(count - 1) < first:
        raise ValueError(f"ChaCha20 blocks from {first} on wrap past 2**64")
    state[0], state[1], state[2], state[3] = 0x61707865, 0x3320646E, 0x79622D32, 0x6B206574
    for i in range(8):
        state[4 + i] = (key[4 * i] | (<uint32_t>key[4 * i + 1] << 8)
                        | (<uint32_t>key[4 * i + 2] << 16) | (<uint32_t>key[4 * i + 3] << 24))
    state[12] = <uint32_t>(first & 0xFFFFFFFF)
    state[13] = <uint32_t>(first >> 32)
    state[14] = 0
    state[15] = 0
    if count == 0:
        if out.shape[0]:
            memset(&out[0], 0, out.shape[0])
        return
    with nogil:
        words = <uint32_t *>&out[0]
        croupier_chacha20_blocks(state, <uint64_t>count, words)
        if _big_endian():  # the keystream's words are little-endian
            for i in range(16 * count):
                w = words[i]
                words[i] = (w >> 24) | ((w >> 8) & 0xFF00) | ((w << 8) & 0xFF0000) | (w << 24)
        if k & 7:
            out[nbytes - 1] &= (0xFF00 >> (k & 7)) & 0xFF
        if out.shape[0] > nbytes:
            memset(&out[nbytes], 0, out.shape[0] - nbytes)
