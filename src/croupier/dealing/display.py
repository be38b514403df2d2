"""Deals as HTML for notebooks: a compass diagram for bridge-like deals, a table otherwise.

A bridge-like deal (four 13-card hands N, E, S, W) shows North at the top, West
and East at the sides and South at the bottom, each hand a line per suit
(spades, hearts, diamonds, clubs; a void as ``—``), hearts and diamonds red.
Any other deal is a table with a row per pile (hands, shared piles, the
remainder), its cards grouped by suit, highest first in the game's order.
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
from croupier.html import VOID, card_html, escape, suit_row_html, table_html
from croupier.orders import get_order, sort_cards
from croupier.ranking.partitions import decimal

__all__ = ["deal_html", "hand_html"]

_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_SUITS = BRIDGE_SUITS
_SHOWN_DIGITS = 60  # longer deal numbers (decks of hundreds of cards) are cut in the middle


def _sorted(cards: Sequence[Card], order: str) -> list[Card]:
    """Highest first in ``order``, jokers last (as the text diagrams show them)."""
    plain = [c for c in cards if not c.is_joker]
    return sort_cards(plain, order, descending=True) + [c for c in cards if c.is_joker]


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
    ranked = _sorted(cards, order)
    suits = get_order(order).suits or _SUITS
    groups = [suit_row_html(s, ranked) for s in suits if any(c.suit is s for c in ranked)]
    groups += [card_html(c) for c in ranked if c.is_joker]
    return '<span class="croupier-hand">' + ("&ensp; ".join(groups) or VOID) + "</span>"


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
    ranked = _sorted(cards, order)
    rows = "<br>".join(suit_row_html(s, ranked) for s in _SUITS)
    return (
        f'<div class="croupier-hand" data-seat="{escape(seat)}" style="white-space:nowrap">'
        f"<b>{escape(_SEAT_NAMES[seat])}</b><br>{rows}</div>"
    )


_COMPASS_ROSE = (
    '<div style="display:inline-block;border:1px solid #999;padding:4px 10px;'
    'text-align:center;line-height:1.2">N<br>W&emsp;E<br>S</div>'
)


def _compass(deal: Deal) -> str:
    order = deal.layout.order
    seats = {p.name: cards for p, cards in zip(deal.layout.piles, deal.piles, strict=True)}
    hand = {seat: _seat_html(seat, seats[seat], order) for seat in _SEAT_NAMES}
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
            hand_html(cards, order),
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
    """
    if deal.layout.bridge_like:
        return _compass(deal)
    return _piles(deal)
