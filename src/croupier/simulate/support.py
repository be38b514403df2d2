"""Which uniform deals fall in a sampler's support: exact Bernoulli trials, one per deal.

dealer's ``generate G`` means G uniform deals looked at.  Under smart
stacking croupier never deals the uniform deals outside the stacked support
(none of them can pass), but it still counts them: trial ``t`` of a run is one
uniform deal, and it falls in the support with probability ``p``, the
support's exact share of the deals (:attr:`Sampler.probability`).
:class:`SupportTrials` draws those indicators exactly, trial by trial, and
the run deals one stacked row for each trial that falls in the support.  The
trials are independent, so the number of the G trials in the support is
exactly Binomial(G, p), and when ``produce`` ends a run, its count of
generated deals is where rejection would have stopped (see
``docs/constraint-dealing.md``).

Trial ``t`` compares a number ``U`` exactly uniform in ``[0, 1)`` with ``p``:
``U < p`` puts the deal in the support.  ``U``'s first 16 bits are the big-endian
word ``t % 4096`` of block ``t // 4096`` of the stream ``stacking/support``
(derived from the run's); when they equal the first 16 bits of ``p``, which
happens once in 65,536 trials, the comparison goes on with the bytes of that
stream's own block number ``t`` of its derived stream ``more``, 64 bits at a
time, until it is decided.  So trial ``t`` depends only on the key and ``t``,
and no comparison is ever rounded.

>>> from croupier.randomness.bulk_stream import BulkStream
>>> trials = SupportTrials(Fraction(1, 3), BulkStream.seeded("doc"))
>>> mask, bits = trials.mask(0, 30000)
>>> abs(int(mask.sum()) - 10000) < 300, int(bits.min())  # 16 bits a trial, rarely more
(True, 16)
>>> bool((trials.mask(12345, 30000)[0] == mask[12345:]).all())
True
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.algorithm_ids import STACK
from croupier.randomness.bulk_stream import ROWS_PER_BLOCK, BulkStream

__all__ = ["STACKING_ALGORITHM_ID", "SUPPORT_STREAM", "WORD_BITS", "SupportTrials", "decide"]

STACKING_ALGORITHM_ID = STACK
"""The id of the reproducible runs of the ``auto`` and ``stacking`` strategies: which deals
a seed gives, in which order, and how many uniform deals they count as generated
(``docs/smart-stacking.md`` states the algorithm; ``tests/vectors/simulate.json`` pins
seeded rows, support trials and runs).  Any change to them makes a new id."""

SUPPORT_STREAM = "stacking/support"
"""The label of the stream the support trials read (derived from the run's stream)."""

WORD_BITS = 16
"""The bits of ``U`` every trial reads at once."""

_MORE = 8  # bytes of each further step of an undecided comparison
BoolArray = npt.NDArray[np.bool_]


def decide(remainder: Fraction, more: bytes) -> tuple[bool, int]:
    """Whether ``V < remainder`` for ``V`` uniform in ``[0, 1)`` whose binary digits are
    ``more`` (read 64 bits at a time), and the bits read.  Raises :class:`ValueError`
    when ``more`` runs out first (8 bytes decide all but one case in 2**64; the
    caller reads more and asks again).

    >>> decide(Fraction(1, 2), bytes([0x7F] + [0xFF] * 7))
    (True, 64)
    >>> decide(Fraction(1, 2), bytes([0x80] + [0] * 7 + [0] * 8))
    (False, 64)
    >>> decide(Fraction(0), bytes(8))
    (False, 0)
    """
    used = 0
    while remainder > 0:
        if used + _MORE > len(more):
            raise ValueError("more bytes are needed to decide")
        word = int.from_bytes(more[used : used + _MORE], "big")
        used += _MORE
        scaled = remainder * (1 << (8 * _MORE))
        head = scaled.numerator // scaled.denominator
        if word < head:
            return True, 8 * used
        if word > head:
            return False, 8 * used
        remainder = scaled - head
    return False, 8 * used


class SupportTrials:
    """The exact support indicators of a run's trials (see the module).

    ``probability`` is the support's share ``p`` of the uniform deals;
    :meth:`mask` gives, for trials ``start`` to ``stop - 1``, whether each falls
    in the support, and the random bits read.  With ``p`` equal to 1 every
    trial does and nothing is read; with ``p`` equal to 0 none does.

    >>> from croupier.randomness.bulk_stream import BulkStream
    >>> inside, bits = SupportTrials(Fraction(1), BulkStream.seeded("x")).mask(0, 3)
    >>> inside.tolist(), bits.tolist()
    ([True, True, True], [0, 0, 0])
    """

    def __init__(self, probability: Fraction, stream: BulkStream) -> None:
        if not 0 <= probability <= 1:
            raise ValueError(f"probability={probability} must be between 0 and 1")
        self.probability = Fraction(probability)
        self.stream = stream.derive(SUPPORT_STREAM)
        self._more = self.stream.derive("more")
        scaled = self.probability * (1 << WORD_BITS)
        self._head = scaled.numerator // scaled.denominator  # the first 16 bits of p
        self._rest = scaled - self._head  # what decides a tie, in [0, 1)

    def mask(self, start: int, stop: int) -> tuple[BoolArray, npt.NDArray[np.uint32]]:
        """Whether each of trials ``start`` .. ``stop - 1`` falls in the support, and the
        random bits each read to say so."""
        count = max(stop - start, 0)
        if self.probability in (0, 1) or not count:
            return np.full(count, self.probability == 1, np.bool_), np.zeros(count, np.uint32)
        first, last = start // ROWS_PER_BLOCK, (stop - 1) // ROWS_PER_BLOCK
        size = ROWS_PER_BLOCK * WORD_BITS // 8
        data = self.stream.main_blocks(first, last - first + 1, size)
        lo = start - first * ROWS_PER_BLOCK
        words = data.view(">u2")[lo : lo + count]
        inside: BoolArray = words < self._head
        bits = np.full(count, WORD_BITS, np.uint32)
        for k in np.flatnonzero(words == self._head).tolist():
            more = b""
            while True:
                more += self._more.main(start + k, len(more) + 64)[len(more) :]
                try:
                    inside[k], used = decide(self._rest, more)
                except ValueError:
                    continue
                bits[k] += used
                break
        return inside, bits

    def count(self, start: int, stop: int) -> int:
        """How many of trials ``start`` .. ``stop - 1`` fall in the support."""
        done = 0
        for lo in range(start, stop, 1 << 20):
            done += int(self.mask(lo, min(lo + (1 << 20), stop))[0].sum())
        return done
