"""Build a random source from user options (``--seed`` / ``--entropy``).

>>> make_source().kind
<SourceKind.OS_CSPRNG: 'os-csprng'>
>>> make_source(seed="table 4", purpose="deal", index=2).describe()
'seeded (croupier-seeded/1, purpose "deal", index 2; reproducible; only as secret as the seed)'
>>> make_source(entropy="coins:HTTH").kind
<SourceKind.ENTROPY: 'entropy'>
"""

from __future__ import annotations

import math

from croupier.errors import CroupierError
from croupier.randomness.entropy import EntropySource
from croupier.randomness.seed_strength import seed_strength
from croupier.randomness.seeded import Seed, SeededSource
from croupier.randomness.source import OsRandomSource, RandomSource, SourceKind

__all__ = ["make_source", "seed_warning", "source_note"]


def make_source(
    seed: Seed | None = None,
    entropy: str | None = None,
    *,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """The source the options ask for: OS CSPRNG, seeded stream, or user entropy.

    ``seed`` is text (or ``hex:...``), a whole number (its decimal text) or bytes for a
    reproducible :class:`SeededSource`
    with this ``purpose`` and ``index``; ``entropy`` a spec such as
    ``dice:3,6,1,...`` for a finite :class:`EntropySource`; with neither, the
    OS CSPRNG.  Giving both is an error.

    >>> make_source(seed="x", entropy="dice:1")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: give either a seed or an entropy spec, not both
    """
    if seed is not None and entropy is not None:  # neither is quoted: both may be secret
        raise CroupierError("give either a seed or an entropy spec, not both")
    if seed is not None:
        return SeededSource(seed, purpose, index)
    if entropy is not None:
        return EntropySource.parse(entropy)
    return OsRandomSource()


def source_note(source: RandomSource) -> str:
    """Where the randomness came from, worded for a note on stderr.

    >>> source_note(make_source())
    'from the OS CSPRNG (not reproducible)'
    >>> source_note(make_source(seed="x"))
    'from the seed: reproducible, and only as secret as the seed'
    >>> source_note(make_source(entropy="coins:HT"))
    'from your entropy: only as secret as your coin flips'
    """
    if source.kind == SourceKind.OS_CSPRNG:
        return "from the OS CSPRNG (not reproducible)"
    if source.kind == SourceKind.SEEDED:
        return "from the seed: reproducible, and only as secret as the seed"
    if isinstance(source, EntropySource):
        return f"from your entropy: only as secret as your {source.unit}s"
    return f"from {source.describe()}"


def seed_warning(source: RandomSource, log2_outcomes: float, outcomes: str) -> str | None:
    """A warning when a seed is too short or too guessable for the outcomes, else ``None``.

    ``log2_outcomes`` is log2 of the number of outcomes and ``outcomes``
    names them (``"52! ~ 2^225.6 orders"``).  A seed of ``b`` bytes reaches
    at most ``2**(8*b)`` outcomes; a seed whose estimated strength
    (:func:`~croupier.randomness.seed_strength.seed_strength`: repetition,
    digits only, sequences, common words, ...) is below ``log2_outcomes``
    is labelled too, even when it is long.

    >>> seed_warning(make_source(seed="42"), 225.58, "52! ~ 2^225.6 orders")
    'the seed has at most 16 bits, so it can reach at most 2^16 of the 52! ~ 2^225.6 orders, \
and looks guessable in about 2^7 tries (digits only): reproducible, but only as secret as the seed'
    >>> print(seed_warning(make_source(seed="a" * 24), 95.4, "~2^95.4 deals of bridge"))
    the seed looks guessable in about 2^10 tries (repetition), far fewer than the ~2^95.4 deals \
of bridge: reproducible, but only as secret as the seed (random bytes are safe: 'hex:' and 24 \
random hex digits or more)
    >>> seed_warning(make_source(seed="hex:" + "8f3b61c2d9e04a75" * 2 + "13ce2f90"), 95.4, "deals")
    >>> seed_warning(make_source(), 225.58, "orders") is None
    True
    """
    if not isinstance(source, SeededSource):
        return None
    strength = seed_strength(source.seed)
    guessable = f"guessable in about 2^{strength.bits:.0f} tries ({strength.reason})"
    if source.seed_bits < log2_outcomes:
        also = f", and looks {guessable}" if strength.bits < strength.max_bits else ""
        return (
            f"the seed has at most {source.seed_bits} bits, so it can reach at most "
            f"2^{source.seed_bits} of the {outcomes}{also}: "
            "reproducible, but only as secret as the seed"
        )
    if strength.bits < log2_outcomes:
        hex_digits = 2 * math.ceil(log2_outcomes / 8)
        return (
            f"the seed looks {guessable}, far fewer than the {outcomes}: reproducible, "
            f"but only as secret as the seed (random bytes are safe: 'hex:' and {hex_digits} "
            "random hex digits or more)"
        )
    return None
