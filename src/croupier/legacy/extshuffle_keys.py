"""The record keys of ``croupier-extshuffle/1``: one 64-bit word per record, in file order.

Record ``i`` (counting from 0) gets the ``i``-th 64-bit big-endian word of
a keyed stream: block ``b = i // 65536`` is the first ``8 * 65536`` bytes of
``SHAKE-128(key || b"main" || b as 8-byte big-endian)`` (the bulk engine's
stream, :class:`croupier.randomness.bulk_stream.BulkStream`), and the record is word
``i % 65536`` of it.  The 32-byte ``key`` is the first 256 bits the random
source hands out (the OS CSPRNG, or a seeded ``croupier-seeded/1`` stream).

>>> from croupier.randomness import SeededSource
>>> a = KeyStream.from_source(SeededSource("demo", "shuffle-file"))
>>> b = KeyStream.from_source(SeededSource("demo", "shuffle-file"))
>>> first = a.take(3)
>>> bool((first == b.take(2).tolist() + b.take(1).tolist()).all()), first.dtype
(True, dtype('uint64'))
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

import croupier.randomness.source as _source_module
from croupier.randomness.bulk_stream import KEY_BYTES, BulkStream
from croupier.randomness.source import BitSource, ForkAware

__all__ = ["KEYS_PER_BLOCK", "KeySource", "KeyStream"]

KEYS_PER_BLOCK = 65536
"""Records per block of the key stream (512 KiB of key bytes)."""


class KeySource(Protocol):
    """Anything that hands out the keys of the next records, in file order."""

    def take(self, n: int) -> npt.NDArray[np.uint64]:
        """The keys of the next ``n`` records."""
        ...


class KeyStream(ForkAware):
    """The 64-bit record keys of a keyed SHAKE-128 stream, handed out in order.

    Keyed from a source that is not reproducible (the OS CSPRNG), a forked
    child draws keys from a fresh stream key, never the parent's.

    >>> from croupier.randomness import BulkStream
    >>> keys = KeyStream(BulkStream(bytes(32)))
    >>> int(keys.take(1)[0]) == int.from_bytes(BulkStream(bytes(32)).main(0, 8), "big")
    True
    >>> keys.taken
    1
    """

    def __init__(self, stream: BulkStream) -> None:
        self.stream = stream
        self.taken = 0
        self._block = -1
        self._words: npt.NDArray[np.uint64] = np.zeros(0, np.uint64)
        self._fork_seen = _source_module.fork_generation

    def _after_fork(self) -> None:
        """In a forked child: forget the block of keys made with the parent's key."""
        self._block = -1
        self._words = np.zeros(0, np.uint64)

    @classmethod
    def from_source(cls, source: BitSource) -> KeyStream:
        """The key stream keyed by the next 256 bits of ``source``."""
        key = source.bits(8 * KEY_BYTES).to_bytes(KEY_BYTES, "big")
        return cls(BulkStream(key, reproducible=source.reproducible, kind=source.kind))

    def take(self, n: int) -> npt.NDArray[np.uint64]:
        """The keys of the next ``n`` records (a new array)."""
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        parts: list[npt.NDArray[np.uint64]] = []
        while n > 0:
            block, offset = divmod(self.taken, KEYS_PER_BLOCK)
            if block != self._block:
                raw = self.stream.main(block, 8 * KEYS_PER_BLOCK)
                self._words = np.frombuffer(raw, dtype=">u8").astype(np.uint64)
                self._block = block
            got = min(n, KEYS_PER_BLOCK - offset)
            parts.append(self._words[offset : offset + got])
            self.taken += got
            n -= got
        if not parts:
            return np.zeros(0, np.uint64)
        return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)
