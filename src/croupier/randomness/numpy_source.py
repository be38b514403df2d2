"""An adapter over a ``numpy.random.Generator``: fast, reproducible, not secret.

For simulations only: numpy's bit generators (PCG64 by default) are fast
and statistically good but predictable, so never use them for real deals.
Without a generator or seed, numpy seeds one from the OS: such a source is
not reproducible, and a forked child (or a copy) seeds a fresh one before its
first draw, so it never repeats its parent.

>>> src = NumpySource(12345)
>>> src.bits(20) == NumpySource(12345).bits(20), src.kind
(True, <SourceKind.NUMPY: 'numpy'>)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from croupier.randomness.source import BufferedBitSource, SourceKind

if TYPE_CHECKING:
    import numpy as np

__all__ = ["NumpySource"]

_WORDS = 16


class NumpySource(BufferedBitSource):
    """Bits from a numpy ``Generator`` (or a seed for ``numpy.random.default_rng``).

    Raw 64-bit words of the generator's bit generator are read in order, each
    word's most significant bit first.  ``NumpySource()`` (no generator, no
    seed) is seeded from the OS and not reproducible.

    >>> import numpy as np
    >>> src = NumpySource(np.random.default_rng(7))
    >>> 0 <= src.bits(100) < 2**100, src.bits_used
    (True, 100.0)
    >>> src.reproducible, NumpySource().reproducible
    (True, False)
    """

    kind: ClassVar[str] = SourceKind.NUMPY
    reproducible: bool = True

    def __init__(self, generator: np.random.Generator | int | None = None) -> None:
        super().__init__()
        import numpy as np

        self.reproducible = generator is not None
        if generator is None or isinstance(generator, int):
            generator = np.random.default_rng(generator)
        self.generator = generator
        self._bit_generator = generator.bit_generator

    def _forget_after_fork(self) -> None:
        """Seeded from the OS: a fresh generator, never the parent's (a seeded one is kept)."""
        if not self.reproducible:
            import numpy as np

            self.generator = np.random.default_rng()
            self._bit_generator = self.generator.bit_generator
            self._buf, self._nbuf = 0, 0

    def _next_block(self) -> tuple[int, int]:
        words = self._bit_generator.random_raw(_WORDS)
        return int.from_bytes(words.astype(">u8").tobytes(), "big"), 64 * _WORDS

    def _next_blocks_bytes(self, nbits: int) -> tuple[bytes, int]:
        words = self._bit_generator.random_raw(-(-nbits // 64))
        return words.astype(">u8").tobytes(), 64 * len(words)

    def describe(self) -> str:
        name = type(self._bit_generator).__name__
        if not self.reproducible:
            return f"numpy ({name} seeded from the OS; fast, NOT secret: simulation only)"
        return f"numpy ({name}; fast, reproducible, NOT secret: simulation only)"
