"""Exact uniform integers with the fewest bits, recycling what is left over.

:class:`UniformSampler` keeps a state ``(v, m)`` with ``v`` uniform in
``[0, m)``.  To draw below ``n`` it widens the state with just enough fresh
randomness that ``m >= n``, then splits ``m = q*n + r``.  If ``v < q*n`` the
answer is ``v % n`` and ``v // n`` (uniform in ``[0, q)``) stays as state;
otherwise ``v - q*n`` (uniform in ``[0, r)``) stays and it tries again.
Nothing is ever reduced modulo ``n`` with bias and no floats are used.  By
default each widening takes the fewest fresh bits, so a single draw costs at
most about ``log2(n) + 2`` bits on average; with ``margin_bits`` (say 32) the
state is kept wide, rejections become rare and a long run of draws costs
within a hair of ``log2(n)`` bits each (randomness recycling).

>>> from croupier.randomness.source import OsRandomSource
>>> sampler = UniformSampler(OsRandomSource())
>>> 0 <= sampler.below(52) < 52
True
"""

from __future__ import annotations

import math
import threading
from typing import Protocol, runtime_checkable

import croupier.randomness.source as _source_module
from croupier.algorithm_ids import UNIFORM
from croupier.errors import CroupierError, EntropyExhaustedError
from croupier.randomness.source import ForkAware, RandomSource

__all__ = ["UNIFORM_ALGORITHM_ID", "Chooser", "UniformSampler", "below_once"]

UNIFORM_ALGORITHM_ID = UNIFORM
"""Id and version of the sampling algorithm (specified in ``docs/reproducibility.md``)."""


@runtime_checkable
class Chooser(Protocol):
    """Anything that answers exactly uniform integers in ``[0, n)``.

    Random algorithms take a ``Chooser`` rather than a source, so the same code
    runs on real randomness (:class:`UniformSampler`) and under the exact
    decision-tree walker (:func:`croupier.randomness.walk.exact_distribution`).

    >>> from croupier.randomness.seeded import SeededSource
    >>> isinstance(UniformSampler(SeededSource("x")), Chooser)
    True
    """

    def below(self, n: int) -> int:
        """An exactly uniform integer in ``[0, n)``."""
        ...


class UniformSampler(ForkAware):
    """Turns a :class:`RandomSource` into exactly uniform integers.

    ``margin_bits`` (default 0) makes each widening take enough bits that the
    held range is at least ``n * 2**margin_bits``: a rejection then has
    probability below ``2**-margin_bits``, so a long run of draws wastes almost
    nothing (about 32 is a good value for bulk work), while a single draw costs
    ``margin_bits`` more (kept as leftover).  ``recycle=False`` forgets the
    leftover after every draw (each draw is then an independent Fast-Dice-Roller
    style draw costing at most about ``log2(n) + 2`` bits on average).

    The held randomness is fork-safe: when the source is not reproducible
    (the OS CSPRNG, an unseeded numpy source), a forked child forgets it
    before its first draw, so parent and child never answer from the same
    leftover bits.  (A reproducible source, like a seeded stream, continues
    identically in both: that is what reproducible means.)

    A sampler may be shared by threads: each draw holds the sampler's lock,
    so no two threads ever answer from the same held randomness (a seeded
    sampler shared by threads answers the same multiset of values as one
    thread making all the draws, when every draw has the same ``n``).

    >>> from croupier.randomness.seeded import SeededSource
    >>> s = UniformSampler(SeededSource("doc"), margin_bits=32)
    >>> all(0 <= s.below(10) < 10 for _ in range(100))
    True
    >>> waste = s.bits_used - s.leftover_bits - 100 * math.log2(10)
    >>> 0 <= waste < 1e-6
    True
    """

    __slots__ = ("_fork_seen", "_lock", "_m", "_v", "margin_bits", "recycle", "source")

    def __init__(self, source: RandomSource, *, margin_bits: int = 0, recycle: bool = True) -> None:
        if margin_bits < 0:
            raise CroupierError(f"margin_bits must be >= 0, got {margin_bits}")
        self.source = source
        self.margin_bits = margin_bits
        self.recycle = recycle
        self._v = 0
        self._m = 1
        self._fork_seen = _source_module.fork_generation
        self._lock = threading.Lock()

    @property
    def bits_used(self) -> float:
        """Bits drawn from the source so far (including those held as state)."""
        return self.source.bits_used

    @property
    def leftover_bits(self) -> float:
        """log2 of the randomness currently held for the next draw."""
        return math.log2(self._m)

    def discard(self) -> None:
        """Forget the held randomness (e.g. before handing the source elsewhere)."""
        with self._lock:
            self._v, self._m = 0, 1

    def __getstate__(self) -> dict[str, object]:
        """Pickled or copied without the lock; OS randomness held is not copied (never reused)."""
        keep = self.source.reproducible
        return {
            "source": self.source,
            "margin_bits": self.margin_bits,
            "recycle": self.recycle,
            "_v": self._v if keep else 0,
            "_m": self._m if keep else 1,
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self._fork_seen = _source_module.fork_generation
        self._lock = threading.Lock()

    def _after_fork(self) -> None:
        """In a forked child: a fresh lock, and forget OS randomness held for the parent."""
        self._lock = threading.Lock()  # another thread may have held the old one
        if not self.source.reproducible:
            self._v, self._m = 0, 1

    def below(self, n: int) -> int:
        """An exactly uniform integer in ``[0, n)``.

        >>> from croupier.randomness.source import OsRandomSource
        >>> UniformSampler(OsRandomSource()).below(1)
        0
        """
        if n < 1:
            raise CroupierError(f"cannot draw below {n}: the range [0, {n}) is empty")
        if n == 1:
            return 0
        if self._fork_seen != _source_module.fork_generation:  # forked since the last draw
            self._check_fork()
        with self._lock:  # one thread at a time changes the held state
            try:
                result, v, m = _widen_and_split(self.source, n, self._v, self._m, self.margin_bits)
            except _Exhausted as short:  # keep what is held for a draw with more entropy
                self._v, self._m = short.v, short.m
                raise short.error from None
            if self.recycle:
                self._v, self._m = v, m
            else:
                self._v, self._m = 0, 1
            return result

    def between(self, low: int, high: int) -> int:
        """An exactly uniform integer in ``[low, high]`` (both inclusive).

        >>> from croupier.randomness.source import OsRandomSource
        >>> 1 <= UniformSampler(OsRandomSource()).between(1, 6) <= 6
        True
        """
        if high < low:
            raise CroupierError(f"empty range [{low}, {high}]: high must be >= low")
        return low + self.below(high - low + 1)


class _Exhausted(Exception):
    """The source ran dry mid-draw: the held state ``(v, m)`` and the error to raise."""

    def __init__(self, v: int, m: int, error: EntropyExhaustedError) -> None:
        super().__init__(str(error))
        self.v, self.m, self.error = v, m, error


def _widen_and_split(
    source: RandomSource, n: int, v: int, m: int, margin_bits: int
) -> tuple[int, int, int]:
    """One draw below ``n >= 2`` from the held state ``(v, m)``: ``(result, v', m')``.

    Widens the state with the fewest fresh bits that make ``m`` at least
    ``n << margin_bits``, splits ``m = q*n + r`` and answers ``v % n`` when
    ``v < q*n`` (leaving ``(v // n, q)``), else keeps ``(v - q*n, r)`` and tries again.
    """
    target = n << margin_bits if margin_bits else n
    while True:
        if m < target:
            try:
                value, modulus = source.draw(((target - 1) // m).bit_length())
            except EntropyExhaustedError as error:
                if m >= n:  # the margin is a luxury: finish with what is held
                    target = n
                    continue
                shortfall = getattr(source, "shortfall", None)
                if shortfall is None:
                    raise
                raise _Exhausted(v, m, EntropyExhaustedError(shortfall(-(-n // m)))) from error
            v = v * modulus + value
            m *= modulus
            continue
        q, r = divmod(m, n)
        limit = m - r
        if v < limit:
            q_v, result = divmod(v, n)
            return result, q_v, q
        v -= limit
        m = r


def below_once(source: RandomSource, n: int) -> int:
    """One exactly uniform integer in ``[0, n)`` from ``source``, with the fewest bits.

    The same draws as ``UniformSampler(source).below(n)``, without making a
    sampler: nothing is held afterwards (what is left over is dropped).

    >>> from croupier.randomness.seeded import SeededSource
    >>> below_once(SeededSource("x"), 10**20) == UniformSampler(SeededSource("x")).below(10**20)
    True
    """
    if n < 2:
        if n < 1:
            raise CroupierError(f"cannot draw below {n}: the range [0, {n}) is empty")
        return 0
    try:
        return _widen_and_split(source, n, 0, 1, 0)[0]
    except _Exhausted as short:
        raise short.error from None
