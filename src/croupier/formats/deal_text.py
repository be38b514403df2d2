"""Deals as text for people: a compass diagram for bridge, a line per pile otherwise.

Hands are sorted in the game's card order (highest first) with suits grouped;
a void shows as ``—``.  A stack (a stock, a pond, a War pile) is shown in its
order, top first, and the stock (a remainder stack of more than 13 cards) only
when asked for.

>>> from croupier.dealing import deal_from_number, make_layout
>>> print(format_deal_text(deal_from_number(make_layout("bridge"), 0), header=False))
                 North
                 ♠ A K Q J 10 9 8 7 6 5 4 3 2
                 ♥ —
                 ♦ —
                 ♣ —
West                                East
♠ —                                 ♠ —
♥ —                                 ♥ A K Q J 10 9 8 7 6 5 4 3 2
♦ —                                 ♦ —
♣ A K Q J 10 9 8 7 6 5 4 3 2        ♣ —
                 South
                 ♠ —
                 ♥ —
                 ♦ A K Q J 10 9 8 7 6 5 4 3 2
                 ♣ —
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import BRIDGE_SUITS, Card, Suit, format_cards, parse_cards
from croupier.dealing.deal import Deal, deal_from_piles
from croupier.dealing.layout import Layout
from croupier.dealing.notation import sorted_hand
from croupier.errors import CardNotationError, DealNotationError, excerpt
from croupier.ranking.partitions import decimal
from croupier.seats import Seat

__all__ = [
    "format_deal_piles",
    "format_deal_text",
    "format_hand_text",
    "format_stack_text",
    "parse_deal_piles",
    "sorted_hand",
]

_SUITS = BRIDGE_SUITS


def _suit_line(cards: Sequence[Card], suit: Suit) -> str:
    ranks = [c.rank.label for c in cards if c.suit is suit]
    return f"{suit.symbol} " + (" ".join(ranks) if ranks else "—")


def format_hand_text(cards: Sequence[Card], order: str = "bridge") -> str:
    """One hand on one line, suits grouped: ``♠ A K  ♥ 10  ♣ 2``.

    >>> from croupier.cards import parse_cards
    >>> format_hand_text(parse_cards("2C AS TH KS"))
    '♠ A K  ♥ 10  ♣ 2'
    >>> format_hand_text([])
    '—'
    """
    groups: list[list[Card]] = []
    for card in sorted_hand(cards, order):
        if groups and groups[-1][0].suit == card.suit:
            groups[-1].append(card)
        else:
            groups.append([card])
    parts = []
    for group in groups:
        suit = group[0].suit
        if suit is None:
            parts.append(" ".join(c.code for c in group))
        else:
            parts.append(f"{suit.symbol} " + " ".join(c.rank.label for c in group))
    return "  ".join(parts) if parts else "—"


def format_stack_text(cards: Sequence[Card]) -> str:
    """A stack on one line, in its order, top first: ``9♠ 2♦ K♥ (top first)``.

    >>> from croupier.cards import parse_cards
    >>> format_stack_text(parse_cards("9S 2D KH")), format_stack_text([])
    ('9♠ 2♦ K♥ (top first)', '—')
    """
    if not cards:
        return "—"
    return format_cards(cards, "symbol") + " (top first)"


def _pile_text(deal: Deal, index: int, stock: bool) -> str:
    pile, cards = deal.layout.piles[index], deal.piles[index]
    if not stock and index == deal.layout.stock_pile:
        return f"{len(cards)} cards, face down"
    if pile.ordered:
        return format_stack_text(cards)
    return format_hand_text(cards, deal.layout.order)


def _header(deal: Deal, scheme: str, number: int, bits: bool) -> str:
    text = f"{deal.layout.game} deal {decimal(number)} (scheme {scheme}, method {deal.method}"
    if bits:
        text += f", {deal.bits_used:.2f} bits"
    return text + ")"


def _diagram(deal: Deal) -> list[str]:
    seats = {p.name: cards for p, cards in zip(deal.layout.piles, deal.piles, strict=True)}
    indent = " " * 17

    def block(seat: str) -> list[str]:
        cards = sorted_hand(seats[seat], deal.layout.order)
        return [Seat(seat).long_name] + [_suit_line(cards, s) for s in _SUITS]

    lines = [indent + line for line in block("N")]
    west, east = block("W"), block("E")
    width = max(36, max(len(w) for w in west) + 2)
    lines += [f"{w:<{width}}{e}".rstrip() for w, e in zip(west, east, strict=True)]
    lines += [indent + line for line in block("S")]
    return lines


def format_deal_text(
    deal: Deal,
    *,
    scheme: str = "croupier",
    bits: bool = False,
    header: bool = True,
    stock: bool = True,
) -> str:
    """A deal for people: compass diagram (bridge-like layouts) or a line per pile.

    ``header`` adds a first line with the game, deal number (in ``scheme``) and
    method; ``bits`` adds the bits used to it.  Stacks are shown top first;
    ``stock=False`` shows the stock (:attr:`~croupier.dealing.Layout.stock_pile`)
    as its number of cards only, as it lies on the table.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> print(format_deal_text(deal_from_number(make_layout("war").without_stacks(), 0)))
    war deal 0 (scheme croupier, method number)
    P1  ♠ A K Q J 10 9 8 7 6 5 4 3 2  ♥ A K Q J 10 9 8 7 6 5 4 3 2
    P2  ♦ A K Q J 10 9 8 7 6 5 4 3 2  ♣ A K Q J 10 9 8 7 6 5 4 3 2
    >>> print(format_deal_text(deal_from_number(make_layout("holdem", players=2), 0), stock=False))
    holdem deal 0 (scheme croupier, method number)
    P1     ♠ A K
    P2     ♠ Q J
    flop   ♠ 10 9 8
    turn   ♠ 7
    river  ♠ 6
    stock  43 cards, face down
    """
    lines: list[str] = []
    if header:
        lines.append(_header(deal, scheme, deal.number_in(scheme), bits))
    if deal.layout.bridge_like:
        lines += _diagram(deal)
    else:
        width = max(len(p.name) for p in deal.layout.piles)
        for i, pile in enumerate(deal.layout.piles):
            lines.append(f"{pile.name:<{width}}  {_pile_text(deal, i, stock)}")
    return "\n".join(lines)


def format_deal_piles(deal: Deal, *, remainder: bool = True) -> str:
    """The piles as card codes, piles separated by `` / `` (what ``croupier rank`` reads);
    stacks top first.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> format_deal_piles(deal_from_number(make_layout(hands=[2, 1], deck="stripped:AK"), 0))
    'AS KS / AH / KH AD KD AC KC'
    """
    layout = deal.layout
    count = len(layout.piles) if remainder or layout.remainder_name is None else -1
    shown = [
        cards if pile.ordered else sorted_hand(cards, layout.order)
        for pile, cards in zip(layout.piles[:count], deal.piles[:count], strict=True)
    ]
    return " / ".join(" ".join(c.code for c in cards) for cards in shown)


def parse_deal_piles(layout: Layout, text: str) -> Deal:
    """Read piles separated by ``/`` (in layout order; the remainder may be left out).

    >>> from croupier.dealing import make_layout
    >>> lay = make_layout(hands=[2, 1], deck="stripped:AK")
    >>> parse_deal_piles(lay, "AS KS / AH").number
    0
    >>> parse_deal_piles(lay, "AS KS / AS")
    Traceback (most recent call last):
    ...
    croupier.errors.DealNotationError: card AS is dealt twice (to P1 and P2)
    """
    parts = text.split("/")
    piles = []
    for i, part in enumerate(parts):
        try:
            piles.append(parse_cards(part))
        except CardNotationError as exc:
            raise DealNotationError(f"pile {i + 1} of {excerpt(text)}: {exc}") from None
    return deal_from_piles(layout, piles)
