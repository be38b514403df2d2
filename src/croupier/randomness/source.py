"""Random sources: where random bits come from, and how many were handed out.

A source only supplies randomness; turning it into choices is the job of
:class:`croupier.randomness.uniform.UniformSampler` (the split numpy.random
makes between a BitGenerator and a Generator).

Every source answers :meth:`RandomSource.draw` with a pair ``(value, modulus)``
where ``value`` is uniform in ``[0, modulus)``.  Bit sources return exactly the
number of bits asked for (``modulus == 2**bits``); sources of finite user
entropy such as dice may return one digit of their own radix instead.

>>> src = OsRandomSource()
>>> value, modulus = src.draw(10)
>>> modulus, 0 <= value < 1024, src.bits_used
(1024, True, 10.0)

Sources are thread-safe: every draw takes the source's lock, so threads
sharing one source get disjoint bits (a seeded stream shared by threads hands
out exactly the blocks one thread would, in some order).  They are also
fork-safe: see :data:`fork_generation`.
"""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from typing import ClassVar

__all__ = ["BitSource", "BufferedBitSource", "OsRandomSource", "RandomSource"]


class RandomSource(ABC):
    """Base class of every random source.

    ``kind`` names the source in outputs (``os-csprng``, ``seeded``,
    ``entropy``, ``numpy``); ``reproducible`` says whether the same
    construction gives the same stream again.

    >>> OsRandomSource().kind, OsRandomSource.reproducible
    ('os-csprng', False)
    """

    kind: ClassVar[str] = "abstract"
    reproducible: ClassVar[bool] = False
    _lock_generation: int = -1  # no lock yet: the first draw makes one

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock_generation = fork_generation

    def __getstate__(self) -> dict[str, object]:
        """Pickled or copied without the lock; the copy makes its own at its first draw.

        Like a forked child, a copy forgets the OS randomness the original
        holds, so the two never hand out the same bits.
        """
        state = self.__dict__.copy()
        state.pop("_lock", None)
        state["_lock_generation"] = -1
        return state

    def _renew_after_fork(self) -> None:
        """In a forked child, before the first draw: a fresh lock, and forget OS randomness.

        A lock held by another thread at the moment of the fork stays locked
        for ever in the child (that thread does not exist there), so the child
        replaces it; subclasses drop what they must not share with the parent
        in :meth:`_forget_after_fork`.
        """
        with _fork_guard:
            if self._lock_generation != fork_generation:
                self._lock = threading.Lock()
                self._forget_after_fork()
                self._lock_generation = fork_generation

    def _forget_after_fork(self) -> None:  # noqa: B027 - a hook; most sources keep everything
        """Drop randomness a forked child must not share with its parent (default: nothing)."""

    @property
    @abstractmethod
    def bits_used(self) -> float:
        """How many bits of randomness this source has handed out so far."""

    @abstractmethod
    def draw(self, bits: int) -> tuple[int, int]:
        """Return ``(value, modulus)`` with ``value`` uniform in ``[0, modulus)``.

        ``bits`` (>= 1) is how many bits the caller would like; bit sources
        return exactly that many, digit sources one digit of their radix.
        """

    def describe(self) -> str:
        """A one-line, human description for output headers."""
        return self.kind


class BitSource(RandomSource):
    """A source of independent uniform bits that counts what it hands out.

    >>> src = OsRandomSource()
    >>> 0 <= src.bits(3) < 8, src.bits_used_exact
    (True, 3)
    """

    def __init__(self) -> None:
        super().__init__()
        self._bits_used = 0

    @property
    def bits_used(self) -> float:
        return float(self._bits_used)

    @property
    def bits_used_exact(self) -> int:
        """Bits handed out, as an exact integer."""
        return self._bits_used

    def bits(self, k: int) -> int:
        """Return ``k`` uniform random bits as an integer in ``[0, 2**k)``."""
        if k < 0:
            raise ValueError(f"number of bits must be >= 0, got {k}")
        if k == 0:
            return 0
        if self._lock_generation != fork_generation:
            self._renew_after_fork()
        with self._lock:
            self._bits_used += k
            return self._random_bits(k)

    def draw(self, bits: int) -> tuple[int, int]:
        k = bits if bits > 1 else 1
        if self._lock_generation != fork_generation:
            self._renew_after_fork()
        with self._lock:
            self._bits_used += k
            return self._random_bits(k), 1 << k

    @abstractmethod
    def _random_bits(self, k: int) -> int:
        """Produce ``k`` >= 1 fresh random bits (not counted here; called holding the lock)."""


class BufferedBitSource(BitSource):
    """A bit source that reads its underlying stream in blocks and hands bits out in order.

    Subclasses implement :meth:`_next_block`; bits are handed out from the
    stream in order, the first bit of a request being its most significant
    bit (the stream read as one big-endian number).

    >>> class Ones(BufferedBitSource):
    ...     def _next_block(self) -> tuple[int, int]:
    ...         return 0xFF, 8
    >>> Ones().bits(12)
    4095
    """

    def __init__(self) -> None:
        super().__init__()
        self._buf = 0
        self._nbuf = 0

    @abstractmethod
    def _next_block(self) -> tuple[int, int]:
        """The next block of the stream as ``(value, number_of_bits)``."""

    def _random_bits(self, k: int) -> int:
        buf, nbuf = self._buf, self._nbuf
        while nbuf < k:
            value, size = self._next_block()
            buf = (buf << size) | value
            nbuf += size
        nbuf -= k
        out = buf >> nbuf
        self._buf = buf & ((1 << nbuf) - 1)
        self._nbuf = nbuf
        return out


fork_generation = 0
"""How many times this process's ancestry has forked since croupier was imported.

Incremented in every forked child (:func:`os.register_at_fork`).  Holders of
OS randomness (:class:`OsRandomSource`'s blocks, the leftover state of
:class:`~croupier.randomness.uniform.UniformSampler`) compare it with the value
they saw last and drop what they hold when it changed, so a parent and its
child never hand out the same bits; every holder of a lock replaces it then
(a lock another thread held at the fork would stay locked in the child).
"""

_fork_guard = threading.Lock()
"""Serialises the replacement of locks in a forked child (itself replaced at each fork)."""


def _after_fork_in_child() -> None:
    global fork_generation, _fork_guard
    _fork_guard = threading.Lock()
    fork_generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class OsRandomSource(BufferedBitSource):
    """The operating system's CSPRNG (:func:`os.urandom`): croupier's default.

    Bits are read from the OS in blocks of ``block_bytes`` bytes to save
    system calls: requests of 64 bits or more take whole bytes from the block
    (the unused low bits of the last byte are dropped, never handed out
    twice), smaller ones single bits.  A forked child drops the blocks, so
    parent and child never share bits.  ``bits_used`` counts the bits handed out.
    One source may be shared by threads (each draw holds the source's lock),
    though one per thread avoids waiting for the lock (they are cheap).

    >>> src = OsRandomSource()
    >>> 0 <= src.bits(256) < 2**256, 0 <= src.bits(5) < 32, src.bits_used
    (True, True, 261.0)
    """

    kind: ClassVar[str] = "os-csprng"

    def __init__(self, block_bytes: int = 4096) -> None:
        super().__init__()
        if block_bytes < 1:
            raise ValueError(f"block_bytes must be >= 1, got {block_bytes}")
        self._block_bytes = block_bytes
        self._bytes = b""
        self._pos = 0

    def _forget_after_fork(self) -> None:  # forked: drop the parent's bits
        self._bytes, self._pos, self._buf, self._nbuf = b"", 0, 0, 0

    def _take_bytes(self, nbytes: int) -> bytes:
        pos = self._pos
        end = pos + nbytes
        if end > len(self._bytes):
            self._bytes = os.urandom(max(self._block_bytes, nbytes))
            pos, end = 0, nbytes
        self._pos = end
        return self._bytes[pos:end]

    def _next_block(self) -> tuple[int, int]:
        return int.from_bytes(self._take_bytes(8), "big"), 64

    def draw(self, bits: int) -> tuple[int, int]:
        k = bits if bits > 1 else 1
        if self._lock_generation != fork_generation:
            self._renew_after_fork()
        with self._lock:  # the same as BitSource.draw, with _random_bits inlined (hot path)
            self._bits_used += k
            if k >= 64:  # whole bytes
                data = self._take_bytes((k + 7) >> 3)
                return int.from_bytes(data, "big") >> (-k & 7), 1 << k
            buf, nbuf = self._buf, self._nbuf
            if nbuf < k:  # one 64-bit block is enough for k < 64
                buf = (buf << 64) | int.from_bytes(self._take_bytes(8), "big")
                nbuf += 64
            nbuf -= k
            self._buf = buf & ((1 << nbuf) - 1)
            self._nbuf = nbuf
            return buf >> nbuf, 1 << k

    def _random_bits(self, k: int) -> int:
        if k >= 64:
            return int.from_bytes(self._take_bytes((k + 7) >> 3), "big") >> (-k & 7)
        return super()._random_bits(k)

    def describe(self) -> str:
        return "os-csprng (operating system CSPRNG; not reproducible)"
