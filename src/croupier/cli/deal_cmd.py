"""``croupier deal``: deal cards for any game, in any format, through a deal run.

The command declares its options and makes one call,
:func:`croupier.cli.deal_run.run_deal` (which the quick path of ``croupier deal``,
:mod:`croupier.cli.deal_quick`, calls without Typer): a checked
:class:`~croupier.runs.DealRequest` is dealt by its dealer and written by the
format's writer (:mod:`croupier.runs`).  The engine is the request's (bulk by
default, whatever the format or count); the format only decides how the same
deals are written.

>>> sorted(typer.main.get_group(app).commands)
['deal']
>>> FORMAT_NAMES[:4]
('text', 'pbn', 'pbn-deal', 'lin')
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from croupier.boards import MAX_BOARD
from croupier.bulk import BULK_ALGORITHM_ID
from croupier.bulk.chunk_files import CHUNK_FORMATS
from croupier.cli.cluster_options import ChunkOpt, SchedulerOpt, WorkersOpt
from croupier.cli.deal_run import run_deal
from croupier.cli.layout_options import DeckOpt, GameArg, HandsOpt, PlayersOpt, SchemeOpt
from croupier.cli.options import (
    BitsOpt,
    EntropyOpt,
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    SeedOpt,
    count_option,
    method_option,
    option,
    out_option,
)
from croupier.dealing import ALGORITHM_ID, DEFAULT_SCHEME, GAMES, METHODS
from croupier.runs import BINARY_FORMATS, FORMATS, MAX_BULK_COUNT, MAX_DEAL_COUNT, DealEngine
from croupier.simulate.run import Strategy

__all__ = ["FORMAT_NAMES", "app", "deal_command"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

FORMAT_NAMES: tuple[str, ...] = (*FORMATS, "pbn-games")
"""Every ``--format``: the run's formats, and ``pbn-games`` (the old name of ``pbn``)."""

DealFormat = Literal[
    "text", "json", "jsonl", "csv", "pbn", "pbn-deal", "lin", "oneline", "npy", "npz", "pbn-games"
]

_METHODS = ", ".join(METHODS)

DEAL_HELP = f"""\
Deal cards: exactly uniform, reproducible with --seed.

GAME is one of {", ".join(GAMES)} (default bridge), or custom with --hands.
Hands are sets, shown sorted; stacks (a stock, a pond, War's piles, the euchre
kitty) are dealt in order and shown top first (docs/games.md).  The text format
shows a stock of more than 13 cards as its size only; --show-stock shows it.
Randomness: the OS CSPRNG by default (not reproducible); --seed TEXT for a
reproducible stream (only as secret as the seed); --entropy dice:3,6,1,... (or
coins:HT..., hex:...) for your own rolls (a bridge deal needs about 37 d6 rolls;
too few is an error saying how many more).  A note on the source goes to stderr,
so stdout stays clean; a --seed run's output starts with a line saying it is
seeded (a % comment in PBN; LIN has no comments, so only the note says it).

Engines: bulk ({BULK_ALGORITHM_ID}, /2 with stacks, the default: exact, millions of
deals a second, from the OS CSPRNG or --seed; --count up to {MAX_BULK_COUNT:,}) and deal
({ALGORITHM_ID}, /3 with stacks: deal by deal with the fewest random bits, the methods
{_METHODS}, and --entropy; --count up to {MAX_DEAL_COUNT:,}).  --method or
--entropy ask for the deal engine.  The engine never depends on --format or
--count: the same seed and options give the same deals in every format, and the
first K deals of a run never depend on --count.

Formats: {", ".join(FORMAT_NAMES)} (--json is --format json: one
document, docs/json.md).  Boards (bridge): --format pbn writes PBN 2.1 export
games (CRLF line ends; --lf for LF): Event (--event, else ?), Board from
--first-board (default 1), Dealer and Vulnerable by the standard cycles; --format
lin the same boards as BBO LIN.  Board numbers go up to {MAX_BOARD}.
{" and ".join(BINARY_FORMATS)} need --out FILE.  --out writes the file atomically
(--overwrite replaces one).  A long run shows a progress bar when stderr is a
terminal; --quiet prints nothing but errors and the output asked for.  Ctrl-C
stops after the deals being written and leaves valid output (exit 130).

Conditions (bridge): --where 'EXPR' keeps only the deals where a dealer-language
expression holds, and --predeal 'N:AQ542.KJ87.32.AK' (or 'south SAQ542, HKJ87')
gives cards before dealing; the deals are exactly uniform among those that pass
(--strategy auto, rejection or stacking).  Whole scripts: croupier dealer.

On a Dask cluster (the cluster extra): --workers N or --scheduler ADDRESS with
--out DIR writes one file per chunk of --chunk deals into DIR, then
DIR/manifest.json; formats {", ".join(CHUNK_FORMATS)}.

\b
Examples:
  croupier deal
  croupier deal go-fish --players 4
  croupier deal --hands 7,7,7 --count 3
  croupier deal bridge --seed "club night 12" --format pbn --count 4
  croupier deal --seed "club night 12" -n 8 --first-board 9 -e "Club night" -f pbn
  croupier deal --seed "club night 12" -n 4 --format lin
  croupier deal holdem --players 6 --show-stock
  croupier deal war --seed "game 1"
  croupier deal holdem --players 6 --json --bits
  croupier deal --count 5 --format oneline --seed "sim 1"
  croupier deal --engine deal --count 3 --format pbn-deal --seed "sim 1" --bits
  croupier deal --where 'hcp(north) >= 15 and shape(north, any 4333 + any 4432)' -n 20
  croupier deal --count 200000 --format oneline --seed s1 --workers 2 --chunk 100000 --out deals/
"""


_CountOpt = Annotated[int, count_option("How many deals.")]

_MethodOpt = Annotated[str | None, method_option(f"Deal method of the deal engine: {_METHODS}.")]

_FmtOpt = Annotated[
    DealFormat | None,
    option(
        "--format",
        f"Output format: {', '.join(FORMAT_NAMES)} (default text).",
        case_sensitive=False,
    ),
]

_EngineOpt = Annotated[
    DealEngine | None,
    typer.Option(
        "--engine",
        help=f"bulk ({BULK_ALGORITHM_ID}, the default) or deal ({ALGORITHM_ID}: the "
        "fewest bits, --method, --entropy).",
        case_sensitive=False,
    ),
]

_OutOpt = Annotated[Path | None, out_option("Write to this file (atomically), not stdout.")]

_WhereOpt = Annotated[
    str | None,
    typer.Option(
        "--where", help="Only deals where this dealer expression holds: 'hcp(north) >= 20'."
    ),
]

_PredealOpt = Annotated[
    str | None,
    typer.Option("--predeal", help="Cards given first: 'N:AK.QJ.-.- S:...' or 'north SAK'."),
]

_StrategyOpt = Annotated[
    Strategy,
    typer.Option(
        "--strategy",
        help="With --where: auto (default), rejection or stacking (exact smart stacking).",
        case_sensitive=False,
    ),
]

_FirstBoardOpt = Annotated[
    int | None,
    typer.Option(
        "--first-board",
        help=f"Number of the first board of --format pbn or lin (default 1; 1..{MAX_BOARD}).",
        show_default=False,
    ),
]

_EventOpt = Annotated[str | None, option("--event", "The Event tag of --format pbn (default ?).")]

_LfOpt = Annotated[
    bool, typer.Option("--lf", help="LF line ends in --format pbn (PBN export has CRLF).")
]

_ShowStockOpt = Annotated[
    bool,
    typer.Option(
        "--show-stock",
        help="Text format: show the stock (a face-down draw pile of more than 13 cards), "
        "top first; by default only its number of cards is shown.",
    ),
]


@app.command("deal", help=DEAL_HELP)
def deal_command(
    game: GameArg = None,
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    count: _CountOpt = 1,
    method: _MethodOpt = None,
    seed: SeedOpt = None,
    entropy: EntropyOpt = None,
    fmt: _FmtOpt = None,
    as_json: JsonOpt = False,
    bits: BitsOpt = False,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    engine: _EngineOpt = None,
    out: _OutOpt = None,
    overwrite: OverwriteOpt = False,
    quiet: QuietOpt = False,
    where: _WhereOpt = None,
    predeal: _PredealOpt = None,
    strategy: _StrategyOpt = "auto",
    first_board: _FirstBoardOpt = None,
    event: _EventOpt = None,
    lf: _LfOpt = False,
    show_stock: _ShowStockOpt = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = None,
) -> None:
    """Deal ``count`` deals of a game and print them in the chosen format."""
    code = run_deal(
        game=game, players=players, hands=hands, deck=deck, count=count, method=method,
        seed=seed, entropy=entropy, fmt=fmt, as_json=as_json, bits=bits, scheme=scheme,
        engine=engine, out=out, overwrite=overwrite, quiet=quiet, where=where,
        predeal=predeal, strategy=strategy, first_board=first_board, event=event, lf=lf,
        show_stock=show_stock, workers=workers, scheduler=scheduler, chunk=chunk,
    )  # fmt: skip
    if code:
        raise typer.Exit(code)
