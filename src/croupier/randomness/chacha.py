"""ChaCha20 keystream as a bit source: fast bulk randomness keyed from the OS CSPRNG.

:class:`ChaChaSource` hands out the keystream of ChaCha20 (Bernstein's
original layout: a 64-bit block counter from 0 in words 12-13, a 64-bit
nonce of zeros in words 14-15; 20 rounds), read as one big-endian bit
string over its bytes.  Without a key it draws a 256-bit key from the OS
CSPRNG (``os.urandom``), and draws a new one in a forked child and in a
copy, so no two processes ever share a stream: it is the OS CSPRNG's own
construction (Linux's ``getrandom`` is ChaCha20 keyed from the entropy
pool), run in this process, 3 to 5 times faster than reading the OS for
megabytes at a time.  With a ``key`` it is reproducible.

The keystream is made by the compiled core (``croupier._core.chacha``),
eight blocks at a time, each state word a vector over them.

>>> src = ChaChaSource(bytes(range(32)))
>>> src.bits_as_bytes(64).hex() == ChaChaSource(bytes(range(32))).bits_as_bytes(64).hex()
True
>>> ChaChaSource().kind, ChaChaSource().reproducible, src.kind
('os-chacha', False, 'chacha')
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar

import croupier.randomness.source as _source_module
from croupier._core.chacha import keystream_bits
from croupier._core.engines import Engine, resolve
from croupier.errors import CroupierError
from croupier.randomness.source import BufferedBitSource

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["KEY_BYTES", "ChaChaSource", "chacha_block_reference", "chacha_blocks"]

KEY_BYTES = 32
"""The key: 256 bits."""

_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
_ROUNDS = (
    (0, 4, 8, 12),
    (1, 5, 9, 13),
    (2, 6, 10, 14),
    (3, 7, 11, 15),
    (0, 5, 10, 15),
    (1, 6, 11, 12),
    (2, 7, 8, 13),
    (3, 4, 9, 14),
)
_CONSTANT_BYTES = b"".join(c.to_bytes(4, "little") for c in _CONSTANTS)
_BLOCK_BYTES = 64


def chacha_block_reference(key: bytes, block: int) -> bytes:
    """Keystream block ``block`` of ChaCha20 under ``key``, in plain Python (the specification).

    The compiled kernel (``croupier._core.chacha``) is held to it by the tests.

    >>> chacha_block_reference(bytes(range(32)), 0).hex()[:32]
    '39fd2b7dd9c5196a8dbd0377b8dc4a49'
    """
    words = _CONSTANT_BYTES + key + block.to_bytes(8, "little") + bytes(8)
    start = [int.from_bytes(words[4 * i : 4 * i + 4], "little") for i in range(16)]
    x = list(start)
    mask = 0xFFFFFFFF

    def rotl(v: int, c: int) -> int:
        return ((v << c) | (v >> (32 - c))) & mask

    for _ in range(10):
        for a, b, c, d in _ROUNDS:
            x[a] = (x[a] + x[b]) & mask
            x[d] = rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & mask
            x[b] = rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & mask
            x[d] = rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & mask
            x[b] = rotl(x[b] ^ x[c], 7)
    return b"".join(((v + s) & mask).to_bytes(4, "little") for v, s in zip(x, start, strict=True))


def chacha_blocks(key: bytes, first: int, count: int, *, engine: Engine = "auto") -> bytes:
    """Keystream blocks ``first .. first + count - 1`` of ChaCha20 under ``key``, 64 bytes each.

    Made by the compiled core (``engine="python"``: by
    :func:`chacha_block_reference`, the same bytes, slowly).  The first block
    of the key ``00 01 ... 1f`` (RFC 8439's key; this layout's nonce is zero):

    >>> chacha_blocks(bytes(range(32)), 0, 1).hex()[:32]
    '39fd2b7dd9c5196a8dbd0377b8dc4a49'
    """
    if len(key) != KEY_BYTES:
        raise CroupierError(f"a ChaCha20 key has {KEY_BYTES} bytes, not {len(key)}")
    if first < 0 or first + count > 2**64:
        raise CroupierError(f"ChaCha20 blocks {first}..{first + count - 1} are past 2**64")
    if resolve(engine) == "python":
        return b"".join(chacha_block_reference(key, first + i) for i in range(count))
    if count <= 0:
        return b""
    out = bytearray(_BLOCK_BYTES * count)
    keystream_bits(key, first, count, out, 8 * len(out))
    return bytes(out)


class ChaChaSource(BufferedBitSource):
    """Bits of a ChaCha20 keystream: keyed from the OS CSPRNG (default) or by ``key``.

    Without a key it is not reproducible (``kind`` ``os-chacha``) and, like
    every holder of OS randomness, draws a fresh key in a forked child and
    in a copy or pickle.  With a 32-byte ``key`` it is reproducible
    (``kind`` ``chacha``) and continues identically in a forked child.

    Like :class:`~croupier.randomness.source.OsRandomSource`, requests of 64
    bits or more take whole bytes of the keystream (the unused low bits of
    the last byte are dropped), smaller ones single bits; a bulk request for
    an array (:meth:`bits_as_array`) starts at the next whole 64-byte block.

    >>> src = ChaChaSource()
    >>> 0 <= src.bits(10) < 1024, src.bits_used
    (True, 10.0)
    """

    kind: ClassVar[str] = "os-chacha"
    reproducible: bool = False

    def __init__(self, key: bytes | None = None) -> None:
        super().__init__()
        if key is not None and len(key) != KEY_BYTES:
            raise CroupierError(f"a ChaCha20 key has {KEY_BYTES} bytes, not {len(key)}")
        self.reproducible = key is not None
        if key is not None:
            self.kind = "chacha"  # type: ignore[misc]
        self._key = bytes(key) if key is not None else os.urandom(KEY_BYTES)
        self._block = 0  # the next block to make
        self._bytes = b""  # made, not handed out yet
        self._pos = 0

    def _forget_after_fork(self) -> None:
        """Not reproducible: a new key from the OS (the parent's stream is never repeated)."""
        if not self.reproducible:
            self._key = os.urandom(KEY_BYTES)
            self._block, self._bytes, self._pos, self._buf, self._nbuf = 0, b"", 0, 0, 0

    def __getstate__(self) -> dict[str, object]:
        state = super().__getstate__()
        if not self.reproducible:  # a copy never holds the original's key or bytes
            state.update(_key=b"", _bytes=b"", _pos=0, _buf=0, _nbuf=0)
        return state

    def _take(self, nbytes: int) -> bytes:
        end = self._pos + nbytes
        if end > len(self._bytes):
            rest = self._bytes[self._pos :]
            count = max(16, -(-(nbytes - len(rest)) // _BLOCK_BYTES))
            self._bytes = rest + chacha_blocks(self._key, self._block, count)
            self._block += count
            self._pos, end = 0, nbytes
        data = self._bytes[self._pos : end]
        self._pos = end
        return data

    def _next_block(self) -> tuple[int, int]:
        return int.from_bytes(self._take(8), "big"), 64

    def _random_bits(self, k: int) -> int:
        if k >= 64:
            return int.from_bytes(self._take((k + 7) >> 3), "big") >> (-k & 7)
        return super()._random_bits(k)

    def _random_bytes(self, k: int) -> bytes:
        data = self._take((k + 7) >> 3)
        if k & 7:  # the unused low bits of the last byte are dropped (zero)
            data = data[:-1] + bytes([data[-1] & (0xFF00 >> (k & 7)) & 0xFF])
        return data

    def bits_as_array(self, k: int, pad: int = 0) -> npt.NDArray[np.uint8]:
        """``k`` bits as a numpy array of bytes followed by ``pad`` zero bytes, made in place.

        The keystream from the next whole block on (what is left of the
        current block is skipped), written straight into the array.
        """
        import numpy as np

        if k < 0 or pad < 0:
            raise ValueError(f"bits and padding must be >= 0, got {k} and {pad}")
        nbytes = (k + 7) >> 3
        count = -(-nbytes // _BLOCK_BYTES)
        if k == 0:
            return np.zeros(pad, np.uint8)
        out = np.empty(max(_BLOCK_BYTES * count, nbytes + pad), np.uint8)  # (all written below)
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        with self._lock:
            self._bits_used += k
            first = self._block
            self._block += count
            self._bytes, self._pos = b"", 0
            keystream_bits(self._key, first, count, out, k)  # (and zeros after the k bits)
        return out[: nbytes + pad]

    def describe(self) -> str:
        if self.reproducible:
            return "chacha (ChaCha20 keystream under a given key; reproducible)"
        return "os-chacha (ChaCha20 keyed with 256 bits from the OS CSPRNG; not reproducible)"
