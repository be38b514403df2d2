"""Build a random source from user options (``--seed`` / ``--entropy``).

>>> make_source().kind
'os-csprng'
>>> make_source(seed="table 4", purpose="deal", index=2).describe()
'seeded (croupier-seeded/1, purpose "deal", index 2; reproducible; only as secret as the seed)'
>>> make_source(entropy="coins:HTTH").kind
'entropy'
"""

from __future__ import annotations

from croupier.errors import CroupierError
from croupier.randomness.entropy import EntropySource
from croupier.randomness.seeded import SeededSource
from croupier.randomness.source import OsRandomSource, RandomSource

__all__ = ["make_source"]


def make_source(
    seed: str | None = None,
    entropy: str | None = None,
    *,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """The source the options ask for: OS CSPRNG, seeded stream, or user entropy.

    ``seed`` is text (or ``hex:...``) for a reproducible :class:`SeededSource`
    with this ``purpose`` and ``index``; ``entropy`` a spec such as
    ``dice:3,6,1,...`` for a finite :class:`EntropySource`; with neither, the
    OS CSPRNG.  Giving both is an error.

    >>> make_source(seed="x", entropy="dice:1")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: give either a seed or an entropy spec, not both ...
    """
    if seed is not None and entropy is not None:
        raise CroupierError(
            f"give either a seed or an entropy spec, not both (seed {seed!r}, entropy {entropy!r})"
        )
    if seed is not None:
        return SeededSource(seed, purpose, index)
    if entropy is not None:
        return EntropySource.parse(entropy)
    return OsRandomSource()
