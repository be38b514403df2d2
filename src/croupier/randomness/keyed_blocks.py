"""Keyed stream blocks: the one home of ``SHAKE-128(key || label || number)``.

Every keyed stream of croupier is made of blocks of this one form: the bulk
deal stream's main and retry blocks (``croupier-bulk/1``), the keyed split's
key blocks and leaf streams (``croupier-keyed-split/1``, the file and Dask
shuffles), the reservoir sample's blocks (``croupier-reservoir/1``) and poker
equity's Monte Carlo batches (``croupier-equity-mc/1``).  A block is the first
``nbytes`` bytes of SHAKE-128 of the stream's key, the block's label (ASCII) and
the block's number as 8 bytes big-endian; so any block can be made without the
ones before it (prefix stability, and work split across threads and machines).
The compiled kernels (``croupier._core.shake``, ``croupier._core.keyed``) make
the same bytes; this module is their specification.

>>> blocks = KeyedBlocks(b"k" * 32, b"main")
>>> blocks.block(3, 8) == keyed_block(b"k" * 32, b"main", 3, 8)
True
>>> keyed_block(b"k" * 32, b"main", 3, 8).hex()
'e552ee48705dbbe0'
"""

from __future__ import annotations

import hashlib

from croupier.errors import CroupierError

__all__ = ["BLOCK_NUMBERS", "KeyedBlocks", "keyed_block", "keyed_digest"]

BLOCK_NUMBERS = 2**64
"""Block numbers run from 0 to ``2**64 - 1`` (8 bytes)."""


def _number(number: int) -> bytes:
    if not 0 <= number < BLOCK_NUMBERS:
        raise CroupierError(f"block index {number} is out of range 0..2**64-1")
    return number.to_bytes(8, "big")


def keyed_digest(key: bytes, label: bytes, nbytes: int) -> bytes:
    """The first ``nbytes`` bytes of ``SHAKE-128(key || label)`` (a block with no number:
    a derived key).

    >>> len(keyed_digest(b"k" * 32, b"derive:shapes", 32))
    32
    """
    return hashlib.shake_128(key + label).digest(nbytes)


def keyed_block(key: bytes, label: bytes, number: int, nbytes: int) -> bytes:
    """The first ``nbytes`` bytes of ``SHAKE-128(key || label || number)``, ``number`` as
    8 bytes big-endian (0 to ``2**64 - 1``; anything else is a ``CroupierError``)."""
    return hashlib.shake_128(key + label + _number(number)).digest(nbytes)


class KeyedBlocks:
    """The blocks of one stream (one key and label), the hash of their common prefix kept:
    many blocks cost one absorption of the key each fewer than :func:`keyed_block`."""

    def __init__(self, key: bytes, label: bytes) -> None:
        self.key = bytes(key)
        self.label = bytes(label)
        self._prefix = hashlib.shake_128(self.key + self.label)

    def block(self, number: int, nbytes: int) -> bytes:
        """The first ``nbytes`` bytes of block ``number``."""
        h = self._prefix.copy()
        h.update(_number(number))
        return h.digest(nbytes)
