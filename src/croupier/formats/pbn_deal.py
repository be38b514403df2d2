"""The PBN ``Deal`` string: four bridge hands in one line.

A PBN deal names the first seat, then the four hands clockwise from it, each
written ``spades.hearts.diamonds.clubs`` with ranks ``AKQJT98765432``; a void is
an empty string between dots::

    N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432

Hands given to and returned by this module are always in ``N, E, S, W`` order,
whatever the first seat of the string.

Parsing rules (lenient on spelling, strict on content):

* the ``X:`` prefix is optional (without it North comes first, as in Big Deal's
  one-line files); seat and rank letters are case-insensitive; hands may be
  separated by any run of whitespace;
* every hand has four suits (three dots) and a deal holds 52 distinct cards,
  13 per hand;
* PBN writes ``-`` for an unknown hand.  Since the other three hands then
  determine it, **one** ``-`` hand is completed with the 13 missing cards; two
  or more ``-`` hands are refused (they cannot be completed uniquely).
  :func:`parse_pbn_deal_partial` reads such partial deals (and end positions,
  hands of fewer than 13 cards) instead, leaving the unknown cards out.

Anything else raises :class:`~croupier.errors.DealNotationError`.

>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
>>> [len(h) for h in hands], hands[1][0]
([13, 13, 13, 13], Card.parse('AH'))
>>> format_pbn_deal(hands, first="E")
'E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...'
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import BRIDGE_RANK_LETTERS, BRIDGE_SUITS, Card, Rank, Suit
from croupier.errors import DealNotationError, excerpt

__all__ = [
    "PBN_RANKS",
    "PBN_SEATS",
    "PBN_SUITS",
    "format_pbn_deal",
    "format_pbn_hand",
    "parse_pbn_deal",
    "parse_pbn_deal_partial",
    "parse_pbn_hand",
]

PBN_SEATS = "NESW"
"""Seat letters in PBN (and clockwise) order."""

PBN_SUITS: tuple[Suit, ...] = BRIDGE_SUITS
"""Suit order inside a PBN hand (the bridge order, spades first)."""

PBN_RANKS = BRIDGE_RANK_LETTERS
"""Rank order inside a PBN suit (the bridge order, ace first)."""

_RANK_OF_LETTER: dict[str, Rank] = {
    letter: Rank.parse(letter) for letter in PBN_RANKS if letter != "T"
} | {"T": Rank.TEN}
_ORDER_IN_SUIT: dict[Rank, int] = {_RANK_OF_LETTER[c]: i for i, c in enumerate(PBN_RANKS)}
# Cards are immutable: one of each, made once, serves every deal read.
_CARD: dict[tuple[Rank, Suit], Card] = {
    (rank, suit): Card(rank, suit) for rank in _ORDER_IN_SUIT for suit in PBN_SUITS
}


def format_pbn_hand(cards: Sequence[Card]) -> str:
    """One hand as ``S.H.D.C`` with ranks high to low (input order does not matter).

    >>> from croupier.cards import parse_cards
    >>> format_pbn_hand(parse_cards("2C AS TH KS"))
    'AK.T..2'
    """
    by_suit: dict[Suit, list[Rank]] = {s: [] for s in PBN_SUITS}
    for card in cards:
        if card.suit is None or card.copy != 0:
            raise DealNotationError(
                f"card {card.code!r} cannot appear in a PBN deal; "
                "expected cards of one standard 52-card deck"
            )
        by_suit[card.suit].append(card.rank)
    return ".".join(
        "".join(r.letter for r in sorted(by_suit[s], key=_ORDER_IN_SUIT.__getitem__))
        for s in PBN_SUITS
    )


def format_pbn_deal(hands: Sequence[Sequence[Card]], first: str = "N") -> str:
    """The PBN deal string of four hands given in ``N, E, S, W`` order.

    ``first`` is the seat written first (``N``, ``E``, ``S`` or ``W``); the
    hands follow clockwise from it.  Hands may have any size (PBN also writes
    partial deals); cards must come from one standard deck without jokers.

    >>> from croupier.cards import parse_cards
    >>> n = parse_cards("AS KS"); e = parse_cards("QH"); s = parse_cards("2C"); w = []
    >>> format_pbn_deal([n, e, s, w])
    'N:AK... .Q.. ...2 ...'
    >>> format_pbn_deal([n, e, s, w], first="W")
    'W:... AK... .Q.. ...2'
    """
    if len(hands) != 4:
        raise DealNotationError(f"a PBN deal has exactly 4 hands (N, E, S, W), got {len(hands)}")
    start = _seat_index(first)
    seen: set[Card] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                raise DealNotationError(f"card {card.code!r} appears twice in the deal")
            seen.add(card)
    parts = [format_pbn_hand(hands[(start + i) % 4]) for i in range(4)]
    return f"{PBN_SEATS[start]}:" + " ".join(parts)


def parse_pbn_hand(text: str) -> list[Card]:
    """Parse one ``S.H.D.C`` hand into cards (spades first, high to low).

    >>> [c.code for c in parse_pbn_hand("AK.t..2")]
    ['AS', 'KS', 'TH', '2C']
    """
    suits = text.split(".")
    if len(suits) != 4:
        raise DealNotationError(
            f"bad PBN hand {excerpt(text)}: expected 4 suits separated by 3 dots, "
            "like 'AK.QJ.T9.8765'"
        )
    cards: list[Card] = []
    for suit, ranks in zip(PBN_SUITS, suits, strict=True):
        last = -1
        for letter in ranks.upper():
            rank = _RANK_OF_LETTER.get(letter)
            if rank is None:
                raise DealNotationError(
                    f"bad rank {excerpt(letter)} in PBN hand {excerpt(text)}; "
                    "expected letters of AKQJT98765432"
                )
            pos = _ORDER_IN_SUIT[rank]
            if pos == last:
                raise DealNotationError(
                    f"card {rank.letter}{suit.letter} appears twice in PBN hand {excerpt(text)}"
                )
            last = pos
            cards.append(_CARD[rank, suit])
    return cards


def parse_pbn_deal(text: str) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    """Parse a PBN deal string into the hands of ``N, E, S, W`` (in that order).

    Ranks in a suit may come in any order; each returned hand lists its cards
    as written.  See the module docstring for the exact rules.

    >>> n, e, s, w = parse_pbn_deal(
    ...     "W:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."
    ... )
    >>> n[0].code, e[0].code, s[0].code, w[0].code
    ('AS', 'AH', 'AD', 'AC')
    >>> parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")[3][0].code
    'AC'
    >>> parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.")
    Traceback (most recent call last):
    ...
    croupier.errors.DealNotationError: PBN deal ... has 3 hands; expected 4 ...
    """
    hands = _read_hands(text)
    unknown = [i for i, h in enumerate(hands) if h is None]
    if len(unknown) > 1:
        raise DealNotationError(
            f"PBN deal {excerpt(text)} has {len(unknown)} unknown ('-') hands; at most one can be "
            "completed from the others"
        )
    _check_distinct(hands, text)
    full = _complete(hands)
    for i, hand in enumerate(full):
        if len(hand) != 13:
            raise DealNotationError(
                f"hand {PBN_SEATS[i]} in PBN deal {excerpt(text)} has {len(hand)} cards; "
                "every hand needs 13"
            )
    return full[0], full[1], full[2], full[3]


def parse_pbn_deal_partial(
    text: str,
) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    """Parse a PBN deal string that may leave cards out: hands of ``N, E, S, W``.

    As :func:`parse_pbn_deal`, but a deal need not be whole: an unknown hand
    (``-``) is returned empty and a hand may hold fewer than 13 cards (an end
    position).  One ``-`` hand beside three hands of 13 cards is still
    completed with the 13 missing cards.  Cards must still be distinct and no
    hand may hold more than 13.

    >>> n, e, s, w = parse_pbn_deal_partial("W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -")
    >>> [len(h) for h in (n, e, s, w)]
    [0, 13, 0, 13]
    >>> [len(h) for h in parse_pbn_deal_partial("N:AK... QJ... T9... 87...")]
    [2, 2, 2, 2]
    >>> parse_pbn_deal_partial("N:AKQJT98765432.A.. - - -")
    Traceback (most recent call last):
    ...
    croupier.errors.DealNotationError: hand N in PBN deal ... has 14 cards; a hand holds at most 13
    """
    hands = _read_hands(text)
    _check_distinct(hands, text)
    for i, hand in enumerate(hands):
        if hand is not None and len(hand) > 13:
            raise DealNotationError(
                f"hand {PBN_SEATS[i]} in PBN deal {excerpt(text)} has {len(hand)} cards; "
                "a hand holds at most 13"
            )
    unknown = [h for h in hands if h is None]
    if len(unknown) == 1 and all(len(h) == 13 for h in hands if h is not None):
        full = _complete(hands)
    else:
        full = [h if h is not None else [] for h in hands]
    return full[0], full[1], full[2], full[3]


def _read_hands(text: str) -> list[list[Card] | None]:
    """The hands of a deal string in ``N, E, S, W`` order, ``None`` for an unknown (``-``) one."""
    if not isinstance(text, str):
        raise DealNotationError(f"expected a PBN deal string, got {type(text).__name__}")
    body = text.strip()
    start = 0
    if len(body) >= 2 and body[1] == ":":
        start = _seat_index(body[0], context=text)
        body = body[2:]
    parts = body.split()
    if len(parts) != 4:
        raise DealNotationError(
            f"PBN deal {excerpt(text)} has {len(parts)} hands; expected 4 hands separated by "
            "spaces, like 'N:AKQ.JT9.876.5432 ...'"
        )
    hands: list[list[Card] | None] = [None] * 4
    for i, part in enumerate(parts):
        hands[(start + i) % 4] = None if part == "-" else parse_pbn_hand(part)
    return hands


def _check_distinct(hands: list[list[Card] | None], text: str) -> None:
    seen: dict[Card, int] = {}
    for i, hand in enumerate(hands):
        for card in hand or ():
            if card in seen:
                raise DealNotationError(
                    f"card {card.code!r} appears in both {PBN_SEATS[seen[card]]} and "
                    f"{PBN_SEATS[i]} in PBN deal {excerpt(text)}"
                )
            seen[card] = i


def _complete(hands: list[list[Card] | None]) -> list[list[Card]]:
    """The hands with one unknown hand (if any) given the cards no other hand holds."""
    held = {card for hand in hands for card in hand or ()}
    missing = [
        Card(_RANK_OF_LETTER[letter], suit)
        for suit in PBN_SUITS
        for letter in PBN_RANKS
        if Card(_RANK_OF_LETTER[letter], suit) not in held
    ]
    return [h if h is not None else missing for h in hands]


def _seat_index(seat: str, context: str | None = None) -> int:
    index = PBN_SEATS.find(seat.strip().upper()) if len(seat.strip()) == 1 else -1
    if index < 0:
        where = f" in PBN deal {excerpt(context)}" if context is not None else ""
        raise DealNotationError(
            f"bad first seat {excerpt(seat)}{where}; expected one of N, E, S, W"
        )
    return index
