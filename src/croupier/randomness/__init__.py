"""Randomness: sources that hand out counted bits, and exact uniform choices.

>>> sampler = UniformSampler(OsRandomSource())
>>> sampler.below(6) in range(6)
True
"""

from croupier.randomness.source import BitSource, OsRandomSource, RandomSource
from croupier.randomness.uniform import UniformSampler

__all__ = ["BitSource", "OsRandomSource", "RandomSource", "UniformSampler"]
