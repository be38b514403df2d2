"""Randomness: sources that hand out counted bits, the keyed stream of bulk dealing, exact choices.

>>> from croupier.randomness import OsRandomSource, UniformSampler
>>> sampler = UniformSampler(OsRandomSource())
>>> sampler.below(6) in range(6)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.errors import EntropyExhaustedError
from croupier.lazy_names import LazyNames

# Imported at once: the function would otherwise be hidden by its module of the same name
# once anything imports that module.
from croupier.randomness.seed_strength import SeedStrength, seed_strength

if TYPE_CHECKING:
    from croupier.randomness.bulk_stream import BulkStream
    from croupier.randomness.chacha import ChaChaSource
    from croupier.randomness.entropy import EntropySource, EntropySpecError
    from croupier.randomness.numpy_source import NumpySource
    from croupier.randomness.options import (
        make_source,
        resolve_source,
        seed_warning,
        source_note,
        stream_key,
    )
    from croupier.randomness.seeded import (
        SEEDED_STREAM_ID,
        Seed,
        SeededSource,
        parse_seed,
        seed_value,
    )
    from croupier.randomness.source import (
        BitSource,
        BufferedBitSource,
        OsRandomSource,
        RandomSource,
        SourceKind,
    )
    from croupier.randomness.uniform import UNIFORM_ALGORITHM_ID, Chooser, UniformSampler
    from croupier.randomness.walk import (
        ReplayBitSource,
        ScriptedChooser,
        exact_distribution,
        exact_distribution_bits,
        exact_distribution_truncated,
    )

# Each name is imported from its module on first use: croupier dealer's run needs the
# keyed stream of bulk dealing and the seeded source, not every source.
_HOMES = {
    "BulkStream": "bulk_stream",
    "ChaChaSource": "chacha",
    "EntropySource": "entropy",
    "EntropySpecError": "entropy",
    "NumpySource": "numpy_source",
    "make_source": "options",
    "resolve_source": "options",
    "seed_warning": "options",
    "source_note": "options",
    "stream_key": "options",
    "SEEDED_STREAM_ID": "seeded",
    "Seed": "seeded",
    "SeededSource": "seeded",
    "parse_seed": "seeded",
    "seed_value": "seeded",
    "BitSource": "source",
    "BufferedBitSource": "source",
    "OsRandomSource": "source",
    "RandomSource": "source",
    "SourceKind": "source",
    "UNIFORM_ALGORITHM_ID": "uniform",
    "Chooser": "uniform",
    "UniformSampler": "uniform",
    "ReplayBitSource": "walk",
    "ScriptedChooser": "walk",
    "exact_distribution": "walk",
    "exact_distribution_bits": "walk",
    "exact_distribution_truncated": "walk",
}


_LAZY = LazyNames(globals(), _HOMES)


def __getattr__(name: str) -> Any:
    return _LAZY.get(name)


def __dir__() -> list[str]:
    return _LAZY.listing()


__all__ = [
    "SEEDED_STREAM_ID",
    "UNIFORM_ALGORITHM_ID",
    "BitSource",
    "BufferedBitSource",
    "BulkStream",
    "ChaChaSource",
    "Chooser",
    "EntropyExhaustedError",
    "EntropySource",
    "EntropySpecError",
    "NumpySource",
    "OsRandomSource",
    "RandomSource",
    "ReplayBitSource",
    "ScriptedChooser",
    "Seed",
    "SeedStrength",
    "SeededSource",
    "SourceKind",
    "UniformSampler",
    "exact_distribution",
    "exact_distribution_bits",
    "exact_distribution_truncated",
    "make_source",
    "parse_seed",
    "resolve_source",
    "seed_strength",
    "seed_value",
    "seed_warning",
    "source_note",
    "stream_key",
]
