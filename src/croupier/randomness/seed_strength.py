"""How guessable is a seed?  A conservative estimate in bits.

A seed of ``b`` bytes has at most ``8 * b`` bits, but people choose seeds
that are far easier to guess: ``"aaaaaaaaaaaaaaaaaaaaaaaa"``, ``hex:0000...``,
``"1234567890123"``, ``"club night 7"``.  :func:`seed_strength` estimates the
number of guesses an attacker who tries likely seeds first would need, as
``log2`` of that number, by the cheapest way to describe the seed with these
pieces (each costing the bits given):

* any character: ``log2`` of the alphabet the whole seed draws from (the
  sum of the sizes of the character classes it uses: 10 digits, 26
  lower-case, 26 upper-case, 33 ASCII punctuation and space, 256 other;
  16 for a seed of hex digits; at most 256);
* a run of 3 or more characters of one class: 3 bits, plus ``log2`` of the
  class size per character (a run of digits costs ``log2(10)`` = 3.32 bits
  per digit);
* a sequence of 3 or more characters stepping by +1 or -1 (``abcd``,
  ``9876``): its first character, 1 bit for the direction, ``log2`` of its length;
  (a seed that is not UTF-8 text is read as bytes: one class of 256, no
  words, sequences of 4 or more);
* a copy of 3 or more characters of earlier text (repetition, periodicity):
  1 bit, ``log2`` of how far back, ``log2`` of its length (``aaaa...`` is
  one character then one copy);
* a common word or keyboard pattern from a small built-in list
  (:data:`COMMON_WORDS`): ``log2`` of the list's length, plus 1 bit when
  capitalised or in capitals (more for mixed case).

The estimate is the smallest total, and never more than ``8`` bits per
byte.  Seeds longer than 256 characters are estimated on their first 256
characters, and the rest counts at most its ``zlib``-compressed size.  It is
a lower-bound style guess (like password-strength meters), not a proof: a
seed that scores high can still be guessable by someone who knows how it was
made.  Random bytes (``hex:`` and 32 bytes from a CSPRNG) are the safe choice.

>>> seed_strength(b"a" * 24).bits < 12
True
>>> round(seed_strength(b"1234567890123").bits, 1), seed_strength(b"1234567890123").reason
(13.8, 'a sequence such as 1234 or abcd')
>>> seed_strength(bytes(32)).reason
'repetition'
>>> strong = bytes.fromhex("8f3b61c2d9e04a7513ce2f90b6d87a41" * 2)[:16] + b"\\x17\\x9e\\xa0\\x5c"
>>> seed_strength(strong).bits == 8 * len(strong)
True
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

__all__ = ["COMMON_WORDS", "SeedStrength", "seed_strength"]

COMMON_WORDS = frozenset(
    (
        "password",
        "passwd",
        "secret",
        "letmein",
        "welcome",
        "admin",
        "login",
        "master",
        "qwerty",
        "qwertz",
        "azerty",
        "asdf",
        "asdfgh",
        "zxcv",
        "zxcvbn",
        "qazwsx",
        "abc",
        "abcd",
        "test",
        "testing",
        "hello",
        "dragon",
        "monkey",
        "shadow",
        "sunshine",
        "princess",
        "football",
        "baseball",
        "soccer",
        "iloveyou",
        "trustno",
        "love",
        "lucky",
        "seven",
        "magic",
        "seed",
        "random",
        "shuffle",
        "deal",
        "deals",
        "dealer",
        "deck",
        "card",
        "cards",
        "game",
        "games",
        "play",
        "player",
        "players",
        "bridge",
        "poker",
        "holdem",
        "blackjack",
        "skat",
        "euchre",
        "hearts",
        "spades",
        "diamonds",
        "clubs",
        "club",
        "suit",
        "ace",
        "king",
        "queen",
        "jack",
        "joker",
        "table",
        "tables",
        "night",
        "day",
        "week",
        "month",
        "year",
        "round",
        "rounds",
        "board",
        "boards",
        "session",
        "sessions",
        "event",
        "events",
        "tournament",
        "cup",
        "league",
        "team",
        "teams",
        "match",
        "final",
        "pairs",
        "swiss",
        "open",
        "championship",
        "demo",
        "example",
        "sample",
        "default",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "first",
        "second",
        "third",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "spring",
        "summer",
        "autumn",
        "winter",
        "red",
        "blue",
        "green",
        "black",
        "white",
        "gold",
        "silver",
        "the",
        "and",
        "for",
        "with",
        "from",
        "this",
        "that",
        "long",
        "enough",
        "phrase",
        "my",
        "our",
        "your",
        "new",
        "old",
        "big",
        "small",
        "croupier",
        "casino",
        "bigdeal",
        "squaredeal",
    )
)
"""Common words and keyboard patterns (lower case); each costs ``log2(len(COMMON_WORDS))`` bits."""

_WORD_BITS = math.log2(len(COMMON_WORDS))
_LONGEST_WORD = max(map(len, COMMON_WORDS))
_ANALYSED = 256  # characters analysed piece by piece; the rest counts its compressed size
_CLASS_SIZES = {"digit": 10, "lower": 26, "upper": 26, "symbol": 33, "other": 256}
_HEX_LOWER = frozenset("0123456789abcdef")
_HEX_UPPER = frozenset("0123456789ABCDEF")
_ONLY = {
    "digit": "digits only",
    "lower": "lower-case letters only",
    "upper": "capital letters only",
    "symbol": "punctuation only",
}
_REASONS = {
    "sequence": "a sequence such as 1234 or abcd",
    "repeat": "repetition",
    "word": "common words",
}


@dataclass(frozen=True)
class SeedStrength:
    """The estimate: ``bits`` (at most ``max_bits``, 8 per byte) and what limits it.

    >>> s = seed_strength(b"42")
    >>> s.max_bits, round(s.bits, 2), s.reason
    (16, 6.64, 'digits only')
    """

    bits: float
    max_bits: int
    reason: str


def _char_class(ch: str) -> str:
    if "0" <= ch <= "9":
        return "digit"
    if "a" <= ch <= "z":
        return "lower"
    if "A" <= ch <= "Z":
        return "upper"
    if " " <= ch <= "~":
        return "symbol"
    return "other"


def _case_bits(piece: str) -> float:
    if piece.islower():
        return 0.0
    if piece.isupper() or (piece[0].isupper() and piece[1:].islower()):
        return 1.0
    return float(len(piece))


def _cheapest_description(chars: str, *, binary: bool = False) -> tuple[float, str]:
    """The smallest cost over all ways to cut ``chars`` into pieces, and the main kind of piece.

    ``binary`` (bytes that are not UTF-8 text, one character per byte): every
    byte is one class of 256, there are no words, and sequences need 4 bytes.
    """
    n = len(chars)
    classes = ["other"] * n if binary else [_char_class(ch) for ch in chars]
    shortest_sequence = 4 if binary else 3
    alphabet = min(256, sum(_CLASS_SIZES[c] for c in set(classes)))
    hex_digits = len(set(classes)) > 1 and (set(chars) <= _HEX_LOWER or set(chars) <= _HEX_UPPER)
    if hex_digits:
        alphabet = 16
    any_char = math.log2(alphabet)
    lowered = chars.lower()
    best = [0.0] + [math.inf] * n
    came: list[tuple[int, str]] = [(0, "any")] * (n + 1)

    def relax(end: int, cost: float, start: int, kind: str) -> None:
        if cost < best[end] - 1e-12:
            best[end] = cost
            came[end] = (start, kind)

    # match[d][j]: how many characters from j on equal those d places earlier
    match = [[0] * (n + 1) for _ in range(n)] if n else []
    for d in range(1, n):
        row = match[d]
        for j in range(n - 1, d - 1, -1):
            if chars[j] == chars[j - d]:
                row[j] = row[j + 1] + 1
    for j in range(n):
        base = best[j]
        relax(j + 1, base + any_char, j, "any")
        kind = classes[j]
        per = math.log2(_CLASS_SIZES[kind])
        end = j
        while end < n and classes[end] == kind and not binary:
            end += 1
            if end - j >= 3:
                relax(end, base + 3 + (end - j) * per, j, kind)
        for step in (1, -1):
            end = j + 1
            while end < n and ord(chars[end]) - ord(chars[end - 1]) == step:
                end += 1
            for stop in range(j + shortest_sequence, end + 1):
                relax(stop, base + per + 1 + math.log2(stop - j), j, "sequence")
        for length in range(3, min(_LONGEST_WORD, n - j) + 1 if not binary else 0):
            if lowered[j : j + length] in COMMON_WORDS:
                cost = _WORD_BITS + _case_bits(chars[j : j + length])
                relax(j + length, base + cost, j, "word")
        longest = 2  # copies of 3 or more: random bytes repeat a pair now and then
        for d in range(1, j + 1):  # the nearest copy of each length is the cheapest
            length = match[d][j]
            if length > longest:
                for stop in range(j + longest + 1, j + length + 1):
                    relax(stop, base + 1 + math.log2(d) + math.log2(stop - j), j, "repeat")
                longest = length
    covered: dict[str, int] = {}
    end = n
    while end > 0:
        start, kind = came[end]
        covered[kind] = covered.get(kind, 0) + end - start
        end = start
    main = max(covered, key=lambda k: covered[k]) if covered else "any"
    if main in _REASONS:
        return best[n], _REASONS[main]
    if hex_digits:
        return best[n], "hex digits only"
    used = set(classes)
    only = _ONLY.get(used.pop(), "") if len(used) == 1 else ""
    return best[n], only or "its length and characters"


def seed_strength(seed: bytes) -> SeedStrength:
    """A conservative estimate of the seed's strength in bits (see the module docstring).

    >>> seed_strength(b"hello hello hello hello!").reason
    'repetition'
    >>> seed_strength(b"Password").bits < 10
    True
    """
    max_bits = 8 * len(seed)
    try:
        text, binary = seed.decode("utf-8"), False
    except UnicodeDecodeError:
        text, binary = seed.decode("latin-1"), True  # one character per byte
    head, rest = text[:_ANALYSED], text[_ANALYSED:]
    bits, reason = _cheapest_description(head, binary=binary)
    if rest:
        packed = zlib.compress(rest.encode("utf-8", "surrogatepass"), 9)
        bits += 8 * max(0, len(packed) - 8)  # less zlib's own header and checksum
    if bits >= max_bits:
        return SeedStrength(float(max_bits), max_bits, "length")
    return SeedStrength(bits, max_bits, reason)
