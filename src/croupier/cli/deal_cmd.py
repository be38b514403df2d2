"""``croupier deal``, ``rank``, ``unrank`` and ``entropy``: deal cards and number deals.

One module-level Typer app (:data:`app`); the games, deal methods, numbering
schemes and deck presets named in the help and accepted by the options come
from the library's registries (:data:`croupier.dealing.GAMES`,
:data:`croupier.dealing.METHODS`, :func:`croupier.ranking.schemes.scheme_names`,
:data:`croupier.decks.DECK_PRESETS`), and the output formats from
:data:`WRITERS`.

>>> sorted(typer.main.get_group(app).commands)
['deal', 'entropy', 'rank', 'unrank']
>>> list(WRITERS)
['text', 'json', 'jsonl', 'pbn', 'csv']
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Literal, get_args

import typer

from croupier.cli.options import (
    BitsOpt,
    EntropyOpt,
    JsonOpt,
    SeedOpt,
    count_option,
    method_option,
    option,
)
from croupier.dealing import (
    DEFAULT_SCHEME,
    GAMES,
    METHODS,
    Deal,
    Layout,
    deal_from_number,
    deal_from_piles,
    deal_many,
    get_deal_method,
    make_layout,
)
from croupier.decks import DECK_PRESETS
from croupier.errors import CroupierError, EntropyExhaustedError, LayoutError, RankingError
from croupier.formats.deal_csv import format_deals_csv
from croupier.formats.deal_json import deal_to_dict, format_deal_json
from croupier.formats.deal_text import (
    format_deal_piles,
    format_deal_text,
    parse_deal_piles,
    sorted_hand,
)
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.randomness import (
    SEEDED_STREAM_ID,
    EntropySource,
    OsRandomSource,
    RandomSource,
    UniformSampler,
    make_source,
    seed_warning,
    source_note,
)
from croupier.ranking.partitions import decimal, parse_decimal
from croupier.ranking.schemes import get_scheme, scheme_names

__all__ = [
    "MAX_DEAL_COUNT",
    "MAX_ENTROPY_DEALS",
    "MAX_ENTROPY_WORK",
    "SEEDED_LABEL",
    "WRITERS",
    "DealFormat",
    "app",
    "deal_command",
    "entropy_command",
    "number_json",
    "rank_command",
    "unrank_command",
]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

DealFormat = Literal["text", "json", "jsonl", "pbn", "csv"]
"""The output formats of ``croupier deal`` (the keys of :data:`WRITERS`)."""

MAX_DEAL_COUNT = 1_000_000_000
"""The most deals one ``croupier deal`` run prints (``--count``); every format streams."""

MAX_ENTROPY_DEALS = 10_000
"""The most deals per method ``croupier entropy --deals`` measures."""

MAX_ENTROPY_WORK = 30_000_000
"""The bound on ``--deals`` x (deck size)² for ``croupier entropy`` (dealing a big deck
costs about the square of its size; bridge: 10,000 deals, 208 cards: 693)."""

SEEDED_LABEL = (
    f"seeded: reproducible from its seed ({SEEDED_STREAM_ID}), so only as secret as the seed"
)
"""The line that labels the output of a seeded run (a ``%`` comment in PBN).

It never quotes the seed: whoever reads the deals must not be able to deal the
rest of the stream.
"""

_DEFAULT_METHOD = next(iter(METHODS))  # the registry lists the default first
_GAMES = ", ".join(GAMES)
_METHODS = ", ".join(METHODS)
_SCHEMES = ", ".join(scheme_names())
_BRIDGE_SCHEMES = ", ".join(s for s in scheme_names() if get_scheme(s).bridge_only)
_ANY_SCHEMES = ", ".join(s for s in scheme_names() if not get_scheme(s).bridge_only)
_FORMATS = ", ".join(get_args(DealFormat))

DEAL_HELP = f"""\
Deal cards: exactly uniform, with the least randomness, reproducible with --seed.

GAME is one of {_GAMES} (default bridge), or custom with --hands.
Methods: {_METHODS}; all are exactly uniform, and {_DEFAULT_METHOD} (the
default) draws one uniform number below the number of deals, the fewest bits.
Randomness: the OS CSPRNG by default (not reproducible); --seed TEXT for a
reproducible stream (only as secret as the seed); --entropy dice:3,6,1,... (or
coins:HT..., hex:...) for your own rolls (a bridge deal needs about 37 d6 rolls;
too few is an error saying how many more).  --json is --format json.  A note on
the source goes to stderr, so stdout stays clean for every --format; the output
of a --seed run starts with a line saying it is seeded (a % comment in PBN).
Every format is written deal by deal (--count up to 1,000,000,000); a layout
deals at most 5,200 cards.

\b
Examples:
  croupier deal
  croupier deal go-fish --players 4
  croupier deal --hands 7,7,7 --count 3
  croupier deal bridge --seed "club night 12" --format pbn --count 4
  croupier deal holdem --players 6 --json --bits
"""

RANK_HELP = f"""\
Print the number of a deal under a numbering scheme.

DEAL is a PBN deal string for bridge-like games ("N:AKQ.JT9.876.5432 ..."),
else the piles in layout order separated by "/" (the remainder may be left out).
Schemes: {_ANY_SCHEMES} (any game; default {DEFAULT_SCHEME}), and for bridge
{_BRIDGE_SCHEMES} (the -1 schemes count from 1).

\b
Examples:
  croupier rank bridge "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
  croupier rank gin "AS KS QS JS TS 9S 8S 7S 6S 5S / AH KH QH JH TH 9H 8H 7H 6H 5H / 2C"
  croupier rank euchre "9S TS JS QS KS / AS 9H TH JH QH / KH AH 9D TD JD / QD KD AD 9C TC" --json
"""

UNRANK_HELP = f"""\
Print the deal with a given number under a numbering scheme (inverse of rank).

Schemes: {_SCHEMES} (default {DEFAULT_SCHEME}).

\b
Examples:
  croupier unrank bridge 0
  croupier unrank bridge 1 --scheme pavlicek-1
  croupier unrank skat 12345 --json
"""

ENTROPY_HELP = f"""\
How much randomness a deal of GAME needs: log2 of the number of deals, log2 of a
full deck order, and the bits each deal method ({_METHODS}) used on average
(measured).

\b
Examples:
  croupier entropy bridge
  croupier entropy go-fish --players 4 --json
"""


GameArg = Annotated[
    str | None,
    typer.Argument(help="Game preset (default bridge; custom with --hands).", show_default=False),
]
NamedGameArg = Annotated[str, typer.Argument(help=f"Game preset ({_GAMES}), or custom.")]
PlayersOpt = Annotated[int | None, option("--players", "Number of players.")]
HandsOpt = Annotated[
    str | None, typer.Option("--hands", help="Hand sizes, e.g. 7,7,7 (the rest is the stock).")
]
DeckOpt = Annotated[
    str | None,
    typer.Option("--deck", help=f"Deck preset ({', '.join(DECK_PRESETS)}, shoe:K, ...)."),
]
SchemeOpt = Annotated[str, typer.Option("--scheme", help=f"Numbering scheme: {_SCHEMES}.")]


# -- helpers ------------------------------------------------------------------------------


def _layout(game: str | None, players: int | None, hands: str | None, deck: str | None) -> Layout:
    if hands is None and game is not None and game.strip().lower() == "custom":
        raise LayoutError("a custom layout needs hand sizes, e.g. --hands 7,7,7")
    return make_layout(game, players=players, hands=hands, deck=deck)


def _check_scheme(layout: Layout, scheme: str) -> str:
    """The scheme's canonical name, or an error when it cannot number this layout's deals."""
    s = get_scheme(scheme)
    if s.bridge_only and not layout.bridge_like:
        raise RankingError(
            f"scheme {s.name!r} numbers bridge deals only; {layout.game} needs one of "
            f"{_ANY_SCHEMES}"
        )
    return s.name


def number_json(number: int, scheme: str, deal: Deal) -> dict[str, Any]:
    """``{"number", "scheme", "pbn" or "hands"}``: the JSON of ``rank`` and ``unrank``.

    >>> number_json(0, "croupier", deal_from_number(make_layout("war"), 0))["hands"][0]["seat"]
    'P1'
    >>> sorted(number_json(0, "croupier", deal_from_number(make_layout("bridge"), 0)))
    ['number', 'pbn', 'scheme']
    """
    obj: dict[str, Any] = {"number": decimal(number), "scheme": scheme}
    if deal.layout.bridge_like:
        obj["pbn"] = format_pbn_deal(deal.piles)
    else:
        obj["hands"] = [
            {"seat": p.name, "cards": [c.code for c in sorted_hand(cards, deal.layout.order)]}
            for p, cards in zip(deal.layout.piles, deal.piles, strict=True)
        ]
    return obj


def _short_int(value: int) -> str:
    """An integer for a message: in full when short, else its first digits and length.

    >>> _short_int(52), _short_int(10**400)
    ('52', '10000000000000000000... (401 digits)')
    """
    text = decimal(value)
    return text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"


def _dice_note(layout: Layout) -> str:
    rolls = math.ceil(math.log2(layout.count) / math.log2(6) - 1e-12) if layout.count > 1 else 0
    flips = math.ceil(math.log2(layout.count) - 1e-12) if layout.count > 1 else 0
    return f"about {rolls} d6 rolls or {flips} coin flips per deal"


def _source_notes(source: RandomSource, layout: Layout, count: int, method: str) -> list[str]:
    """What goes to stderr after the deals: warnings, then where the randomness came from.

    Worded by :func:`croupier.randomness.source_note`, as ``croupier shuffle`` is.
    """
    lines: list[str] = []
    log2m = math.log2(layout.count) if layout.count > 1 else 0.0
    warning = seed_warning(source, log2m, f"~2^{log2m:.1f} deals of {layout.game}")
    if warning is not None:
        lines.append(f"warning: {warning}")
    what = "" if count == 1 else f" {count} deals"
    lines.append(f"dealt{what} with {method} {source_note(source)}")
    return lines


# -- output formats -----------------------------------------------------------------------

_Writer = Callable[[Iterable[Deal], str, bool, Layout, bool], None]
"""``(deals, scheme, bits, layout, seeded)``: print deals in one format, as they come."""


def _write_text(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, seeded: bool
) -> None:
    if seeded:
        typer.echo(SEEDED_LABEL)
    total = 0.0
    for i, d in enumerate(deals):
        if i:
            typer.echo("")
        typer.echo(format_deal_text(d, scheme=scheme, bits=bits))
        total += d.bits_used
    if bits:
        typer.echo(f"total bits used: {total:.2f} (log2 M = {math.log2(layout.count):.2f})")


def json_document_chunks(deals: Iterable[Deal], scheme: str) -> Iterator[str]:
    """The JSON document of ``croupier deal``, piece by piece, in bounded memory.

    One deal is its object; several are ``{"deals": [...], "total_bits": ...}``,
    written deal by deal so a long run never sits in memory.  The pieces join
    to exactly what :func:`~croupier.formats.deal_json.deals_to_json` writes.

    >>> from croupier.dealing import deal_from_number
    >>> from croupier.formats.deal_json import deals_to_json
    >>> run = [deal_from_number(make_layout("war"), k) for k in (0, 1, 2)]
    >>> "".join(json_document_chunks(run, "croupier")) == deals_to_json(run) + "\\n"
    True
    """
    it = iter(deals)
    first = next(it, None)
    if first is None:
        yield json.dumps({"deals": [], "total_bits": 0.0}, indent=2) + "\n"
        return
    second = next(it, None)
    if second is None:
        yield format_deal_json(first, scheme) + "\n"
        return
    total = 0.0
    yield '{\n  "deals": [\n'
    for i, deal in enumerate(_chain(first, second, it)):
        obj = deal_to_dict(deal, scheme)
        total += float(obj["bits_used"])
        text = json.dumps(obj, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        yield ("    " if i == 0 else ",\n    ") + text
    yield f'\n  ],\n  "total_bits": {json.dumps(round(total, 6))}\n}}\n'


def _chain(first: Deal, second: Deal, rest: Iterator[Deal]) -> Iterator[Deal]:
    yield first
    yield second
    yield from rest


def _write_json(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, seeded: bool
) -> None:
    for chunk in json_document_chunks(deals, scheme):
        typer.echo(chunk, nl=False)


def _write_jsonl(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, seeded: bool
) -> None:
    for d in deals:
        typer.echo(format_deal_json(d, scheme, indent=None))


def _write_pbn(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, seeded: bool
) -> None:
    if seeded:
        typer.echo(f"% {SEEDED_LABEL}")
    total = 0.0
    for d in deals:
        typer.echo(format_pbn_deal(d.piles))
        total += d.bits_used
    if bits:
        typer.echo(f"% {total:.2f} bits used", err=True)


def _write_csv(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, seeded: bool
) -> None:
    for i, d in enumerate(deals):  # row by row: the header, then one row per deal
        rows = format_deals_csv([d], scheme).splitlines(keepends=True)
        if i:
            rows[1] = f"{i + 1}{rows[1][1:]}"  # the row starts "1,": the deal's place in the run
        typer.echo("".join(rows if i == 0 else rows[1:]), nl=False)


WRITERS: dict[DealFormat, _Writer] = {
    "text": _write_text,
    "json": _write_json,
    "jsonl": _write_jsonl,
    "pbn": _write_pbn,
    "csv": _write_csv,
}
"""Each ``--format`` of ``croupier deal`` and the function that prints deals in it."""


def _resolve_format(fmt: DealFormat | None, as_json: bool) -> DealFormat:
    """``--format``, with ``--json`` standing for ``--format json`` (a different one is an error).

    >>> _resolve_format(None, True), _resolve_format(None, False), _resolve_format("pbn", False)
    ('json', 'text', 'pbn')
    """
    if as_json and fmt not in (None, "json"):
        raise CroupierError(f"--json is --format json; it cannot be combined with --format {fmt}")
    if as_json:
        return "json"
    return "text" if fmt is None else fmt


# -- commands -----------------------------------------------------------------------------


@app.command("deal", help=DEAL_HELP)
def deal_command(
    game: GameArg = None,
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    count: Annotated[int, count_option("How many deals.")] = 1,
    method: Annotated[str, method_option(f"Deal method: {_METHODS}.")] = _DEFAULT_METHOD,
    seed: SeedOpt = None,
    entropy: EntropyOpt = None,
    fmt: Annotated[
        DealFormat | None,
        option("--format", f"Output format: {_FORMATS} (default text).", case_sensitive=False),
    ] = None,
    as_json: JsonOpt = False,
    bits: BitsOpt = False,
    scheme: SchemeOpt = DEFAULT_SCHEME,
) -> None:
    """Deal ``count`` deals of a game and print them in the chosen format."""
    if not 1 <= count <= MAX_DEAL_COUNT:
        raise CroupierError(
            f"--count must be at least 1 and at most {MAX_DEAL_COUNT:,}, got {_short_int(count)}"
        )
    out_format = _resolve_format(fmt, as_json)
    layout = _layout(game, players, hands, deck)
    scheme = _check_scheme(layout, scheme)
    method = get_deal_method(method).name
    if out_format == "pbn" and not layout.bridge_like:
        others = ", ".join(f for f in WRITERS if f != "pbn")
        raise CroupierError(
            f"PBN deals need four hands of 13 (N E S W); {layout.describe()} is not one; "
            f"use another --format ({others})"
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
        WRITERS[out_format](deals, scheme, bits, layout, source.kind == "seeded")
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
    scheme: SchemeOpt = DEFAULT_SCHEME,
    as_json: JsonOpt = False,
) -> None:
    """Print the number of a deal."""
    layout = _layout(game, players, hands, deck)
    scheme = _check_scheme(layout, scheme)
    if layout.bridge_like and "/" not in deal_text:
        deal = deal_from_piles(layout, list(parse_pbn_deal(deal_text)))
    else:
        deal = parse_deal_piles(layout, deal_text)
    number = deal.number_in(scheme)
    if as_json:
        typer.echo(json.dumps(number_json(number, scheme, deal), ensure_ascii=False))
    else:
        typer.echo(decimal(number))


def _parse_number(number: str, layout: Layout, scheme: str) -> int:
    """A deal number typed on the command line, range-checked before it is converted."""
    text = number.strip().replace("_", "").replace(",", "")
    if not (text.isascii() and text.isdigit()):
        raise RankingError(f"bad deal number {number!r}; expected a non-negative decimal integer")
    top = get_scheme(scheme).base + layout.count - 1
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
) -> None:
    """Print the deal with a given number."""
    layout = _layout(game, players, hands, deck)
    scheme = _check_scheme(layout, scheme)
    value = _parse_number(number, layout, scheme)
    deal = deal_from_number(layout, value, scheme)
    if as_json:
        typer.echo(json.dumps(number_json(value, scheme, deal), ensure_ascii=False))
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
    """Print log2 of the number of deals, of a deck order, and the bits each method used."""
    if not 1 <= deals <= MAX_ENTROPY_DEALS:
        raise CroupierError(
            f"--deals must be at least 1 and at most {MAX_ENTROPY_DEALS:,}, got {_short_int(deals)}"
        )
    layout = _layout(game, players, hands, deck)
    n = len(layout.deck)
    most = max(1, MAX_ENTROPY_WORK // max(1, n * n))
    if deals > most:
        raise CroupierError(
            f"--deals {deals} is too many for a deck of {n} cards; the measurement takes "
            f"at most {most:,} deals of it (--deals x cards² <= {MAX_ENTROPY_WORK:,})"
        )
    log2m = math.log2(layout.count)
    log2full = math.lgamma(n + 1) / math.log(2)
    measured: dict[str, float] = {}
    for name in METHODS:
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
