"""A seeded, reproducible bit stream: SHAKE-256 over a domain-separated seed.

The construction (``croupier-seeded/1``, specified in ``docs/reproducibility.md``):

* ``M = F("croupier-seeded/1") || F(seed) || F(purpose) || F(path)`` where
  ``F(x)`` is ``x`` preceded by its length in bytes as an 8-byte big-endian
  integer, ``seed`` the seed bytes (text is encoded as UTF-8 exactly as
  given), ``purpose`` the UTF-8 purpose text, and ``path`` the stream index
  followed by any spawn indices, each an 8-byte big-endian integer;
* block ``j`` (``j = 0, 1, 2, ...``) is the first 136 bytes of
  ``SHAKE-256(M || j as 8-byte big-endian)``;
* the stream is the concatenation of the blocks; a request for ``k`` bits
  takes the next ``k`` bits of the stream, the first one most significant.

Different purposes, indices or spawn paths give independent streams from one
seed (one per board, table or worker).  The stream is only as secret as the
seed: anyone who knows or guesses the seed can regenerate everything.

>>> src = SeededSource("board 1")
>>> src.bits(16) == SeededSource("board 1").bits(16)
True
>>> SeededSource("board 1").bits(64) != SeededSource("board 1", index=1).bits(64)
True
"""

from __future__ import annotations

import hashlib
from typing import ClassVar

from croupier.errors import SeedError, excerpt
from croupier.randomness.source import BufferedBitSource

__all__ = ["SEEDED_STREAM_ID", "SeededSource", "parse_seed"]

SEEDED_STREAM_ID = "croupier-seeded/1"
"""Algorithm id and version of the seeded stream construction."""

_BLOCK_BYTES = 136  # the SHAKE-256 rate: one Keccak permutation per block
_MAX_INDEX = 2**64


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def parse_seed(seed: str | bytes) -> bytes:
    """The seed bytes for a seed given as text, bytes, or text starting ``hex:``.

    Text is encoded as UTF-8 exactly as given; ``hex:`` followed by an even
    number of hex digits gives those bytes.

    >>> parse_seed("abc") == parse_seed("hex:616263") == b"abc"
    True
    """
    if isinstance(seed, bytes):
        data = seed
    elif seed.startswith("hex:"):
        digits = seed[4:].replace(" ", "")
        try:
            data = bytes.fromhex(digits)
        except ValueError:
            raise SeedError(
                f"bad hex seed {excerpt(seed)}: expected 'hex:' and an even number of hex digits"
            ) from None
    else:
        data = seed.encode("utf-8")
    if not data:
        raise SeedError(f"empty seed {excerpt(seed)}: give some text, bytes or 'hex:...' digits")
    return data


class SeededSource(BufferedBitSource):
    """Reproducible bits from a seed, a purpose and an index (``croupier-seeded/1``).

    ``seed`` is text, bytes, or ``"hex:..."``; ``purpose`` and ``index``
    separate independent streams derived from the same seed.  Use
    :meth:`derive` for a sibling stream and :meth:`spawn` for children.

    >>> a = SeededSource("my seed", purpose="deal", index=3)
    >>> a.describe()
    'seeded (croupier-seeded/1, purpose "deal", index 3; reproducible; only as secret as the seed)'
    >>> a.bits(8) == SeededSource(b"my seed", "deal", 3).bits(8)
    True
    """

    kind: ClassVar[str] = "seeded"
    reproducible: ClassVar[bool] = True

    def __init__(
        self,
        seed: str | bytes,
        purpose: str = "",
        index: int = 0,
        *,
        spawn_key: tuple[int, ...] = (),
    ) -> None:
        super().__init__()
        self.seed = parse_seed(seed)
        self.purpose = purpose
        self.index = index
        self.spawn_key = tuple(spawn_key)
        for k in (index, *self.spawn_key):
            if not 0 <= k < _MAX_INDEX:
                raise SeedError(f"stream index {k} is out of range; use 0 <= index < 2**64")
        path = b"".join(k.to_bytes(8, "big") for k in (index, *self.spawn_key))
        self.message = (
            _field(SEEDED_STREAM_ID.encode("ascii"))
            + _field(self.seed)
            + _field(purpose.encode("utf-8"))
            + _field(path)
        )
        self._hash = hashlib.shake_256(self.message)
        self._block = 0

    @property
    def seed_bits(self) -> int:
        """An upper bound on the seed's entropy: 8 bits per seed byte.

        A seed of ``b`` bits can reach at most ``2**b`` different streams, so
        a seed shorter than ``log2`` of the outcome space (225.6 bits for one
        52-card deck) cannot reach every outcome.

        >>> SeededSource("42").seed_bits
        16
        """
        return 8 * len(self.seed)

    def block(self, j: int) -> bytes:
        """Block ``j`` of the stream (136 bytes), independent of the read position.

        >>> len(SeededSource("x").block(0))
        136
        """
        h = self._hash.copy()
        h.update(j.to_bytes(8, "big"))
        return h.digest(_BLOCK_BYTES)

    def _next_block(self) -> tuple[int, int]:
        data = self.block(self._block)
        self._block += 1
        return int.from_bytes(data, "big"), 8 * _BLOCK_BYTES

    def derive(self, purpose: str | None = None, index: int | None = None) -> SeededSource:
        """A fresh stream with the same seed and a different purpose and/or index.

        >>> s = SeededSource("seed")
        >>> s.derive(index=2).bits(32) == SeededSource("seed", "", 2).bits(32)
        True
        """
        return SeededSource(
            self.seed,
            self.purpose if purpose is None else purpose,
            self.index if index is None else index,
            spawn_key=self.spawn_key,
        )

    def spawn(self, n: int) -> list[SeededSource]:
        """``n`` independent child streams (like numpy's ``SeedSequence.spawn``).

        Child ``i`` appends ``i`` to this stream's path, so children differ
        from the parent, from each other and from every ``derive``'d sibling.

        >>> kids = SeededSource("seed").spawn(2)
        >>> [k.spawn_key for k in kids]
        [(0,), (1,)]
        """
        if n < 0:
            raise SeedError(f"cannot spawn {n} streams; use n >= 0")
        return [
            SeededSource(self.seed, self.purpose, self.index, spawn_key=(*self.spawn_key, i))
            for i in range(n)
        ]

    def describe(self) -> str:
        where = f'purpose "{self.purpose}", index {self.index}'
        if self.spawn_key:
            where += ", spawn " + "/".join(map(str, self.spawn_key))
        return f"seeded ({SEEDED_STREAM_ID}, {where}; reproducible; only as secret as the seed)"

    def __repr__(self) -> str:
        return (
            f"SeededSource(<{len(self.seed)}-byte seed>, purpose={self.purpose!r}, "
            f"index={self.index}, spawn_key={self.spawn_key!r})"
        )
