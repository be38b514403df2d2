"""``rnd(n)``: random integers for dealer's ``rnd``, from a run's stream, reproducible.

dealer's ``rnd(n)`` draws a new number from its global generator each time it
is evaluated, so a value depends on the order of evaluation.  croupier gives
every draw its own place instead: the value of one mention of ``rnd`` (a place
in the script's text, reached through named expressions as often as they are
used) for one deal of a run depends only on the run's stream, the purpose
(the condition, or the action it is in), the mention's number and the deal's
number in the run.  So short-circuit operators, batch sizes, strategies and
clusters never change it, and a seeded run reproduces it.

The number of mention ``m`` for deal ``d`` is read from the stream
``rnd/<purpose>/<m>`` (derived from the run's): 64 bits, big-endian, bytes
``8 * (d % 64)`` to ``8 * (d % 64) + 7`` of its block ``d // 64``.  A word
``w`` below the largest multiple of ``|n|`` that fits in 64 bits gives ``w %
|n|``; any other is drawn again, 64 bits at a time, from block ``d`` of the
derived stream ``retry`` (rejection, never bias).  ``rnd(n)`` is then ``w %
n`` for ``n > 0``, ``0`` for ``n == 0`` and ``-(w % -n)`` for ``n < 0``, as
dealer's ``(int)(n * random() / (RAND_MAX + 1.0))`` truncates.

>>> from croupier.randomness.bulk_stream import BulkStream
>>> draws = Draws(BulkStream.seeded("doc").derive("rnd/condition"), np.arange(1000))
>>> values = draws.below(0, np.full(1000, 6, np.int64))
>>> sorted(set(values.tolist())), bool((values == draws.below(0, np.full(1000, 6))).all())
([0, 1, 2, 3, 4, 5], True)
>>> bool((values != draws.below(1, np.full(1000, 6))).any())  # another mention
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.randomness.bulk_stream import BulkStream

__all__ = ["MAX_BOUND", "WORDS_PER_BLOCK", "Draws"]

WORDS_PER_BLOCK = 64
"""Deals whose words one SHAKE-128 call gives (512 bytes)."""

MAX_BOUND = 1 << 62
"""``rnd(n)`` needs ``|n|`` below this."""

IntArray = npt.NDArray[np.int64]


class Draws:
    """The ``rnd`` values of one purpose (the condition, an action) over deals numbered
    ``numbers`` (their numbers in the run, aligned with the deals evaluated)."""

    def __init__(self, stream: BulkStream, numbers: npt.ArrayLike) -> None:
        self.stream = stream
        self.numbers = np.asarray(numbers, np.int64).reshape(-1)
        self._streams: dict[int, BulkStream] = {}

    def _mention(self, mention: int) -> BulkStream:
        found = self._streams.get(mention)
        if found is None:
            found = self._streams[mention] = self.stream.derive(str(mention))
        return found

    def words(self, mention: int, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
        """The first 64-bit word of mention ``mention`` for the deals at ``rows``."""
        stream = self._mention(mention)
        numbers = self.numbers[rows]
        blocks, where = np.unique(numbers // WORDS_PER_BLOCK, return_inverse=True)
        data = b"".join(stream.main(int(b), 8 * WORDS_PER_BLOCK) for b in blocks.tolist())
        table = np.frombuffer(data, ">u8").reshape(len(blocks), WORDS_PER_BLOCK)
        found: npt.NDArray[np.uint64] = table[where.reshape(-1), numbers % WORDS_PER_BLOCK]
        return found.astype(np.uint64)

    def below(
        self,
        mention: int,
        bound: npt.ArrayLike,
        active: npt.NDArray[np.bool_] | None = None,
    ) -> IntArray:
        """``rnd(bound)`` of mention ``mention`` for every deal (0 where not ``active``)."""
        limit = np.asarray(bound, np.int64).reshape(-1)
        if limit.shape != self.numbers.shape:
            raise ValueError(f"bound has {limit.size} values for {self.numbers.size} deals")
        out = np.zeros(limit.shape, np.int64)
        size = np.abs(limit)
        if (size >= MAX_BOUND).any():
            raise ValueError(f"rnd() needs a bound below 2**62, got {int(size.max())}")
        need = size > 0 if active is None else (size > 0) & active
        rows = np.flatnonzero(need)
        if not rows.size:
            return out
        m = size[rows].astype(np.uint64)
        w = self.words(mention, rows)
        spare = (np.uint64(0) - m) % m  # 2**64 mod m
        rejected = (spare != 0) & (w >= np.uint64(0) - spare)
        value = w % m
        for k in np.flatnonzero(rejected).tolist():
            value[k] = self._again(mention, int(self.numbers[rows[k]]), int(m[k]))
        signed = value.astype(np.int64)
        out[rows] = np.where(limit[rows] < 0, -signed, signed)
        return out

    def _again(self, mention: int, number: int, m: int) -> int:
        """A value below ``m`` for a deal whose first word was rejected."""
        retry = self._mention(mention).derive("retry")
        limit = (1 << 64) - (1 << 64) % m
        read = 8
        while True:
            data = retry.main(number, read)
            word = int.from_bytes(data[read - 8 :], "big")
            if word < limit:
                return word % m
            read += 8
