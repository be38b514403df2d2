"""The compiled SHAKE-128 blocks equal :mod:`hashlib`'s (OpenSSL's) byte for byte."""

from __future__ import annotations

import hashlib
import threading

import numpy as np
import pytest

from croupier._core.shake import MAX_PREFIX, shake128_blocks
from croupier.errors import CroupierError
from croupier.randomness.bulk_stream import BulkStream


def _hashlib_blocks(prefix: bytes, first: int, count: int, length: int) -> bytes:
    return b"".join(
        hashlib.shake_128(prefix + (first + b).to_bytes(8, "big")).digest(length)
        for b in range(count)
    )


@pytest.mark.parametrize("prefix_bytes", [0, 1, 7, 8, 36, 37, 100, MAX_PREFIX])
@pytest.mark.parametrize("length", [0, 1, 8, 167, 168, 169, 336, 337, 4096])
def test_blocks_equal_hashlib(prefix_bytes: int, length: int) -> None:
    rng = np.random.default_rng(prefix_bytes * 1000 + length)
    prefix = rng.bytes(prefix_bytes)
    first = int(rng.integers(0, 2**63)) * 2
    out = np.full(3 * length, 0xAA, np.uint8)
    shake128_blocks(prefix, first, 3, length, out)
    assert out.tobytes() == _hashlib_blocks(prefix, first, 3, length)


@pytest.mark.parametrize("count", [4, 5, 7, 8, 9, 16, 17])
@pytest.mark.parametrize("length", [1, 167, 168, 169, 700])
def test_blocks_made_several_at_once_equal_hashlib(count: int, length: int) -> None:
    # From 4 blocks on they are made 4 or 8 at a time where the processor has the vectors
    # (AVX2, AVX-512; the rest one by one): every block of every path equals OpenSSL's.
    from croupier._core.shake import lanes

    assert lanes() in (1, 4, 8)
    prefix = bytes(range(37))
    first = 2**40 + count
    out = np.full(count * length, 0xAA, np.uint8)
    shake128_blocks(prefix, first, count, length, out)
    assert out.tobytes() == _hashlib_blocks(prefix, first, count, length)


def test_the_last_block_numbers() -> None:
    out = np.empty(2 * 50, np.uint8)
    shake128_blocks(b"k", 2**64 - 2, 2, 50, out)
    assert out.tobytes() == _hashlib_blocks(b"k", 2**64 - 2, 2, 50)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        shake128_blocks(b"k", 2**64 - 1, 2, 50, out)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="longer than"):
        shake128_blocks(bytes(MAX_PREFIX + 1), 0, 1, 8, np.empty(8, np.uint8))
    with pytest.raises(ValueError, match="do not fit"):
        shake128_blocks(b"k", 0, 2, 8, np.empty(15, np.uint8))


def test_stream_blocks_equal_the_python_engine() -> None:
    stream = BulkStream.seeded("shake")
    compiled = stream.main_blocks(40, 5, 1000)
    plain = stream.main_blocks(40, 5, 1000, engine="python")
    assert compiled.tobytes() == plain.tobytes()
    assert compiled.tobytes() == b"".join(stream.main(b, 1000) for b in range(40, 45))
    with pytest.raises(CroupierError, match="out of range"):
        stream.main_blocks(2**64 - 1, 2, 8)


def test_threads_make_the_same_blocks() -> None:
    stream = BulkStream.seeded("threads")
    want = stream.main_blocks(0, 64, 4096, engine="python").tobytes()
    results: dict[int, bytes] = {}

    def work(k: int) -> None:
        results[k] = stream.main_blocks(0, 64, 4096).tobytes()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == want for k in range(4))
