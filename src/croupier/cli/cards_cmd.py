"""``croupier cards`` and ``croupier deck``: parse, sort and print cards; list deck presets.

This module is the pattern every command group follows: one module-level
``typer.Typer()`` (:data:`app`), commands as module-level functions, options
from :mod:`croupier.cli.options`, choices taken from the library's registries
(card styles, orders, deck presets), and the library doing the work.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Annotated, Any

import typer

from croupier.cards import CARD_STYLES, Card, CardStyle, format_card, parse_cards
from croupier.cli.options import JsonOpt, QuietOpt, option
from croupier.decks import DECK_PRESETS, make_deck
from croupier.errors import DeckError
from croupier.formats.envelope import envelope_json, envelope_prefix, envelope_suffix
from croupier.orders import DEFAULT_ORDER, order_names, sort_cards

__all__ = ["app", "card_json", "cards_command", "deck_command", "render_cards"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

_ORDERS = ", ".join(order_names())

CARDS_HELP = f"""\
Parse cards in any notation, optionally sort them, and print them.

Notations (case-insensitive, mixed freely): AS, As, A♠, ♠A, 10h, Th, T♥,
Ace of Spades, joker/JK, a card glyph such as 🂡, copies such as AS#2.
Cards are separated by spaces, commas, semicolons or nothing ("AsKh"), and
may be given as one argument or several.

Orders for --sort: {_ORDERS}, or
custom:RANKS:SUITS (both listed high to low, e.g. custom:AKQJT98765432:SHDC).

\b
Examples:
  croupier cards "AS kh 10d" --style long
  croupier cards AS KH 10d
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


def card_json_lines(cards: Iterable[Card]) -> Iterator[str]:
    """:func:`card_json` of each card as compact JSON text, fast enough for a 520,000-card shoe.

    The text of a card's face is serialised once; copies of a standard card
    only add their ``#k`` suffix (``long`` with a space before it, as
    :func:`~croupier.cards.format_card` writes it) and their ``copy``.

    >>> from croupier.decks import shoe
    >>> list(card_json_lines(shoe(2)[51:53]))[1]
    '{"rank": "A", "suit": "C", "code": "AC#2", "symbol": "A♣#2", "long": "Ace of Clubs #2", \
"glyph": "🃑#2", "copy": 1, "index": 0}'
    """
    templates: dict[tuple[object, object], str] = {}
    for card in cards:
        if card.suit is None or not card.copy:  # jokers have suffix rules of their own
            yield json.dumps(card_json(card), ensure_ascii=False)
            continue
        template = templates.get((card.rank, card.suit))
        if template is None:
            face = card_json(Card(card.rank, card.suit))
            parts = {
                k: json.dumps(v, ensure_ascii=False)[:-1].replace("%", "%%")
                for k, v in face.items()
                if isinstance(v, str)
            }
            template = (
                f'{{"rank": {parts["rank"]}", "suit": {parts["suit"]}", '
                f'"code": {parts["code"]}%s", "symbol": {parts["symbol"]}%s", '
                f'"long": {parts["long"]} %s", "glyph": {parts["glyph"]}%s", '
                f'"copy": %d, "index": {face["index"]}}}'
            )
            templates[card.rank, card.suit] = template
        suffix = f"#{card.copy + 1}"
        yield template % (suffix, suffix, suffix, suffix, card.copy)


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


def _write_json_cards(cards: Sequence[Card], indent: str) -> None:
    """A JSON array of the cards' objects, one a line, on standard output (a 520,000-card
    shoe is written as it is serialised, never held as one string)."""
    out = sys.stdout
    out.write("[")
    for i, line in enumerate(card_json_lines(cards)):
        out.write(f",\n{indent}  " if i else f"\n{indent}  ")
        out.write(line)
    out.write(f"\n{indent}]" if cards else "]")


def _emit(
    cards: list[Card],
    style: CardStyle,
    sort: str | None,
    descending: bool,
    as_json: bool,
    per_line: int = 0,
    by_suit: bool = False,
    deck: str | None = None,
) -> None:
    """Print the cards (``deck``: the name they came from, for ``croupier deck --json``)."""
    if sort is not None or descending:
        cards = sort_cards(cards, sort or DEFAULT_ORDER, descending=descending)
    if as_json:
        out = sys.stdout
        if deck is None:
            out.write(envelope_prefix("cards"))
            _write_json_cards(cards, "  ")
        else:
            out.write(envelope_prefix("deck"))
            name = json.dumps(deck, ensure_ascii=False)
            out.write(f'{{\n    "deck": {name},\n    "cards": ')
            _write_json_cards(cards, "    ")
            out.write("\n  }")
        out.write(envelope_suffix())
    elif cards:
        typer.echo(render_cards(cards, style, per_line=per_line, by_suit=by_suit))


StyleOpt = Annotated[
    CardStyle,
    option("--style", f"How to print cards: {', '.join(CARD_STYLES)}.", case_sensitive=False),
]
SortOpt = Annotated[
    str | None, typer.Option("--sort", help=f"Sort by this order: {_ORDERS}, custom:…")
]
DescendingOpt = Annotated[
    bool, option("--descending", f"Highest card first (with --sort; default {DEFAULT_ORDER}).")
]


@app.command("cards", help=CARDS_HELP)
def cards_command(
    text: Annotated[
        list[str],
        typer.Argument(metavar="CARDS...", help='Cards, e.g. "AS KH 10d", or AS KH 10d.'),
    ],
    style: StyleOpt = "short",
    sort: SortOpt = None,
    descending: DescendingOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Parse the cards given as one or several arguments and print them."""
    cards = [card for part in text for card in parse_cards(part)]
    _emit(cards, style, sort, descending, as_json)


def _list_presets(as_json: bool) -> None:
    if as_json:
        rows = [
            {"name": p.name, "cards": p.size, "description": p.description}
            for p in DECK_PRESETS.values()
        ]
        typer.echo(envelope_json("deck", {"presets": rows}))
        return
    rows_text = [(p.name, str(p.size), p.description) for p in DECK_PRESETS.values()]
    rows_text.append(("shoe:K", "52K", "K standard decks stacked, copies told apart"))
    rows_text.append(("stripped:RANKS", "", "the given ranks in each suit"))
    width = max(len(r[0]) for r in rows_text)
    for deck_name, size, description in rows_text:
        typer.echo(f"{deck_name:<{width}}  {size:>4}  {description}")


@app.command("deck", help=DECK_HELP)
def deck_command(
    name: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help="Deck preset, shoe:K or stripped:RANKS."),
    ] = None,
    style: StyleOpt = "short",
    sort: SortOpt = None,
    descending: DescendingOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print a deck preset, or list the presets."""
    if name is None:
        if sort is not None or descending:
            raise DeckError(
                "--sort and --descending need a deck NAME, e.g. 'croupier deck piquet "
                "--sort bridge'; without NAME 'croupier deck' lists the presets"
            )
        _list_presets(as_json)
        return
    grouped = sort is None and not descending
    per_line = 0 if grouped else 13
    _emit(make_deck(name), style, sort, descending, as_json, per_line, grouped, deck=name)
