"""The croupier exception hierarchy.

Every error croupier raises on bad input is a :class:`CroupierError`, which
subclasses :class:`ValueError`, so callers can catch either.  Messages are one
line, quote the offending input and say what would be valid.

>>> try:
...     raise CardNotationError("bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'")
... except ValueError as exc:
...     print(exc)
bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'
"""

from __future__ import annotations

__all__ = [
    "CardNotationError",
    "CroupierError",
    "DealNotationError",
    "DeckError",
    "EntropyExhaustedError",
    "FileFormatError",
    "LayoutError",
    "RangeError",
    "RankingError",
    "SeedError",
    "ShuffleSpecError",
    "VerificationError",
]


class CroupierError(ValueError):
    """Base class of every error croupier raises on bad input."""


class CardNotationError(CroupierError):
    """A card or list of cards could not be parsed."""


class DeckError(CroupierError):
    """An unknown deck preset or an impossible deck."""


class RangeError(CroupierError):
    """An index or range lies outside what is allowed (says which bound is wrong)."""


class ShuffleSpecError(CroupierError):
    """A shuffle spec such as ``cut:3,riffle`` is malformed."""


class SeedError(CroupierError):
    """A seed is malformed or too short for the space it must cover."""


class EntropyExhaustedError(CroupierError):
    """User-supplied entropy ran out; the message says how much more is needed."""


class LayoutError(CroupierError):
    """An impossible dealing layout (too many cards, no players, ...)."""


class DealNotationError(CroupierError):
    """A deal string (PBN, hands separated by ``/``) is malformed."""


class RankingError(CroupierError):
    """A deal or permutation number is out of range or the scheme is unknown."""


class FileFormatError(CroupierError):
    """A file (PBN, .sqd, .sqk, ...) is malformed; the message names file and line."""


class VerificationError(CroupierError):
    """A verification (key hash, regenerated deal) failed."""
