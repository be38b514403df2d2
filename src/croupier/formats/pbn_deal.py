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
from collections.abc import Sequence
from typing import cast

from croupier._core.deal_text import whole_deal as _compiled_whole_deal
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
    "holdings_deal",
    "parse_pbn_deal",
    "parse_pbn_deal_partial",
    "parse_pbn_hand",
    "plain_hand",
    "sorted_pbn_deal",
    "suit_cards",
    "suit_mask",
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


# -- the fast path of plain deal strings ---------------------------------------------------------
# A deal string as writers write it (upper-case ranks in order, no card twice) is read with a few
# dictionary look-ups a hand: each suit's ranks name a 13-bit mask (bit r: rank r of PBN_RANKS),
# and each mask of each suit the sorted tuple of its cards, made once.  Anything else (lower
# case, ranks out of order, a card twice, a bad letter) goes the slow way, which says what is
# wrong; both ways give the same hands.
_SEAT_AT = {letter: i for i, letter in enumerate(PBN_SEATS)} | {
    letter.lower(): i for i, letter in enumerate(PBN_SEATS)
}
_FULL_SUIT = (1 << 13) - 1
# Both tables are filled as holdings are met (at most 8,192 holdings of each suit), so a small
# file costs no more than its own holdings.
_MASKS: dict[str, int] = {}  # a suit's ranks in order -> its mask
_SUIT_CARDS: list[list[tuple[Card, ...] | None]] = [[None] * (_FULL_SUIT + 1) for _ in range(4)]


def suit_mask(ranks: str) -> int | None:
    """The 13-bit mask (bit ``r``: rank ``PBN_RANKS[r]``) of a suit written the plain way.

    ``None`` unless ``ranks`` are upper-case rank letters in order, each once.

    >>> suit_mask("AK2"), suit_mask(""), suit_mask("KA"), suit_mask("ak")
    (4099, 0, None, None)
    """
    mask = _MASKS.get(ranks)
    return mask if mask is not None else _learn_mask(ranks)


def suit_cards(suit: int, mask: int) -> tuple[Card, ...]:
    """The cards of ``mask`` (see :func:`suit_mask`) in suit ``suit`` (0: spades ... 3: clubs).

    >>> [c.code for c in suit_cards(1, 4099)]
    ['AH', 'KH', '2H']
    """
    return _cards_of(suit, mask)


def plain_hand(suits: Sequence[str], used: list[int]) -> tuple[Card, ...] | None:
    """The sorted cards of a hand given as its four suits' ranks (spades first), plainly written.

    ``used`` holds the mask of each suit's cards given so far; the hand's are
    added to it.  ``None`` (and ``used`` unchanged) when a suit is not written
    the plain way (:func:`suit_mask`), a card was given before, or the hand holds
    more than 13 cards.

    >>> used = [0, 0, 0, 0]
    >>> [c.code for c in plain_hand(["AK", "", "Q", "2"], used)], used
    (['AS', 'KS', 'QD', '2C'], [3, 0, 4, 4096])
    >>> plain_hand(["A", "", "", ""], used) is None  # the ace of spades again
    True
    """
    get = _MASKS.get
    a, b, c, d = get(suits[0]), get(suits[1]), get(suits[2]), get(suits[3])
    if a is None or b is None or c is None or d is None:  # a holding not met yet
        learned = [suit_mask(x) for x in suits]
        if None in learned:
            return None
        a, b, c, d = (int(x or 0) for x in learned)
    if a & used[0] or b & used[1] or c & used[2] or d & used[3]:
        return None
    t0, t1, t2, t3 = _SUIT_CARDS
    h0, h1, h2, h3 = t0[a], t1[b], t2[c], t3[d]
    if h0 is None or h1 is None or h2 is None or h3 is None:
        h0, h1, h2, h3 = _cards_of(0, a), _cards_of(1, b), _cards_of(2, c), _cards_of(3, d)
    hand = h0 + h1 + h2 + h3
    if len(hand) > 13:
        return None
    used[0] |= a
    used[1] |= b
    used[2] |= c
    used[3] |= d
    return hand


def _learn_mask(ranks: str) -> int | None:
    """The mask of ``ranks`` if they are upper-case rank letters in order, each once."""
    mask, last = 0, -1
    for letter in ranks:
        place = PBN_RANKS.find(letter)
        if place <= last:  # not a rank letter (-1), out of order or twice
            return None
        mask |= 1 << place
        last = place
    _MASKS[ranks] = mask
    return mask


def _cards_of(suit: int, mask: int) -> tuple[Card, ...]:
    """The cards of ``mask`` in ``suit`` (0: spades), ace first: objects of BRIDGE_DECK."""
    cards = _SUIT_CARDS[suit][mask]
    if cards is None:
        cards = tuple(BRIDGE_DECK[13 * suit + r] for r in range(13) if mask >> r & 1)
        _SUIT_CARDS[suit][mask] = cards
    return cards


def sorted_pbn_deal(text: str) -> tuple[tuple[Card, ...], ...] | None:
    """The hands ``N, E, S, W`` of a plain deal string, sorted, or ``None`` to go the slow way.

    The hands are those :func:`parse_pbn_deal_partial` reads, each sorted spades
    first and ace high, made of the cards of :data:`~croupier.cards.BRIDGE_DECK`
    themselves.  ``None`` when the string is not written the plain way (upper
    case ranks in order, each card once, at most 13 a hand): then
    :func:`parse_pbn_deal_partial` reads it, or says what is wrong.

    >>> [len(h) for h in sorted_pbn_deal("W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -")]
    [0, 13, 0, 13]
    >>> sorted_pbn_deal("N:AKQ... QJ... - -") is None  # QS twice: the slow way says so
    True
    """
    if not isinstance(text, str):
        return None
    body = text.strip()
    start = 0
    if len(body) >= 2 and body[1] == ":":
        found = _SEAT_AT.get(body[0])
        if found is None:
            return None
        start, body = found, body[2:]
    whole = _whole_deal(body, start)
    if whole is not None:
        return whole
    parts = body.split(maxsplit=4)
    if len(parts) != 4:
        return None
    used = [0, 0, 0, 0]  # the cards given so far, suit by suit
    hands: list[tuple[Card, ...] | None] = [None, None, None, None]
    for i, part in enumerate(parts):
        if part == "-":
            continue
        suits = part.split(".", 4)
        if len(suits) != 4:
            return None
        hand = plain_hand(suits, used)
        if hand is None:
            return None
        hands[(start + i) & 3] = hand
    n, e, s, w = hands
    if n is not None and e is not None and s is not None and w is not None:
        return n, e, s, w  # (the usual case)
    known = [h for h in hands if h is not None]
    if len(known) == 3 and all(len(h) == 13 for h in known):
        f = _FULL_SUIT
        u0, u1, u2, u3 = used
        rest = (
            _cards_of(0, f ^ u0)
            + _cards_of(1, f ^ u1)
            + _cards_of(2, f ^ u2)
            + _cards_of(3, f ^ u3)
        )
        return tuple(rest if h is None else h for h in hands)
    return tuple(() if h is None else h for h in hands)


# Each suit's holdings met so far (ranks as written -> the 52-bit mask of their cards, and the
# cards): at most 8,192 a suit.
_HOLDINGS: tuple[dict[str, tuple[int, tuple[Card, ...]]], ...] = ({}, {}, {}, {})
_WHOLE_DEAL = (1 << 52) - 1


def _holding(suit: int, ranks: str) -> tuple[int, tuple[Card, ...]] | None:
    """The mask and cards of ``ranks`` in ``suit`` if written the plain way, now known."""
    mask = suit_mask(ranks)
    if mask is None:
        return None
    found = _HOLDINGS[suit][ranks] = (mask << (13 * suit), _cards_of(suit, mask))
    return found


def _whole_deal(body: str, start: int) -> tuple[tuple[Card, ...], ...] | None:
    """The usual case of :func:`sorted_pbn_deal`: four known hands of 13 cards, one space
    apart, each suit written the plain way; ``None`` for anything else (the general way).

    Compiled (:func:`croupier._core.deal_text.whole_deal`); :func:`_whole_deal_reference`
    is the same in Python, and the tests hold the two to the same answers.
    """
    return _compiled_whole_deal(body, start, BRIDGE_DECK)


def _whole_deal_reference(body: str, start: int) -> tuple[tuple[Card, ...], ...] | None:
    """:func:`_whole_deal` in plain Python (the specification of the compiled kernel)."""
    hands = body.split(" ", 4)
    if len(hands) != 4 or any(hand.count(".") != 3 for hand in hands):
        return None  # four hands of four suits each (not 16 holdings grouped otherwise)
    return _sixteen_holdings(body.replace(" ", ".").split("."), start)


def _sixteen_holdings(parts: list[str], start: int) -> tuple[tuple[Card, ...], ...] | None:
    """:func:`holdings_deal` of four hands, unrolled: the holdings looked up in a row."""
    s0, s1, s2, s3 = _HOLDINGS
    try:
        a0, b0, c0, d0 = s0[parts[0]], s1[parts[1]], s2[parts[2]], s3[parts[3]]
        a1, b1, c1, d1 = s0[parts[4]], s1[parts[5]], s2[parts[6]], s3[parts[7]]
        a2, b2, c2, d2 = s0[parts[8]], s1[parts[9]], s2[parts[10]], s3[parts[11]]
        a3, b3, c3, d3 = s0[parts[12]], s1[parts[13]], s2[parts[14]], s3[parts[15]]
    except KeyError:  # a holding met for the first time
        return _learning_holdings(parts, start)
    m0, m1 = a0[0] | b0[0] | c0[0] | d0[0], a1[0] | b1[0] | c1[0] | d1[0]
    m2, m3 = a2[0] | b2[0] | c2[0] | d2[0], a3[0] | b3[0] | c3[0] | d3[0]
    if m0 | m1 | m2 | m3 != _WHOLE_DEAL or m0 + m1 + m2 + m3 != _WHOLE_DEAL:
        return None  # a card twice (or missing)
    h0, h1 = a0[1] + b0[1] + c0[1] + d0[1], a1[1] + b1[1] + c1[1] + d1[1]
    h2, h3 = a2[1] + b2[1] + c2[1] + d2[1], a3[1] + b3[1] + c3[1] + d3[1]
    if not 13 == len(h0) == len(h1) == len(h2) == len(h3):
        return None
    if start == 0:
        return h0, h1, h2, h3
    if start == 1:  # the hands as written start with East's: seat k holds hand k - start
        return h3, h0, h1, h2
    if start == 2:
        return h2, h3, h0, h1
    return h1, h2, h3, h0


def holdings_deal(parts: Sequence[str], start: int) -> tuple[tuple[Card, ...], ...] | None:
    """The sorted hands of a whole deal given as its holdings, or ``None``.

    ``parts`` are the ranks of each suit (spades first, written the plain way:
    :func:`suit_mask`) of four hands of 13 cards, or of three (the fourth is then
    the 13 cards left); hand ``i`` of ``parts`` sits at seat ``(start + i) % 4``
    (0: North).  ``None`` unless every card is given once (or, of three hands, at most
    once), 13 to a hand.

    >>> whole = ["AKQJT98765432", "", "", ""] * 3
    >>> whole[5], whole[10] = whole[4], whole[8]
    >>> whole[4], whole[8] = "", ""
    >>> [len(h) for h in holdings_deal(whole, 1)], holdings_deal(whole, 1)[0][0].code
    ([13, 13, 13, 13], 'AC')
    """
    if len(parts) == 16:
        return _sixteen_holdings(list(parts), start)
    return _learning_holdings(parts, start)


def _learning_holdings(parts: Sequence[str], start: int) -> tuple[tuple[Card, ...], ...] | None:
    """:func:`holdings_deal`, learning the holdings it meets for the first time."""
    s0, s1, s2, s3 = _HOLDINGS
    hands: list[tuple[Card, ...]] = [(), (), (), ()]
    union = total = 0
    for i in range(0, len(parts), 4):
        try:
            a, b, c, d = s0[parts[i]], s1[parts[i + 1]], s2[parts[i + 2]], s3[parts[i + 3]]
        except KeyError:  # a holding met for the first time
            known = [_holding(suit, parts[i + suit]) for suit in range(4)]
            if None in known:
                return None
            a, b, c, d = cast(list[tuple[int, tuple[Card, ...]]], known)
        hand = a[1] + b[1] + c[1] + d[1]
        if len(hand) != 13:
            return None
        mask = a[0] | b[0] | c[0] | d[0]
        union |= mask
        total += mask
        hands[(start + (i >> 2)) & 3] = hand
    if union != total:  # a card twice
        return None
    if len(parts) == 12:
        rest = _WHOLE_DEAL ^ union
        hands[(start + 3) & 3] = tuple(
            card for suit in range(4) for card in _cards_of(suit, rest >> (13 * suit) & _FULL_SUIT)
        )
    elif len(parts) != 16 or union != _WHOLE_DEAL:
        return None
    return tuple(hands)


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
