"""``croupier rank``, ``unrank`` and ``entropy``: deal numbers and how much randomness a deal needs.

>>> sorted(typer.main.get_group(app).commands)
['entropy', 'rank', 'unrank']
"""

from __future__ import annotations

import math
from typing import Annotated

import typer

from croupier.cli.layout_options import (
    ANY_SCHEMES,
    BRIDGE_SCHEMES,
    SCHEMES,
    DeckOpt,
    GameArg,
    HandsOpt,
    NamedGameArg,
    PlayersOpt,
    SchemeOpt,
    check_scheme,
    layout,
)
from croupier.cli.options import JsonOpt, QuietOpt
from croupier.dealing import DEFAULT_SCHEME, METHODS, Layout, deal_from_number, deal_from_piles
from croupier.errors import RankingError
from croupier.formats.deal_json import number_to_dict
from croupier.formats.deal_text import format_deal_piles, parse_deal_piles
from croupier.formats.envelope import envelope_json
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.randomness.source import SourceKind
from croupier.ranking.partitions import decimal, parse_decimal
from croupier.ranking.schemes import get_scheme
from croupier.runs.measure import measured_bits
from croupier.runs.request import dice_note
from croupier.shuffling.bounds import log2_factorial

__all__ = ["app", "entropy_command", "rank_command", "unrank_command"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

RANK_HELP = f"""\
Print the number of a deal under a numbering scheme.

DEAL is a PBN deal string for bridge-like games ("N:AKQ.JT9.876.5432 ..."),
else the piles in layout order separated by "/" (the remainder may be left out).
Schemes: {ANY_SCHEMES} (any game; default {DEFAULT_SCHEME}), and for bridge
{BRIDGE_SCHEMES} (the -1 schemes count from 1).

\b
Examples:
  croupier rank bridge "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
  croupier rank gin "AS KS QS JS TS 9S 8S 7S 6S 5S / AH KH QH JH TH 9H 8H 7H 6H 5H / 2C"
  croupier rank euchre "9S TS JS QS KS / AS 9H TH JH QH / KH AH 9D TD JD / QD KD AD 9C TC" --json
"""

UNRANK_HELP = f"""\
Print the deal with a given number under a numbering scheme (inverse of rank).

Schemes: {SCHEMES} (default {DEFAULT_SCHEME}).

\b
Examples:
  croupier unrank bridge 0
  croupier unrank bridge 1 --scheme pavlicek-1
  croupier unrank skat 12345 --json
"""

ENTROPY_HELP = f"""\
How much randomness a deal of GAME needs: log2 of the number of deals, log2 of a
full deck order, and the bits each deal method ({", ".join(METHODS)}) used on average
(measured).

\b
Examples:
  croupier entropy bridge
  croupier entropy go-fish --players 4 --json
"""


@app.command("rank", help=RANK_HELP)
def rank_command(
    game: NamedGameArg,
    deal_text: Annotated[str, typer.Argument(metavar="DEAL", help="The deal (see above).")],
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the number of a deal."""
    lay = layout(game, players, hands, deck)
    scheme = check_scheme(lay, scheme)
    if lay.bridge_like and "/" not in deal_text:
        deal = deal_from_piles(lay, list(parse_pbn_deal(deal_text)))
    else:
        deal = parse_deal_piles(lay, deal_text)
    number = deal.number_in(scheme)
    if as_json:
        typer.echo(envelope_json("rank", number_to_dict(number, scheme, deal)))
    else:
        typer.echo(decimal(number))


def _parse_number(number: str, lay: Layout, scheme: str) -> int:
    """A deal number typed on the command line, range-checked before it is converted."""
    text = number.strip().replace("_", "").replace(",", "")
    if not (text.isascii() and text.isdigit()):
        raise RankingError(f"bad deal number {number!r}; expected a non-negative decimal integer")
    top = get_scheme(scheme).base + lay.count - 1
    digits = text.lstrip("0") or "0"
    if len(digits) > len(decimal(top)):  # too long to be in range (or to convert quickly)
        shown = f"{digits[:20]}... ({len(digits)} digits)" if len(digits) > 40 else digits
        raise RankingError(
            f"deal number {shown} out of range for scheme {scheme!r}; expected "
            f"{get_scheme(scheme).base} <= number <= {decimal(top)}"
        )
    return parse_decimal(digits)


@app.command("unrank", help=UNRANK_HELP)
def unrank_command(
    game: NamedGameArg,
    number: Annotated[str, typer.Argument(help="The deal number (decimal).")],
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the deal with a given number."""
    lay = layout(game, players, hands, deck)
    scheme = check_scheme(lay, scheme)
    value = _parse_number(number, lay, scheme)
    deal = deal_from_number(lay, value, scheme)
    if as_json:
        typer.echo(envelope_json("unrank", number_to_dict(value, scheme, deal)))
    elif lay.bridge_like:
        typer.echo(format_pbn_deal(deal.piles))
    else:
        typer.echo(format_deal_piles(deal))


@app.command("entropy", help=ENTROPY_HELP)
def entropy_command(
    game: GameArg = None,
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    deals: Annotated[
        int, typer.Option("--deals", help="Deals per method for the measurement.")
    ] = 200,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print log2 of the number of deals, of a deck order, and the bits each method used."""
    lay = layout(game, players, hands, deck)
    measured = measured_bits(lay, deals)
    n = len(lay.deck)
    log2m = math.log2(lay.count)
    log2full = log2_factorial(n)
    if as_json:
        obj = {
            "game": lay.game,
            "layout": lay.describe(),
            "deals": decimal(lay.count),
            "log2_deals": round(log2m, 6),
            "log2_deck_orders": round(log2full, 6),
            "measured_bits": {k: round(v, 4) for k, v in measured.items()},
            "measured_over": deals,
        }
        # the measurement deals from the OS CSPRNG: its means differ a little from run to run
        typer.echo(envelope_json("entropy", obj, source=SourceKind.OS_CSPRNG.value))
        return
    typer.echo(lay.describe())
    typer.echo(f"distinct deals M      {decimal(lay.count)}")
    typer.echo(f"log2 M                {log2m:9.3f} bits  ({dice_note(lay)})")
    typer.echo(f"log2 {n}! (deck order) {log2full:9.3f} bits")
    typer.echo(f"measured bits per deal, mean of {deals} (OS CSPRNG, recycled):")
    for name, value in measured.items():
        typer.echo(f"  {name:<13} {value:9.3f}")
