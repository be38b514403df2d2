"""Deals as HTML for notebooks: a compass diagram for bridge-like deals, a table otherwise.

A bridge-like deal (four 13-card hands N, E, S, W) shows North at the top, West
and East at the sides and South at the bottom, each hand a line per suit
(spades, hearts, diamonds, clubs; a void as ``—``), hearts and diamonds red.
Any other deal is a table with a row per pile (hands, shared piles, the
remainder), a set's cards grouped by suit, highest first in the game's order,
a stack's cards in their order, top first.
Each card carries its code in ``data-card``.  Rendering is pure: no
randomness, no I/O.

>>> from croupier.dealing.deal import deal_from_number
>>> from croupier.dealing.layout import make_layout
>>> page = deal_html(deal_from_number(make_layout("bridge"), 0))
>>> page.count("data-card="), page.index(">North<") < page.index(">South<")
(52, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import BRIDGE_SUITS, Card
from croupier.dealing.deal import Deal
from croupier.dealing.notation import sorted_hand
from croupier.html import VOID, card_html, escape, suit_row_html, table_html
from croupier.orders import get_order
from croupier.ranking.partitions import decimal
from croupier.seats import SEATS, Seat

__all__ = ["deal_html", "deals_table_html", "hand_html", "stack_html"]

_SUITS = BRIDGE_SUITS
_SHOWN_DIGITS = 60  # longer deal numbers (decks of hundreds of cards) are cut in the middle
_BIG_REMAINDER = 13  # a remainder pile of more cards (a stock) is left out of deal tables


def hand_html(cards: Sequence[Card], order: str = "bridge") -> str:
    """One hand on one line, grouped by suit (highest suit and card first), jokers last.

    Suits the hand lacks are left out; an empty hand shows as ``—``.

    >>> from croupier.cards import parse_cards
    >>> html = hand_html(parse_cards("2C AS TH KS"))
    >>> [html.index(f'data-card="{c}"') for c in ("AS", "KS", "TH", "2C")] == sorted(
    ...     html.index(f'data-card="{c}"') for c in ("AS", "KS", "TH", "2C"))
    True
    >>> hand_html([])
    '<span class="croupier-hand">—</span>'
    """
    ranked = sorted_hand(cards, order)
    suits = get_order(order).suits or _SUITS
    groups = [suit_row_html(s, ranked) for s in suits if any(c.suit is s for c in ranked)]
    groups += [card_html(c) for c in ranked if c.is_joker]
    return '<span class="croupier-hand">' + ("&ensp; ".join(groups) or VOID) + "</span>"


def stack_html(cards: Sequence[Card]) -> str:
    """A stack on one line, in its order (top first), marked as such; empty as ``—``.

    >>> from croupier.cards import parse_cards
    >>> html = stack_html(parse_cards("2C AS"))
    >>> html.index('data-card="2C"') < html.index('data-card="AS"'), "top first" in html
    (True, True)
    """
    if not cards:
        return '<span class="croupier-stack">' + VOID + "</span>"
    shown = " ".join(card_html(c) for c in cards)
    return f'<span class="croupier-stack" title="top first">{shown} <i>(top first)</i></span>'


def _pile_html(cards: Sequence[Card], ordered: bool, order: str) -> str:
    return stack_html(cards) if ordered else hand_html(cards, order)


def _number_text(deal: Deal) -> str:
    digits = decimal(deal.number)
    if len(digits) <= _SHOWN_DIGITS:
        return digits
    return f"{digits[:40]}…{digits[-10:]} ({len(digits):,} digits)"


def _caption(deal: Deal) -> str:
    text = f"{deal.layout.game} deal {_number_text(deal)} (method {deal.method}"
    if deal.bits_used:
        text += f", {deal.bits_used:.2f} bits"
    return text + ")"


def _seat_html(seat: str, cards: Sequence[Card], order: str) -> str:
    ranked = sorted_hand(cards, order)
    rows = "<br>".join(suit_row_html(s, ranked) for s in _SUITS)
    return (
        f'<div class="croupier-hand" data-seat="{escape(seat)}" style="white-space:nowrap">'
        f"<b>{escape(Seat(seat).long_name)}</b><br>{rows}</div>"
    )


_COMPASS_ROSE = (
    '<div style="display:inline-block;border:1px solid #999;padding:4px 10px;'
    'text-align:center;line-height:1.2">N<br>W&emsp;E<br>S</div>'
)


def _compass(deal: Deal) -> str:
    order = deal.layout.order
    seats = {p.name: cards for p, cards in zip(deal.layout.piles, deal.piles, strict=True)}
    hand = {seat.letter: _seat_html(seat.letter, seats[seat], order) for seat in SEATS}
    rows = [
        ["", hand["N"], ""],
        [hand["W"], _COMPASS_ROSE, hand["E"]],
        ["", hand["S"], ""],
    ]
    return table_html(rows, caption=_caption(deal), kind="deal")


def _piles(deal: Deal) -> str:
    order = deal.layout.order
    rows = [
        [
            escape(pile.name) if pile.is_hand else f"<i>{escape(pile.name)}</i>",
            str(len(cards)),
            _pile_html(cards, pile.ordered, order),
        ]
        for pile, cards in zip(deal.layout.piles, deal.piles, strict=True)
    ]
    return table_html(rows, header=["pile", "cards", ""], caption=_caption(deal), kind="deal")


def deal_html(deal: Deal) -> str:
    """``deal`` as HTML: a compass diagram for bridge-like layouts, else a table of piles.

    The caption names the game, the deal number (``croupier`` scheme), the
    method and the bits used.

    >>> from croupier.dealing.deal import deal_from_number
    >>> from croupier.dealing.layout import make_layout
    >>> page = deal_html(deal_from_number(make_layout("skat"), 0))
    >>> page.count("data-card="), "<i>skat</i>" in page
    (32, True)
    >>> "top first" in deal_html(deal_from_number(make_layout("euchre"), 0))
    True
    """
    if deal.layout.bridge_like:
        return _compass(deal)
    return _piles(deal)


def deals_table_html(deals: Sequence[Deal], *, caption: str, first: int = 0) -> str:
    """Several deals of one layout as a table: a row per deal, a column per pile.

    Rows are numbered from ``first``; a remainder of more than 13 cards (the
    stock of most games) is left out.  Each hand is grouped by suit, highest
    first (:func:`hand_html`); a stack is shown in its order (:func:`stack_html`).

    >>> from croupier.dealing.deal import deal_from_number
    >>> from croupier.dealing.layout import make_layout
    >>> lay = make_layout("holdem", players=2)
    >>> page = deals_table_html([deal_from_number(lay, k) for k in (0, 1)], caption="two")
    >>> page.count("<tr>"), page.count("data-card="), ">stock<" in page
    (3, 18, False)
    """
    if not deals:
        return table_html([], caption=caption, kind="deals")
    layout = deals[0].layout
    shown = [
        i
        for i, pile in enumerate(layout.piles)
        if pile.is_hand or pile.name != layout.remainder_name or pile.size <= _BIG_REMAINDER
    ]
    header = ["deal", *(layout.piles[i].name for i in shown)]
    rows = [
        [
            str(first + k),
            *(_pile_html(deal.piles[i], layout.piles[i].ordered, layout.order) for i in shown),
        ]
        for k, deal in enumerate(deals)
    ]
    return table_html(rows, header=header, caption=caption, kind="deals")
