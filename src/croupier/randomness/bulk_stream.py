"""The keyed random stream of ``croupier-bulk/1``: SHAKE-128 blocks under a 32-byte key.

A source of random bytes beside the bit sources of :mod:`croupier.randomness.source`
(the bit generator; the algorithms that turn its bytes into deals are in
:mod:`croupier.bulk.generate`, into shuffle keys in :mod:`croupier.legacy.extshuffle_keys`).

Every block of :data:`ROWS_PER_BLOCK` deals has two streams of its own, so
any deal can be made without making the ones before it (prefix stability,
and work split across processes):

* ``main(b)  = SHAKE-128(key || b"main"  || b as 8-byte big-endian)``
* ``retry(b) = SHAKE-128(key || b"retry" || b as 8-byte big-endian)``

The key comes from the OS CSPRNG (a fresh one in every process: a forked
child or a pickled copy re-keys itself) or, for reproducible runs, from a
seed through the ``croupier-seeded/1`` stream with purpose ``croupier-bulk/1``.

>>> a, b = BulkStream.seeded("demo"), BulkStream.seeded("demo")
>>> a.main(3, 16) == b.main(3, 16), a.main(3, 16) != a.main(4, 16)
(True, True)
>>> BulkStream.seeded("demo").reproducible, BulkStream.from_os().reproducible
(True, False)
>>> str(BulkStream.seeded("demo").kind), str(BulkStream.from_os().kind)
('seeded', 'os-csprng')
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import croupier.randomness.source as _source_module
from croupier.errors import CroupierError
from croupier.randomness.keyed_blocks import keyed_block, keyed_digest
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import Seed
from croupier.randomness.source import ForkAware, RandomSource, SourceKind

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from croupier._core.engines import Engine

__all__ = ["KEY_BYTES", "ROWS_PER_BLOCK", "STREAM_PURPOSE", "BulkStream"]

KEY_BYTES = 32
"""Length of the stream key in bytes."""

ROWS_PER_BLOCK = 4096
"""Deals per block: block ``b`` holds deals ``b * 4096`` to ``b * 4096 + 4095``."""

STREAM_PURPOSE = Purpose.BULK
"""The ``croupier-seeded/1`` purpose that turns a seed into the stream key."""

_MAX_BLOCK = 2**64
_KINDS = frozenset(SourceKind)


class BulkStream(ForkAware):
    """The two SHAKE-128 streams of every block, under one key.

    Use :meth:`from_os` (secret, not reproducible) or :meth:`seeded`
    (reproducible, only as secret as the seed).  A stream that is not
    reproducible (``from_os``, or a key given with ``reproducible=False``)
    draws a fresh key from the OS at its first use in a forked child, so
    parent and child never make the same deals; a reproducible one keeps
    its key (the child continues the same stream).  ``kind`` says where the
    key came from (:class:`~croupier.randomness.source.SourceKind`:
    ``os-csprng``, ``seeded``, or ``keyed`` for a key the caller gave).
    """

    __slots__ = ("__weakref__", "_fork_seen", "_key", "kind", "reproducible")

    def __init__(
        self, key: bytes, *, reproducible: bool = True, kind: str = SourceKind.KEYED
    ) -> None:
        if len(key) != KEY_BYTES:
            raise CroupierError(f"a bulk stream key has {KEY_BYTES} bytes, not {len(key)}")
        self._key = bytes(key)
        self.reproducible = reproducible
        self.kind = kind
        self._fork_seen = _source_module.fork_generation

    @property
    def label(self) -> str:
        """:attr:`kind`, under its former name."""
        return self.kind

    def _after_fork(self) -> None:
        """In a forked child: a fresh key from the OS unless the stream is reproducible."""
        if not self.reproducible:
            self._key = os.urandom(KEY_BYTES)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickling: a seeded stream keeps its key; an OS stream gets a fresh one.

        So a stream sent to another process never repeats this one's deals.
        """
        if self.reproducible:
            return (BulkStream, (self._key,), {"reproducible": True, "kind": self.kind})
        return (BulkStream.from_os, ())

    def __setstate__(self, state: dict[str, object]) -> None:
        self.reproducible = bool(state["reproducible"])
        kind = str(state.get("kind", state.get("label", SourceKind.KEYED)))  # "label": the old name
        self.kind = SourceKind(kind) if kind in _KINDS else kind

    @classmethod
    def from_os(cls) -> BulkStream:
        """A stream keyed from the OS CSPRNG (re-keyed in a forked child)."""
        return cls(os.urandom(KEY_BYTES), reproducible=False, kind=SourceKind.OS_CSPRNG)

    @classmethod
    def seeded(cls, seed: Seed) -> BulkStream:
        """The reproducible stream of ``seed`` (text, bytes, a whole number or ``"hex:..."``):
        keyed by its ``croupier-seeded/1`` stream of purpose ``croupier-bulk/1``."""
        from croupier.randomness.options import resolve_source

        return cls.from_source(resolve_source(seed, purpose=STREAM_PURPOSE))

    @classmethod
    def from_source(cls, source: RandomSource) -> BulkStream:
        """The stream keyed by the next 256 bits of ``source``
        (:func:`~croupier.randomness.options.stream_key`), of its kind and reproducibility.

        A seed's stream is the stream of its ``croupier-seeded/1`` source of purpose
        ``croupier-bulk/1``:

        >>> from croupier.randomness.seeded import SeededSource
        >>> seeded = SeededSource("demo", purpose=STREAM_PURPOSE)
        >>> BulkStream.from_source(seeded).main(0, 8) == BulkStream.seeded("demo").main(0, 8)
        True
        """
        from croupier.randomness.options import stream_key

        key = stream_key(source, KEY_BYTES)
        kind = source.kind if source.kind in _KINDS else SourceKind.KEYED
        return cls(key, reproducible=source.reproducible, kind=kind)

    def derive(self, label: str) -> BulkStream:
        """An independent child stream named ``label``.

        Its key is ``SHAKE-128(key || b"derive:" || label)`` (32 bytes; the
        label UTF-8 encoded).  A seeded stream's children are
        reproducible; an OS stream's children are re-keyed after fork and
        when pickled, like their parent.

        >>> parent = BulkStream.seeded("demo")
        >>> a, b = parent.derive("shapes"), parent.derive("cards")
        >>> a.main(0, 8) == BulkStream.seeded("demo").derive("shapes").main(0, 8)
        True
        >>> len({a.main(0, 8), b.main(0, 8), parent.main(0, 8)}), a.reproducible, str(a.kind)
        (3, True, 'seeded')
        """
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        key = keyed_digest(self._key, b"derive:" + label.encode("utf-8"), KEY_BYTES)
        return BulkStream(key, reproducible=self.reproducible, kind=self.kind)

    def _digest(self, kind: bytes, block: int, length: int) -> bytes:
        if not 0 <= block < _MAX_BLOCK:
            raise CroupierError(f"block index {block} is out of range 0..2**64-1")
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        return keyed_block(self._key, kind, block, length)

    def main(self, block: int, length: int) -> bytes:
        """The first ``length`` bytes of block ``block``'s main stream."""
        return self._digest(b"main", block, length)

    def main_blocks(
        self, first: int, count: int, length: int, engine: Engine = "auto"
    ) -> npt.NDArray[np.uint8]:
        """The first ``length`` bytes of the main stream of blocks ``first .. first + count - 1``,
        one after the other: ``b"".join(main(b, length) for b in ...)`` as an array.

        The compiled core (``croupier._core.shake``) makes them without the interpreter
        lock; ``engine="python"``, or a subclass that redefines :meth:`main`, joins the
        blocks of :meth:`main`.

        >>> s = BulkStream.seeded("demo")
        >>> s.main_blocks(5, 2, 24).tobytes() == s.main(5, 24) + s.main(6, 24)
        True
        """
        import numpy as np

        from croupier._core.engines import resolve

        if count < 0 or length < 0:
            raise CroupierError(f"{count} blocks of {length} bytes: both must be at least 0")
        if count and (first < 0 or first + count > _MAX_BLOCK):
            raise CroupierError(f"blocks {first}..{first + count - 1} are out of range 0..2**64-1")
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        if resolve(engine) == "python" or type(self).main is not BulkStream.main:
            data = b"".join(self.main(first + b, length) for b in range(count))
            return np.frombuffer(data, np.uint8).copy()
        from croupier._core.shake import shake128_blocks

        out = np.empty(count * length, np.uint8)
        shake128_blocks(self._key + b"main", first, count, length, out)
        return out

    def retry(self, block: int, length: int) -> bytes:
        """The first ``length`` bytes of block ``block``'s retry stream."""
        return self._digest(b"retry", block, length)
