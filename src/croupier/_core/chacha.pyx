# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The ChaCha20 keystream (the compiled form of ``croupier.randomness.chacha.chacha_block_reference``).

Bernstein's original layout: 16 little-endian words of state, words 12-13 a
64-bit block counter, 20 rounds (10 double rounds), the input added to the
output.  The block function is the small C kernel ``include/chacha20.h``: eight
blocks at a time, each state word a vector over them.
"""

from libc.stdint cimport uint32_t, uint64_t


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
