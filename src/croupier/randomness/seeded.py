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
from typing import ClassVar, TypeAlias

from croupier.algorithm_ids import SEEDED
from croupier.errors import SeedError, utf8_bytes
from croupier.randomness.source import BufferedBitSource, SourceKind

__all__ = ["SEEDED_STREAM_ID", "Seed", "SeededSource", "parse_seed", "seed_value"]

Seed: TypeAlias = str | int | bytes
"""What every ``seed=`` takes: text (or ``hex:...``), a whole number (its decimal text, as
``--seed 42``) or raw bytes (the same seed as ``hex:`` and their hex digits)."""

SEEDED_STREAM_ID = SEEDED
"""Algorithm id and version of the seeded stream construction."""

_BLOCK_BYTES = 136  # the SHAKE-256 rate: one Keccak permutation per block
_MAX_INDEX = 2**64


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_HEX_SPACES = frozenset(" \t\n\r\x0b\x0c")  # what bytes.fromhex skips between pairs


def seed_value(seed: Seed | None) -> str | bytes | None:
    """A seed as the streams keep it: text or bytes; a whole number means its decimal text.

    Anything else is a :class:`~croupier.errors.SeedError` naming only the type
    (a seed may be a secret, so it is never quoted).

    >>> seed_value(42), seed_value("hex:2a"), seed_value(b"*"), seed_value(None)
    ('42', 'hex:2a', b'*', None)
    >>> seed_value(4.2)
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: seed= must be text, bytes or a whole number, not float
    """
    if seed is None or isinstance(seed, str | bytes):
        return seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        return str(seed)
    raise SeedError(f"seed= must be text, bytes or a whole number, not {type(seed).__name__}")


def parse_seed(seed: Seed) -> bytes:
    """The seed bytes for a seed given as text, bytes, a whole number, or text starting ``hex:``.

    Text is encoded as UTF-8 exactly as given; a whole number is its decimal
    text (``42`` is the seed ``"42"``); ``hex:`` followed by an even
    number of hex digits gives those bytes (spaces are ignored).  Text that
    has no UTF-8 encoding (a lone surrogate, which is how Python reads a
    command-line byte that is not UTF-8) is refused: give such bytes as
    ``hex:``.  Error messages never quote the seed: it may be a secret.

    >>> parse_seed("abc") == parse_seed("hex:616263") == parse_seed("hex:61 62 63") == b"abc"
    True
    >>> parse_seed(42) == parse_seed("42")
    True
    >>> parse_seed("hex:" + "5f" * 32 + "zz")
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: a hex: seed holds only hex digits and spaces; character 65 after \
'hex:' is something else (the seed is not shown)
    >>> parse_seed("caf" + chr(0xDCE9))  # the byte 0xE9 on a command line that is not UTF-8
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: the seed is not valid text: character 4 has no UTF-8 encoding ...
    """
    value = seed_value(seed)
    if value is None:
        raise SeedError("seed= must be text, bytes or a whole number, not NoneType")
    if isinstance(value, bytes):
        data = value
    elif value.startswith("hex:"):
        data = _hex_seed(value[4:])
    else:
        hint = "; give raw bytes as 'hex:' digits (the seed is not shown)"
        data = utf8_bytes(value, "the seed", hint=hint, error=SeedError)
    if not data:
        raise SeedError("the seed is empty: give some text, bytes or 'hex:' and hex digits")
    return data


def _hex_seed(text: str) -> bytes:
    """The bytes of a ``hex:`` seed's digits (spaces ignored); errors never quote them."""
    digits = text.replace(" ", "")
    count = 0
    for position, ch in enumerate(text, 1):
        if ch in _HEX_DIGITS:
            count += 1
        elif ch not in _HEX_SPACES:
            raise SeedError(
                f"a hex: seed holds only hex digits and spaces; character {position} after "
                "'hex:' is something else (the seed is not shown)"
            )
    if count % 2:
        raise SeedError(
            f"a hex: seed needs an even number of hex digits (two a byte), not {count} "
            "(the seed is not shown)"
        )
    try:
        return bytes.fromhex(digits)
    except ValueError:  # a tab or line end between the two digits of a byte
        raise SeedError(
            "a hex: seed's digits go in pairs, two a byte; a tab or line end splits a pair "
            "(the seed is not shown)"
        ) from None


class SeededSource(BufferedBitSource):
    """Reproducible bits from a seed, a purpose and an index (``croupier-seeded/1``).

    ``seed`` is text, bytes, a whole number (its decimal text) or ``"hex:..."``;
    ``purpose`` and ``index``
    separate independent streams derived from the same seed.  Use
    :meth:`derive` for a sibling stream and :meth:`spawn` for children.

    >>> a = SeededSource("my seed", purpose="deal", index=3)
    >>> a.describe()
    'seeded (croupier-seeded/1, purpose "deal", index 3; reproducible; only as secret as the seed)'
    >>> a.bits(8) == SeededSource(b"my seed", "deal", 3).bits(8)
    True
    """

    kind: ClassVar[str] = SourceKind.SEEDED
    reproducible: bool = True

    def __init__(
        self,
        seed: Seed,
        purpose: str = "",
        index: int = 0,
        *,
        spawn_key: tuple[int, ...] = (),
    ) -> None:
        super().__init__()
        self.seed = parse_seed(seed)
        if not isinstance(purpose, str):
            raise SeedError(f"purpose= must be text, not {type(purpose).__name__}")
        self.purpose = str(purpose)  # (a Purpose is its spelling)
        self.index = index
        self.spawn_key = tuple(spawn_key)
        for k in (index, *self.spawn_key):
            if isinstance(k, bool) or not isinstance(k, int):
                raise SeedError(f"a stream index is a whole number, not {type(k).__name__}")
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

    def _next_blocks_bytes(self, nbits: int) -> tuple[bytes, int]:
        count = -(-nbits // (8 * _BLOCK_BYTES))
        first = self._block
        self._block += count
        return self.blocks(first, count), 8 * _BLOCK_BYTES * count

    def blocks(self, first: int, count: int) -> bytes:
        """Blocks ``first`` to ``first + count - 1`` of the stream, joined (``136 * count`` bytes).

        >>> s = SeededSource("x")
        >>> s.blocks(2, 3) == s.block(2) + s.block(3) + s.block(4)
        True
        """
        if not (first >= 0 and first + count <= _MAX_INDEX):
            raise SeedError(f"block index {first + count - 1} is out of range 0..2**64-1")
        base = self._hash
        out: list[bytes] = []
        append = out.append
        for j in range(first, first + count):
            h = base.copy()
            h.update(j.to_bytes(8, "big"))
            append(h.digest(_BLOCK_BYTES))
        return b"".join(out)

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
