"""``croupier deal``, ``rank``, ``unrank`` and ``entropy``: deal cards and number deals."""

from __future__ import annotations

import json
import math
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from croupier.dealing.deal import Deal
    from croupier.dealing.layout import Layout

__all__ = ["register"]

GAMES_TEXT = (
    "bridge, whist, spades, hearts, go-fish, war, ratscrew, draw (five-card draw), "
    "holdem, omaha, gin, cribbage, euchre, skat, pinochle"
)

DEAL_HELP = f"""\
Deal cards: exactly uniform, with the least randomness, reproducible with --seed.

GAME is one of {GAMES_TEXT} (default bridge), or custom with --hands.
Methods: optimal (default: one uniform number below the number of deals,
the fewest bits), block, round-robin, proportional, interval, fraction,
arithmetic; all are exactly uniform.  Randomness: the OS CSPRNG by default
(not reproducible); --seed TEXT for a reproducible stream (only as secret as the
seed); --entropy dice:3,6,1,... (or coins:HT..., hex:...) for your own rolls (a
bridge deal needs about 37 d6 rolls; too few is an error saying how many more).
A note on the source goes to stderr, so stdout stays clean for every --format.

\b
Examples:
  croupier deal
  croupier deal go-fish --players 4
  croupier deal --hands 7,7,7 --count 3
  croupier deal bridge --seed "club night 12" --format pbn --count 4
  croupier deal holdem --players 6 --json --bits
"""

RANK_HELP = """\
Print the number of a deal under a numbering scheme.

DEAL is a PBN deal string for bridge-like games ("N:AKQ.JT9.876.5432 ..."),
else the piles in layout order separated by "/" (the remainder may be left out).
Schemes: croupier (default, any game), sequence (any game), and for bridge
bigdeal, pavlicek, pavlicek-1, andrews, andrews-1 (the -1 schemes count from 1).

\b
Examples:
  croupier rank bridge "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
  croupier rank war "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
"""

UNRANK_HELP = """\
Print the deal with a given number under a numbering scheme (inverse of rank).

\b
Examples:
  croupier unrank bridge 0
  croupier unrank bridge 1 --scheme pavlicek-1
  croupier unrank skat 12345 --json
"""

ENTROPY_HELP = """\
How much randomness a deal of GAME needs: log2 of the number of deals, log2 of a
full deck order, and the bits each deal method used on average (measured).

\b
Examples:
  croupier entropy bridge
  croupier entropy go-fish --players 4 --json
"""


class Format(StrEnum):
    """Output formats of ``croupier deal``."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    pbn = "pbn"
    csv = "csv"


GameArg = Annotated[
    str | None, typer.Argument(help="Game preset (default bridge; custom with --hands).")
]
NamedGameArg = Annotated[str, typer.Argument(help="Game preset, or custom with --hands.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
HandsOpt = Annotated[
    str | None, typer.Option("--hands", help="Hand sizes, e.g. 7,7,7 (the rest is the stock).")
]
DeckOpt = Annotated[
    str | None, typer.Option("--deck", help="Deck preset (standard, euchre, skat, pinochle, ...).")
]
SchemeOpt = Annotated[
    str,
    typer.Option(
        "--scheme",
        help="Numbering scheme: croupier, sequence, bigdeal, pavlicek[-1], andrews[-1].",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _layout(game: str | None, players: int | None, hands: str | None, deck: str | None) -> Layout:
    from croupier.dealing.layout import make_layout

    return make_layout(game, players=players, hands=hands, deck=deck)


def _check_scheme(layout: Layout, scheme: str) -> str:
    from croupier.errors import RankingError
    from croupier.ranking.schemes import get_scheme

    s = get_scheme(scheme)
    if s.bridge_only and not layout.bridge_like:
        raise RankingError(
            f"scheme {s.name!r} numbers bridge deals only; {layout.game} needs 'croupier' or "
            "'sequence'"
        )
    return s.name


def _echo_number_json(number: int, scheme: str, deal: Deal) -> None:
    """``{"number", "scheme", "pbn" or "hands"}`` for ``rank`` and ``unrank``."""
    from croupier.formats.deal_text import sorted_hand
    from croupier.formats.pbn_deal import format_pbn_deal
    from croupier.ranking.partitions import decimal

    obj: dict[str, Any] = {"number": decimal(number), "scheme": scheme}
    if deal.layout.bridge_like:
        obj["pbn"] = format_pbn_deal(deal.piles)
    else:
        obj["hands"] = [
            {"seat": p.name, "cards": [c.code for c in sorted_hand(cards, deal.layout.order)]}
            for p, cards in zip(deal.layout.piles, deal.piles, strict=True)
        ]
    typer.echo(json.dumps(obj, ensure_ascii=False))


def _dice_note(layout: Layout) -> str:
    rolls = math.ceil(math.log2(layout.count) / math.log2(6) - 1e-12) if layout.count > 1 else 0
    flips = math.ceil(math.log2(layout.count) - 1e-12) if layout.count > 1 else 0
    return f"about {rolls} d6 rolls or {flips} coin flips per deal"


def _source_notes(source: Any, layout: Layout, count: int, method: str) -> list[str]:
    """What goes to stderr after the deals: warnings, then where the randomness came from.

    Worded by :func:`croupier.randomness.source_note`, as ``croupier shuffle`` is.
    """
    from croupier.randomness import seed_warning, source_note

    lines: list[str] = []
    log2m = math.log2(layout.count) if layout.count > 1 else 0.0
    warning = seed_warning(source, log2m, f"~2^{log2m:.1f} deals of {layout.game}")
    if warning is not None:
        lines.append(f"warning: {warning}")
    what = "" if count == 1 else f" {count} deals"
    lines.append(f"dealt{what} with {method} {source_note(source)}")
    return lines


def register(app: typer.Typer) -> None:
    """Add ``deal``, ``rank``, ``unrank`` and ``entropy`` to ``app``."""

    @app.command("deal", help=DEAL_HELP)
    def deal_command(
        game: GameArg = None,
        players: PlayersOpt = None,
        hands: HandsOpt = None,
        deck: DeckOpt = None,
        count: Annotated[int, typer.Option("--count", "-n", help="How many deals.")] = 1,
        method: Annotated[str, typer.Option("--method", "-m", help="Deal method.")] = "optimal",
        seed: Annotated[
            str | None, typer.Option("--seed", help="Seed text for a reproducible stream.")
        ] = None,
        entropy: Annotated[
            str | None,
            typer.Option("--entropy", help="Your own randomness: dice:..., coins:..., hex:..."),
        ] = None,
        fmt: Annotated[
            Format, typer.Option("--format", "-f", help="text, json, jsonl, pbn or csv.")
        ] = Format.text,
        as_json: JsonOpt = False,
        bits: Annotated[bool, typer.Option("--bits", help="Show the bits each deal used.")] = False,
        scheme: SchemeOpt = "croupier",
    ) -> None:
        from croupier.dealing.deal import deal_many
        from croupier.dealing.methods import get_method
        from croupier.errors import CroupierError, EntropyExhaustedError
        from croupier.randomness import EntropySource, make_source

        if count < 1:
            raise CroupierError(f"--count must be at least 1, got {count}")
        if as_json:
            fmt = Format.json
        layout = _layout(game, players, hands, deck)
        scheme = _check_scheme(layout, scheme)
        method = get_method(method).name
        if fmt is Format.pbn and not layout.bridge_like:
            raise CroupierError(
                f"PBN deals need four hands of 13 (N E S W); {layout.describe()} is not one; "
                "use --format text, json or csv"
            )
        source = make_source(seed=seed, entropy=entropy, purpose="deal")
        need = count * math.log2(layout.count)
        what = f"a {layout.game} deal needs" if count == 1 else f"{count} deals need"
        if isinstance(source, EntropySource) and source.total_bits < need - 1e-9:
            # No uniform method can do with less than log2 M bits a deal: say so up front.
            raise EntropyExhaustedError(
                f"{source.shortfall(1, total_bits=need)} ({what} at least {need:.2f} bits; "
                f"{_dice_note(layout)})"
            )
        deals = deal_many(layout, count, method=method, source=source)
        try:
            _emit(deals, fmt, scheme, bits, layout)
        except EntropyExhaustedError as exc:
            raise EntropyExhaustedError(f"{exc} ({_dice_note(layout)})") from None
        for line in _source_notes(source, layout, count, method):
            typer.echo(line, err=True)

    @app.command("rank", help=RANK_HELP)
    def rank_command(
        game: NamedGameArg,
        deal_text: Annotated[str, typer.Argument(metavar="DEAL", help="The deal (see above).")],
        players: PlayersOpt = None,
        hands: HandsOpt = None,
        deck: DeckOpt = None,
        scheme: SchemeOpt = "croupier",
        as_json: JsonOpt = False,
    ) -> None:
        from croupier.dealing.deal import deal_from_piles
        from croupier.formats.deal_text import parse_deal_piles
        from croupier.formats.pbn_deal import parse_pbn_deal
        from croupier.ranking.partitions import decimal

        layout = _layout(game, players, hands, deck)
        scheme = _check_scheme(layout, scheme)
        if layout.bridge_like and "/" not in deal_text:
            deal = deal_from_piles(layout, list(parse_pbn_deal(deal_text)))
        else:
            deal = parse_deal_piles(layout, deal_text)
        number = deal.number_in(scheme)
        if as_json:
            _echo_number_json(number, scheme, deal)
        else:
            typer.echo(decimal(number))

    @app.command("unrank", help=UNRANK_HELP)
    def unrank_command(
        game: NamedGameArg,
        number: Annotated[str, typer.Argument(help="The deal number (decimal).")],
        players: PlayersOpt = None,
        hands: HandsOpt = None,
        deck: DeckOpt = None,
        scheme: SchemeOpt = "croupier",
        as_json: JsonOpt = False,
    ) -> None:
        from croupier.dealing.deal import deal_from_number
        from croupier.errors import RankingError
        from croupier.formats.deal_text import format_deal_piles
        from croupier.formats.pbn_deal import format_pbn_deal

        layout = _layout(game, players, hands, deck)
        scheme = _check_scheme(layout, scheme)
        from croupier.ranking.partitions import decimal, parse_decimal
        from croupier.ranking.schemes import get_scheme

        text = number.strip().replace("_", "").replace(",", "")
        if not (text.isascii() and text.isdigit()):
            raise RankingError(
                f"bad deal number {number!r}; expected a non-negative decimal integer"
            )
        base = get_scheme(scheme).base
        top = base + layout.count - 1
        digits = text.lstrip("0") or "0"
        if len(digits) > len(decimal(top)):  # too long to be in range (or to convert quickly)
            shown = f"{digits[:20]}... ({len(digits)} digits)" if len(digits) > 40 else digits
            raise RankingError(
                f"deal number {shown} out of range for scheme {scheme!r}; expected "
                f"{base} <= number <= {decimal(top)}"
            )
        deal = deal_from_number(layout, parse_decimal(digits), scheme)
        if as_json:
            _echo_number_json(parse_decimal(digits), scheme, deal)
        elif layout.bridge_like:
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
    ) -> None:
        from croupier.dealing.deal import deal_many
        from croupier.dealing.methods import method_names
        from croupier.errors import CroupierError
        from croupier.randomness import OsRandomSource, UniformSampler
        from croupier.ranking.partitions import decimal

        if deals < 1:
            raise CroupierError(f"--deals must be at least 1, got {deals}")
        layout = _layout(game, players, hands, deck)
        n = len(layout.deck)
        log2m = math.log2(layout.count)
        log2full = math.lgamma(n + 1) / math.log(2)
        measured: dict[str, float] = {}
        for name in method_names():
            src = OsRandomSource()
            sampler = UniformSampler(src, margin_bits=32)
            for _ in deal_many(layout, deals, method=name, sampler=sampler):
                pass
            measured[name] = (src.bits_used - sampler.leftover_bits) / deals
        if as_json:
            obj = {
                "game": layout.game,
                "layout": layout.describe(),
                "deals": decimal(layout.count),
                "log2_deals": round(log2m, 6),
                "log2_deck_orders": round(log2full, 6),
                "measured_bits": {k: round(v, 4) for k, v in measured.items()},
                "measured_over": deals,
            }
            typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
            return
        typer.echo(layout.describe())
        typer.echo(f"distinct deals M      {decimal(layout.count)}")
        typer.echo(f"log2 M                {log2m:9.3f} bits  ({_dice_note(layout)})")
        typer.echo(f"log2 {n}! (deck order) {log2full:9.3f} bits")
        typer.echo(f"measured bits per deal, mean of {deals} (OS CSPRNG, recycled):")
        for name, value in measured.items():
            typer.echo(f"  {name:<13} {value:9.3f}")


def _emit(deals: Any, fmt: Format, scheme: str, bits: bool, layout: Layout) -> None:
    from croupier.formats.deal_csv import format_deals_csv
    from croupier.formats.deal_json import deals_to_json, format_deal_json
    from croupier.formats.deal_text import format_deal_text
    from croupier.formats.pbn_deal import format_pbn_deal

    if fmt is Format.json:
        items = list(deals)
        if len(items) == 1:
            typer.echo(format_deal_json(items[0], scheme))
        else:
            typer.echo(deals_to_json(items, scheme))
    elif fmt is Format.jsonl:
        for d in deals:
            typer.echo(format_deal_json(d, scheme, indent=None))
    elif fmt is Format.csv:
        typer.echo(format_deals_csv(list(deals), scheme), nl=False)
    elif fmt is Format.pbn:
        total = 0.0
        for d in deals:
            typer.echo(format_pbn_deal(d.piles))
            total += d.bits_used
        if bits:
            typer.echo(f"% {total:.2f} bits used", err=True)
    else:
        first = True
        total = 0.0
        for d in deals:
            if not first:
                typer.echo("")
            first = False
            typer.echo(format_deal_text(d, scheme=scheme, bits=bits))
            total += d.bits_used
        if bits:
            typer.echo(f"total bits used: {total:.2f} (log2 M = {math.log2(layout.count):.2f})")
