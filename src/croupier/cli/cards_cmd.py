"""``croupier cards`` and ``croupier deck``: parse, sort and print cards; list deck presets."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any

import typer

from croupier.cards import Card, CardStyle, format_card

__all__ = ["Style", "card_json", "register", "render_cards"]


class Style(StrEnum):
    """The card styles offered on the command line."""

    short = "short"
    symbol = "symbol"
    long = "long"
    glyph = "glyph"


CARDS_HELP = """\
Parse cards in any notation, optionally sort them, and print them.

Notations (case-insensitive, mixed freely): AS, As, A♠, ♠A, 10h, Th, T♥,
Ace of Spades, joker/JK, a card glyph such as 🂡, copies such as AS#2.
Cards are separated by spaces, commas, semicolons or nothing ("AsKh").

Orders for --sort: seed, bridge, poker, rank, pinochle, or
custom:RANKS:SUITS (both listed high to low, e.g. custom:AKQJT98765432:SHDC).

\b
Examples:
  croupier cards "AS kh 10d" --style long
  croupier cards "As,Kh,2c,Td" --sort bridge --descending --style symbol
  croupier cards "AsKh" --json
"""

DECK_HELP = """\
Print a deck preset, or list the presets when no NAME is given.

NAME is a preset (see the list), shoe:K for K standard decks stacked
(copies numbered AS, AS#2, ...), or stripped:RANKS for a stripped deck.

\b
Examples:
  croupier deck
  croupier deck pinochle --style symbol
  croupier deck stripped:789TJQKA --sort bridge --json
"""


def card_json(card: Card) -> dict[str, Any]:
    """The JSON object for one card (``suit`` is ``null`` for a joker).

    >>> card_json(Card.parse("TH"))["long"]
    '10 of Hearts'
    >>> card_json(Card.joker())["suit"] is None
    True
    """
    return {
        "rank": "JK" if card.suit is None else card.rank.letter,
        "suit": None if card.suit is None else card.suit.letter,
        "code": card.code,
        "symbol": card.symbol,
        "long": card.long_name,
        "glyph": card.glyph,
        "copy": card.copy,
        "index": card.index,
    }


def _color(card: Card, text: str, color: bool) -> str:
    if color and card.is_red:
        return typer.style(text, fg="red")
    return text


def render_cards(
    cards: Sequence[Card], style: CardStyle, *, per_line: int = 0, by_suit: bool = False
) -> str:
    """Human output: one card per line for ``long``, else space-separated.

    With ``per_line > 0`` the other styles wrap after that many cards; with
    ``by_suit`` they start a new line whenever the suit changes (for decks).

    >>> render_cards([Card.parse("AS"), Card.parse("TH")], "symbol")
    'A♠ 10♥'
    >>> print(render_cards([Card.parse("AS"), Card.parse("TH")], "long"))
    Ace of Spades
    10 of Hearts
    """
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    texts = [_color(c, format_card(c, style), color) for c in cards]
    if style == "long":
        return "\n".join(texts)
    if by_suit:
        lines: list[list[str]] = []
        for i, (card, text) in enumerate(zip(cards, texts, strict=True)):
            if i == 0 or card.suit != cards[i - 1].suit:
                lines.append([])
            lines[-1].append(text)
        return "\n".join(" ".join(line) for line in lines)
    if per_line <= 0:
        return " ".join(texts)
    return "\n".join(" ".join(texts[i : i + per_line]) for i in range(0, len(texts), per_line))


def _emit(
    cards: list[Card],
    style: Style,
    sort: str | None,
    descending: bool,
    as_json: bool,
    per_line: int = 0,
    by_suit: bool = False,
) -> None:
    from croupier.orders import sort_cards

    if sort is not None:
        cards = sort_cards(cards, sort, descending=descending)
    elif descending:
        cards = sort_cards(cards, "seed", descending=True)
    if as_json:
        typer.echo(json.dumps([card_json(c) for c in cards], ensure_ascii=False, indent=2))
    elif cards:
        typer.echo(render_cards(cards, style.value, per_line=per_line, by_suit=by_suit))


StyleOpt = Annotated[
    Style,
    typer.Option(
        "--style",
        "-s",
        case_sensitive=False,
        help="How to print cards: short, symbol, long or glyph.",
    ),
]
DescendingOpt = Annotated[
    bool,
    typer.Option("--descending", "-d", help="Highest card first (with --sort; default seed)."),
]


def register(app: typer.Typer) -> None:
    """Add the ``cards`` and ``deck`` commands to ``app``."""

    @app.command("cards", help=CARDS_HELP)
    def cards_command(
        text: Annotated[
            str, typer.Argument(metavar="TEXT", help='Cards, e.g. "AS KH 10d" or "As,Kh".')
        ],
        style: StyleOpt = Style.short,
        sort: Annotated[
            str | None,
            typer.Option(help="Sort by this order: seed, bridge, poker, rank, pinochle, custom:…"),
        ] = None,
        descending: DescendingOpt = False,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print a JSON list of card objects.")
        ] = False,
    ) -> None:
        from croupier.cards import parse_cards

        _emit(parse_cards(text), style, sort, descending, as_json)

    @app.command("deck", help=DECK_HELP)
    def deck_command(
        name: Annotated[
            str | None,
            typer.Argument(metavar="NAME", help="Deck preset, shoe:K or stripped:RANKS."),
        ] = None,
        style: StyleOpt = Style.short,
        sort: Annotated[str | None, typer.Option(help="Sort the deck by this order.")] = None,
        descending: DescendingOpt = False,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print JSON: the cards, or the preset list.")
        ] = False,
    ) -> None:
        from croupier.decks import DECK_PRESETS, make_deck
        from croupier.errors import DeckError

        if name is None:
            if sort is not None or descending:
                raise DeckError(
                    "--sort and --descending need a deck NAME, e.g. 'croupier deck piquet "
                    "--sort bridge'; without NAME 'croupier deck' lists the presets"
                )
            if as_json:
                rows = [
                    {"name": p.name, "cards": p.size, "description": p.description}
                    for p in DECK_PRESETS.values()
                ]
                typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
                return
            rows_text = [(p.name, str(p.size), p.description) for p in DECK_PRESETS.values()]
            rows_text.append(("shoe:K", "52K", "K standard decks stacked, copies told apart"))
            rows_text.append(("stripped:RANKS", "", "the given ranks in each suit"))
            width = max(len(r[0]) for r in rows_text)
            for deck_name, size, description in rows_text:
                typer.echo(f"{deck_name:<{width}}  {size:>4}  {description}")
            return
        grouped = sort is None and not descending
        per_line = 0 if grouped else 13
        _emit(make_deck(name), style, sort, descending, as_json, per_line, by_suit=grouped)
