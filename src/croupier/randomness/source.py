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
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from typing import ClassVar

__all__ = ["BitSource", "OsRandomSource", "RandomSource"]


class RandomSource(ABC):
    """Base class of every random source.

    ``kind`` names the source in outputs (``os-csprng``, ``seeded``,
    ``entropy``, ``numpy``); ``reproducible`` says whether the same
    construction gives the same stream again.
    """

    kind: ClassVar[str] = "abstract"
    reproducible: ClassVar[bool] = False

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
    """A source of independent uniform bits that counts what it hands out."""

    def __init__(self) -> None:
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
        self._bits_used += k
        return self._random_bits(k)

    def draw(self, bits: int) -> tuple[int, int]:
        k = max(1, bits)
        return self.bits(k), 1 << k

    @abstractmethod
    def _random_bits(self, k: int) -> int:
        """Produce ``k`` >= 1 fresh random bits (not counted here)."""


class OsRandomSource(BitSource):
    """The operating system's CSPRNG (via :mod:`secrets`): croupier's default."""

    kind: ClassVar[str] = "os-csprng"

    def _random_bits(self, k: int) -> int:
        return secrets.randbits(k)

    def describe(self) -> str:
        return "os-csprng (operating system CSPRNG; not reproducible)"
