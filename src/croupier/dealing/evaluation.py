"""Hand evaluation: the functions of the C program ``dealer``, on one hand.

A *hand* is any iterable of :class:`~croupier.cards.Card` (a pile of a
:class:`~croupier.dealing.deal.Deal`, a list, a parsed string); jokers are
ignored.  Every function is defined exactly as ``dealer`` defines it (its
manual and source), so a condition written for ``dealer`` means the same here;
``docs/evaluation.md`` gives each definition and where ``redeal`` and
``endplay`` differ.  :mod:`croupier.bulk.evaluate` computes the same values
over whole deal arrays.

>>> from croupier.cards import parse_cards
>>> hand = parse_cards("AS KS 7S 4S 2S KH QH JH 9H TD 5D 8C 3C")
>>> hcp(hand), controls(hand), losers(hand), suit_lengths(hand)
(13, 4, 6, (5, 4, 2, 2))
>>> shape(hand, "any 5422 + 5xxx - 54xx"), quality(hand, "spades"), cccc(hand)
(False, 350, 1550)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from croupier.cards import BRIDGE_RANKS, BRIDGE_SUITS, Card, Rank, Suit, parse_card
from croupier.errors import CroupierError, excerpt
from croupier.frozen import frozen_dataclass

__all__ = [
    "ALT_COUNT_NAMES",
    "ALT_COUNT_SCALES",
    "BALANCED",
    "BALANCED_PATTERNS",
    "CONTROL_SCALE",
    "HCP_SCALE",
    "SEMI_BALANCED",
    "SEMI_BALANCED_PATTERNS",
    "EvaluationError",
    "ShapePattern",
    "ShapeTerm",
    "aces",
    "c13",
    "cccc",
    "controls",
    "hascard",
    "hcp",
    "is_balanced",
    "is_semi_balanced",
    "jacks",
    "kings",
    "losers",
    "parse_shape",
    "point_scale",
    "points",
    "pt",
    "quality",
    "queens",
    "shape",
    "sorted_shape",
    "suit_length",
    "suit_lengths",
    "tens",
    "top2",
    "top3",
    "top4",
    "top5",
]

SuitLike = Suit | str
"""A suit, or its letter, symbol or name (``"S"``, ``"♠"``, ``"spades"``)."""

SCALE_RANKS = BRIDGE_RANKS
"""The ranks a point scale lists, in order: A K Q J T 9 8 7 6 5 4 3 2."""

MAX_SCALE_VALUE = 2**31 - 1
"""The largest magnitude of one value of a point scale (``dealer`` keeps them in a C ``int``)."""

HCP_SCALE: tuple[int, ...] = (4, 3, 2, 1)
"""``dealer``'s default ``pointcount``: A=4 K=3 Q=2 J=1, every other card 0."""

CONTROL_SCALE: tuple[int, ...] = (2, 1)
"""Controls: A=2 K=1 (``dealer``'s ``control``)."""

ALT_COUNT_NAMES = (
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
    "top2",
    "top3",
    "top4",
    "top5",
    "c13",
)
"""``dealer``'s synonyms of ``pt0`` … ``pt9``, in that order."""

ALT_COUNT_SCALES: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 1),
    (0, 0, 0, 1),
    (0, 0, 1),
    (0, 1),
    (1,),
    (1, 1),
    (1, 1, 1),
    (1, 1, 1, 1),
    (1, 1, 1, 1, 1),
    (6, 4, 2, 1),
)
"""The default scales of ``dealer``'s alternate counts ``pt0`` … ``pt9`` (``altcount``)."""

BALANCED_PATTERNS: tuple[tuple[int, int, int, int], ...] = (
    (4, 3, 3, 3),
    (4, 4, 3, 2),
    (5, 3, 3, 2),
)
"""The balanced hand patterns, longest suit first (not a ``dealer`` function; the usual ones)."""

SEMI_BALANCED_PATTERNS = (*BALANCED_PATTERNS, (5, 4, 2, 2), (6, 3, 2, 2))
"""The semi-balanced patterns: the balanced ones, 5422 and 6322 (not 7222)."""

BALANCED = " + ".join(f"any {''.join(map(str, p))}" for p in BALANCED_PATTERNS)
"""``"any 4333 + any 4432 + any 5332"``: :data:`BALANCED_PATTERNS` in dealer's shape language."""

SEMI_BALANCED = " + ".join(f"any {''.join(map(str, p))}" for p in SEMI_BALANCED_PATTERNS)
"""``BALANCED + " + any 5422 + any 6322"``: :data:`SEMI_BALANCED_PATTERNS` as a shape."""

_RANK_POS = {rank: i for i, rank in enumerate(SCALE_RANKS)}  # A=0, K=1, ..., 2=12


class EvaluationError(CroupierError):
    """A bad argument of a hand-evaluation function (point scale, shape pattern, count number)."""


# -- hands ------------------------------------------------------------------------------


def _suit(suit: SuitLike) -> Suit:
    return suit if isinstance(suit, Suit) else Suit.parse(suit)


def _suited(hand: Iterable[Card], suit: SuitLike | None = None) -> list[Card]:
    """The hand's cards that have a suit (of ``suit`` when given)."""
    if suit is None:
        return [c for c in hand if c.suit is not None]
    wanted = _suit(suit)
    return [c for c in hand if c.suit is wanted]


def suit_length(hand: Iterable[Card], suit: SuitLike) -> int:
    """How many cards of ``suit`` the hand holds (``dealer``'s ``spades(north)`` ...).

    >>> from croupier.cards import parse_cards
    >>> suit_length(parse_cards("AS KS QH"), "spades")
    2
    """
    return len(_suited(hand, suit))


def suit_lengths(hand: Iterable[Card]) -> tuple[int, int, int, int]:
    """The hand's suit lengths in the order spades, hearts, diamonds, clubs.

    >>> from croupier.cards import parse_cards
    >>> suit_lengths(parse_cards("AS KS QH 2C"))
    (2, 1, 0, 1)
    """
    count = Counter(c.suit for c in hand)
    s, h, d, c = (count[suit] for suit in BRIDGE_SUITS)
    return (s, h, d, c)


def sorted_shape(hand: Iterable[Card]) -> tuple[int, int, int, int]:
    """The suit lengths from longest to shortest, e.g. ``(5, 3, 3, 2)`` for any 5332.

    >>> from croupier.cards import parse_cards
    >>> sorted_shape(parse_cards("AS KS QH 2C"))
    (2, 1, 1, 0)
    """
    a, b, c, d = sorted(suit_lengths(hand), reverse=True)
    return (a, b, c, d)


def hascard(hand: Iterable[Card], card: Card | str) -> bool:
    """Whether the hand holds ``card`` (a :class:`Card` or a code such as ``"TC"``).

    >>> from croupier.cards import parse_cards
    >>> hascard(parse_cards("AS TC"), "TC"), hascard(parse_cards("AS TC"), "TD")
    (True, False)
    """
    wanted = card if isinstance(card, Card) else parse_card(card)
    return any(c == wanted for c in hand)


# -- point counts -----------------------------------------------------------------------


def point_scale(values: Sequence[int]) -> tuple[int, ...]:
    """A point scale as 13 integers for A K Q J T 9 8 7 6 5 4 3 2 (missing values are 0).

    This is ``dealer``'s ``pointcount`` list (and ``altcount N`` list): values
    start from the ace, may be negative, and stop at most at the two.

    >>> point_scale([4, 3, 2, 1])
    (4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> point_scale([1] * 14)
    Traceback (most recent call last):
    ...
    croupier.dealing.evaluation.EvaluationError: a point scale has at most 13 values (...), not 14
    """
    if isinstance(values, (str, bytes)):
        raise EvaluationError(
            f"a point scale is a sequence of integers for A K Q J ..., not {excerpt(values)}"
        )
    scale = list(values)
    if len(scale) > len(SCALE_RANKS):
        raise EvaluationError(
            f"a point scale has at most 13 values (A K Q J T 9 8 7 6 5 4 3 2), not {len(scale)}"
        )
    for i, value in enumerate(scale):
        if isinstance(value, bool) or not isinstance(value, int):
            raise EvaluationError(
                f"point scale value {value!r} (for {SCALE_RANKS[i].letter}) must be an integer"
            )
        if abs(value) > MAX_SCALE_VALUE:
            raise EvaluationError(
                f"point scale value {value!r} (for {SCALE_RANKS[i].letter}) is out of range;"
                f" expected -{MAX_SCALE_VALUE}..{MAX_SCALE_VALUE}"
            )
    return (*scale, *[0] * (len(SCALE_RANKS) - len(scale)))


def points(hand: Iterable[Card], scale: Sequence[int], suit: SuitLike | None = None) -> int:
    """The sum of ``scale``'s values of the hand's cards (of ``suit`` when given).

    ``scale`` lists values for A K Q J T 9 ... 2 (see :func:`point_scale`).
    Every copy of a card counts (a shoe may hold two aces of spades).

    >>> from croupier.cards import parse_cards
    >>> points(parse_cards("AS KS TH"), [3, 2, 1, 0, 1])
    6
    """
    table = point_scale(scale)
    return sum(table[_RANK_POS[c.rank]] for c in _suited(hand, suit))


def hcp(
    hand: Iterable[Card], suit: SuitLike | None = None, *, scale: Sequence[int] = HCP_SCALE
) -> int:
    """High-card points: A=4 K=3 Q=2 J=1 unless ``scale`` says otherwise (``dealer``'s ``hcp``).

    ``scale`` plays the part of ``dealer``'s ``pointcount`` command.

    >>> from croupier.cards import parse_cards
    >>> hand = parse_cards("AS QS KH JD 2D")
    >>> hcp(hand), hcp(hand, "S"), hcp(hand, scale=[6, 4, 2, 1])
    (10, 6, 13)
    """
    return points(hand, scale, suit)


def pt(hand: Iterable[Card], number: int, suit: SuitLike | None = None) -> int:
    """``dealer``'s alternate count ``pt<number>`` (0..9) with its default scale.

    ``pt0`` … ``pt9`` are tens, jacks, queens, kings, aces, top2, top3, top4,
    top5 and c13 (:data:`ALT_COUNT_NAMES`); for a changed scale (``dealer``'s
    ``altcount``) use :func:`points`.

    >>> from croupier.cards import parse_cards
    >>> hand = parse_cards("AS KS QH JD TD")
    >>> [pt(hand, n) for n in range(10)]
    [1, 1, 1, 1, 1, 2, 3, 4, 5, 13]
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 9:
        raise EvaluationError(
            f"alternate count number={number!r} is out of range; expected 0..9 (pt0 .. pt9)"
        )
    return points(hand, ALT_COUNT_SCALES[number], suit)


def tens(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """The number of tens (``dealer``'s ``tens``, ``pt0``).

    >>> from croupier.cards import parse_cards
    >>> tens(parse_cards("TS TH 9H"))
    2
    """
    return pt(hand, 0, suit)


def jacks(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """The number of jacks (``dealer``'s ``jacks``, ``pt1``).

    >>> from croupier.cards import parse_cards
    >>> jacks(parse_cards("JS JH JD"), "H")
    1
    """
    return pt(hand, 1, suit)


def queens(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """The number of queens (``dealer``'s ``queens``, ``pt2``).

    >>> from croupier.cards import parse_cards
    >>> queens(parse_cards("QS QH KD"))
    2
    """
    return pt(hand, 2, suit)


def kings(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """The number of kings (``dealer``'s ``kings``, ``pt3``).

    >>> from croupier.cards import parse_cards
    >>> kings(parse_cards("KS QH KD"))
    2
    """
    return pt(hand, 3, suit)


def aces(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """The number of aces (``dealer``'s ``aces``, ``pt4``).

    >>> from croupier.cards import parse_cards
    >>> aces(parse_cards("AS AH KD"))
    2
    """
    return pt(hand, 4, suit)


def top2(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """How many of the top two honours (A K) the hand holds (``dealer``'s ``top2``, ``pt5``).

    >>> from croupier.cards import parse_cards
    >>> top2(parse_cards("AS KS QS KH"), "S")
    2
    """
    return pt(hand, 5, suit)


def top3(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """How many of A K Q the hand holds (``dealer``'s ``top3``, ``pt6``).

    >>> from croupier.cards import parse_cards
    >>> top3(parse_cards("AS KS QS KH"), "S")
    3
    """
    return pt(hand, 6, suit)


def top4(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """How many of A K Q J the hand holds (``dealer``'s ``top4``, ``pt7``).

    >>> from croupier.cards import parse_cards
    >>> top4(parse_cards("AS JS TS KH"))
    3
    """
    return pt(hand, 7, suit)


def top5(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """How many of A K Q J T the hand holds (``dealer``'s ``top5``, ``pt8``).

    >>> from croupier.cards import parse_cards
    >>> top5(parse_cards("AS JS TS KH"))
    4
    """
    return pt(hand, 8, suit)


def c13(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """C13 points: A=6 K=4 Q=2 J=1, 13 per suit (``dealer``'s ``c13``, ``pt9``).

    >>> from croupier.cards import parse_cards
    >>> c13(parse_cards("AS KS QS JS AH")), c13(parse_cards("AS KS QS JS AH"), "S")
    (19, 13)
    """
    return pt(hand, 9, suit)


def controls(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """Controls: A=2 K=1 (``dealer``'s ``control``).

    >>> from croupier.cards import parse_cards
    >>> controls(parse_cards("AS KS AH KD QD"))
    6
    """
    return points(hand, CONTROL_SCALE, suit)


# -- losers, quality, cccc --------------------------------------------------------------


def _holding(hand: Iterable[Card], suit: Suit) -> tuple[int, set[Rank]]:
    """The length of ``suit`` in the hand and the ranks held in it."""
    cards = _suited(hand, suit)
    return len(cards), {c.rank for c in cards}


def _suit_losers(length: int, ranks: set[Rank]) -> int:
    top = [Rank.ACE, Rank.KING, Rank.QUEEN][: min(length, 3)]
    return min(length, 3) - sum(r in ranks for r in top)


def losers(hand: Iterable[Card], suit: SuitLike | None = None) -> int:
    """Losing tricks as ``dealer`` counts them (``loser``), without corrections.

    Per suit: a void 0; a singleton 0 if it is the ace, else 1; a doubleton
    2 minus one for the ace and one for the king (AK 0, Ax or Kx 1, else 2);
    three cards or more 3 minus one for each of the ace, king and queen.

    >>> from croupier.cards import parse_cards
    >>> hand = parse_cards("AS KS 2S KH QD 3D 4D AC")
    >>> [losers(hand, s) for s in "SHDC"], losers(hand)
    ([1, 1, 2, 0], 4)
    """
    items = hand if isinstance(hand, list) else list(hand)
    suits = BRIDGE_SUITS if suit is None else (_suit(suit),)
    return sum(_suit_losers(*_holding(items, s)) for s in suits)


def _suit_quality(length: int, ranks: set[Rank]) -> int:
    """``dealer``'s suit quality (Kaplan–Rubens, times 100) of one holding."""
    has = {r: r in ranks for r in (*SCALE_RANKS[:7],)}  # A K Q J T 9 8
    factor = 10 * length
    value = 0
    higher = 0
    for rank, weight in ((Rank.ACE, 4), (Rank.KING, 3), (Rank.QUEEN, 2), (Rank.JACK, 1)):
        if has[rank]:
            value += weight * factor
            higher += 1
    if length > 6:
        replace = 3 - 2 * has[Rank.QUEEN] - has[Rank.JACK]
        value += min(replace, length - 6) * factor
    else:
        if has[Rank.TEN]:
            value += factor if higher > 1 or has[Rank.JACK] else factor // 2
        if has[Rank.NINE] and (higher == 2 or has[Rank.TEN] or has[Rank.EIGHT]):
            value += factor // 2
    return value


def quality(hand: Iterable[Card], suit: SuitLike) -> int:
    """Suit quality (Kaplan–Rubens, The Bridge World, October 1982) times 100 (``quality``).

    With ``L`` cards in the suit and ``F = 10 L``: the ace adds ``4F``, the
    king ``3F``, the queen ``2F``, the jack ``F`` (``h`` = how many of these are
    held).  Seven cards or more add ``min(3 - 2[Q] - [J], L - 6) F``; shorter
    suits add, for the ten, ``F`` when ``h > 1`` or the jack is held, else
    ``F/2``, and for the nine ``F/2`` when ``h == 2``, the ten or the eight is
    held.

    >>> from croupier.cards import parse_cards
    >>> quality(parse_cards("JD TD 8D 3D 2D"), "D")  # F = 50: jack 50, ten with jack 50
    100
    """
    length, ranks = _holding(hand, _suit(suit))
    return _suit_quality(length, ranks)


def cccc(hand: Iterable[Card]) -> int:
    """Kaplan–Rubens hand evaluation ("four C's") times 100, as ``dealer``'s ``cccc``.

    Per suit of length ``L``: the ace adds 300; the king 200 (50 when
    singleton); the queen 100, less 75 when singleton, less 25 when doubleton,
    less 25 more without the ace or king; the jack 50 when exactly two of
    A K Q are held, 25 when exactly one is; the ten 25 when exactly two of
    A K Q J are held, or exactly one of them and the nine; plus the suit's
    :func:`quality`.  Shape: each suit shorter than three adds
    ``(3 - L) 100``, and 100 is taken off that total; a hand without such a
    suit (4333) loses 50 instead.

    >>> from croupier.cards import parse_cards
    >>> cccc(parse_cards("AH 8H 5H 4H JD TD 8D 3D 2D AC KC 3C 2C"))
    1540
    """
    items = hand if isinstance(hand, list) else list(hand)
    total = 0
    shape_points = 0
    for suit in BRIDGE_SUITS:
        length, ranks = _holding(items, suit)
        if length < 3:
            shape_points += (3 - length) * 100
        higher = 0
        if Rank.ACE in ranks:
            total += 300
            higher += 1
        if Rank.KING in ranks:
            total += 200 - (150 if length == 1 else 0)
            higher += 1
        if Rank.QUEEN in ranks:
            total += 100
            total -= {1: 75, 2: 25}.get(length, 0)
            total -= 25 if higher == 0 else 0
            higher += 1
        if Rank.JACK in ranks:
            total += {2: 50, 1: 25}.get(higher, 0)
            higher += 1
        if Rank.TEN in ranks and (higher == 2 or (higher == 1 and Rank.NINE in ranks)):
            total += 25
        total += _suit_quality(length, ranks)
    return total + (shape_points - 100 if shape_points else -50)


# -- shapes -----------------------------------------------------------------------------


@frozen_dataclass
class ShapeTerm:
    """One term of a shape pattern: ``[+|-] [any] dddd`` with ``x`` for any length.

    ``lengths`` are the four lengths in S H D C order (``None`` for ``x``);
    ``any`` lets the suits come in any order; ``exclude`` marks a ``-`` term.
    """

    lengths: tuple[int | None, int | None, int | None, int | None]
    any: bool = False
    exclude: bool = False

    def matches(self, lengths: Sequence[int]) -> bool:
        """Whether four suit lengths (S H D C) fit this term, ignoring its sign.

        >>> ShapeTerm((5, None, None, None), any=True).matches((2, 3, 5, 3))
        True
        """
        if not self.any:
            return all(
                want is None or want == got for want, got in zip(self.lengths, lengths, strict=True)
            )
        needed = Counter(v for v in self.lengths if v is not None)
        have = Counter(lengths)
        return all(have[v] >= k for v, k in needed.items())

    def __str__(self) -> str:
        sign = "- " if self.exclude else "+ "
        body = "".join("x" if v is None else str(v) for v in self.lengths)
        return sign + ("any " if self.any else "") + body


@frozen_dataclass
class ShapePattern:
    """A ``dealer`` shape list such as ``any 4333 + 5xxx - 5332``.

    Terms apply from left to right, as in ``dealer``: a ``+`` term (or the
    first term without a sign) adds the shapes it describes, a ``-`` term
    removes them; so ``5xxx - 5332 + any 5332`` holds 5332.  Build one with
    :func:`parse_shape`.

    >>> p = parse_shape("any 4333 + 5xxx - 5332")
    >>> p.matches((3, 4, 3, 3)), p.matches((5, 3, 3, 2)), p.matches((5, 2, 3, 3))
    (True, False, True)
    >>> str(p)
    'any 4333 + 5xxx - 5332'
    """

    terms: tuple[ShapeTerm, ...]

    def matches(self, lengths: Sequence[int]) -> bool:
        """Whether suit lengths (S H D C) are in the pattern."""
        found = False
        for term in self.terms:
            if term.exclude == found and term.matches(lengths):
                found = not found
        return found

    def __str__(self) -> str:
        text = " ".join(str(t) for t in self.terms)
        return text[2:] if text.startswith("+ ") else text


_SHAPE_CHARS = "0123456789xX"


def _shape_error(text: str, pos: int, expected: str) -> EvaluationError:
    return EvaluationError(
        f"bad shape pattern {excerpt(text)} at position {pos}: expected {expected}"
    )


def parse_shape(text: str, cards: int | None = 13) -> ShapePattern:
    """Parse a ``dealer`` shape list: terms ``[+|-] [any] dddd`` joined by ``+`` and ``-``.

    A term has four characters for spades, hearts, diamonds and clubs: a
    digit (the exact length) or ``x`` (any length); ``any`` lets the suits
    come in any order.  As ``dealer`` does for 13-card hands, a term without
    ``x`` must add up to ``cards`` and one with ``x`` must not exceed it
    (``cards=None`` skips the check).  Errors give the position (0-based).

    >>> parse_shape("any 4432 - 4xxx").matches((2, 4, 3, 4))
    True
    >>> parse_shape("any 4333 + 54x")
    Traceback (most recent call last):
    ...
    croupier.dealing.evaluation.EvaluationError: ... at position 14: expected 4 characters ...
    >>> parse_shape("5332 + 4431")
    Traceback (most recent call last):
    ...
    croupier.dealing.evaluation.EvaluationError: ... at position 7: 4431 has 12 cards, not 13
    """
    if not isinstance(text, str):
        raise EvaluationError(f"a shape pattern is a string such as 'any 4333', not {text!r}")
    terms: list[ShapeTerm] = []
    pos = 0
    n = len(text)

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    pos = skip(pos)
    while True:
        exclude = False
        if pos < n and text[pos] in "+-":
            exclude = text[pos] == "-"
            pos = skip(pos + 1)
        elif terms:
            raise _shape_error(text, pos, "'+', '-' or the end")
        is_any = text[pos : pos + 3].lower() == "any"
        if is_any:
            pos = skip(pos + 3)
        start = pos
        body = text[pos : pos + 4]
        if len(body) < 4 or any(ch not in _SHAPE_CHARS for ch in body):
            bad = start + next(
                (i for i, ch in enumerate(body) if ch not in _SHAPE_CHARS), len(body)
            )
            raise _shape_error(text, bad, "4 characters of 0-9 or x (spades hearts diamonds clubs)")
        lengths = tuple(None if ch in "xX" else int(ch) for ch in body)
        pos += 4
        if pos < n and text[pos] in _SHAPE_CHARS:
            raise _shape_error(text, pos, "'+', '-' or the end after 4 lengths")
        if cards is not None:
            fixed = sum(v for v in lengths if v is not None)
            if None not in lengths and fixed != cards:
                raise EvaluationError(
                    f"bad shape pattern {excerpt(text)} at position {start}: {body} has "
                    f"{fixed} cards, not {cards}"
                )
            if fixed > cards:
                raise EvaluationError(
                    f"bad shape pattern {excerpt(text)} at position {start}: {body} needs "
                    f"more than {cards} cards"
                )
        s, h, d, c = lengths
        terms.append(ShapeTerm((s, h, d, c), any=is_any, exclude=exclude))
        pos = skip(pos)
        if pos >= n:
            return ShapePattern(tuple(terms))


def shape(hand: Iterable[Card], pattern: str | ShapePattern) -> bool:
    """Whether the hand's suit lengths fit ``pattern`` (``dealer``'s ``shape``).

    A string is parsed with :func:`parse_shape` for the hand's size.

    >>> from croupier.cards import parse_cards
    >>> hand = parse_cards("AS KS QS JS TS AH KH QH AD KD AC KC QC")
    >>> shape(hand, "5323"), shape(hand, "any 5332 - 5xx3"), shape(hand, "any 3352")
    (True, False, True)
    """
    items = hand if isinstance(hand, list) else list(hand)
    lengths = suit_lengths(items)
    if isinstance(pattern, str):
        pattern = parse_shape(pattern, cards=sum(lengths))
    return pattern.matches(lengths)


def is_balanced(hand: Iterable[Card]) -> bool:
    """Whether the hand is 4333, 4432 or 5332 in any suit order (:data:`BALANCED`).

    ``dealer`` has no such function; this is the usual definition.

    >>> from croupier.cards import parse_cards
    >>> is_balanced(parse_cards("AS KS QS JS AH KH QH AD KD QD AC KC QC"))
    True
    """
    return sorted_shape(hand) in BALANCED_PATTERNS


def is_semi_balanced(hand: Iterable[Card]) -> bool:
    """Whether the hand is balanced, 5422 or 6322 (:data:`SEMI_BALANCED`; 7222 is not).

    >>> from croupier.cards import parse_cards
    >>> is_semi_balanced(parse_cards("AS KS QS JS TS AH KH QH JH AD KD AC KC"))
    True
    """
    return sorted_shape(hand) in SEMI_BALANCED_PATTERNS
