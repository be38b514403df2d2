"""Randomness: sources that hand out counted bits, and exact uniform choices.

>>> sampler = UniformSampler(OsRandomSource())
>>> sampler.below(6) in range(6)
True
"""

from croupier.errors import EntropyExhaustedError
from croupier.randomness.entropy import EntropySource, EntropySpecError
from croupier.randomness.numpy_source import NumpySource
from croupier.randomness.options import make_source, seed_warning, source_note
from croupier.randomness.seed_strength import SeedStrength, seed_strength
from croupier.randomness.seeded import SEEDED_STREAM_ID, SeededSource, parse_seed
from croupier.randomness.source import BitSource, BufferedBitSource, OsRandomSource, RandomSource
from croupier.randomness.uniform import UNIFORM_ALGORITHM_ID, Chooser, UniformSampler
from croupier.randomness.walk import (
    ReplayBitSource,
    ScriptedChooser,
    exact_distribution,
    exact_distribution_bits,
    exact_distribution_truncated,
)

__all__ = [
    "SEEDED_STREAM_ID",
    "UNIFORM_ALGORITHM_ID",
    "BitSource",
    "BufferedBitSource",
    "Chooser",
    "EntropyExhaustedError",
    "EntropySource",
    "EntropySpecError",
    "NumpySource",
    "OsRandomSource",
    "RandomSource",
    "ReplayBitSource",
    "ScriptedChooser",
    "SeedStrength",
    "SeededSource",
    "UniformSampler",
    "exact_distribution",
    "exact_distribution_bits",
    "exact_distribution_truncated",
    "make_source",
    "parse_seed",
    "seed_strength",
    "seed_warning",
    "source_note",
]
