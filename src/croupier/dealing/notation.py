"""A deal on one line: the PBN deal string, and dealer's one-line listing.

Pure text from cards (no randomness, no I/O), the notations a
:class:`~croupier.dealing.deal.Deal` writes itself in (``Deal.pbn``,
``Deal.oneline``).  :mod:`croupier.formats.pbn_deal` reads PBN deal strings and
re-exports the writers here; the bulk writers (:mod:`croupier.bulk.writers`) write
the same lines for whole deal arrays at once.

* A PBN deal names the first seat, then the four hands clockwise from it, each
  ``spades.hearts.diamonds.clubs`` with ranks ``AKQJT98765432``, a void empty:
  ``N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432``.
* dealer's one-line listing (``printoneline``) is ``n <N> e <E> s <S> w <W>``
  for bridge, hands as in PBN; any other layout lists every pile (the
  remainder too) with its cards highest first in the game's order, a stack
  in its order, top first: ``P1 AS KS | P2 AH | stock KH AD KD AC KC``.

>>> from croupier.cards import parse_cards
>>> format_pbn_deal([parse_cards("AS KS"), parse_cards("QH"), parse_cards("2C"), []])
'N:AK... .Q.. ...2 ...'
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import BRIDGE_RANKS, BRIDGE_SUITS, Card, Rank, Suit
from croupier.dealing.layout import Layout
from croupier.errors import DealNotationError, masked_excerpt
from croupier.orders import get_order, sort_cards
from croupier.seats import SEATS, Seat

__all__ = [
    "first_seat",
    "format_oneline",
    "format_pbn_deal",
    "format_pbn_hand",
    "sorted_hand",
]

_ORDER_IN_SUIT: dict[Rank, int] = {rank: i for i, rank in enumerate(BRIDGE_RANKS)}


def sorted_hand(cards: Sequence[Card], order: str = "bridge") -> list[Card]:
    """``cards`` sorted highest first in ``order``, suits grouped, jokers last.

    >>> from croupier.cards import parse_cards
    >>> [c.code for c in sorted_hand(parse_cards("2C AH TS KH"))]
    ['TS', 'AH', 'KH', '2C']
    >>> [c.code for c in sorted_hand(parse_cards("KH TH AH"), "pinochle")]
    ['AH', 'TH', 'KH']
    """
    o = get_order(order)
    plain = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    return sort_cards(plain, o, descending=True) + jokers


def format_pbn_hand(cards: Sequence[Card]) -> str:
    """One hand as ``S.H.D.C`` with ranks high to low (input order does not matter).

    >>> from croupier.cards import parse_cards
    >>> format_pbn_hand(parse_cards("2C AS TH KS"))
    'AK.T..2'
    """
    by_suit: dict[Suit, list[Rank]] = {s: [] for s in BRIDGE_SUITS}
    for card in cards:
        if card.suit is None or card.copy != 0:
            raise DealNotationError(
                f"card {card.code!r} cannot appear in a PBN deal; "
                "expected cards of one standard 52-card deck"
            )
        by_suit[card.suit].append(card.rank)
    return ".".join(
        "".join(r.letter for r in sorted(by_suit[s], key=_ORDER_IN_SUIT.__getitem__))
        for s in BRIDGE_SUITS
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
    start = first_seat(first)
    seen: set[Card] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                raise DealNotationError(f"card {card.code!r} appears twice in the deal")
            seen.add(card)
    parts = [format_pbn_hand(hands[seat.position]) for seat in start.clockwise()]
    return f"{start.letter}:" + " ".join(parts)


def first_seat(seat: str, context: str | None = None) -> Seat:
    """The seat a PBN deal string starts with: one letter, any case.

    >>> first_seat("w")
    <Seat.WEST: 'W'>
    """
    letter = seat.strip().upper() if isinstance(seat, str) else ""
    if len(letter) == 1 and letter in SEATS:
        return Seat(letter)
    where = f" in PBN deal {masked_excerpt(context)}" if context is not None else ""
    shown = masked_excerpt(seat) if isinstance(seat, str) else type(seat).__name__
    raise DealNotationError(f"bad first seat {shown}{where}; expected one of N, E, S, W")


def format_oneline(layout: Layout, piles: Sequence[Sequence[Card]]) -> str:
    """The piles of a deal of ``layout`` on one line, as dealer's ``printoneline`` writes them.

    Bridge-like layouts: ``n <N> e <E> s <S> w <W>`` (hands as in PBN; dealer
    ends the line with one more space, which this leaves out).  Any other:
    every pile's name and cards, highest first in the game's order (a stack
    as given, top first), piles separated by `` | ``.

    >>> from croupier.cards import parse_cards
    >>> from croupier.dealing.layout import make_layout
    >>> lay = make_layout(hands=[2, 1], deck="stripped:AK")
    >>> format_oneline(lay, [parse_cards(p) for p in ("KS AS", "AH", "KH AD KD AC KC")])
    'P1 AS KS | P2 AH | stock KH AD KD AC KC'
    >>> piles = [parse_cards(p) for p in ("KS AS", "AH", "KC AD KD AC KH")]
    >>> format_oneline(lay.with_stacks("stock"), piles)
    'P1 AS KS | P2 AH | stock KC AD KD AC KH'
    """
    if layout.bridge_like:
        hands = (format_pbn_hand(cards) for cards in piles)
        return " ".join(
            f"{seat.letter.lower()} {hand}" for seat, hand in zip(SEATS, hands, strict=True)
        )
    parts = []
    for pile, cards in zip(layout.piles, piles, strict=True):
        shown = cards if pile.ordered else sorted_hand(cards, layout.order)
        codes = " ".join(c.code for c in shown)
        parts.append(f"{pile.name} {codes}" if codes else pile.name)
    return " | ".join(parts)
