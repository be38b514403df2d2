"""The croupier exception hierarchy.

Every error croupier raises on bad input is a :class:`CroupierError`, which
subclasses :class:`ValueError`, so callers can catch either.  Messages are one
line, quote the offending input and say what would be valid.

>>> try:
...     raise CardNotationError("bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'")
... except ValueError as exc:
...     print(exc)
bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'

Two helpers keep such messages safe on hostile input: :func:`excerpt` quotes
at most a short, escaped piece of the input (never a whole file), and
:func:`bounded_decimal` reads a number only when it is a short run of ASCII
digits (no ``int()`` on thousands of digits, no Unicode digits such as ``²``).
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
    "MissingExtraError",
    "NotEnoughCardsError",
    "RangeError",
    "RankingError",
    "SeedError",
    "ShuffleSpecError",
    "VerificationError",
    "bounded_decimal",
    "excerpt",
]


class CroupierError(ValueError):
    """Base class of every error croupier raises on bad input."""


class CardNotationError(CroupierError):
    """A card or list of cards could not be parsed."""


class DeckError(CroupierError):
    """An unknown deck preset or an impossible deck."""


class NotEnoughCardsError(DeckError):
    """A deck was asked for more cards than it holds.

    The message says how many cards were asked for and how many remain;
    ``asked`` and ``remaining`` hold the two numbers.

    >>> exc = NotEnoughCardsError("cannot draw 5 cards (n=5): only 3 remain", asked=5, remaining=3)
    >>> str(exc), exc.asked, exc.remaining, isinstance(exc, ValueError)
    ('cannot draw 5 cards (n=5): only 3 remain', 5, 3, True)
    """

    def __init__(self, message: str, asked: int = 0, remaining: int = 0) -> None:
        super().__init__(message)
        self.asked = asked
        self.remaining = remaining

    def __reduce__(self) -> tuple[type[NotEnoughCardsError], tuple[str, int, int]]:
        return (type(self), (str(self), self.asked, self.remaining))


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


class MissingExtraError(CroupierError):
    """An optional dependency is not installed; the message names the extra to install.

    >>> raise MissingExtraError("groups need sympy: pip install 'croupier[groups]'")
    Traceback (most recent call last):
    ...
    croupier.errors.MissingExtraError: groups need sympy: pip install 'croupier[groups]'
    """


class VerificationError(CroupierError):
    """A verification (key hash, regenerated deal) failed."""


def excerpt(text: str | bytes, limit: int = 40) -> str:
    """A short, escaped quotation of bad input for a one-line error message.

    At most ``limit`` characters (or bytes) of ``text``, written as Python's
    ``repr`` (so line ends, control characters and undecodable bytes show as
    escapes); longer input is cut and says how long it was.  Never pass key
    material: a message about a secret names its file and line only.

    >>> print(excerpt("9-5"), excerpt("a\\tb" * 20, limit=4), excerpt(bytes(99), limit=2))
    '9-5' 'a\\tba'... (60 characters) b'\\x00\\x00'... (99 bytes)
    """
    if len(text) <= limit:
        return repr(text)
    unit = "bytes" if isinstance(text, bytes) else "characters"
    return f"{text[:limit]!r}... ({len(text)} {unit})"


def bounded_decimal(text: str, max_digits: int) -> int | None:
    """The value of ``text`` when it is 1 to ``max_digits`` ASCII digits ``0-9``, else ``None``.

    No sign, no spaces, no Unicode digits (``str.isdigit`` accepts ``²`` and
    ``٣``; this does not), and the length is checked before converting, so
    a 5,000-digit "number" is refused at once instead of raising inside
    ``int()``.  Callers raise their own error, naming what was expected.

    >>> bounded_decimal("017", 3), bounded_decimal("1000", 3), bounded_decimal("²", 3)
    (17, None, None)
    >>> bounded_decimal("7" * 5000, 9) is None, bounded_decimal("", 9), bounded_decimal("-1", 9)
    (True, None, None)
    """
    if not 1 <= len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)
