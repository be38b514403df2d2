"""Hold'em hand ranges: ``QQ+, AKs, T9s-65s, AsKh`` and friends.

A range is a set of two-card combinations (*combos*), written as
comma-separated tokens (spaces around them are ignored):

=============  ==============================================  ======
token          means                                           combos
=============  ==============================================  ======
``QQ``         a pair                                          6
``QQ+``        that pair and every higher one (QQ, KK, AA)     18
``22-55``      the pairs from one to the other                 24
``AKs``        suited (both cards of one suit)                 4
``AKo``        offsuit                                         12
``AK``         suited or offsuit                               16
``A2s+``       the kicker up to one below the top card:        48
               A2s, A3s … AKs
``A5s-A2s``    the top card fixed, the kicker runs             16
``T9s-65s``    both cards step down together (same gap)        20
``AsKh``       one explicit combo (any card notation)          1
``random``     every combo (also ``any``)                      1326
=============  ==============================================  ======

Ranks are ``A K Q J T 9 … 2`` (upper or lower case).  :func:`parse_range`
reads a range; :func:`format_range` writes one in the shortest of these
forms, and ``parse_range(format_range(r)) == r``.

>>> r = parse_range("QQ+, AKs, T9s-98s")
>>> len(r), str(r)
(30, 'QQ+, AKs, T9s, 98s')
>>> str(parse_range("AK, AKo, KK, AA, 22-33"))
'KK+, 33-22, AK'
>>> parse_range("QQ, AKx")
Traceback (most recent call last):
...
croupier.poker.ranges.RangeNotationError: bad range token 'AKx' in 'QQ, AKx'; expected e.g. \
'QQ', 'QQ+', '22-55', 'AKs', 'AKo', 'AK', 'A2s+', 'T9s-65s', 'AsKh' or 'random'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from croupier.cards import parse_cards
from croupier.errors import CardNotationError, excerpt
from croupier.poker.evaluate import card_number
from croupier.poker.tables import card_rank, card_suit
from croupier.poker.values import PokerError

__all__ = [
    "ALL_COMBOS",
    "Combo",
    "HandRange",
    "RangeNotationError",
    "combo_text",
    "format_range",
    "parse_range",
]

Combo = tuple[int, int]
"""Two card numbers (:func:`~croupier.poker.evaluate.card_number`), the higher rank first
(equal ranks: spades, hearts, diamonds, clubs)."""


class RangeNotationError(PokerError):
    """A hand range could not be parsed; the message quotes the bad token."""


_LETTERS = "23456789TJQKA"
_EXAMPLES = "'QQ', 'QQ+', '22-55', 'AKs', 'AKo', 'AK', 'A2s+', 'T9s-65s', 'AsKh' or 'random'"
_CLASS = re.compile(r"([2-9TJQKA])([2-9TJQKA])([SO]?)(\+?)")
_RUN = re.compile(r"([2-9TJQKA])([2-9TJQKA])([SO]?)-([2-9TJQKA])([2-9TJQKA])([SO]?)")


def _order(number: int) -> tuple[int, int]:
    return (-card_rank(number), card_suit(number))


def _combo(a: int, b: int) -> Combo:
    return (a, b) if _order(a) <= _order(b) else (b, a)


ALL_COMBOS: tuple[Combo, ...] = tuple(
    sorted(
        (_combo(a, b) for a, b in itertools.combinations(range(52), 2)),
        key=lambda c: (_order(c[0]), _order(c[1])),
    )
)
"""Every two-card combo (1,326), in the order ranges list them (aces first)."""


def combo_text(combo: Combo) -> str:
    """A combo as text, the higher card first: ``AsKh``.

    >>> combo_text((13, 1))
    'AhKs'
    """
    from croupier.poker.evaluate import number_card

    cards = [number_card(n) for n in combo]
    return "".join(
        c.rank.letter + (c.suit.letter.lower() if c.suit is not None else "") for c in cards
    )


def _class_combos(high: int, low: int, kind: str) -> list[Combo]:
    """The combos of a class: ranks as indices (0 = deuce), kind ``p``, ``s``, ``o`` or ``""``."""
    out = []
    for s in range(4):
        for t in range(4):
            a, b = 13 * s + 12 - high, 13 * t + 12 - low
            if a == b or (high == low and s >= t):
                continue
            suited = s == t
            if (kind == "s" and not suited) or (kind == "o" and suited):
                continue
            out.append(_combo(a, b))
    return out


def _token_combos(token: str, text: str) -> list[Combo]:
    upper = token.upper()
    if upper in ("RANDOM", "ANY"):
        return list(ALL_COMBOS)
    bad = RangeNotationError(
        f"bad range token {excerpt(token)} in {excerpt(text)}; expected e.g. {_EXAMPLES}"
    )
    match = _CLASS.fullmatch(upper)
    if match:
        high, low = _LETTERS.index(match[1]), _LETTERS.index(match[2])
        kind, plus = match[3].lower(), match[4] == "+"
        if high < low:
            high, low = low, high
        if high == low:
            if kind:
                raise bad
            last = 13 if plus else high + 1
            return [c for r in range(high, last) for c in _class_combos(r, r, "")]
        lows = range(low, high) if plus else range(low, low + 1)
        return [c for r in lows for c in _class_combos(high, r, kind)]
    match = _RUN.fullmatch(upper)
    if match:
        h1, l1, k1, h2, l2, k2 = match.groups()
        if k1 != k2:
            raise bad
        a, b = (_LETTERS.index(h1), _LETTERS.index(l1)), (_LETTERS.index(h2), _LETTERS.index(l2))
        a, b = (max(a), min(a)), (max(b), min(b))
        kind = k1.lower()
        if a[0] == a[1] and b[0] == b[1] and not kind:  # pairs: 22-55
            lo, hi = sorted((a[0], b[0]))
            return [c for r in range(lo, hi + 1) for c in _class_combos(r, r, "")]
        if a[0] == a[1] or b[0] == b[1]:
            raise bad
        if a[0] == b[0]:  # the top card fixed: A5s-A2s
            lo, hi = sorted((a[1], b[1]))
            return [c for r in range(lo, hi + 1) for c in _class_combos(a[0], r, kind)]
        if a[0] - a[1] == b[0] - b[1]:  # both step together: T9s-65s
            gap = a[0] - a[1]
            lo, hi = sorted((a[0], b[0]))
            return [c for r in range(lo, hi + 1) for c in _class_combos(r, r - gap, kind)]
        raise bad
    try:
        cards = parse_cards(token)
    except CardNotationError:
        raise bad from None
    if len(cards) != 2 or any(c.suit is None for c in cards):
        raise bad
    first, second = card_number(cards[0]), card_number(cards[1])
    if first == second:
        raise RangeNotationError(f"combo {excerpt(token)} in {excerpt(text)} repeats a card")
    return [_combo(first, second)]


@dataclass(frozen=True)
class HandRange:
    """A set of two-card combos, in :data:`ALL_COMBOS` order.

    >>> r = HandRange.parse("AKs")
    >>> len(r), [combo_text(c) for c in r][:2], "AsKs" in r
    (4, ['AsKs', 'AhKh'], True)
    """

    combos: tuple[Combo, ...]

    @classmethod
    def parse(cls, text: str) -> HandRange:
        """Parse range notation (see the module); the same as :func:`parse_range`."""
        return parse_range(text)

    @classmethod
    def of(cls, combos: Iterable[Combo]) -> HandRange:
        """The range of some combos (any order; repeats count once)."""
        wanted = {_combo(*c) for c in combos}
        return cls(tuple(c for c in ALL_COMBOS if c in wanted))

    def __len__(self) -> int:
        return len(self.combos)

    def __iter__(self) -> Iterator[Combo]:
        return iter(self.combos)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            try:
                return set(parse_range(item).combos) <= set(self.combos)
            except PokerError:
                return False
        return item in self.combos

    def __str__(self) -> str:
        return format_range(self.combos)


def parse_range(text: str) -> HandRange:
    """Parse a hand range such as ``"QQ+, AKs, T9s-65s"`` (see the module for the tokens).

    >>> len(parse_range("random")), len(parse_range("22+")), len(parse_range("A2s+, K9o+"))
    (1326, 78, 96)
    >>> parse_range(" , ")
    Traceback (most recent call last):
    ...
    croupier.poker.ranges.RangeNotationError: range ' , ' has no tokens; expected e.g. 'QQ', ...
    """
    if not isinstance(text, str):
        raise RangeNotationError(f"expected range text, got {type(text).__name__}")
    tokens = [t.strip() for t in text.split(",")]
    if not any(tokens):
        raise RangeNotationError(f"range {excerpt(text)} has no tokens; expected e.g. {_EXAMPLES}")
    combos: set[Combo] = set()
    for token in tokens:
        if not token:
            continue
        combos.update(_token_combos(token, text))
    return HandRange.of(combos)


def _runs(values: Iterable[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive ints as ``(high, low)``, highest first."""
    ordered = sorted(set(values), reverse=True)
    runs: list[tuple[int, int]] = []
    for v in ordered:
        if runs and runs[-1][1] == v + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def format_range(combos: Iterable[Combo]) -> str:
    """Range notation for a set of combos: whole classes as ``QQ+``, ``A2s+``, ``A5s-A2s``,
    ``AK``; what is left as single combos.  ``parse_range`` reads it back to the same set.

    >>> format_range(parse_range("AA, KK, QQ, 77, A2s+, AKo, KhQh, 76s-54s"))
    'QQ+, 77, AK, AQs-A2s, 76s, 65s, 54s, KhQh'
    """
    have = {_combo(*c) for c in combos}
    if len(have) == len(ALL_COMBOS):
        return "random"
    parts: list[str] = []
    used: set[Combo] = set()

    def full(high: int, low: int, kind: str) -> bool:
        members = _class_combos(high, low, kind)
        return all(c in have for c in members)

    pairs = [r for r in range(13) if full(r, r, "")]
    for high, low in _runs(pairs):
        upper, lower = _LETTERS[high], _LETTERS[low]
        if high == 12 and high != low:
            parts.append(f"{lower}{lower}+")
        elif high == low:
            parts.append(f"{upper}{upper}")
        else:
            parts.append(f"{upper}{upper}-{lower}{lower}")
    for r in pairs:
        used.update(_class_combos(r, r, ""))
    for high in range(12, 0, -1):
        suited = {lo for lo in range(high) if full(high, lo, "s")}
        offsuit = {lo for lo in range(high) if full(high, lo, "o")}
        both = suited & offsuit
        for kind, lows in (("", both), ("s", suited - both), ("o", offsuit - both)):
            h = _LETTERS[high]
            for top, bottom in _runs(lows):
                if top == high - 1 and top != bottom:
                    parts.append(f"{h}{_LETTERS[bottom]}{kind}+")
                elif top == bottom:
                    parts.append(f"{h}{_LETTERS[top]}{kind}")
                else:
                    parts.append(f"{h}{_LETTERS[top]}{kind}-{h}{_LETTERS[bottom]}{kind}")
            for lo in lows:
                used.update(_class_combos(high, lo, kind))
    parts += [combo_text(c) for c in ALL_COMBOS if c in have and c not in used]
    return ", ".join(parts)
