"""The compiled ChaCha20 keystream against RFC 8439, the plain-Python reference and pycryptodome."""

from __future__ import annotations

import numpy as np
import pytest
from Crypto.Cipher import ChaCha20

from croupier._core.chacha import keystream, keystream_bits
from croupier.errors import CroupierError
from croupier.randomness.chacha import chacha_block_reference, chacha_blocks


def _rfc_state() -> np.ndarray:
    # RFC 8439 section 2.3.2: key 00..1f, block count 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00
    # (in this layout the counter is words 12-13 and the nonce words 14-15)
    state = np.zeros(16, np.uint32)
    state[:4] = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)
    state[4:12] = np.frombuffer(bytes(range(32)), "<u4")
    state[12:16] = (1, 0x09000000, 0x4A000000, 0)
    return state


RFC_8439_BLOCK = (
    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
)


def test_the_kernel_makes_rfc_8439s_block() -> None:
    out = np.empty(16, np.uint32)
    keystream(_rfc_state(), 1, out)
    assert out.astype("<u4").tobytes().hex() == RFC_8439_BLOCK


@pytest.mark.parametrize("count", [1, 2, 7, 8, 9, 15, 16, 17, 40])
def test_every_count_of_blocks_matches_the_reference(count: int) -> None:
    # the kernel makes eight blocks at a time: counts around multiples of eight
    key = bytes(range(100, 132))
    for first in (0, 5, 2**32 - 3):  # the counter carries into word 13
        expected = b"".join(chacha_block_reference(key, first + i) for i in range(count))
        assert chacha_blocks(key, first, count) == expected
        assert chacha_blocks(key, first, count, engine="python") == expected


def test_a_long_stream_matches_pycryptodome() -> None:
    key = bytes(range(7, 39))
    for first, count in [(0, 1000), (2**32 - 2, 5), (2**63 + 11, 33)]:
        cipher = ChaCha20.new(key=key, nonce=bytes(8))
        cipher.seek(64 * first)
        assert chacha_blocks(key, first, count) == cipher.encrypt(bytes(64 * count))


def test_the_kernel_never_writes_past_the_blocks_asked_for() -> None:
    out = np.full(16 * 12, 7, np.uint32)
    keystream(_rfc_state(), 3, out)
    assert (out[48:] == 7).all()
    assert out[:16].astype("<u4").tobytes().hex() == RFC_8439_BLOCK


@pytest.mark.parametrize("k", [0, 1, 7, 8, 9, 511, 512, 513, 1000, 1024])
def test_keystream_bits_keep_k_bits_and_zero_the_rest(k: int) -> None:
    # the array form of the keystream: the first k bits of the blocks, then zeros to the end
    key = bytes(range(40, 72))
    count = max(1, -(-k // 512))
    for first in (0, 2**32 - 1):
        out = np.full(64 * count + 24, 0xAB, np.uint8)
        keystream_bits(key, first, count, out, k)
        stream = int.from_bytes(chacha_blocks(key, first, count) + bytes(24), "big")
        width = 8 * len(out)
        assert int.from_bytes(out.tobytes(), "big") == stream >> (width - k) << (width - k)


def test_bad_calls_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        keystream_bits(bytes(32), 0, 2, np.empty(100, np.uint8), 8)
    with pytest.raises(ValueError, match="do not fit"):
        keystream_bits(bytes(32), 0, 1, np.empty(64, np.uint8), 513)
    with pytest.raises(ValueError, match="not 4-byte aligned"):
        keystream_bits(bytes(32), 0, 1, np.empty(80, np.uint8)[1:], 8)
    with pytest.raises(ValueError, match="wrap past"):
        keystream_bits(bytes(32), 2**64 - 1, 2, np.empty(128, np.uint8), 8)
    with pytest.raises(ValueError, match="16 words"):
        keystream(np.zeros(15, np.uint32), 1, np.empty(16, np.uint32))
    with pytest.raises(ValueError, match="need 32 words"):
        keystream(np.zeros(16, np.uint32), 2, np.empty(16, np.uint32))
    with pytest.raises(CroupierError, match="32 bytes"):
        chacha_blocks(b"short", 0, 1)
    with pytest.raises(CroupierError, match="past 2"):
        chacha_blocks(bytes(32), 2**64 - 1, 2)
    with pytest.raises(CroupierError, match="numpy engines are gone"):
        chacha_blocks(bytes(32), 0, 1, engine="numpy")  # type: ignore[arg-type]
