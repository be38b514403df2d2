"""Playing cards: suits, ranks, cards, jokers, and every common notation.

A :class:`Card` is a small immutable value.  It parses from and formats to the
notations people use:

=========  ==================  =====================================
style      example             notes
=========  ==================  =====================================
``short``  ``AS``, ``TH``      ASCII rank + suit letter (``T`` = 10)
``symbol`` ``A♠``, ``10♥``     rank + suit symbol
``long``   ``Ace of Spades``   rank name ``of`` suit name
``glyph``  ``🂡``               Unicode playing-card character
=========  ==================  =====================================

Parsing is case-insensitive and accepts all of these, plus ``10h``, ``Th``,
``T♥``, suit-first symbols (``♠A``, ``♥10``), outline suits (``♤ ♡ ♢ ♧``), emoji
suits with a variation selector (``A♠️``), ``Ten of Hearts``, ``K of Hearts``, ``joker``/``JK``,
copy suffixes (``AS#2``, the second ace of spades of a shoe), and lists such as
``"AS KH 10d"``, ``"As,Kh"`` or ``"AsKh"``.  Every style round-trips:
``parse_card(format_card(c, s)) == c`` for every card, copies and jokers included.

>>> card = parse_card("10h")
>>> card
Card.parse('TH')
>>> format_card(card, "long")
'10 of Hearts'
>>> [c.code for c in parse_cards("AsKh 10d")]
['AS', 'KH', 'TD']
>>> format_card(parse_card("Ace of Spades"), "symbol")
'A♠'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, get_args

from croupier.errors import CardNotationError, excerpt

__all__ = [
    "BRIDGE_DECK",
    "BRIDGE_RANKS",
    "BRIDGE_RANK_LETTERS",
    "BRIDGE_SUITS",
    "BRIDGE_SUIT_LETTERS",
    "CARD_STYLES",
    "Card",
    "CardStyle",
    "Rank",
    "Suit",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "split_ranks",
]

CardStyle = Literal["short", "symbol", "long", "glyph"]
CARD_STYLES: tuple[CardStyle, ...] = get_args(CardStyle)


class Suit(IntEnum):
    """The four suits, numbered low to high: clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One upper-case letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def long_name(self) -> str:
        """``Clubs``, ``Diamonds``, ``Hearts`` or ``Spades``."""
        return ("Clubs", "Diamonds", "Hearts", "Spades")[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter, symbol or name (case-insensitive).

        >>> Suit.parse("♥"), Suit.parse("s"), Suit.parse("Diamonds")
        (<Suit.HEARTS: 2>, <Suit.SPADES: 3>, <Suit.DIAMONDS: 1>)
        """
        if not isinstance(text, str):
            raise CardNotationError(f"expected suit text, got {type(text).__name__}")
        key = text.strip().strip("\ufe0e\ufe0f").lower()
        found = _SUIT_WORDS.get(key)
        if found is None:
            raise CardNotationError(
                f"bad suit {excerpt(text)}; expected one of C D H S, ♣ ♦ ♥ ♠ or a suit name"
            )
        return found


class Rank(IntEnum):
    """Ranks numbered ace low (``ACE = 1`` … ``KING = 13``); ``JOKER = 14``."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    @property
    def letter(self) -> str:
        """One ASCII character: ``A 2 … 9 T J Q K`` (``*`` for the joker)."""
        return "?A23456789TJQK*"[self]

    @property
    def label(self) -> str:
        """As printed on the card: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return "10" if self is Rank.TEN else self.letter

    @property
    def long_name(self) -> str:
        """The long names: ``Ace``, ``2`` … ``10``, ``Jack``, ``Queen``, ``King``."""
        return _RANK_LONG[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank letter, number or name (case-insensitive).

        >>> Rank.parse("t"), Rank.parse("10"), Rank.parse("Queen")
        (<Rank.TEN: 10>, <Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        if not isinstance(text, str):
            raise CardNotationError(f"expected rank text, got {type(text).__name__}")
        key = text.strip().lower()
        found = _RANK_WORDS.get(key)
        if found is None or found is Rank.JOKER:
            raise CardNotationError(
                f"bad rank {excerpt(text)}; expected one of A 2-10 T J Q K or a rank name"
            )
        return found

    @classmethod
    def standard(cls) -> tuple[Rank, ...]:
        """The thirteen ranks of a standard deck, ace low."""
        return tuple(r for r in cls if r is not Rank.JOKER)


def split_ranks(text: str) -> list[str]:
    """Split a rank string such as ``"AKQJT98765432"`` or ``"A K 10 9"`` into rank tokens.

    Spaces and commas separate nothing but are allowed; ``10`` is one token.
    Tokens are not checked: pass each one to :meth:`Rank.parse`.

    >>> split_ranks("AK 10,9t")
    ['A', 'K', '10', '9', 't']
    """
    tokens: list[str] = []
    i = 0
    while i < len(text):
        if text[i] in " ,":
            i += 1
            continue
        step = 2 if text.startswith("10", i) else 1
        tokens.append(text[i : i + step])
        i += step
    return tokens


_RANK_LONG = {
    Rank.ACE: "Ace",
    **{Rank(v): str(v) for v in range(2, 11)},
    Rank.JACK: "Jack",
    Rank.QUEEN: "Queen",
    Rank.KING: "King",
    Rank.JOKER: "Joker",
}

_RANK_WORDS: dict[str, Rank] = {}
for _r in Rank.standard():
    _RANK_WORDS[_r.letter.lower()] = _r
    _RANK_WORDS[_r.long_name.lower()] = _r
_RANK_WORDS.update(
    {
        "10": Rank.TEN,
        "1": Rank.ACE,
        "two": Rank.TWO,
        "three": Rank.THREE,
        "four": Rank.FOUR,
        "five": Rank.FIVE,
        "six": Rank.SIX,
        "seven": Rank.SEVEN,
        "eight": Rank.EIGHT,
        "nine": Rank.NINE,
        "ten": Rank.TEN,
    }
)

_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_WORDS[_s.letter.lower()] = _s
    _SUIT_WORDS[_s.symbol] = _s
    _SUIT_WORDS[_s.long_name.lower()] = _s
    _SUIT_WORDS[_s.long_name.lower()[:-1]] = _s
_SUIT_WORDS.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})

# Unicode playing cards: one block of 16 code points per suit, ranks at offsets
# 1..14 where 12 is the knight (not in French-suited decks).
_GLYPH_BASE = {
    Suit.SPADES: 0x1F0A0,
    Suit.HEARTS: 0x1F0B0,
    Suit.DIAMONDS: 0x1F0C0,
    Suit.CLUBS: 0x1F0D0,
}
_GLYPH_OFFSET = {r: (int(r) if r < Rank.QUEEN else int(r) + 1) for r in Rank.standard()}
_JOKER_GLYPHS = ("\U0001f0cf", "\U0001f0bf", "\U0001f0df")  # black, red, white joker
_GLYPH_TO_CARD: dict[str, tuple[Rank, Suit | None, int]] = {}
for _s, _base in _GLYPH_BASE.items():
    for _r, _off in _GLYPH_OFFSET.items():
        _GLYPH_TO_CARD[chr(_base + _off)] = (_r, _s, 0)
for _i, _g in enumerate(_JOKER_GLYPHS):
    _GLYPH_TO_CARD[_g] = (Rank.JOKER, None, _i)


@dataclass(frozen=True, slots=True)
class Card:
    """An immutable, hashable playing card.

    ``suit`` is ``None`` only for jokers.  ``copy`` tells apart identical cards
    of a shoe or a pinochle deck (0 for the first copy); it takes part in
    equality, hashing and ordering, and formats as a ``#k`` suffix (k = copy + 1).

    Cards order by suit (clubs < diamonds < hearts < spades), then rank (ace
    low), then copy; jokers come last (the ``suit-ace-low`` order).  Other orders live in
    :mod:`croupier.orders`.

    >>> Card(Rank.ACE, Suit.SPADES)
    Card.parse('AS')
    >>> Card(Rank.KING, Suit.CLUBS) < Card(Rank.ACE, Suit.DIAMONDS)
    True
    >>> Card.joker().long_name
    'Joker'
    """

    rank: Rank
    suit: Suit | None
    copy: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank):
            try:
                object.__setattr__(self, "rank", Rank(self.rank))
            except (ValueError, TypeError):
                raise CardNotationError(
                    f"bad rank {self.rank!r}; expected a Rank or an int 1..14 (ace=1, joker=14)"
                ) from None
        if self.suit is not None and not isinstance(self.suit, Suit):
            try:
                object.__setattr__(self, "suit", Suit(self.suit))
            except (ValueError, TypeError):
                raise CardNotationError(
                    f"bad suit {self.suit!r}; expected a Suit, an int 0..3 or None for a joker"
                ) from None
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise CardNotationError(
                f"only jokers lack a suit: got rank {self.rank!r}, suit {self.suit!r}"
            )
        if isinstance(self.copy, bool) or not isinstance(self.copy, int) or self.copy < 0:
            raise CardNotationError(f"card copy must be an int >= 0, got {self.copy!r}")

    # -- construction -------------------------------------------------------------
    @classmethod
    def joker(cls, copy: int = 0) -> Card:
        """A joker (``copy`` tells apart the jokers of one deck)."""
        return cls(Rank.JOKER, None, copy)

    def with_copy(self, copy: int) -> Card:
        """The same card with another ``copy`` number (for shoes and doubled decks).

        >>> Card.parse("AS").with_copy(1)
        Card.parse('AS#2')
        """
        if isinstance(copy, bool) or not isinstance(copy, int) or copy < 0:
            raise CardNotationError(f"card copy must be an int >= 0, got {copy!r}")
        card = object.__new__(Card)  # rank and suit are already checked
        object.__setattr__(card, "rank", self.rank)
        object.__setattr__(card, "suit", self.suit)
        object.__setattr__(card, "copy", copy)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card in any supported notation (see :func:`parse_card`)."""
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at ``index`` of a fresh deck (``suit-ace-low``); the inverse of :attr:`index`.

        0..51 are the standard cards (clubs ace first, spades king last);
        ``52 + k`` is the joker with copy ``k``.

        >>> Card.from_index(0), Card.from_index(51), Card.from_index(53)
        (Card.parse('AC'), Card.parse('KS'), Card.parse('JK#2'))
        """
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise CardNotationError(
                f"card index {index!r} out of range; expected 0..51 (or 52+k for joker copy k)"
            )
        if index >= 52:
            return cls.joker(index - 52)
        return cls(Rank(index % 13 + 1), Suit(index // 13))

    # -- properties ----------------------------------------------------------------
    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.suit is None

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts (jokers: False).

        >>> Card.parse("QH").is_red, Card.parse("QS").is_red
        (True, False)
        """
        return self.suit is not None and self.suit.is_red

    @property
    def index(self) -> int:
        """Position 0..51 in a fresh deck (clubs ace first, suit then rank); jokers: 52 + copy.

        The copy of a standard card is not part of its index (``AS#2`` has the
        index of ``AS``).

        >>> Card.parse("AC").index, Card.parse("KS").index, Card.joker(1).index
        (0, 51, 53)
        """
        if self.suit is None:
            return 52 + self.copy
        return int(self.suit) * 13 + int(self.rank) - 1

    @property
    def code(self) -> str:
        """Short ASCII code, e.g. ``AS``, ``TH``, ``JK``."""
        return format_card(self, "short")

    @property
    def symbol(self) -> str:
        """Rank and suit symbol, e.g. ``A♠``, ``10♥``."""
        return format_card(self, "symbol")

    @property
    def long_name(self) -> str:
        """Rank name ``of`` suit name, e.g. ``Ace of Spades``."""
        return format_card(self, "long")

    @property
    def glyph(self) -> str:
        """The Unicode playing-card character, e.g. ``🂡``."""
        return format_card(self, "glyph")

    # -- ordering: suit, then rank (ace low), then copy; jokers last ---------------
    def _key(self) -> tuple[int, int, int]:
        return (4 if self.suit is None else int(self.suit), int(self.rank), self.copy)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() >= other._key()

    def __str__(self) -> str:
        return self.code

    def __format__(self, spec: str) -> str:
        """Format with a card style as the format spec (empty = ``short``).

        >>> f"{Card.parse('TH')} {Card.parse('TH'):symbol} {Card.parse('TH'):long}"
        'TH 10♥ 10 of Hearts'
        """
        if not spec:
            return self.code
        if spec not in CARD_STYLES:
            raise CardNotationError(
                f"unknown card style {excerpt(spec)}; expected one of {', '.join(CARD_STYLES)}"
            )
        return format_card(self, spec)

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def _repr_html_(self) -> str:
        """Notebook display: the card as an HTML span, hearts and diamonds red.

        >>> Card.parse("AH")._repr_html_()
        '<span class="croupier-card" style="color:#c00000" data-card="AH"
        title="Ace of Hearts">A♥</span>'
        """
        from croupier.html import card_html  # same layer; imported here to avoid a cycle

        return card_html(self)


BRIDGE_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The suits from high to low as bridge lists them: spades, hearts, diamonds, clubs."""

BRIDGE_RANKS: tuple[Rank, ...] = (Rank.ACE, *reversed(Rank.standard()[1:]))
"""The thirteen ranks from high to low, ace high: A K Q J T 9 … 2."""

BRIDGE_SUIT_LETTERS = "".join(s.letter for s in BRIDGE_SUITS)
"""``"SHDC"``: :data:`BRIDGE_SUITS` as letters (the suit order of PBN, LIN and Big Deal)."""

BRIDGE_RANK_LETTERS = "".join(r.letter for r in BRIDGE_RANKS)
"""``"AKQJT98765432"``: :data:`BRIDGE_RANKS` as letters (the rank order within a PBN suit)."""

BRIDGE_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in BRIDGE_SUITS for r in BRIDGE_RANKS)
"""The 52 cards in bridge order: ``AS KS … 2S AH … 2H AD … 2D AC … 2C``.

It is the order of hands in PBN and in hand records, croupier's dealing
order for standard decks, and Big Deal's card numbering (card ``k`` is
``BRIDGE_DECK[k - 1]``).
"""


def _copy_suffix(copy: int) -> str:
    return f"#{copy + 1}" if copy else ""


def format_card(card: Card, style: CardStyle = "short") -> str:
    """Format ``card`` in one of :data:`CARD_STYLES`.

    >>> c = Card(Rank.TEN, Suit.HEARTS)
    >>> [format_card(c, s) for s in CARD_STYLES]
    ['TH', '10♥', '10 of Hearts', '🂺']
    """
    if style not in CARD_STYLES:
        raise CardNotationError(
            f"unknown card style {excerpt(style)}; expected one of {', '.join(CARD_STYLES)}"
        )
    if not isinstance(card, Card):
        raise CardNotationError(f"expected a card, got {card!r} ({type(card).__name__})")
    suffix = _copy_suffix(card.copy)
    if card.suit is None:
        if style == "glyph" and card.copy < len(_JOKER_GLYPHS):
            return _JOKER_GLYPHS[card.copy]
        if style == "long":
            return "Joker" + (f" {suffix}" if suffix else "")
        if style == "glyph":
            return _JOKER_GLYPHS[0] + f"#{card.copy + 1}"
        return "JK" + suffix
    if style == "short":
        return card.rank.letter + card.suit.letter + suffix
    if style == "symbol":
        return card.rank.label + card.suit.symbol + suffix
    if style == "long":
        text = f"{card.rank.long_name} of {card.suit.long_name}"
        return text + (f" {suffix}" if suffix else "")
    return chr(_GLYPH_BASE[card.suit] + _GLYPH_OFFSET[card.rank]) + suffix


def format_cards(cards: Iterable[Card], style: CardStyle = "short", sep: str = " ") -> str:
    """Format an iterable of cards, joined by ``sep``.

    The result parses back with :func:`parse_cards` for every style as long as
    ``sep`` is a separator (space, comma, semicolon, ``|``, tab or newline).

    >>> format_cards(parse_cards("AS KH"), "symbol")
    'A♠ K♥'
    >>> format_cards(parse_cards("AS KH"), "long", sep=", ")
    'Ace of Spades, King of Hearts'
    """
    if not isinstance(cards, Iterable) or isinstance(cards, str):
        raise CardNotationError(
            f"expected an iterable of cards, got {type(cards).__name__}; "
            "parse text first with parse_cards"
        )
    parts: list[str] = []
    for c in cards:
        if not isinstance(c, Card):
            raise CardNotationError(f"expected cards, got {c!r} ({type(c).__name__})")
        parts.append(format_card(c, style))
    return sep.join(parts)


_RANK_WORD_RE = "ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|10|[1-9atjqk]"
_SUIT_WORD_RE = "clubs?|diamonds?|hearts?|spades?"
_SUIT_SYMBOLS = "♠♥♦♣♤♡♢♧"
_SUIT_CHAR_RE = f"[shdc{_SUIT_SYMBOLS}]"
_VS_RE = "[\ufe0e\ufe0f]?"  # text/emoji variation selector after a suit symbol
_COPY_RE = r"(?:\s*#(?P<{name}>[0-9]+))?"
_GLYPHS_RE = "[" + "".join(sorted(_GLYPH_TO_CARD)) + "]"


@functools.cache
def _token_re() -> re.Pattern[str]:
    """The pattern of one card token (compiled on first use: every croupier program imports
    this module, few parse card text)."""
    return re.compile(
        "|".join(
            [
                rf"(?P<lrank>{_RANK_WORD_RE})\s+of\s+(?P<lsuit>{_SUIT_WORD_RE})\b"
                + _COPY_RE.format(name="lcopy"),
                r"(?:joker|jk)" + _COPY_RE.format(name="jcopy"),
                rf"(?P<srank>10|[2-9atjqk])(?P<ssuit>{_SUIT_CHAR_RE}){_VS_RE}"
                + _COPY_RE.format(name="scopy"),
                rf"(?P<fsuit>[{_SUIT_SYMBOLS}]){_VS_RE}(?P<frank>10|[2-9atjqk])"
                + _COPY_RE.format(name="fcopy"),
                rf"(?P<glyph>{_GLYPHS_RE})" + _COPY_RE.format(name="gcopy"),
            ]
        ),
        re.IGNORECASE,
    )


_SEPARATORS = frozenset(" \t\r\n,;|")
_MAX_COPY_DIGITS = 9
_EXPECTED = (
    "expected e.g. 'AS', 'As', 'A♠', '10h', 'Th', 'Ace of Spades', 'JK' or a card glyph, "
    "separated by spaces or commas"
)


def _copy_from(text: str | None, token: str) -> int:
    if text is None:
        return 0
    if len(text) > _MAX_COPY_DIGITS or int(text) < 1:
        raise CardNotationError(
            f"bad copy number in {excerpt(token)}; copies are numbered #1 to "
            f"#{10**_MAX_COPY_DIGITS - 1}"
        )
    return int(text) - 1


def _card_from_match(m: re.Match[str]) -> Card:
    token = m.group(0)
    if m.group("lrank") is not None:
        rank = Rank.parse(m.group("lrank"))
        return Card(rank, Suit.parse(m.group("lsuit")), _copy_from(m.group("lcopy"), token))
    if m.group("srank") is not None:
        rank = Rank.parse(m.group("srank"))
        return Card(rank, Suit.parse(m.group("ssuit")), _copy_from(m.group("scopy"), token))
    if m.group("frank") is not None:
        rank = Rank.parse(m.group("frank"))
        return Card(rank, Suit.parse(m.group("fsuit")), _copy_from(m.group("fcopy"), token))
    if m.group("glyph") is not None:
        rank_, suit_, base_copy = _GLYPH_TO_CARD[m.group("glyph")]
        extra = _copy_from(m.group("gcopy"), token)
        return Card(rank_, suit_, base_copy + extra if suit_ is None else extra)
    return Card.joker(_copy_from(m.group("jcopy"), token))


def parse_cards(text: str) -> list[Card]:
    """Parse a list of cards in any mix of notations.

    Cards may be separated by spaces, commas, semicolons, ``|`` or nothing at
    all.  On a bad token the error names it, its 1-based position in the list
    and the column where it starts (and the whole word when the bad token was
    glued to good cards).

    >>> [c.code for c in parse_cards("AS, kh;10d T♥ Queen of Clubs 🂡 joker ♠2")]
    ['AS', 'KH', 'TD', 'TH', 'QC', 'AS', 'JK', '2S']
    >>> parse_cards("AS XZ")
    Traceback (most recent call last):
    ...
    croupier.errors.CardNotationError: bad card 'XZ' at position 2 (column 4); expected e.g. ...
    >>> parse_cards("Ace")
    Traceback (most recent call last):
    ...
    croupier.errors.CardNotationError: bad card 'e' (in 'Ace') at position 2 (column 3); ...
    """
    if not isinstance(text, str):
        raise CardNotationError(f"expected card text, got {type(text).__name__}")
    cards: list[Card] = []
    pos = 0
    word_start = 0
    n = len(text)
    while pos < n:
        if text[pos] in _SEPARATORS:
            pos += 1
            word_start = pos
            continue
        m = _token_re().match(text, pos)
        if m is None:
            end = pos
            while end < n and text[end] not in _SEPARATORS:
                end += 1
            context = f" (in {excerpt(text[word_start:end])})" if word_start < pos else ""
            raise CardNotationError(
                f"bad card {excerpt(text[pos:end])}{context} at position {len(cards) + 1} "
                f"(column {pos + 1}); {_EXPECTED}"
            )
        cards.append(_card_from_match(m))
        pos = m.end()
    return cards


def parse_card(text: str) -> Card:
    """Parse exactly one card in any supported notation.

    >>> parse_card("T♥") == parse_card("10h") == parse_card("Ten of Hearts")
    True
    """
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardNotationError(f"expected exactly one card in {excerpt(text)}, found {len(cards)}")
    return cards[0]
