"""The croupier exception hierarchy.

Every error croupier raises on bad input is a :class:`CroupierError`, which
subclasses :class:`ValueError`, so callers can catch either.  Messages are one
line, quote the offending input and say what would be valid.

>>> try:
...     raise CardNotationError("bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'")
... except ValueError as exc:
...     print(exc)
bad card 'XZ' at position 2; expected e.g. 'AS', '10h', 'T♥'

Four helpers keep such messages safe on hostile input: :func:`excerpt` quotes
at most a short, escaped piece of the input (never a whole file),
:func:`masked_excerpt` does the same but hides runs that may be key material
(for readers of files, which may be handed a key file by mistake),
:func:`bounded_decimal` reads a number only when it is a short run of ASCII
digits (no ``int()`` on thousands of digits, no Unicode digits such as ``²``),
and :func:`utf8_bytes` encodes text that is hashed or stored, refusing text
that has no UTF-8 encoding in one line that names the input and never quotes it.
"""

from __future__ import annotations

import re

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
    "masked_excerpt",
    "utf8_bytes",
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
        return repr(text[:limit])  # a slice is a plain str, also of a str enum (a Seat)
    unit = "bytes" if isinstance(text, bytes) else "characters"
    return f"{text[:limit]!r}... ({len(text)} {unit})"


# A run of the characters of hex, base64 (both alphabets) and SquareDeal keys.
_RUN = re.compile(r"[0-9A-Za-z+/=_-]+")
_RUN_BYTES = re.compile(rb"[0-9A-Za-z+/=_-]+")
_HEX = frozenset("0123456789ABCDEFabcdef")
#: :func:`masked_excerpt` hides a run of this many hex digits or more ...
MASKED_HEX_RUN = 8
#: ... and a run of this many letters, digits and ``+ / = _ -`` or more (a key of any alphabet).
MASKED_RUN = 20


def masked_excerpt(text: str | bytes, limit: int = 40) -> str:
    """As :func:`excerpt`, but hiding every run of input that may be key material.

    A run is a longest piece of letters, digits and ``+ / = _ -`` (the
    alphabets of hex, base64 and SquareDeal keys).  A run of at least
    :data:`MASKED_HEX_RUN` hex digits, or of at least :data:`MASKED_RUN`
    characters, is shown as ``<N characters hidden>``, so not one character
    of it is quoted; a run of decimal digits alone is a number, and is quoted.
    A run is judged whole even where the quotation cuts it.
    Readers of board files quote bad input with this: a key or ``.sqk`` file
    read as a board file by mistake must not end up on a terminal or in a log.

    >>> print(masked_excerpt("[Deal 'N:AK.Q..'"), masked_excerpt("key 0123456789abcdef x"))
    "[Deal 'N:AK.Q..'" 'key <16 characters hidden> x'
    >>> print(masked_excerpt("1,0:" + "Ab9" * 20, limit=10), masked_excerpt(b"x" * 30 + b"?"))
    '1,0:<60 characters hidden>'... (64 characters) b'<30 characters hidden>?'
    """
    head = text[:limit]
    shown = head.decode("latin-1") if isinstance(head, bytes) else head
    pieces: list[str] = []
    pos = 0
    for run in _RUN.finditer(shown):
        start, end = run.span()
        whole = run.group()
        if end == len(shown) and len(text) > len(shown):  # the run may go on past the cut
            if isinstance(text, bytes):
                more = _RUN_BYTES.match(text, end)
                whole += "" if more is None else more.group().decode("latin-1")
            else:
                found = _RUN.match(text, end)
                whole += "" if found is None else found.group()
        length = len(whole)
        if whole.isascii() and whole.isdigit():  # a number, however long, is not a key
            continue
        if length >= MASKED_RUN or (length >= MASKED_HEX_RUN and _HEX.issuperset(whole)):
            pieces += [shown[pos:start], f"<{length} characters hidden>"]
            pos = end
    pieces.append(shown[pos:])
    masked = "".join(pieces)
    quoted = repr(masked.encode("latin-1")) if isinstance(text, bytes) else repr(masked)
    if len(text) <= limit:
        return quoted
    unit = "bytes" if isinstance(text, bytes) else "characters"
    return f"{quoted}... ({len(text)} {unit})"


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


def utf8_bytes(
    text: str,
    what: str,
    *,
    escapes: bool = False,
    hint: str = "",
    error: type[CroupierError] = CroupierError,
) -> bytes:
    """``text`` encoded as UTF-8, or an ``error`` naming ``what`` and where the text breaks.

    A lone surrogate has no UTF-8 encoding; Python reads a command-line byte
    that is not UTF-8 as one (``0xFF`` becomes ``'\\udcff'``).  With
    ``escapes`` those surrogate escapes become their bytes again (formats
    that hash command-line bytes as they are, like Big Deal's); any other
    surrogate is still refused.  The message gives the character's position
    and never quotes the text, which may be secret; ``hint`` ends it (say
    what to do instead).

    >>> utf8_bytes("Club Cup", "event="), utf8_bytes("x\\udcff", "name=", escapes=True)
    (b'Club Cup', b'x\\xff')
    >>> utf8_bytes("Cup \\udcff", "event=")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: event= is not valid text: character 5 has no UTF-8 encoding \
(a lone surrogate, such as a command-line byte that is not UTF-8)
    """
    if not isinstance(text, str):
        raise error(f"{what} must be text, got {type(text).__name__}")
    try:
        return text.encode("utf-8", "surrogateescape" if escapes else "strict")
    except UnicodeEncodeError as exc:
        why = "a lone surrogate"
        if not escapes:
            why += ", such as a command-line byte that is not UTF-8"
        raise error(
            f"{what} is not valid text: character {exc.start + 1} has no UTF-8 encoding "
            f"({why}){hint}"
        ) from None
