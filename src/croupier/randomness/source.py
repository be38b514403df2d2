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
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BitSource",
    "BufferedBitSource",
    "ForkAware",
    "OsRandomSource",
    "RandomSource",
    "SourceKind",
]


class SourceKind(StrEnum):
    """Where randomness came from: the one spelling of every note and JSON ``"source"``.

    Each :class:`RandomSource` names its kind (:attr:`RandomSource.kind`), and
    so does a :class:`~croupier.randomness.bulk_stream.BulkStream`
    (:attr:`~croupier.randomness.bulk_stream.BulkStream.kind`).

    >>> SourceKind.OS_CSPRNG, str(SourceKind.SEEDED), [k.value for k in SourceKind][2:]
    (<SourceKind.OS_CSPRNG: 'os-csprng'>, 'seeded', ['entropy', 'numpy', 'keyed'])
    """

    OS_CSPRNG = "os-csprng"
    """The operating system's CSPRNG (``os.urandom``): secret, never reproducible."""
    SEEDED = "seeded"
    """A seed through ``croupier-seeded/1``: reproducible, only as secret as the seed."""
    ENTROPY = "entropy"
    """Finite entropy the user gave (dice, coins, hex digits)."""
    NUMPY = "numpy"
    """A numpy ``Generator`` the caller owns."""
    KEYED = "keyed"
    """A :class:`~croupier.randomness.bulk_stream.BulkStream` under a key the caller gave."""


fork_generation = 0
"""How many times this process's ancestry has forked since croupier was imported.

Incremented in every forked child (:func:`os.register_at_fork`).  It is the one
mechanism behind fork safety: every :class:`ForkAware` object (sources,
samplers, bulk streams and dealers, record key streams) remembers the value it
saw last and, at its first use after it changed, renews what a child must not
share with its parent (OS randomness held, keys drawn from the OS, caches
derived from them, locks).
"""

_fork_guard = threading.RLock()
"""Serialises renewals in a forked child (itself replaced at each fork).

Re-entrant, so a renewal may use another fork-aware object.
"""


def _after_fork_in_child() -> None:
    global fork_generation, _fork_guard
    _fork_guard = threading.RLock()
    fork_generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class ForkAware:
    """An object that renews itself, at its first use in a forked child, by :meth:`_after_fork`.

    Holders of OS randomness (buffered bytes, a leftover draw, a key, a cache
    of what a key made) and of locks set ``_fork_seen = fork_generation`` when
    made and call :meth:`_check_fork` before every use (hot paths compare
    ``_fork_seen`` with :data:`fork_generation` first).  In a forked child the
    first use runs :meth:`_after_fork` once, whichever thread gets there
    first, before any thread uses the object, so parent and child never hand
    out the same randomness and no lock held at the fork by a thread that
    does not exist in the child stays locked.  Seeded (reproducible) state is
    kept: a seeded stream continues identically in parent and child.
    Setting ``_fork_seen = -1`` makes a copy renew itself the same way.

    >>> class Held(ForkAware):
    ...     def __init__(self) -> None:
    ...         self._fork_seen = fork_generation
    ...         self.held = 1
    ...     def _after_fork(self) -> None:
    ...         self.held = 0
    >>> h = Held()
    >>> h._check_fork(); h.held  # not forked: nothing happens
    1
    >>> h._fork_seen = -1  # as a forked child sees it
    >>> h._check_fork(); h.held
    0
    """

    __slots__ = ()
    _fork_seen: int

    def _check_fork(self) -> None:
        """Run :meth:`_after_fork` once if the process forked since this object last looked."""
        if self._fork_seen != fork_generation:
            with _fork_guard:
                if self._fork_seen != fork_generation:
                    self._after_fork()
                    # the attribute lives in each subclass (a slot or the instance dict)
                    object.__setattr__(self, "_fork_seen", fork_generation)

    def _after_fork(self) -> None:
        """Renew what a forked child must not share with its parent (default: nothing)."""


class RandomSource(ForkAware, ABC):
    """Base class of every random source.

    ``kind`` names the source in outputs: a :class:`SourceKind` for
    croupier's sources (``os-csprng``, ``seeded``, ``entropy``, ``numpy``);
    ``reproducible`` says whether the same construction gives the same
    stream again.

    >>> OsRandomSource().kind, OsRandomSource.reproducible
    (<SourceKind.OS_CSPRNG: 'os-csprng'>, False)
    """

    kind: ClassVar[str] = "abstract"
    reproducible: bool = False
    _fork_seen: int = -1  # no lock yet: the first draw makes one

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fork_seen = fork_generation

    def __getstate__(self) -> dict[str, object]:
        """Pickled or copied without the lock; the copy makes its own at its first draw.

        Like a forked child, a copy forgets the OS randomness the original
        holds, so the two never hand out the same bits.
        """
        state = self.__dict__.copy()
        state.pop("_lock", None)
        state["_fork_seen"] = -1
        return state

    def _after_fork(self) -> None:
        """In a forked child, before the first draw: a fresh lock, and forget OS randomness.

        A lock held by another thread at the moment of the fork stays locked
        for ever in the child (that thread does not exist there), so the child
        replaces it; subclasses drop what they must not share with the parent
        in :meth:`_forget_after_fork`.
        """
        self._lock = threading.Lock()
        self._forget_after_fork()

    def _forget_after_fork(self) -> None:  # a hook; most sources keep everything
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
        if self._fork_seen != fork_generation:
            self._check_fork()
        with self._lock:
            self._bits_used += k
            return self._random_bits(k)

    def draw(self, bits: int) -> tuple[int, int]:
        k = bits if bits > 1 else 1
        if self._fork_seen != fork_generation:
            self._check_fork()
        with self._lock:
            self._bits_used += k
            return self._random_bits(k), 1 << k

    def bits_as_bytes(self, k: int) -> bytes:
        """The next ``k`` bits of the stream as ``ceil(k/8)`` bytes, for bulk work.

        The same bits :meth:`bits` would return, as one big-endian bit string:
        the first bit is the most significant bit of the first byte, and the
        unused low bits of the last byte are zero.  Counted as ``k`` bits.
        Sources override :meth:`_random_bytes` to make millions of bits fast.

        >>> from croupier.randomness.seeded import SeededSource
        >>> a, b = SeededSource("x"), SeededSource("x")
        >>> a.bits_as_bytes(12) == (b.bits(12) << 4).to_bytes(2, "big"), a.bits_used
        (True, 12.0)
        """
        if k < 0:
            raise ValueError(f"number of bits must be >= 0, got {k}")
        if k == 0:
            return b""
        if self._fork_seen != fork_generation:
            self._check_fork()
        with self._lock:
            self._bits_used += k
            return self._random_bytes(k)

    def bits_as_array(self, k: int, pad: int = 0) -> npt.NDArray[np.uint8]:
        """The next ``k`` bits as a numpy array of bytes, then ``pad`` zero bytes.

        The bytes of :meth:`bits_as_bytes` (sources that make bits in bulk
        write them straight into the array instead).

        >>> from croupier.randomness.seeded import SeededSource
        >>> SeededSource("x").bits_as_array(12, pad=2).tobytes() == (
        ...     SeededSource("x").bits_as_bytes(12) + bytes(2)
        ... )
        True
        """
        import numpy as np

        data = self.bits_as_bytes(k)
        out = np.zeros(len(data) + pad, np.uint8)
        out[: len(data)] = np.frombuffer(data, np.uint8)
        return out

    def _random_bytes(self, k: int) -> bytes:
        """``k`` >= 1 fresh bits as bytes (not counted here; called holding the lock)."""
        pad = -k & 7
        out = bytearray()
        while k > 0:  # pieces of at most 2**16 bits: never one huge integer
            take = min(k, 1 << 16)
            piece = self._random_bits(take)
            k -= take
            if k == 0:
                out += (piece << pad).to_bytes((take + pad) >> 3, "big")
            else:  # a whole number of bytes, since 2**16 is
                out += piece.to_bytes(take >> 3, "big")
        return bytes(out)

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

    def _next_blocks_bytes(self, nbits: int) -> tuple[bytes, int]:
        """Whole blocks of the stream covering at least ``nbits`` bits, as ``(bytes, bits)``.

        The bits are left-aligned (a last partial byte is padded with zero
        bits).  Subclasses make many blocks at once faster.
        """
        blocks: list[tuple[int, int]] = []
        got = 0
        while got < nbits:
            block, size = self._next_block()
            blocks.append((block, size))
            got += size
        if all(size & 7 == 0 for _, size in blocks):
            return b"".join(v.to_bytes(size >> 3, "big") for v, size in blocks), got
        value = 0
        for v, size in blocks:  # blocks that are not whole bytes (unusual): through integers
            value = (value << size) | v
        return (value << (-got & 7)).to_bytes((got + 7) >> 3, "big"), got

    def _random_bytes(self, k: int) -> bytes:
        if k <= 4096:
            return (self._random_bits(k) << (-k & 7)).to_bytes((k + 7) >> 3, "big")
        held, nheld = self._buf, self._nbuf
        data, got = self._next_blocks_bytes(k - nheld)
        # the stream from here: the held bits, then ``data`` (``got`` bits, left-aligned)
        if nheld & 7 == 0:
            stream = (held.to_bytes(nheld >> 3, "big") if nheld else b"") + data
        else:
            stream = _shifted(data, nheld & 7, held & ((1 << (nheld & 7)) - 1))
            stream = (held >> (nheld & 7)).to_bytes(nheld >> 3, "big") + stream
        total = nheld + got
        whole, part = divmod(k, 8)
        out = stream[:whole]
        if part:
            out += bytes([stream[whole] & (0xFF00 >> part) & 0xFF])
        left = total - k  # kept for the next request, as an integer
        tail = int.from_bytes(stream[whole:], "big") >> (8 * len(stream[whole:]) - (left + part))
        self._buf = tail & ((1 << left) - 1)
        self._nbuf = left
        return out

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


def _shifted(data: bytes, r: int, top: int) -> bytes:
    """The ``r`` bits of ``top`` (1 <= r <= 7) followed by the bits of ``data``, as bytes.

    One byte longer than ``data``; the unused low bits of the last byte are zero.

    >>> _shifted(bytes([0b10110000]), 3, 0b011).hex()
    '7600'
    """
    if len(data) <= 4096:
        value = (top << (8 * len(data)) | int.from_bytes(data, "big")) << (8 - r)
        return value.to_bytes(len(data) + 1, "big")
    import numpy as np

    a = np.frombuffer(data, np.uint8).astype(np.uint16)
    out = np.zeros(len(data) + 1, np.uint16)
    out[1:] = (a << (8 - r)) & 0xFF
    out[:-1] |= a >> r
    out[0] |= top << (8 - r)
    return out.astype(np.uint8).tobytes()


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

    kind: ClassVar[str] = SourceKind.OS_CSPRNG

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
        if self._fork_seen != fork_generation:
            self._check_fork()
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

    def bits_as_array(self, k: int, pad: int = 0) -> npt.NDArray[np.uint8]:
        if k < (self._block_bytes << 3):
            return super().bits_as_array(k, pad)
        import numpy as np

        if self._fork_seen != fork_generation:
            self._check_fork()
        nbytes = (k + 7) >> 3
        out = np.zeros(nbytes + pad, np.uint8)
        with self._lock:  # a big request: fresh bytes straight from the OS, past the block
            self._bits_used += k
        out[:nbytes] = np.frombuffer(os.urandom(nbytes), np.uint8)
        if k & 7:
            out[nbytes - 1] &= (0xFF00 >> (k & 7)) & 0xFF
        return out

    def _random_bytes(self, k: int) -> bytes:
        """Whole fresh bytes from the OS (a big request in one call, past the block)."""
        nbytes = (k + 7) >> 3
        data = self._take_bytes(nbytes) if nbytes <= self._block_bytes else os.urandom(nbytes)
        if k & 7:  # the unused low bits of the last byte are dropped (zero), never handed out
            data = data[:-1] + bytes([data[-1] & (0xFF00 >> (k & 7)) & 0xFF])
        return data

    def describe(self) -> str:
        return "os-csprng (operating system CSPRNG; not reproducible)"
