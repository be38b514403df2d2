"""The one door of randomness: ``seed=``, ``entropy=`` and ``source=`` (``--seed``,
``--entropy``) made a random source, and how it is described.

>>> resolve_source().kind
<SourceKind.OS_CSPRNG: 'os-csprng'>
>>> resolve_source(seed="table 4", purpose="deal", index=2).describe()
'seeded (croupier-seeded/1, purpose "deal", index 2; reproducible; only as secret as the seed)'
>>> resolve_source(entropy="coins:HTTH").kind
<SourceKind.ENTROPY: 'entropy'>
"""

from __future__ import annotations

import math

from croupier.errors import CroupierError
from croupier.randomness.entropy import EntropySource, EntropySpecError
from croupier.randomness.seed_strength import seed_strength
from croupier.randomness.seeded import Seed, SeededSource, seed_value
from croupier.randomness.source import BitSource, OsRandomSource, RandomSource, SourceKind

__all__ = ["make_source", "resolve_source", "seed_warning", "source_note", "stream_key"]


def resolve_source(
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    *,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """The one door of randomness: ``seed=``, ``entropy=`` and ``source=`` made a source.

    Every public entry point that draws (``deal``, ``deals``, ``deal_array``,
    ``deal_where``, ``shuffle``, ``permutation``, ``sample``, ``Deck``,
    ``poker.equity``, ``scale.shuffle``) takes these three and passes them here,
    so they mean the same and fail the same everywhere:

    * ``source``: a :class:`RandomSource` (``croupier.source(...)``), used as it is;
    * ``seed``: text, ``hex:...`` digits, bytes or a whole number (its decimal
      text): the reproducible ``croupier-seeded/1`` stream of ``purpose`` (a
      :class:`~croupier.randomness.purposes.Purpose`) and ``index``;
    * ``entropy``: your own randomness (``dice:3,6,1,...``, ``coins:HTTH``,
      ``hex:9f...``), finite: a draw past its end is refused;
    * none of them: the OS CSPRNG.

    At most one may be given.  The errors are one line and never quote a seed or
    an entropy spec (either may be a secret):

    >>> by_number, by_text = resolve_source(seed=42), resolve_source(seed="42")
    >>> by_number.bits(64) == by_text.bits(64)
    True
    >>> resolve_source(seed=4.2)
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: seed= must be text, bytes or a whole number, not float
    >>> resolve_source(seed="x", source=OsRandomSource())
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: give either source= or seed=/entropy=, not both (seed=)
    >>> resolve_source(source="os")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: source= is a random source (croupier.source(...)), not str
    """
    if source is not None:
        if seed is not None or entropy is not None:  # not quoted: either may be secret
            given_too = "seed=" if seed is not None else "entropy="
            raise CroupierError(f"give either source= or seed=/entropy=, not both ({given_too})")
        if not isinstance(source, RandomSource):
            raise CroupierError(
                f"source= is a random source (croupier.source(...)), not {type(source).__name__}"
            )
        return source
    if entropy is not None and not isinstance(entropy, str):
        raise EntropySpecError(
            "entropy= is text such as 'dice:3,6,1,...', 'coins:HTTH' or 'hex:9f...', "
            f"not {type(entropy).__name__}"
        )
    chosen = seed_value(seed)
    if chosen is not None and entropy is not None:  # neither is quoted: both may be secret
        raise CroupierError("give either a seed or an entropy spec, not both")
    if chosen is not None:
        return SeededSource(chosen, purpose, index)
    if entropy is not None:
        return EntropySource.parse(entropy)
    return OsRandomSource()


def stream_key(source: RandomSource, nbytes: int = 32) -> bytes:
    """A stream key: the next ``8 * nbytes`` uniform bits of ``source``, big-endian.

    A bit source hands them out as they come (:meth:`BitSource.bits`); any other
    source (your entropy) by one exactly uniform draw below ``2**(8 * nbytes)``.

    >>> key = stream_key(resolve_source(seed="k"), 4)
    >>> key == resolve_source(seed="k").bits(32).to_bytes(4, "big")
    True
    """
    if isinstance(source, BitSource):
        value = source.bits(8 * nbytes)
    else:
        from croupier.randomness.uniform import UniformSampler

        value = UniformSampler(source).below(1 << (8 * nbytes))
    return value.to_bytes(nbytes, "big")


def make_source(
    seed: Seed | None = None,
    entropy: str | None = None,
    *,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """The source the options ask for: :func:`resolve_source` without ``source=``
    (its former name, kept for the programs that call it).

    >>> make_source(seed="x", entropy="dice:1")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: give either a seed or an entropy spec, not both
    """
    return resolve_source(seed, entropy, purpose=purpose, index=index)


def source_note(source: RandomSource) -> str:
    """Where the randomness came from, worded for a note on stderr.

    >>> source_note(resolve_source())
    'from the OS CSPRNG (not reproducible)'
    >>> source_note(resolve_source(seed="x"))
    'from the seed: reproducible, and only as secret as the seed'
    >>> source_note(resolve_source(entropy="coins:HT"))
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

    >>> seed_warning(resolve_source(seed="42"), 225.58, "52! ~ 2^225.6 orders")
    'the seed has at most 16 bits, so it can reach at most 2^16 of the 52! ~ 2^225.6 orders, \
and looks guessable in about 2^7 tries (digits only): reproducible, but only as secret as the seed'
    >>> print(seed_warning(resolve_source(seed="a" * 24), 95.4, "~2^95.4 deals of bridge"))
    the seed looks guessable in about 2^10 tries (repetition), far fewer than the ~2^95.4 deals \
of bridge: reproducible, but only as secret as the seed (random bytes are safe: 'hex:' and 24 \
random hex digits or more)
    >>> strong = resolve_source(seed="hex:" + "8f3b61c2d9e04a75" * 2 + "13ce2f90")
    >>> seed_warning(strong, 95.4, "deals")
    >>> seed_warning(resolve_source(), 225.58, "orders") is None
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
