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

Anything else raises :class:`~croupier.errors.DealNotationError`.  The writers,
:func:`format_pbn_hand` and :func:`format_pbn_deal`, live with the deal they write
(:mod:`croupier.dealing.notation`, behind ``Deal.pbn``) and are re-exported here.

>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
>>> [len(h) for h in hands], hands[1][0]
([13, 13, 13, 13], Card.parse('AH'))
>>> format_pbn_deal(hands, first="E")
'E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...'
"""

from __future__ import annotations

import re

from croupier.cards import BRIDGE_DECK, BRIDGE_RANK_LETTERS, BRIDGE_SUITS, Card, Rank, Suit
from croupier.dealing.notation import first_seat as _first_seat
from croupier.dealing.notation import format_pbn_deal, format_pbn_hand
from croupier.errors import DealNotationError, masked_excerpt
from croupier.seats import SEATS, Seat

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

PBN_SEATS = "".join(s.letter for s in SEATS)
"""``"NESW"``: the seat letters in PBN (and clockwise) order (:data:`croupier.seats.SEATS`)."""

PBN_SUITS: tuple[Suit, ...] = BRIDGE_SUITS
"""Suit order inside a PBN hand (the bridge order, spades first)."""

PBN_RANKS = BRIDGE_RANK_LETTERS
"""Rank order inside a PBN suit (the bridge order, ace first)."""

_RANK_OF_LETTER: dict[str, Rank] = {
    letter: Rank.parse(letter) for letter in PBN_RANKS if letter != "T"
} | {"T": Rank.TEN}
# Cards are immutable: one of each (those of BRIDGE_DECK) serves every deal read.  Every card
# a deal string gives is one of these, so the checks below tell cards apart by identity
# (``id``), many times faster than by the hash of a Card.
_CARD: dict[tuple[Rank, Suit | None], Card] = {(card.rank, card.suit): card for card in BRIDGE_DECK}
# A suit of at most 13 rank letters (upper case); with no letter twice, it is read at once.
_PLAIN_SUIT = re.compile(r"[AKQJT98765432]{0,13}")
# For each suit (spades first): rank letter -> (place in the suit, card).
_SUIT_TABLES: tuple[dict[str, tuple[int, Card]], ...] = tuple(
    {letter: (i, _CARD[_RANK_OF_LETTER[letter], suit]) for i, letter in enumerate(PBN_RANKS)}
    for suit in PBN_SUITS
)


def parse_pbn_hand(text: str) -> list[Card]:
    """Parse one ``S.H.D.C`` hand into cards (spades first, high to low).

    >>> [c.code for c in parse_pbn_hand("AK.t..2")]
    ['AS', 'KS', 'TH', '2C']
    """
    suits = text.split(".", 4)  # never a list of a million pieces
    if len(suits) != 4:
        raise DealNotationError(
            f"bad PBN hand {masked_excerpt(text)}: expected 4 suits separated by 3 dots, "
            "like 'AK.QJ.T9.8765'"
        )
    cards: list[Card] = []
    for table, ranks in zip(_SUIT_TABLES, suits, strict=True):
        upper = ranks.upper()
        if _PLAIN_SUIT.fullmatch(upper) and len(set(upper)) == len(upper):  # the usual case
            cards += [table[letter][1] for letter in upper]
            continue
        last = -1
        for count, letter in enumerate(upper):
            found = table.get(letter)
            if found is None:
                raise DealNotationError(
                    f"bad rank {masked_excerpt(letter)} in PBN hand {masked_excerpt(text)}; "
                    "expected letters of AKQJT98765432"
                )
            if count == len(PBN_RANKS):  # stop at once: the suit may be megabytes long
                raise DealNotationError(
                    f"bad PBN hand {masked_excerpt(text)}: more than 13 ranks in one suit "
                    "(a suit has 13 cards AKQJT98765432)"
                )
            pos, card = found
            if pos == last:
                raise DealNotationError(
                    f"card {card.code} appears twice in PBN hand {masked_excerpt(text)}"
                )
            last = pos
            cards.append(card)
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
            f"PBN deal {masked_excerpt(text)} has {len(unknown)} unknown ('-') hands; at most one "
            "can be completed from the others"
        )
    _check_distinct(hands, text)
    full = _complete(hands)
    for i, hand in enumerate(full):
        if len(hand) != 13:
            raise DealNotationError(
                f"hand {SEATS[i]} in PBN deal {masked_excerpt(text)} has {len(hand)} cards; "
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
                f"hand {SEATS[i]} in PBN deal {masked_excerpt(text)} has {len(hand)} cards; "
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
    start = Seat.NORTH
    if len(body) >= 2 and body[1] == ":":
        start = _first_seat(body[0], context=text)
        body = body[2:]
    parts = body.split(maxsplit=4)  # never a list of a million pieces
    if len(parts) != 4:
        count = "more than 4" if len(parts) > 4 else str(len(parts))
        raise DealNotationError(
            f"PBN deal {masked_excerpt(text)} has {count} hands; expected 4 hands separated by "
            "spaces, like 'N:AKQ.JT9.876.5432 ...'"
        )
    hands: list[list[Card] | None] = [None] * 4
    for seat, part in zip(start.clockwise(), parts, strict=True):
        hands[seat.position] = None if part == "-" else parse_pbn_hand(part)
    return hands


def _check_distinct(hands: list[list[Card] | None], text: str) -> None:
    given = sum(len(hand) for hand in hands if hand)
    if len({id(card) for hand in hands for card in hand or ()}) == given:
        return  # the usual case: no card twice
    seen: dict[int, int] = {}  # id of a card (one of _CARD's) -> its hand
    for i, hand in enumerate(hands):
        for card in hand or ():
            if id(card) in seen:
                raise DealNotationError(
                    f"card {card.code!r} appears in both {SEATS[seen[id(card)]]} and "
                    f"{SEATS[i]} in PBN deal {masked_excerpt(text)}"
                )
            seen[id(card)] = i


def _complete(hands: list[list[Card] | None]) -> list[list[Card]]:
    """The hands with one unknown hand (if any) given the cards no other hand holds."""
    held = {id(card) for hand in hands for card in hand or ()}
    missing = [card for card in BRIDGE_DECK if id(card) not in held]
    return [h if h is not None else missing for h in hands]
