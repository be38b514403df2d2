"""HTML snippets for cards, for notebooks (Jupyter's ``_repr_html_``) and web pages.

Every snippet is a small, self-contained piece of HTML with inline styles (a
notebook strips ``<style>`` sheets from some outputs): hearts and diamonds are
red, spades, clubs and jokers keep the page's text colour, so the snippets read
on light and dark themes.  Each card carries its code in ``data-card`` and its
name as a tooltip.  All text is escaped.  Rendering is pure: no randomness, no
I/O.

>>> from croupier.cards import parse_cards
>>> cards_html(parse_cards("AS 10H"))
'<span class="croupier-cards"><span class="croupier-card" data-card="AS"
title="Ace of Spades">A♠</span> <span class="croupier-card" style="color:#c00000"
data-card="TH" title="10 of Hearts">10♥</span></span>'
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from croupier.cards import Card, Suit, format_card
from croupier.errors import CardNotationError

__all__ = [
    "RED",
    "VOID",
    "card_html",
    "cards_html",
    "escape",
    "rank_html",
    "suit_html",
    "suit_row_html",
    "table_html",
]

RED = "#c00000"
"""The colour of hearts and diamonds (a dark red that reads on white and on dark themes)."""

VOID = "—"
"""What an empty hand, pile or suit shows."""


def escape(text: object) -> str:
    """``str(text)`` with ``& < > " '`` escaped, safe inside element text and attribute values.

    >>> escape('<b title="x">&</b>')
    '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


def _style(red: bool) -> str:
    return f' style="color:{RED}"' if red else ""


def _card(card: Card) -> Card:
    if not isinstance(card, Card):
        raise CardNotationError(f"expected a card, got {card!r} ({type(card).__name__})")
    return card


def _card_attributes(card: Card) -> str:
    code = escape(format_card(card, "short"))
    return f'data-card="{code}" title="{escape(format_card(card, "long"))}"'


def suit_html(suit: Suit) -> str:
    """The suit symbol as HTML, red for hearts and diamonds.

    >>> suit_html(Suit.HEARTS)
    '<span class="croupier-suit" style="color:#c00000" title="Hearts">♥</span>'
    >>> suit_html(Suit.SPADES)
    '<span class="croupier-suit" title="Spades">♠</span>'
    """
    if not isinstance(suit, Suit):
        raise CardNotationError(f"expected a Suit, got {suit!r} ({type(suit).__name__})")
    return (
        f'<span class="croupier-suit"{_style(suit.is_red)} title="{escape(suit.long_name)}">'
        f"{escape(suit.symbol)}</span>"
    )


def card_html(card: Card) -> str:
    """One card as an HTML ``<span>``: rank and suit symbol, its code and long name attached.

    Hearts and diamonds are red; a copy of a shoe keeps its ``#k`` suffix so
    identical cards stay distinguishable; jokers show as ``JK``.

    >>> card_html(Card.parse("QD"))
    '<span class="croupier-card" style="color:#c00000" data-card="QD"
    title="Queen of Diamonds">Q♦</span>'
    >>> card_html(Card.parse("AS#2"))
    '<span class="croupier-card" data-card="AS#2" title="Ace of Spades #2">A♠#2</span>'
    >>> card_html(Card.joker())
    '<span class="croupier-card" data-card="JK" title="Joker">JK</span>'
    """
    card = _card(card)
    return (
        f'<span class="croupier-card"{_style(card.is_red)} {_card_attributes(card)}>'
        f"{escape(format_card(card, 'symbol'))}</span>"
    )


def rank_html(card: Card) -> str:
    """A card shown by its rank alone (for hands grouped by suit); jokers show as ``JK``.

    The span still names the whole card (``data-card`` and the tooltip), copy included.

    >>> rank_html(Card.parse("TH#2"))
    '<span class="croupier-rank" data-card="TH#2" title="10 of Hearts #2">10</span>'
    """
    card = _card(card)
    shown = "JK" if card.is_joker else card.rank.label
    return f'<span class="croupier-rank" {_card_attributes(card)}>{escape(shown)}</span>'


def suit_row_html(suit: Suit, cards: Iterable[Card]) -> str:
    """The cards of ``suit`` among ``cards`` (in the order given): the suit symbol, then ranks.

    A void shows as ``—``.  Cards of other suits are left out.

    >>> from croupier.cards import parse_cards
    >>> suit_row_html(Suit.CLUBS, parse_cards("AC 7C KH"))
    '<span class="croupier-suit" title="Clubs">♣</span> <span class="croupier-rank"
    data-card="AC" title="Ace of Clubs">A</span> <span class="croupier-rank" data-card="7C"
    title="7 of Clubs">7</span>'
    >>> suit_row_html(Suit.HEARTS, [])
    '<span class="croupier-suit" style="color:#c00000" title="Hearts">♥</span> —'
    """
    ranks = [rank_html(c) for c in cards if _card(c).suit is suit]
    return f"{suit_html(suit)} " + (" ".join(ranks) if ranks else VOID)


def cards_html(cards: Sequence[Card] | Iterable[Card], sep: str = " ") -> str:
    """Several cards as one HTML ``<span>``, each card coloured, joined by ``sep`` (escaped).

    An empty sequence shows as ``—``.  Every card is shown, however many (a
    six-deck shoe is 312 short spans).

    >>> cards_html([Card.parse("KH"), Card.parse("2C")], sep=", ")
    '<span class="croupier-cards"><span class="croupier-card" style="color:#c00000"
    data-card="KH" title="King of Hearts">K♥</span>, <span class="croupier-card"
    data-card="2C" title="2 of Clubs">2♣</span></span>'
    >>> cards_html([])
    '<span class="croupier-cards">—</span>'
    """
    if not isinstance(cards, Iterable) or isinstance(cards, str):
        raise CardNotationError(
            f"expected a sequence of cards, got {type(cards).__name__}; "
            "parse text first with parse_cards"
        )
    inner = escape(sep).join(card_html(c) for c in cards)
    return f'<span class="croupier-cards">{inner or VOID}</span>'


_CELL = 'style="text-align:left;vertical-align:top;padding:2px 8px"'


def table_html(
    rows: Iterable[Sequence[str]],
    *,
    header: Sequence[str] = (),
    caption: str = "",
    kind: str = "table",
) -> str:
    """An HTML table.  Cells of ``rows`` are HTML fragments (escape text first with
    :func:`escape`); ``header`` and ``caption`` are plain text, escaped here.

    ``kind`` becomes the class ``croupier-<kind>``.

    >>> table_html([["1", escape("<2>")]], header=["a", "b"], caption="x & y")
    '<table class="croupier-table"><caption>x &amp; y</caption><thead><tr><th
    style="text-align:left;vertical-align:top;padding:2px 8px">a</th><th
    style="text-align:left;vertical-align:top;padding:2px 8px">b</th></tr></thead><tbody><tr><td
    style="text-align:left;vertical-align:top;padding:2px 8px">1</td><td
    style="text-align:left;vertical-align:top;padding:2px 8px">&lt;2&gt;</td></tr></tbody></table>'
    """
    parts = [f'<table class="croupier-{escape(kind)}">']
    if caption:
        parts.append(f"<caption>{escape(caption)}</caption>")
    if header:
        cells = "".join(f"<th {_CELL}>{escape(h)}</th>" for h in header)
        parts.append(f"<thead><tr>{cells}</tr></thead>")
    parts.append("<tbody>")
    for row in rows:
        parts.append("<tr>" + "".join(f"<td {_CELL}>{cell}</td>" for cell in row) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)
