"""An adapter over a ``numpy.random.Generator``: fast, reproducible, not secret.

For simulations only: numpy's bit generators (PCG64 by default) are fast
and statistically good but predictable, so never use them for real deals.

>>> src = NumpySource(12345)
>>> src.bits(20) == NumpySource(12345).bits(20), src.kind
(True, 'numpy')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from croupier.randomness.source import BufferedBitSource

if TYPE_CHECKING:
    import numpy as np

__all__ = ["NumpySource"]

_WORDS = 16


class NumpySource(BufferedBitSource):
    """Bits from a numpy ``Generator`` (or a seed for ``numpy.random.default_rng``).

    Raw 64-bit words of the generator's bit generator are read in order, each
    word's most significant bit first.

    >>> import numpy as np
    >>> src = NumpySource(np.random.default_rng(7))
    >>> 0 <= src.bits(100) < 2**100, src.bits_used
    (True, 100.0)
    """

    kind: ClassVar[str] = "numpy"
    reproducible: ClassVar[bool] = True

    def __init__(self, generator: np.random.Generator | int | None = None) -> None:
        super().__init__()
        import numpy as np

        if generator is None or isinstance(generator, int):
            generator = np.random.default_rng(generator)
        self.generator = generator
        self._bit_generator = generator.bit_generator

    def _next_block(self) -> tuple[int, int]:
        words = self._bit_generator.random_raw(_WORDS)
        return int.from_bytes(words.astype(">u8").tobytes(), "big"), 64 * _WORDS

    def describe(self) -> str:
        name = type(self._bit_generator).__name__
        return f"numpy ({name}; fast, reproducible, NOT secret: simulation only)"
