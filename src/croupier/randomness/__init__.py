"""Randomness: sources that hand out counted bits, and exact uniform choices.

>>> sampler = UniformSampler(OsRandomSource())
>>> sampler.below(6) in range(6)
True
"""

from croupier.randomness.source import BitSource, OsRandomSource, RandomSource
from croupier.randomness.uniform import Chooser, UniformSampler
from croupier.randomness.walk import ScriptedChooser, exact_distribution

__all__ = [
    "BitSource",
    "Chooser",
    "OsRandomSource",
    "RandomSource",
    "ScriptedChooser",
    "UniformSampler",
    "exact_distribution",
]
